// Picking an engine: 'wasm' by default, 'ts' on request, and 'ts' by itself
// where WebAssembly is missing.
import type { Engine, EngineName } from "./contract.js";
import { tsEngine } from "./ts/index.js";
import { compileWasm, wasmEngine } from "./wasm/index.js";
import { engineUnavailable } from "../core/errors.js";
import { checkChoice } from "../core/validate.js";

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
