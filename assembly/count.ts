// Counting all solutions with the full symmetry group of the board, after
// takaken's counter (http://www.ic-net.or.jp/home/takaken/nt/queen/): the
// row-0 queen is either in a corner (every solution found is one of 8 distinct
// images, COUNT8) or not (rows near the edges are pruned so each class of
// solutions is met once, then a rotation check tells classes of 2, 4 or 8).
// total = 8*COUNT8 + 4*COUNT4 + 2*COUNT2, unique = COUNT8 + COUNT4 + COUNT2.
// The search runs over tasks (fixed prefixes of rows 0..depth-1) made by
// src/count/tasks.ts; this file counts one task at a time, resumably: countStart
// sets a task up, countRun(budget) searches until the task is done or about `budget`
// more nodes are placed (checked when a row is popped), so a caller can bound a chunk.
// Twin: src/engine/ts/count.ts. Bit i of a mask is column i.
//
// Speed (the search tree and its node count are takaken's, unchanged):
// - one loop with an explicit stack (no recursion); a row is pushed only while
//   it still has untried queens, and a child with no candidates is never entered;
// - `down` also marks the 32 - n columns off the board, so popcnt(down) tells the
//   row (no row counter to keep) and ~(left | down | right) needs no mask;
// - what a row needs beyond the plain step (edge pruning, the bound2 rule, the
//   leaf test) is read from a small per-task table indexed by popcnt(down), so
//   the hot path has one well-predicted branch for it;
// - V8 has about 12 registers for the loop and spills the rest on every step, so
//   run() reads no globals (its inputs and counters sit in memory at fixed
//   addresses), the rotation check runs outside it (run() returns, then resumes),
//   and the next row's masks are recomputed rather than kept alive across branches.
//   Measure with bench/count.mjs before changing the loop.

import { allocate } from "./memory";

// Static buffers: fixed addresses become immediate offsets in the hot loop.
const STACK: usize = memory.data(16 * 32, 16); // a pushed row: [queens left, left, down, right]
const BY_COUNT: usize = memory.data(4 * 34, 16); // the board: row y's queen at index y + off + 1 (popcnt(down) below it)
const KIND: usize = memory.data(40, 16); // u8 per popcnt(down) of a row: what that row needs

// run()'s inputs, counters and resume state (fixed offsets into RUN).
const RUN: usize = memory.data(80, 16);
const LAST_MASK = 0, END_BIT = 4, PRUNE_MASK = 8, SIDE_MASK = 12, TOP_BIT = 16; // u32
const BOUND1_ROW = 20, BOUND2_ROW = 24; // u32: addresses of the board rows bound1 and bound2
const NODES = 32, COUNT8 = 40; // u64, added to `nodes` and `count8` by countTask
const LEFT = 48, DOWN = 52, RIGHT = 56, QUEENS = 60; // u32: the row run() returned from
const LIMIT = 64; // u64: run() pauses (returns sp | 1) at a pop once NODES >= LIMIT

// KIND values: PLAIN rows need nothing; rows above bound1 PRUNE columns (pruneMask);
// row bound2 (side) has the BOUND2 rule; the last row is a leaf.
const PLAIN: u8 = 0, PRUNE: u8 = 1, BOUND2: u8 = 2, LEAF_CORNER: u8 = 3, LEAF_SIDE: u8 = 4;

let size: i32 = 0;
let lastRow: i32 = 0;
let off: i32 = 0; // columns off the board: popcnt(down) = row + off
let mask: u32 = 0;
let topBit: u32 = 0;
let sideMask: u32 = 0;
let lastMask: u32 = 0;
let endBit: u32 = 0;
let pruneMask: u32 = 0;
let bound1: i32 = 0;
let bound2: i32 = 0;
let board: usize = 0; // row y at board + 4y, inside BY_COUNT
let prefix: usize = 0; // u32[32]: the task's rows, written by the TS side

let resumeSp: usize = 0; // run()'s stack pointer to resume with; 0 when the task is done

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
  prefix = allocate(128);
  size = n;
  lastRow = n - 1;
  off = 32 - n;
  board = BY_COUNT + (<usize>(off + 1) << 2);
  mask = n == 32 ? 0xFFFFFFFF : ((<u32>1 << n) - 1);
  topBit = <u32>1 << lastRow;
  sideMask = topBit | 1;
  return prefix;
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

/** Row bound2 of a side search: a queen on an edge column unless both are taken (none if neither is). */
@inline function bound2Rule(down: u32, queens: u32): u32 {
  const edges = down & sideMask;
  return edges == sideMask ? queens : edges ? queens & sideMask : queens & edges; // (no literal 0: see run())
}

/**
 * Searches from the state in RUN with the stack pointer `sp` until the task is done
 * (returns 0), a side solution needs the rotation check (returns the stack pointer
 * to resume with; the board holds the solution), or NODES reached LIMIT when a row is
 * popped (returns the stack pointer | 1; the row to pop is resumed from). `queens` are the columns still to
 * try on the current row; each is a node, counted in bulk (popcnt) when its row is
 * entered.
 */
function run(sp: usize): usize {
  let left = load<u32>(RUN, LEFT), down = load<u32>(RUN, DOWN), right = load<u32>(RUN, RIGHT);
  let queens = load<u32>(RUN, QUEENS);
  while (true) {
    if (!queens) {
      if (sp == STACK) break;
      if (load<u64>(RUN, NODES) >= load<u64>(RUN, LIMIT)) {
        store<u32>(RUN, left, LEFT); store<u32>(RUN, down, DOWN); store<u32>(RUN, right, RIGHT);
        store<u32>(RUN, 0, QUEENS);
        return sp | 1;
      }
      sp -= 16;
      queens = load<u32>(sp); left = load<u32>(sp, 4); down = load<u32>(sp, 8); right = load<u32>(sp, 12);
    }
    const bit = queens & (0 - queens);
    queens ^= bit;
    const nextDown = down | bit;
    let next = ~(((left | bit) << 1) | nextDown | ((right | bit) >> 1));
    if (!next) continue;
    const k = popcnt(nextDown); // the next row + off
    store<u32>(BY_COUNT + (<usize>k << 2), bit);
    const kind = load<u8>(KIND + <usize>k);
    if (kind) {
      if (kind >= LEAF_CORNER) { // `next` is the last row's one free column
        if (kind == LEAF_CORNER) {
          store<u64>(RUN, load<u64>(RUN, NODES) + 1, NODES);
          store<u64>(RUN, load<u64>(RUN, COUNT8) + 1, COUNT8);
        } else if (!(next & load<u32>(RUN, LAST_MASK))) {
          store<u64>(RUN, load<u64>(RUN, NODES) + 1, NODES);
          store<u32>(BY_COUNT + (<usize>(k + 1) << 2), next);
          if (
            load<u32>(load<u32>(RUN, BOUND2_ROW)) != 1 && next != load<u32>(RUN, END_BIT) &&
            load<u32>(load<u32>(RUN, BOUND1_ROW)) != load<u32>(RUN, TOP_BIT)
          ) {
            store<u64>(RUN, load<u64>(RUN, COUNT8) + 1, COUNT8); // no rotation maps it to itself or a smaller one
          } else {
            store<u32>(RUN, left, LEFT); store<u32>(RUN, down, DOWN); store<u32>(RUN, right, RIGHT);
            store<u32>(RUN, queens, QUEENS);
            return sp;
          }
        }
        continue;
      }
      if (kind == PRUNE) {
        next &= load<u32>(RUN, PRUNE_MASK);
      } else { // BOUND2, as bound2Rule
        const sides = load<u32>(RUN, SIDE_MASK);
        const edges = nextDown & sides;
        next = edges == sides ? next : edges ? next & sides : next & edges;
      }
      if (!next) continue;
    }
    store<u64>(RUN, load<u64>(RUN, NODES) + <u64>popcnt(next), NODES);
    if (queens) {
      store<u32>(sp, queens); store<u32>(sp, left, 4); store<u32>(sp, down, 8); store<u32>(sp, right, 12);
      sp += 16;
    }
    // The same values as (left | bit) << 1, nextDown, (right | bit) >> 1, written so
    // that the JIT recomputes them here instead of holding them in registers.
    left = (left << 1) | (bit << 1); down ^= bit; right = (right >> 1) | (bit >> 1); queens = next;
  }
  return 0;
}

/**
 * Set up one task: `kind` 1 = corner, 2 = side; `b1` its bound1; the first `depth`
 * rows (one-bit masks) are in the prefix buffer. Clears the counters read by
 * countResult; then countRun searches.
 */
export function countStart(kind: i32, b1: i32, depth: i32): void {
  resumeSp = 0;
  count8 = 0; count4 = 0; count2 = 0; nodes = 0;
  let left: u32 = 0, down: u32 = ~mask, right: u32 = 0;
  for (let y = 0; y < depth; y++) {
    const bit = load<u32>(prefix + (<usize>y << 2));
    setRow(y, bit);
    left = (left | bit) << 1;
    down |= bit;
    right = (right | bit) >> 1;
  }
  const side = kind != 1;
  bound1 = b1;
  if (side) {
    bound2 = size - 1 - b1;
    const low: u32 = (<u32>1 << b1) - 1;
    lastMask = low | (low << (size - b1));
    endBit = topBit >> b1;
    pruneMask = ~sideMask;
  } else {
    bound2 = 0;
    pruneMask = ~(<u32>2);
  }
  memory.fill(KIND, PLAIN, 40);
  for (let y = depth; y < b1; y++) store<u8>(KIND + <usize>(y + off), PRUNE);
  if (side && bound2 >= depth) store<u8>(KIND + <usize>(bound2 + off), BOUND2);
  store<u8>(KIND + <usize>(lastRow + off), side ? LEAF_SIDE : LEAF_CORNER);
  // The row-`depth` queens, as run() would find them.
  let queens = ~(left | down | right);
  const first = load<u8>(KIND + <usize>(depth + off));
  if (first >= LEAF_CORNER) { // depth == lastRow: the task is one leaf
    if (queens && (!side || !(queens & lastMask))) {
      nodes++;
      setRow(lastRow, queens);
      if (side) checkSymmetry(); else count8++;
    }
    return; // done: resumeSp = 0
  }
  if (first == PRUNE) queens &= pruneMask;
  else if (first == BOUND2) queens = bound2Rule(down, queens);
  nodes += <u64>popcnt(queens);
  store<u32>(RUN, lastMask, LAST_MASK); store<u32>(RUN, endBit, END_BIT); store<u32>(RUN, pruneMask, PRUNE_MASK);
  store<u32>(RUN, sideMask, SIDE_MASK); store<u32>(RUN, topBit, TOP_BIT);
  store<u32>(RUN, <u32>(board + (<usize>bound1 << 2)), BOUND1_ROW);
  store<u32>(RUN, <u32>(board + (<usize>bound2 << 2)), BOUND2_ROW);
  store<u64>(RUN, 0, NODES); store<u64>(RUN, 0, COUNT8);
  store<u32>(RUN, left, LEFT); store<u32>(RUN, down, DOWN); store<u32>(RUN, right, RIGHT); store<u32>(RUN, queens, QUEENS);
  resumeSp = STACK | 2; // (bit 1 marks "started", STACK itself is 16-aligned)
}

/**
 * Search the task set up by countStart until it is done (returns 1) or about `budget`
 * (>= 1) more nodes are placed (returns 0; call again to go on). The node count and
 * the counters at the end do not depend on the budgets.
 */
export function countRun(budget: u32): i32 {
  if (!resumeSp) return 1;
  store<u64>(RUN, load<u64>(RUN, NODES) + <u64>budget, LIMIT);
  let sp = run(resumeSp & ~(<usize>3));
  while (sp) {
    if (sp & 1) {
      resumeSp = sp ^ 1;
      return 0;
    }
    checkSymmetry();
    sp = run(sp);
  }
  resumeSp = 0;
  nodes += load<u64>(RUN, NODES);
  count8 += load<u64>(RUN, COUNT8);
  return 1;
}

/** countResult's selectors (exported: src/engine/wasm reads them). */
export const COUNT_RESULT_COUNT8: i32 = 0;
export const COUNT_RESULT_COUNT4: i32 = 1;
export const COUNT_RESULT_COUNT2: i32 = 2;
export const COUNT_RESULT_NODES: i32 = 3;

/** The counters of the last task, by COUNT_RESULT_*: COUNT8, COUNT4, COUNT2, nodes. */
export function countResult(which: i32): u64 {
  return which == COUNT_RESULT_COUNT8 ? count8 : which == COUNT_RESULT_COUNT4 ? count4 : which == COUNT_RESULT_COUNT2 ? count2 : nodes;
}
