// How many parts a queue run gets by default, and how long it should take (internal, and
// `planRun` for the CLI's plan line). Up to n = 17 parts are few (defaultQueueParts: a part
// costs the queue about 2 ms however short it is); from n = 18 a run is split into parts of
// about a minute on one thread, at least four per worker thread seen and at least 256, as
// many as the split can make.
import { defaultQueueParts } from "./keys.js";
import { checkInteger } from "../core/validate.js";

/** Solutions of the n x n board (OEIS A000170), n = 17 .. 27: the time of a count grows with them. */
const SOLUTIONS: Record<number, number> = {
  17: 95815104, 18: 666090624, 19: 4968057848, 20: 39029188884, 21: 314666222712, 22: 2691008701644,
  23: 24233937684440, 24: 227514171973736, 25: 2207893435808352, 26: 22317699616364044, 27: 234907967154122528,
};

/** One Wasm thread counts n = 17 in about 14.6 s (bench/README.md, `npm run bench -- --only parallel`). */
const SECONDS_AT_17 = 14.6;

/** The target length of one part on one thread, from n = 18. */
export const PART_SECONDS = 60;

/** The Redis key a worker refreshes while it runs, holding its thread count (expires when it stops). */
export const workerKey = (name: string): string => `nqueens:worker:${name}`;

/**
 * About how many seconds one Wasm thread takes to count n (an estimate: n = 17's measured
 * time, scaled by the solutions for larger n, by the ratio of 17's to 16's below it; beyond
 * n = 27, by 10.5 a row, A000170's growth there).
 */
export function threadSeconds(n: number): number {
  checkInteger("n", n, 1, 1000);
  if (n <= 17) return SECONDS_AT_17 / 6.5 ** (17 - n);
  if (n <= 27) return (SECONDS_AT_17 * SOLUTIONS[n]) / SOLUTIONS[17];
  return (SECONDS_AT_17 * SOLUTIONS[27] * 10.5 ** (n - 27)) / SOLUTIONS[17];
}

/** The parts a queue run of n asks its split for by default, `threads` worker threads seen. */
export function askedParts(n: number, threads: number): number {
  if (n <= 17) return defaultQueueParts(n);
  return Math.min(1_000_000, Math.max(256, 4 * threads, Math.ceil(threadSeconds(n) / PART_SECONDS)));
}

/** A run's plan, as the coordinator made it: parts, the worker threads seen, and how long it should take on them. */
export type RunPlan = {
  n: number;
  parts: number;
  /** Worker threads registered in Redis when the run started (0: none yet). */
  threads: number;
  /** About one part on one thread, in seconds. */
  partSeconds: number;
  /** About the whole run on the threads seen (on one thread when none is seen), in seconds. */
  runSeconds: number;
  /** Where the number of parts came from. */
  from: "given" | "default" | "resumed";
};

export function planRun(n: number, parts: number, threads: number, from: RunPlan["from"]): RunPlan {
  const total = threadSeconds(n);
  return { n, parts, threads, partSeconds: total / parts, runSeconds: total / Math.max(1, threads), from };
}

/** A length in words: 45 s, 12 min, 3.2 h, 5.1 days. */
export function lengthText(seconds: number): string {
  if (seconds < 90) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${(seconds / 3600).toFixed(1)} h`;
  if (seconds < 730 * 86400) return `${(seconds / 86400).toFixed(1)} days`;
  return `${(seconds / (365 * 86400)).toFixed(1)} years`;
}
