// The figures of min-conflicts that more than one file needs: the plain board's search
// (min-conflicts.ts) and the constrained board's (min-conflicts-constrained.ts) share the
// first two, and the memory layout's two are what the host sizes its check of n by. Apart so
// that min-conflicts.ts, which hands constrained jobs on, and min-conflicts-constrained.ts
// import them from below instead of from each other. Twin: src/engine/ts/min-conflicts-params.ts.

/** Tries per greedy row. */
export const GREEDY_TRIES: i32 = 64;
/** Trial swaps per attacked queen in repair, at most. */
export const REPAIR_TRIALS: i32 = 4096;
/** The plain board's list of candidate rows, its length. */
export const CANDIDATE_CAPACITY: i32 = 16384;
/** Bytes each counter array of the plain board takes beyond its counters: the top word of bits expands past counter 2n - 1. */
export const SPARE_BYTES: i32 = 32;
/** The plain board's diagonal counters are 2 bits wide from this n on (assembly/min-conflicts-counters.ts), u8 below. */
export const NARROW_FROM: i32 = 1 << 22;
/** The overflow list of the 2-bit counters (diagonals holding more than 2 queens), its length. */
export const OVERFLOW_CAPACITY: i32 = 4096;
/** From this n on, each block of WINDOW_ROWS rows draws its groups within one window of about WINDOW_GROUPS groups (min-conflicts.ts). */
export const WINDOWED_FROM: i32 = 1 << 22;
/** Groups of 32 columns a window holds, about: the groups are dealt evenly to round(groups / WINDOW_GROUPS) windows. */
export const WINDOW_GROUPS: i32 = 128;
/** Rows a block places in its window. */
export const WINDOW_ROWS: i32 = 32;
/** A window's groups sampled by its draw (every WINDOW_SAMPLE-th). */
export const WINDOW_SAMPLE: i32 = 16;
/** Pairs of draws a row makes in its window before it draws anywhere (GREEDY_TRIES pairs more). */
export const WINDOW_TRIES: i32 = 32;
