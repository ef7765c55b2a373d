// The GPU count's tuning (countGpu's third argument) and its progress reports: the types
// count.ts, dispatch.ts, constellations.ts and src/count/gpu-part.ts share.
import type { CountProgress } from "../count-types.js";

// Where each GPU invocation keeps its stack (GpuCountTuning.stack).
export type GpuStack = "workgroup" | "private";

/** What `onProgress` receives from a GPU count: CountProgress plus the rate and an estimate of the time left. */
export type GpuCountProgress = CountProgress & {
  /** Tasks finished per second so far. */
  tasksPerSecond: number;
  /** Estimated milliseconds left (from the task rate; Infinity before any task is done). */
  etaMs: number;
  /** Steps per GPU invocation in the last dispatch, and how long that dispatch took. */
  budget: number;
  dispatchMs: number;
};

/** Tuning of a GPU count (for benchmarks; count(n, { engine: 'webgpu' }) picks these itself). */
export type GpuCountTuning = {
  /**
   * GPU invocations that each hold one start's search (rounded up to a multiple of 32; default
   * 65536, 256 on a software adapter). At most the adapter's maxComputeWorkgroupsPerDimension
   * x 32 (2,097,120 where that limit is 65,535): more is a RangeError.
   */
  slots?: number;
  /**
   * The GPU's tasks are starts: the host places the queens of the constellations' free rows, one
   * row at a time for all of them, until there are at least this many (default 8 x slots, 4 x
   * slots on a software adapter; a part of P parts 1/P of that), but never leaves a start with
   * 4 or fewer free rows below it nor makes over 2^22 starts. The row that reaches it may give
   * several times as many (n = 17: 1,678,584 for the default 524,288).
   */
  minTasks?: number;
  /** Steps per invocation in the first dispatch (default 64; adapted after each dispatch). */
  initialBudget?: number;
  /** How long one dispatch should take, ms (default DISPATCH_TARGET_MS = 20). */
  targetMs?: number;
  /**
   * Where each invocation keeps its stack: on-chip workgroup memory (default on hardware) or
   * private arrays (default on a software adapter, where the workgroup kernel compiles for seconds).
   */
  stack?: GpuStack;
  /** Rows of each invocation's stack, n to 32 (default stackRows(n): n rounded up to a multiple of 4, at least 16). */
  stackRows?: number;
  /**
   * The order the slots take the starts in: `'largest-first'` (default: by a cheap guess of each
   * start's size, so that no large start begins last while the other slots idle; see docs/gpu.md)
   * or `'split'` (the order the host made them in). Only the schedule changes, never a count or `nodes`.
   */
  order?: GpuTaskOrder;
  /**
   * Tests only: the lo and mid words of every slot counter and of the running node total start
   * at this value instead of 0 (subtracted again on the host), so that the kernel's carries run.
   */
  seedLo?: number;
};

/** The order in which a GPU count's slots take its tasks (GpuCountTuning.order). */
export type GpuTaskOrder = "largest-first" | "split";
