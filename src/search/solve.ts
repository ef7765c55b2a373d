// solve(n, { method }): one solution by the chosen method, run in bounded chunks
// so that maxNodes/maxSteps, timeoutMs, signal and onProgress all work on one thread.
// Its options are checked once, into a plan (planSolve), for this thread (solvePlanned) or,
// with `workers`, for the complete search's tasks on the thread pool
// (src/workers/solve-parallel.ts, whose solve is the package's: search/ imports no workers/).
import {
  EXHAUSTED, FOUND, MAX_NODES, MAX_STEPS, MAX_TRIES, RUNNING,
  type EngineName, type SearchMethod, type SearchPhase, type SearchStatus,
} from "../engine/contract.js";
import { MIN_CONFLICTS_MAX_N, WASM_HEAP_BYTES, minConflictsBytes } from "../engine/ts/min-conflicts.js";
import {
  AUTO_MAX_N, CONSTRUCT_MAX_N, DEFAULT_METHOD, HILL_CLIMB_MAX_N, LIMITS, METHODS, METHOD_NAMES, MIN_CONFLICTS_INDEX_MAX_N, TREE_MAX_N, COMPLETE_MAX_N,
  autoMethod, defaultStopVegas, stopVegasMethodsText, type Method, type MethodSpec,
} from "../engine/registry.js";
import { MIN_CONFLICTS_CONSTRAINED_MAX_N } from "../engine/ts/min-conflicts.js";
import { pickEngine } from "../engine/select.js";
import { rangeError, invalid } from "../core/errors.js";
import { ChunkSizer, PACED_OPTION_NAMES, Pacer, now, type PacedOptions } from "../core/pacer.js";
import { satisfiesConstraints, type Constraints, type Square } from "../board/constraints.js";
import { boardOf, type Board } from "../board/board.js";
import { DEFAULT_SEED, checkChoice, checkInteger, checkOptions, checkSeed, describe, optionalInteger } from "../core/validate.js";
import type { Engine } from "../engine/contract.js";
import { probesRoot, searchRoot } from "../engine/root-probe.js";

/** Refuses, before any allocation, an n whose min-conflicts state cannot fit in Wasm memory. */
function checkMinConflictsMemory(n: number): void {
  const bytes = minConflictsBytes(n);
  if (bytes <= WASM_HEAP_BYTES) return;
  throw invalid(
    "n", ` = ${n} is too large for method "min-conflicts": it needs ${bytes} bytes (5 per queen from n = 2^22, 8 below, and up to 96 KiB), ` +
      `more than the ${WASM_HEAP_BYTES} bytes Wasm memory can hold; n must be an integer from 1 to ${MIN_CONFLICTS_MAX_N}`,
  );
}

// The method table and auto's rule live in the kernel registry; re-exported here, where they always were.
export {
  METHODS, METHOD_NAMES, DEFAULT_METHOD, TREE_MAX_N, HILL_CLIMB_MAX_N, CONSTRUCT_MAX_N, MIN_CONFLICTS_INDEX_MAX_N, COMPLETE_MAX_N,
  autoMethod, defaultStopVegas, type Method, type MethodSpec,
};

/** The plain problem's constraints in solve: `empty`, and no per-row arrays (never read when empty). */
const PLAIN_BOARD: Constraints = {
  n: 0, fixedColumn: new Int32Array(0), blockedStart: new Int32Array(1), blockedCols: new Int32Array(0), conflict: null, empty: true,
};

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
  /** With `workers`: the board's tasks (its sub-boards, one square of the search's first real branch each) searched to the end so far (all, once the whole board's search has ended). */
  tasksDone?: number;
  /** With `workers`: the board's tasks in all (not counting the whole board's restarting search beside them). */
  tasksTotal?: number;
  /** With `workers`: the threads searching. */
  workers?: number;
};

/** solve's options: its own, and signal, timeoutMs (reason 'timeout'), onProgress and progressIntervalMs (PacedOptions). */
export interface SolveOptions extends PacedOptions<SolveProgress> {
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
  /** Queens given in advance, [row, col] pairs, 0-based (not with 'construct'). */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
  /**
   * The complete search on this many worker threads, 1 to 256, or 'auto' (one per core): the
   * board is split into tasks (the prefixes of its free rows), searched on the threads; the
   * first solution found stops the rest, and every task exhausted proves there is none. For
   * method 'complete', or 'auto' where it picks the complete search (a board with givens);
   * refused for the other methods. The verdict is the one thread's; the solution may differ.
   */
  workers?: number | "auto";
}

export type StopReason = "no-solution" | "conflict" | "max-nodes" | "max-steps" | "max-tries" | "timeout";

const STOP_REASONS: Partial<Record<SearchStatus, StopReason>> = {
  [EXHAUSTED]: "no-solution",
  [MAX_NODES]: "max-nodes",
  [MAX_STEPS]: "max-steps",
  [MAX_TRIES]: "max-tries",
};

/**
 * What solve answers. `found` narrows it: `columns` is the solution when found is true
 * (`if (r.found) r.columns[0]` needs no `!`), null with a `reason` when it is false.
 */
export type SolveResult = SolveFound | SolveNotFound;

/** What every answer of solve holds. */
export type SolveResultBase = {
  n: number;
  /** The method that ran ('auto' reports the one it picked). */
  method: SearchMethod;
  /** 'hybrid' only: the number of random rows used. */
  stopVegas?: number;
  engine: EngineName;
  /** The seed used, or null for a method without randomness. */
  seed: number | null;
  /** Empty board = 1 node, each queen placed = 1 node (summed over tries). */
  nodes: number;
  /** Tries (random restarts included); 1 for backtracking. */
  tries: number;
  /** Moves made by local search; 0 for tree searches. */
  steps: number;
  ms: number;
  /** With `workers`: the threads that searched (at most the tasks; 0 when the board's root decided it on this thread). */
  workers?: number;
  /** With `workers`: the tasks searched: the board's sub-boards, and with two threads or more the whole board's search beside them (0 when its root decided it). */
  tasks?: number;
};

/** A solution was found. */
export type SolveFound = SolveResultBase & {
  found: true;
  /** The solution, columns by row (0-based); a fresh array. */
  columns: Int32Array;
  reason?: undefined;
  conflict?: undefined;
};

/** No solution was found: `reason` says why. */
export type SolveNotFound = SolveResultBase & {
  found: false;
  columns: null;
  /** Why nothing was found. */
  reason: StopReason;
  /** reason 'conflict': the given queens that attack each other, or the given queen on a blocked square. */
  conflict?: { reason: string; squares: Square[] };
};

const OPTION_NAMES = [
  "method", "engine", "seed", "stopVegas", "maxNodes", "maxSteps", "maxTries", "fixed", "blocked", "workers", ...PACED_OPTION_NAMES,
] as const;

/** Most threads `workers` asks for (the pool's). */
export const SOLVE_MAX_WORKERS = 256;
/** What `workers` takes, in words (the API's and the CLI's messages). */
export const WORKERS_ALLOWED = `an integer from 1 to ${SOLVE_MAX_WORKERS} or "auto"`;

/** A solve's options checked once: what runs, on which board, with which caps and pacing. */
export type SolvePlan = {
  n: number;
  board: Board;
  constraints: Constraints;
  method: SearchMethod;
  spec: MethodSpec;
  engine: Engine;
  seed: number;
  param: number;
  caps: { maxNodes: number; maxSteps: number; maxTries: number };
  pacer: Pacer<SolveProgress>;
  /** What every answer holds first. */
  base: Pick<SolveResultBase, "n" | "method" | "stopVegas" | "engine" | "seed">;
  /** `workers` as asked (undefined: this thread). */
  workers?: number | "auto";
};

/**
 * Finds one solution of the n-queens problem on this thread (`workers` is refused here: the
 * package's solve, src/workers/solve-parallel.ts, runs them).
 * @example const { columns } = await solve(8); // Int32Array [0, 4, 7, 5, 2, 6, 1, 3]
 */
export async function solve(n: number, options?: SolveOptions): Promise<SolveResult> {
  const plan = planSolve(n, options);
  if (plan.workers !== undefined) throw invalid("workers", " needs the thread pool: call the package's solve (nqueens-wasm), not search/solve.ts's");
  return solvePlanned(plan);
}

/** `workers` checked: 'auto' or an integer from 1 to SOLVE_MAX_WORKERS, for the complete search only. */
function checkWorkers(value: unknown, requested: Method, method: SearchMethod, n: number, constrained: boolean): number | "auto" {
  if (value !== "auto") {
    if (typeof value !== "number") throw invalid("workers", ` must be ${WORKERS_ALLOWED}, got ${typeof value} ${describe(value)}`, TypeError);
    if (!Number.isInteger(value) || value < 1 || value > SOLVE_MAX_WORKERS) throw invalid("workers", ` must be ${WORKERS_ALLOWED}, got ${describe(value)}`);
  }
  if (method !== "complete") {
    const picked = requested === "auto" ? `method "auto" picks ${JSON.stringify(method)} for n = ${n} ${constrained ? "with" : "without"} givens` : `method ${JSON.stringify(method)} runs on one thread`;
    throw invalid("workers", ` applies only to the complete search (method "complete", or "auto" on a board with given queens or blocked squares); ${picked}`);
  }
  return value as number | "auto";
}

/** Checks solve's options once, in the order solve always has, into a plan (nothing runs yet). */
export function planSolve(n: number, options?: SolveOptions): SolvePlan {
  const opts = checkOptions<SolveOptions>("solve", options, OPTION_NAMES);
  const requested = opts.method === undefined ? DEFAULT_METHOD : checkChoice("method", opts.method, METHOD_NAMES);
  const auto = requested === "auto";
  const maxN = auto ? AUTO_MAX_N : METHODS[requested].maxN;
  const givensMax = auto ? COMPLETE_MAX_N : requested === "min-conflicts" ? MIN_CONFLICTS_CONSTRAINED_MAX_N : maxN;
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "solve", plain: [1, maxN], givens: [1, givensMax], givensFor: `solve's method "${requested}"` });
  // Without givens, no per-row arrays: n may be 5 x 10^8 (construct), and nothing reads them.
  const constraints: Constraints = board.plain ? PLAIN_BOARD : board.constraints;
  if (!auto && !METHODS[requested].constraints && !constraints.empty) {
    throw rangeError(`method ${JSON.stringify(requested)} cannot honour given queens or blocked squares (it builds one fixed pattern); use "complete" or "auto"`);
  }
  const method = auto ? autoMethod(n, !constraints.empty) : requested;
  const spec: MethodSpec = METHODS[method];
  if (method === "min-conflicts") checkMinConflictsMemory(n);
  const engine = pickEngine(opts.engine);
  const seed = checkSeed(opts.seed);
  const caps = { maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity };
  for (const limit of LIMITS) {
    if (opts[limit] === undefined) continue;
    if (auto) checkInteger(limit, opts[limit], 1, Number.MAX_SAFE_INTEGER);
    if (!spec.limits.includes(limit)) {
      if (auto) continue; // 'auto' applies the limits that fit the method it picked
      const allowed = spec.limits.length ? `it takes ${spec.limits.join(", ")}` : "it takes no work limit";
      throw invalid(limit, ` does not apply to method ${JSON.stringify(method)} (${allowed})`);
    }
    caps[limit] = checkInteger(limit, opts[limit], 1, Number.MAX_SAFE_INTEGER);
  }
  let param = 0;
  if (auto && opts.stopVegas !== undefined) {
    throw invalid("stopVegas", ` applies only to ${stopVegasMethodsText}; with method "auto" the default is used`);
  } else if (spec.stopVegas) {
    param = optionalInteger("stopVegas", opts.stopVegas, 0, n, defaultStopVegas(n));
  } else if (opts.stopVegas !== undefined) {
    throw invalid("stopVegas", ` applies only to ${stopVegasMethodsText}, not to ${JSON.stringify(method)}`);
  }
  const workers = opts.workers === undefined ? undefined : checkWorkers(opts.workers, requested, method, n, !constraints.empty);
  const pacer = Pacer.from<SolveProgress>(opts);
  const base = {
    n, method, ...(spec.stopVegas ? { stopVegas: param } : {}), engine: engine.name, seed: spec.seeded ? seed : null,
  };
  return { n, board, constraints, method, spec, engine, seed, param, caps, pacer, base, ...(workers === undefined ? {} : { workers }) };
}

/** The answers given before any search: given queens in conflict, and n = 2 or 3 (none); undefined otherwise. */
export function answerAtOnce(plan: SolvePlan): SolveResult | undefined {
  const { n, method, constraints, pacer, base } = plan;
  if (constraints.conflict !== null) {
    const { reason, squares } = constraints.conflict;
    pacer.finish({ phase: "search", conflicts: -1, method, n, nodes: 0, tries: 0, steps: 0, elapsedMs: pacer.elapsed() });
    return { ...base, found: false, columns: null, nodes: 0, tries: 0, steps: 0, ms: pacer.elapsed(), reason: "conflict", conflict: { reason, squares } };
  }
  if (n === 2 || n === 3) {
    pacer.finish({ phase: "search", conflicts: -1, method, n, nodes: 0, tries: 0, steps: 0, elapsedMs: pacer.elapsed() });
    return { ...base, found: false, columns: null, nodes: 0, tries: 0, steps: 0, ms: pacer.elapsed(), reason: "no-solution" };
  }
  return undefined;
}

/** Runs a plan on this thread, in bounded chunks. */
export async function solvePlanned(plan: SolvePlan): Promise<SolveResult> {
  const { n, constraints, method, engine, seed, param, caps, pacer, base } = plan;
  pacer.throwIfAborted();
  const early = answerAtOnce(plan);
  if (early) return early;
  // The complete search at n <= 64 without a node cap: the root's probe first, as on threads
  // (searchRoot: the plain tasks' search with its lookahead from the root, about 1,024 nodes),
  // which refutes boards in a few nodes that the portfolio, its lookahead held back, takes 10^5
  // nodes or more to. (Under a cap the portfolio alone, so its limit stays exact.)
  /** The answer: a board found (checked against the givens), or none and why. */
  const answer = (figures: { nodes: number; tries: number; steps: number }, columns: Int32Array | null, reason: StopReason | undefined): SolveResult => {
    if (columns === null) return { ...base, found: false, columns: null, ...figures, ms: pacer.elapsed(), reason: reason! };
    if (!constraints.empty && !satisfiesConstraints(constraints, columns)) {
      throw new Error(`method ${JSON.stringify(method)} returned a board that breaks the given queens or blocked squares (a bug)`);
    }
    return { ...base, found: true, columns, ...figures, ms: pacer.elapsed() };
  };
  let probe = 0;
  if (method === "complete" && probesRoot(n, caps.maxNodes)) {
    const root = searchRoot(n, constraints, engine.name);
    if (root.status === FOUND || root.status === EXHAUSTED) {
      const figures = { nodes: root.nodes, tries: 1, steps: 0 };
      pacer.finish({ phase: "search", conflicts: -1, method, n, ...figures, elapsedMs: pacer.elapsed() });
      return answer(figures, root.columns, "no-solution");
    }
    probe = root.nodes;
  }
  const search = engine.openSearch(method, n, { seed, param, ...caps, ...(constraints.empty ? {} : { constraints }) });
  try {
    const stats = (): ReturnType<typeof search.stats> => { const s = search.stats(); return { ...s, nodes: s.nodes + probe }; };
    const progress = (): SolveProgress => ({ ...search.state(), method, n, ...stats(), elapsedMs: pacer.elapsed() });
    // One sizer per phase: a unit's cost differs by phase (min-conflicts' construction
    // and repair, up to 30 times over), and a kernel's run returns when its phase changes.
    const sizers = new Map<string, ChunkSizer>();
    let reason: StopReason | undefined;
    for (;;) {
      const phase = search.state().phase;
      let sizer = sizers.get(phase);
      if (sizer === undefined) sizers.set(phase, (sizer = new ChunkSizer()));
      const start = search.work();
      const t0 = now();
      const status = search.run(start + sizer.get());
      sizer.observe(now() - t0, search.work() - start);
      if (status === FOUND) break;
      if (status !== RUNNING) { reason = STOP_REASONS[status]; break; }
      let stop = pacer.stopReason();
      if (stop === undefined) {
        await pacer.between(progress);
        stop = pacer.stopReason(); // an abort that came in while the event loop ran stops now, not a chunk later
      }
      if (stop === "aborted") pacer.throwIfAborted();
      if (stop === "timeout") { reason = "timeout"; break; }
    }
    pacer.finish(progress());
    return answer(stats(), reason === undefined ? search.columns() : null, reason);
  } finally {
    search.close();
  }
}
