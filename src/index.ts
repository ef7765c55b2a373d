/**
 * nqueens-wasm: the N-Queens problem in every way the classic texts teach, with
 * AssemblyScript/WebAssembly kernels and a bit-identical TypeScript reference engine.
 * Every function takes `{ engine: 'wasm' | 'ts' }` (default 'wasm'; 'ts' by itself
 * where WebAssembly is missing).
 */
export { init } from "./engine/select.js";
export { count, countGpu, COUNT_MAX_N, type CountOptions, type CountProgress, type CountResult } from "./count/count.js";
export { solutions, SOLUTIONS_MAX_N, type SolutionsOptions } from "./count/solutions.js";
export { solve, SOLVE_TASKS } from "./workers/solve-parallel.js";
export {
  autoMethod, defaultStopVegas, METHOD_NAMES, COMPLETE_MAX_N, DEFAULT_METHOD, DEFAULT_SEED, SOLVE_MAX_WORKERS,
  type Method, type SolveOptions, type SolveProgress, type SolveResult, type SolveFound, type SolveNotFound, type SolveResultBase, type StopReason,
} from "./search/solve.js";
export {
  splitCount, countTask, countPart, checkPartCount, mergeCounts,
  type Part, type PartResult, type MergedParts, type SplitOptions, type CountPartOptions,
} from "./count/split.js";
export { derivePart, partDigest, maxParts, MAX_PARTS, SPLIT_VERSION, type CountPart, type PartCount, type MergedCount } from "./count/parts.js";
export type { ConstrainedPart, ConstrainedPartCount } from "./count/constrained-parts.js";
export { countParallel, type ParallelOptions, type ParallelProgress, type ParallelResult } from "./workers/parallel.js";
export {
  crossCheck, describeReport, KERNEL_NAMES,
  type CrossCheckOptions, type CrossCheckReport, type CrossCheckProgress, type KernelReport, type Divergence, type Runner,
} from "./analysis/crosscheck.js";
export { verdictLine, type CrossCheckVerdict } from "./analysis/crosscheck.js";
export type { KeyInput } from "./core/key.js";
export { verify, type VerifyOptions, type VerifyResult } from "./search/verify.js";
export { checkConstraints, type Square, type BoardConstraints, type Constraints } from "./board/constraints.js";
export { parseBoard, formatBoard, detectFormat, drawBoard, BOARD_FORMATS, type BoardFormat, type BoardFile } from "./board/formats.js";
export { excludedDiagonalsBoard, excludedDiagonalsList, diagonalSquares, type ExcludedDiagonal } from "./board/excluded-diagonals.js";
export {
  CONSTRAINED_MAX_N,
} from "./count/constrained.js";
export {
  splitConstrainedCount, countConstrainedPart, countConstrainedPartAsync, checkConstrainedPart, mergeConstrainedCounts, type ConstrainedCountOptions,
} from "./count/deprecated.js";
export { render, type RenderOptions } from "./board/render.js";
export { randomSequence, type RandomSequenceOptions } from "./search/random.js";
export {
  estimate, treeSize, ESTIMATE_MAX_N, TREE_SIZE_MAX_N,
  type EstimateOptions, type EstimateProgress, type EstimateResult,
  type TreeSizeOptions, type TreeSizeProgress, type TreeSizeResult,
} from "./analysis/estimate.js";
export {
  lasVegasStats, lasVegasTable, LAS_VEGAS_EXACT_MAX_N, DEFAULT_TRIALS,
  type LasVegasStatsOptions, type LasVegasTableOptions, type LasVegasProgress, type LasVegasStats, type LasVegasTable,
} from "./analysis/las-vegas-stats.js";
export {
  trace, TRACE_METHODS, TRACE_MAX_N, DEFAULT_TRACE_MAX_EVENTS,
  type TraceMethod, type TraceOptions, type TraceEvent, type TraceFigures,
} from "./search/trace.js";
export { METHODS, AUTO_RULE, type MethodSpec } from "./engine/registry.js";
export { ErrorCode, type ErrorCodeValue, type ErrorFacts, type CodedError } from "./core/errors.js";
export type { PacedOptions, SignalOptions, TimeoutOptions, ProgressOptions } from "./core/pacer.js";
export type { EngineName, CountEngineName, SearchMethod, SearchPhase } from "./engine/contract.js";
export { gpuInfo, releaseGpu, type GpuInfo, type GpuCountProgress, type GpuCountTuning, type GpuStack, type GpuTaskOrder } from "./engine/webgpu/index.js";
