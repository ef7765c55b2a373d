// Las Vegas then backtracking (QueensLV(stopVegas) + Backtrack of Brassard & Bratley and Wang
// Xiaodong; the improved queen_lv of text 2 in docs/references.md): each try places rows 0..k-1 (k = stopVegas = param) at
// random, a column drawn by below(count) among the row's safe columns listed in
// increasing order (assembly/las-vegas.ts is this with k = n), then
// backtracks over rows k..n-1 as assembly/backtrack.ts does (columns in increasing
// order), never moving the random queens. A dead end in the random rows, or a
// backtrack that exhausts rows k..n-1, fails the try; the next starts from an
// empty board. Nodes: each try's empty board is one node, every queen placed one
// more. So k = 0 is backtrack (same columns and nodes; exhausting is final, as
// there is nothing random to retry) and k = n is las-vegas (same columns, nodes
// and tries for a seed). Work unit = nodes; caps maxNodes and maxTries are exact.
// Twin: src/engine/ts/hybrid.ts.
// assembly/backtrack.ts stays a kernel of its own although this one with k = 0 walks the same
// tree: it is the texts' plain backtracking, the reference the tests and the tracer read
// step by step, and it carries no random rows to set up or to retry.

import { allocate } from "./memory";
import { constrained, fixedColumn, isBlocked } from "./constraints";
import { linesOpen } from "./lines-open";
import { below, seedRandom } from "./rng";
import {
  RUNNING, FOUND, EXHAUSTED, MAX_NODES, MAX_TRIES,
  STAT_WORK, STAT_NODES, STAT_TRIES, STAT_CONFLICTS, STAT_PHASE, PHASE_SEARCH,
} from "./status";

let size: i32 = 0;
let stopVegas: i32 = 0;
let row: i32 = 0;
let nodes: f64 = 0;
let tries: f64 = 0;
let maxNodes: f64 = 0;
let maxTries: f64 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row (-1: none yet)
let safe: usize = 0; // i32[n]: the safe columns of the current random row
let colUsed: usize = 0; // u8[n]
let sumUsed: usize = 0; // u8[2n]: diagonal row + col
let diffUsed: usize = 0; // u8[2n]: diagonal row - col + n - 1

/** Allocate and reset for an n x n board, `param` random rows; returns the columns buffer, 0 if out of memory. */
export function hybridInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  assert(n >= 1 && param >= 0 && param <= n, "hybridInit: n below 1 or stopVegas out of 0..n");
  size = n;
  stopVegas = param;
  maxNodes = nodeCap;
  maxTries = tryCap;
  cols = allocate(<usize>n << 2);
  safe = allocate(<usize>n << 2);
  colUsed = allocate(<usize>n);
  sumUsed = allocate(<usize>n << 1);
  diffUsed = allocate(<usize>n << 1);
  if (cols == 0 || safe == 0 || colUsed == 0 || sumUsed == 0 || diffUsed == 0) return 0;
  memory.fill(cols, 0xFF, <usize>n << 2); // every row -1
  seedRandom(seed);
  row = 0;
  nodes = 1; // the empty board of the first try
  tries = 1;
  withConstraints = constrained;
  if (withConstraints && !initConstrained()) return 0;
  return cols;
}

@inline function mark(r: i32, c: i32, v: u8): void {
  store<u8>(colUsed + <usize>c, v);
  store<u8>(sumUsed + <usize>(r + c), v);
  store<u8>(diffUsed + <usize>(r - c + size - 1), v);
}

/** What hybridTry returns when the try under way failed (a dead end in the random rows, or rows k..n-1 exhausted). */
export const TRY_FAILED: i32 = -1;

/**
 * The try under way, a node at a time, until a solution (FOUND), its failure
 * (TRY_FAILED: the failed board stays as it is until hybridNextTry), or `limit`
 * nodes in all (RUNNING). The one hot loop of the method: hybridRun makes its tries
 * with it, and so does assembly/las-vegas-stats.ts (so its try i is the solver's try i).
 */
export function hybridTry(limit: f64): i32 {
  while (true) {
    if (row == size) return FOUND;
    if (nodes >= limit) return RUNNING;
    const at = cols + (<usize>row << 2);
    const sum = sumUsed + <usize>row;
    const diff = diffUsed + <usize>(row + size - 1);
    if (row < stopVegas) {
      // A random row (Las Vegas; las-vegas.ts has only these).
      let count = 0;
      for (let c = 0; c < size; c++) {
        if ((load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) == 0) {
          store<i32>(safe + (<usize>count << 2), c);
          count++;
        }
      }
      if (count == 0) return TRY_FAILED;
      const c = load<i32>(safe + (<usize>below(count) << 2));
      store<i32>(at, c);
      mark(row, c, 1);
      nodes++;
      row++;
      continue;
    }
    // A backtracking row, as in backtrack.ts (rows below stopVegas are never revisited). The
    // copy of backtrack's step stays: each kernel owns its arrays (colUsed, sumUsed, diffUsed,
    // mark), and a step shared by the two files would share those globals as well.
    let c = load<i32>(at);
    if (c >= 0) mark(row, c, 0); // lift the queen we come back to
    c++;
    while (c < size && (load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0) c++;
    if (c == size) {
      store<i32>(at, -1);
      if (row == stopVegas) return TRY_FAILED;
      row--;
      continue;
    }
    store<i32>(at, c);
    mark(row, c, 1);
    nodes++;
    row++;
  }
}

/** Lift every queen of the try under way and start the next try on an empty board (one more node). */
export function hybridNextTry(): void {
  for (let r = 0; r < row; r++) {
    const at = cols + (<usize>r << 2);
    mark(r, load<i32>(at), 0);
    store<i32>(at, -1);
  }
  row = 0;
  tries++;
  nodes++; // the new try's empty board
}

/** Search until a solution, exhaustion, maxNodes, maxTries, or `workLimit` nodes in all; returns the status. */
export function hybridRun(workLimit: f64): i32 {
  if (withConstraints) return runConstrained(workLimit);
  const limit = min(workLimit, maxNodes);
  while (true) {
    const status = hybridTry(limit);
    if (status == RUNNING) return nodes >= maxNodes ? MAX_NODES : RUNNING;
    if (status != TRY_FAILED) return status; // FOUND
    if (stopVegas == 0) return EXHAUSTED; // nothing random to retry
    if (tries >= maxTries) return MAX_TRIES;
    hybridNextTry();
  }
}

/** The figures of the search: work and nodes are the same count here; no steps. */
export function hybridStat(slot: i32): f64 {
  if (slot == STAT_WORK || slot == STAT_NODES) return nodes;
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_CONFLICTS) return -1;
  if (slot == STAT_PHASE) return PHASE_SEARCH;
  return 0;
}

// ---- Constrained boards ----
// The given queens stand from the start of every try (their lines marked) and their
// rows are passed over; a random row draws among its columns that are neither attacked
// nor blocked (listed in increasing order, one below(count) draw, as above), and a
// backtracking row tries them in increasing order. Backtracking skips the given rows
// going back; when it would go back past the first backtracking row, the try fails.
// Nodes: the empty board (givens standing) of each try, plus each queen placed. If a
// row or column has no square left once the givens stand (linesOpen), no completion
// exists and the search reports EXHAUSTED at once. With no constraints none of this runs.

let withConstraints: bool = false;
let proved: bool = false; // the givens leave a line without a square: no completion

/** Put the given queens on the board; false if out of memory. */
function initConstrained(): bool {
  const open = linesOpen(size);
  if (open < 0) return false;
  proved = open == 0;
  for (let r = 0; r < size; r++) {
    const c = fixedColumn(r);
    if (c < 0) continue;
    store<i32>(cols + (<usize>r << 2), c);
    mark(r, c, 1);
  }
  row = nextFreeRow(0);
  return true;
}

/** The first row from r on without a given queen (size if none). */
function nextFreeRow(r: i32): i32 {
  while (r < size && fixedColumn(r) >= 0) r++;
  return r;
}

/** The try failed (constrained): as newTry, lifting only the queens the search placed. */
function newTryConstrained(): i32 {
  if (stopVegas == 0) return EXHAUSTED;
  if (tries >= maxTries) return MAX_TRIES;
  for (let r = 0; r < row; r++) {
    if (fixedColumn(r) >= 0) continue;
    const at = cols + (<usize>r << 2);
    const c = load<i32>(at);
    if (c < 0) continue;
    mark(r, c, 0);
    store<i32>(at, -1);
  }
  row = nextFreeRow(0);
  tries++;
  nodes++; // the new try's empty board
  return RUNNING;
}

function runConstrained(workLimit: f64): i32 {
  if (proved) return EXHAUSTED;
  while (true) {
    if (row == size) return FOUND;
    if (nodes >= maxNodes) return MAX_NODES;
    if (nodes >= workLimit) return RUNNING;
    const at = cols + (<usize>row << 2);
    const sum = sumUsed + <usize>row;
    const diff = diffUsed + <usize>(row + size - 1);
    if (row < stopVegas) {
      let count = 0;
      for (let c = 0; c < size; c++) {
        if ((load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0) continue;
        if (isBlocked(row, c)) continue;
        store<i32>(safe + (<usize>count << 2), c);
        count++;
      }
      if (count == 0) {
        const status = newTryConstrained();
        if (status != RUNNING) return status;
        continue;
      }
      const c = load<i32>(safe + (<usize>below(count) << 2));
      store<i32>(at, c);
      mark(row, c, 1);
      nodes++;
      row = nextFreeRow(row + 1);
      continue;
    }
    let c = load<i32>(at);
    if (c >= 0) mark(row, c, 0); // lift the queen we come back to
    c++;
    while (c < size && ((load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0 || isBlocked(row, c))) c++;
    if (c == size) {
      store<i32>(at, -1);
      let back = row - 1;
      while (back >= stopVegas && fixedColumn(back) >= 0) back--;
      if (back < stopVegas) {
        const status = newTryConstrained();
        if (status != RUNNING) return status;
        continue;
      }
      row = back;
      continue;
    }
    store<i32>(at, c);
    mark(row, c, 1);
    nodes++;
    row = nextFreeRow(row + 1);
  }
}
