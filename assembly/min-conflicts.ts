// Min-conflicts local search for very large n, after Sosic & Gu's QS4:
// R. Sosic and J. Gu, "3,000,000 Queens in Less Than One Minute", SIGART Bulletin
// 2(2), 1991, and "Efficient Local Search with Conflict Minimization: A Case Study
// of the n-Queens Problem", IEEE TKDE 6(5), 1994. Twin: src/engine/ts/min-conflicts.ts.
//
// The board is a permutation cols[row] (rows and columns never clash); a queen is
// on sum diagonal row + col and difference diagonal row - col + n - 1 (0 .. 2n-2).
// Collisions = sum over diagonals of max(0, queens on it - 1).
//  1. Prepare: cols = identity, diagonals empty.
//  2. Construct: for rows 0 .. n-c-1, swap cols[row] with cols[j], j uniform in
//     [row, n), until the queen lands on two free diagonals (at most GREEDY_TRIES
//     tries; if none, a random j, and the row becomes a candidate). The last
//     c = 32 + n / 2^20 rows (all rows when n < 64) take a random remaining column
//     and become candidates. Only greedy rows mark their diagonals, as one bit per
//     diagonal kept in the first 2n/8 bytes of each counter array: 2n/8 bytes are
//     far likelier to stay in cache than 2n counters. The partners j are drawn
//     AHEAD draws early and their columns read then, so the cache misses of cols[j]
//     overlap (Wasm has no prefetch); a partner that has become a placed row by the
//     time it is used (j < row) is skipped, which leaves the rest uniform in [row, n).
//  3. Count: expand the bits in place into one u8 counter per diagonal (from the top
//     down, so no bit is overwritten before it is read), then add the candidates'
//     queens, counting collisions. Greedy queens never share a diagonal, so every
//     collision involves a candidate.
//  4. Repair: while collisions remain, take a random candidate row i; if its queen is
//     not attacked, drop it from the list; else try swaps (i, j), j random, keeping
//     the first that lowers the collision count (the counters make each trial O(1):
//     swap, compare, undo). A queen that moves becomes a candidate, so every collision
//     still involves one. With no improving swap in min(8n, 4096) trials a random swap
//     is forced (a kick); after n + 50 kicks the try restarts.
//
// Memory, exactly: 4n (cols, i32) + 2n + 2n (u8 counters, bits first) + 64 KiB
// (candidate list) + 64 (the ring), each rounded up to 16 bytes: 8 bytes per queen
// and 64 KiB more. So n = 10^8 takes 0.8 GB, and the 4 GiB of Wasm memory hold n <= 536,846,328
// (minConflictsBytes in src/engine/ts/min-conflicts.ts). u8 counters suffice: a
// diagonal fills only through candidates and kicks, and a try restarts when a queen
// at rest stands on a diagonal holding more than CROWDED (a trial swap adds at most
// 2 to a counter before it is undone).
//
// Work (the unit of workLimit): one per row prepared, per partner drawn and per row
// in construction, per 8 diagonal pairs counted, per candidate counted or drawn, and
// per swap tried. Steps: swaps kept (improving ones and kicks). Tries: 1 + restarts.
// A unit's cost differs by phase: late in construction a partner lies in a short,
// cached range (a few ns), in repair every trial swap touches four random counters and
// a random row (100 ns or more at n = 10^6 and up). So run returns, before workLimit,
// whenever the phase changes (construct to repair, and back on a restart): its caller
// (src/search/solve.ts) sizes the chunks of each phase on their own, and the first
// repair chunk never runs on a budget measured on construction's cheap units.

import { allocate } from "./memory";
import { constrained, fixedColumn, isBlocked } from "./constraints";
import { linesOpen } from "./lines-open";
import { seedRandom, below } from "./rng";
import {
  RUNNING, FOUND, EXHAUSTED, MAX_STEPS, MAX_TRIES, STAT_WORK, STAT_TRIES, STAT_STEPS, STAT_CONFLICTS, STAT_PHASE,
  PHASE_CONSTRUCT, PHASE_REPAIR,
} from "./status";

const GREEDY_TRIES: i32 = 64;
const REPAIR_TRIALS: i32 = 4096;
const CANDIDATE_CAPACITY: i32 = 16384;
const CROWDED: i32 = 250;
/** Partners drawn ahead in construction (a power of two). */
const AHEAD: i32 = 16;

const STAGE_PREPARE: i32 = 0;
const STAGE_GREEDY: i32 = 1;
const STAGE_TAIL: i32 = 2;
const STAGE_COUNT: i32 = 3;
const STAGE_REPAIR: i32 = 4;

let size: i32 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row
let sumCount: usize = 0; // u8[2n]: queens on diagonal row + col (bits while constructing)
let diffCount: usize = 0; // u8[2n]: queens on diagonal row - col + n - 1 (bits while constructing)
let candidates: usize = 0; // i32[CANDIDATE_CAPACITY]: rows whose queen may be attacked
let candidateCount: i32 = 0;
let ahead: usize = 0; // i32[AHEAD]: partner rows drawn ahead, a ring
let aheadNext: i32 = 0; // the ring's oldest entry
let readAhead: i32 = 0; // xor of the columns read ahead: unused, it only keeps the reads
let collisions: i32 = 0;
let stage: i32 = STAGE_PREPARE;
let row: i32 = 0; // next row to prepare or construct; next byte of bits to count
let greedyEnd: i32 = 0; // rows below it are placed greedily, the rest at random
let repairTrials: i32 = 0;
let kicksLeft: i32 = 0;
let restartNeeded: bool = false;
let status: i32 = RUNNING;
let work: f64 = 0;
let steps: f64 = 0;
let tries: f64 = 1;
let maxSteps: f64 = 0;
let maxTries: f64 = 0;

/**
 * Allocate and reset for an n x n board; returns the columns buffer, 0 if out of memory.
 * Honours the job's constraints (assembly/constraints.ts), if any.
 */
export function minConflictsInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  withConstraints = constrained;
  if (withConstraints) return initConstrained(n, seed, stepCap, tryCap);
  size = n;
  maxSteps = stepCap;
  maxTries = tryCap;
  status = RUNNING; // (an instance may be reused for another job: reset everything)
  work = 0;
  steps = 0;
  tries = 1;
  cols = allocate(<usize>n << 2);
  sumCount = allocate(<usize>n << 1);
  diffCount = allocate(<usize>n << 1);
  candidates = allocate(<usize>CANDIDATE_CAPACITY << 2);
  ahead = allocate(<usize>AHEAD << 2);
  if (cols == 0 || sumCount == 0 || diffCount == 0 || candidates == 0 || ahead == 0) return 0;
  const tail = n < 64 ? n : 32 + (n >> 20);
  greedyEnd = n - tail;
  repairTrials = n < REPAIR_TRIALS / 8 ? 8 * n : REPAIR_TRIALS;
  seedRandom(seed);
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

@inline function sumAt(r: i32, c: i32): usize {
  return sumCount + <usize>(r + c);
}

@inline function diffAt(r: i32, c: i32): usize {
  return diffCount + <usize>(r - c + size - 1);
}

/** Bit `k` of the bitset at `bits` (byte k / 8, bit k % 8). */
@inline function bitAt(bits: usize, k: i32): i32 {
  return (<i32>load<u8>(bits + <usize>(k >>> 3)) >>> (k & 7)) & 1;
}

@inline function setBit(bits: usize, k: i32): void {
  const at = bits + <usize>(k >>> 3);
  store<u8>(at, <u8>(<i32>load<u8>(at) | (<i32>1 << (k & 7))));
}

/** Put a queen on (r, c)'s diagonals, counting the collisions it makes. */
@inline function addQueen(r: i32, c: i32): void {
  const s = load<u8>(sumAt(r, c));
  const d = load<u8>(diffAt(r, c));
  collisions += <i32>(s != 0) + <i32>(d != 0);
  store<u8>(sumAt(r, c), s + 1);
  store<u8>(diffAt(r, c), d + 1);
}

/** Take a queen off (r, c)'s diagonals, counting the collisions it leaves. */
@inline function removeQueen(r: i32, c: i32): void {
  const s = load<u8>(sumAt(r, c)) - 1;
  const d = load<u8>(diffAt(r, c)) - 1;
  collisions -= <i32>(s != 0) + <i32>(d != 0);
  store<u8>(sumAt(r, c), s);
  store<u8>(diffAt(r, c), d);
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
  return load<u8>(sumAt(r, c)) > 1 || load<u8>(diffAt(r, c)) > 1;
}

/** Whether the queen of row r stands on a diagonal close to the u8 counters' limit. */
@inline function crowded(r: i32): bool {
  const c = load<i32>(colAt(r));
  return <i32>load<u8>(sumAt(r, c)) > CROWDED || <i32>load<u8>(diffAt(r, c)) > CROWDED;
}

@inline function aheadAt(k: i32): usize {
  return ahead + (<usize>k << 2);
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

/**
 * Keep each attacked row once (order kept), marking kept rows by complementing
 * their column for the pass. Restart if the list stays over half full.
 */
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
  if (withConstraints) return runConstrained(workLimit);
  while (status == RUNNING) {
    const repairing = stage == STAGE_REPAIR;
    if (stage == STAGE_PREPARE) status = prepare(workLimit);
    else if (stage == STAGE_GREEDY) status = constructGreedy(workLimit);
    else if (stage == STAGE_TAIL) status = constructTail(workLimit);
    else if (stage == STAGE_COUNT) status = countDiagonals(workLimit);
    else status = repair(workLimit);
    if (work >= workLimit || (stage == STAGE_REPAIR) != repairing) break; // a new phase: see the header
  }
  return status;
}

/** Step 1: identity permutation, diagonals empty. */
function prepare(workLimit: f64): i32 {
  const n = size;
  while (row < n) {
    if (work >= workLimit) return RUNNING;
    store<i32>(colAt(row), row);
    store<u16>(sumCount + (<usize>row << 1), 0);
    store<u16>(diffCount + (<usize>row << 1), 0);
    row++;
    work++;
  }
  stage = STAGE_GREEDY;
  row = 0;
  for (let k = 0; k < AHEAD; k++) store<i32>(aheadAt(k), <i32>below(<u32>n));
  aheadNext = 0;
  return RUNNING;
}

/** Step 2a: rows 0 .. greedyEnd-1, each on free diagonals if a few random tries find one. */
function constructGreedy(workLimit: f64): i32 {
  const n = size;
  const sumBits = sumCount;
  const diffBits = diffCount;
  while (row < greedyEnd) {
    if (work >= workLimit) return RUNNING;
    const i = row;
    const remaining = <u32>(n - i);
    const diffRow = i + n - 1;
    let t = 0;
    let draws = 0;
    let next = aheadNext;
    let read = readAhead;
    while (t < GREEDY_TRIES) {
      const j = load<i32>(aheadAt(next));
      const drawn = i + <i32>below(remaining);
      store<i32>(aheadAt(next), drawn);
      read ^= load<i32>(colAt(drawn)); // start the cache miss now
      next = (next + 1) & (AHEAD - 1);
      draws++;
      if (j < i) continue; // placed since it was drawn
      t++;
      const cj = load<i32>(colAt(j));
      if ((bitAt(sumBits, i + cj) | bitAt(diffBits, diffRow - cj)) == 0) {
        swapColumns(i, j);
        setBit(sumBits, i + cj);
        setBit(diffBits, diffRow - cj);
        break;
      }
    }
    aheadNext = next;
    readAhead = read;
    if (t == GREEDY_TRIES) {
      swapColumns(i, i + <i32>below(remaining));
      pushCandidate(i);
    }
    work += <f64>(draws + 1);
    row++;
  }
  stage = STAGE_TAIL;
  return RUNNING;
}

/** Step 2b: the last rows take a random remaining column, free diagonals or not. */
function constructTail(workLimit: f64): i32 {
  const n = size;
  while (row < n) {
    if (work >= workLimit) return RUNNING;
    swapColumns(row, row + <i32>below(<u32>(n - row)));
    pushCandidate(row);
    row++;
    work++;
  }
  stage = STAGE_COUNT;
  row = (2 * n - 1) >>> 3; // the top byte of the bitsets
  return RUNNING;
}

/** Eight bits to eight 0/1 bytes: bit k of `bits` becomes byte k (little-endian), by halving the gaps. */
@inline function bitsToBytes(bits: u8): u64 {
  let x = <u64>bits;
  x = (x | (x << 28)) & 0x0000000F_0000000F; // bits 4..7 to 32..35
  x = (x | (x << 14)) & 0x00030003_00030003; // then 2, 3 of each half up by 14
  return (x | (x << 7)) & 0x01010101_01010101; // then the upper bit of each pair up by 7: bit k at 8k
}

/** Step 3: bits to counters, top down, then the candidates' queens with their collisions. */
function countDiagonals(workLimit: f64): i32 {
  while (row >= 0) {
    if (work >= workLimit) return RUNNING;
    // Byte `row` of each bitset becomes counters 8 row .. 8 row + 7, which only
    // overwrite bytes of bits already expanded (8 row >= row). One 8-byte store per
    // bitset (the TS twin writes the bytes one by one); the top one may write zeros
    // past counter 2n - 1, into the allocation's padding to 16 bytes.
    const low = <usize>row << 3;
    store<u64>(sumCount + low, bitsToBytes(load<u8>(sumCount + <usize>row)));
    store<u64>(diffCount + low, bitsToBytes(load<u8>(diffCount + <usize>row)));
    row--;
    work++;
  }
  for (let k = 0; k < candidateCount; k++) {
    const r = load<i32>(candidateAt(k));
    addQueen(r, load<i32>(colAt(r)));
  }
  for (let k = 0; k < candidateCount; k++) {
    if (crowded(load<i32>(candidateAt(k)))) restartNeeded = true;
  }
  work += <f64>candidateCount;
  stage = STAGE_REPAIR;
  if (restartNeeded) return restart();
  return collisions == 0 ? FOUND : RUNNING;
}

/** Step 4: conflict-driven swaps on the candidates until no collision is left. */
function repair(workLimit: f64): i32 {
  const n = size;
  while (collisions != 0) {
    if (restartNeeded || candidateCount == 0) return restart();
    if (work >= workLimit) return RUNNING;
    const k = <i32>below(<u32>candidateCount);
    const i = load<i32>(candidateAt(k));
    work++;
    if (!attacked(i)) {
      store<i32>(candidateAt(k), load<i32>(candidateAt(--candidateCount)));
      continue;
    }
    let improved = false;
    for (let t = 0; t < repairTrials; t++) {
      const j = <i32>below(<u32>n);
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
      const j = <i32>below(<u32>n);
      if (j != i) {
        swapRows(i, j);
        pushCandidate(j);
        if (crowded(i) || crowded(j)) restartNeeded = true;
        steps++;
      }
    }
    if (collisions != 0 && steps >= maxSteps) return MAX_STEPS;
  }
  return FOUND;
}

/** The figures of the search (no nodes: local search places no queens one by one). */
export function minConflictsStat(slot: i32): f64 {
  if (slot == STAT_WORK) return work;
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_STEPS) return steps;
  if (slot == STAT_CONFLICTS) return stage == STAGE_REPAIR ? <f64>collisions : -1; // not counted yet
  if (slot == STAT_PHASE) return stage == STAGE_REPAIR ? PHASE_REPAIR : PHASE_CONSTRUCT;
  return 0;
}

// ---- Constrained boards ----
// Given queens never move and no queen is ever put on a blocked square. A simpler
// version of the above, for n <= 10^6 (MIN_CONFLICTS_CONSTRAINED_MAX_N in
// src/engine/ts/min-conflicts.ts): i32 counters from the start (no bits), the given
// queens on them first; the m rows without a given queen hold the m columns no given
// queen holds.
//  Construct: free rows in increasing order; row k draws a partner among the columns
//  not yet placed (pool[k..m-1]) up to GREEDY_TRIES times for an open square on free
//  diagonals; failing that, the first open square scanning the rest from a random
//  point (a candidate if attacked); if every remaining column is blocked in that row,
//  the try restarts.
//  Repair: as above, on a list of candidate rows without repeats (a flag per row),
//  partners drawn among the free rows; a swap that would put either queen on a
//  blocked square is not made (it counts as a trial, or as a kick not made).
// Work: one per draw or square looked at in construction, per candidate drawn and per
// trial. If the givens leave a row or column without a square (linesOpen), no
// completion exists: EXHAUSTED at once.

let withConstraints: bool = false;
let proved: bool = false;
let free: i32 = 0; // m
let freeRows: usize = 0; // i32[m]
let freeCols: usize = 0; // i32[m]: columns no given queen holds, increasing
let pool: usize = 0; // i32[m]: construction: pool[k..m-1] are the columns left
let inList: usize = 0; // u8[n]: row r is in the candidate list
let sumAll: usize = 0; // i32[2n]: queens on diagonal row + col
let diffAll: usize = 0; // i32[2n]: queens on diagonal row - col + n - 1
let placing: i32 = 0; // the next free row (index) to construct

@inline function loadI(base: usize, k: i32): i32 {
  return load<i32>(base + (<usize>k << 2));
}

@inline function storeI(base: usize, k: i32, v: i32): void {
  store<i32>(base + (<usize>k << 2), v);
}

function initConstrained(n: i32, seed: u32, stepCap: f64, tryCap: f64): usize {
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
  stage = STAGE_GREEDY;
}

function restartC(): i32 {
  if (tries >= maxTries) return MAX_TRIES;
  tries++;
  startConstrained();
  return RUNNING;
}

function runConstrained(workLimit: f64): i32 {
  if (proved) return EXHAUSTED;
  while (status == RUNNING) {
    const repairing = stage == STAGE_REPAIR;
    if (stage == STAGE_GREEDY) status = constructC(workLimit);
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
