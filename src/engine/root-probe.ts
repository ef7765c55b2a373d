// The root's probe of the complete search (internal): what every solve runs first on the
// calling thread at n <= 64, one thread, on threads and on the queue alike, before its
// portfolio or its cut into tasks (src/search/solve.ts, src/workers/solve-parallel.ts,
// src/distributed/solve-coordinator.ts).
import { FOUND, type EngineName, type SearchStatus } from "./contract.js";
import type { Constraints } from "../board/constraints.js";
import { pickEngine } from "./select.js";
import { COMPLETE_PLAIN, NARROW_MAX_N } from "./ts/complete.js";

/**
 * The nodes of searchRoot's probe: the 64-bit search with its lookahead from the root (the
 * plain tasks' search), which refutes many boards the portfolio's first run (its lookahead held
 * back) takes 10^5 nodes or more to: Excluded Diagonals at n = 32, d = 35 seed 1, d = 39 seeds
 * 28 and 26 in 5, 30 and 84 nodes, where the portfolio took 214k to 262k, and where the root's
 * first branch, never reached, left the cut to the prefix split (228 to 396 tasks); d = 35
 * seed 2, minFree 4, in 466, where the portfolio took 328k. 1,024 nodes take 2 to 5 ms at
 * n = 64 (measured, load 3 to 4): one synchronous call, well inside the abort latency; 4,096
 * would find more boards (n = 32, minFree 4, d = 26 and 29: some in 5k to 16k) at 15 to 21 ms.
 */
export const ROOT_PROBE_NODES = 1024;

/** Whether searchRoot probes (the 64-bit path, n <= 64, without a node cap), rather than searching the portfolio's root alone. */
export function probesRoot(n: number, maxNodes: number): boolean {
  return maxNodes === Infinity && n <= NARROW_MAX_N;
}

/**
 * The whole board's complete search, on this thread, to its root's verdict: on the 64-bit path
 * (n <= 64) the plain tasks' search (the 64-bit search with its lookahead from the root) for
 * ROOT_PROBE_NODES nodes (its last step may pass them by up to n^2); under a node cap, and past
 * n = 64, the portfolio's root, its first node or two (never past the cap). Many boards are
 * decided there (the diagonal bounds and the lookahead prove them without a completion, or a
 * solution lies on its first path), and need no task at all.
 */
export function searchRoot(n: number, constraints: Constraints, engineName: EngineName | undefined, maxNodes = Infinity): { status: SearchStatus; nodes: number; columns: Int32Array | null } {
  // Under a node cap the portfolio's root alone, its first node or two: a limit is exact at every
  // node there, where the lookahead's step may pass a limit by up to n^2 nodes. Past n = 64 too
  // (the wide path, whose nodes cost up to milliseconds each at n = 1000: the probe, one call,
  // would not stop at an abort).
  const rootOnly = !probesRoot(n, maxNodes);
  // (solve mode is param 0: the portfolio; COMPLETE_PLAIN, the 64-bit search alone)
  const search = pickEngine(engineName).openSearch("complete", n, {
    seed: 0, param: rootOnly ? 0 : COMPLETE_PLAIN, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity, ...(constraints.empty ? {} : { constraints }),
  });
  try {
    const status = search.run(rootOnly ? Math.min(2, maxNodes) : ROOT_PROBE_NODES);
    return { status, nodes: search.stats().nodes, columns: status === FOUND ? search.columns() : null };
  } finally {
    search.close();
  }
}
