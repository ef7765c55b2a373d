/**
 * The engine contract: what each engine can do (ENGINE_CAPABILITIES, one table) and what it
 * implements for it. The CPU engines implement Engine, kernel for kernel: `src/engine/wasm/`
 * runs the AssemblyScript kernels in `assembly/`; `src/engine/ts/` is the plain TypeScript
 * reference. Same inputs, bit-identical outputs: a parity test is a loop over engines. The GPU
 * engine (`src/engine/webgpu/`) implements GpuEngine: counting plain boards, node for node as
 * the CPU engines count. The capabilities above the engines (count/, search/, analysis/) pick
 * an engine and ask it; no engine imports them. Inputs here are already checked by
 * `src/core/validate.ts`.
 */

import type { Constraints } from "../board/constraints.js";
import { codeOutOfMemory } from "../core/errors.js";

export type EngineName = "wasm" | "ts";

/** What `count` runs on: a CPU engine, or the GPU (src/engine/webgpu/, counting only). */
export type CountEngineName = EngineName | "webgpu";

/**
 * What an engine can do, one word a capability: "count" (a whole count of the plain board),
 * "count-parts" (a part's constellation tasks, src/count/parts.ts), "constrained" (boards with
 * given queens or blocked squares), "search" (solve, trace, solutions), "analysis" (estimate,
 * treeSize, the Las Vegas statistics, verify, crossCheck).
 */
export type Capability = "count" | "count-parts" | "constrained" | "search" | "analysis";

/**
 * The one table of what each engine can do. The CPU engines implement all of Engine (below);
 * the GPU engine (GpuEngine) counts plain boards: a whole count and a part's tasks. Adding an
 * engine is a row here and an object that implements the contract for its capabilities.
 */
export const ENGINE_CAPABILITIES = {
  wasm: ["count", "count-parts", "constrained", "search", "analysis"],
  ts: ["count", "count-parts", "constrained", "search", "analysis"],
  webgpu: ["count", "count-parts"],
} as const satisfies Record<CountEngineName, readonly Capability[]>;

/** Whether `engine` can do `capability` (ENGINE_CAPABILITIES). */
export function engineCan(engine: CountEngineName, capability: Capability): boolean {
  return (ENGINE_CAPABILITIES[engine] as readonly Capability[]).includes(capability);
}

/**
 * The GPU engine's side of the contract: counting only. `count` is count(n) of the plain board
 * from its constellation tasks (src/count/tasks.ts's split of n, empty for n <= 3; options as
 * count's, checked by the caller); `countConstellations` counts constellation tasks (a part's:
 * src/count/gpu-part.ts) and gives their class counts and nodes. Both as a CPU engine's
 * constellation counter counts, node for node.
 */
export type GpuEngine<Options, Result, Tuning> = {
  readonly name: "webgpu";
  count(n: number, tasks: readonly ConstellationTask[], options: Options, tuning?: Tuning): Promise<Result>;
  countConstellations(n: number, tasks: readonly ConstellationTask[], options: { signal?: AbortSignal }, tuning?: Tuning, share?: number): Promise<TaskCount>;
};

/** Status of a resumable search after a `run` call (the Wasm engine maps the kernels' codes, which the module exports, to these by name). */
export const RUNNING = 0;
export const FOUND = 1;
export const EXHAUSTED = 2;
/** A cap given when the search was opened ran out. */
export const MAX_NODES = 3;
export const MAX_STEPS = 4;
export const MAX_TRIES = 5;
export type SearchStatus = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * One unit of counting work: the queens of rows 0..depth-1 are fixed (`rows`,
 * 0-based columns), the rest is searched. `kind` 1: the row-0 queen is in the
 * corner; 2: it is not. See src/engine/prefix-split.ts.
 */
export type CountTask = { kind: 1 | 2; bound1: number; rows: number[] };

/**
 * One unit of counting work of the constellation counter (src/count/tasks.ts): a start
 * constellation, the queens on the board's border rows and columns, row 0's in column `i`,
 * row n-1's in column `j`, column 0's in row `k`, column n-1's in row `l` (a corner queen is
 * two of them: i = k = 0, i = n-1 with l = 0, j = 0 with k = n-1, or j = l = n-1), and `rows`,
 * the columns of queens preset on its first free rows (rows 1..n-2 other than k and l, top down).
 */
export type ConstellationTask = { i: number; j: number; k: number; l: number; rows: number[] };

/** What counting one task finds: solutions by symmetry class size, and queens placed. */
export type TaskCount = { count8: bigint; count4: bigint; count2: bigint; nodes: bigint };

/**
 * A counter for one board size; `close` frees what it holds. A task is counted whole
 * (`countTask`) or resumably: `start(task)`, then `run(workLimit)` until it returns true
 * (each call places about `workLimit` nodes, checked when a row is popped), then `result()`.
 * Both ways give the same counts and nodes on both engines.
 */
export type Counter<T = CountTask> = {
  countTask(task: T): TaskCount;
  start(task: T): void;
  /** Searches on; true when the task is done. `workLimit` >= 1 nodes (about: the check is at a pop). */
  run(workLimit: number): boolean;
  /** The counts of the task started last (complete once run returned true). */
  result(): TaskCount;
  close(): void;
};

/** Lexicographic enumeration of all solutions, a chunk at a time. */
export type SolutionStream = {
  /** Up to `max` further solutions; fewer means the enumeration is over. */
  next(max: number): Int32Array[];
  /** Queens placed so far. */
  nodes(): number;
  close(): void;
};

/** Figures a search reports; the same on both engines for the same inputs. */
export type SearchStats = { nodes: number; tries: number; steps: number };

/** What a search is doing (the Wasm engine names the kernels' phase codes, which the module exports, by these). */
export const PHASES = ["search", "construct", "repair"] as const;
export type SearchPhase = (typeof PHASES)[number];

/** For progress reports: the phase, and the diagonal conflicts left (local search only, else -1). */
export type SearchState = { phase: SearchPhase; conflicts: number };

/** The single-solution search methods: the keys of the kernel registry (src/engine/registry.ts). */
export type { SearchMethod } from "./registry.js";
import type { SearchMethod } from "./registry.js";

/**
 * What a search is opened with. The caps are exact (both engines stop at the same
 * node, step or try); Infinity means none. `seed` is ignored by methods without randomness.
 */
export type SearchParams = {
  seed: number;
  /** Method-specific parameter (stopVegas for 'hybrid'); 0 where unused. */
  param: number;
  maxNodes: number;
  maxSteps: number;
  maxTries: number;
  /** Given queens and blocked squares (src/board/constraints.ts); absent or `empty`: the plain problem, node for node. */
  constraints?: Constraints;
};

/** A resumable search for one solution. */
export type Search = {
  /**
   * Work until a solution, exhaustion, a cap, or `workLimit` units of work in all
   * (RUNNING). The unit is the kernel's own fine-grained measure, used only to bound a chunk.
   * A kernel whose units cost very different times by phase (min-conflicts) also returns
   * RUNNING, before `workLimit`, when `state().phase` changes, so that its caller can size
   * the chunks of each phase on their own (src/search/solve.ts).
   */
  run(workLimit: number): SearchStatus;
  /** The work counter `workLimit` is compared with. */
  work(): number;
  stats(): SearchStats;
  state(): SearchState;
  /**
   * The current columns (a solution after FOUND) in an array the caller owns: nothing
   * writes to it later. A copy, or once the search is done its own array handed over
   * (construct does this, to save copying 4n bytes; a later call gets a new array). The
   * Wasm engine's min-conflicts, in an instance too big for the pool, hands over a view of
   * that instance's memory instead (byteOffset not 0; its buffer is the memory's, which
   * keeps the whole instance alive while held, and cannot be transferred).
   */
  columns(): Int32Array;
  /**
   * Reference engine only, for the step-by-step trace (src/search/trace.ts): where the
   * search stands inside its loop, read without touching it. Hill climbing gives the
   * next pair (i, j) its scan evaluates. The Wasm engine does not implement it.
   */
  cursor?(): SearchCursor;
  /** 'complete' only: the solutions met so far (param 1 enumerates, param 2 counts; see assembly/complete.ts). */
  solutions?(): bigint;
  /**
   * 'complete' only: gives away the untried branches at the shallowest open level of its
   * stack (assembly/complete.ts, completeSplit), which the search then skips; null where it has
   * none to give (one branch left, decided, or the portfolio or the wide path, which never
   * split). Between runs only. Its remaining tree and the sub-boards given away (the path's
   * queens and one branch each) partition its solutions.
   */
  split?(): SearchSplit | null;
  close(): void;
};

/** What `Search.split` gives away: the queens on the search's path down to the level split ([row, col]), and that level's untried branches, each a square. */
export type SearchSplit = { path: [number, number][]; branches: [number, number][] };

/** What `Search.cursor` reports: the next pair (i < j) of rows hill climbing evaluates (-1, -1 on a constrained board when the next unit of work is a new try). */
export type SearchCursor = { i: number; j: number };

/**
 * Sums over Knuth's random probes (src/analysis/estimate.ts), added probe by probe in a fixed
 * order. A probe's product d1*...*dk (the safe-column counts of rows 0..k-1 on its
 * path; 0 past a dead end) is its estimate of the nodes at depth k.
 */
export type ProbeSums = {
  probes: number;
  /** Per depth k = 0..n: the sum of the products, and of their squares. */
  level: Float64Array;
  levelSquares: Float64Array;
  /** The sum of the probes' whole-tree estimates 1 + d1 + d1*d2 + ..., and of their squares. */
  total: number;
  totalSquares: number;
};

/** Random probes for an n x n board from one seeded generator. */
export type Prober = { run(probes: number): void; sums(): ProbeSums; close(): void };

/** Exhaustive node counts of the backtracking tree (src/analysis/estimate.ts splits it into subtrees). */
export type TreeCounter = {
  /** Per depth 0..n, the nodes of the subtree under the consistent placement `columns` of rows 0..d-1 (1 at d). */
  subtree(columns: readonly number[]): bigint[];
  close(): void;
};

/** What a run of 'hybrid' tries adds up, per outcome (src/analysis/las-vegas-stats.ts). */
export type TrialSums = {
  tries: number;
  successes: number;
  /** Sums of the nodes of the successful tries, and of their squares. */
  successNodes: number;
  successSquares: number;
  /** The same over the failed tries. */
  failureNodes: number;
  failureSquares: number;
};

/** `trials` hybrid tries in a row, each exactly one try of the 'hybrid' search for the same seed. */
export type LasVegasTrials = {
  /** Make tries until all are done (true) or `workLimit` nodes in all (false). */
  run(workLimit: number): boolean;
  /** Nodes of all tries so far (what `workLimit` is compared with). */
  work(): number;
  sums(): TrialSums;
  close(): void;
};

/** Probability-weighted sums over the tries that start with a given placement of random rows. */
export type ExactSums = { success: number; failure: number; successNodes: number; failureNodes: number };

/** The exact walk over every random choice of the 'hybrid' tries (n <= 32, bitboards). */
export type LasVegasExactWalker = {
  /** The tries beginning with random rows `columns` (consistent, at most stopVegas of them), that start taken as certain. */
  walk(columns: readonly number[]): ExactSums;
  close(): void;
};

export type Engine = {
  readonly name: EngineName;
  /** Counter for n x n boards, 5 <= n <= 32 (smaller n are answered in src/count/count.ts). */
  openCounter(n: number): Counter;
  /** Counter of constellation tasks for n x n boards, 5 <= n <= 32 (assembly/constellations.ts). */
  openConstellationCounter(n: number): Counter<ConstellationTask>;
  /** All solutions of an n x n board, 1 <= n <= 32, in lexicographic order. */
  openSolutions(n: number): SolutionStream;
  /** A single-solution search (n >= 4 and within the method's range, checked by src/search/solve.ts). */
  openSearch(method: SearchMethod, n: number, params: SearchParams): Search;
  /** How many times a queen lands on a line an earlier row holds (0: a solution). */
  verifyRepeats(columns: Int32Array): number;
  /** `count` draws in [0, bound) from the seeded generator (bound 0: raw u32 outputs). */
  randomSequence(seed: number, bound: number, count: number): Uint32Array;
  /** Knuth's probes, 1 <= n <= 32 (assembly/estimate.ts). */
  openProbes(n: number, seed: number): Prober;
  /** Backtracking-tree node counts, 1 <= n <= 32 (assembly/tree-size.ts). */
  openTreeCounter(n: number): TreeCounter;
  /** Monte Carlo 'hybrid' tries, 0 <= stopVegas <= n (assembly/las-vegas-stats.ts). */
  openLasVegasTrials(n: number, seed: number, stopVegas: number, trials: number): LasVegasTrials;
  /** The exact walk over the 'hybrid' tries' random choices, 1 <= n <= 32 (assembly/las-vegas-stats.ts). */
  openLasVegasExact(n: number, stopVegas: number): LasVegasExactWalker;
};

/** A function of an engine or of a handle it opened: coded on failure by codingOutOfMemory. */
type Call = (...args: never[]) => unknown;

/** `f`, with an allocation failure it throws coded NQ_OUT_OF_MEMORY naming `what()`. */
function coded<F extends Call>(f: F, what: (...args: Parameters<F>) => string): F {
  return ((...args: Parameters<F>) => {
    try {
      return f(...args);
    } catch (error) {
      throw codeOutOfMemory(error, what(...args));
    }
  }) as F;
}

/** A handle's functions coded like the call that opened it (handles are plain objects of closures). */
function codedHandle<H extends object>(handle: H, what: () => string): H {
  const out = { ...handle };
  for (const key of Object.keys(out) as (keyof H)[]) {
    const value = out[key];
    if (typeof value === "function") out[key] = coded(value as Call, what) as H[keyof H];
  }
  return out;
}

/**
 * The engine boundary's rule: an allocation that fails in any call of `engine` (opening a job
 * or running it: a typed array the TS twins make, a Wasm instance or memory) is a RangeError
 * coded NQ_OUT_OF_MEMORY whose message names the job ("out of memory for method construct with
 * n = 400000000 on engine ts (Array buffer allocation failed)"). Both engines are wrapped once,
 * where they are defined; a call costs one closure more, per chunk of work, not per node.
 */
export function codingOutOfMemory(engine: Engine): Engine {
  const on = ` on engine ${engine.name}`;
  const open = <A extends unknown[], H extends object>(f: (...args: A) => H, what: (...args: A) => string) =>
    (...args: A): H => {
      const label = () => what(...args) + on;
      let handle: H;
      try {
        handle = f(...args);
      } catch (error) {
        throw codeOutOfMemory(error, label());
      }
      return codedHandle(handle, label);
    };
  return {
    name: engine.name,
    openCounter: open(engine.openCounter, (n) => `counting n = ${n}`),
    openConstellationCounter: open(engine.openConstellationCounter, (n) => `counting n = ${n}`),
    openSolutions: open(engine.openSolutions, (n) => `enumerating n = ${n}`),
    openSearch: open(engine.openSearch, (method, n) => `method ${method} with n = ${n}`),
    verifyRepeats: coded(engine.verifyRepeats, (columns) => `verifying ${columns.length} queens${on}`),
    randomSequence: coded(engine.randomSequence, (_seed, _bound, count) => `${count} random draws${on}`),
    openProbes: open(engine.openProbes, (n) => `estimating n = ${n}`),
    openTreeCounter: open(engine.openTreeCounter, (n) => `the tree of n = ${n}`),
    openLasVegasTrials: open(engine.openLasVegasTrials, (n) => `las-vegas tries with n = ${n}`),
    openLasVegasExact: open(engine.openLasVegasExact, (n) => `the exact las-vegas walk with n = ${n}`),
  };
}
