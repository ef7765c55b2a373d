/// <reference types="@webgpu/types" />
// The host's side of the GPU kernel (gpu/constellations.wgsl: constellation tasks, the whole
// board's for count() and a part's): the pipelines, the buffers and the dispatch loop.
//
// Each dispatch runs every slot (one GPU invocation, holding one task's search at a time)
// for at most `budget` steps; the host measures each dispatch and adapts the budget so that
// one takes about DISPATCH_TARGET_MS. Between dispatches it checks the signal and the time
// limit, reports progress (tasks done, rate, ETA) and lets the event loop run. The counts
// are read once at the end, per slot as 96-bit counters (lo/mid/hi u32 words), and summed
// exactly as bigints; the slots' nodes must equal the kernel's running total and every task
// must be done, or the count is refused. A lost device rejects with NQ_DEVICE_LOST, a
// dispatch the GPU refuses or that makes no progress with NQ_KERNEL_ABORT: never a count.
import shader from "../../../gpu/constellations.wgsl";
import stackPrelude from "../../../gpu/stack.wgsl";
import type { CountOptions, CountProgress } from "../count-types.js";
import { ErrorCode, invalid, timeoutError, withCode } from "../../core/errors.js";
import { Pacer, type PacerStop } from "../../core/pacer.js";
import { acquireGpu, type GpuHandle } from "./device.js";
import type { TaskCount } from "../contract.js";
import type { GpuCountProgress, GpuCountTuning, GpuStack } from "./tuning.js";

/** How long one dispatch should take. */
export const DISPATCH_TARGET_MS = 20;

const MIN_BUDGET = 16;
export const MAX_BUDGET = 1 << 22;

const WORKGROUP = 32; // @workgroup_size of gpu/constellations.wgsl
const STATE_FIELDS = 66; // see gpu/constellations.wgsl
const RESULT_WORDS = 12; // per slot: count8, count4, count2, nodes, each lo/mid/hi
const CTRL_BYTES = 32; // next, done, nodes lo/mid/hi
/** struct Params of gpu/constellations.wgsl, word by word (padded to PARAM_WORDS); test/webgpu-parts.test.ts checks that the two agree. */
export const PARAMS = ["n", "mask", "numTasks", "budget", "slots"] as const;
const PARAM_WORDS = 12;
const KERNEL_FILE = "gpu/constellations.wgsl";

/**
 * What one run of the kernel counts: its tasks (the kernel's words, `count` of them), the nodes
 * the host counted, the Params values; and `alongside`, the host's own work done while the GPU
 * runs each dispatch (a slice a call: true while some is left).
 */
export type KernelJob = { count: number; prefixNodes: bigint; records: Uint32Array<ArrayBuffer>; params: Record<string, number>; alongside?: () => boolean };

// GPUBufferUsage / GPUMapMode values (spelled out: Node has no such globals unless installed).
const MAP_READ = 0x0001, COPY_SRC = 0x0004, COPY_DST = 0x0008, UNIFORM = 0x0040, STORAGE = 0x0080;
const MODE_READ = 0x0001;

export function deviceLostError(message: string): Error & { code: string } {
  const error = withCode(new Error(`the GPU device was lost during the count; no count is reported (${message})`), ErrorCode.deviceLost);
  error.name = "DeviceLostError";
  return error;
}

export function kernelErrorOf(message: string): Error & { code: string } {
  return withCode(new Error(`${KERNEL_FILE}: ${message}`), ErrorCode.kernelAbort);
}

/**
 * The rows of each invocation's stack for an n x n board: n rounded up to 16, 20, 24, 28 or 32.
 * Smaller stacks take less workgroup memory (16 KiB a workgroup at 32 rows, 10 KiB at 20), so
 * more workgroups fit on a GPU's cores at once; the steps of 4 bound the pipelines a device
 * compiles to five a layout.
 */
export function stackRows(n: number): number {
  return Math.max(16, Math.min(32, Math.ceil(n / 4) * 4));
}

/** The kernel's line where the host splices in gpu/stack.wgsl (WGSL has no include of its own). */
const INCLUDE_STACK = /^\/\/ @include stack\.wgsl$/m;

/**
 * The kernel's text with gpu/stack.wgsl spliced in at its `// @include stack.wgsl` line, one
 * stack layout kept (the blocks between `// @stack NAME` and `// @end`) and its stacks `rows`
 * deep (STACK_ROWS; the board's n must not exceed it).
 */
export function kernelSource(stack: GpuStack, rows = 32): string {
  if (!INCLUDE_STACK.test(shader)) throw kernelErrorOf("the `// @include stack.wgsl` line is missing");
  const text = shader.replace(INCLUDE_STACK, () => stackPrelude.trimEnd());
  const sized = text.replace(/^const STACK_ROWS: u32 = 32u;$/m, `const STACK_ROWS: u32 = ${rows}u;`);
  if (rows !== 32 && sized === text) throw kernelErrorOf("the STACK_ROWS line is missing");
  return sized.replace(/\/\/ @stack (\w+)\n([\s\S]*?)\/\/ @end\n/g, (_all, name: string, body: string) => (name === stack ? body : ""));
}

const pipelines = new WeakMap<GPUDevice, Map<string, Promise<GPUComputePipeline>>>();
/** The budget the last run's dispatches took about the target with, per device. */
const lastBudgets = new WeakMap<GPUDevice, number>();

async function pipelineFor(device: GPUDevice, stack: GpuStack, rows: number): Promise<GPUComputePipeline> {
  let byStack = pipelines.get(device);
  if (!byStack) pipelines.set(device, (byStack = new Map()));
  const key = `${stack} ${rows}`;
  let p = byStack.get(key);
  if (!p) {
    p = (async () => {
      // The scope is pushed and popped with nothing awaited in between: the device and its
      // stack of error scopes are shared by every count in flight (see run()).
      const code = kernelSource(stack, rows); // (before the scope: a throw here leaves none pushed)
      device.pushErrorScope("validation");
      const module = device.createShaderModule({ code, label: `${KERNEL_FILE} (${stack} stack, ${rows} rows)` });
      const [failure, info] = await Promise.all([device.popErrorScope(), module.getCompilationInfo()]);
      const errors = info.messages.filter((m) => m.type === "error");
      if (errors.length) throw kernelErrorOf(errors.map((m) => `line ${m.lineNum}: ${m.message}`).join("; "));
      if (failure) throw kernelErrorOf(failure.message);
      try {
        // a pipeline that fails validation rejects this promise (a GPUPipelineError)
        return await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "main" } });
      } catch (error) {
        throw kernelErrorOf(`the pipeline could not be made: ${(error as Error)?.message ?? String(error)}`);
      }
    })();
    byStack.set(key, p);
    p.catch(() => byStack.delete(key));
  }
  return p;
}

/**
 * The slots of a count: tuning.slots, or the default. One dispatch launches slots / 32
 * workgroups in one dimension, so the adapter's maxComputeWorkgroupsPerDimension (65,535 at
 * least) times 32 is the most it takes; more is a RangeError here, never a dispatch the GPU
 * refuses (which would leave the count without progress).
 */
export function slotsFor(gpu: GpuHandle, tuning: GpuCountTuning): number {
  const most = gpu.device.limits.maxComputeWorkgroupsPerDimension * WORKGROUP;
  if (tuning.slots !== undefined && tuning.slots > most) {
    throw invalid(
      "tuning", `.slots must be an integer from 1 to ${most} (this adapter's maxComputeWorkgroupsPerDimension, ` +
        `${gpu.device.limits.maxComputeWorkgroupsPerDimension}, times the workgroup size, ${WORKGROUP}), got ${tuning.slots}`,
    );
  }
  const slots = tuning.slots === undefined ? (gpu.fallback ? 256 : 65536) : Math.ceil(tuning.slots / WORKGROUP) * WORKGROUP;
  return Math.min(slots, most);
}

/** The start of every GPU count: its pacer (abort and timeout honoured while the device opens), the device, and its slots. */
export async function openGpuCount(n: number, opts: Pick<CountOptions, "signal" | "timeoutMs" | "onProgress" | "progressIntervalMs">, tuning: GpuCountTuning): Promise<{ pacer: Pacer<CountProgress>; gpu: GpuHandle; maxSlots: number }> {
  const pacer = Pacer.from<CountProgress>(opts);
  pacer.throwIfAborted();
  const opened = await pacer.raceStop(acquireGpu());
  if (opened.stop) throwStop(n, pacer, opened.stop);
  const gpu = opened.value;
  return { pacer, gpu, maxSlots: slotsFor(gpu, tuning) };
}

/**
 * Runs the kernel's job to its end in bounded dispatches: the sums of its slots' four counters
 * (the solutions of symmetry classes 0, 1, 2, in the count8, count4, count2 fields) and its
 * nodes plus the job's host nodes.
 * @internal
 */
// One function of about 220 lines: the dispatch loop (fill the slots, dispatch, read back,
// refill) owns the GPU buffers, the in-flight readbacks and the abort and device-lost paths
// together, and each of those must release the same buffers in the same finally; split, the
// buffers' life would be spread over several functions, which is how leaks on device loss
// come about. Its steps are named in the comments inside.
export async function run(
  n: number, gpu: GpuHandle, pacer: Pacer<CountProgress>, tuning: GpuCountTuning, job: KernelJob, maxSlots: number,
): Promise<TaskCount> {
  const { records } = job;
  const tasks = { count: job.count, prefixNodes: job.prefixNodes };
  const { device } = gpu;
  if (gpu.lost) throw deviceLostError(gpu.lostMessage);
  const slots = Math.min(maxSlots, Math.ceil(tasks.count / WORKGROUP) * WORKGROUP);
  const targetMs = tuning.targetMs ?? DISPATCH_TARGET_MS;
  const limits = device.limits;
  const resultBytes = RESULT_WORDS * slots * 4, stateBytes = STATE_FIELDS * slots * 4;
  for (const [what, bytes] of [["results", resultBytes], ["state", stateBytes], ["tasks", records.byteLength]] as const) {
    if (bytes > limits.maxStorageBufferBindingSize) {
      throw withCode(new Error(`count(${n}) on the GPU needs a ${what} buffer of ${bytes} bytes; this adapter allows ${limits.maxStorageBufferBindingSize}`), ErrorCode.outOfMemory);
    }
  }

  // A pipeline compiles for seconds on some adapters (the workgroup stack on SwiftShader): the
  // count stops waiting for it when the signal aborts or the time limit passes; the compile
  // goes on and its pipeline is cached for the device's next count.
  const compiled = await pacer.raceStop(pipelineFor(device, tuning.stack ?? (gpu.fallback ? "private" : "workgroup"), tuning.stackRows ?? stackRows(n)));
  if (compiled.stop) throwStop(n, pacer, compiled.stop);
  throwIfStopped(n, pacer);
  const pipeline = compiled.value;
  device.pushErrorScope("validation");
  device.pushErrorScope("out-of-memory");
  const buffers: GPUBuffer[] = [];
  const buffer = (size: number, usage: number, label: string): GPUBuffer => {
    const b = device.createBuffer({ size: Math.max(16, Math.ceil(size / 4) * 4), usage, label });
    buffers.push(b);
    return b;
  };
  const params = buffer(4 * PARAM_WORDS, UNIFORM | COPY_DST, "params");
  const taskBuf = buffer(records.byteLength, STORAGE | COPY_DST, "tasks");
  const results = buffer(resultBytes, STORAGE | COPY_SRC | COPY_DST, "results");
  const state = buffer(stateBytes, STORAGE, "state");
  const ctrl = buffer(CTRL_BYTES, STORAGE | COPY_SRC | COPY_DST, "ctrl");
  const ctrlRead = buffer(CTRL_BYTES, MAP_READ | COPY_DST, "ctrl read");
  device.queue.writeBuffer(taskBuf, 0, records);
  const seed = tuning.seedLo ?? 0;
  if (seed) {
    const init = new Uint32Array(RESULT_WORDS * slots);
    for (let k = 0; k < 4; k++) init.fill(seed, 3 * k * slots, (3 * k + 2) * slots); // lo and mid words
    device.queue.writeBuffer(results, 0, init);
    device.queue.writeBuffer(ctrl, 8, new Uint32Array([seed, seed]));
  }
  const bindGroup = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [params, taskBuf, results, state, ctrl].map((b, binding) => ({ binding, resource: { buffer: b } })),
  });
  // Both scopes are popped now, before anything is awaited: another count on the shared
  // device may push its own scopes while these answers are awaited, and a pop after an
  // await would take that count's scope instead of this one's.
  const [outOfMemory, invalid] = await Promise.all([device.popErrorScope(), device.popErrorScope()]);
  if (outOfMemory || invalid) {
    for (const b of buffers) b.destroy();
    if (gpu.lost) throw deviceLostError(gpu.lostMessage);
    if (outOfMemory) throw withCode(new Error(`count(${n}) on the GPU: buffers could not be had (${outOfMemory.message})`), ErrorCode.outOfMemory);
    throw kernelErrorOf(`setting up the count failed: ${invalid!.message}`);
  }
  const values: Record<string, number> = { ...job.params, budget: 0, slots };
  const names: readonly string[] = PARAMS;
  const p = new Uint32Array(PARAM_WORDS);
  names.forEach((name, i) => {
    if (values[name] === undefined) throw kernelErrorOf(`no value for Params.${name}`);
    p[i] = values[name];
  });
  const BUDGET = names.indexOf("budget");

  // Each wait rejects as soon as the device is lost, whatever the host is waiting for. One
  // rejecter a wait, dropped when the wait ends: racing every wait against one promise that
  // never settles kept a reaction per dispatch alive for the whole count (about 420 bytes a
  // dispatch, 75 MB an hour at 50 dispatches a second).
  let lostError: Error | undefined;
  const waiting = new Set<(error: Error) => void>();
  const onLost = (message: string) => {
    lostError = deviceLostError(message);
    for (const reject of waiting) reject(lostError);
  };
  gpu.onLost.add(onLost);
  const guard = async <T>(work: Promise<T>): Promise<T> => {
    let reject: (error: Error) => void = () => {};
    const lostNow = new Promise<never>((_, r) => (reject = r));
    if (lostError) reject(lostError);
    waiting.add(reject);
    try {
      return await Promise.race([work, lostNow]);
    } catch (error) {
      if ((error as { code?: string })?.code === ErrorCode.deviceLost) throw error;
      // A failed map or submit: the device is gone (destroyed, reset by the driver) or going.
      throw deviceLostError(gpu.lostMessage || (error as Error)?.message || String(error));
    } finally {
      waiting.delete(reject);
    }
  };

  // Steps a slot in the next dispatch. Parts come one after another (the pool's GPU slot, a
  // queue worker), counts too: a run starts from the budget the last one ended with on this
  // device (instead of doubling up from 64 again over several dispatches).
  let budget = tuning.initialBudget ?? lastBudgets.get(device) ?? 64;
  let lastBudget = 0; // ... and in the last one (what progress reports)
  let done = 0, dispatchMs = 0;
  let alongside = job.alongside !== undefined;
  const seedValue = BigInt(seed) * (1n + 2n ** 32n); // what a seeded lo/mid pair starts at
  let runningNodes = 0n; // the kernel's running total (less the seed)
  const progress = (): CountProgress => {
    const elapsedMs = pacer.elapsed();
    const tasksPerSecond = done / Math.max(elapsedMs / 1000, 1e-9);
    const report: GpuCountProgress = {
      phase: "count", n, tasksDone: done, tasksTotal: tasks.count,
      nodes: tasks.prefixNodes + runningNodes, elapsedMs,
      tasksPerSecond, etaMs: done ? ((tasks.count - done) / tasksPerSecond) * 1000 : Infinity, budget: lastBudget, dispatchMs,
    };
    return report;
  };

  // What the last dispatches showed of the kernel's progress: the task cursor, the tasks done
  // and the running node total (ctrl's first five words). A working kernel moves one of them
  // within (n + 1)^2 steps of any slot that holds a task (a run of steps that neither enter a
  // row, place a last-row queen nor finish a task tries each candidate of a row and backs up,
  // row after row), so a few dispatches that move none of them, with more steps than twice
  // that between them, mean the GPU is not running the work (dropped, or refused unseen).
  const seen = new Uint32Array(5);
  let stalled = 0, stalledSteps = 0;
  const stallSteps = 2 * (n + 1) ** 2;

  try {
    for (let dispatches = 1; done < tasks.count; dispatches++) {
      throwIfStopped(n, pacer);
      if (gpu.lost) throw deviceLostError(gpu.lostMessage);
      p[BUDGET] = lastBudget = budget;
      // The dispatch is encoded and submitted inside its own error scopes, popped before
      // anything is awaited (as in the setup): a dispatch the GPU refuses (a validation error:
      // none of the command buffer runs) rejects the count, instead of going to the device's
      // uncaptured-error log while the host waits for progress that never comes.
      device.pushErrorScope("validation");
      device.pushErrorScope("internal");
      device.queue.writeBuffer(params, 0, p);
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(slots / WORKGROUP);
      pass.end();
      encoder.copyBufferToBuffer(ctrl, 0, ctrlRead, 0, CTRL_BYTES);
      const t0 = performance.now();
      device.queue.submit([encoder.finish()]);
      const scopes = Promise.all([device.popErrorScope(), device.popErrorScope()]);
      const answer = guard(Promise.all([ctrlRead.mapAsync(MODE_READ), scopes]));
      // The host's own work while the GPU runs the dispatch: a dispatch that ends after it is
      // timed right; one that ended during it is known only to have taken no longer ("host-bound").
      let hostMs = 0;
      if (alongside) {
        alongside = job.alongside!();
        hostMs = performance.now() - t0;
      }
      const [, [internal, invalid]] = await answer;
      dispatchMs = performance.now() - t0;
      const hostBound = hostMs > 0 && dispatchMs - hostMs < 1;
      const c = new Uint32Array(ctrlRead.getMappedRange().slice(0));
      ctrlRead.unmap();
      const refused = invalid ?? internal;
      if (refused) {
        if (gpu.lost) throw deviceLostError(gpu.lostMessage);
        throw kernelErrorOf(`the GPU refused dispatch ${dispatches} of the count (${refused.message.trim()}); no count is reported`);
      }
      done = c[1];
      runningNodes = word96(c[2], c[3], c[4]) - seedValue;
      if (done > tasks.count) throw kernelErrorOf(`${done} tasks reported done of ${tasks.count}`);
      if (seen.every((word, i) => word === c[i])) {
        stalled++;
        stalledSteps += budget;
        if (stalled >= 3 && stalledSteps > stallSteps) {
          throw kernelErrorOf(
            `no progress in ${stalled} dispatches (${stalledSteps} steps a slot; a working kernel shows some within ${stallSteps / 2}): ` +
              `the task cursor stayed at ${c[0]}, tasks done at ${done} of ${tasks.count}, nodes at ${runningNodes}; no count is reported`,
          );
        }
      } else {
        seen.set(c.subarray(0, 5));
        stalled = 0;
        stalledSteps = 0;
      }
      // Doubled while a dispatch is short (a step's cost is not known in advance: a first
      // dispatch with a big budget could take seconds); over twice the target, cut at once to
      // what would have taken the target (not just halved: a budget far too big, or a GPU
      // that slowed down, is back near the target after one dispatch).
      // (A host-bound dispatch that took long says nothing of the GPU's time: the budget stays.)
      if (dispatchMs < targetMs / 2) budget = Math.min(MAX_BUDGET, budget * 2);
      else if (dispatchMs > targetMs * 2 && !hostBound) budget = Math.max(MIN_BUDGET, Math.floor((budget * targetMs) / dispatchMs));
      if (tuning.initialBudget === undefined && dispatchMs >= targetMs / 2 && !hostBound) lastBudgets.set(device, budget);
      if (done < tasks.count) await pacer.between(progress);
    }
    device.pushErrorScope("validation");
    device.pushErrorScope("out-of-memory");
    const read = buffer(resultBytes, MAP_READ | COPY_DST, "results read");
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(results, 0, read, 0, resultBytes);
    device.queue.submit([encoder.finish()]);
    const readScopes = Promise.all([device.popErrorScope(), device.popErrorScope()]);
    const [readOutOfMemory, readInvalid] = await guard(readScopes);
    if (gpu.lost) throw deviceLostError(gpu.lostMessage);
    if (readOutOfMemory) throw withCode(new Error(`count(${n}) on the GPU: the results' readback buffer could not be had (${readOutOfMemory.message})`), ErrorCode.outOfMemory);
    if (readInvalid) throw kernelErrorOf(`reading the results back failed (${readInvalid.message.trim()}); no count is reported`);
    await guard(read.mapAsync(MODE_READ));
    const words = new Uint32Array(read.getMappedRange().slice(0));
    read.unmap();
    if (gpu.lost) throw deviceLostError(gpu.lostMessage);
    const sums = sumResults(words, slots);
    const seeded = seedValue * BigInt(slots);
    sums.count8 -= seeded;
    sums.count4 -= seeded;
    sums.count2 -= seeded;
    sums.nodes -= seeded;
    if (sums.nodes !== runningNodes) throw kernelErrorOf(`the slots' nodes (${sums.nodes}) differ from the running total (${runningNodes}); count refused`);
    pacer.finish(progress());
    return {
      count8: sums.count8,
      count4: sums.count4,
      count2: sums.count2,
      nodes: tasks.prefixNodes + sums.nodes,
    };
  } finally {
    gpu.onLost.delete(onLost);
    if (!gpu.lost) for (const b of buffers) b.destroy();
  }
}

/**
 * Called between slices of a long preparation (the host makes millions of starts for a large
 * n in seconds): it may throw to stop it (an abort, a time limit) and may wait (to let the
 * event loop run).
 */
export type Between = () => void | Promise<void>;

/**
 * Between slices of the host's work before the first dispatch: stop on an abort or the time
 * limit, and let the event loop run (so that an abort from a timer gets through).
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

export function throwStop(n: number, pacer: Pacer<CountProgress>, stop: PacerStop): never {
  if (stop === "aborted") pacer.throwIfAborted();
  throw timeoutError(`count(${n})`, pacer.timeoutMs);
}

function throwIfStopped(n: number, pacer: Pacer<CountProgress>): void {
  const stop = pacer.stopReason();
  if (stop) throwStop(n, pacer, stop);
}

function word96(lo: number, mid: number, hi: number): bigint {
  return (BigInt(hi) << 64n) + (BigInt(mid) << 32n) + BigInt(lo);
}

/**
 * Exact sums of the slots' 96-bit counters: counter k's word j (lo, mid, hi) of slot s at
 * (3k + j) * slots + s (see gpu/constellations.wgsl).
 */
export function sumResults(words: Uint32Array, slots: number): { count8: bigint; count4: bigint; count2: bigint; nodes: bigint } {
  const out = [0n, 0n, 0n, 0n];
  const CHUNK = 1 << 20; // 2^20 numbers below 2^32 add up exactly in a double
  for (let k = 0; k < 4; k++) {
    for (let j = 0; j < 3; j++) {
      const base = (3 * k + j) * slots;
      for (let start = 0; start < slots; start += CHUNK) {
        let sum = 0;
        const end = Math.min(slots, start + CHUNK);
        for (let s = start; s < end; s++) sum += words[base + s];
        out[k] += BigInt(sum) << BigInt(32 * j);
      }
    }
  }
  return { count8: out[0], count4: out[1], count2: out[2], nodes: out[3] };
}

