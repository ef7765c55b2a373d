// Count parts (src/count/parts.ts) and the GPU: the split's parts are start constellations
// (split version 3), which the GPU kernel does not count (it counts whole boards, on its own
// prefix tasks: count.ts). countParallel({ gpu: true }), startWorker({ gpu: true }) and
// countPartWebGpu refuse with this at once; a GPU constellation kernel would bring parts back.
import { checkPart, type CountPart, type PartCount } from "../../count/parts.js";
import { engineUnavailable } from "../../core/errors.js";

/** Why parts are not counted on the GPU: NQ_ENGINE_UNAVAILABLE, naming `what` and what to use instead. */
export function gpuPartsRefused(what: string): Error {
  return engineUnavailable(
    `${what}: the GPU counts whole boards only (count(n, { engine: 'webgpu' }), or the CLI's count --engine webgpu); `
    + "the parts of a split are start constellations, which the GPU kernel does not count: count parts on CPU threads",
  );
}

/** countTask(part) on the GPU: a part is checked (NQ_INVALID_ARGUMENT, NQ_PART_MISMATCH), then refused (NQ_ENGINE_UNAVAILABLE). */
export async function countPartWebGpu(part: CountPart): Promise<PartCount> {
  const checked = checkPart(part);
  throw gpuPartsRefused(`part ${checked.part} of ${checked.parts} (n = ${checked.n})`);
}
