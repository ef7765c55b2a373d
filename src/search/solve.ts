// solve(n, { method }): one solution by the chosen method, run in bounded chunks
// so that maxNodes/maxSteps, timeoutMs, signal and onProgress all work on one thread.
import {
  EXHAUSTED, FOUND, MAX_NODES, MAX_STEPS, MAX_TRIES, RUNNING,
  type EngineName, type SearchMethod, type SearchPhase, type SearchStatus,
} from "../engine/contract.js";
import { MIN_CONFLICTS_MAX_N, WASM_HEAP_BYTES, minConflictsBytes } from "../engine/ts/min-conflicts.js";
import { MIN_CONFLICTS_CONSTRAINED_MAX_N } from "../engine/ts/min-conflicts.js";
import { pickEngine } from "../engine/select.js";
import { rangeError } from "../core/errors.js";
import { ChunkSizer, PACED_OPTION_NAMES, Pacer, now } from "../core/pacer.js";
import { checkConstraints, satisfiesConstraints, type Constraints, type Square } from "../board/constraints.js";
import { DEFAULT_SEED, checkChoice, checkInteger, checkOptions, checkSeed, optionalInteger } from "../core/validate.js";

type Limit = "maxNodes" | "maxSteps" | "maxTries";

/** What a method is: its range of n, the caps that apply to it, whether it is seeded. */
export type MethodSpec = {
  /** Largest n the method accepts (memory or a documented practical limit). */
  maxN: number;
  /** The options that cap its work (exactly, on both engines). */
  limits: readonly Limit[];
  /** Whether the method draws random numbers (and so reports its seed). */
  seeded: boolean;
  /** Whether it takes `stopVegas` (passed to the kernel as its parameter). */
  stopVegas?: true;
};

/** Seed 000's default number of random rows: 8, or n - 15 when n > 15, capped to n. */
export function defaultStopVegas(n: number): number {
  return Math.min(n, n > 15 ? n - 15 : 8);
}

/** Largest n for the array-based tree searches (memory is a few bytes per row). */
export const TREE_MAX_N = 1_000_000;

/** Largest n for hill climbing (each scan of all swaps is O(n^2)). */
export const HILL_CLIMB_MAX_N = 100_000;

/** Largest n for the explicit construction (4-byte columns: 2 GB at the cap). */
export const CONSTRUCT_MAX_N = 500_000_000;

/**
 * Largest n min-conflicts takes by its index arithmetic (diagonal indices up to 2n - 2
 * in an i32). Memory narrows it further: 8 bytes per queen must fit in Wasm's 4 GiB,
 * so n <= MIN_CONFLICTS_MAX_N (536,846,328), checked before anything is allocated.
 */
export const MIN_CONFLICTS_INDEX_MAX_N = 2 ** 30;

/** Refuses, before any allocation, an n whose min-conflicts state cannot fit in Wasm memory. */
function checkMinConflictsMemory(n: number): void {
  const bytes = minConflictsBytes(n);
  if (bytes <= WASM_HEAP_BYTES) return;
  throw rangeError(
    `n = ${n} is too large for method "min-conflicts": it needs ${bytes} bytes (8 per queen + 64 KiB), ` +
      `more than the ${WASM_HEAP_BYTES} bytes Wasm memory can hold; n must be an integer from 1 to ${MIN_CONFLICTS_MAX_N}`,
  );
}

/** The plain problem's constraints in solve: `empty`, and no per-row arrays (never read when empty). */
const PLAIN_BOARD: Constraints = {
  n: 0, fixedColumn: new Int32Array(0), blockedStart: new Int32Array(1), blockedCols: new Int32Array(0), conflict: null, empty: true,
};

/** Largest n of the complete search (a row's open columns in one 64-bit mask). */
export const COMPLETE_MAX_N = 64;

export const METHODS = {
  backtrack: { maxN: TREE_MAX_N, limits: ["maxNodes"], seeded: false },
  // Same arrays as backtrack (a few bytes per row); large n is a matter of patience, not memory.
  "las-vegas": { maxN: TREE_MAX_N, limits: ["maxNodes", "maxTries"], seeded: true },
  hybrid: { maxN: TREE_MAX_N, limits: ["maxNodes", "maxTries"], seeded: true, stopVegas: true },
  // O(n^2) swap evaluations per scan: seed 003 claims n up to about 10^4 (1.5 s on Wasm);
  // 10^5 still ends in minutes (about 4 on Wasm), so that is the cap.
  "hill-climb": { maxN: HILL_CLIMB_MAX_N, limits: ["maxSteps", "maxTries"], seeded: true },
  // 4 bytes per queen, in the caller's array only (the Wasm kernel writes through a 256 KB window).
  construct: { maxN: CONSTRUCT_MAX_N, limits: [], seeded: false },
  // 8 bytes per queen; n = 10^8 in 0.8 GB; memory is checked separately (checkMinConflictsMemory).
  "min-conflicts": { maxN: MIN_CONFLICTS_INDEX_MAX_N, limits: ["maxSteps", "maxTries"], seeded: true },
  // Constrained boards (issue 15): decides every instance, 64-bit bitboards.
  complete: { maxN: COMPLETE_MAX_N, limits: ["maxNodes"], seeded: false },
} as const satisfies Record<SearchMethod, MethodSpec>;

/** Every method `solve` takes: the search methods, and 'auto', which picks one of them by n. */
export type Method = SearchMethod | "auto";
export const METHOD_NAMES = ["auto", ...(Object.keys(METHODS) as SearchMethod[])] as Method[];

/** The method used when none is given. */
export const DEFAULT_METHOD: Method = "auto";

/**
 * What 'auto' runs: backtracking for n <= 12 (it finds the first solution in a few
 * hundred nodes), hybrid with seed 000's stopVegas for 13 <= n < 50, and min-conflicts
 * from n = 50 on (under a millisecond at n = 1000; hybrid takes hundreds there).
 * Thresholds from `npm run bench -- --only seed-001` and a sweep of solve() medians.
 */
export function autoMethod(n: number, constrained = false): SearchMethod {
  // Given queens or blocked squares: the complete search (n <= 64; solve checks n).
  if (constrained) return "complete";
  return n <= 12 ? "backtrack" : n < 50 ? "hybrid" : "min-conflicts";
}

export { DEFAULT_SEED };

export type SolveProgress = {
  /** 'search' for tree searches and hill climbing; 'construct' then 'repair' for min-conflicts. */
  phase: SearchPhase;
  /** Diagonal conflicts left (local search), -1 where it does not apply. */
  conflicts: number;
  method: SearchMethod;
  n: number;
  nodes: number;
  tries: number;
  steps: number;
  elapsedMs: number;
};

export type SolveOptions = {
  /** The algorithm (default 'auto': picks by n, see autoMethod). */
  method?: Method;
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
  /** u32 seed of the random generator (default 1), or 'random' for one drawn from the clock. */
  seed?: number | "random";
  /** 'hybrid' only: how many rows are placed at random before backtracking (0..n; default 8, or n - 15 when n > 15). */
  stopVegas?: number;
  /** Stop after this many nodes (tree searches); the result says found: false, reason 'max-nodes'. */
  maxNodes?: number;
  /** Stop after this many steps (local search); reason 'max-steps'. */
  maxSteps?: number;
  /** Stop after this many tries or restarts (randomized methods); reason 'max-tries'. */
  maxTries?: number;
  /** Stop after this many milliseconds; reason 'timeout'. */
  timeoutMs?: number;
  /** Abort: the promise rejects with the signal's reason (unless a solution was already found). */
  signal?: AbortSignal;
  /** Called after the first chunk of work, then at most every progressIntervalMs (about 20 times a second), and once at the end. */
  onProgress?: (progress: SolveProgress) => void;
  /** Queens given in advance, [row, col] pairs, 0-based (issue 15; not with 'construct'). */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
  /** Least time between two progress reports, 0 to 60000 ms (default 50); 0: after every chunk of the search (about 10 ms), for dense plots. */
  progressIntervalMs?: number;
};

export type StopReason = "no-solution" | "conflict" | "max-nodes" | "max-steps" | "max-tries" | "timeout";

const STOP_REASONS: Partial<Record<SearchStatus, StopReason>> = {
  [EXHAUSTED]: "no-solution",
  [MAX_NODES]: "max-nodes",
  [MAX_STEPS]: "max-steps",
  [MAX_TRIES]: "max-tries",
};

export type SolveResult = {
  n: number;
  /** The method that ran ('auto' reports the one it picked). */
  method: SearchMethod;
  /** 'hybrid' only: the number of random rows used. */
  stopVegas?: number;
  engine: EngineName;
  /** The seed used, or null for a method without randomness. */
  seed: number | null;
  found: boolean;
  /** The solution, columns by row (0-based); a fresh array; null when not found. */
  columns: Int32Array | null;
  /** Empty board = 1 node, each queen placed = 1 node (summed over tries). */
  nodes: number;
  /** Tries (random restarts included); 1 for backtracking. */
  tries: number;
  /** Moves made by local search; 0 for tree searches. */
  steps: number;
  ms: number;
  /** Why nothing was found, when found is false. */
  reason?: StopReason;
  /** reason 'conflict': the given queens that attack each other, or the given queen on a blocked square. */
  conflict?: { reason: string; squares: Square[] };
};

const OPTION_NAMES = [
  "method", "engine", "seed", "stopVegas", "maxNodes", "maxSteps", "maxTries", "fixed", "blocked", ...PACED_OPTION_NAMES,
] as const;
const LIMITS: readonly Limit[] = ["maxNodes", "maxSteps", "maxTries"];

/**
 * Finds one solution of the n-queens problem.
 * @example const { columns } = await solve(8); // Int32Array [0, 4, 7, 5, 2, 6, 1, 3]
 */
export async function solve(n: number, options?: SolveOptions): Promise<SolveResult> {
  const opts = checkOptions<SolveOptions>("solve", options, OPTION_NAMES);
  const requested = opts.method === undefined ? DEFAULT_METHOD : checkChoice("method", opts.method, METHOD_NAMES);
  const auto = requested === "auto";
  const givens = opts.fixed !== undefined || opts.blocked !== undefined;
  checkInteger("n", n, 1, auto ? (givens ? COMPLETE_MAX_N : MIN_CONFLICTS_MAX_N) : METHODS[requested].maxN);
  // Without givens, no per-row arrays: n may be 5 x 10^8 (construct), and nothing reads them.
  const constraints: Constraints = givens ? checkConstraints(n, { fixed: opts.fixed, blocked: opts.blocked }, "solve") : PLAIN_BOARD;
  if (requested === "construct" && !constraints.empty) {
    throw rangeError(`method "construct" cannot honour given queens or blocked squares (it builds one fixed pattern); use "complete" or "auto"`);
  }
  const method = auto ? autoMethod(n, !constraints.empty) : requested;
  const spec: MethodSpec = METHODS[method];
  if (method === "min-conflicts") checkMinConflictsMemory(n);
  if (method === "min-conflicts" && !constraints.empty && n > MIN_CONFLICTS_CONSTRAINED_MAX_N) {
    throw rangeError(
      `n = ${n} is too large for method "min-conflicts" with given queens or blocked squares: ` +
        `n must be an integer from 1 to ${MIN_CONFLICTS_CONSTRAINED_MAX_N} on a constrained board`,
    );
  }
  const engine = pickEngine(opts.engine);
  const seed = checkSeed(opts.seed);
  const caps = { maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity };
  for (const limit of LIMITS) {
    if (opts[limit] === undefined) continue;
    if (auto) checkInteger(limit, opts[limit], 1, Number.MAX_SAFE_INTEGER);
    if (!spec.limits.includes(limit)) {
      if (auto) continue; // 'auto' applies the limits that fit the method it picked
      const allowed = spec.limits.length ? `it takes ${spec.limits.join(", ")}` : "it takes no work limit";
      throw rangeError(`${limit} does not apply to method ${JSON.stringify(method)} (${allowed})`);
    }
    caps[limit] = checkInteger(limit, opts[limit], 1, Number.MAX_SAFE_INTEGER);
  }
  let param = 0;
  if (auto && opts.stopVegas !== undefined) {
    throw rangeError(`stopVegas applies only to method "hybrid"; with method "auto" the default is used`);
  } else if ("stopVegas" in spec) {
    param = optionalInteger("stopVegas", opts.stopVegas, 0, n, defaultStopVegas(n));
  } else if (opts.stopVegas !== undefined) {
    throw rangeError(`stopVegas applies only to method "hybrid", not to ${JSON.stringify(method)}`);
  }
  const pacer = Pacer.from<SolveProgress>(opts);
  pacer.throwIfAborted();

  const base = {
    n, method, ...("stopVegas" in spec ? { stopVegas: param } : {}), engine: engine.name, seed: spec.seeded ? seed : null,
  };
  if (constraints.conflict !== null) {
    const { reason, squares } = constraints.conflict;
    pacer.finish({ phase: "search", conflicts: -1, method, n, nodes: 0, tries: 0, steps: 0, elapsedMs: pacer.elapsed() });
    return { ...base, found: false, columns: null, nodes: 0, tries: 0, steps: 0, ms: pacer.elapsed(), reason: "conflict", conflict: { reason, squares } };
  }
  if (n === 2 || n === 3) {
    pacer.finish({ phase: "search", conflicts: -1, method, n, nodes: 0, tries: 0, steps: 0, elapsedMs: pacer.elapsed() });
    return { ...base, found: false, columns: null, nodes: 0, tries: 0, steps: 0, ms: pacer.elapsed(), reason: "no-solution" };
  }
  const search = engine.openSearch(method, n, { seed, param, ...caps, ...(constraints.empty ? {} : { constraints }) });
  try {
    const progress = (): SolveProgress => ({ ...search.state(), method, n, ...search.stats(), elapsedMs: pacer.elapsed() });
    const sizer = new ChunkSizer();
    let reason: StopReason | undefined;
    for (;;) {
      const t0 = now();
      const status = search.run(search.work() + sizer.get());
      sizer.observe(now() - t0);
      if (status === FOUND) break;
      if (status !== RUNNING) { reason = STOP_REASONS[status]; break; }
      const stop = pacer.stopReason();
      if (stop === "aborted") pacer.throwIfAborted();
      if (stop === "timeout") { reason = "timeout"; break; }
      await pacer.between(progress);
    }
    pacer.finish(progress());
    const stats = search.stats();
    const found = reason === undefined;
    if (found && !constraints.empty && !satisfiesConstraints(constraints, search.columns())) {
      throw new Error(`method ${JSON.stringify(method)} returned a board that breaks the given queens or blocked squares (a bug)`);
    }
    return { ...base, found, columns: found ? search.columns() : null, ...stats, ms: pacer.elapsed(), ...(found ? {} : { reason }) };
  } finally {
    search.close();
  }
}
