// First solution by depth-first backtracking (seed 002, Brassard & Bratley's
// node convention): rows from 0, columns tried in increasing order; the empty
// board is one node and every queen placed is one node. Arrays, not bitboards,
// so any n works. Runs in bounded chunks: backtrackRun stops at a node limit and
// resumes where it stopped. Twin: src/engine-ts/backtrack.ts.

import { allocate } from "./memory";
import { RUNNING, FOUND, EXHAUSTED } from "./status";

let size: i32 = 0;
let row: i32 = 0;
let nodes: f64 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row (-1: none yet)
let colUsed: usize = 0; // u8[n]
let sumUsed: usize = 0; // u8[2n]: diagonal row + col
let diffUsed: usize = 0; // u8[2n]: diagonal row - col + n - 1

/** Allocate and reset for an n x n board; returns the columns buffer, 0 if out of memory. */
export function backtrackInit(n: i32): usize {
  size = n;
  cols = allocate(<usize>n << 2);
  colUsed = allocate(<usize>n);
  sumUsed = allocate(<usize>n << 1);
  diffUsed = allocate(<usize>n << 1);
  if (cols == 0 || colUsed == 0 || sumUsed == 0 || diffUsed == 0) return 0;
  store<i32>(cols, -1);
  row = 0;
  nodes = 1; // the empty board
  return cols;
}

@inline function mark(r: i32, c: i32, v: u8): void {
  store<u8>(colUsed + <usize>c, v);
  store<u8>(sumUsed + <usize>(r + c), v);
  store<u8>(diffUsed + <usize>(r - c + size - 1), v);
}

/** Search until a solution, exhaustion, or `nodeLimit` nodes in all; returns the status. */
export function backtrackRun(nodeLimit: f64): i32 {
  while (nodes < nodeLimit) {
    if (row < 0) return EXHAUSTED;
    if (row == size) return FOUND;
    const at = cols + (<usize>row << 2);
    let c = load<i32>(at);
    if (c >= 0) mark(row, c, 0); // lift the queen we come back to
    c++;
    const sum = sumUsed + <usize>row;
    const diff = diffUsed + <usize>(row + size - 1);
    while (c < size && (load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0) c++;
    if (c == size) {
      store<i32>(at, -1);
      row--;
      continue;
    }
    store<i32>(at, c);
    mark(row, c, 1);
    nodes++;
    row++;
    if (row == size) return FOUND;
    store<i32>(cols + (<usize>row << 2), -1);
  }
  return row < 0 ? EXHAUSTED : RUNNING;
}

/** Nodes visited so far. */
export function backtrackNodes(): f64 {
  return nodes;
}
