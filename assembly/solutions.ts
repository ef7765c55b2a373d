// Every solution in lexicographic order (columns of row 0, then row 1, ...), by
// bitboard backtracking with an explicit stack so the enumeration can stop after
// any solution and resume on the next call. Twin: src/engine/ts/solutions.ts.
// State per row y: the candidate columns not yet tried (avail), and the masks of
// attacked columns/diagonals seen by row y (down, left, right).

import { allocate } from "./memory";

let size: i32 = 0;
let full: u32 = 0;
let depth: i32 = 0; // the row being filled; -1 when the enumeration is over
let avail: usize = 0; // u32[32]
let downs: usize = 0; // u32[33]
let lefts: usize = 0; // u32[33]
let rights: usize = 0; // u32[33]
let cols: usize = 0; // i32[32]: the column of each placed row
let nodes: u64 = 0;

/** Start the enumeration for 1 <= n <= 32. */
export function solutionsInit(n: i32): void {
  avail = allocate(128);
  downs = allocate(136);
  lefts = allocate(136);
  rights = allocate(136);
  cols = allocate(128);
  size = n;
  full = n == 32 ? 0xFFFFFFFF : ((<u32>1 << n) - 1);
  depth = 0;
  nodes = 0;
  store<u32>(downs, 0);
  store<u32>(lefts, 0);
  store<u32>(rights, 0);
  store<u32>(avail, full);
}

/**
 * Write up to `max` further solutions (n i32 each) at `out`; returns how many.
 * Fewer than `max` means the enumeration is over.
 */
export function solutionsNext(out: usize, max: i32): i32 {
  let found = 0;
  while (depth >= 0 && found < max) {
    const y = depth;
    const a = load<u32>(avail + (<usize>y << 2));
    if (a == 0) { depth--; continue; }
    const bit = a & (0 - a);
    store<u32>(avail + (<usize>y << 2), a ^ bit);
    store<i32>(cols + (<usize>y << 2), ctz<u32>(bit));
    nodes++;
    if (y == size - 1) {
      memory.copy(out + (<usize>(found * size) << 2), cols, <usize>size << 2);
      found++;
      continue;
    }
    const d = load<u32>(downs + (<usize>y << 2)) | bit;
    const l = (load<u32>(lefts + (<usize>y << 2)) | bit) << 1;
    const r = (load<u32>(rights + (<usize>y << 2)) | bit) >> 1;
    const y1 = <usize>(y + 1) << 2;
    store<u32>(downs + y1, d);
    store<u32>(lefts + y1, l);
    store<u32>(rights + y1, r);
    store<u32>(avail + y1, full & ~(d | l | r));
    depth = y + 1;
  }
  return found;
}

/** Queens placed so far by the enumeration. */
export function solutionsNodes(): u64 {
  return nodes;
}
