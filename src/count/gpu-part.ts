// A count part (src/count/parts.ts) counted on the GPU: what countTask(part) gives on a CPU
// engine, the same plain-JSON PartCount, node for node, from countConstellationsWebGpu over
// the part's constellation tasks (gpu/constellations.wgsl). The queue worker
// (`nqueens worker --engine webgpu`) and countParallel({ engine: 'webgpu' }) use it, and count the part again
// on CPU threads when the device is lost (NQ_DEVICE_LOST): a lost device never gives a count.
import { checkPart, checkPlainCount, type CountPart, type PartCount } from "./parts.js";
import { ErrorCode } from "../core/errors.js";
import { webgpuEngine } from "../engine/webgpu/index.js";
import type { GpuCountTuning } from "../engine/webgpu/tuning.js";

/**
 * countTask(part) on the GPU: the part is checked (NQ_INVALID_ARGUMENT, NQ_PART_MISMATCH),
 * then counted, and the result checked (checkPlainCount). Rejects with NQ_ENGINE_UNAVAILABLE,
 * NQ_DEVICE_LOST, NQ_KERNEL_ABORT, NQ_PART_MISMATCH, or the signal's reason; never with a
 * count from a lost device.
 */
export async function countPartWebGpu(part: CountPart, options: { signal?: AbortSignal; tuning?: GpuCountTuning } = {}): Promise<PartCount> {
  const checked = checkPart(part);
  const s = await webgpuEngine.countConstellations(checked.n, checked.prefixes, { signal: options.signal }, options.tuning, 1 / checked.parts);
  const { splitVersion, n, part: index, parts, digest } = checked;
  // Checked as any worker's result is (the part's identity, its capacity bounds, nodes at
  // least its prefix nodes and solutions): a count the GPU got wrong past the kernel's own
  // checks is refused here (NQ_PART_MISMATCH), never handed on.
  return checkPlainCount(checked, {
    splitVersion, n, part: index, parts, digest,
    count8: String(s.count8), count4: String(s.count4), count2: String(s.count2), nodes: String(BigInt(checked.prefixNodes) + s.nodes),
  });
}

/**
 * The GPU as one worker of countParallel's pool ({ engine: 'webgpu' }), speaking the counting
 * worker's protocol (src/workers/worker.ts): counts the parts posted to it one after another;
 * { cancel: id } stops that part (answered with an AbortError). A lost device is reported as
 * the worker's death (its part goes back to the queue and a CPU thread takes its place); any
 * other failure as the part's error.
 */
export function startGpuPoolWorker(events: {
  message(m: { id: number; result?: PartCount; error?: string }): void;
  died(reason: string): void;
}): { post(m: { id: number; part: CountPart } | { cancel: number }): void; terminate(): void; kill(): void } {
  const stop = new AbortController();
  const jobs = new Map<number, AbortController>();
  let ended = false;
  let turn: Promise<unknown> = Promise.resolve();
  const end = (reason?: string): void => {
    if (ended) return;
    ended = true;
    stop.abort();
    if (reason !== undefined) events.died(reason);
  };
  return {
    post: (m) => {
      if ("cancel" in m) {
        jobs.get(m.cancel)?.abort();
        return;
      }
      const { id, part } = m;
      const job = new AbortController();
      jobs.set(id, job);
      const signal = AbortSignal.any([stop.signal, job.signal]);
      const next = turn.then(() => {
        signal.throwIfAborted();
        return countPartWebGpu(part, { signal });
      });
      turn = next.catch(() => {});
      next.then(
        (result) => { jobs.delete(id); if (!ended) events.message({ id, result }); },
        (error: Error & { code?: string }) => {
          jobs.delete(id);
          if (ended) return;
          if (error?.code === ErrorCode.deviceLost) end(`the GPU: ${error.message}`);
          else events.message({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
        },
      );
    },
    terminate: () => end(),
    kill: () => end("killed"),
  };
}
