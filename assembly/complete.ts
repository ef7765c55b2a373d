// The complete search for constrained boards: decides every instance of
// n-Queens Completion / Blocked n-Queens, n <= 64, finding a solution or proving
// there is none. Twin: src/engine/ts/complete.ts (same nodes, same solution).
//
// Bitboards: every unplaced row keeps the mask of columns still open to it (its
// allowed squares, less the lines of the queens placed); a level of the search is
// a copy of those masks, so going back is free. At each node (dynamic ordering):
// - fail when a row has no square left, or a free column no row can take;
// - branch on the row with the fewest squares (lowest row on ties), or on the free
//   column that the fewest rows can take when that is fewer still (lowest column on
//   ties; columns are counted in three bit planes, exactly up to 7);
// - on boards where they pay (diagonal-bounds.ts boundsPay, decided at the root: whole
//   diagonals near the centre missing), fail where the diagonal bounds fail, and in solve
//   mode take away the squares of diagonals no completion can use (filtering);
// - on those boards, in solve mode near the root, look ahead (lookAhead): build every branch
//   of the rows and columns within two squares of that choice, take away the squares whose
//   level fails at once, and branch on the one with the fewest branches left;
// the branches of a node partition its solutions, so enumerating and counting are exact.
// Empty board = 1 node, each queen placed = 1 node (as backtrack.ts), and each level the
// lookahead builds = 1 node.
//
// param (mode): 0 stop at the first solution (solve); 1 stop at each solution, the
// next run goes on (enumeration); 2 count every solution without stopping.
// Search kernel exports as assembly/backtrack.ts; completeSolutions() the solutions met.

import { allocate } from "./memory";
import { allowedMask } from "./constraints";
import { wideInit, wideRun, wideSolutions, wideNodes } from "./complete-wide";
import { diagonalsFeasible, diagonalsForbidden, boundsPay } from "./diagonal-bounds";
import { colourForbidden } from "./colour-bounds";
import { EVEN_BITS, indexSum, squareSum } from "./bit-sums";
import { RUNNING, FOUND, EXHAUSTED, MAX_NODES, STAT_WORK, STAT_NODES, STAT_TRIES, STAT_CONFLICTS, PHASE_SEARCH, STAT_PHASE } from "./status";

const FAIL: i32 = 0;
const OPEN: i32 = 1;
const SOLVED: i32 = 2;
const BY_ROW: i32 = 0;
const BY_COLUMN: i32 = 1;
/** Bit of param asking for the wide path (complete-wide.ts) at any n: tests compare the two paths with it. */
const WIDE: i32 = 8;
/** Largest n of the 64-bit path; past it the wide path runs. */
const NARROW_MAX_N: i32 = 64;

let wide: bool = false;

// Solve mode's portfolio (n <= 64): the 64-bit search alone for its first PORTFOLIO_START
// nodes (every board it decides by then is answered exactly as before), then slices of
// NARROW_SLICE nodes of it taking turns with slices of WIDE_SLICE nodes of the wide
// path's restarting search (complete-wide.ts), equal shares in nodes: on Excluded
// Diagonals boards at n = 30 the restarting search finds the solutions in about a tenth
// of the 64-bit search's nodes, and the 64-bit one gives the proofs (measured: equal
// shares against one wide node in nine took the slowest solvable d = 28 and d = 32 boards
// from 22.8M / 19.4M nodes to 5.3M / 4.5M, and the slowest proof at d = 36 from 10.6M nodes
// to 18.7M). Past SHARES_HALVE nodes in all the 64-bit search's slices grow with the total
// (NARROW_SLICE * total / SHARES_HALVE), so the wide search's share halves each time the
// total doubles: its finds came within 2.5M of its nodes on every board measured, and the
// long runs are the 64-bit search's proofs and late finds (d = 36 seed 4, d = 32 seed 1),
// which equal shares took twice as long (the point moved from 2^23 to 2^22 with the rotating
// restarts: d = 36 seed 4's proof 35.25M -> 31.19M nodes, the finds of 11 solvable n = 30
// boards and of n = 32, d = 34, seed 3 the same or within 2%). Either one's solution is the
// answer, and either one's exhausted tree a proof; nodes are the sum of both.
const PORTFOLIO_START: f64 = 262144;
const NARROW_SLICE: f64 = 65536;
const WIDE_SLICE: f64 = 65536;
const SHARES_HALVE: f64 = 4194304;
/** Bit of param (tests): the portfolio's four figures above 64 times smaller, so a small run takes every turn of it. */
const PORTFOLIO_SMALL: i32 = 1024;
/**
 * complete-wide.ts's ROTATE, asked for by the portfolio: the restarting search's restarts cycle
 * through the root's first branches (on n = 30, d = 32, seed 1, where the restarting search alone
 * had met no solution in 3 * 10^7 nodes, it found one in 155,151 alone and solve in 548,393).
 */
const WIDE_ROTATE: i32 = 2048;
let portfolioScale: f64 = 1;
/** Bit of param keeping solve mode on the 64-bit search alone (no portfolio). */
const PLAIN: i32 = 16;
let portfolio: bool = false;
/** Bit of param turning the diagonal bounds (diagonal-bounds.ts) off, on both paths (for measurements). */
const NO_BOUNDS: i32 = 64;
let bounds: bool = true;
/** Bit of param turning the per-colour bounds (colour-bounds.ts) off, on both paths (for measurements). */
const NO_COLOUR_BOUNDS: i32 = 128;
let colourBounds: bool = true;
let usable: usize = 0; // u64[4]: the usable sum diagonals (2 words), then difference diagonals c - r + n - 1
let forbidden: usize = 0; // u64[4]: as usable, the diagonals filtering takes away
/** Filtering (diagonalsForbidden, and colourForbidden with the per-colour bounds): solve mode only, so counting and enumeration walk the wide path's tree. */
let filtering: bool = false;
/** Bit of param turning solve's lookahead (lookAhead) off (for measurements). */
const NO_LOOKAHEAD: i32 = 256;
/** Bit of param (tests): solve's lookahead at every level, whatever the rows left, so that small boards take it too. */
const LOOKAHEAD_ALWAYS: i32 = 512;
/** The deepest level with solve's lookahead (-1: none; it runs where filtering is on), and the fewest rows left it takes. */
let lookaheadDepth: i32 = -1;
let lookaheadRows: i32 = 0;
/** The portfolio's lookaheadDepth for the 64-bit search's second start (-1: none or started). */
let deferredLookahead: i32 = -1;
/**
 * lookAhead's candidates: rows and columns with at most this many squares more than build's
 * choice (2 against 1, measured on proofs with the 64-bit search alone: n = 30, d = 36, seed 4
 * 27.4M -> 22.9M nodes; n = 28 and 26 boards 1.2 to 6.5 times fewer but one, 28.4k -> 37.2k;
 * 3 took d = 36 seed 4 to 28.0M).
 */
const LOOKAHEAD_SLACK: i32 = 2;
/**
 * lookAhead runs on the nodes with at least LOOKAHEAD_ROWS rows left, down to LOOKAHEAD_LEVELS
 * levels below the given queens: where the subtrees are large enough to repay its builds
 * (measured on Excluded Diagonals boards: n = 30 gains down to level 8 and loses below it, n = 28
 * gains down to level 6, n = 22 loses below level 4).
 */
const LOOKAHEAD_LEVELS: i32 = 8;
const LOOKAHEAD_ROWS: i32 = 22;
/** lookAhead's rounds at one node, at most (each builds at most 2n * n levels). */
const LOOKAHEAD_ROUNDS: i32 = 8;
/** build's count of the open squares of the rows left at its last node (i32.MAX_VALUE when solved), for lookAhead's order. */
let builtOpen: i32 = 0;
// survivors' scores (builtOpen) per branch, and those of lookAhead's best so far: i32[64] each.
const SCORES: usize = memory.data(256, 16);
const BEST_SCORES: usize = memory.data(256, 16);
let order: usize = 0; // u8[(n + 1) * 64]: level d's branches in lookAhead's order, from (d << 6)
let orderPos: usize = 0; // i32[n + 1]: the next of them to try (-1: no order, lowest first)
// build's bit planes of the column takers at its last open node, for lookAhead.
let planes0: u64 = 0;
let planes1: u64 = 0;
let planes2: u64 = 0;
let planesExact: u64 = 0;
// boundsHold's figures of the node, for the filtering.
let nodeLeft: i32 = 0;
let nodeSum: f64 = 0;
let nodeDiff: f64 = 0;
let nodeMoment: f64 = 0;
let wideReady: bool = false;
let wideCols: usize = 0;
let turn: i32 = 0; // 0: the 64-bit search's slice, 1: the wide search's
let turnEnd: f64 = 0; // in nodes of both
let settled: i32 = -1; // the portfolio's final status once FOUND or EXHAUSTED
let portfolioCap: f64 = 0; // maxNodes over both searches

let size: i32 = 0;
let mode: i32 = 0;
let depth: i32 = 0;
let nodes: f64 = 0;
let maxNodes: f64 = 0;
let solutions: u64 = 0;
let found: bool = false;
let avail: usize = 0; // u64[(n + 1) * n]: level d's open columns of row r at (d * n + r)
let rowsLeft: usize = 0; // u64[n + 1]
let colsLeft: usize = 0; // u64[n + 1]
let kind: usize = 0; // i32[n + 1]: BY_ROW or BY_COLUMN
let index: usize = 0; // i32[n + 1]: the row (BY_ROW) or column (BY_COLUMN) branched on
let rest: usize = 0; // u64[n + 1]: branches not yet tried (columns, or rows)
let cols: usize = 0; // i32[n]

@inline function at64(base: usize, i: i32): usize {
  return base + (<usize>i << 3);
}

@inline function at32(base: usize, i: i32): usize {
  return base + (<usize>i << 2);
}

@inline function bitIf(p: i32): u64 {
  return <u32>p < <u32>size ? <u64>1 << <u64>p : 0;
}

/** The free columns exactly k rows can take (1 <= k <= 7), from build's bit planes of the takers. */
@inline function takenBy(k: i32, b0: u64, b1: u64, b2: u64, exact: u64): u64 {
  return exact & ((k & 1) != 0 ? b0 : ~b0) & ((k & 2) != 0 ? b1 : ~b1) & ((k & 4) != 0 ? b2 : ~b2);
}

/** The rows of `rows` that can take column cc at the level whose masks start at `to`. */
function takersOf(to: usize, rows: u64, cc: i32): u64 {
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

/** Level dst from level src with a queen at (r, c) (r < 0: none, src = dst); then the branch of dst, with solve's lookahead where it is on. */
function expand(src: i32, dst: i32, r: i32, c: i32): i32 {
  const result = build(src, dst, r, c);
  store<i32>(at32(orderPos, dst), -1);
  return result == OPEN && dst <= lookaheadDepth && <i32>popcnt<u64>(load<u64>(at64(rowsLeft, dst))) >= lookaheadRows ? lookAhead(dst) : result;
}

/** Level dst from level src with a queen at (r, c) (r < 0: none, src = dst); then the branch of dst by the fewest squares. */
function build(src: i32, dst: i32, r: i32, c: i32): i32 {
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

/** survivors' open squares of the rows left, summed over the branches that build (i64: a solved level counts i32.MAX_VALUE). */
let survivorsOpen: i64 = 0;

/** The branches of (kind, at) among `values` whose level builds (the others fail at once); each build is a node. */
function survivors(dst: i32, byRow: bool, at: i32, values: u64): u64 {
  let alive: u64 = 0;
  let open: i64 = 0;
  let x = values;
  while (x != 0) {
    const v = <i32>ctz<u64>(x);
    x &= x - 1;
    nodes++;
    if (byRow ? build(dst, dst + 1, at, v) != FAIL : build(dst, dst + 1, v, at) != FAIL) {
      alive |= <u64>1 << <u64>v;
      store<i32>(SCORES + (<usize>v << 2), builtOpen);
      open += <i64>builtOpen;
    }
  }
  survivorsOpen = open;
  return alive;
}

// lookAhead's choice so far.
let bestKind: i32 = 0;
let bestIndex: i32 = 0;
let bestRest: u64 = 0;
let bestCount: i32 = 0;
let bestOpen: i64 = 0;
let pruned: bool = false;

/** lookAhead on one row (byRow) or column `at` whose branches are `values` at level dst: false if none survives. */
function consider(dst: i32, byRow: bool, at: i32, values: u64): bool {
  const alive = survivors(dst, byRow, at, values);
  if (alive == 0) return false;
  if (alive != values) {
    // Its dead squares go (each one's level failed at once).
    const to = avail + (<usize>(dst * size) << 3);
    if (byRow) {
      store<u64>(to + (<usize>at << 3), alive);
    } else {
      const cut = ~(<u64>1 << <u64>at);
      let x = values & ~alive;
      while (x != 0) {
        const y = <i32>ctz<u64>(x);
        x &= x - 1;
        const where = to + (<usize>y << 3);
        store<u64>(where, load<u64>(where) & cut);
      }
    }
    pruned = true;
  }
  // The fewest branches; among as few, the fewest open squares left in all (the most
  // constrained children: on n = 30, d = 36, seed 4 the proof 13% smaller, and the finds of
  // the solvable n = 30 boards 1.7 times fewer nodes in all).
  const k = <i32>popcnt<u64>(alive);
  if (k < bestCount || (k == bestCount && survivorsOpen < bestOpen)) {
    bestCount = k;
    bestOpen = survivorsOpen;
    bestKind = byRow ? BY_ROW : BY_COLUMN;
    bestIndex = at;
    bestRest = alive;
    memory.copy(BEST_SCORES, SCORES, 256);
  }
  return true;
}

/**
 * The order lookAhead's branches at level dst are tried in: the most open squares left first
 * (least constraining, as the wide path's order; a level that is solved first of all), ties
 * lowest first. The order only moves solutions earlier or later: the subtree of a branch does
 * not depend on when it is visited, so a proof takes the same nodes.
 */
function orderBranches(dst: i32, values: u64): void {
  const list = order + (<usize>(dst << 6));
  let k: i32 = 0;
  let x = values;
  while (x != 0) {
    const v = <i32>ctz<u64>(x);
    x &= x - 1;
    const score = load<i32>(BEST_SCORES + (<usize>v << 2));
    let i = k;
    while (i > 0) {
      const u = <i32>load<u8>(list + <usize>(i - 1));
      if (load<i32>(BEST_SCORES + (<usize>u << 2)) >= score) break;
      store<u8>(list + <usize>i, <u8>u);
      i--;
    }
    store<u8>(list + <usize>i, <u8>v);
    k++;
  }
  store<i32>(at32(orderPos, dst), 0);
}

/**
 * Solve's lookahead near the root (levels up to lookaheadDepth, on the boards with filtering):
 * every row and free column with at most LOOKAHEAD_SLACK more squares than the branch build
 * chose has each of its branches built; a square whose level fails at once goes, and when some
 * went the level is built again and looked at again (LOOKAHEAD_ROUNDS at most); a row or column
 * with no branch left fails the node; else the node branches on the one with the fewest branches,
 * among as few the one whose branches leave the fewest open squares in all (then the first met:
 * build's choice, then rows, then columns, lowest first), tried in orderBranches' order. Level dst + 1 is scratch until the search goes down.
 */
function lookAhead(dst: i32): i32 {
  const to = avail + (<usize>(dst * size) << 3);
  let rounds: i32 = 0;
  while (true) {
    const rows = load<u64>(at64(rowsLeft, dst));
    const chosenKind = load<i32>(at32(kind, dst));
    const chosen = load<i32>(at32(index, dst));
    const values = load<u64>(at64(rest, dst));
    // Saved before the builds below overwrite them.
    const b0 = planes0, b1 = planes1, b2 = planes2, exact = planesExact;
    const limit = <i32>popcnt<u64>(values) + LOOKAHEAD_SLACK;
    bestCount = 65;
    pruned = false;
    if (!consider(dst, chosenKind == BY_ROW, chosen, values)) return FAIL;
    let x = rows;
    while (x != 0) {
      const y = <i32>ctz<u64>(x);
      x &= x - 1;
      if (chosenKind == BY_ROW && y == chosen) continue;
      const a = load<u64>(to + (<usize>y << 3));
      if (<i32>popcnt<u64>(a) <= limit && !consider(dst, true, y, a)) return FAIL;
    }
    // Free columns with at most `limit` takers: from build's bit planes up to 7 (exact there),
    // else every free column's takers counted (build's planes stop at 7, and near the root a
    // column with 8 or more takers can be the fewest branches: n = 30, d = 36, seed 4's root).
    let columns: u64 = 0;
    if (limit < 8) {
      for (let k = 1; k <= limit; k++) columns |= takenBy(k, b0, b1, b2, exact);
    } else {
      columns = load<u64>(at64(colsLeft, dst));
    }
    while (columns != 0) {
      const cc = <i32>ctz<u64>(columns);
      columns &= columns - 1;
      if (chosenKind == BY_COLUMN && cc == chosen) continue;
      const takers = takersOf(to, rows, cc);
      if (takers != 0 && <i32>popcnt<u64>(takers) <= limit && !consider(dst, false, cc, takers)) return FAIL;
    }
    if (!pruned) {
      store<i32>(at32(kind, dst), bestKind);
      store<i32>(at32(index, dst), bestIndex);
      store<u64>(at64(rest, dst), bestRest);
      orderBranches(dst, bestRest);
      return OPEN;
    }
    const result = build(dst, dst, -1, -1);
    if (result != OPEN) return result;
    // Bounded work a node (abort and timeouts are checked between nodes): after LOOKAHEAD_ROUNDS
    // rounds that took squares away, the node keeps build's choice (6 rounds at most were seen).
    if (++rounds == LOOKAHEAD_ROUNDS) return OPEN;
  }
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

/** Allocate and reset for an n x n board (n <= 64 here, any n on the wide path) under the constraints of constraints.ts; the columns buffer, 0 if out of memory. */
export function completeInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  wide = n > NARROW_MAX_N || (param & WIDE) != 0;
  if (wide) return wideInit(n, param & ~WIDE, nodeCap);
  size = n;
  mode = param & 3;
  wideReady = false;
  turn = 0;
  portfolioScale = (param & PORTFOLIO_SMALL) != 0 ? 1.0 / 64 : 1;
  turnEnd = PORTFOLIO_START * portfolioScale;
  settled = -1;
  portfolioCap = nodeCap;
  nodes = 1; // the empty board
  solutions = 0;
  found = false;
  const levels = <usize>(n + 1);
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
  if (order == 0 || orderPos == 0 || usable == 0 || forbidden == 0 || avail == 0 || rowsLeft == 0 || colsLeft == 0 || kind == 0 || index == 0 || rest == 0 || cols == 0) return 0;
  const full: u64 = n == 64 ? ~(<u64>0) : ((<u64>1 << <u64>n) - 1);
  for (let r = 0; r < n; r++) {
    store<i32>(at32(cols, r), -1);
    store<u64>(at64(avail, r), allowedMask(r, n));
  }
  store<u64>(rowsLeft, full);
  store<u64>(colsLeft, full);
  // The diagonal bounds, and solve's portfolio, only on boards where the bounds pay (boundsPay).
  bounds = (param & NO_BOUNDS) == 0 && rootPays();
  colourBounds = (param & NO_COLOUR_BOUNDS) == 0;
  filtering = bounds && mode == 0;
  let reach: i32 = -1;
  lookaheadRows = (param & LOOKAHEAD_ALWAYS) != 0 ? 0 : LOOKAHEAD_ROWS;
  if ((param & LOOKAHEAD_ALWAYS) != 0 && filtering) {
    reach = n;
  } else if (filtering && (param & NO_LOOKAHEAD) == 0) {
    reach = LOOKAHEAD_LEVELS; // and one level more for each given queen (a row with one square), placed first
    for (let y = 0; y < n; y++) if (popcnt<u64>(load<u64>(at64(avail, y))) == 1) reach++;
  }
  portfolio = bounds && mode == 0 && (param & PLAIN) == 0;
  // In the portfolio the 64-bit search takes its first PORTFOLIO_START nodes without the
  // lookahead, then starts again from the root with it (narrowWithLookahead).
  lookaheadDepth = portfolio ? -1 : reach;
  deferredLookahead = portfolio ? reach : -1;
  maxNodes = portfolio ? Infinity : nodeCap;
  depth = expand(0, 0, -1, -1) == OPEN ? 0 : -1;
  return cols;
}

/** Search until a solution (modes 0, 1), exhaustion, maxNodes, or `workLimit` nodes in all; the status. */
export function completeRun(workLimit: f64): i32 {
  if (wide) return wideRun(workLimit);
  if (portfolio) return portfolioRun(workLimit);
  return narrowRun(workLimit);
}

/** Nodes of both searches (the wide one's empty board not counted again). */
function portfolioNodes(): f64 {
  return wideReady ? nodes + wideNodes() - 1 : nodes;
}

function portfolioRun(workLimit: f64): i32 {
  while (true) {
    if (settled >= 0) return settled;
    const total = portfolioNodes();
    if (total >= portfolioCap) return MAX_NODES;
    if (total >= workLimit) return RUNNING;
    let stop = turnEnd < workLimit ? turnEnd : workLimit;
    if (portfolioCap < stop) stop = portfolioCap;
    if (turn == 0) {
      const status = narrowRun(nodes + (stop - total));
      if (status == FOUND || status == EXHAUSTED) {
        settled = status;
        continue;
      }
      if (portfolioNodes() < turnEnd) continue;
      if (deferredLookahead >= 0 && !narrowWithLookahead()) {
        settled = EXHAUSTED;
        continue;
      }
      if (!wideReady) {
        wideCols = wideInit(size, WIDE_ROTATE | (bounds ? 0 : NO_BOUNDS) | (colourBounds ? 0 : NO_COLOUR_BOUNDS), Infinity);
        if (wideCols == 0) {
          turnEnd = Infinity; // no memory for it: the 64-bit search alone
          continue;
        }
        wideReady = true;
      }
      turn = 1;
      turnEnd = portfolioNodes() + WIDE_SLICE * portfolioScale;
    } else {
      const status = wideRun(wideNodes() + (stop - total));
      if (status == FOUND) {
        memory.copy(cols, wideCols, <usize>size << 2);
        solutions = 1;
        settled = FOUND;
        continue;
      }
      if (status == EXHAUSTED) {
        settled = EXHAUSTED;
        continue;
      }
      if (portfolioNodes() < turnEnd) continue;
      turn = 0;
      const sum = portfolioNodes();
      const halve = SHARES_HALVE * portfolioScale, slice = NARROW_SLICE * portfolioScale;
      turnEnd = sum + (sum > halve ? Math.floor(slice * sum / halve) : slice);
    }
  }
}

/**
 * The portfolio's 64-bit search starts again from the root with the lookahead, once its first
 * PORTFOLIO_START nodes without it have not decided the board: boards it decides by then are
 * answered as without the lookahead (on solvable ones its other branching can take many times
 * the nodes to the first solution: n = 26, Excluded Diagonals d = 30, seed 2, 61,420 nodes
 * without, 187,011 with), the others get the lookahead's proofs. Nodes go on counting; level 0
 * is the root's (filtered) level, so the new tree is the one a search with the lookahead from the
 * start walks. False when the root fails (the board has no solution).
 */
function narrowWithLookahead(): bool {
  lookaheadDepth = deferredLookahead;
  deferredLookahead = -1;
  depth = expand(0, 0, -1, -1) == OPEN ? 0 : -1;
  return depth == 0;
}

function narrowRun(workLimit: f64): i32 {
  while (true) {
    if (found) return FOUND;
    if (depth < 0) return EXHAUSTED;
    if (nodes >= maxNodes) return MAX_NODES;
    if (nodes >= workLimit) return RUNNING;
    const left = load<u64>(at64(rest, depth));
    if (left == 0) {
      depth--;
      continue;
    }
    let b: i32;
    const pos = load<i32>(at32(orderPos, depth));
    if (pos >= 0) { // lookAhead's order, else lowest first
      b = <i32>load<u8>(order + (<usize>(depth << 6)) + <usize>pos);
      store<i32>(at32(orderPos, depth), pos + 1);
    } else {
      b = <i32>ctz<u64>(left);
    }
    store<u64>(at64(rest, depth), left & ~(<u64>1 << <u64>b));
    let r: i32, c: i32;
    if (load<i32>(at32(kind, depth)) == BY_ROW) {
      r = load<i32>(at32(index, depth));
      c = b;
    } else {
      c = load<i32>(at32(index, depth));
      r = b;
    }
    nodes++;
    store<i32>(at32(cols, r), c);
    const result = expand(depth, depth + 1, r, c);
    if (result == OPEN) {
      depth++;
    } else if (result == SOLVED) {
      solutions++;
      if (mode == 0) found = true;
      if (mode != 2) return FOUND;
    }
  }
}

/** The solutions met so far (every solution, in mode 2 once the run is EXHAUSTED). */
export function completeSolutions(): u64 {
  return wide ? wideSolutions() : solutions;
}

/** The figures of the search: work and nodes are the same count; one try, no steps. */
export function completeStat(slot: i32): f64 {
  if (slot == STAT_WORK || slot == STAT_NODES) return wide ? wideNodes() : portfolio ? portfolioNodes() : nodes;
  if (slot == STAT_TRIES) return 1;
  if (slot == STAT_CONFLICTS) return -1;
  if (slot == STAT_PHASE) return PHASE_SEARCH;
  return 0;
}
