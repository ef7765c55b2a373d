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
// The rooms: this file, the search's walk (narrowRun) and the kernel's entry points, which pick
// the path; complete-state.ts, the 64-bit search's state and build (a level from its parent);
// complete-lookahead.ts, solve's lookahead; complete-portfolio.ts, solve's portfolio of the
// 64-bit search and the wide path's restarting one, with complete-estimate.ts, the estimate of the
// 64-bit tree that sets its shares; complete-wide.ts, the wide path. Each
// imports only files below it (state at the bottom), so none imports this one.
//
// param (mode): 0 stop at the first solution (solve); 1 stop at each solution, the
// next run goes on (enumeration); 2 count every solution without stopping.
// Search kernel exports as assembly/backtrack.ts; completeSolutions() the solutions met.

import { wideInit, wideRun, wideSolutions, wideNodes } from "./complete-wide";
import {
  holdNeeded, OPEN, SOLVED, rowOf, columnOf, nodes, solutions, avail, rowsLeft, kind, index, rest, cols, order, orderPos, bounds, colourBounds, filtering,
  at32, at64, build, countNode, countSolution, stateInit,
} from "./complete-state";
import { allocate } from "./memory";
import { LOOKAHEAD_LEVELS, LOOKAHEAD_ROWS, lookAhead } from "./complete-lookahead";
import { portfolioInit, portfolioNodes, portfolioRun, portfolioSolutions } from "./complete-portfolio";
import { RUNNING, FOUND, EXHAUSTED, MAX_NODES, STAT_WORK, STAT_NODES, STAT_TRIES, STAT_CONFLICTS, PHASE_SEARCH, STAT_PHASE } from "./status";

/** Bit of param asking for the wide path (complete-wide.ts) at any n: tests compare the two paths with it. */
const WIDE: i32 = 8;
/** Largest n of the 64-bit path; past it the wide path runs. */
const NARROW_MAX_N: i32 = 64;

let wide: bool = false;

/** Bit of param (tests): the portfolio's four figures (complete-portfolio.ts) 64 times smaller, so a small run takes every turn of it. */
const PORTFOLIO_SMALL: i32 = 1024;
/**
 * complete-wide.ts's ROTATE, asked for by the portfolio: the restarting search's restarts cycle
 * through the root's first branches (on n = 30, d = 32, seed 1, where the restarting search alone
 * had met no solution in 3 * 10^7 nodes, it found one in 155,151 alone and solve in 548,393).
 */
const WIDE_ROTATE: i32 = 2048;
/** Bit of param keeping solve mode on the 64-bit search alone (no portfolio). */
const PLAIN: i32 = 16;
let portfolio: bool = false;
/** Bit of param turning the diagonal bounds (diagonal-bounds.ts) off, on both paths (for measurements). */
const NO_BOUNDS: i32 = 64;
/** Bit of param turning the per-colour bounds (colour-bounds.ts) off, on both paths (for measurements). */
const NO_COLOUR_BOUNDS: i32 = 128;
/** Bit of param turning solve's lookahead (lookAhead) off (for measurements). */
const NO_LOOKAHEAD: i32 = 256;
/** Bit of param (tests): solve's lookahead at every level, whatever the rows left, so that small boards take it too. */
const LOOKAHEAD_ALWAYS: i32 = 512;
/** Bit of param turning solve's needed diagonals (colour-bounds.ts colourMandatory) off as lines to branch on (for measurements). */
const NO_NEEDED: i32 = 4096;
/** The deepest level with solve's lookahead (-1: none; it runs where filtering is on), and the fewest rows left it takes. */
let lookaheadDepth: i32 = -1;
let lookaheadRows: i32 = 0;
/** The portfolio's lookaheadDepth for the 64-bit search's second start (-1: none or started). */
let deferredLookahead: i32 = -1;

let mode: i32 = 0;
let depth: i32 = 0;
/** i32[1 + 2 * (n + 64)]: completeSplit's answer (0 on the wide path). */
let splitOut: usize = 0;
let maxNodes: f64 = 0;
let found: bool = false;

/** Level dst from level src with a queen at (r, c) (r < 0: none, src = dst); then the branch of dst, with solve's lookahead where it is on. */
function expand(src: i32, dst: i32, r: i32, c: i32): i32 {
  const result = build(src, dst, r, c);
  store<i32>(at32(orderPos, dst), -1);
  return result == OPEN && dst <= lookaheadDepth && <i32>popcnt<u64>(load<u64>(at64(rowsLeft, dst))) >= lookaheadRows ? lookAhead(dst) : result;
}

/** Allocate and reset for an n x n board (n <= 64 here, any n on the wide path) under the constraints of constraints.ts; the columns buffer, 0 if out of memory. */
export function completeInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  wide = n > NARROW_MAX_N || (param & WIDE) != 0;
  splitOut = 0;
  if (wide) return wideInit(n, param & ~WIDE, nodeCap);
  mode = param & 3;
  found = false;
  portfolio = false; // (set once the root is made)
  // The diagonal bounds, and solve's portfolio, only on boards where the bounds pay (boundsPay).
  if (!stateInit(n, (param & NO_BOUNDS) == 0, (param & NO_COLOUR_BOUNDS) == 0, mode == 0, (param & NO_NEEDED) == 0)) return 0;
  splitOut = allocate(<usize>(1 + 2 * (n + 64)) << 2);
  if (splitOut == 0) return 0;
  let reach: i32 = -1;
  lookaheadRows = (param & LOOKAHEAD_ALWAYS) != 0 ? 0 : LOOKAHEAD_ROWS;
  if ((param & LOOKAHEAD_ALWAYS) != 0 && filtering) {
    reach = n;
  } else if (filtering && (param & NO_LOOKAHEAD) == 0) {
    reach = LOOKAHEAD_LEVELS; // and one level more for each given queen (a row with one square), placed first
    for (let y = 0; y < n; y++) if (popcnt<u64>(load<u64>(at64(avail, y))) == 1) reach++;
  }
  portfolio = bounds && mode == 0 && (param & PLAIN) == 0;
  portfolioInit(nodeCap, (param & PORTFOLIO_SMALL) != 0, WIDE_ROTATE | (bounds ? 0 : NO_BOUNDS) | (colourBounds ? 0 : NO_COLOUR_BOUNDS));
  // In the portfolio the 64-bit search takes its first PORTFOLIO_START nodes without the
  // lookahead, then starts again from the root with it (narrowWithLookahead).
  lookaheadDepth = portfolio ? -1 : reach;
  deferredLookahead = portfolio ? reach : -1;
  holdNeeded(deferredLookahead >= 0); // the needed diagonals start with the lookahead
  maxNodes = portfolio ? Infinity : nodeCap;
  depth = expand(0, 0, -1, -1) == OPEN ? 0 : -1;
  return cols;
}

/** Search until a solution (modes 0, 1), exhaustion, maxNodes, or `workLimit` nodes in all; the status. */
export function completeRun(workLimit: f64): i32 {
  if (wide) return wideRun(workLimit);
  if (portfolio) return portfolioRun(workLimit, narrowRun, narrowWithLookahead);
  return narrowRun(workLimit);
}

/**
 * The portfolio's 64-bit search starts again from the root with the lookahead, once its first
 * PORTFOLIO_START nodes without it have not decided the board: boards it decides by then are
 * answered as without the lookahead (on solvable ones its other branching can take many times
 * the nodes to the first solution: n = 26, Excluded Diagonals d = 30, seed 2, 61,420 nodes
 * without, 187,011 with), the others get the lookahead's proofs, and the needed diagonals
 * (complete-state.ts holdNeeded) with it. Nodes go on counting; level 0
 * is the root's (filtered) level, so the new tree is the one a search with the lookahead from the
 * start walks. False when the root fails (the board has no solution); true, and nothing done,
 * when there is no lookahead to start or it has started.
 */
function narrowWithLookahead(): bool {
  if (deferredLookahead < 0) return true;
  lookaheadDepth = deferredLookahead;
  deferredLookahead = -1;
  holdNeeded(false);
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
    const lineKind = load<i32>(at32(kind, depth)), line = load<i32>(at32(index, depth));
    const r = rowOf(lineKind, line, b), c = columnOf(lineKind, line, b);
    countNode();
    store<i32>(at32(cols, r), c);
    const result = expand(depth, depth + 1, r, c);
    if (result == OPEN) {
      depth++;
    } else if (result == SOLVED) {
      countSolution();
      if (mode == 0) found = true;
      if (mode != 2) return FOUND;
    }
  }
}

/**
 * Gives away the untried branches at the shallowest open level of the 64-bit search's stack
 * (solve's tasks shared between threads): at a level below the one being searched, all of
 * them (the search keeps the branch it is in); at that level itself, all but the next one it
 * tries (two or more left). The search then skips them: its remaining tree and the sub-boards
 * given away (the path's queens and one branch's square each) partition its solutions, as the
 * branches of a node do. At splitOut: the path's length p (the queens placed at levels 0..p-1,
 * p the level split), then p [row, col] pairs, then the branches' [row, col] pairs in the
 * order the search would have tried them. Returns how many branches (0: none; and always 0 in
 * the portfolio, on the wide path, and once decided). Called between runs only.
 */
export function completeSplit(): i32 {
  if (wide || portfolio || found || depth < 0) return 0;
  let d = 0;
  while (d <= depth && load<u64>(at64(rest, d)) == 0) d++;
  if (d > depth) return 0;
  const left = load<u64>(at64(rest, d));
  const pos = load<i32>(at32(orderPos, d));
  let give = left;
  if (d == depth) {
    if (popcnt<u64>(left) < 2) return 0;
    const next = pos >= 0 ? <i32>load<u8>(order + (<usize>(d << 6)) + <usize>pos) : <i32>ctz<u64>(left);
    give &= ~(<u64>1 << <u64>next);
    store<u64>(at64(rest, d), <u64>1 << <u64>next);
    store<i32>(at32(orderPos, d), -1); // one branch left: lowest first is the order
  } else {
    store<u64>(at64(rest, d), 0);
  }
  store<i32>(splitOut, d);
  let out = splitOut + 4;
  for (let i = 0; i < d; i++) { // the queen that made level i + 1: the row it took, and its column
    const r = <i32>ctz<u64>(load<u64>(at64(rowsLeft, i)) & ~load<u64>(at64(rowsLeft, i + 1)));
    store<i32>(out, r);
    store<i32>(out + 4, load<i32>(at32(cols, r)));
    out += 8;
  }
  const lineKind = load<i32>(at32(kind, d));
  const line = load<i32>(at32(index, d));
  const m = <i32>popcnt<u64>(give);
  let next = pos;
  for (let i = 0; i < m; i++) {
    let b: i32;
    if (pos >= 0) { // lookAhead's order: the entries from pos that are given away
      do {
        b = <i32>load<u8>(order + (<usize>(d << 6)) + <usize>next);
        next++;
      } while (((give >> <u64>b) & 1) == 0 && next < 64);
    } else {
      b = <i32>ctz<u64>(give);
      give &= give - 1;
    }
    store<i32>(out, rowOf(lineKind, line, b));
    store<i32>(out + 4, columnOf(lineKind, line, b));
    out += 8;
  }
  return m;
}

/** Where completeSplit writes its answer. */
export function completeSplitOut(): usize {
  return splitOut;
}

/** The solutions met so far (every solution, in mode 2 once the run is EXHAUSTED). */
export function completeSolutions(): u64 {
  return wide ? wideSolutions() : portfolio ? portfolioSolutions() : solutions;
}

/** The figures of the search: work and nodes are the same count; one try, no steps. */
export function completeStat(slot: i32): f64 {
  if (slot == STAT_WORK || slot == STAT_NODES) return wide ? wideNodes() : portfolio ? portfolioNodes() : nodes;
  if (slot == STAT_TRIES) return 1;
  if (slot == STAT_CONFLICTS) return -1;
  if (slot == STAT_PHASE) return PHASE_SEARCH;
  return 0;
}
