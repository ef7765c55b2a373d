// A count part (src/count/parts.ts) counted on the GPU: what countTask(part) gives on a CPU
// engine, the same plain-JSON PartCount, from countTasksWebGpu over the part's prefixes.
// The queue worker (`nqueens worker --gpu`) uses it, and counts the part again on its CPU
// threads when the device is lost (NQ_DEVICE_LOST): a lost device never gives a count.
import { checkPart, type CountPart, type PartCount } from "../../count/parts.js";
import { countTasksWebGpu } from "./count.js";
import { ErrorCode, engineUnavailable } from "../../core/errors.js";
import type { CountTask } from "../contract.js";

/**
 * Why parts are not counted on the GPU: the split's parts are start constellations (split
 * version 3), which the GPU kernel does not count (it counts whole boards, on its own prefix
 * tasks). countParallel({ gpu: true }) and startWorker({ gpu: true }) reject with this at once.
 */
export function gpuPartsRefused(what: string): Error {
  return engineUnavailable(
    `${what}: the GPU counts whole boards only (count(n, { engine: 'webgpu' }), or the CLI's count --engine webgpu); `
    + "the parts of a split are start constellations, which the GPU kernel does not count: count parts on CPU threads",
  );
}

/** countTask(part) on the GPU. Rejects with NQ_ENGINE_UNAVAILABLE, NQ_DEVICE_LOST, or the signal's reason. */
export async function countPartWebGpu(part: CountPart, options: { signal?: AbortSignal } = {}): Promise<PartCount> {
  const checked = checkPart(part);
  // The GPU counts its own prefix tasks; the split's parts are start constellations now (split version 3).
  if (checked.prefixes.some((t) => !("kind" in t))) {
    throw engineUnavailable(`the GPU cannot count part ${checked.part} of ${checked.parts} (n = ${checked.n}): its tasks are start constellations, which only the CPU engines count`);
  }
  const s = await countTasksWebGpu(checked.n, checked.prefixes as unknown as CountTask[], { signal: options.signal });
  const { splitVersion, n, part: index, parts, digest } = checked;
  return {
    splitVersion, n, part: index, parts, digest,
    count8: String(s.count8), count4: String(s.count4), count2: String(s.count2), nodes: String(BigInt(checked.prefixNodes) + s.nodes),
  };
}

/**
 * The GPU as one worker of countParallel's pool ({ gpu: true }), speaking the counting
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
