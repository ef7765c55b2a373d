// Picking an engine: 'wasm' by default, 'ts' on request, and 'ts' by itself
// where WebAssembly is missing.
import type { Engine, EngineName } from "./contract.js";
import { tsEngine } from "./ts/index.js";
import { compileWasm, wasmEngine } from "./wasm/index.js";
import { engineUnavailable, invalid } from "../core/errors.js";
import { checkChoice, describe } from "../core/validate.js";
import { deprecated } from "../core/deprecate.js";

export const ENGINE_NAMES = ["wasm", "ts"] as const satisfies readonly EngineName[];

export function hasWebAssembly(): boolean {
  return typeof WebAssembly === "object" && typeof WebAssembly.Module === "function";
}

/** The engine for an `engine` option (already a valid name or undefined). */
export function pickEngine(name: unknown): Engine {
  if (name === undefined) return hasWebAssembly() ? wasmEngine : tsEngine;
  const chosen = checkChoice("engine", name, ENGINE_NAMES);
  if (chosen === "ts") return tsEngine;
  if (!hasWebAssembly()) throw engineUnavailable("engine 'wasm' was asked for, but WebAssembly is not available here; use engine 'ts'");
  return wasmEngine;
}

/**
 * Optional warm-up: compiles the Wasm module ahead of the first call (asynchronously,
 * as browsers prefer for large modules). Everything works without it.
 */
export async function init(): Promise<void> {
  if (hasWebAssembly()) await compileWasm();
}

/**
 * The engine of a count on threads (countParallel, startWorker): 'wasm' or 'ts' for the CPU
 * threads, or 'webgpu', which puts this machine's GPU among them (the others count on
 * 'wasm'). `gpu: true` is the old spelling of the GPU: it still works, said deprecated once.
 */
export function threadsEngine(fn: string, engine: unknown, gpu: unknown): { engine: EngineName | undefined; gpu: boolean } {
  if (gpu !== undefined && typeof gpu !== "boolean") throw invalid("gpu", ` must be true or false, got ${describe(gpu)}`, TypeError);
  if (engine === "webgpu") {
    if (gpu === false) throw invalid("gpu", ` false contradicts engine 'webgpu' in ${fn} (the GPU among the threads): leave gpu out`);
    return { engine: "wasm", gpu: true };
  }
  if (gpu === true) deprecated(`${fn}.gpu`, `${fn}'s option gpu: true is deprecated; use engine: 'webgpu' (the GPU among the threads)`);
  return { engine: engine as EngineName | undefined, gpu: gpu === true };
}
