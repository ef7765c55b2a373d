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
/** Bytes each counter array of the plain board takes beyond 2n: the top word of bits expands past counter 2n - 1. */
export const SPARE_BYTES: i32 = 32;
