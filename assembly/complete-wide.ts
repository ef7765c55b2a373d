// The complete search's wide path (complete.ts uses it past n = 64, or when asked by
// param bit 8): the same reasoning as the 64-bit path for boards of any size.
// Twin: src/engine/ts/complete-wide.ts (same nodes, same solution).
// Not a copy of complete.ts: the same reasoning over words edited in place with a trail (it
// copies a u64 a row a level, the faster step up to n = 64), which is what passes n = 64.
//
// Instead of one 64-bit mask per row copied at every level, every row keeps its open
// columns as ceil(n / 64) words that a placement edits in place: the queen at (r, c)
// clears at most three bits of each row left (column c and the two diagonals), and
// each cleared bit goes on a trail that going back undoes. Beside the words, counters
// say how many squares each row has left, how many rows can still take each column and
// how many open squares each diagonal holds, so a node costs O(n) whatever the width;
// memory is O(n^2 / 64) for the rows plus at most 3n(n - 1)/2 trail entries.
//
// At each node, as complete.ts: fail when a row has no square left or a free column no row can
// take, or (where they pay) the diagonal bounds of diagonal-bounds.ts; branch on the row with the
// fewest squares, or on the free column the fewest rows can take when that is fewer still and
// below 8. What differs, for large boards where the first dive decides everything:
// - the branches are tried least constraining first: the candidate whose lines hold the
//   fewest open squares of the rows (columns) left, ties in increasing order;
// - solve (mode 0) restarts from the root after 16n nodes, then 1.5 times more each time,
//   breaking ties (rows, columns, candidates) by a hash of the restart: a heavy-tailed
//   dive is cut short, and since the cutoffs grow without bound one run is eventually
//   exhaustive, so the search stays complete (a 'no-solution' is still a proof); in
//   complete.ts's portfolio (ROTATE) the restarts go in cycles through the root's first
//   branches instead, the cutoff growing once a cycle (on threads, shared: SHARE_SHIFT).
// Enumeration and counting (modes 1, 2) never restart; the order of branches does not
// change the tree, so their counts and nodes equal the 64-bit path's (tested).

import { allocate } from "./memory";
import { allowedWords } from "./constraints";
import { RUNNING, FOUND, EXHAUSTED, MAX_NODES } from "./status";
import { boundsOnLines, boundsPay } from "./diagonal-bounds";
import { key, tie, sortKeys, rotateLeft } from "./complete-wide-order";

const FAIL: i32 = 0;
const OPEN: i32 = 1;
const SOLVED: i32 = 2;
const BY_ROW: i32 = 0;
const BY_COLUMN: i32 = 1;
/** Solve mode's first run may take RESTART_BASE * n nodes; each next one 1.5 times more (so one run is eventually exhaustive). */
const RESTART_BASE: i32 = 16;
/** Bit of param (tests): the first run takes n nodes only, so small boards restart too. */
const RESTART_OFTEN: i32 = 32;
/** Bit of param turning the diagonal bounds (diagonal-bounds.ts) off (as complete.ts). */
const NO_BOUNDS: i32 = 64;
/** Bit of param turning the per-colour bounds (colour-bounds.ts) off (as complete.ts). */
const NO_COLOUR_BOUNDS: i32 = 128;
/** Bit of param (complete.ts's portfolio): restarts in cycles of up to ROTATION_MAX, the k-th diving first into the root's k-th best branch, the cutoff growing once a cycle. */
const ROTATE: i32 = 2048;
/** The longest cycle of ROTATE's restarts. */
const ROTATION_MAX: i32 = 16;
/** param >> SHARE_SHIFT (ROTATE): a share of the restarts, turn (bits 0-7) of `of` (8-15): the restarts turn, turn + of, ... by number (the twin's RestartsShare). */
const SHARE_SHIFT: i32 = 16;

let size: i32 = 0;
let words: i32 = 0;
let mode: i32 = 0;
let depth: i32 = 0;
let left: i32 = 0; // rows not yet placed
let nodes: f64 = 0;
let maxNodes: f64 = 0;
let solutions: u64 = 0;
let found: bool = false;
let restarts: i32 = 0; // solve mode: how many times the search went back to the root
let runNodes: f64 = 0; // solve mode: nodes this run may take before the next restart
let cutoff: f64 = 0;
let rotate: bool = false; // ROTATE
let turn: i32 = 0; // ROTATE: the restart's place in its cycle
let shareTurn: i32 = 0, shareOf: i32 = 1; // ROTATE: this search's turn of shareOf (SHARE_SHIFT)
let avail: usize = 0; // u64[n * words]: row r's open columns from r * words
let rowCount: usize = 0; // i32[n]: open squares of each row
let colCount: usize = 0; // i32[n]: rows left that can take each column
let sumCount: usize = 0; // i32[2n]: open squares of the rows left on each diagonal r + c
let diffCount: usize = 0; // i32[2n]: on each diagonal r - c + n - 1
let sumBits: usize = 0; // u64[spanWords]: the sum diagonals with an open square (sumCount > 0)
let diffBits: usize = 0; // u64[spanWords]: likewise the difference diagonals
let bounds: bool = true;
let colourBounds: bool = true;
let rowsLeft: usize = 0; // u64[words]
let colsFree: usize = 0; // u64[words]
let kind: usize = 0; // i32[n + 1]: BY_ROW or BY_COLUMN
let index: usize = 0; // i32[n + 1]: the row or column branched on
let next: usize = 0; // i32[n + 1]: how many of level d's candidates were tried
let start: usize = 0; // i32[n + 2]: level d's candidates are candidates[start[d] .. start[d + 1]]
let candidates: usize = 0; // f64[n(n + 1)/2 + n] keys (see key() in complete-wide-order.ts): columns (BY_ROW) or rows (BY_COLUMN), best first
let placedRow: usize = 0; // i32[n + 1]: the queen level d's branch stands on now (-1: none)
let placedCol: usize = 0; // i32[n + 1]
let mark: usize = 0; // i32[n + 1]: the trail's length before that queen
let trailRow: usize = 0; // i32[3n(n-1)/2]: the squares cleared, in order
let trailCol: usize = 0;
let trailTop: i32 = 0;
let cols: usize = 0; // i32[n]

@inline function i32At(base: usize, i: i32): usize { return base + (<usize>i << 2); }

@inline function f64At(base: usize, i: i32): usize { return base + (<usize>i << 3); }

@inline function wordAt(base: usize, i: i32): usize { return base + (<usize>i << 3); }

@inline function hasBit(base: usize, i: i32): bool {
  return (load<u64>(wordAt(base, i >> 6)) & (<u64>1 << <u64>(i & 63))) != 0;
}

@inline function setBit(base: usize, i: i32): void {
  const at = wordAt(base, i >> 6);
  store<u64>(at, load<u64>(at) | (<u64>1 << <u64>(i & 63)));
}

@inline function clearBit(base: usize, i: i32): void {
  const at = wordAt(base, i >> 6);
  store<u64>(at, load<u64>(at) & ~(<u64>1 << <u64>(i & 63)));
}

@inline function rowWords(y: i32): usize { return avail + (<usize>(y * words) << 3); }

/** Adds `by` to the diagonal counters of square (y, p) (and keeps the usable diagonals' bits). */
@inline function lines(y: i32, p: i32, by: i32): void {
  const k = y + p;
  const s = i32At(sumCount, k);
  const vs = load<i32>(s) + by;
  store<i32>(s, vs);
  if (vs == 0) clearBit(sumBits, k);
  else if (vs == 1 && by > 0) setBit(sumBits, k);
  const j = y - p + size - 1;
  const t = i32At(diffCount, j);
  const vt = load<i32>(t) + by;
  store<i32>(t, vt);
  if (vt == 0) clearBit(diffBits, j);
  else if (vt == 1 && by > 0) setBit(diffBits, j);
}

/** The diagonal bounds (diagonal-bounds.ts) at the current node (difference index r - c + n - 1 here). */
@inline function boundsHold(): bool {
  return boundsOnLines(size, left, rowsLeft, colsFree, words, sumBits, diffBits, true, colourBounds);
}

/** Clears square (y, p) of row y left if open; false when that leaves row y, or free column p (p != c), with nothing. */
@inline function take(y: i32, p: i32, c: i32): bool {
  const row = rowWords(y);
  if (!hasBit(row, p)) return true;
  clearBit(row, p);
  store<i32>(i32At(trailRow, trailTop), y);
  store<i32>(i32At(trailCol, trailTop), p);
  trailTop++;
  const rc = load<i32>(i32At(rowCount, y)) - 1;
  store<i32>(i32At(rowCount, y), rc);
  const cc = load<i32>(i32At(colCount, p)) - 1;
  store<i32>(i32At(colCount, p), cc);
  lines(y, p, -1);
  return rc != 0 && (cc != 0 || p == c);
}

/** The branch of level d from the counters (rows and columns left are open). */
function branch(d: i32): void {
  let best: i32 = -1;
  let bestCount: i32 = i32.MAX_VALUE;
  for (let w = 0; w < words; w++) {
    let x = load<u64>(wordAt(rowsLeft, w));
    while (x != 0) {
      const y = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      const k = load<i32>(i32At(rowCount, y));
      if (k < bestCount || (k == bestCount && restarts != 0 && tie(y, restarts) < tie(best, restarts))) {
        bestCount = k;
        best = y;
      }
    }
  }
  let limit = bestCount < 8 ? bestCount : 8;
  let column: i32 = -1;
  for (let w = 0; w < words; w++) {
    let x = load<u64>(wordAt(colsFree, w));
    while (x != 0) {
      const p = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      const k = load<i32>(i32At(colCount, p));
      if (k < limit || (k == limit && column >= 0 && restarts != 0 && tie(p, restarts) < tie(column, restarts))) {
        limit = k;
        column = p;
      }
    }
  }
  store<i32>(i32At(next, d), 0);
  store<i32>(i32At(placedRow, d), -1);
  // The candidates, least constraining first: the fewest open squares of the rows left on
  // the queen's lines (see key() in complete-wide-order.ts: ties in increasing order, or hashed after a restart).
  const base = load<i32>(i32At(start, d));
  let count: i32 = 0;
  if (column >= 0) {
    store<i32>(i32At(kind, d), BY_COLUMN);
    store<i32>(i32At(index, d), column);
    for (let w = 0; w < words; w++) {
      let x = load<u64>(wordAt(rowsLeft, w));
      while (x != 0) {
        const y = (w << 6) + <i32>ctz<u64>(x);
        x &= x - 1;
        if (!hasBit(rowWords(y), column)) continue;
        const score = load<i32>(i32At(rowCount, y)) + load<i32>(i32At(sumCount, y + column)) +
          load<i32>(i32At(diffCount, y - column + size - 1));
        store<f64>(f64At(candidates, base + count), key(score, y, restarts));
        count++;
      }
    }
  } else {
    store<i32>(i32At(kind, d), BY_ROW);
    store<i32>(i32At(index, d), best);
    const row = rowWords(best);
    for (let w = 0; w < words; w++) {
      let x = load<u64>(wordAt(row, w));
      while (x != 0) {
        const p = (w << 6) + <i32>ctz<u64>(x);
        x &= x - 1;
        const score = load<i32>(i32At(colCount, p)) + load<i32>(i32At(sumCount, best + p)) +
          load<i32>(i32At(diffCount, best - p + size - 1));
        store<f64>(f64At(candidates, base + count), key(score, p, restarts));
        count++;
      }
    }
  }
  sortKeys(candidates + (<usize>base << 3), count);
  store<i32>(i32At(start, d + 1), base + count);
}

/** Solve mode's restart: every queen taken off, the root branched again with new ties, the next cutoff 1.5 times further. */
function restart(): void {
  while (depth >= 0) {
    if (load<i32>(i32At(placedRow, depth)) >= 0) undo(depth);
    depth--;
  }
  restarts++;
  branch(0);
  if (rotate) {
    const base = load<i32>(i32At(start, 0));
    const count = load<i32>(i32At(start, 1)) - base;
    const cycle = count < ROTATION_MAX ? count : ROTATION_MAX;
    if (++turn >= cycle) turn = 0;
    if (turn == 0) runNodes *= 1.5;
    if (shareOf > 1 && restarts % shareOf != shareTurn) { restart(); return; } // others' restarts counted, to this one's
    if (turn != 0) rotateLeft(candidates + (<usize>base << 3), count, turn);
  } else {
    runNodes *= 1.5;
  }
  cutoff = nodes + runNodes;
  depth = 0;
}

/** Level d's branch puts a queen at (r, c); FAIL, OPEN (level d + 1's branch made) or SOLVED. Undone by undo(d) in every case. */
function place(d: i32, r: i32, c: i32): i32 {
  store<i32>(i32At(placedRow, d), r);
  store<i32>(i32At(placedCol, d), c);
  store<i32>(i32At(mark, d), trailTop);
  clearBit(rowsLeft, r);
  clearBit(colsFree, c);
  left--;
  // Row r leaves: each of its open columns loses a taker.
  let ok = true;
  const own = rowWords(r);
  for (let w = 0; w < words; w++) {
    let x = load<u64>(wordAt(own, w));
    while (x != 0) {
      const p = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      const k = load<i32>(i32At(colCount, p)) - 1;
      store<i32>(i32At(colCount, p), k);
      lines(r, p, -1);
      if (k == 0 && p != c) ok = false;
    }
  }
  if (!ok) return FAIL;
  if (left == 0) return SOLVED;
  // The queen's lines in every row left: column c, c + (y - r), c - (y - r).
  for (let w = 0; w < words; w++) {
    let x = load<u64>(wordAt(rowsLeft, w));
    while (x != 0) {
      const y = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      const dr = y - r;
      if (!take(y, c, c)) return FAIL;
      const up = c + dr;
      if (<u32>up < <u32>size && !take(y, up, c)) return FAIL;
      const down = c - dr;
      if (<u32>down < <u32>size && !take(y, down, c)) return FAIL;
    }
  }
  if (bounds && !boundsHold()) return FAIL;
  branch(d + 1);
  return OPEN;
}

/** Takes level d's queen off again (its trail, its row's takers, its row and column). */
function undo(d: i32): void {
  const r = load<i32>(i32At(placedRow, d));
  const c = load<i32>(i32At(placedCol, d));
  const stop = load<i32>(i32At(mark, d));
  while (trailTop > stop) {
    trailTop--;
    const y = load<i32>(i32At(trailRow, trailTop));
    const p = load<i32>(i32At(trailCol, trailTop));
    setBit(rowWords(y), p);
    store<i32>(i32At(rowCount, y), load<i32>(i32At(rowCount, y)) + 1);
    store<i32>(i32At(colCount, p), load<i32>(i32At(colCount, p)) + 1);
    lines(y, p, 1);
  }
  const own = rowWords(r);
  for (let w = 0; w < words; w++) {
    let x = load<u64>(wordAt(own, w));
    while (x != 0) {
      const p = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      store<i32>(i32At(colCount, p), load<i32>(i32At(colCount, p)) + 1);
      lines(r, p, 1);
    }
  }
  setBit(rowsLeft, r);
  setBit(colsFree, c);
  left++;
  store<i32>(i32At(placedRow, d), -1);
}

/** Allocate and reset (as completeInit; param: the mode, and RESTART_OFTEN); the columns buffer, 0 if out of memory. */
export function wideInit(n: i32, param: i32, nodeCap: f64): usize {
  size = n;
  words = (n + 63) >> 6;
  mode = param & 3;
  maxNodes = nodeCap;
  nodes = 1; // the empty board
  solutions = 0;
  found = false;
  trailTop = 0;
  left = n;
  restarts = 0;
  rotate = (param & ROTATE) != 0;
  turn = 0;
  shareTurn = (param >> SHARE_SHIFT) & 255;
  shareOf = max<i32>(1, (param >> (SHARE_SHIFT + 8)) & 255);
  shareTurn %= shareOf;
  runNodes = <f64>((param & RESTART_OFTEN) != 0 ? n : RESTART_BASE * n);
  cutoff = mode == 0 ? nodes + runNodes : Infinity;
  const levels = <usize>(n + 1);
  const trail = (<usize>3 * <usize>n * <usize>(n - 1)) / 2 + 1;
  avail = allocate(<usize>n * <usize>words << 3);
  rowCount = allocate(<usize>n << 2);
  colCount = allocate(<usize>n << 2);
  rowsLeft = allocate(<usize>words << 3);
  colsFree = allocate(<usize>words << 3);
  kind = allocate(levels << 2);
  index = allocate(levels << 2);
  next = allocate(levels << 2);
  start = allocate((levels + 1) << 2);
  candidates = allocate(((<usize>n * <usize>(n + 1)) / 2 + <usize>n) << 3);
  sumCount = allocate(<usize>n << 3);
  diffCount = allocate(<usize>n << 3);
  placedRow = allocate(levels << 2);
  placedCol = allocate(levels << 2);
  mark = allocate(levels << 2);
  trailRow = allocate(trail << 2);
  trailCol = allocate(trail << 2);
  cols = allocate(<usize>n << 2);
  bounds = (param & NO_BOUNDS) == 0;
  colourBounds = (param & NO_COLOUR_BOUNDS) == 0;
  const spanWords = <usize>((2 * n - 1 + 63) >> 6);
  sumBits = allocate(spanWords << 3);
  diffBits = allocate(spanWords << 3);
  if (sumBits == 0 || diffBits == 0 || avail == 0 || rowCount == 0 || colCount == 0 || rowsLeft == 0 || colsFree == 0 || kind == 0 || index == 0 ||
    next == 0 || start == 0 || candidates == 0 || sumCount == 0 || diffCount == 0 || placedRow == 0 || placedCol == 0 || mark == 0 || trailRow == 0 || trailCol == 0 || cols == 0) return 0;
  let ok = true;
  for (let r = 0; r < n; r++) {
    store<i32>(i32At(cols, r), -1);
    setBit(rowsLeft, r);
    setBit(colsFree, r);
    const row = rowWords(r);
    allowedWords(r, n, row, words);
    let k: i32 = 0;
    for (let w = 0; w < words; w++) {
      let x = load<u64>(wordAt(row, w));
      k += <i32>popcnt<u64>(x);
      while (x != 0) {
        const p = (w << 6) + <i32>ctz<u64>(x);
        x &= x - 1;
        store<i32>(i32At(colCount, p), load<i32>(i32At(colCount, p)) + 1);
        lines(r, p, 1);
      }
    }
    store<i32>(i32At(rowCount, r), k);
    if (k == 0) ok = false;
  }
  for (let p = 0; p < n; p++) if (load<i32>(i32At(colCount, p)) == 0) ok = false;
  if (bounds) bounds = boundsPay(n, sumBits, diffBits);
  if (ok && bounds && !boundsHold()) ok = false;
  if (ok) {
    branch(0);
    depth = 0;
    if (rotate && mode == 0 && shareTurn != 0) restart(); // (restart 0, the first run, is another's)
  } else depth = -1;
  return cols;
}

// As completeRun. The walk is narrowRun's (complete.ts) on another level (place and undo in
// place, not a copy built from its parent); one walk for both would reach its level's step
// through a function reference, a call_indirect at every node, so the copy stays.
export function wideRun(workLimit: f64): i32 {
  while (true) {
    if (found) return FOUND;
    if (depth < 0) return EXHAUSTED;
    if (nodes >= maxNodes) return MAX_NODES;
    if (nodes >= workLimit) return RUNNING;
    if (nodes >= cutoff) restart();
    const d = depth;
    if (load<i32>(i32At(placedRow, d)) >= 0) undo(d);
    const tried = load<i32>(i32At(next, d));
    const at = load<i32>(i32At(start, d)) + tried;
    if (at == load<i32>(i32At(start, d + 1))) {
      depth--;
      continue;
    }
    store<i32>(i32At(next, d), tried + 1);
    const pick = <i32>(<i64>load<f64>(f64At(candidates, at)) & 0xfffff);
    let r: i32, c: i32;
    if (load<i32>(i32At(kind, d)) == BY_ROW) {
      r = load<i32>(i32At(index, d));
      c = pick;
    } else {
      c = load<i32>(i32At(index, d));
      r = pick;
    }
    nodes++;
    store<i32>(i32At(cols, r), c);
    const result = place(d, r, c);
    if (result == OPEN) {
      depth++;
    } else if (result == SOLVED) {
      solutions++;
      if (mode == 0) found = true;
      if (mode != 2) return FOUND;
    }
  }
}

export function wideSolutions(): u64 {
  return solutions;
}

export function wideNodes(): f64 {
  return nodes;
}
