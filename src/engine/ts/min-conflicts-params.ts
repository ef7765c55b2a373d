// Twin of assembly/min-conflicts-params.ts: the figures of min-conflicts that more than one
// file needs, apart so that min-conflicts.ts and min-conflicts-constrained.ts import them from
// below instead of from each other; and, from the memory layout's two, the largest n the Wasm
// kernel's memory holds, which the registry (src/engine/registry.ts) and solve check n by.
// Nothing here imports anything: the registry sits above it, the kernels' twins beside it.

/** Tries per greedy row. */
export const GREEDY_TRIES = 64;
/** Trial swaps per attacked queen in repair, at most. */
export const REPAIR_TRIALS = 4096;
/** The plain board's list of candidate rows, its length. */
export const CANDIDATE_CAPACITY = 16384;
/** Bytes each counter array of the plain board takes beyond 2n: the top word of bits expands past counter 2n - 1. */
export const SPARE_BYTES = 32;

/** Bytes of Wasm memory the kernel's module takes for its own data, below its heap. */
const STATIC_BYTES = 65536;
/** The most bytes the Wasm kernels can allocate (assembly/memory.ts stops at 0xFFFF0000). */
export const WASM_HEAP_BYTES = 0xffff0000 - STATIC_BYTES;

const round16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/**
 * Bytes min-conflicts allocates for n queens: 4n (columns) + 2 (2n + SPARE_BYTES) (u8
 * diagonal counters, which hold the bits of construction too) + 64 KiB (candidate list),
 * each rounded up to 16: 8 bytes per queen, and 64 KiB more.
 */
export function minConflictsBytes(n: number): number {
  return round16(4 * n) + 2 * round16(2 * n + SPARE_BYTES) + round16(4 * CANDIDATE_CAPACITY);
}

/** The largest n whose min-conflicts state fits in the 4 GiB of Wasm memory. */
export const MIN_CONFLICTS_MAX_N: number = (() => {
  let n = Math.floor((WASM_HEAP_BYTES - 4 * CANDIDATE_CAPACITY - 2 * SPARE_BYTES) / 8);
  while (minConflictsBytes(n) > WASM_HEAP_BYTES) n--;
  return n;
})();
