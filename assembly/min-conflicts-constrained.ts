// Min-conflicts on a constrained board (given queens, blocked squares): the kernel
// minConflictsInit/Run/Stat (assembly/min-conflicts.ts) hands a job with constraints
// here. Twin: src/engine/ts/min-conflicts-constrained.ts.
// Why a kernel of its own beside assembly/min-conflicts.ts rather than one with a branch: the
// plain kernel's state is bit-packed (diagonal bits, then 8-bit counters) and its draws come
// in groups, for n up to 5 * 10^8, where the bench holds it against C; this one needs i32
// counters and a blocked-square test in the same inner loop. Merged, the plain board's draw
// loop would carry a test per draw it never needs; the shared pieces (the generator, the
// draws' helpers, the figures) are shared (min-conflicts-bits.ts, min-conflicts-params.ts).
//
// Given queens never move and no queen is ever put on a blocked square. A simpler
// version of the plain board's search, for n <= 10^6 (MIN_CONFLICTS_CONSTRAINED_MAX_N in
// src/engine/ts/min-conflicts-constrained.ts): i32 counters from the start (no bits), the given
// queens on them first; the m rows without a given queen hold the m columns no given
// queen holds.
//  Construct: free rows in increasing order; row k draws a partner among the columns
//  not yet placed (pool[k..m-1]) up to GREEDY_TRIES times for an open square on free
//  diagonals; failing that, the first open square scanning the rest from a random
//  point (a candidate if attacked); if every remaining column is blocked in that row,
//  the try restarts.
//  Repair: as on the plain board, on a list of candidate rows without repeats (a flag per
//  row), partners drawn among the free rows; a swap that would put either queen on a
//  blocked square is not made (it counts as a trial, or as a kick not made).
// Work: one per draw or square looked at in construction, per candidate drawn and per
// trial. If the givens leave a row or column without a square (linesOpen), no
// completion exists: EXHAUSTED at once.

import { allocate } from "./memory";
import { fixedColumn, isBlocked } from "./constraints";
import { linesOpen } from "./lines-open";
import { seedRandom, below } from "./rng";
import {
  RUNNING, FOUND, EXHAUSTED, MAX_STEPS, MAX_TRIES, STAT_WORK, STAT_TRIES, STAT_STEPS, STAT_CONFLICTS, STAT_PHASE,
  PHASE_CONSTRUCT, PHASE_REPAIR,
} from "./status";
import { GREEDY_TRIES, REPAIR_TRIALS } from "./min-conflicts-params";

const STAGE_CONSTRUCT: i32 = 0;
const STAGE_REPAIR: i32 = 1;

let size: i32 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row
let proved: bool = false;
let free: i32 = 0; // m
let freeRows: usize = 0; // i32[m]
let freeCols: usize = 0; // i32[m]: columns no given queen holds, increasing
let pool: usize = 0; // i32[m]: construction: pool[k..m-1] are the columns left
let candidates: usize = 0; // i32[n]: rows whose queen may be attacked, without repeats
let candidateCount: i32 = 0;
let inList: usize = 0; // u8[n]: row r is in the candidate list
let sumAll: usize = 0; // i32[2n]: queens on diagonal row + col
let diffAll: usize = 0; // i32[2n]: queens on diagonal row - col + n - 1
let placing: i32 = 0; // the next free row (index) to construct
let collisions: i32 = 0;
let stage: i32 = STAGE_CONSTRUCT;
let repairTrials: i32 = 0;
let kicksLeft: i32 = 0;
let status: i32 = RUNNING;
let work: f64 = 0;
let steps: f64 = 0;
let tries: f64 = 1;
let maxSteps: f64 = 0;
let maxTries: f64 = 0;

@inline function loadI(base: usize, k: i32): i32 {
  return load<i32>(base + (<usize>k << 2));
}

@inline function storeI(base: usize, k: i32, v: i32): void {
  store<i32>(base + (<usize>k << 2), v);
}

export function constrainedInit(n: i32, seed: u32, stepCap: f64, tryCap: f64): usize {
  size = n;
  maxSteps = stepCap;
  maxTries = tryCap;
  status = RUNNING;
  work = 0;
  steps = 0;
  tries = 1;
  cols = allocate(<usize>n << 2);
  freeRows = allocate(<usize>n << 2);
  freeCols = allocate(<usize>n << 2);
  pool = allocate(<usize>n << 2);
  candidates = allocate(<usize>n << 2);
  inList = allocate(<usize>n);
  sumAll = allocate(<usize>n << 3);
  diffAll = allocate(<usize>n << 3);
  const open = linesOpen(n);
  if (cols == 0 || freeRows == 0 || freeCols == 0 || pool == 0 || candidates == 0 || inList == 0 || sumAll == 0 || diffAll == 0 || open < 0) return 0;
  proved = open == 0;
  free = 0;
  for (let r = 0; r < n; r++) {
    const c = fixedColumn(r);
    if (c >= 0) {
      storeI(cols, r, c);
      store<u8>(inList + <usize>c, 1); // (inList as scratch: columns held)
    } else {
      storeI(freeRows, free, r);
      free++;
    }
  }
  let k = 0;
  for (let c = 0; c < n; c++) {
    if (load<u8>(inList + <usize>c) != 0) continue;
    storeI(freeCols, k, c);
    k++;
  }
  repairTrials = free < REPAIR_TRIALS / 8 ? 8 * free : REPAIR_TRIALS;
  seedRandom(seed);
  startConstrained();
  return cols;
}

@inline function sumSlot(r: i32, c: i32): usize {
  return sumAll + (<usize>(r + c) << 2);
}

@inline function diffSlot(r: i32, c: i32): usize {
  return diffAll + (<usize>(r - c + size - 1) << 2);
}

function addC(r: i32, c: i32): void {
  const s = load<i32>(sumSlot(r, c));
  const d = load<i32>(diffSlot(r, c));
  collisions += <i32>(s != 0) + <i32>(d != 0);
  store<i32>(sumSlot(r, c), s + 1);
  store<i32>(diffSlot(r, c), d + 1);
}

function removeC(r: i32, c: i32): void {
  const s = load<i32>(sumSlot(r, c)) - 1;
  const d = load<i32>(diffSlot(r, c)) - 1;
  collisions -= <i32>(s != 0) + <i32>(d != 0);
  store<i32>(sumSlot(r, c), s);
  store<i32>(diffSlot(r, c), d);
}

function swapC(i: i32, j: i32): void {
  const ci = loadI(cols, i);
  const cj = loadI(cols, j);
  removeC(i, ci);
  removeC(j, cj);
  addC(i, cj);
  addC(j, ci);
  storeI(cols, i, cj);
  storeI(cols, j, ci);
}

function attackedC(r: i32): bool {
  const c = loadI(cols, r);
  return load<i32>(sumSlot(r, c)) > 1 || load<i32>(diffSlot(r, c)) > 1;
}

function pushC(r: i32): void {
  if (load<u8>(inList + <usize>r) != 0) return;
  store<u8>(inList + <usize>r, 1);
  storeI(candidates, candidateCount++, r);
}

/** A new try: counters hold only the given queens, no candidate, construction from the first free row. */
function startConstrained(): void {
  const n = size;
  memory.fill(sumAll, 0, <usize>n << 3);
  memory.fill(diffAll, 0, <usize>n << 3);
  memory.fill(inList, 0, <usize>n);
  collisions = 0;
  for (let r = 0; r < n; r++) {
    const c = fixedColumn(r);
    if (c >= 0) addC(r, c);
  }
  memory.copy(pool, freeCols, <usize>free << 2);
  candidateCount = 0;
  placing = 0;
  kicksLeft = free + 50;
  stage = STAGE_CONSTRUCT;
}

function restartC(): i32 {
  if (tries >= maxTries) return MAX_TRIES;
  tries++;
  startConstrained();
  return RUNNING;
}

export function constrainedRun(workLimit: f64): i32 {
  if (proved) return EXHAUSTED;
  while (status == RUNNING) {
    const repairing = stage == STAGE_REPAIR;
    if (stage == STAGE_CONSTRUCT) status = constructC(workLimit);
    else status = repairC(workLimit);
    if (work >= workLimit || (stage == STAGE_REPAIR) != repairing) break; // a new phase
  }
  return status;
}

function constructC(workLimit: f64): i32 {
  const m = free;
  while (placing < m) {
    if (work >= workLimit) return RUNNING;
    const k = placing;
    const r = loadI(freeRows, k);
    const left = <u32>(m - k);
    let chosen = -1;
    for (let t = 0; t < GREEDY_TRIES; t++) {
      const j = k + <i32>below(left);
      work++;
      const c = loadI(pool, j);
      if (load<i32>(sumSlot(r, c)) == 0 && load<i32>(diffSlot(r, c)) == 0 && !isBlocked(r, c)) {
        chosen = j;
        break;
      }
    }
    if (chosen < 0) {
      let j = k + <i32>below(left);
      for (let t = 0; t < <i32>left; t++) {
        work++;
        if (!isBlocked(r, loadI(pool, j))) {
          chosen = j;
          break;
        }
        j++;
        if (j == m) j = k;
      }
      if (chosen < 0) return restartC();
    }
    const c = loadI(pool, chosen);
    storeI(pool, chosen, loadI(pool, k));
    storeI(pool, k, c);
    storeI(cols, r, c);
    addC(r, c);
    if (attackedC(r)) pushC(r);
    placing++;
  }
  stage = STAGE_REPAIR;
  return collisions == 0 ? FOUND : RUNNING;
}

/**
 * Repair, as the plain board's repair in min-conflicts.ts (the same conflict-driven swaps and
 * kicks), kept a copy: that one is the path min-conflicts' speed is measured on (npm run bench,
 * n = 10^7), with u8 counters, the batched draws of min-conflicts-bits.ts and partners among all
 * rows; this one draws from rng.ts (its own stream), takes partners among the free rows, skips
 * swaps onto blocked squares and keeps its list without repeats. One loop for both would put
 * these tests into the plain board's hot loop and change one of the two streams.
 */
function repairC(workLimit: f64): i32 {
  const m = free;
  while (collisions != 0) {
    if (candidateCount == 0) return restartC();
    if (work >= workLimit) return RUNNING;
    const k = <i32>below(<u32>candidateCount);
    const i = loadI(candidates, k);
    work++;
    if (!attackedC(i)) {
      storeI(candidates, k, loadI(candidates, --candidateCount));
      store<u8>(inList + <usize>i, 0);
      continue;
    }
    const ci = loadI(cols, i);
    let improved = false;
    for (let t = 0; t < repairTrials; t++) {
      const j = loadI(freeRows, <i32>below(<u32>m));
      work++;
      if (j == i) continue;
      const cj = loadI(cols, j);
      if (isBlocked(i, cj) || isBlocked(j, ci)) continue;
      const before = collisions;
      swapC(i, j);
      if (collisions < before) {
        improved = true;
        pushC(j);
        break;
      }
      swapC(i, j); // undo
    }
    if (improved) {
      steps++;
    } else {
      if (kicksLeft == 0) return restartC();
      kicksLeft--;
      const j = loadI(freeRows, <i32>below(<u32>m));
      if (j != i && !isBlocked(i, loadI(cols, j)) && !isBlocked(j, ci)) {
        swapC(i, j);
        pushC(j);
        steps++;
      }
    }
    if (collisions != 0 && steps >= maxSteps) return MAX_STEPS;
  }
  return FOUND;
}

/** The figures of the search, as minConflictsStat gives them on a plain board. */
export function constrainedStat(slot: i32): f64 {
  if (slot == STAT_WORK) return work;
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_STEPS) return steps;
  if (slot == STAT_CONFLICTS) return stage == STAGE_REPAIR ? <f64>collisions : -1; // not counted yet
  if (slot == STAT_PHASE) return stage == STAGE_REPAIR ? PHASE_REPAIR : PHASE_CONSTRUCT;
  return 0;
}
