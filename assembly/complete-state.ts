// The 64-bit complete search's state (n <= 64), and build, the step that writes it: a
// level of the search made from its parent. complete.ts (the search's walk and the kernel's
// entry points), complete-lookahead.ts (solve's lookahead) and complete-portfolio.ts (solve's
// portfolio) import it, and it imports none of them, so the three share one set of Wasm
// globals without a circle. Each global is written here only; the others read it (nodes and
// solutions go up through countNode and countSolution). The algorithm: complete.ts's header.
// Twin: src/engine/ts/complete-state.ts (same levels, same nodes).

import { allocate } from "./memory";
import { allowedMask } from "./constraints";
import { diagonalsFeasible, diagonalsForbidden, boundsPay } from "./diagonal-bounds";
import { colourForbidden } from "./colour-bounds";
import { EVEN_BITS, indexSum, squareSum } from "./bit-sums";

/** What build makes of a level. */
export const FAIL: i32 = 0;
export const OPEN: i32 = 1;
export const SOLVED: i32 = 2;
/** What a level branches on: a row's squares, or a column's takers. */
export const BY_ROW: i32 = 0;
export const BY_COLUMN: i32 = 1;

export let size: i32 = 0;
/** Empty board = 1 node, each queen placed = 1 node, and each level the lookahead builds = 1 node. */
export let nodes: f64 = 0;
export let solutions: u64 = 0;
export let avail: usize = 0; // u64[2 (n + 1) * n]: level d's open columns of row r at (d * n + r)
export let rowsLeft: usize = 0; // u64[2 (n + 1)]
export let colsLeft: usize = 0; // u64[2 (n + 1)]
export let kind: usize = 0; // i32[2 (n + 1)]: BY_ROW or BY_COLUMN
export let index: usize = 0; // i32[2 (n + 1)]: the row (BY_ROW) or column (BY_COLUMN) branched on
export let rest: usize = 0; // u64[2 (n + 1)]: branches not yet tried (columns, or rows)
export let cols: usize = 0; // i32[n]
export let order: usize = 0; // u8[2 (n + 1) * 64]: level d's branches in lookAhead's order, from (d << 6)
export let orderPos: usize = 0; // i32[2 (n + 1)]: the next of them to try (-1: no order, lowest first)
/** The diagonal bounds (diagonal-bounds.ts) at every node: only on boards where they pay (boundsPay, decided at the root). */
export let bounds: bool = true;
/** With their per-colour form (colour-bounds.ts). */
export let colourBounds: bool = true;
/** Filtering (diagonalsForbidden, and colourForbidden with the per-colour bounds): solve mode only, so counting and enumeration walk the wide path's tree. */
export let filtering: bool = false;
let usable: usize = 0; // u64[4]: the usable sum diagonals (2 words), then difference diagonals c - r + n - 1
let forbidden: usize = 0; // u64[4]: as usable, the diagonals filtering takes away
/** build's count of the open squares of the rows left at its last node (i32.MAX_VALUE when solved), for lookAhead's order. */
export let builtOpen: i32 = 0;
// build's bit planes of the column takers at its last open node, for lookAhead.
export let planes0: u64 = 0;
export let planes1: u64 = 0;
export let planes2: u64 = 0;
export let planesExact: u64 = 0;
// boundsHold's figures of the node, for the filtering.
let nodeLeft: i32 = 0;
let nodeSum: f64 = 0;
let nodeDiff: f64 = 0;
let nodeMoment: f64 = 0;

/**
 * Allocate and reset for an n x n board (n <= 64) under the constraints of constraints.ts:
 * level 0 is the root's allowed squares, every row and column left; `withBounds`: the diagonal
 * bounds where they pay, `withColourBounds` their per-colour form, `solveMode` filtering with
 * them. False if out of memory.
 */
export function stateInit(n: i32, withBounds: bool, withColourBounds: bool, solveMode: bool): bool {
  size = n;
  nodes = 1; // the empty board
  solutions = 0;
  // The search's levels 0..n, then as many for complete-estimate.ts's probes (PROBE_BASE on).
  const levels = <usize>(2 * (n + 1));
  avail = allocate(levels * <usize>n << 3);
  rowsLeft = allocate(levels << 3);
  colsLeft = allocate(levels << 3);
  kind = allocate(levels << 2);
  index = allocate(levels << 2);
  rest = allocate(levels << 3);
  cols = allocate(<usize>n << 2);
  order = allocate(levels << 6);
  orderPos = allocate(levels << 2);
  usable = allocate(32);
  forbidden = allocate(32);
  if (order == 0 || orderPos == 0 || usable == 0 || forbidden == 0 || avail == 0 || rowsLeft == 0 || colsLeft == 0 || kind == 0 || index == 0 || rest == 0 || cols == 0) return false;
  const full: u64 = n == 64 ? ~(<u64>0) : ((<u64>1 << <u64>n) - 1);
  for (let r = 0; r < n; r++) {
    store<i32>(at32(cols, r), -1);
    store<u64>(at64(avail, r), allowedMask(r, n));
  }
  store<u64>(rowsLeft, full);
  store<u64>(colsLeft, full);
  bounds = withBounds && rootPays();
  colourBounds = withColourBounds;
  filtering = bounds && solveMode;
  return true;
}

/** A node more: a queen placed, or a level the lookahead builds. */
@inline export function countNode(): void {
  nodes++;
}

/** A solution more. */
@inline export function countSolution(): void {
  solutions++;
}

@inline export function at64(base: usize, i: i32): usize {
  return base + (<usize>i << 3);
}

@inline export function at32(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

@inline function bitIf(p: i32): u64 {
  return <u32>p < <u32>size ? <u64>1 << <u64>p : 0;
}

/** The free columns exactly k rows can take (1 <= k <= 7), from build's bit planes of the takers. */
@inline export function takenBy(k: i32, b0: u64, b1: u64, b2: u64, exact: u64): u64 {
  return exact & ((k & 1) != 0 ? b0 : ~b0) & ((k & 2) != 0 ? b1 : ~b1) & ((k & 4) != 0 ? b2 : ~b2);
}

/** The rows of `rows` that can take column cc at the level whose masks start at `to`. */
export function takersOf(to: usize, rows: u64, cc: i32): u64 {
  const bit = <u64>1 << <u64>cc;
  let takers: u64 = 0;
  let x = rows;
  while (x != 0) {
    const y = <i32>ctz<u64>(x);
    x &= x - 1;
    if ((load<u64>(to + (<usize>y << 3)) & bit) != 0) takers |= <u64>1 << <u64>y;
  }
  return takers;
}

/** Level dst from level src with a queen at (r, c) (r < 0: none, src = dst); then the branch of dst by the fewest squares. */
export function build(src: i32, dst: i32, r: i32, c: i32): i32 {
  let rows = load<u64>(at64(rowsLeft, src));
  let free = load<u64>(at64(colsLeft, src));
  if (r >= 0) {
    rows &= ~(<u64>1 << <u64>r);
    free &= ~(<u64>1 << <u64>c);
  }
  store<u64>(at64(rowsLeft, dst), rows);
  store<u64>(at64(colsLeft, dst), free);
  if (rows == 0) {
    builtOpen = i32.MAX_VALUE;
    return SOLVED;
  }
  const from = avail + (<usize>(src * size) << 3);
  const to = avail + (<usize>(dst * size) << 3);
  // Per free column, how many rows can take it: bit planes b0 b1 b2 (0..7), sat: 8 or more.
  let b0: u64 = 0;
  let b1: u64 = 0;
  let b2: u64 = 0;
  let sat: u64 = 0;
  let best: i32 = -1;
  let bestCount: i32 = 65;
  // The diagonals an open square lies on (sum r + c, difference c - r + n - 1), and the rows' sums.
  let s0: u64 = 0;
  let s1: u64 = 0;
  let d0: u64 = 0;
  let d1: u64 = 0;
  let open: i32 = 0; // the open squares of the rows left
  let x = rows;
  while (x != 0) {
    const y = <i32>ctz<u64>(x);
    x &= x - 1;
    let a = load<u64>(from + (<usize>y << 3));
    if (r >= 0) {
      const dr = y - r;
      a &= ~((<u64>1 << <u64>c) | bitIf(c + dr) | bitIf(c - dr));
    }
    store<u64>(to + (<usize>y << 3), a);
    if (a == 0) return FAIL;
    if (bounds) {
      s0 |= a << <u64>y;
      if (y != 0) s1 |= a >> <u64>(64 - y);
      const shift = size - 1 - y;
      d0 |= a << <u64>shift;
      if (shift != 0) d1 |= a >> <u64>(64 - shift);
    }
    const c0 = b0 & a;
    b0 ^= a;
    const c1 = b1 & c0;
    b1 ^= c0;
    sat |= b2 & c1;
    b2 ^= c1;
    const k = <i32>popcnt<u64>(a);
    open += k;
    if (k < bestCount) {
      bestCount = k;
      best = y;
    }
  }
  if ((free & ~(b0 | b1 | b2 | sat)) != 0) return FAIL; // a free column no row can take
  if (bounds && !boundsHold(rows, free, s0, s1, d0, d1)) return FAIL;
  // The per-colour filtering takes away every diagonal the filtering over both colours would (and more).
  if (filtering && (colourBounds ? colourForbidden(size, usable, usable + 16, forbidden, forbidden + 16)
    : diagonalsForbidden(size, usable, usable + 16, nodeSum, nodeDiff, nodeMoment, forbidden, forbidden + 16)) > 0) {
    // Take the squares of the unusable diagonals away, then this level again (in place).
    const f0 = load<u64>(forbidden), f1 = load<u64>(forbidden + 8);
    const g0 = load<u64>(forbidden + 16), g1 = load<u64>(forbidden + 24);
    x = rows;
    while (x != 0) {
      const y = <i32>ctz<u64>(x);
      x &= x - 1;
      const shift = size - 1 - y;
      const cut = (y == 0 ? f0 : (f0 >> <u64>y) | (f1 << <u64>(64 - y))) | (shift == 0 ? g0 : (g0 >> <u64>shift) | (g1 << <u64>(64 - shift)));
      const at = to + (<usize>y << 3);
      store<u64>(at, load<u64>(at) & ~cut);
    }
    return build(dst, dst, -1, -1);
  }
  const exact = free & ~sat;
  planes0 = b0;
  planes1 = b1;
  planes2 = b2;
  planesExact = exact;
  builtOpen = open;
  for (let k = 1; k < bestCount && k < 8; k++) {
    const hits = takenBy(k, b0, b1, b2, exact);
    if (hits == 0) continue;
    const cc = <i32>ctz<u64>(hits);
    store<i32>(at32(kind, dst), BY_COLUMN);
    store<i32>(at32(index, dst), cc);
    store<u64>(at64(rest, dst), takersOf(to, rows, cc));
    return OPEN;
  }
  store<i32>(at32(kind, dst), BY_ROW);
  store<i32>(at32(index, dst), best);
  store<u64>(at64(rest, dst), load<u64>(to + (<usize>best << 3)));
  return OPEN;
}

/** sum over the bits y of x of (2y - (n - 1))^2, by popcounts (bit-sums.ts): 4 sum y^2 - 4 (n - 1) sum y + k (n - 1)^2. */
@inline function centredMoment(x: u64): f64 {
  const m = <f64>(size - 1);
  return 4 * <f64>squareSum(x) - 4 * m * <f64>indexSum(x) + <f64>popcnt<u64>(x) * m * m;
}

/** The diagonal bounds at a node: rows left `rows`, free columns `free`, the usable diagonals from build; the lines' sums by popcounts. */
function boundsHold(rows: u64, free: u64, s0: u64, s1: u64, d0: u64, d1: u64): bool {
  const left = <i32>popcnt<u64>(rows);
  const evenRows = <i32>popcnt<u64>(rows & EVEN_BITS), evenCols = <i32>popcnt<u64>(free & EVEN_BITS);
  const rowSum = <f64>indexSum(rows), colSum = <f64>indexSum(free);
  const moments = centredMoment(rows) + centredMoment(free);
  store<u64>(usable, s0);
  store<u64>(usable + 8, s1);
  store<u64>(usable + 16, d0);
  store<u64>(usable + 24, d1);
  nodeLeft = left;
  nodeSum = rowSum + colSum;
  nodeDiff = colSum - rowSum + <f64>left * <f64>(size - 1);
  nodeMoment = moments;
  return diagonalsFeasible(size, left, usable, usable + 16, evenRows, evenCols, nodeSum, nodeDiff, moments, colourBounds);
}

/** boundsPay on the root's allowed squares (level 0, before anything is placed). */
function rootPays(): bool {
  let s0: u64 = 0, s1: u64 = 0, d0: u64 = 0, d1: u64 = 0;
  for (let y = 0; y < size; y++) {
    const a = load<u64>(at64(avail, y));
    s0 |= a << <u64>y;
    if (y != 0) s1 |= a >> <u64>(64 - y);
    const shift = size - 1 - y;
    d0 |= a << <u64>shift;
    if (shift != 0) d1 |= a >> <u64>(64 - shift);
  }
  store<u64>(usable, s0);
  store<u64>(usable + 8, s1);
  store<u64>(usable + 16, d0);
  store<u64>(usable + 24, d1);
  return boundsPay(size, usable, usable + 16);
}
