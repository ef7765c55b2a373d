/// <reference types="@webgpu/types" />
// count(n, { engine: 'webgpu' }): the full-symmetry counter (gpu/count.wgsl) over many
// prefix tasks (./tasks.ts), in bounded, resumable dispatches (./dispatch.ts: the pipelines,
// buffers and dispatch loop both kernels share; ./constellations.ts counts parts).
import { symmetricTotal, type CountOptions, type CountProgress, type CountResult } from "../count-types.js";
import { PACED_OPTION_NAMES, type Pacer } from "../../core/pacer.js";
import { checkChoice, checkInteger, checkOptions, optionalInteger } from "../../core/validate.js";
import type { GpuHandle } from "./device.js";
import { extendTasksAsync, gpuTasksAsync, largestFirstAsync, splitsDeeper, taskRecordsAsync, type WorkLimit, type Between, type PackedTasks } from "./tasks.js";
import type { CountTask, TaskCount } from "../contract.js";
import { DISPATCH_TARGET_MS, MAX_BUDGET, openGpuCount, run, throwStop, type KernelJob } from "./dispatch.js";
import type { GpuCountTuning } from "./tuning.js";

export {
  CONSTELLATION_PARAMS, DISPATCH_TARGET_MS, PARAMS, deviceLostError, kernelErrorOf, kernelSource, run, slotsFor, stackRows, sumResults, throwStop,
  type GpuKernel, type KernelJob,
} from "./dispatch.js";
export type { GpuCountProgress, GpuCountTuning, GpuStack, GpuTaskOrder } from "./tuning.js";

const MAX_DEFAULT_TASKS = 1 << 21;

/** n <= 3, answered directly (as count() does for every engine). */
function smallBoard(n: number): { total: bigint; unique: bigint; nodes: bigint } | undefined {
  if (n === 1) return { total: 1n, unique: 1n, nodes: 1n };
  if (n <= 3) return { total: 0n, unique: 0n, nodes: 0n };
  return undefined;
}

const TUNING_NAMES = ["slots", "minTasks", "initialBudget", "targetMs", "stack", "stackRows", "order", "seedLo"] as const;

/**
 * count(n, { engine: 'webgpu' }) with explicit tuning, for benchmarks on a given GPU (docs/gpu.md).
 * @example const r = await countGpu(18, {}, { slots: 131072 }); // r.engine === 'webgpu'
 */
export function countGpu(n: number, options?: Omit<CountOptions, "engine">, tuning?: GpuCountTuning): Promise<CountResult> {
  try {
    checkInteger("n", n, 1, 32);
    const opts = checkOptions<CountOptions>("countGpu", options, PACED_OPTION_NAMES);
    const t = checkOptions<GpuCountTuning>("countGpu tuning", tuning, TUNING_NAMES);
    const checked: GpuCountTuning = {
      slots: t.slots === undefined ? undefined : checkInteger("tuning.slots", t.slots, 1, 1 << 22),
      minTasks: t.minTasks === undefined ? undefined : checkInteger("tuning.minTasks", t.minTasks, 1, Number.MAX_SAFE_INTEGER),
      initialBudget: optionalInteger("tuning.initialBudget", t.initialBudget, 1, MAX_BUDGET, 64),
      targetMs: optionalInteger("tuning.targetMs", t.targetMs, 1, 1000, DISPATCH_TARGET_MS),
      stack: t.stack === undefined ? undefined : checkChoice("tuning.stack", t.stack, ["workgroup", "private"] as const),
      stackRows: t.stackRows === undefined ? undefined : checkInteger("tuning.stackRows", t.stackRows, Math.max(n, 1), 32),
      order: t.order === undefined ? undefined : checkChoice("tuning.order", t.order, ["largest-first", "split"] as const),
      seedLo: optionalInteger("tuning.seedLo", t.seedLo, 0, 0xffffffff, 0),
    };
    return countWebGpu(n, opts, checked);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The GPU count; `n` (1..32) and the option names are already checked by count() or countGpu().
 * @internal use count(n, { engine: 'webgpu' })
 */
export async function countWebGpu(n: number, opts: CountOptions, tuning: GpuCountTuning = {}): Promise<CountResult> {
  const { pacer, gpu, maxSlots } = await openGpuCount(n, opts, tuning);
  const small = smallBoard(n);
  if (small) {
    pacer.finish({ phase: "count", n, tasksDone: 0, tasksTotal: 0, nodes: small.nodes, elapsedMs: pacer.elapsed() });
    return { n, ...small, ms: pacer.elapsed(), engine: "webgpu" };
  }
  const between = stopper(n, pacer);
  const tasks = await ordered(await gpuTasksAsync(n, minTasksFor(gpu, tuning, maxSlots), between, workLimit(tuning, maxSlots)), tuning, between);
  const sums = await run(n, gpu, pacer, tuning, prefixJob(n, tasks, await taskRecordsAsync(tasks, between)), maxSlots);
  return {
    n,
    ...symmetricTotal(sums.count8, sums.count4, sums.count2),
    nodes: sums.nodes,
    ms: pacer.elapsed(),
    engine: "webgpu",
  };
}


/**
 * Many more tasks than slots (the queue balances the load), but not so many that making and
 * uploading them costs more than it brings (8 bytes a task; the results are per slot). The
 * split stops at the first depth that reaches this, which may give several times as many
 * (n = 18: 4,388,716 seven-row prefixes for 2^20).
 */
function minTasksFor(gpu: GpuHandle, tuning: GpuCountTuning, slots: number): number {
  return tuning.minTasks ?? Math.min((gpu.fallback ? 4 : 16) * slots, MAX_DEFAULT_TASKS);
}

/**
 * Counts the given prefix tasks of src/engine/prefix-split.ts (a count part's, say) on the GPU, each
 * cut deeper as the GPU needs: the sums of what countTask of a CPU engine gives for each
 * (count8, count4, count2, and the nodes below the given prefixes). Rejects as count() does
 * (NQ_ENGINE_UNAVAILABLE, NQ_DEVICE_LOST: then count them on a CPU engine instead).
 * @internal for the queue worker and countParallel
 */
export async function countTasksWebGpu(
  n: number,
  roots: readonly CountTask[],
  opts: Pick<CountOptions, "signal" | "timeoutMs"> = {},
  tuning: GpuCountTuning = {},
): Promise<TaskCount> {
  const { pacer, gpu, maxSlots } = await openGpuCount(n, opts, tuning);
  if (roots.length === 0) return { count8: 0n, count4: 0n, count2: 0n, nodes: 0n };
  const minTasks = minTasksFor(gpu, tuning, maxSlots);
  const rootDepth = Math.max(...roots.map((t) => t.rows.length));
  const between = stopper(n, pacer);
  let tasks = await extendTasksAsync(n, roots, rootDepth, between);
  for (let depth = rootDepth + 1; splitsDeeper(n, depth, tasks.count, minTasks, workLimit(tuning, maxSlots)); depth++) {
    tasks = await extendTasksAsync(n, roots, depth, between);
  }
  if (tasks.count === 0) return { count8: 0n, count4: 0n, count2: 0n, nodes: tasks.prefixNodes };
  const ready = await ordered(tasks, tuning, between);
  return run(n, gpu, pacer, tuning, prefixJob(n, ready, await taskRecordsAsync(ready, between)), maxSlots);
}

/** gpu/count.wgsl's job for prefix tasks. */
function prefixJob(n: number, tasks: PackedTasks, records: Uint32Array<ArrayBuffer>): KernelJob {
  const lastRow = n - 1;
  const topBit = 2 ** lastRow;
  return {
    kernel: "count", count: tasks.count, prefixNodes: tasks.prefixNodes, records,
    params: { n, lastRow, mask: n === 32 ? 0xffffffff : 2 ** n - 1, topBit, sideMask: topBit + 1, depth: tasks.depth, numTasks: tasks.count },
  };
}

/**
 * Work enough a task (docs/gpu.md): the split stops where its tasks would leave fewer than
 * MIN_ROWS_BELOW rows below them once it has 4 tasks a slot, unless tuning.minTasks asks for
 * so many tasks.
 */
function workLimit(tuning: GpuCountTuning, slots: number): WorkLimit | undefined {
  return tuning.minTasks === undefined ? { fewest: 4 * slots } : undefined;
}

function ordered(tasks: PackedTasks, tuning: GpuCountTuning, between: Between): Promise<PackedTasks> {
  return tuning.order === "split" ? Promise.resolve(tasks) : largestFirstAsync(tasks, between);
}

/**
 * Between slices of the host's work before the first dispatch (making and ordering millions
 * of tasks takes seconds at n = 24): stop on an abort or the time limit, and let the event
 * loop run (so that an abort from a timer gets through).
 */
export function stopper(n: number, pacer: Pacer<CountProgress>): Between {
  return async () => {
    const stop = pacer.stopReason();
    if (stop) throwStop(n, pacer, stop);
    await pacer.pause();
    const after = pacer.stopReason();
    if (after) throwStop(n, pacer, after);
  };
}
