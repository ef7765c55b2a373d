// The exact size of the backtracking tree, level by level: the empty board and
// every consistent placement of rows 0..k-1 (the nodes exhaustive backtracking
// visits). One call counts the subtree under a fixed placement of rows 0..d-1 (a
// task, made by src/analysis/estimate.ts, which also uses the board's mirror symmetry):
// the task's node itself at depth d and everything below it. A node's children
// are counted with popcnt, so only nodes above depth n - 1 are visited.
// Bitboards (bit c = column c), u64 counts: 1 <= n <= 32, though the count is
// only feasible to about n = 17. Twin: src/engine/ts/tree-size.ts.

import { allocate } from "./memory";

let size: i32 = 0;
let full: u32 = 0;
// u64[33] levels, then i32[32] the task's columns (see treeSizeInit).
/** Where the block keeps the task's columns (exported: src/engine/wasm reads it). */
export const TREE_SIZE_COLUMNS: i32 = 272;

let block: usize = 0;
let levels: usize = 0;
let prefix: usize = 0;

/**
 * Reset for an n x n board; returns a block of u64[33] level counts (bytes 0..263)
 * followed by i32[32] the task's columns (at TREE_SIZE_COLUMNS); 0 if out of memory.
 */
export function treeSizeInit(n: i32): usize {
  size = n;
  full = n == 32 ? 0xFFFFFFFF : ((<u32>1 << n) - 1);
  block = allocate(400);
  levels = block;
  prefix = block + TREE_SIZE_COLUMNS;
  return block;
}

@inline function addAt(depth: i32, count: u64): void {
  const at = levels + (<usize>depth << 3);
  store<u64>(at, load<u64>(at) + count);
}

/** Count the nodes below a node at `row` (0 <= row < n) with these attacked masks. */
function countBelow(row: i32, cols: u32, left: u32, right: u32): void {
  let safe = ~(cols | left | right) & full;
  addAt(row + 1, <u64>popcnt<u32>(safe));
  if (row + 1 == size) return;
  while (safe != 0) {
    const bit = safe & (0 - safe);
    safe ^= bit;
    countBelow(row + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1);
  }
}

/**
 * Zero the level counts, then count the subtree under the consistent placement of
 * rows 0..depth-1 written at the columns buffer: 1 at `depth`, its descendants below.
 */
export function treeSizeTask(depth: i32): void {
  memory.fill(levels, 0, 264);
  let cols: u32 = 0, left: u32 = 0, right: u32 = 0;
  for (let r = 0; r < depth; r++) {
    const bit = <u32>1 << load<i32>(prefix + (<usize>r << 2));
    cols |= bit;
    left = (left | bit) << 1;
    right = (right | bit) >> 1;
  }
  addAt(depth, 1);
  if (depth < size) countBelow(depth, cols, left, right);
}
