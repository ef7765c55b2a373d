// Blocked n-Queens: a seeded generator of blocked boards made as the
// competition instances are (block m squares chosen at random, skipping any square
// whose row or column would keep fewer than k free squares), a sweep over m at
// several n locating where about half the boards are solvable (the hard region), and
// per n and m the median and worst time and nodes of the complete search on Wasm and
// TS, against plain row-order backtracking (method 'backtrack') on the same boards, capped.
import { excludedDiagonalsBoard, solve } from "../dist/index.js";
import { cadical, haveCadical } from "./cnf.mjs";
import { median, printTable, round } from "./lib.mjs";

/** mulberry32: the benchmark's own seeded generator (so boards never change with the package). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The blocked squares of one board: the n^2 squares in a seeded random order, each blocked
 * unless its row or column would keep fewer than k free squares, until m are blocked.
 */
export function blockedBoard(n, m, k, seed) {
  const random = rng(seed * 1_000_003 + n * 1009 + m);
  const order = Array.from({ length: n * n }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const rowFree = new Array(n).fill(n), colFree = new Array(n).fill(n);
  const blocked = [];
  for (const square of order) {
    if (blocked.length === m) break;
    const r = Math.floor(square / n), c = square % n;
    if (rowFree[r] - 1 < k || colFree[c] - 1 < k) continue;
    rowFree[r]--;
    colFree[c]--;
    blocked.push([r, c]);
  }
  return blocked;
}

/**
 * Knuth's (1975) estimate of the nodes of the row-order backtracking tree of a blocked board
 * (the empty board and every consistent placement of rows 0..k-1): the mean over random
 * probes of 1 + d1 + d1*d2 + ..., with its standard error. On a board with no solution,
 * row-order backtracking visits exactly this tree, so the estimate stands for its nodes
 * where running it to the end would take hours.
 */
export function rowOrderTreeEstimate(n, blocked, probes, seed) {
  const random = rng(seed);
  const isBlocked = new Uint8Array(n * n);
  for (const [r, c] of blocked) isBlocked[r * n + c] = 1;
  const col = new Uint8Array(n), sum = new Uint8Array(2 * n), diff = new Uint8Array(2 * n);
  const safe = new Int32Array(n);
  let mean = 0, m2 = 0;
  for (let p = 1; p <= probes; p++) {
    col.fill(0); sum.fill(0); diff.fill(0);
    let product = 1, total = 1;
    for (let r = 0; r < n; r++) {
      let d = 0;
      for (let c = 0; c < n; c++) if (!isBlocked[r * n + c] && !col[c] && !sum[r + c] && !diff[r - c + n]) safe[d++] = c;
      if (d === 0) break;
      product *= d;
      total += product;
      const c = safe[Math.floor(random() * d)];
      col[c] = sum[r + c] = diff[r - c + n] = 1;
    }
    const delta = total - mean;
    mean += delta / p;
    m2 += delta * (total - mean);
  }
  return { mean, stderr: Math.sqrt(m2 / (probes - 1) / probes) };
}

/**
 * The given queens of an n-Queens Completion board: the n^2 squares in a seeded random order,
 * each taken as a given queen when it attacks none taken before, until k are given.
 */
export function completionBoard(n, k, seed) {
  const random = rng(seed * 7_000_003 + n * 31 + k);
  const col = new Uint8Array(n), row = new Uint8Array(n), sum = new Uint8Array(2 * n), diff = new Uint8Array(2 * n);
  const fixed = [];
  for (let tries = 0; fixed.length < k && tries < 100 * n * n; tries++) {
    const r = Math.floor(random() * n), c = Math.floor(random() * n);
    if (row[r] || col[c] || sum[r + c] || diff[r - c + n]) continue;
    row[r] = col[c] = sum[r + c] = diff[r - c + n] = 1;
    fixed.push([r, c]);
  }
  return fixed;
}

const stats = (values) => (values.length ? { median: median(values), worst: Math.max(...values) } : { median: undefined, worst: undefined });

/**
 * One row per (n, m): boards solvable, median/worst ms and nodes of 'complete' on wasm and ts,
 * and row-order backtracking's nodes (capped at backtrackCap; '>' when a board hit the cap).
 */
export async function benchConstrained({
  sweep = [
    { n: 28, ms: [575, 600, 625] },
    { n: 48, ms: [1900, 1950, 2000] },
    { n: 56, ms: [2700, 2725, 2750] },
  ],
  boards = 5, k = 1, probes = 20_000, timeoutMs = 60_000, tsTimeoutMs = 30_000, backtrackCap = 1e8, engines = ["wasm", "ts"],
  cadicalTimeoutMs = 30_000, wide = true, frontier = true, frontierOptions = {}, wideOptions = {},
} = {}) {
  const withCadical = haveCadical();
  const rows = [];
  for (const { n, ms } of sweep) {
    for (const m of ms) {
      const row = { n, m, boards, solvable: 0, undecided: 0 };
      const cad = { ms: [], disagree: 0, undecided: 0 };
      const per = { wasm: { ms: [], nodes: [] }, ts: { ms: [], nodes: [] } };
      const ratios = [];
      let capped = 0, estimated = 0;
      for (let seed = 1; seed <= boards; seed++) {
        const blocked = blockedBoard(n, m, k, seed);
        let completeNodes, completeFound;
        for (const engine of engines) {
          const r = await solve(n, { method: "complete", engine, blocked, timeoutMs: engine === "ts" ? tsTimeoutMs : timeoutMs });
          if (r.reason === "timeout") {
            if (engine === "wasm") row.undecided++;
            per[engine].ms.push(Infinity);
            continue;
          }
          per[engine].ms.push(r.ms);
          per[engine].nodes.push(r.nodes);
          if (engine === "wasm") {
            completeNodes = r.nodes;
            completeFound = r.found;
            if (r.found) row.solvable++;
          }
        }
        if (withCadical) {
          const c = cadical(n, { blocked }, cadicalTimeoutMs);
          cad.ms.push(c.sat === undefined ? Infinity : c.ms);
          if (c.sat === undefined) cad.undecided++;
          else if (completeFound !== undefined && c.sat !== completeFound) cad.disagree++;
        }
        if (completeNodes !== undefined) {
          const b = await solve(n, { method: "backtrack", engine: "wasm", blocked, maxNodes: backtrackCap });
          let nodes = b.nodes;
          if (b.reason === "max-nodes") {
            // No solution (the complete search proved it): backtracking would walk the whole tree; estimate it.
            if (!completeFound) {
              const e = rowOrderTreeEstimate(n, blocked, probes, seed);
              nodes = Math.max(backtrackCap, e.mean);
              estimated++;
            } else capped++;
          }
          ratios.push(nodes / completeNodes);
        }
      }
      for (const engine of engines) {
        const t = stats(per[engine].ms), nd = stats(per[engine].nodes);
        row[`${engine}_median_ms`] = round(t.median, 1);
        row[`${engine}_worst_ms`] = round(t.worst, 1);
        row[`${engine}_median_nodes`] = nd.median;
        row[`${engine}_worst_nodes`] = nd.worst;
      }
      // Backtracking's nodes over the complete search's, per board; with the cap this is a lower bound.
      row.backtrack_over_complete_median = ratios.length ? `${capped ? ">=" : estimated ? "~" : ""}${round(median(ratios), 0)}` : undefined;
      row.backtrack_capped = capped;
      row.backtrack_estimated = estimated;
      if (withCadical) Object.assign(row, cadicalColumns(cad, per.wasm.ms));
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
  printTable(
    `Blocked n-Queens (k = ${k}, ${boards} boards per m): the complete search vs row-order backtracking ` +
      `(capped at ${backtrackCap} nodes; past the cap on a board with no solution, Knuth's estimate of its whole tree, ${probes} probes: ~; ` +
      `on a solvable board the cap, a lower bound: >=)`,
    rows,
  );
  const result = { blocked: rows };
  if (wide) result.wide = await benchWide({ boards, cadicalTimeoutMs, ...wideOptions });
  if (frontier) result.frontier = await benchFrontier(frontierOptions);
  return result;
}

/** CaDiCaL's columns of a row: its median (Infinity: undecided), ours over its (median of per-board ratios), disagreements. */
function cadicalColumns(cad, oursMs) {
  const ratios = oursMs.map((ms, i) => cad.ms[i] / ms).filter((x) => Number.isFinite(x) || x === Infinity);
  return {
    cadical_median_ms: round(median(cad.ms), 1),
    cadical_undecided: cad.undecided,
    cadical_over_ours_median: ratios.length ? round(median(ratios), 2) : undefined,
    cadical_disagree: cad.disagree,
  };
}

/**
 * Boards past n = 64 (the wide path; Wasm only, per-board timeout): Blocked n-Queens at fractions of the
 * board blocked (k = 1) and n-Queens Completion with given queens, each beside CaDiCaL on the same board as CNF.
 */
export async function benchWide({
  classes = [
    { n: 100, kind: "blocked", sizes: [8800, 9000, 9200] },
    { n: 100, kind: "completion", sizes: [25, 50] },
    { n: 200, kind: "blocked", sizes: [36000, 37000] },
    { n: 200, kind: "completion", sizes: [50, 100] },
  ],
  boards = 5, timeoutMs = 30_000, cadicalTimeoutMs = 30_000,
} = {}) {
  const withCadical = haveCadical();
  const rows = [];
  for (const { n, kind, sizes } of classes) {
    for (const size of sizes) {
      const row = { n, kind, size, boards, solvable: 0, undecided: 0 };
      const ours = { ms: [], nodes: [] };
      const cad = { ms: [], disagree: 0, undecided: 0 };
      for (let seed = 1; seed <= boards; seed++) {
        const givens = kind === "blocked" ? { blocked: blockedBoard(n, size, 1, seed) } : { fixed: completionBoard(n, size, seed) };
        const r = await solve(n, { method: "complete", engine: "wasm", ...givens, timeoutMs });
        const decided = r.reason !== "timeout";
        if (!decided) row.undecided++;
        else if (r.found) row.solvable++;
        ours.ms.push(decided ? r.ms : Infinity);
        ours.nodes.push(r.nodes);
        if (withCadical) {
          const c = cadical(n, givens, cadicalTimeoutMs);
          cad.ms.push(c.sat === undefined ? Infinity : c.ms);
          if (c.sat === undefined) cad.undecided++;
          else if (decided && c.sat !== r.found) cad.disagree++;
        }
      }
      const t = stats(ours.ms), nd = stats(ours.nodes);
      Object.assign(row, { wasm_median_ms: round(t.median, 1), wasm_worst_ms: round(t.worst, 1), nodes_median: nd.median, nodes_worst: nd.worst });
      if (withCadical) Object.assign(row, cadicalColumns(cad, ours.ms));
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  }
  printTable(
    `Boards past n = 64 (the wide path, Wasm, ${timeoutMs / 1000} s a board${withCadical ? `; CaDiCaL on the same CNF, ${cadicalTimeoutMs / 1000} s a board, Infinity: undecided` : "; cadical not installed"})`,
    rows,
  );
  return rows;
}

/**
 * The hard frontier: Excluded Diagonals boards (src/board/excluded-diagonals.ts, CSPLib 079's
 * generator, minFree 1) at n = 30 over d, several boards each, a timeout per board; decided
 * (solvable / proved none) or not, times and nodes (Wasm).
 */
export async function benchFrontier({ n = 30, ds = [20, 24, 28, 32, 36, 40], boards = 5, timeoutMs = 60_000, minFree = 1, withCadical = false, cadicalTimeoutMs = 60_000 } = {}) {
  const rows = [];
  for (const d of ds) {
    const row = { n, d, boards, solvable: 0, none: 0, undecided: 0 };
    const ms = [], nodes = [], cad = { ms: [], disagree: 0, undecided: 0 };
    for (let seed = 1; seed <= boards; seed++) {
      const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
      const r = await solve(n, { method: "complete", engine: "wasm", blocked, timeoutMs });
      const decided = r.reason !== "timeout";
      if (!decided) row.undecided++;
      else if (r.found) row.solvable++;
      else row.none++;
      ms.push(decided ? r.ms : Infinity);
      nodes.push(r.nodes);
      if (withCadical && haveCadical()) {
        const c = cadical(n, { blocked }, cadicalTimeoutMs);
        cad.ms.push(c.sat === undefined ? Infinity : c.ms);
        if (c.sat === undefined) cad.undecided++;
        else if (decided && c.sat !== r.found) cad.disagree++;
      }
    }
    const t = stats(ms), nd = stats(nodes);
    Object.assign(row, { median_ms: round(t.median, 1), worst_ms: round(t.worst, 1), nodes_median: nd.median, nodes_worst: nd.worst });
    if (cad.ms.length) Object.assign(row, cadicalColumns(cad, ms));
    rows.push(row);
    console.error(JSON.stringify(row));
  }
  printTable(`Excluded Diagonals, n = ${n}, minFree ${minFree}, ${boards} boards per d, ${timeoutMs / 1000} s a board (Infinity: undecided)`, rows);
  return rows;
}
