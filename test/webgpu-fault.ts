/// <reference types="@webgpu/types" />
// Faults injected into a real WebGPU device, for test/webgpu.test.ts (and watchDevice, below, for the GPU tests that watch dispatches and the compile): a loader (setGpuLoader)
// that hands out the real adapter's device behind a Proxy whose chosen methods are replaced.
// Everything else goes to the real object (Dawn's methods are called on the real one, so
// they never see a proxy as `this`). The objects the engine passes back to the device
// (buffers, pipelines, bind groups, command buffers) are the real ones.
import { defaultLoader, type GpuLoader } from "../src/engine/webgpu/index.js";

type Fn = (...args: never[]) => unknown;

/** `target` with the methods or values in `overrides` replaced; the rest read from (and bound to) the target. */
export function overlay<T extends object>(target: T, overrides: Record<string | symbol, unknown>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (Object.prototype.hasOwnProperty.call(overrides, prop)) return overrides[prop];
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === "function" ? (value as Fn).bind(t) : value;
    },
  });
}

export type DeviceFaults = {
  /** Replaces device.createBindGroup (call `real` for the real one). */
  createBindGroup?: (real: GPUDevice["createBindGroup"], descriptor: GPUBindGroupDescriptor) => GPUBindGroup;
  /** Replaces GPUComputePassEncoder.dispatchWorkgroups. */
  dispatchWorkgroups?: (real: GPUComputePassEncoder["dispatchWorkgroups"], x: number, y?: number, z?: number) => void;
  /** Replaces device.queue.submit. */
  submit?: (real: GPUQueue["submit"], buffers: GPUCommandBuffer[]) => void;
  /** Values that device.limits reports instead of the real ones. */
  limits?: Partial<Record<string, number>>;
};

/**
 * A loader whose devices carry `faults` (the adapter and everything else are real). Given a
 * function, the faults are read at each call: tests that share one device (its pipeline
 * compiled once) each set their own.
 */
export function faultyLoader(faults: DeviceFaults | (() => DeviceFaults)): GpuLoader {
  const current = typeof faults === "function" ? faults : () => faults;
  return async () => {
    const { gpu, source } = await defaultLoader();
    const requestAdapter: GPU["requestAdapter"] = async (options) => {
      const adapter = await gpu.requestAdapter(options);
      if (!adapter) return adapter;
      const requestDevice: GPUAdapter["requestDevice"] = async (descriptor) => faultyDevice(await adapter.requestDevice(descriptor), current);
      return overlay(adapter, { requestDevice });
    };
    return { gpu: overlay(gpu, { requestAdapter }), source };
  };
}

/** The device with each method a fault may replace replaced: the fault where `current()` has one, else the real method. */
function faultyDevice(device: GPUDevice, current: () => DeviceFaults): GPUDevice {
  const realBindGroup = device.createBindGroup.bind(device);
  const queue = device.queue;
  const realSubmit = queue.submit.bind(queue);
  const limits = new Proxy(device.limits, {
    get(t, prop) {
      const faked = current().limits;
      if (faked && Object.prototype.hasOwnProperty.call(faked, prop)) return faked[prop as string];
      const value = Reflect.get(t, prop, t) as unknown;
      return typeof value === "function" ? (value as Fn).bind(t) : value;
    },
  });
  return overlay(device, {
    createBindGroup: (descriptor: GPUBindGroupDescriptor) => {
      const fault = current().createBindGroup;
      return fault ? fault(realBindGroup, descriptor) : realBindGroup(descriptor);
    },
    queue: overlay(queue, {
      submit: (buffers: GPUCommandBuffer[]) => {
        const fault = current().submit;
        return fault ? fault(realSubmit, buffers) : realSubmit(buffers);
      },
    }),
    createCommandEncoder: (descriptor?: GPUCommandEncoderDescriptor) => {
      const encoder = device.createCommandEncoder(descriptor);
      const beginComputePass = (d?: GPUComputePassDescriptor) => {
        const pass = encoder.beginComputePass(d);
        const real = pass.dispatchWorkgroups.bind(pass);
        const dispatchWorkgroups = (x: number, y?: number, z?: number) => {
          const fault = current().dispatchWorkgroups;
          return fault ? fault(real, x, y, z) : real(x, y ?? 1, z ?? 1);
        };
        return overlay(pass, { dispatchWorkgroups });
      };
      return overlay(encoder, { beginComputePass });
    },
    limits,
  });
}

/**
 * What a test watches on the real device, to assert the mechanism rather than a wall-clock
 * time: `submits` (one a dispatch), and the compile (`compiles` called, `compiled` settled).
 * The device's own methods are shadowed on the object itself; `restore` removes them.
 */
export function watchDevice(device: GPUDevice): { submits: () => number; compiles: () => number; compiled: () => number; restore: () => void } {
  let submits = 0, compiles = 0, compiled = 0;
  const queue = device.queue;
  const submit = queue.submit;
  const compile = device.createComputePipelineAsync;
  queue.submit = function (this: GPUQueue, ...args: Parameters<GPUQueue["submit"]>) { submits++; return submit.apply(this, args); };
  device.createComputePipelineAsync = function (this: GPUDevice, ...args: Parameters<GPUDevice["createComputePipelineAsync"]>) {
    compiles++;
    const made = compile.apply(this, args);
    void made.finally(() => compiled++).catch(() => {});
    return made;
  };
  return {
    submits: () => submits, compiles: () => compiles, compiled: () => compiled,
    restore: () => {
      delete (queue as Partial<GPUQueue>).submit;
      delete (device as Partial<GPUDevice>).createComputePipelineAsync;
    },
  };
}
