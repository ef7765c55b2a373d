// Twin of assembly/min-conflicts.ts (read its header): min-conflicts local search
// after Sosic & Gu's QS4 (SIGART Bulletin 2(2), 1991; IEEE TKDE 6(5), 1994).
// Greedy randomised construction of a permutation with diagonal bits, partners
// drawn ahead; the bits expanded into u8 diagonal counters; conflict-driven swaps on
// the few candidate rows. Same steps, same draws, same figures; typed arrays and
// small integers only, so V8 keeps it all in 32-bit registers.
import { EXHAUSTED, FOUND, MAX_STEPS, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";
import { Random } from "./rng.js";
import { activeConstraints, linesOpen } from "./lines-open.js";
import { isBlockedSquare as isBlocked, type Constraints } from "../../board/constraints.js";

const GREEDY_TRIES = 64;
const REPAIR_TRIALS = 4096;
const CANDIDATE_CAPACITY = 16384;
const CROWDED = 250;
/** Partners drawn ahead in construction (a power of two). */
const AHEAD = 16;

const STAGE_PREPARE = 0;
const STAGE_GREEDY = 1;
const STAGE_TAIL = 2;
const STAGE_COUNT = 3;
const STAGE_REPAIR = 4;

/** Bytes of Wasm memory the kernel's module takes for its own data, below its heap. */
const STATIC_BYTES = 65536;
/** The most bytes the Wasm kernels can allocate (assembly/memory.ts stops at 0xFFFF0000). */
export const WASM_HEAP_BYTES = 0xffff0000 - STATIC_BYTES;

const round16 = (bytes: number): number => Math.ceil(bytes / 16) * 16;

/**
 * Bytes min-conflicts allocates for n queens: 4n (columns) + 2n + 2n (u8 diagonal
 * counters) + 64 KiB (candidate list) + 64 (ring of partners drawn ahead), each
 * rounded up to 16: 8 bytes per queen, and 64 KiB more.
 */
export function minConflictsBytes(n: number): number {
  return round16(4 * n) + 2 * round16(2 * n) + round16(4 * CANDIDATE_CAPACITY) + round16(4 * AHEAD);
}

/** The largest n whose min-conflicts state fits in the 4 GiB of Wasm memory. */
export const MIN_CONFLICTS_MAX_N: number = (() => {
  let n = Math.floor((WASM_HEAP_BYTES - 4 * CANDIDATE_CAPACITY - 4 * AHEAD) / 8);
  while (minConflictsBytes(n) > WASM_HEAP_BYTES) n--;
  return n;
})();

export function openMinConflicts(n: number, params: SearchParams): Search {
  const constraints = activeConstraints(params.constraints);
  if (constraints) return openMinConflictsConstrained(n, params, constraints);
  const size = n;
  const maxSteps = params.maxSteps;
  const maxTries = params.maxTries;
  const cols = new Int32Array(n); // column of the queen in each row
  const sumCount = new Uint8Array(2 * n); // queens on diagonal row + col (bits while constructing)
  const diffCount = new Uint8Array(2 * n); // queens on diagonal row - col + n - 1 (bits while constructing)
  const diffBase = n - 1;
  const candidates = new Int32Array(CANDIDATE_CAPACITY); // rows whose queen may be attacked
  let candidateCount = 0;
  const ahead = new Int32Array(AHEAD); // partner rows drawn ahead, a ring
  let aheadNext = 0; // the ring's oldest entry
  let readAhead = 0; // xor of the columns read ahead: unused, it only keeps the reads
  let collisions = 0;
  let stage = STAGE_PREPARE;
  let row = 0; // next row to prepare or construct; next byte of bits to count
  const tail = n < 64 ? n : 32 + (n >> 20);
  const greedyEnd = n - tail; // rows below it are placed greedily, the rest at random
  const repairTrials = n < REPAIR_TRIALS / 8 ? 8 * n : REPAIR_TRIALS;
  let kicksLeft = 0;
  let restartNeeded = false;
  let status: SearchStatus = RUNNING;
  let work = 0;
  let steps = 0;
  let tries = 1;
  const random = new Random(params.seed);
  startTry();

  function startTry(): void {
    stage = STAGE_PREPARE;
    row = 0;
    candidateCount = 0;
    collisions = 0;
    kicksLeft = size + 50;
    restartNeeded = false;
  }

  /** Bit k of a bitset (byte k / 8, bit k % 8). */
  function bitAt(bits: Uint8Array, k: number): number {
    return (bits[k >>> 3] >>> (k & 7)) & 1;
  }

  function setBit(bits: Uint8Array, k: number): void {
    bits[k >>> 3] |= 1 << (k & 7);
  }

  /** Put a queen on (r, c)'s diagonals, counting the collisions it makes. */
  function addQueen(r: number, c: number): void {
    const s = sumCount[r + c];
    const d = diffCount[diffBase + r - c];
    collisions += (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
    sumCount[r + c] = s + 1;
    diffCount[diffBase + r - c] = d + 1;
  }

  /** Take a queen off (r, c)'s diagonals, counting the collisions it leaves. */
  function removeQueen(r: number, c: number): void {
    const s = sumCount[r + c] - 1;
    const d = diffCount[diffBase + r - c] - 1;
    collisions -= (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
    sumCount[r + c] = s;
    diffCount[diffBase + r - c] = d;
  }

  /** Swap the queens of rows i and j, keeping the counters and collisions exact. */
  function swapRows(i: number, j: number): void {
    const ci = cols[i];
    const cj = cols[j];
    removeQueen(i, ci);
    removeQueen(j, cj);
    addQueen(i, cj);
    addQueen(j, ci);
    cols[i] = cj;
    cols[j] = ci;
  }

  function swapColumns(i: number, j: number): void {
    const ci = cols[i];
    cols[i] = cols[j];
    cols[j] = ci;
  }

  function attacked(r: number): boolean {
    const c = cols[r];
    return sumCount[r + c] > 1 || diffCount[diffBase + r - c] > 1;
  }

  /** Whether the queen of row r stands on a diagonal close to the u8 counters' limit. */
  function crowded(r: number): boolean {
    const c = cols[r];
    return sumCount[r + c] > CROWDED || diffCount[diffBase + r - c] > CROWDED;
  }

  /** Remember row r. A full list is compacted (repair) or forces a restart (construction). */
  function pushCandidate(r: number): void {
    if (candidateCount === CANDIDATE_CAPACITY) {
      if (stage === STAGE_REPAIR) compactCandidates();
      else restartNeeded = true;
    }
    if (candidateCount === CANDIDATE_CAPACITY) return; // (restartNeeded is set)
    candidates[candidateCount++] = r;
  }

  /**
   * Keep each attacked row once (order kept), marking kept rows by complementing
   * their column for the pass. Restart if the list stays over half full.
   */
  function compactCandidates(): void {
    let kept = 0;
    for (let k = 0; k < candidateCount; k++) {
      const r = candidates[k];
      const c = cols[r];
      if (c < 0 || !attacked(r)) continue;
      cols[r] = ~c;
      candidates[kept++] = r;
    }
    for (let k = 0; k < kept; k++) {
      const r = candidates[k];
      cols[r] = ~cols[r];
    }
    candidateCount = kept;
    if (kept > CANDIDATE_CAPACITY / 2) restartNeeded = true;
  }

  /** Stop this try; start another unless maxTries is spent. */
  function restart(): SearchStatus {
    if (tries >= maxTries) return MAX_TRIES;
    tries++;
    startTry();
    return RUNNING;
  }

  function run(workLimit: number): SearchStatus {
    while (status === RUNNING) {
      const repairing = stage === STAGE_REPAIR;
      if (stage === STAGE_PREPARE) status = prepare(workLimit);
      else if (stage === STAGE_GREEDY) status = constructGreedy(workLimit);
      else if (stage === STAGE_TAIL) status = constructTail(workLimit);
      else if (stage === STAGE_COUNT) status = countDiagonals(workLimit);
      else status = repair(workLimit);
      // A new phase ends the run (the twin's header): the caller sizes each phase's chunks on their own.
      if (work >= workLimit || (stage === STAGE_REPAIR) !== repairing) break;
    }
    return status;
  }

  /** Step 1: identity permutation, diagonals empty. */
  function prepare(workLimit: number): SearchStatus {
    const n = size;
    while (row < n) {
      if (work >= workLimit) return RUNNING;
      cols[row] = row;
      sumCount[2 * row] = 0;
      sumCount[2 * row + 1] = 0;
      diffCount[2 * row] = 0;
      diffCount[2 * row + 1] = 0;
      row++;
      work++;
    }
    stage = STAGE_GREEDY;
    row = 0;
    for (let k = 0; k < AHEAD; k++) ahead[k] = random.below(n);
    aheadNext = 0;
    return RUNNING;
  }

  /** Step 2a: rows 0 .. greedyEnd-1, each on free diagonals if a few random tries find one. */
  function constructGreedy(workLimit: number): SearchStatus {
    const n = size;
    const sumBits = sumCount;
    const diffBits = diffCount;
    while (row < greedyEnd) {
      if (work >= workLimit) return RUNNING;
      const i = row;
      const remaining = n - i;
      const diffRow = i + n - 1;
      let t = 0;
      let draws = 0;
      let next = aheadNext;
      let read = readAhead;
      while (t < GREEDY_TRIES) {
        const j = ahead[next];
        const drawn = i + random.below(remaining);
        ahead[next] = drawn;
        read ^= cols[drawn]; // start the cache miss now
        next = (next + 1) & (AHEAD - 1);
        draws++;
        if (j < i) continue; // placed since it was drawn
        t++;
        const cj = cols[j];
        if ((bitAt(sumBits, i + cj) | bitAt(diffBits, diffRow - cj)) === 0) {
          swapColumns(i, j);
          setBit(sumBits, i + cj);
          setBit(diffBits, diffRow - cj);
          break;
        }
      }
      aheadNext = next;
      readAhead = read;
      if (t === GREEDY_TRIES) {
        swapColumns(i, i + random.below(remaining));
        pushCandidate(i);
      }
      work += draws + 1;
      row++;
    }
    stage = STAGE_TAIL;
    return RUNNING;
  }

  /** Step 2b: the last rows take a random remaining column, free diagonals or not. */
  function constructTail(workLimit: number): SearchStatus {
    const n = size;
    while (row < n) {
      if (work >= workLimit) return RUNNING;
      swapColumns(row, row + random.below(n - row));
      pushCandidate(row);
      row++;
      work++;
    }
    stage = STAGE_COUNT;
    row = (2 * n - 1) >>> 3; // the top byte of the bitsets
    return RUNNING;
  }

  /** Step 3: bits to counters, top down, then the candidates' queens with their collisions. */
  function countDiagonals(workLimit: number): SearchStatus {
    const last = 2 * size - 1;
    while (row >= 0) {
      if (work >= workLimit) return RUNNING;
      // Byte `row` of each bitset becomes counters 8 row .. 8 row + 7, which only
      // overwrite bytes of bits already expanded (8 row >= row).
      const sumBits = sumCount[row];
      const diffBits = diffCount[row];
      const low = row << 3;
      const high = Math.min(low + 7, last);
      for (let k = high; k >= low; k--) {
        sumCount[k] = (sumBits >>> (k & 7)) & 1;
        diffCount[k] = (diffBits >>> (k & 7)) & 1;
      }
      row--;
      work++;
    }
    for (let k = 0; k < candidateCount; k++) {
      const r = candidates[k];
      addQueen(r, cols[r]);
    }
    for (let k = 0; k < candidateCount; k++) {
      if (crowded(candidates[k])) restartNeeded = true;
    }
    work += candidateCount;
    stage = STAGE_REPAIR;
    if (restartNeeded) return restart();
    return collisions === 0 ? FOUND : RUNNING;
  }

  /** Step 4: conflict-driven swaps on the candidates until no collision is left. */
  function repair(workLimit: number): SearchStatus {
    const n = size;
    while (collisions !== 0) {
      if (restartNeeded || candidateCount === 0) return restart();
      if (work >= workLimit) return RUNNING;
      const k = random.below(candidateCount);
      const i = candidates[k];
      work++;
      if (!attacked(i)) {
        candidates[k] = candidates[--candidateCount];
        continue;
      }
      let improved = false;
      for (let t = 0; t < repairTrials; t++) {
        const j = random.below(n);
        work++;
        if (j === i) continue;
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
        if (kicksLeft === 0) return restart();
        kicksLeft--;
        const j = random.below(n);
        if (j !== i) {
          swapRows(i, j);
          pushCandidate(j);
          if (crowded(i) || crowded(j)) restartNeeded = true;
          steps++;
        }
      }
      if (collisions !== 0 && steps >= maxSteps) return MAX_STEPS;
    }
    return FOUND;
  }

  return {
    run,
    work: () => work,
    stats: () => ({ nodes: 0, tries, steps }),
    // Collisions are counted once construction is over (-1 until then).
    state: () => ({ phase: stage === STAGE_REPAIR ? "repair" : "construct", conflicts: stage === STAGE_REPAIR ? collisions : -1 }),
    columns: () => cols.slice(),
    close() {},
  };
}

// ---- Constrained boards, twin of the same section of assembly/min-conflicts.ts ----

/**
 * Largest n min-conflicts takes on a constrained board: its state is about 45 bytes per
 * row (i32 counters, lists of free rows and columns, the constraints), and the
 * construction's fallback scan can cost O(m) for a row whose drawn squares are all
 * blocked, so 10^6 keeps a solve within memory and minutes.
 */
export const MIN_CONFLICTS_CONSTRAINED_MAX_N = 1_000_000;

function openMinConflictsConstrained(n: number, params: SearchParams, k: Constraints): Search {
  const size = n;
  const maxSteps = params.maxSteps;
  const maxTries = params.maxTries;
  const given = k.fixedColumn;
  const cols = new Int32Array(n);
  const held = new Uint8Array(n);
  const rows: number[] = [];
  for (let r = 0; r < n; r++) {
    if (given[r] >= 0) {
      cols[r] = given[r];
      held[given[r]] = 1;
    } else rows.push(r);
  }
  const freeRows = Int32Array.from(rows);
  const m = freeRows.length;
  const freeCols = new Int32Array(m);
  for (let c = 0, j = 0; c < n; c++) if (!held[c]) freeCols[j++] = c;
  const pool = new Int32Array(m);
  const candidates = new Int32Array(n);
  const inList = new Uint8Array(n);
  const sumAll = new Int32Array(2 * n);
  const diffAll = new Int32Array(2 * n);
  const diffBase = n - 1;
  const repairTrials = m < REPAIR_TRIALS / 8 ? 8 * m : REPAIR_TRIALS;
  const proved = !linesOpen(k);
  const random = new Random(params.seed);
  let candidateCount = 0;
  let collisions = 0;
  let stage = STAGE_GREEDY;
  let placing = 0;
  let kicksLeft = 0;
  let status: SearchStatus = RUNNING;
  let work = 0;
  let steps = 0;
  let tries = 1;

  function add(r: number, c: number): void {
    const s = sumAll[r + c];
    const d = diffAll[diffBase + r - c];
    collisions += (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
    sumAll[r + c] = s + 1;
    diffAll[diffBase + r - c] = d + 1;
  }

  function remove(r: number, c: number): void {
    const s = sumAll[r + c] - 1;
    const d = diffAll[diffBase + r - c] - 1;
    collisions -= (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
    sumAll[r + c] = s;
    diffAll[diffBase + r - c] = d;
  }

  function swap(i: number, j: number): void {
    const ci = cols[i];
    const cj = cols[j];
    remove(i, ci);
    remove(j, cj);
    add(i, cj);
    add(j, ci);
    cols[i] = cj;
    cols[j] = ci;
  }

  function attacked(r: number): boolean {
    const c = cols[r];
    return sumAll[r + c] > 1 || diffAll[diffBase + r - c] > 1;
  }

  function push(r: number): void {
    if (inList[r]) return;
    inList[r] = 1;
    candidates[candidateCount++] = r;
  }

  function start(): void {
    sumAll.fill(0);
    diffAll.fill(0);
    inList.fill(0);
    collisions = 0;
    for (let r = 0; r < n; r++) if (given[r] >= 0) add(r, given[r]);
    pool.set(freeCols);
    candidateCount = 0;
    placing = 0;
    kicksLeft = m + 50;
    stage = STAGE_GREEDY;
  }

  function restart(): SearchStatus {
    if (tries >= maxTries) return MAX_TRIES;
    tries++;
    start();
    return RUNNING;
  }

  function construct(workLimit: number): SearchStatus {
    while (placing < m) {
      if (work >= workLimit) return RUNNING;
      const kk = placing;
      const r = freeRows[kk];
      const left = m - kk;
      let chosen = -1;
      for (let t = 0; t < GREEDY_TRIES; t++) {
        const j = kk + random.below(left);
        work++;
        const c = pool[j];
        if (sumAll[r + c] === 0 && diffAll[diffBase + r - c] === 0 && !isBlocked(k, r, c)) {
          chosen = j;
          break;
        }
      }
      if (chosen < 0) {
        let j = kk + random.below(left);
        for (let t = 0; t < left; t++) {
          work++;
          if (!isBlocked(k, r, pool[j])) {
            chosen = j;
            break;
          }
          j++;
          if (j === m) j = kk;
        }
        if (chosen < 0) return restart();
      }
      const c = pool[chosen];
      pool[chosen] = pool[kk];
      pool[kk] = c;
      cols[r] = c;
      add(r, c);
      if (attacked(r)) push(r);
      placing++;
    }
    stage = STAGE_REPAIR;
    return collisions === 0 ? FOUND : RUNNING;
  }

  function repair(workLimit: number): SearchStatus {
    while (collisions !== 0) {
      if (candidateCount === 0) return restart();
      if (work >= workLimit) return RUNNING;
      const kk = random.below(candidateCount);
      const i = candidates[kk];
      work++;
      if (!attacked(i)) {
        candidates[kk] = candidates[--candidateCount];
        inList[i] = 0;
        continue;
      }
      const ci = cols[i];
      let improved = false;
      for (let t = 0; t < repairTrials; t++) {
        const j = freeRows[random.below(m)];
        work++;
        if (j === i) continue;
        if (isBlocked(k, i, cols[j]) || isBlocked(k, j, ci)) continue;
        const before = collisions;
        swap(i, j);
        if (collisions < before) {
          improved = true;
          push(j);
          break;
        }
        swap(i, j); // undo
      }
      if (improved) {
        steps++;
      } else {
        if (kicksLeft === 0) return restart();
        kicksLeft--;
        const j = freeRows[random.below(m)];
        if (j !== i && !isBlocked(k, i, cols[j]) && !isBlocked(k, j, ci)) {
          swap(i, j);
          push(j);
          steps++;
        }
      }
      if (collisions !== 0 && steps >= maxSteps) return MAX_STEPS;
    }
    return FOUND;
  }

  function run(workLimit: number): SearchStatus {
    if (proved) return EXHAUSTED;
    while (status === RUNNING) {
      const repairing = stage === STAGE_REPAIR;
      status = stage === STAGE_GREEDY ? construct(workLimit) : repair(workLimit);
      if (work >= workLimit || (stage === STAGE_REPAIR) !== repairing) break; // a new phase
    }
    return status;
  }

  start();
  return {
    run,
    work: () => work,
    stats: () => ({ nodes: 0, tries, steps }),
    state: () => ({ phase: stage === STAGE_REPAIR ? "repair" : "construct", conflicts: stage === STAGE_REPAIR ? collisions : -1 }),
    columns: () => cols.slice(),
    close() {},
  };
}
