// Counting all solutions with the full symmetry group of the board, after
// takaken's counter (http://www.ic-net.or.jp/home/takaken/nt/queen/): the
// row-0 queen is either in a corner (every solution found is one of 8 distinct
// images, COUNT8) or not (rows near the edges are pruned so each class of
// solutions is met once, then a rotation check tells classes of 2, 4 or 8).
// total = 8*COUNT8 + 4*COUNT4 + 2*COUNT2, unique = COUNT8 + COUNT4 + COUNT2.
// The search runs over tasks (fixed prefixes of rows 0..depth-1) made by
// src/count-split.ts; this file counts one task at a time.
// Twin: src/engine-ts/count.ts. Bit i of a mask is column i.

import { allocate } from "./memory";

let size: i32 = 0;
let lastRow: i32 = 0;
let mask: u32 = 0;
let topBit: u32 = 0;
let sideMask: u32 = 0;
let lastMask: u32 = 0;
let endBit: u32 = 0;
let bound1: i32 = 0;
let bound2: i32 = 0;
let board: usize = 0; // u32[32]: the queen of each row, as a one-bit mask

let count8: u64 = 0;
let count4: u64 = 0;
let count2: u64 = 0;
let nodes: u64 = 0;

@inline function row(y: i32): u32 {
  return load<u32>(board + (<usize>y << 2));
}
@inline function setRow(y: i32, bit: u32): void {
  store<u32>(board + (<usize>y << 2), bit);
}

/** Prepare to count tasks of an n x n board (5 <= n <= 32); returns the prefix buffer (u32[32]). */
export function countInit(n: i32): usize {
  board = allocate(256);
  size = n;
  lastRow = n - 1;
  mask = n == 32 ? 0xFFFFFFFF : ((<u32>1 << n) - 1);
  topBit = <u32>1 << lastRow;
  sideMask = topBit | 1;
  return board + 128;
}

/** Which of 2, 4 or 8 images the solution on the board has; counts it if it is the canonical one. */
function checkSymmetry(): void {
  let own: i32, you: i32, bit: u32, ptn: u32;
  // 90-degree rotation
  if (row(bound2) == 1) {
    for (own = 1, ptn = 2; own <= lastRow; own++, ptn <<= 1) {
      bit = 1;
      for (you = lastRow; row(you) != ptn && row(own) >= bit; you--) bit <<= 1;
      if (row(own) > bit) return;
      if (row(own) < bit) break;
    }
    if (own > lastRow) { count2++; return; }
  }
  // 180-degree rotation
  if (row(lastRow) == endBit) {
    for (own = 1, you = lastRow - 1; own <= lastRow; own++, you--) {
      bit = 1;
      for (ptn = topBit; ptn != row(you) && row(own) >= bit; ptn >>= 1) bit <<= 1;
      if (row(own) > bit) return;
      if (row(own) < bit) break;
    }
    if (own > lastRow) { count4++; return; }
  }
  // 270-degree rotation
  if (row(bound1) == topBit) {
    for (own = 1, ptn = topBit >> 1; own <= lastRow; own++, ptn >>= 1) {
      bit = 1;
      for (you = 0; row(you) != ptn && row(own) >= bit; you++) bit <<= 1;
      if (row(own) > bit) return;
      if (row(own) < bit) break;
    }
  }
  count8++;
}

/** Row-0 queen in the corner: every solution found has 8 distinct images. */
function searchCorner(y: i32, left: u32, down: u32, right: u32): void {
  let bitmap = mask & ~(left | down | right);
  if (y == lastRow) {
    if (bitmap) { setRow(y, bitmap); nodes++; count8++; }
    return;
  }
  if (y < bound1) bitmap &= ~(<u32>2);
  while (bitmap) {
    const bit = bitmap & (0 - bitmap);
    bitmap ^= bit;
    setRow(y, bit);
    nodes++;
    searchCorner(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
  }
}

/** Row-0 queen off the corner: edge rows pruned, then the symmetry check at the leaf. */
function searchSide(y: i32, left: u32, down: u32, right: u32): void {
  let bitmap = mask & ~(left | down | right);
  if (y == lastRow) {
    if (bitmap && !(bitmap & lastMask)) { setRow(y, bitmap); nodes++; checkSymmetry(); }
    return;
  }
  if (y < bound1) {
    bitmap &= ~sideMask;
  } else if (y == bound2) {
    if (!(down & sideMask)) return;
    if ((down & sideMask) != sideMask) bitmap &= sideMask;
  }
  while (bitmap) {
    const bit = bitmap & (0 - bitmap);
    bitmap ^= bit;
    setRow(y, bit);
    nodes++;
    searchSide(y + 1, (left | bit) << 1, down | bit, (right | bit) >> 1);
  }
}

/**
 * Count the completions of one task: `kind` 1 = corner, 2 = side; `b1` its bound1;
 * the first `depth` rows (one-bit masks) are in the prefix buffer. Adds to the
 * counters read by countResult; returns nothing.
 */
export function countTask(kind: i32, b1: i32, depth: i32): void {
  count8 = 0; count4 = 0; count2 = 0; nodes = 0;
  const prefix = board + 128;
  let left: u32 = 0, down: u32 = 0, right: u32 = 0;
  for (let y = 0; y < depth; y++) {
    const bit = load<u32>(prefix + (<usize>y << 2));
    setRow(y, bit);
    left = (left | bit) << 1;
    down |= bit;
    right = (right | bit) >> 1;
  }
  bound1 = b1;
  if (kind == 1) {
    searchCorner(depth, left, down, right);
  } else {
    bound2 = size - 1 - b1;
    const low: u32 = (<u32>1 << b1) - 1;
    lastMask = low | (low << (size - b1));
    endBit = topBit >> b1;
    searchSide(depth, left, down, right);
  }
}

/** The counters of the last task: 0 = COUNT8, 1 = COUNT4, 2 = COUNT2, 3 = nodes. */
export function countResult(which: i32): u64 {
  return which == 0 ? count8 : which == 1 ? count4 : which == 2 ? count2 : nodes;
}
