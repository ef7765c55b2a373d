// The WebGPU engine: counting only (ENGINE_CAPABILITIES in ../contract.ts), as the contract's
// GpuEngine: count(n, { engine: 'webgpu' }) lands in ./count.ts, a part's constellation tasks in
// ./constellations.ts; ./device.ts finds the GPU (navigator.gpu, or the optional `webgpu`
// package in Node). It imports nothing of count/, search/ or the API.
import type { GpuEngine } from "../contract.js";
import type { CountOptions, CountResult } from "../count-types.js";
import type { GpuCountTuning } from "./tuning.js";
import { countWebGpu } from "./count.js";
import { countConstellationsWebGpu } from "./constellations.js";

/** The WebGPU engine: the contract's GpuEngine. */
export const webgpuEngine: GpuEngine<CountOptions, CountResult, GpuCountTuning & { minStarts?: number }> = {
  name: "webgpu",
  count: (n, options) => countWebGpu(n, options),
  countConstellations: (n, tasks, options, tuning, share) => countConstellationsWebGpu(n, tasks, options, tuning, share),
};

export { countGpu, countWebGpu, countTasksWebGpu, kernelSource, CONSTELLATION_PARAMS, PARAMS, type GpuKernel, stackRows, type GpuStack, type GpuTaskOrder, deviceLostError, sumResults, DISPATCH_TARGET_MS, type GpuCountProgress, type GpuCountTuning } from "./count.js";
export { acquireGpu, gpuInfo, releaseGpu, setGpuLoader, defaultLoader, createLoader, type GpuEnvironment, type GpuInfo, type GpuLoader } from "./device.js";
export { constellationStarts, constellationStartsSync, constellationCounts, minStartsFor, countConstellationsWebGpu, START_WORDS, TABLE_WORDS, MAX_STARTS, MIN_START_ROWS, type ConstellationStarts } from "./constellations.js";
export { extendTasks, extendTasksAsync, gpuTasks, gpuTasksAsync, largestFirst, largestFirstAsync, packTasks, splitsDeeper, taskRecords, taskSizes, unpackTask, MAX_GPU_DEPTH, MIN_ROWS_BELOW, TASK_WORDS, type PackedTasks, type WorkLimit } from "./tasks.js";
