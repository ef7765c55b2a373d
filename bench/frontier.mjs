// The hard frontier on CSPLib 079's own instance family: Excluded Diagonals boards
// (src/board/excluded-diagonals.ts) at n = 30 to 36 over the hard region d = 0.8n to 1.2n,
// for minFree 1 (the package's first sweep) and 4 (the `mininfile` of the published instance
// names diag-N-4-ID: at least four free squares left in every row and column), several seeds
// a size, the complete search (Wasm, one thread) beside CaDiCaL on the same boards as CNF.
// Also FRONTIER_HARD: boards found hard, kept as fixed cases (`--only frontier-hard`), so a
// change to the search is measured on them every time (never as timed tests).
import os from "node:os";
import { excludedDiagonalsBoard, solve } from "../dist/index.js";
import { cadical, haveCadical } from "./cnf.mjs";
import { median, printTable, round } from "./lib.mjs";

/** The hard region's d for one n: about 0.8n to 1.2n, `steps` values evenly spaced. */
export function frontierDs(n, steps = 5) {
  const lo = Math.round(0.8 * n), hi = Math.round(1.2 * n);
  return Array.from({ length: steps }, (_, i) => Math.round(lo + ((hi - lo) * i) / (steps - 1)));
}

/**
 * Boards found hard (n, d, minFree, seed) and what was seen of them on one thread: kept so that a
 * change to the search is measured on the same boards. Add a board with where it came from.
 */
export const FRONTIER_HARD = [
  // The minFree 1 sweep's slowest decided board: no solution, 31,190,296 nodes (17 s, load 8); with
  // the needed diagonals 7,163,806 nodes (6.9 s, load 3).
  { n: 30, d: 36, minFree: 1, seed: 4 },
  // Undecided after minutes on one thread in the first sweeps (minFree 1); the 64-bit tree estimated
  // (256 probes) at 1.3 * 10^10, 3.0 * 10^10 and 2.1 * 10^10: hours of it. Undecided at 10^8 nodes.
  // n = 32, d = 34, seeds 1 and 2 have no solution: the 64-bit search proved them in 7,402,738,560 and
  // 5,402,499,095 nodes over their roots' 11 and 10 sub-boards (69 and 63 min on two shared cores,
  // docs/constrained.md).
  { n: 30, d: 34, minFree: 1, seed: 2 },
  { n: 32, d: 34, minFree: 1, seed: 1 },
  { n: 32, d: 34, minFree: 1, seed: 2 },
  // The published family (minFree 4), undecided in 30 s on one thread at load 6-11 (11.5M and 4.1M nodes),
  // CaDiCaL undecided too (bench/results/2026-12-06T05-30-19.json); decided in the full sweep
  // (28.7 s, no solution; 4.8 s, found), kept as the slow end of what is decided. With the needed
  // diagonals: 328,145 nodes (0.25 s), and found in 3,356,174 (3.3 s).
  { n: 32, d: 35, minFree: 4, seed: 2 },
  { n: 34, d: 34, minFree: 4, seed: 2 },
  // n = 36, minFree 4, undecided in 30 s on one thread at load 1.0-1.4 (27.4M, 37.5M and 39.5M
  // nodes), CaDiCaL undecided too (bench/results/2026-12-06T11-01-25.json). d = 33 seed 2 and d = 36
  // seed 1 have solutions: the restarting search finds them in 21.4M and 21.7M of its nodes, solve
  // in 43,005,151 and 43,698,763 since its shares stay equal where the 64-bit tree is estimated out of
  // reach (1.1 * 10^15 and 2.9 * 10^15; complete-estimate.ts). d = 40 seed 1: estimated 5.8 * 10^10,
  // undecided at 10^8 nodes.
  { n: 36, d: 33, minFree: 4, seed: 2 },
  { n: 36, d: 36, minFree: 4, seed: 1 },
  { n: 36, d: 40, minFree: 4, seed: 1 },
  // The full minFree 4 sweep (5 seeds, 60 s a board on a core of its own): undecided at 60 s
  // (53M to 125M nodes), CaDiCaL undecided too (bench/results/2026-12-06T19-59-08.json). Still
  // undecided at 10^8 nodes of solve; the 64-bit tree estimated (256 probes) at 1.3 * 10^11, 1.6 *
  // 10^10, 3.3 * 10^9, 2.8 * 10^14, 6.5 * 10^14 and 8.1 * 10^9 (docs/constrained.md, where the nodes go).
  { n: 32, d: 29, minFree: 4, seed: 5 },
  { n: 32, d: 32, minFree: 4, seed: 5 },
  { n: 34, d: 34, minFree: 4, seed: 5 },
  // Has a solution: the restarting search alone (rotating, param bits 8 and 2048) finds one in
  // 55,351,758 of its nodes (2026-12-07); solve with its equal shares would take about twice that.
  { n: 36, d: 33, minFree: 4, seed: 5 },
  { n: 36, d: 40, minFree: 4, seed: 4 },
  { n: 36, d: 43, minFree: 4, seed: 4 },
];

/** One board: ours (decided or not, ms, nodes) and CaDiCaL's (sat or undefined, ms), the verdicts compared. */
async function oneBoard({ n, d, minFree, seed }, timeoutMs, withCadical, cadicalTimeoutMs) {
  const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
  const r = await solve(n, { method: "complete", engine: "wasm", blocked, timeoutMs });
  const decided = r.reason !== "timeout";
  const row = { n, d, minFree, seed, verdict: decided ? (r.found ? "found" : "none") : "undecided", ms: decided ? round(r.ms, 1) : Infinity, nodes: r.nodes };
  if (withCadical) {
    const c = cadical(n, { blocked }, cadicalTimeoutMs);
    Object.assign(row, { cadical: c.sat === undefined ? "undecided" : c.sat ? "found" : "none", cadical_ms: c.sat === undefined ? Infinity : round(c.ms, 1) });
    if (decided && c.sat !== undefined && c.sat !== r.found) throw new Error(`frontier: CaDiCaL and the complete search disagree on n = ${n}, d = ${d}, minFree ${minFree}, seed ${seed}`);
  }
  return row;
}

/** The sweep: every n, minFree and d (frontierDs), `seeds` boards each; a row per (n, minFree, d), and every board's figures. */
export async function benchFrontierSweep({ ns = [30, 32, 34, 36], minFrees = [1, 4], seeds = 5, steps = 5, timeoutMs = 60_000, cadicalTimeoutMs = 60_000, withCadical = haveCadical() } = {}) {
  const load = [os.loadavg()[0]];
  const rows = [], boards = [];
  for (const n of ns) {
    for (const minFree of minFrees) {
      for (const d of frontierDs(n, steps)) {
        const mine = [];
        for (let seed = 1; seed <= seeds; seed++) {
          const b = await oneBoard({ n, d, minFree, seed }, timeoutMs, withCadical, cadicalTimeoutMs);
          mine.push(b);
          boards.push(b);
        }
        const count = (v) => mine.filter((b) => b.verdict === v).length;
        const row = {
          n, minFree, d, found: count("found"), none: count("none"), undecided: count("undecided"),
          median_ms: round(median(mine.map((b) => b.ms)), 1), worst_ms: Math.max(...mine.map((b) => b.ms)),
          nodes_median: median(mine.map((b) => b.nodes)),
        };
        if (withCadical) {
          Object.assign(row, {
            cadical_median_ms: round(median(mine.map((b) => b.cadical_ms)), 1), cadical_worst_ms: Math.max(...mine.map((b) => b.cadical_ms)),
            cadical_undecided: mine.filter((b) => b.cadical === "undecided").length,
            // Boards CaDiCaL decided sooner than ours (ours undecided counts when CaDiCaL decided it).
            cadical_faster: mine.filter((b) => b.cadical_ms < b.ms).length,
          });
        }
        rows.push(row);
        load.push(os.loadavg()[0]);
        console.error(JSON.stringify(row));
      }
    }
  }
  printTable(
    `Excluded Diagonals (CSPLib 079's generator), ${seeds} boards a size, ${timeoutMs / 1000} s a board on one thread (Infinity: undecided)` +
      `${withCadical ? `; CaDiCaL on the same CNF, ${cadicalTimeoutMs / 1000} s a board` : "; cadical not installed"}; load ${Math.min(...load).toFixed(1)} to ${Math.max(...load).toFixed(1)}`,
    rows,
  );
  return { load_min: round(Math.min(...load), 2), load_max: round(Math.max(...load), 2), rows, boards };
}

/** The fixed hard boards (FRONTIER_HARD), each on one thread beside CaDiCaL. */
export async function benchFrontierHard({ boards = FRONTIER_HARD, timeoutMs = 60_000, cadicalTimeoutMs = 60_000, withCadical = haveCadical() } = {}) {
  const loadBefore = os.loadavg()[0];
  const rows = [];
  for (const board of boards) {
    rows.push(await oneBoard(board, timeoutMs, withCadical, cadicalTimeoutMs));
    console.error(JSON.stringify(rows.at(-1)));
  }
  printTable(`The frontier's hard boards, ${timeoutMs / 1000} s a board (Infinity: undecided); load ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after`, rows);
  return { load_before: round(loadBefore, 2), load_after: round(os.loadavg()[0], 2), rows };
}
