// Min-conflicts local search for very large n, after Sosic & Gu's QS4: R. Sosic and
// J. Gu, "3,000,000 Queens in Less Than One Minute", SIGART Bulletin 2(2), 1991, and
// IEEE TKDE 6(5), 1994. Twin: src/engine/ts/min-conflicts.ts; the whole method, with
// figures and what did not pay, in docs/solving.md ("How min-conflicts works").
//
// The board is a permutation cols[row]; a queen is on sum diagonal row + col and diff
// diagonal col - row + n - 1 (0 .. 2n-2). Collisions = sum over diagonals of max(0, queens - 1).
//  1. Prepare: zero the bits below (after a restart: a first try's memory is fresh, so zero);
//     columns n .. 32 groups - 1 count as taken.
//  2. Construct: rows 0 .. n-c-1 greedily, each on two free diagonals if a few random
//     tries find them; the last c = 32 + n / 2^20 rows (all when n < 64) take a random
//     remaining column and become candidates, as does a greedy row whose tries fail.
//     Diagonals and columns taken are bits (at the start of the counter arrays: far
//     likelier to stay in cache and TLB than 2n counters).
//     a. Groups, rows below n - n/64: a try draws two groups of 32 columns, takes the one
//        with more columns free (three independent loads each: assembly/min-conflicts-bits.ts)
//        and in it the first free column from a drawn place on. Its one branch is mostly
//        taken, so many rows' loads overlap (Wasm has no prefetch).
//        Windowed from n = 2^22 (param bit 2 forces it, for the tests): a block of 32 rows
//        draws in one window of about 4,096 columns, a row whose 32 tries there fail 64 more
//        anywhere (min-conflicts-windows.ts), so a block's loads stay on a few pages.
//     b. Gather the columns no row took, in increasing order, into cols[n - n/64 ..].
//     c. Partners: swap cols[row] with cols[j], j uniform in [row, n), until free diagonals.
//  3. Count: expand the bits in place into u8 counters (top down), then add the
//     candidates' queens, counting collisions; every collision involves a candidate.
//  4. Repair: while collisions remain, a random candidate row i; not attacked, it leaves
//     the list; else the first swap (i, j), j random, that lowers the collisions (swap,
//     compare, undo). A moved queen becomes a candidate. No improving swap in min(8n, 4096)
//     trials: a random swap (a kick); n + 50 kicks: restart.
//
// Memory, one allocation: 4n (cols) + two sets of counters, bits first (u8 below n = 2^22:
// 2n + 32 bytes each; 2-bit from there, with an overflow list: n / 2 + 16) + 64 KiB of
// candidates: 4 GiB hold n <= 858,947,576 (min-conflicts-params.ts's twin computes it).
// Small counters suffice: a try restarts when a queen at rest stands on a diagonal
// holding more than CROWDED (a trial adds at most 2).
//
// Work (the unit of workLimit): one per 256 bytes zeroed, per draw and per row in
// construction, per word of bits gathered or counted, per candidate counted or drawn,
// per swap tried. Steps: swaps kept. Tries: 1 + restarts. A unit costs a few ns in
// construction and 100 ns or more in repair, so run returns whenever the phase changes.

import { allocate } from "./memory";
import { constrained } from "./constraints";
import { constrainedInit, constrainedRun, constrainedStat } from "./min-conflicts-constrained";
import { bitAt, draw, drawGroup, firstFrom, openColumns, seedBatches, setBit } from "./min-conflicts-bits";
import { addQueenOn, countersFailed, crowdedOn, expandCounters, removeQueenOn, resetOverflow, sharedOn, useCounters } from "./min-conflicts-counters";
import { CANDIDATE_CAPACITY, GREEDY_TRIES, NARROW_FROM, OVERFLOW_CAPACITY, REPAIR_TRIALS, SPARE_BYTES, WINDOWED_FROM, WINDOW_ROWS, WINDOW_TRIES } from "./min-conflicts-params";
import { nextWindow, windowFirst, windowGroups, windows, windowsInit } from "./min-conflicts-windows";
import {
  RUNNING, FOUND, MAX_STEPS, MAX_TRIES, STAT_WORK, STAT_TRIES, STAT_STEPS, STAT_CONFLICTS, STAT_PHASE,
  PHASE_CONSTRUCT, PHASE_REPAIR,
} from "./status";

/** Rows take direct draws while more than n / 2^DIRECT_SHIFT columns remain. */
const DIRECT_SHIFT: i32 = 6;
/** Bytes of bits zeroed per unit of work in the prepare stage. */
const PREPARE_BYTES: i32 = 256;

const STAGE_PREPARE: i32 = 0, STAGE_DIRECT: i32 = 1, STAGE_GATHER: i32 = 2, STAGE_GREEDY: i32 = 3;
const STAGE_COUNT: i32 = 4, STAGE_REPAIR: i32 = 5;

let size: i32 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row
let sumCount: usize = 0; // u8[2n]: queens on diagonal row + col (bits while constructing)
let diffCount: usize = 0; // u8[2n]: queens on diagonal col - row + n - 1 (bits while constructing)
let candidates: usize = 0; // i32[CANDIDATE_CAPACITY]: rows whose queen may be attacked
let candidateCount: i32 = 0;
let used: usize = 0; // bits[32 groups]: columns taken (or past n), in diffCount after its bits
let bitWords: i32 = 0; // 32-bit words of each bitset of diagonals (2n - 1 bits)
let groups: i32 = 0; // groups of 32 columns (words of the column bits), the last one padded past n
let collisions: i32 = 0;
let stage: i32 = STAGE_PREPARE;
let row: i32 = 0; // next row to construct; next byte to zero; next word of bits to count
let scan: i32 = 0; // gather: next word of the column bits to read
let directEnd: i32 = 0; // rows below it are placed by direct draws
let greedyEnd: i32 = 0; // rows below it are placed greedily, the rest at random
let repairTrials: i32 = 0;
let kicksLeft: i32 = 0;
let restartNeeded: bool = false;
let status: i32 = RUNNING;
let work: f64 = 0, steps: f64 = 0, tries: f64 = 1; // the figures (minConflictsStat)
let maxSteps: f64 = 0, maxTries: f64 = 0;
let withConstraints: bool = false; // this job is on a constrained board (min-conflicts-constrained.ts)
let blockLeft: i32 = 0; // rows the block may still place in its window (min-conflicts-windows.ts)

/** Allocate and reset for an n x n board (with the job's constraints, if any); the columns buffer, 0 if out of memory. */
export function minConflictsInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  withConstraints = constrained;
  if (withConstraints) return constrainedInit(n, seed, stepCap, tryCap); // assembly/min-conflicts-constrained.ts
  size = n;
  maxSteps = stepCap;
  maxTries = tryCap;
  status = RUNNING; // (an instance may be reused for another job: reset everything)
  work = steps = 0;
  tries = 1;
  bitWords = ((2 * n - 2) >>> 5) + 1;
  groups = (n + 31) >>> 5;
  // One allocation (memory grows once): cols, the two counter sets, candidates, overflow list.
  // 2-bit counters (param bit 1 forces them, for the tests) take 8 bytes a word of bits, u8 ones 32.
  const narrow = n >= NARROW_FROM || (param & 1) != 0;
  const counterBytes = narrow ? (<usize>bitWords << 3) + 16 : (<usize>n << 1) + SPARE_BYTES;
  const colBytes = ((<usize>n << 2) + 15) & ~(<usize>15), setBytes = (counterBytes + 15) & ~(<usize>15);
  const listBytes = <usize>CANDIDATE_CAPACITY << 2;
  cols = allocate(colBytes + 2 * setBytes + listBytes + (narrow ? <usize>OVERFLOW_CAPACITY << 3 : 0));
  if (cols == 0) return 0;
  sumCount = cols + colBytes;
  diffCount = sumCount + setBytes;
  candidates = diffCount + setBytes;
  useCounters(narrow, candidates + listBytes);
  windowsInit(groups, n >= WINDOWED_FROM || (param & 2) != 0);
  const tail = n < 64 ? n : 32 + (n >> 20);
  greedyEnd = n - tail;
  directEnd = min(greedyEnd, n - (n >> DIRECT_SHIFT));
  used = diffCount + (<usize>bitWords << 2); // 4 (bitWords + groups) <= 2n + SPARE_BYTES for every n >= 1
  repairTrials = n < REPAIR_TRIALS / 8 ? 8 * n : REPAIR_TRIALS;
  seedBatches(seed);
  startTry();
  return cols;
}

function startTry(): void {
  stage = STAGE_PREPARE;
  row = 0;
  candidateCount = 0;
  collisions = 0;
  kicksLeft = size + 50;
  restartNeeded = false;
}

@inline function colAt(r: i32): usize {
  return cols + (<usize>r << 2);
}

/** Put a queen on (r, c)'s diagonals, counting the collisions it makes (the counters: min-conflicts-counters.ts). */
@inline function addQueen(r: i32, c: i32): void {
  collisions += addQueenOn(sumCount, r + c, diffCount, c - r + size - 1);
}

/** Take a queen off (r, c)'s diagonals, counting the collisions it leaves. */
@inline function removeQueen(r: i32, c: i32): void {
  collisions -= removeQueenOn(sumCount, r + c, diffCount, c - r + size - 1);
}

/** Swap the queens of rows i and j, keeping the counters and collisions exact. */
@inline function swapRows(i: i32, j: i32): void {
  const ci = load<i32>(colAt(i));
  const cj = load<i32>(colAt(j));
  removeQueen(i, ci);
  removeQueen(j, cj);
  addQueen(i, cj);
  addQueen(j, ci);
  store<i32>(colAt(i), cj);
  store<i32>(colAt(j), ci);
}

@inline function swapColumns(i: i32, j: i32): void {
  const ci = load<i32>(colAt(i));
  store<i32>(colAt(i), load<i32>(colAt(j)));
  store<i32>(colAt(j), ci);
}

@inline function attacked(r: i32): bool {
  const c = load<i32>(colAt(r));
  return sharedOn(sumCount, r + c, diffCount, c - r + size - 1);
}

/** Whether the queen of row r stands on a diagonal close to the u8 counters' limit. */
@inline function crowded(r: i32): bool {
  const c = load<i32>(colAt(r));
  return crowdedOn(sumCount, r + c, diffCount, c - r + size - 1);
}

@inline function candidateAt(k: i32): usize {
  return candidates + (<usize>k << 2);
}

/** Remember row r. A full list is compacted (repair) or forces a restart (construction). */
function pushCandidate(r: i32): void {
  if (candidateCount == CANDIDATE_CAPACITY) {
    if (stage == STAGE_REPAIR) compactCandidates();
    else restartNeeded = true;
  }
  if (candidateCount == CANDIDATE_CAPACITY) return; // (restartNeeded is set)
  store<i32>(candidateAt(candidateCount++), r);
}

/** Keep each attacked row once (order kept; kept rows' columns complemented meanwhile); restart if still over half full. */
function compactCandidates(): void {
  let kept = 0;
  for (let k = 0; k < candidateCount; k++) {
    const r = load<i32>(candidateAt(k));
    const c = load<i32>(colAt(r));
    if (c < 0 || !attacked(r)) continue;
    store<i32>(colAt(r), ~c);
    store<i32>(candidateAt(kept++), r);
  }
  for (let k = 0; k < kept; k++) {
    const r = load<i32>(candidateAt(k));
    store<i32>(colAt(r), ~load<i32>(colAt(r)));
  }
  candidateCount = kept;
  if (kept > CANDIDATE_CAPACITY / 2) restartNeeded = true;
}

/** Stop this try; start another unless maxTries is spent. */
function restart(): i32 {
  if (tries >= maxTries) return MAX_TRIES;
  tries++;
  startTry();
  return RUNNING;
}

/** Search until a solution, a cap, or `workLimit` units of work in all; returns the status. */
export function minConflictsRun(workLimit: f64): i32 {
  if (withConstraints) return constrainedRun(workLimit);
  while (status == RUNNING) {
    const repairing = stage == STAGE_REPAIR;
    if (stage == STAGE_PREPARE) status = prepare(workLimit);
    else if (stage == STAGE_DIRECT) status = constructDirect(workLimit);
    else if (stage == STAGE_GATHER) status = gather(workLimit);
    else if (stage == STAGE_GREEDY) status = constructGreedy(workLimit);
    else if (stage == STAGE_COUNT) status = countDiagonals(workLimit);
    else status = repair(workLimit);
    if (work >= workLimit || (stage == STAGE_REPAIR) != repairing) break; // a new phase: see the header
  }
  return status;
}

/** Step 1: the bits of both diagonal sets and of the columns zeroed (after a restart), columns n and up taken (cols is written in step 2). */
function prepare(workLimit: f64): i32 {
  const bitBytes = bitWords << 2;
  const total = tries > 1 ? bitBytes + (groups << 2) : 0; // a first try's memory is fresh from allocate: zero
  while (row < total) {
    if (work >= workLimit) return RUNNING;
    const end = min(row + PREPARE_BYTES, total);
    if (row < bitBytes) memory.fill(sumCount + <usize>row, 0, <usize>(min(end, bitBytes) - row));
    memory.fill(diffCount + <usize>row, 0, <usize>(end - row));
    row = end;
    work++;
  }
  for (let c = size; c < groups << 5; c++) setBit(used, c);
  blockLeft = windows > 1 ? 0 : i32.MAX_VALUE; // (one window: every row draws from every group)
  stage = STAGE_DIRECT;
  row = 0;
  return RUNNING;
}

/** Step 2a: rows 0 .. directEnd-1 by tries of two random groups of 32 columns (the header); a row whose tries fail takes a free column. */
function constructDirect(workLimit: f64): i32 {
  const n = size;
  const k = <u32>groups;
  const end = directEnd;
  // Windowed: WINDOW_TRIES pairs of draws in the window, then GREEDY_TRIES pairs anywhere.
  const leaveAt = windows > 1 ? 2 * WINDOW_TRIES : -1;
  const drawLimit = windows > 1 ? 2 * (WINDOW_TRIES + GREEDY_TRIES) : 2 * GREEDY_TRIES;
  let r = row;
  let w = work;
  while (r < end) {
    if (w >= workLimit) break;
    if (blockLeft == 0) { w += <f64>nextWindow(r, n, used, sumCount, diffCount); blockLeft = WINDOW_ROWS; }
    blockLeft--;
    const diffBase = n - 1 - r; // the diff diagonal of (r, c) is c + diffBase
    let wk = windowGroups, wf = windowFirst;
    let draws = 0, c = -1;
    while (draws < drawLimit) {
      // the window's tries failed: the rest anywhere, and the next row draws a new window
      if (draws == leaveAt) { wk = k; wf = 0; blockLeft = 0; }
      const a = drawGroup(wk) + wf, b = drawGroup(wk) + wf;
      draws += 2;
      const fa = a & ~31, fb = b & ~31;
      const openA = openColumns(used, fa, sumCount, r + fa, diffCount, fa + diffBase);
      const openB = openColumns(used, fb, sumCount, r + fb, diffCount, fb + diffBase);
      const takeB = popcnt(openB) > popcnt(openA);
      const open = select(openB, openA, takeB), pick = select(b, a, takeB);
      if (open != 0) {
        c = (pick & ~31) + firstFrom(open, pick & 31);
        setBit(sumCount, r + c);
        setBit(diffCount, c + diffBase);
        break;
      }
    }
    if (c < 0) {
      let open: u32 = 0, pick = 0;
      while (open == 0) {
        pick = drawGroup(k);
        draws++;
        open = ~load<u32>(used + <usize>((pick & ~31) >>> 3));
      }
      c = (pick & ~31) + firstFrom(open, pick & 31);
      pushCandidate(r);
    }
    setBit(used, c);
    store<i32>(colAt(r), c);
    w += <f64>(draws + 1);
    r++;
  }
  row = r;
  work = w;
  if (r == end) {
    stage = STAGE_GATHER;
    scan = 0;
  }
  return RUNNING;
}

/** Step 2b: the columns no row took, in increasing order, into cols[directEnd .. n-1]. */
function gather(workLimit: f64): i32 {
  let g = scan;
  let r = row;
  while (g < groups) {
    if (work >= workLimit) break;
    let open = ~load<u32>(used + (<usize>g << 2));
    while (open != 0) {
      store<i32>(colAt(r++), (g << 5) + ctz(open));
      open &= open - 1;
    }
    g++;
    work++;
  }
  scan = g;
  row = r;
  if (g == groups) {
    stage = STAGE_GREEDY;
    row = directEnd;
  }
  return RUNNING;
}

/** Step 2c: rows directEnd .. greedyEnd-1 swap with a random partner in [row, n) until on free diagonals, the rest with one at random. */
function constructGreedy(workLimit: f64): i32 {
  const n = size;
  let r = row;
  let w = work;
  while (r < n) {
    if (w >= workLimit) break;
    const remaining = <u32>(n - r);
    const diffBase = n - 1 - r;
    const tries = r < greedyEnd ? GREEDY_TRIES : 0;
    let t = 0;
    let placed = false;
    while (t < tries) {
      const j = r + <i32>draw(remaining);
      t++;
      const cj = load<i32>(colAt(j));
      if ((bitAt(sumCount, r + cj) | bitAt(diffCount, cj + diffBase)) == 0) {
        swapColumns(r, j);
        setBit(sumCount, r + cj);
        setBit(diffCount, cj + diffBase);
        placed = true;
        break;
      }
    }
    if (!placed) {
      swapColumns(r, r + <i32>draw(remaining));
      pushCandidate(r);
    }
    w += <f64>(t + 1);
    r++;
  }
  row = r;
  work = w;
  if (r == n) {
    stage = STAGE_COUNT;
    row = bitWords - 1; // the top word of the bitsets
  }
  return RUNNING;
}

/** Step 3: bits to counters, top down, then the candidates' queens with their collisions. */
function countDiagonals(workLimit: f64): i32 {
  while (row >= 0) {
    if (work >= workLimit) return RUNNING;
    // Word `row` of each bitset becomes counters 32 row .. 32 row + 31, which only
    // overwrite words of bits already expanded (at byte 32 row or 8 row), or this one,
    // read first. The top word may write zeros past counter 2n - 2 (SPARE_BYTES).
    expandCounters(sumCount, row);
    expandCounters(diffCount, row);
    row--;
    work++;
  }
  resetOverflow();
  for (let k = 0; k < candidateCount; k++) {
    const r = load<i32>(candidateAt(k));
    addQueen(r, load<i32>(colAt(r)));
  }
  for (let k = 0; k < candidateCount; k++) {
    if (crowded(load<i32>(candidateAt(k)))) restartNeeded = true;
  }
  work += <f64>candidateCount;
  stage = STAGE_REPAIR;
  if (restartNeeded || countersFailed()) return restart();
  return collisions == 0 ? FOUND : RUNNING;
}

/** Step 4: conflict-driven swaps on the candidates until no collision is left (min-conflicts-constrained.ts repairC says why its copy stays). */
function repair(workLimit: f64): i32 {
  const n = size;
  while (collisions != 0) {
    if (restartNeeded || candidateCount == 0 || countersFailed()) return restart();
    if (work >= workLimit) return RUNNING;
    const k = <i32>draw(<u32>candidateCount);
    const i = load<i32>(candidateAt(k));
    work++;
    if (!attacked(i)) {
      store<i32>(candidateAt(k), load<i32>(candidateAt(--candidateCount)));
      continue;
    }
    let improved = false;
    for (let t = 0; t < repairTrials; t++) {
      const j = <i32>draw(<u32>n);
      work++;
      if (j == i) continue;
      const before = collisions;
      swapRows(i, j);
      if (collisions < before) {
        improved = true;
        pushCandidate(j);
        break;
      }
      swapRows(i, j); // undo
    }
    if (improved) {
      steps++;
    } else {
      if (kicksLeft == 0) return restart();
      kicksLeft--;
      const j = <i32>draw(<u32>n);
      if (j != i) {
        swapRows(i, j);
        pushCandidate(j);
        if (crowded(i) || crowded(j)) restartNeeded = true;
        steps++;
      }
    }
    if (collisions != 0 && steps >= maxSteps) return MAX_STEPS;
  }
  return countersFailed() ? restart() : FOUND;
}

/** The figures of the search (no nodes: local search places no queens one by one). */
export function minConflictsStat(slot: i32): f64 {
  if (withConstraints) return constrainedStat(slot);
  if (slot == STAT_WORK) return work;
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_STEPS) return steps;
  if (slot == STAT_CONFLICTS) return stage == STAGE_REPAIR ? <f64>collisions : -1; // not counted yet
  if (slot == STAT_PHASE) return stage == STAGE_REPAIR ? PHASE_REPAIR : PHASE_CONSTRUCT;
  return 0;
}
