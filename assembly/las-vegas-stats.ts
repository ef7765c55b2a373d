// What one try of the 'hybrid' method costs (Brassard & Bratley's QueensLV(stopVegas) then
// Backtrack; Brassard & Bratley's success-rate table), in two ways.
//
// Monte Carlo (lasVegasTrials*): `trials` independent tries in a row from one
// seeded generator, each made by assembly/hybrid.ts's own try loop (hybridTry, then
// hybridNextTry), so try i here is try i of solve(n, { method: 'hybrid', stopVegas,
// seed }). A try's nodes: its empty board, plus every queen placed (random rows and
// backtracking). Per outcome it adds up the tries, their nodes and their nodes
// squared (f64, in try order). Any n; runs in chunks bounded by nodes.
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
import { hybridInit, hybridNextTry, hybridStat, hybridTry } from "./hybrid";
import { FOUND, RUNNING, STAT_NODES as STAT_NODES_OF_HYBRID } from "./status";

// ---- Monte Carlo ----

/** Slots of lasVegasTrialsStat (exported: src/engine/wasm reads them). */
export const LAS_VEGAS_TRIALS_TRIES: i32 = 0;
export const LAS_VEGAS_TRIALS_SUCCESSES: i32 = 1;
export const LAS_VEGAS_TRIALS_SUCCESS_NODES: i32 = 2;
export const LAS_VEGAS_TRIALS_SUCCESS_SQUARES: i32 = 3;
export const LAS_VEGAS_TRIALS_FAILURE_NODES: i32 = 4;
export const LAS_VEGAS_TRIALS_FAILURE_SQUARES: i32 = 5;
export const LAS_VEGAS_TRIALS_WORK: i32 = 6;

let trials: f64 = 0; // tries wanted
let tries: f64 = 0; // tries finished
let tryStart: f64 = 0; // the hybrid's node count before the try under way
let successes: f64 = 0;
let successNodes: f64 = 0;
let successSquares: f64 = 0;
let failureNodes: f64 = 0;
let failureSquares: f64 = 0;

/** Reset for `count` tries on an n x n board with `param` random rows; returns 1, or 0 if out of memory. */
export function lasVegasTrialsInit(n: i32, seed: u32, param: i32, count: f64): i32 {
  assert(n >= 1 && param >= 0 && param <= n, "lasVegasTrialsInit: stopVegas out of 0..n");
  // The tries are the hybrid's own (no caps: this loop decides when to stop).
  if (hybridInit(n, seed, param, Infinity, Infinity, Infinity) == 0) return 0;
  trials = count;
  tries = 0;
  tryStart = 0; // the first try's nodes: its empty board, counted by hybridInit
  successes = 0;
  successNodes = 0;
  successSquares = 0;
  failureNodes = 0;
  failureSquares = 0;
  return 1;
}

/** Record the try just ended and start the next one if any is left. */
function endTry(success: bool): void {
  const nodes = hybridStat(STAT_NODES_OF_HYBRID);
  const tryNodes = nodes - tryStart;
  if (success) {
    successes++;
    successNodes += tryNodes;
    successSquares += tryNodes * tryNodes;
  } else {
    failureNodes += tryNodes;
    failureSquares += tryNodes * tryNodes;
  }
  tries++;
  if (tries < trials) {
    tryStart = nodes;
    hybridNextTry(); // the next try's empty board is its first node
  }
}

/** Make tries until all are done (returns 1) or `workLimit` nodes in all (returns 0). */
export function lasVegasTrialsRun(workLimit: f64): i32 {
  while (true) {
    if (tries >= trials) return 1;
    const status = hybridTry(workLimit);
    if (status == RUNNING) return 0;
    endTry(status == FOUND);
  }
}

/** The sums so far (slots above); work is the nodes of all tries so far. */
export function lasVegasTrialsStat(slot: i32): f64 {
  if (slot == LAS_VEGAS_TRIALS_TRIES) return tries;
  if (slot == LAS_VEGAS_TRIALS_SUCCESSES) return successes;
  if (slot == LAS_VEGAS_TRIALS_SUCCESS_NODES) return successNodes;
  if (slot == LAS_VEGAS_TRIALS_SUCCESS_SQUARES) return successSquares;
  if (slot == LAS_VEGAS_TRIALS_FAILURE_NODES) return failureNodes;
  if (slot == LAS_VEGAS_TRIALS_FAILURE_SQUARES) return failureSquares;
  if (slot == LAS_VEGAS_TRIALS_WORK) return hybridStat(STAT_NODES_OF_HYBRID);
  return 0;
}

// ---- Exact ----

/** Where the exact walk's block keeps the task's columns (i32[32]) and its sums (f64[4]); exported for the TS side. */
export const LAS_VEGAS_EXACT_COLUMNS: i32 = 0;
export const LAS_VEGAS_EXACT_SUMS: i32 = 128;

let size: i32 = 0;
let stopVegas: i32 = 0;
let full: u32 = 0;
let exactBlock: usize = 0; // i32[32] the task's columns, then f64[4] its sums
let btNodes: f64 = 0; // queens placed by the backtracking of the leaf under way
let pSuccess: f64 = 0;
let pFailure: f64 = 0;
let wSuccessNodes: f64 = 0;
let wFailureNodes: f64 = 0;

/**
 * Reset for an n x n board with `param` random rows; returns a block of i32[32] the
 * task's columns (at LAS_VEGAS_EXACT_COLUMNS) then f64[4] its sums (at
 * LAS_VEGAS_EXACT_SUMS); 0 if out of memory.
 */
export function lasVegasExactInit(n: i32, param: i32): usize {
  assert(n >= 1 && n <= 32 && param >= 0 && param <= n, "lasVegasExactInit: n out of 1..32 or stopVegas out of 0..n");
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
 * (the last two are probability-weighted sums, not yet divided) at LAS_VEGAS_EXACT_SUMS.
 */
export function lasVegasExactTask(depth: i32): void {
  assert(depth >= 0 && depth <= stopVegas, "lasVegasExactTask: depth out of 0..stopVegas");
  let cols: u32 = 0, left: u32 = 0, right: u32 = 0;
  for (let r = 0; r < depth; r++) {
    const bit = <u32>1 << load<i32>(exactBlock + LAS_VEGAS_EXACT_COLUMNS + (<usize>r << 2));
    cols |= bit;
    left = (left | bit) << 1;
    right = (right | bit) >> 1;
  }
  pSuccess = 0;
  pFailure = 0;
  wSuccessNodes = 0;
  wFailureNodes = 0;
  walk(depth, cols, left, right, 1);
  const out = exactBlock + LAS_VEGAS_EXACT_SUMS;
  store<f64>(out, pSuccess);
  store<f64>(out + 8, pFailure);
  store<f64>(out + 16, wSuccessNodes);
  store<f64>(out + 24, wFailureNodes);
}
