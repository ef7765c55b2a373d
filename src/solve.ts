// solve(n, { method }): one solution by the chosen method, run in bounded chunks
// so that maxNodes/maxSteps, timeoutMs, signal and onProgress all work on one thread.
import { EXHAUSTED, FOUND, type Engine, type EngineName, type Search } from "./engine.js";
import { pickEngine } from "./engines.js";
import { rangeError } from "./errors.js";
import { ChunkSizer, Pacer, now } from "./pacer.js";
import {
  checkChoice, checkInteger, checkOptions, optionalFunction, optionalInteger, optionalSignal,
} from "./validate.js";

/** Parameters a method's kernel is opened with. */
export type MethodParams = { seed: number };

/** What a method is: its range of n, the unit its work is limited in, and how to open its kernel. */
export type MethodSpec = {
  /** Largest n the method accepts (memory or a documented practical limit). */
  maxN: number;
  /** The option that limits the work, in the unit `Search.work()` counts. */
  limit: "maxNodes" | "maxSteps";
  /** Whether the method draws random numbers (and so reports its seed). */
  seeded: boolean;
  open(engine: Engine, n: number, params: MethodParams): Search;
};

/** Largest n for the array-based tree searches (memory is a few bytes per row). */
export const TREE_MAX_N = 1_000_000;

export const METHODS = {
  backtrack: {
    maxN: TREE_MAX_N,
    limit: "maxNodes",
    seeded: false,
    open: (engine, n) => engine.openBacktrack(n),
  },
} satisfies Record<string, MethodSpec>;

export type Method = keyof typeof METHODS;
export const METHOD_NAMES = Object.keys(METHODS) as Method[];

/** The default seed, used when none is given (never the clock unless `seed: 'random'`). */
export const DEFAULT_SEED = 1;

export type SolveProgress = {
  phase: "search";
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
  /** Stop after this many nodes (tree searches); the result says found: false, reason 'max-nodes'. */
  maxNodes?: number;
  /** Stop after this many steps (local search); reason 'max-steps'. */
  maxSteps?: number;
  /** Stop after this many milliseconds; reason 'timeout'. */
  timeoutMs?: number;
  /** Abort: the promise rejects with the signal's reason (unless a solution was already found). */
  signal?: AbortSignal;
  /** Called at most about 20 times a second during the search, and once at the end. */
  onProgress?: (progress: SolveProgress) => void;
};

export type StopReason = "no-solution" | "max-nodes" | "max-steps" | "timeout";

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

const OPTION_NAMES = ["method", "engine", "seed", "maxNodes", "maxSteps", "timeoutMs", "signal", "onProgress"] as const;

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
  const otherLimit = spec.limit === "maxNodes" ? "maxSteps" : "maxNodes";
  if (opts[otherLimit] !== undefined) {
    throw rangeError(`${otherLimit} does not apply to method ${JSON.stringify(method)}; use ${spec.limit}`);
  }
  const maxWork = optionalInteger(spec.limit, opts[spec.limit], 1, Number.MAX_SAFE_INTEGER, Infinity);
  const timeoutMs = optionalInteger("timeoutMs", opts.timeoutMs, 0, Number.MAX_SAFE_INTEGER, Infinity);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: SolveProgress) => void>("onProgress", opts.onProgress);
  const pacer = new Pacer<SolveProgress>({ signal, timeoutMs, onProgress });
  pacer.throwIfAborted();

  const base = { n, method, engine: engine.name, seed: spec.seeded ? seed : null };
  if (n === 2 || n === 3) {
    return { ...base, found: false, columns: null, nodes: 0, tries: 0, steps: 0, ms: pacer.elapsed(), reason: "no-solution" };
  }
  const search = spec.open(engine, n, { seed });
  try {
    const progress = (): SolveProgress => ({ phase: "search", method, n, ...search.stats(), elapsedMs: pacer.elapsed() });
    const sizer = new ChunkSizer();
    let reason: StopReason | undefined;
    for (;;) {
      const target = Math.min(maxWork, search.work() + sizer.get());
      const t0 = now();
      const status = search.run(target);
      sizer.observe(now() - t0);
      if (status === FOUND) break;
      if (status === EXHAUSTED) { reason = "no-solution"; break; }
      if (search.work() >= maxWork) { reason = spec.limit === "maxNodes" ? "max-nodes" : "max-steps"; break; }
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
