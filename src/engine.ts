/**
 * The contract both engines implement, kernel for kernel. `src/engine-wasm/` runs
 * the AssemblyScript kernels in `assembly/`; `src/engine-ts/` is the plain
 * TypeScript reference. Same inputs, bit-identical outputs: a parity test is a
 * loop over engines. Inputs here are already checked by `src/validate.ts`.
 */

export type EngineName = "wasm" | "ts";

/** Status of a resumable search after a `run` call (same codes as assembly/status.ts). */
export const RUNNING = 0;
export const FOUND = 1;
export const EXHAUSTED = 2;
export type SearchStatus = typeof RUNNING | typeof FOUND | typeof EXHAUSTED;

/**
 * One unit of counting work: the queens of rows 0..depth-1 are fixed (`rows`,
 * 0-based columns), the rest is searched. `kind` 1: the row-0 queen is in the
 * corner; 2: it is not. See src/count-split.ts.
 */
export type CountTask = { kind: 1 | 2; bound1: number; rows: number[] };

/** What counting one task finds: solutions by symmetry class size, and queens placed. */
export type TaskCount = { count8: bigint; count4: bigint; count2: bigint; nodes: bigint };

/** A counter for one board size; `close` frees what it holds. */
export type Counter = { countTask(task: CountTask): TaskCount; close(): void };

/** Lexicographic enumeration of all solutions, a chunk at a time. */
export type SolutionStream = {
  /** Up to `max` further solutions; fewer means the enumeration is over. */
  next(max: number): Int32Array[];
  /** Queens placed so far. */
  nodes(): number;
  close(): void;
};

/** Figures a search reports; the same on both engines for the same inputs. */
export type SearchStats = { nodes: number; tries: number; steps: number };

/** A resumable search for one solution. */
export type Search = {
  /** Work until a solution, exhaustion, or `limit` units of work in all (nodes or steps). */
  run(limit: number): SearchStatus;
  /** The work counter `limit` is compared with. */
  work(): number;
  stats(): SearchStats;
  /** A fresh copy of the current columns (a solution after FOUND). */
  columns(): Int32Array;
  close(): void;
};

export type Engine = {
  readonly name: EngineName;
  /** Counter for n x n boards, 5 <= n <= 32 (smaller n are answered in src/count.ts). */
  openCounter(n: number): Counter;
  /** All solutions of an n x n board, 1 <= n <= 32, in lexicographic order. */
  openSolutions(n: number): SolutionStream;
  /** First-solution backtracking (seed 002), any n >= 1 that fits in memory. */
  openBacktrack(n: number): Search;
  /** How many times a queen lands on a line an earlier row holds (0: a solution). */
  verifyRepeats(columns: Int32Array): number;
  /** `count` draws in [0, bound) from the seeded generator (bound 0: raw u32 outputs). */
  randomSequence(seed: number, bound: number, count: number): Uint32Array;
};
