// The WebGPU engine: counting only. count(n, { engine: 'webgpu' }) lands in
// ./count.ts; ./device.ts finds the GPU (navigator.gpu, or the optional `webgpu` package in Node).
export { countGpu, countWebGpu, countTasksWebGpu, kernelSource, CONSTELLATION_PARAMS, PARAMS, type GpuKernel, stackRows, type GpuStack, type GpuTaskOrder, deviceLostError, sumResults, DISPATCH_TARGET_MS, type GpuCountProgress, type GpuCountTuning } from "./count.js";
export { acquireGpu, gpuInfo, releaseGpu, setGpuLoader, defaultLoader, createLoader, type GpuEnvironment, type GpuInfo, type GpuLoader } from "./device.js";
export { constellationStarts, constellationStartsSync, constellationCounts, minStartsFor, countConstellationsWebGpu, START_WORDS, TABLE_WORDS, MAX_STARTS, MIN_START_ROWS, type ConstellationStarts } from "./constellations.js";
export { extendTasks, extendTasksAsync, gpuTasks, gpuTasksAsync, largestFirst, largestFirstAsync, packTasks, splitsDeeper, taskRecords, taskSizes, unpackTask, MAX_GPU_DEPTH, MIN_ROWS_BELOW, TASK_WORDS, type PackedTasks, type WorkLimit } from "./tasks.js";
