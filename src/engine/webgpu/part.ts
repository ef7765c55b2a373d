// A count part (src/count/parts.ts) counted on the GPU: what countTask(part) gives on a CPU
// engine, the same plain-JSON PartCount, from countTasksWebGpu over the part's prefixes.
// The queue worker (`nqueens worker --gpu`) uses it, and counts the part again on its CPU
// threads when the device is lost (NQ_DEVICE_LOST): a lost device never gives a count.
import { checkPart, type CountPart, type PartCount } from "../../count/parts.js";
import { countTasksWebGpu } from "./count.js";

/** countTask(part) on the GPU. Rejects with NQ_ENGINE_UNAVAILABLE, NQ_DEVICE_LOST, or the signal's reason. */
export async function countPartWebGpu(part: CountPart, options: { signal?: AbortSignal } = {}): Promise<PartCount> {
  const checked = checkPart(part);
  const s = await countTasksWebGpu(checked.n, checked.prefixes, { signal: options.signal });
  const { splitVersion, n, part: index, parts } = checked;
  return {
    splitVersion, n, part: index, parts,
    count8: String(s.count8), count4: String(s.count4), count2: String(s.count2), nodes: String(BigInt(checked.prefixNodes) + s.nodes),
  };
}
