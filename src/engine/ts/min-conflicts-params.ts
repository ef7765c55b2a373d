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
/** Bytes each counter array of the plain board takes beyond its counters: the top word of bits expands past counter 2n - 1. */
export const SPARE_BYTES = 32;
/** The plain board's diagonal counters are 2 bits wide from this n on (min-conflicts-counters.ts), u8 below. */
export const NARROW_FROM = 1 << 22;
/** The overflow list of the 2-bit counters (diagonals holding more than 2 queens), its length. */
export const OVERFLOW_CAPACITY = 4096;
/** From this n on, each block of WINDOW_ROWS rows draws its groups within one window of about WINDOW_GROUPS groups (min-conflicts.ts). */
export const WINDOWED_FROM = 1 << 22;
/** Groups of 32 columns a window holds, about: the groups are dealt evenly to round(groups / WINDOW_GROUPS) windows. */
export const WINDOW_GROUPS = 128;
/** Rows a block places in its window. */
export const WINDOW_ROWS = 32;
/** A window's groups sampled by its draw (every WINDOW_SAMPLE-th). */
export const WINDOW_SAMPLE = 16;
/** Pairs of draws a row makes in its window before it draws anywhere (GREEDY_TRIES pairs more). */
export const WINDOW_TRIES = 32;

/** Bytes of Wasm memory the kernel's module takes for its own data, below its heap. */
const STATIC_BYTES = 65536;
/** The most bytes the Wasm kernels can allocate (assembly/memory.ts stops at 0xFFFF0000). */
export const WASM_HEAP_BYTES = 0xffff0000 - STATIC_BYTES;

const round16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/** Bytes of each set of diagonal counters (sums, diffs), which hold the bits of construction too: 2n + SPARE_BYTES for u8 ones, 8 per word of bits and 16 more for 2-bit ones. */
export function counterSetBytes(n: number, narrow: boolean): number {
  const bitWords = Math.floor((2 * n - 2) / 32) + 1;
  return narrow ? 8 * bitWords + 16 : 2 * n + SPARE_BYTES;
}

/**
 * Bytes min-conflicts allocates for n queens, in one piece: 4n (columns) + two sets of
 * diagonal counters (counterSetBytes) + 64 KiB (candidate list), and with 2-bit counters
 * (from NARROW_FROM) 32 KiB (overflow list); the first three rounded up to 16: 8 bytes
 * per queen below 2^22, 5 from there.
 */
export function minConflictsBytes(n: number): number {
  const narrow = n >= NARROW_FROM;
  return round16(4 * n) + 2 * round16(counterSetBytes(n, narrow)) + 4 * CANDIDATE_CAPACITY + (narrow ? 8 * OVERFLOW_CAPACITY : 0);
}

/** The largest n whose min-conflicts state fits in the 4 GiB of Wasm memory: the one limit that the registry, solve's error and docs/solving.md follow. */
export const MIN_CONFLICTS_MAX_N: number = (() => {
  let n = Math.floor((WASM_HEAP_BYTES - 4 * CANDIDATE_CAPACITY - 8 * OVERFLOW_CAPACITY) / 5);
  while (minConflictsBytes(n) > WASM_HEAP_BYTES) n--;
  return n;
})();
