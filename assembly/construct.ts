// The explicit O(n) construction (Hoffman, Loessi & Moore, Math. Mag. 42(2), 1969;
// Bernhardsson, SIGART Bull. 2(2), 1991) in its even/odd-list form: row by row,
// the 1-based columns are
//   n mod 6 not 2 or 3: 2, 4, 6, ..., then 1, 3, 5, ...
//   n mod 6 = 2:        2, 4, ..., n, then 3, 1, 7, 9, ..., n-1, 5
//   n mod 6 = 3:        4, 6, ..., n-1, 2, then 5, 7, ..., n, 1, 3
// (n = 1 falls in the first case; n = 2, 3 never reach a kernel). Each list is a few
// runs of columns that step by 2, so the rows are written run by run in plain loops.
// Work unit = rows written. No randomness, nodes 0, tries 1, steps 0.
//
// The rows go through a small window, not an n-row array: each call writes the next
// rows (at most WINDOW_ROWS) into it and the TS side copies them into the result
// (src/engine/wasm/index.ts). So Wasm memory stays at a few hundred KB for any n, and
// the 4n bytes of the answer are touched once, in the caller's array, instead of
// once in Wasm memory and again in a copy.
// Twin: src/engine/ts/construct.ts (same runs, written straight into the result).

import { allocate } from "./memory";
import {
  RUNNING, FOUND,
  STAT_WORK, STAT_TRIES, STAT_CONFLICTS, STAT_PHASE, PHASE_CONSTRUCT,
} from "./status";

/** Rows per call at most: 256 KB of columns, which stay in cache until copied out. */
export const WINDOW_ROWS: i32 = 1 << 16;

let size: i32 = 0;
let half: i32 = 0; // how many even columns 2, 4, ... <= n there are
let written: i32 = 0; // rows 0..written-1 are done
let window: usize = 0; // i32[WINDOW_ROWS]: the rows of the last call, its first row at window[0]

// The rows of the current call: [from, to), row k stored at window[k - from].
let from: i32 = 0;
let to: i32 = 0;

/** Set up an n x n board; returns the window the rows are written to, 0 if out of memory. */
export function constructInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  size = n;
  half = n >> 1;
  written = 0;
  window = allocate(<usize>WINDOW_ROWS << 2);
  return window;
}

/**
 * Rows first..last-1 (those of them in this call) get the 0-based columns
 * column, column + 2, column + 4, ...
 */
@inline function steps(first: i32, last: i32, column: i32): void {
  const start = max(first, from), end = min(last, to);
  let at = window + (<usize>(start - from) << 2); // where row `start` goes
  let c = column + 2 * (start - first);
  let k = start;
  // Four rows a turn: twice as fast as one (V8 checks for interrupts every turn).
  for (; k + 4 <= end; k += 4, at += 16, c += 8) {
    store<i32>(at, c);
    store<i32>(at, c + 2, 4);
    store<i32>(at, c + 4, 8);
    store<i32>(at, c + 6, 12);
  }
  for (; k < end; k++, at += 4, c += 2) store<i32>(at, c);
}

/** Write the next rows, at most WINDOW_ROWS, into the window; until `workLimit` rows in all. */
export function constructRun(workLimit: f64): i32 {
  from = written;
  to = <i32>Math.min(Math.max(workLimit, <f64>from), Math.min(<f64>size, <f64>from + WINDOW_ROWS));
  const n = size;
  // 1-based lists in the comments, 0-based columns in the code.
  if (n % 6 == 2) {
    steps(0, half, 1);            // 2, 4, ..., n
    steps(half, half + 1, 2);     // 3
    steps(half + 1, half + 2, 0); // 1
    steps(half + 2, n - 1, 6);    // 7, 9, ..., n-1
    steps(n - 1, n, 4);           // 5
  } else if (n % 6 == 3) {
    steps(0, half - 1, 3);        // 4, 6, ..., n-1
    steps(half - 1, half, 1);     // 2
    steps(half, n - 2, 4);        // 5, 7, ..., n
    steps(n - 2, n - 1, 0);       // 1
    steps(n - 1, n, 2);           // 3
  } else {
    steps(0, half, 1);            // 2, 4, 6, ...
    steps(half, n, 0);            // 1, 3, 5, ...
  }
  written = to;
  return written == size ? FOUND : RUNNING;
}

/** The figures: work = rows written; one try, no nodes or steps. */
export function constructStat(slot: i32): f64 {
  if (slot == STAT_WORK) return written;
  if (slot == STAT_TRIES) return 1;
  if (slot == STAT_CONFLICTS) return -1;
  if (slot == STAT_PHASE) return PHASE_CONSTRUCT;
  return 0;
}
