// What one try of the 'hybrid' method costs (seed 000's QueensLV(stopVegas) then
// Backtrack; Brassard & Bratley's success-rate table), in two ways.
//
// Monte Carlo (lasVegasTrials*): `trials` independent tries in a row from one
// seeded generator, each exactly as assembly/hybrid.ts makes a try (same safe-column
// lists, same draws, same backtracking over rows k..n-1, k = stopVegas), so try i
// here is try i of solve(n, { method: 'hybrid', stopVegas, seed }). A try's nodes:
// its empty board, plus every queen placed (random rows and backtracking).
// Per outcome it adds up the tries, their nodes and their nodes squared (f64, in
// try order). Arrays as in hybrid.ts, so any n; runs in chunks bounded by nodes.
//
// Exact (lasVegasExact*): the whole tree of random choices with its probabilities:
// a random row with d safe columns splits into d branches of probability 1/d each
// (a row with none ends the try, failed); at depth k the deterministic backtracking
// over rows k..n-1 decides success and adds its queens placed. It adds up, in depth-
// first order with columns increasing, the probability of success and of failure
// and the probability-weighted nodes of each. Bitboards: n <= 32 (src/ limits it far
// lower: the walk visits every node of the tree down to depth k).
// Twin: src/engine/ts/las-vegas-stats.ts.

import { allocate } from "./memory";
import { below, seedRandom } from "./rng";

// ---- Monte Carlo ----

/** Slots of lasVegasTrialsStat. */
const STAT_TRIES: i32 = 0;
const STAT_SUCCESSES: i32 = 1;
const STAT_SUCCESS_NODES: i32 = 2;
const STAT_SUCCESS_SQUARES: i32 = 3;
const STAT_FAILURE_NODES: i32 = 4;
const STAT_FAILURE_SQUARES: i32 = 5;
const STAT_WORK: i32 = 6;

let size: i32 = 0;
let stopVegas: i32 = 0;
let row: i32 = 0;
let trials: f64 = 0; // tries wanted
let tries: f64 = 0; // tries finished
let tryNodes: f64 = 0; // nodes of the try under way
let work: f64 = 0; // nodes of all tries so far
let successes: f64 = 0;
let successNodes: f64 = 0;
let successSquares: f64 = 0;
let failureNodes: f64 = 0;
let failureSquares: f64 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row (-1: none yet)
let safe: usize = 0; // i32[n]: the safe columns of the current random row
let colUsed: usize = 0; // u8[n]
let sumUsed: usize = 0; // u8[2n]: diagonal row + col
let diffUsed: usize = 0; // u8[2n]: diagonal row - col + n - 1

/** Reset for `count` tries on an n x n board with `param` random rows; returns 1, or 0 if out of memory. */
export function lasVegasTrialsInit(n: i32, seed: u32, param: i32, count: f64): i32 {
  size = n;
  stopVegas = param;
  trials = count;
  cols = allocate(<usize>n << 2);
  safe = allocate(<usize>n << 2);
  colUsed = allocate(<usize>n);
  sumUsed = allocate(<usize>n << 1);
  diffUsed = allocate(<usize>n << 1);
  if (cols == 0 || safe == 0 || colUsed == 0 || sumUsed == 0 || diffUsed == 0) return 0;
  memory.fill(cols, 0xFF, <usize>n << 2); // every row -1
  seedRandom(seed);
  row = 0;
  tries = 0;
  tryNodes = 1; // the empty board of the first try
  work = 1;
  successes = 0;
  successNodes = 0;
  successSquares = 0;
  failureNodes = 0;
  failureSquares = 0;
  return 1;
}

@inline function mark(r: i32, c: i32, v: u8): void {
  store<u8>(colUsed + <usize>c, v);
  store<u8>(sumUsed + <usize>(r + c), v);
  store<u8>(diffUsed + <usize>(r - c + size - 1), v);
}

/** Record the try under way, lift its queens, and start the next one if any is left. */
function endTry(success: bool): void {
  if (success) {
    successes++;
    successNodes += tryNodes;
    successSquares += tryNodes * tryNodes;
  } else {
    failureNodes += tryNodes;
    failureSquares += tryNodes * tryNodes;
  }
  tries++;
  for (let r = 0; r < row; r++) {
    const at = cols + (<usize>r << 2);
    mark(r, load<i32>(at), 0);
    store<i32>(at, -1);
  }
  row = 0;
  if (tries < trials) {
    tryNodes = 1; // the next try's empty board
    work++;
  }
}

/** Make tries until all are done (returns 1) or `workLimit` nodes in all (returns 0). */
export function lasVegasTrialsRun(workLimit: f64): i32 {
  while (true) {
    if (tries >= trials) return 1;
    if (row == size) { endTry(true); continue; }
    if (work >= workLimit) return 0;
    const at = cols + (<usize>row << 2);
    const sum = sumUsed + <usize>row;
    const diff = diffUsed + <usize>(row + size - 1);
    if (row < stopVegas) {
      // A random row, as in hybrid.ts.
      let count = 0;
      for (let c = 0; c < size; c++) {
        if ((load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) == 0) {
          store<i32>(safe + (<usize>count << 2), c);
          count++;
        }
      }
      if (count == 0) { endTry(false); continue; }
      const c = load<i32>(safe + (<usize>below(count) << 2));
      store<i32>(at, c);
      mark(row, c, 1);
      tryNodes++;
      work++;
      row++;
      continue;
    }
    // A backtracking row, as in hybrid.ts (rows below stopVegas are never revisited).
    let c = load<i32>(at);
    if (c >= 0) mark(row, c, 0); // lift the queen we come back to
    c++;
    while (c < size && (load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0) c++;
    if (c == size) {
      store<i32>(at, -1);
      if (row == stopVegas) { endTry(false); continue; }
      row--;
      continue;
    }
    store<i32>(at, c);
    mark(row, c, 1);
    tryNodes++;
    work++;
    row++;
  }
}

/** The sums so far (slots above). */
export function lasVegasTrialsStat(slot: i32): f64 {
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_SUCCESSES) return successes;
  if (slot == STAT_SUCCESS_NODES) return successNodes;
  if (slot == STAT_SUCCESS_SQUARES) return successSquares;
  if (slot == STAT_FAILURE_NODES) return failureNodes;
  if (slot == STAT_FAILURE_SQUARES) return failureSquares;
  if (slot == STAT_WORK) return work;
  return 0;
}

// ---- Exact ----

let full: u32 = 0;
let exactBlock: usize = 0; // i32[32] the task's columns, then f64[4] its sums
let btNodes: f64 = 0; // queens placed by the backtracking of the leaf under way
let pSuccess: f64 = 0;
let pFailure: f64 = 0;
let wSuccessNodes: f64 = 0;
let wFailureNodes: f64 = 0;

/**
 * Reset for an n x n board with `param` random rows; returns a block of i32[32] the
 * task's columns (bytes 0..127) then f64[4] its sums (bytes 128..159); 0 if out of memory.
 */
export function lasVegasExactInit(n: i32, param: i32): usize {
  size = n;
  stopVegas = param;
  full = n == 32 ? 0xFFFFFFFF : ((<u32>1 << n) - 1);
  exactBlock = allocate(160);
  btNodes = 0;
  pSuccess = 0;
  pFailure = 0;
  wSuccessNodes = 0;
  wFailureNodes = 0;
  return exactBlock;
}

/** First-solution backtracking from `r` (columns increasing); adds its queens placed to btNodes. */
function firstSolution(r: i32, cols: u32, left: u32, right: u32): bool {
  if (r == size) return true;
  let avail = ~(cols | left | right) & full;
  while (avail != 0) {
    const bit = avail & (0 - avail);
    avail ^= bit;
    btNodes++;
    if (firstSolution(r + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1)) return true;
  }
  return false;
}

/** The random rows from `r` on, reached with probability `w`. */
function walk(r: i32, cols: u32, left: u32, right: u32, w: f64): void {
  if (r == stopVegas) {
    btNodes = 0;
    const found = firstSolution(r, cols, left, right);
    const nodes = <f64>(1 + r) + btNodes; // the empty board, r random queens, the backtracking's
    if (found) {
      pSuccess += w;
      wSuccessNodes += w * nodes;
    } else {
      pFailure += w;
      wFailureNodes += w * nodes;
    }
    return;
  }
  let avail = ~(cols | left | right) & full;
  const d = popcnt<u32>(avail);
  if (d == 0) {
    pFailure += w;
    wFailureNodes += w * <f64>(1 + r);
    return;
  }
  const branch = w / <f64>d;
  while (avail != 0) {
    const bit = avail & (0 - avail);
    avail ^= bit;
    walk(r + 1, cols | bit, (left | bit) << 1, (right | bit) >> 1, branch);
  }
}

/**
 * The tries that begin with the consistent placement of random rows 0..depth-1
 * (depth <= stopVegas) written at the columns buffer, taking that start as given
 * (probability 1): writes [P(success), P(failure), E(nodes; success), E(nodes; failure)]
 * (the last two are probability-weighted sums, not yet divided) at bytes 128..159.
 */
export function lasVegasExactTask(depth: i32): void {
  let cols: u32 = 0, left: u32 = 0, right: u32 = 0;
  for (let r = 0; r < depth; r++) {
    const bit = <u32>1 << load<i32>(exactBlock + (<usize>r << 2));
    cols |= bit;
    left = (left | bit) << 1;
    right = (right | bit) >> 1;
  }
  pSuccess = 0;
  pFailure = 0;
  wSuccessNodes = 0;
  wFailureNodes = 0;
  walk(depth, cols, left, right, 1);
  const out = exactBlock + 128;
  store<f64>(out, pSuccess);
  store<f64>(out + 8, pFailure);
  store<f64>(out + 16, wSuccessNodes);
  store<f64>(out + 24, wFailureNodes);
}
