// The explicit O(n) construction (Hoffman, Loessi & Moore, Math. Mag. 42(2), 1969;
// Bernhardsson, SIGART Bull. 2(2), 1991) in its even/odd-list form: row by row,
// the 1-based columns are
//   n mod 6 not 2 or 3: 2, 4, 6, ..., then 1, 3, 5, ...
//   n mod 6 = 2:        2, 4, ..., n, then 3, 1, 7, 9, ..., n-1, 5
//   n mod 6 = 3:        4, 6, ..., n-1, 2, then 5, 7, ..., n, 1, 3
// (n = 1 falls in the first case; n = 2, 3 never reach a kernel). Each row's
// column is a closed form of its index, so the rows are written in chunks: work
// unit = rows written. No randomness, nodes 0, tries 1, steps 0.
// Twin: src/engine-ts/construct.ts.

import { allocate } from "./memory";
import {
  RUNNING, FOUND,
  STAT_WORK, STAT_TRIES, STAT_CONFLICTS, STAT_PHASE, PHASE_CONSTRUCT,
} from "./status";

let size: i32 = 0;
let rest: i32 = 0; // n mod 6
let half: i32 = 0; // how many even columns 2, 4, ... <= n there are
let written: i32 = 0; // rows 0..written-1 are done
let cols: usize = 0; // i32[n]: the 0-based column of each row

/** Allocate the columns of an n x n board; returns them, 0 if out of memory. */
export function constructInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  size = n;
  rest = n % 6;
  half = n >> 1;
  written = 0;
  cols = allocate(<usize>n << 2);
  return cols;
}

/** The 1-based column at position k of the even/odd list. */
@inline function listValue(k: i32): i32 {
  if (rest == 2) {
    if (k < half) return 2 * k + 2; // 2, 4, ..., n
    const odd = k - half; // 3, 1, 7, 9, ..., n-1, 5
    if (odd == 0) return 3;
    if (odd == 1) return 1;
    if (odd == half - 1) return 5;
    return 2 * odd + 3;
  }
  if (rest == 3) {
    if (k < half) return k == half - 1 ? 2 : 2 * k + 4; // 4, 6, ..., n-1, 2
    const odd = k - half; // 5, 7, ..., n, 1, 3
    if (odd == half - 1) return 1;
    if (odd == half) return 3;
    return 2 * odd + 5;
  }
  if (k < half) return 2 * k + 2; // 2, 4, 6, ...
  return 2 * (k - half) + 1; // 1, 3, 5, ...
}

/** Write rows until all n are done (FOUND) or `workLimit` rows in all (RUNNING). */
export function constructRun(workLimit: f64): i32 {
  const end = <i32>Math.min(Math.max(workLimit, <f64>written), <f64>size);
  for (let k = written; k < end; k++) store<i32>(cols + (<usize>k << 2), listValue(k) - 1);
  written = end;
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
