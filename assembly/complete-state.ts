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
import { colourForbidden, colourMandatory } from "./colour-bounds";
import { EVEN_BITS, indexSum, squareSum } from "./bit-sums";

/** What build makes of a level. */
export const FAIL: i32 = 0;
export const OPEN: i32 = 1;
export const SOLVED: i32 = 2;
/**
 * What a level branches on: a row's squares, a column's takers, or the open squares of a
 * diagonal every completion needs (solve's filtering: colourMandatory), by their rows: sum
 * diagonal r + c = index, difference diagonal c - r + n - 1 = index.
 */
export const BY_ROW: i32 = 0;
export const BY_COLUMN: i32 = 1;
export const BY_SUM: i32 = 2;
export const BY_DIFF: i32 = 3;

export let size: i32 = 0;
/** Empty board = 1 node, each queen placed = 1 node, and each level the lookahead builds = 1 node. */
export let nodes: f64 = 0;
export let solutions: u64 = 0;
export let avail: usize = 0; // u64[2 (n + 1) * n]: level d's open columns of row r at (d * n + r)
export let rowsLeft: usize = 0; // u64[2 (n + 1)]
export let colsLeft: usize = 0; // u64[2 (n + 1)]
export let kind: usize = 0; // i32[2 (n + 1)]: BY_ROW, BY_COLUMN, BY_SUM or BY_DIFF
export let index: usize = 0; // i32[2 (n + 1)]: the row, column or diagonal branched on
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
/** With filtering and the per-colour bounds: the diagonals every completion needs as lines to branch on (colourMandatory). */
export let neededLines: bool = false;
/** neededLines as asked for (stateInit); holdNeeded holds them back until the portfolio's 64-bit search starts its lookahead. */
let neededAsked: bool = false;
let usable: usize = 0; // u64[4]: the usable sum diagonals (2 words), then difference diagonals c - r + n - 1
let forbidden: usize = 0; // u64[4]: as usable, the diagonals filtering takes away
/** u64[4]: as usable, the diagonals every completion needs at build's last open node (none without filtering), for lookAhead. */
export let needed: usize = 0;
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
 * them, `withNeeded` (with both) the needed diagonals as lines. False if out of memory.
 */
export function stateInit(n: i32, withBounds: bool, withColourBounds: bool, solveMode: bool, withNeeded: bool): bool {
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
  needed = allocate(32);
  if (needed == 0 || order == 0 || orderPos == 0 || usable == 0 || forbidden == 0 || avail == 0 || rowsLeft == 0 || colsLeft == 0 || kind == 0 || index == 0 || rest == 0 || cols == 0) return false;
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
  neededAsked = filtering && colourBounds && withNeeded;
  neededLines = neededAsked;
  return true;
}

/**
 * The needed diagonals as lines held back (true) or started again (false): solve's portfolio
 * starts them with its 64-bit search's lookahead, so boards decided in its first nodes are
 * answered as before (a node with them costs 1.3 to 1.6 times one without).
 */
export function holdNeeded(hold: bool): void {
  neededLines = neededAsked && !hold;
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

// build's counts of each diagonal's open squares (neededLines): per family (sums, then differences),
// bit planes 0, 1, 2 and "8 or more", two u64 words each (indices 0..63, 64..127): u64[16].
const SUM_PLANES: usize = memory.data(128, 16);
const DIFF_PLANES: usize = SUM_PLANES + 64;

/** Adds one to the count of each diagonal set in the 128-bit (x0, x1), into the planes at p (as the columns' takers). */
@inline function countInto(p: usize, x0: u64, x1: u64): void {
  let c0 = load<u64>(p) & x0;
  store<u64>(p, load<u64>(p) ^ x0);
  let c1 = load<u64>(p + 16) & c0;
  store<u64>(p + 16, load<u64>(p + 16) ^ c0);
  store<u64>(p + 48, load<u64>(p + 48) | (load<u64>(p + 32) & c1));
  store<u64>(p + 32, load<u64>(p + 32) ^ c1);
  c0 = load<u64>(p + 8) & x1;
  store<u64>(p + 8, load<u64>(p + 8) ^ x1);
  c1 = load<u64>(p + 24) & c0;
  store<u64>(p + 24, load<u64>(p + 24) ^ c0);
  store<u64>(p + 56, load<u64>(p + 56) | (load<u64>(p + 40) & c1));
  store<u64>(p + 40, load<u64>(p + 40) ^ c1);
}

/**
 * Each diagonal's open squares over the rows left at the level whose masks start at `to`, into
 * SUM_PLANES and DIFF_PLANES (counted as the columns' takers are: bit planes to 7, then 8 or more).
 * Only where build looks for a needed diagonal, after the level has held.
 */
function countDiagonals(to: usize, rows: u64): void {
  memory.fill(SUM_PLANES, 0, 128);
  let x = rows;
  while (x != 0) {
    const y = <i32>ctz<u64>(x);
    x &= x - 1;
    const a = load<u64>(to + (<usize>y << 3));
    const shift = size - 1 - y;
    countInto(SUM_PLANES, a << <u64>y, y != 0 ? a >> <u64>(64 - y) : 0);
    countInto(DIFF_PLANES, a << <u64>shift, shift != 0 ? a >> <u64>(64 - shift) : 0);
  }
}

/** The diagonals of one word (at q: a family's planes plus 8 for the second word) with exactly k open squares (1 <= k <= 7). */
@inline function countIs(q: usize, k: i32): u64 {
  return ~load<u64>(q + 48) & takenBy(k, load<u64>(q), load<u64>(q + 16), load<u64>(q + 32), ~(<u64>0));
}

/** The row of branch v of a level that branches on (lineKind, line). */
@inline export function rowOf(lineKind: i32, line: i32, v: i32): i32 {
  return lineKind == BY_ROW ? line : v;
}

/** The column of branch v of a level that branches on (lineKind, line). */
@inline export function columnOf(lineKind: i32, line: i32, v: i32): i32 {
  return lineKind == BY_ROW ? v : lineKind == BY_COLUMN ? line : lineKind == BY_SUM ? line - v : line - (size - 1) + v;
}

/** The rows of `rows` whose square on diagonal k (lineKind BY_SUM or BY_DIFF) is open at the level whose masks start at `to`. */
export function diagonalRows(to: usize, rows: u64, lineKind: i32, k: i32): u64 {
  let on: u64 = 0;
  let x = rows;
  while (x != 0) {
    const y = <i32>ctz<u64>(x);
    x &= x - 1;
    const c = columnOf(lineKind, k, y);
    if (<u32>c < <u32>size && (load<u64>(to + (<usize>y << 3)) & (<u64>1 << <u64>c)) != 0) on |= <u64>1 << <u64>y;
  }
  return on;
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
  let lineKind = BY_ROW, line = best;
  let branches = load<u64>(to + (<usize>best << 3));
  for (let k = 1; k < bestCount && k < 8; k++) {
    const hits = takenBy(k, b0, b1, b2, exact);
    if (hits == 0) continue;
    lineKind = BY_COLUMN;
    line = <i32>ctz<u64>(hits);
    branches = takersOf(to, rows, line);
    bestCount = k;
    break;
  }
  // A needed diagonal with fewer squares still (at most 7), the fewest; ties: sums first, lowest
  // first (none looked for where the line chosen has one square: nothing has fewer; the lookahead
  // then has no needed diagonal among its candidates either).
  if (neededLines && bestCount > 1 && colourMandatory(size, usable, usable + 16, needed, needed + 16) > 0) {
    countDiagonals(to, rows);
    for (let k = 1; k < bestCount && k < 8; k++) {
      let w = 0;
      let hits: u64 = 0;
      for (; w < 4; w++) {
        hits = load<u64>(needed + (<usize>w << 3)) & countIs(SUM_PLANES + (<usize>(w >> 1) << 6) + (<usize>(w & 1) << 3), k);
        if (hits != 0) break;
      }
      if (w == 4) continue;
      lineKind = w < 2 ? BY_SUM : BY_DIFF;
      line = (w & 1) * 64 + <i32>ctz<u64>(hits);
      branches = diagonalRows(to, rows, lineKind, line);
      break;
    }
  } else {
    memory.fill(needed, 0, 32);
  }
  store<i32>(at32(kind, dst), lineKind);
  store<i32>(at32(index, dst), line);
  store<u64>(at64(rest, dst), branches);
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
