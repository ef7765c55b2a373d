// solve(n, { method: 'complete', workers }) against one thread: Excluded Diagonals boards
// that take one thread seconds, n = 30 near d = 36 (bench/constrained.mjs benchFrontier has
// the sweep they come from) and n = 23 (SOLVE_WORKERS_BOARDS says why). Each board is solved, interleaved, on this thread (no workers),
// on one pool thread (workers: 1, the one thread's search on a pool thread) and on two (workers: 2: the
// restarting search on one, the 64-bit search's tasks on the other); the ratio two/one (workers 2 over workers 1) is what a second thread buys, and
// two/this thread what a caller gains over plain solve; cpu_ms is the process's CPU time (every
// thread), which on a loaded machine says more of the work done than the wall time. Every verdict must agree (a run cut by
// the time limit is undecided, Infinity in the table); every found board is verified. The boards that take this thread
// more than 10 s are summed up as the goal reads them: the geometric mean of two/this thread over them, and the worst.
import os from "node:os";
import { excludedDiagonalsBoard, solve, verify } from "../dist/index.js";
import { FRONTIER_HARD } from "./frontier.mjs";
import { median, printTable, round } from "./lib.mjs";

/**
 * Boards (n, d, seed) that one thread decides in seconds: at n = 30, d = 33 and 34, boards with
 * a solution (2 and 15 s on one thread, load 10); without one, n = 23 (3 and 12 s): at n = 30
 * the boards near d = 36 without a solution are either proved at the root (d = 35 seeds 2, 3,
 * every seed 1-3 of d = 36 and 38) or undecided after minutes (d = 34 seeds 2-5, d = 35 seeds 1, 4, 5);
 * n = 30, d = 36 seed 4 is the frontier sweep's slowest board, proved without a solution in 31M
 * nodes (17 s on one thread, load 8).
 */
export const SOLVE_WORKERS_BOARDS = [[30, 33, 1], [30, 34, 1], [23, 21, 1], [23, 22, 2], [30, 36, 4]];

/** The frontier's hard boards (bench/frontier.mjs FRONTIER_HARD) not above, as [n, d, seed, minFree]: undecided on one thread in minutes. */
export const SOLVE_WORKERS_HARD = FRONTIER_HARD.filter((b) => !(b.minFree === 1 && SOLVE_WORKERS_BOARDS.some(([n, d, seed]) => n === b.n && d === b.d && seed === b.seed)))
  .map((b) => [b.n, b.d, b.seed, b.minFree]);

async function timed(n, blocked, workers, timeoutMs) {
  const t0 = performance.now(), cpu0 = process.cpuUsage();
  const r = await solve(n, { method: "complete", blocked, timeoutMs, ...(workers === undefined ? {} : { workers }) });
  const ms = performance.now() - t0, cpu = process.cpuUsage(cpu0);
  if (r.found && !verify(r.columns).ok) throw new Error(`solve-workers: a board found with workers ${workers} is not a solution`);
  return { ms: r.reason === "timeout" ? Infinity : ms, cpuMs: (cpu.user + cpu.system) / 1000, verdict: r.reason === "timeout" ? "undecided" : r.found ? "found" : "none", nodes: r.nodes };
}

export async function benchSolveWorkers({ boards = [...SOLVE_WORKERS_BOARDS, ...SOLVE_WORKERS_HARD], repeats = 1, timeoutMs = 60_000 } = {}) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const loadBefore = os.loadavg();
  const rows = [];
  for (const [n, d, seed, minFree = 1] of boards) {
    const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
    const runs = { here: [], one: [], two: [] };
    for (let i = 0; i < repeats; i++) {
      runs.here.push(await timed(n, blocked, undefined, timeoutMs));
      runs.one.push(await timed(n, blocked, 1, timeoutMs));
      runs.two.push(await timed(n, blocked, 2, timeoutMs));
    }
    const verdicts = new Set(Object.values(runs).flat().map((r) => r.verdict).filter((v) => v !== "undecided"));
    if (verdicts.size > 1) throw new Error(`solve-workers: the verdicts disagree on n = ${n}, d = ${d}, seed ${seed}, minFree ${minFree}: ${[...verdicts].join(", ")}`);
    const ms = (list) => median(list.map((r) => r.ms));
    const [here, one, two] = [ms(runs.here), ms(runs.one), ms(runs.two)];
    rows.push({
      n, d, seed, minFree, verdict: [...verdicts][0] ?? "undecided",
      this_thread_ms: round(here, 0), workers1_ms: round(one, 0), workers2_ms: round(two, 0),
      two_over_one: round(two / one, 2), two_over_this_thread: round(two / here, 2),
      cpu_ms_this_thread: round(median(runs.here.map((r) => r.cpuMs)), 0), cpu_ms_workers1: round(median(runs.one.map((r) => r.cpuMs)), 0), cpu_ms_workers2: round(median(runs.two.map((r) => r.cpuMs)), 0),
      nodes_this_thread: median(runs.here.map((r) => r.nodes)), nodes_workers1: median(runs.one.map((r) => r.nodes)), nodes_workers2: median(runs.two.map((r) => r.nodes)),
    });
    console.error(JSON.stringify(rows.at(-1)));
  }
  const loadAfter = os.loadavg();
  // The goal's boards: this thread took more than 10 s on them; one it left undecided counts with its time limit (a bound:
  // two / this thread is at most that), and one neither decided is left out (counted apart).
  const slow = rows.filter((r) => r.this_thread_ms > 10_000 && Number.isFinite(Math.min(r.this_thread_ms, r.workers2_ms)));
  const ratio = (r) => r.workers2_ms / Math.min(r.this_thread_ms, timeoutMs);
  const goal = {
    boards: slow.length, undecided_both: rows.filter((r) => r.this_thread_ms === Infinity && r.workers2_ms === Infinity).length,
    geomean_two_over_this_thread: slow.length ? round(Math.exp(slow.reduce((a, r) => a + Math.log(ratio(r)), 0) / slow.length), 2) : null,
    worst_two_over_this_thread: slow.length ? round(Math.max(...slow.map(ratio)), 2) : null,
  };
  console.error(`solve-workers: boards over 10 s on this thread: ${JSON.stringify(goal)}`);
  printTable(
    `solve, method 'complete', on this thread, on 1 pool thread and on 2 (Excluded Diagonals at n = 23 to 34, minFree 1 unless the row says 4; ${repeats} run${repeats > 1 ? "s" : ""} each, interleaved, medians; ${timeoutMs / 1000} s a run, Infinity: undecided); ` +
      `${cores} cores, load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`,
    rows,
  );
  return { cores, load_before: round(loadBefore[0], 2), load_after: round(loadAfter[0], 2), goal, rows };
}
