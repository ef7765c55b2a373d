// The kernels' module as the TS side sees it: its exports (KernelExports), and the globals
// that tell the memory layout of the kernels' blocks, the slots of their Stat and Result
// exports and the status and phase codes (LAYOUT_GLOBALS), read by name once per module
// (readLayout) and never copied here as numbers. The loader (loader.ts) reads them from its
// first instance.
import { EXHAUSTED, FOUND, MAX_NODES, MAX_STEPS, MAX_TRIES, RUNNING, type SearchPhase, type SearchStatus } from "../contract.js";
import type { SearchKernel } from "../registry.js";

/**
 * The module's exported globals (assembly/index.ts): the memory layout of the kernels' blocks,
 * the slots of their Stat and Result exports, the status and phase codes. Immutable, the same
 * for every instance: read once per module (readLayout), never copied here as numbers.
 */
export const LAYOUT_GLOBALS = [
  "RUNNING", "FOUND", "EXHAUSTED", "MAX_NODES", "MAX_STEPS", "MAX_TRIES",
  "STAT_WORK", "STAT_NODES", "STAT_TRIES", "STAT_STEPS", "STAT_CONFLICTS", "STAT_PHASE",
  "PHASE_SEARCH", "PHASE_CONSTRUCT", "PHASE_REPAIR",
  "COUNT_RESULT_COUNT8", "COUNT_RESULT_COUNT4", "COUNT_RESULT_COUNT2", "COUNT_RESULT_NODES",
  "ESTIMATE_TOTAL", "ESTIMATE_SQUARES", "TREE_SIZE_COLUMNS",
  "LAS_VEGAS_TRIALS_TRIES", "LAS_VEGAS_TRIALS_SUCCESSES", "LAS_VEGAS_TRIALS_SUCCESS_NODES", "LAS_VEGAS_TRIALS_SUCCESS_SQUARES",
  "LAS_VEGAS_TRIALS_FAILURE_NODES", "LAS_VEGAS_TRIALS_FAILURE_SQUARES", "LAS_VEGAS_TRIALS_WORK",
  "LAS_VEGAS_EXACT_COLUMNS", "LAS_VEGAS_EXACT_SUMS",
] as const;
export type LayoutGlobal = (typeof LAYOUT_GLOBALS)[number];

/** The kernels' exports (see assembly/index.ts). A type alias, as the loader's generic needs. */
export type KernelExports = {
  memory: WebAssembly.Memory;
} & {
  [G in LayoutGlobal]: WebAssembly.Global;
} & {
  allocate(bytes: number): number;
  resetMemory(): void;
  randomSequence(seed: number, bound: number, out: number, count: number): void;
  countInit(n: number): number;
  countStart(kind: number, bound1: number, depth: number): void;
  countRun(budget: number): number;
  countResult(which: number): bigint;
  consInit(n: number): number;
  consStart(): void;
  consRun(budget: number): number;
  consResult(which: number): bigint;
  solutionsInit(n: number): void;
  solutionsNext(out: number, max: number): number;
  solutionsNodes(): bigint;
} & {
  // Every search kernel exports <name>Init, <name>Run and <name>Stat (see assembly/backtrack.ts).
  [K in `${SearchKernel}Init`]: (n: number, seed: number, param: number, maxNodes: number, maxSteps: number, maxTries: number) => number;
} & {
  [K in `${SearchKernel}Run`]: (workLimit: number) => number;
} & {
  [K in `${SearchKernel}Stat`]: (slot: number) => number;
} & {
  verifyInput(n: number, rows: number): number;
  verifyRepeats(n: number, from: number, to: number): number;
  estimateInit(n: number, seed: number): number;
  estimateRun(count: number): number;
  treeSizeInit(n: number): number;
  treeSizeTask(depth: number): void;
  lasVegasTrialsInit(n: number, seed: number, stopVegas: number, trials: number): number;
  lasVegasTrialsRun(workLimit: number): number;
  lasVegasTrialsStat(slot: number): number;
  lasVegasExactInit(n: number, stopVegas: number): number;
  lasVegasExactTask(depth: number): void;
  constraintsInput(n: number, blockedCount: number): number;
  constraintsClear(): void;
  completeSolutions(): bigint;
  completeSplit(): number;
  completeSplitOut(): number;
};

/** The module's layout and codes (LAYOUT_GLOBALS), by use; the same for every instance. */
export type Layout = {
  /** A kernel's search status to the contract's (src/engine/contract.ts), mapped by name. */
  status: readonly SearchStatus[];
  /** The kernels' own RUNNING (what constructRun returns while rows are left). */
  running: number;
  /** A kernel's phase code to its name. */
  phase: readonly SearchPhase[];
  /** Slots of a search's <name>Stat. */
  stat: { work: number; nodes: number; tries: number; steps: number; conflicts: number; phase: number };
  /** Selectors of countResult. */
  countResult: { count8: number; count4: number; count2: number; nodes: number };
  /** Byte offsets in estimate's sums block: the total's sum, and where the squares start. */
  estimate: { total: number; squares: number };
  treeSizeColumns: number;
  /** Slots of lasVegasTrialsStat. */
  trials: { tries: number; successes: number; successNodes: number; successSquares: number; failureNodes: number; failureSquares: number; work: number };
  lasVegasExactColumns: number;
  lasVegasExactSums: number;
};

/** The layout of `k`'s module: every LAYOUT_GLOBALS, by use (one module, one layout: any instance will do). */
export function readLayout(k: KernelExports): Layout {
  const g = (name: LayoutGlobal): number => k[name].value as number;
  const status: SearchStatus[] = [];
  status[g("RUNNING")] = RUNNING;
  status[g("FOUND")] = FOUND;
  status[g("EXHAUSTED")] = EXHAUSTED;
  status[g("MAX_NODES")] = MAX_NODES;
  status[g("MAX_STEPS")] = MAX_STEPS;
  status[g("MAX_TRIES")] = MAX_TRIES;
  const phase: SearchPhase[] = [];
  phase[g("PHASE_SEARCH")] = "search";
  phase[g("PHASE_CONSTRUCT")] = "construct";
  phase[g("PHASE_REPAIR")] = "repair";
  return {
    status,
    running: g("RUNNING"),
    phase,
    stat: {
      work: g("STAT_WORK"), nodes: g("STAT_NODES"), tries: g("STAT_TRIES"), steps: g("STAT_STEPS"),
      conflicts: g("STAT_CONFLICTS"), phase: g("STAT_PHASE"),
    },
    countResult: {
      count8: g("COUNT_RESULT_COUNT8"), count4: g("COUNT_RESULT_COUNT4"), count2: g("COUNT_RESULT_COUNT2"), nodes: g("COUNT_RESULT_NODES"),
    },
    estimate: { total: g("ESTIMATE_TOTAL"), squares: g("ESTIMATE_SQUARES") },
    treeSizeColumns: g("TREE_SIZE_COLUMNS"),
    trials: {
      tries: g("LAS_VEGAS_TRIALS_TRIES"), successes: g("LAS_VEGAS_TRIALS_SUCCESSES"),
      successNodes: g("LAS_VEGAS_TRIALS_SUCCESS_NODES"), successSquares: g("LAS_VEGAS_TRIALS_SUCCESS_SQUARES"),
      failureNodes: g("LAS_VEGAS_TRIALS_FAILURE_NODES"), failureSquares: g("LAS_VEGAS_TRIALS_FAILURE_SQUARES"),
      work: g("LAS_VEGAS_TRIALS_WORK"),
    },
    lasVegasExactColumns: g("LAS_VEGAS_EXACT_COLUMNS"),
    lasVegasExactSums: g("LAS_VEGAS_EXACT_SUMS"),
  };
}
