// solve(n, { method }): one solution by the chosen method, run in bounded chunks
// so that maxNodes/maxSteps, timeoutMs, signal and onProgress all work on one thread.
import {
  EXHAUSTED, FOUND, MAX_NODES, MAX_STEPS, MAX_TRIES, RUNNING,
  type EngineName, type SearchMethod, type SearchPhase, type SearchStatus,
} from "./engine.js";
import { pickEngine } from "./engines.js";
import { rangeError } from "./errors.js";
import { ChunkSizer, Pacer, now } from "./pacer.js";
import {
  checkChoice, checkInteger, checkOptions, optionalFunction, optionalInteger, optionalSignal,
} from "./validate.js";

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

export const METHODS = {
  backtrack: { maxN: TREE_MAX_N, limits: ["maxNodes"], seeded: false },
} as const satisfies Record<SearchMethod, MethodSpec>;

export type Method = keyof typeof METHODS;
export const METHOD_NAMES = Object.keys(METHODS) as Method[];

/** The default seed, used when none is given (never the clock unless `seed: 'random'`). */
export const DEFAULT_SEED = 1;

export type SolveProgress = {
  /** 'search' for tree searches and hill climbing; 'construct' then 'repair' for min-conflicts. */
  phase: SearchPhase;
  /** Diagonal conflicts left (local search), -1 where it does not apply. */
  conflicts: number;
  method: Method;
  n: number;
  nodes: number;
  tries: number;
  steps: number;
  elapsedMs: number;
};

export type SolveOptions = {
  /** The algorithm (default 'backtrack'). */
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
  /** Called at most about 20 times a second during the search, and once at the end. */
  onProgress?: (progress: SolveProgress) => void;
};

export type StopReason = "no-solution" | "max-nodes" | "max-steps" | "max-tries" | "timeout";

const STOP_REASONS: Partial<Record<SearchStatus, StopReason>> = {
  [EXHAUSTED]: "no-solution",
  [MAX_NODES]: "max-nodes",
  [MAX_STEPS]: "max-steps",
  [MAX_TRIES]: "max-tries",
};

export type SolveResult = {
  n: number;
  method: Method;
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
};

const OPTION_NAMES = ["method", "engine", "seed", "stopVegas", "maxNodes", "maxSteps", "maxTries", "timeoutMs", "signal", "onProgress"] as const;
const LIMITS: readonly Limit[] = ["maxNodes", "maxSteps", "maxTries"];

function checkSeed(value: unknown): number {
  if (value === undefined) return DEFAULT_SEED;
  if (value === "random") return (Math.random() * 2 ** 32) >>> 0;
  return checkInteger("seed", value, 0, 0xffffffff);
}

/**
 * Finds one solution of the n-queens problem.
 * @example const { columns } = await solve(8); // Int32Array [0, 4, 7, 5, 2, 6, 1, 3]
 */
export async function solve(n: number, options?: SolveOptions): Promise<SolveResult> {
  const opts = checkOptions<SolveOptions>("solve", options, OPTION_NAMES);
  const method = opts.method === undefined ? "backtrack" : checkChoice("method", opts.method, METHOD_NAMES);
  const spec: MethodSpec = METHODS[method];
  checkInteger("n", n, 1, spec.maxN);
  const engine = pickEngine(opts.engine);
  const seed = checkSeed(opts.seed);
  const caps = { maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity };
  for (const limit of LIMITS) {
    if (opts[limit] === undefined) continue;
    if (!spec.limits.includes(limit)) {
      const allowed = spec.limits.length ? `it takes ${spec.limits.join(", ")}` : "it takes no work limit";
      throw rangeError(`${limit} does not apply to method ${JSON.stringify(method)} (${allowed})`);
    }
    caps[limit] = checkInteger(limit, opts[limit], 1, Number.MAX_SAFE_INTEGER);
  }
  let param = 0;
  if ("stopVegas" in spec) {
    param = optionalInteger("stopVegas", opts.stopVegas, 0, n, defaultStopVegas(n));
  } else if (opts.stopVegas !== undefined) {
    throw rangeError(`stopVegas applies only to method "hybrid", not to ${JSON.stringify(method)}`);
  }
  const timeoutMs = optionalInteger("timeoutMs", opts.timeoutMs, 0, Number.MAX_SAFE_INTEGER, Infinity);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: SolveProgress) => void>("onProgress", opts.onProgress);
  const pacer = new Pacer<SolveProgress>({ signal, timeoutMs, onProgress });
  pacer.throwIfAborted();

  const base = { n, method, engine: engine.name, seed: spec.seeded ? seed : null };
  if (n === 2 || n === 3) {
    return { ...base, found: false, columns: null, nodes: 0, tries: 0, steps: 0, ms: pacer.elapsed(), reason: "no-solution" };
  }
  const search = engine.openSearch(method, n, { seed, param, ...caps });
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
    return { ...base, found, columns: found ? search.columns() : null, ...stats, ms: pacer.elapsed(), ...(found ? {} : { reason }) };
  } finally {
    search.close();
  }
}
