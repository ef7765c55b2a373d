// Solve's lookahead near the root of the 64-bit complete search (complete.ts's expand calls
// lookAhead on the boards with filtering, at the levels up to its lookaheadDepth): every row,
// free column and needed diagonal near build's choice has each of its branches built, the squares whose level
// fails at once go, and the node branches on the one with the fewest branches left, tried in
// the order of the open squares they leave. The branches still partition the node's solutions,
// so a proof stays a proof; each level built here is a node. It works on the state of
// complete-state.ts and imports nothing of complete.ts. Twin: src/engine/ts/complete-lookahead.ts.

import {
  FAIL, OPEN, BY_ROW, BY_COLUMN, BY_SUM, BY_DIFF, size, avail, rowsLeft, colsLeft, kind, index, rest, order, orderPos,
  builtOpen, planes0, planes1, planes2, planesExact, needed, at32, at64, takenBy, takersOf, diagonalRows, rowOf, columnOf, build, countNode,
} from "./complete-state";

/**
 * lookAhead's candidates: rows, columns and needed diagonals with at most this many squares more than build's
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
export const LOOKAHEAD_LEVELS: i32 = 8;
export const LOOKAHEAD_ROWS: i32 = 22;
/** lookAhead's rounds at one node, at most (each builds at most 2n * n levels). */
const LOOKAHEAD_ROUNDS: i32 = 8;
// survivors' scores (builtOpen) per branch, and those of lookAhead's best so far: i32[64] each.
const SCORES: usize = memory.data(256, 16);
const BEST_SCORES: usize = memory.data(256, 16);

/** survivors' open squares of the rows left, summed over the branches that build (i64: a solved level counts i32.MAX_VALUE). */
let survivorsOpen: i64 = 0;

/** The branches of line (lineKind, at) among `values` whose level builds (the others fail at once); each build is a node. */
function survivors(dst: i32, lineKind: i32, at: i32, values: u64): u64 {
  let alive: u64 = 0;
  let open: i64 = 0;
  let x = values;
  while (x != 0) {
    const v = <i32>ctz<u64>(x);
    x &= x - 1;
    countNode();
    if (build(dst, dst + 1, rowOf(lineKind, at, v), columnOf(lineKind, at, v)) != FAIL) {
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

/** lookAhead on one line (lineKind, at): a row, a column or a needed diagonal, whose branches are `values` at level dst: false if none survives. */
function consider(dst: i32, lineKind: i32, at: i32, values: u64): bool {
  const alive = survivors(dst, lineKind, at, values);
  if (alive == 0) return false;
  if (alive != values) {
    // Its dead squares go (each one's level failed at once).
    const to = avail + (<usize>(dst * size) << 3);
    if (lineKind == BY_ROW) {
      store<u64>(to + (<usize>at << 3), alive);
    } else {
      let x = values & ~alive;
      while (x != 0) { // a column's or a diagonal's dead square, in row y
        const y = <i32>ctz<u64>(x);
        x &= x - 1;
        const where = to + (<usize>y << 3);
        store<u64>(where, load<u64>(where) & ~(<u64>1 << <u64>columnOf(lineKind, at, y)));
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
    bestKind = lineKind;
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
 * every row, free column and needed diagonal (complete-state.ts) with at most LOOKAHEAD_SLACK
 * more squares than the branch build chose has each of its branches built; a square whose level
 * fails at once goes, and when some went the level is built again and looked at again
 * (LOOKAHEAD_ROUNDS at most); a line with no branch left fails the node; else the node branches
 * on the one with the fewest branches, among as few the one whose branches leave the fewest open
 * squares in all (then the first met: build's choice, then rows, then columns, then the needed
 * sum and difference diagonals, lowest first), tried in orderBranches' order. Level dst + 1 is scratch until the search goes down.
 */
export function lookAhead(dst: i32): i32 {
  const to = avail + (<usize>(dst * size) << 3);
  let rounds: i32 = 0;
  while (true) {
    const rows = load<u64>(at64(rowsLeft, dst));
    const chosenKind = load<i32>(at32(kind, dst));
    const chosen = load<i32>(at32(index, dst));
    const values = load<u64>(at64(rest, dst));
    // Saved before the builds below overwrite them.
    const b0 = planes0, b1 = planes1, b2 = planes2, exact = planesExact;
    const sums0 = load<u64>(needed), sums1 = load<u64>(needed + 8), diffs0 = load<u64>(needed + 16), diffs1 = load<u64>(needed + 24);
    const limit = <i32>popcnt<u64>(values) + LOOKAHEAD_SLACK;
    bestCount = 65;
    pruned = false;
    if (!consider(dst, chosenKind, chosen, values)) return FAIL;
    let x = rows;
    while (x != 0) {
      const y = <i32>ctz<u64>(x);
      x &= x - 1;
      if (chosenKind == BY_ROW && y == chosen) continue;
      const a = load<u64>(to + (<usize>y << 3));
      if (<i32>popcnt<u64>(a) <= limit && !consider(dst, BY_ROW, y, a)) return FAIL;
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
      if (takers != 0 && <i32>popcnt<u64>(takers) <= limit && !consider(dst, BY_COLUMN, cc, takers)) return FAIL;
    }
    // The diagonals every completion needs with at most `limit` open squares, sums then
    // differences, lowest first (one with none left fails the node: it needs a queen).
    for (let w = 0; w < 4; w++) {
      let z = w == 0 ? sums0 : w == 1 ? sums1 : w == 2 ? diffs0 : diffs1;
      const lineKind = w < 2 ? BY_SUM : BY_DIFF;
      while (z != 0) {
        const k = (w & 1) * 64 + <i32>ctz<u64>(z);
        z &= z - 1;
        if (chosenKind == lineKind && k == chosen) continue;
        const on = diagonalRows(to, rows, lineKind, k);
        if (<i32>popcnt<u64>(on) <= limit && !consider(dst, lineKind, k, on)) return FAIL;
      }
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
