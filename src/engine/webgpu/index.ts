// The WebGPU engine: counting only (ENGINE_CAPABILITIES in ../contract.ts), as the contract's
// GpuEngine: one kernel, gpu/constellations.wgsl, counts constellation tasks, the whole
// board's for count(n, { engine: 'webgpu' }) (./count.ts) and a part's (./constellations.ts);
// ./device.ts finds the GPU (navigator.gpu, or the optional `webgpu` package in Node). It
// imports nothing of count/, search/ or the API: the caller hands it the tasks.
import type { GpuEngine } from "../contract.js";
import type { CountOptions, CountResult } from "../count-types.js";
import type { GpuCountTuning } from "./tuning.js";
import { countWebGpu } from "./count.js";
import { countConstellationsWebGpu } from "./constellations.js";

/** The WebGPU engine: the contract's GpuEngine. */
export const webgpuEngine: GpuEngine<CountOptions, CountResult, GpuCountTuning> = {
  name: "webgpu",
  count: (n, tasks, options, tuning) => countWebGpu(n, tasks, options, tuning),
  countConstellations: (n, tasks, options, tuning, share) => countConstellationsWebGpu(n, tasks, options, tuning, share),
};

export { checkGpuTuning, countWebGpu, kernelSource, PARAMS, stackRows, type GpuStack, type GpuTaskOrder, deviceLostError, sumResults, DISPATCH_TARGET_MS, type GpuCountProgress, type GpuCountTuning } from "./count.js";
export { acquireGpu, gpuInfo, releaseGpu, setGpuLoader, defaultLoader, createLoader, type GpuEnvironment, type GpuInfo, type GpuLoader } from "./device.js";
export { constellationStarts, constellationStartsSync, constellationCounts, countTurn, countTurns, minStartsFor, countConstellationsWebGpu, START_WORDS, TABLE_WORDS, MAX_STARTS, MIN_START_ROWS, type ConstellationStarts } from "./constellations.js";
