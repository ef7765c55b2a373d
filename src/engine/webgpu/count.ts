/// <reference types="@webgpu/types" />
// count(n, { engine: 'webgpu' }): the whole board's constellation tasks (src/count/tasks.ts,
// the tasks count() gives a CPU engine, passed in by the caller) counted on the GPU with
// gpu/constellations.wgsl (./constellations.ts makes the starts, ./dispatch.ts runs the
// kernel), with the symmetry classes told as the CPU counter tells them: the same total,
// unique and nodes as count(n) on a CPU engine.
import { symmetricTotal, type CountOptions, type CountResult } from "../count-types.js";
import { checkChoice, checkInteger, checkOptions, optionalInteger } from "../../core/validate.js";
import type { ConstellationTask } from "../contract.js";
import { DISPATCH_TARGET_MS, MAX_BUDGET, openGpuCount } from "./dispatch.js";
import { countOpened } from "./constellations.js";
import type { GpuCountTuning } from "./tuning.js";

export {
  PARAMS, DISPATCH_TARGET_MS, deviceLostError, kernelErrorOf, kernelSource, run, slotsFor, stackRows, stopper, sumResults, throwStop,
  type Between, type KernelJob,
} from "./dispatch.js";
export type { GpuCountProgress, GpuCountTuning, GpuStack, GpuTaskOrder } from "./tuning.js";

/** n <= 3, answered directly (as count() does for every engine). */
function smallBoard(n: number): { total: bigint; unique: bigint; nodes: bigint } | undefined {
  if (n === 1) return { total: 1n, unique: 1n, nodes: 1n };
  if (n <= 3) return { total: 0n, unique: 0n, nodes: 0n };
  return undefined;
}

const TUNING_NAMES = ["slots", "minTasks", "initialBudget", "targetMs", "stack", "stackRows", "order", "seedLo"] as const;

/** countGpu's tuning, checked (n already checked): each value's range, by name. */
export function checkGpuTuning(n: number, tuning: GpuCountTuning | undefined): GpuCountTuning {
  const t = checkOptions<GpuCountTuning>("countGpu tuning", tuning, TUNING_NAMES);
  return {
    slots: t.slots === undefined ? undefined : checkInteger("tuning.slots", t.slots, 1, 1 << 22),
    minTasks: t.minTasks === undefined ? undefined : checkInteger("tuning.minTasks", t.minTasks, 1, Number.MAX_SAFE_INTEGER),
    initialBudget: optionalInteger("tuning.initialBudget", t.initialBudget, 1, MAX_BUDGET, 64),
    targetMs: optionalInteger("tuning.targetMs", t.targetMs, 1, 1000, DISPATCH_TARGET_MS),
    stack: t.stack === undefined ? undefined : checkChoice("tuning.stack", t.stack, ["workgroup", "private"] as const),
    stackRows: t.stackRows === undefined ? undefined : checkInteger("tuning.stackRows", t.stackRows, Math.max(n, 1), 32),
    order: t.order === undefined ? undefined : checkChoice("tuning.order", t.order, ["largest-first", "split"] as const),
    seedLo: optionalInteger("tuning.seedLo", t.seedLo, 0, 0xffffffff, 0),
  };
}

/**
 * The GPU count of n from the board's constellation tasks (`tasks`: src/count/tasks.ts's
 * split of n, empty for n <= 3); `n` (1..32), the options and the tuning are already checked
 * by count() or countGpu().
 * @internal use count(n, { engine: 'webgpu' })
 */
export async function countWebGpu(n: number, tasks: readonly ConstellationTask[], opts: CountOptions, tuning: GpuCountTuning = {}): Promise<CountResult> {
  const opened = await openGpuCount(n, opts, tuning);
  const { pacer } = opened;
  const small = smallBoard(n);
  if (small) {
    pacer.finish({ phase: "count", n, tasksDone: 0, tasksTotal: 0, nodes: small.nodes, elapsedMs: pacer.elapsed() });
    return { n, ...small, ms: pacer.elapsed(), engine: "webgpu" };
  }
  const sums = await countOpened(n, tasks, opened, tuning);
  return { n, ...symmetricTotal(sums.count8, sums.count4, sums.count2), nodes: sums.nodes, ms: pacer.elapsed(), engine: "webgpu" };
}
