// The Wasm engine: the AssemblyScript kernels of assembly/, behind the Engine contract
// (src/engine/contract.ts). Its rooms: loader.ts (the embedded module, compiled once, its
// instances through @assemblyscript/loader, their pool, their memory), layout.ts (the
// module's exports and layout globals), and one file per family of kernels: count.ts
// (prefix and constellation counters, solutions), search.ts (the search methods, construct
// and complete included), constraints.ts (a job's givens), estimate.ts (probes, tree size,
// Las Vegas statistics), checks.ts (verify, the random sequence). This file is the facade
// the rest of the package imports.
import { codingOutOfMemory, type Engine } from "../contract.js";
import { verifyRepeats, randomSequence } from "./checks.js";
import { openConstellationCounter, openCounter, openSolutions } from "./count.js";
import { openLasVegasExact, openLasVegasTrials, openProbes, openTreeCounter } from "./estimate.js";
import { openSearch } from "./search.js";

export { LAYOUT_GLOBALS, type KernelExports, type LayoutGlobal } from "./layout.js";
export { adoptWasmModule, compileWasm, compileWasmModule, kernelAbort, newInstance, outOfMemory } from "./loader.js";
export { loadConstraints } from "./constraints.js";

/** The Wasm engine; an allocation that fails in it is NQ_OUT_OF_MEMORY (codingOutOfMemory). */
export const wasmEngine: Engine = codingOutOfMemory({
  name: "wasm",
  openCounter,
  openConstellationCounter,
  openSolutions,
  openSearch,
  verifyRepeats,
  randomSequence,
  openProbes,
  openTreeCounter,
  openLasVegasTrials,
  openLasVegasExact,
});
