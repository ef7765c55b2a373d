// Twin of assembly/min-conflicts.ts (read its header): min-conflicts local search
// after Sosic & Gu's QS4 (SIGART Bulletin 2(2), 1991; IEEE TKDE 6(5), 1994).
// Greedy randomised construction of a permutation with diagonal bits (the better of two
// random groups of 32 columns while many remain, within a block's window from n = 2^22, then
// swaps with a random partner row); the bits expanded into diagonal counters (u8, or 2-bit
// from n = 2^22: min-conflicts-counters.ts); conflict-driven swaps on the few candidate rows.
// Same steps, same draws, same figures; typed arrays and small integers only, so V8 keeps it
// all in 32-bit registers.
import { FOUND, MAX_STEPS, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";
import { Random } from "./rng.js";
import { bitAt, draw, drawGroup, firstFrom, openColumns, popcount, setBit } from "./min-conflicts-bits.js";
import { activeConstraints } from "./lines-open.js";
import { openMinConflictsConstrained } from "./min-conflicts-constrained.js";
import { CANDIDATE_CAPACITY, GREEDY_TRIES, NARROW_FROM, REPAIR_TRIALS, WINDOWED_FROM, WINDOW_ROWS, WINDOW_TRIES, counterSetBytes } from "./min-conflicts-params.js";
import { Windows } from "./min-conflicts-windows.js";
import { CROWDED, OverflowList, addOne, countAt, expandNarrow, fieldAt, removeOne } from "./min-conflicts-counters.js";

export { MIN_CONFLICTS_CONSTRAINED_MAX_N } from "./min-conflicts-constrained.js";
// The memory sizing lives below the registry (min-conflicts-params.ts); solve and the tests read it here too.
export { MIN_CONFLICTS_MAX_N, WASM_HEAP_BYTES, minConflictsBytes } from "./min-conflicts-params.js";

/** Rows take group draws while more than n / 2^DIRECT_SHIFT columns remain. */
const DIRECT_SHIFT = 6;
/** Bytes of bits zeroed per unit of work in the prepare stage. */
const PREPARE_BYTES = 256;

const STAGE_PREPARE = 0;
const STAGE_DIRECT = 1;
const STAGE_GATHER = 2;
const STAGE_GREEDY = 3;
const STAGE_COUNT = 4;
const STAGE_REPAIR = 5;

// One function of about 360 lines, on purpose: the twin keeps the kernel's state in the
// closure's local variables, as assembly/min-conflicts.ts keeps it in locals and globals, so
// its hot loops read no object property. Split into functions, each would take the arrays as
// arguments or from an object; that is the shape the engine measured 2.4 to 2.6 times slower
// than Wasm with (bench min-conflicts: ts/wasm), and no split was measured not to cost more.
export function openMinConflicts(n: number, params: SearchParams): Search {
  const constraints = activeConstraints(params.constraints);
  if (constraints) return openMinConflictsConstrained(n, params, constraints);
  const size = n;
  const maxSteps = params.maxSteps;
  const maxTries = params.maxTries;
  const cols = new Int32Array(n); // column of the queen in each row
  // 2-bit counters from NARROW_FROM (param bit 1 forces them, for the tests): min-conflicts-counters.ts.
  const narrow = n >= NARROW_FROM || ((params.param ?? 0) & 1) !== 0;
  const overflow = new OverflowList();
  const sumCount = new Uint8Array(counterSetBytes(n, narrow)); // queens on diagonal row + col (bits while constructing)
  const diffCount = new Uint8Array(sumCount.length); // queens on diagonal col - row + n - 1 (bits while constructing)
  const sumBits = new Uint32Array(sumCount.buffer, 0, sumCount.length >>> 2); // and the 2-bit counters' words
  const diffBits = new Uint32Array(diffCount.buffer, 0, diffCount.length >>> 2);
  const diffBase = n - 1;
  const candidates = new Int32Array(CANDIDATE_CAPACITY); // rows whose queen may be attacked
  let candidateCount = 0;
  let collisions = 0;
  let stage = STAGE_PREPARE;
  let row = 0; // next row to construct or fill; next byte to zero or to count
  let scan = 0; // gather: next word of the column bits to read
  const tail = n < 64 ? n : 32 + (n >> 20);
  const greedyEnd = n - tail; // rows below it are placed greedily, the rest at random
  const directEnd = Math.min(greedyEnd, n - (n >> DIRECT_SHIFT)); // rows below it take group draws
  const bitWords = ((2 * n - 2) >>> 5) + 1; // words of each bitset of diagonals (2n - 1 bits)
  const groups = (n + 31) >>> 5; // groups of 32 columns (words of the column bits), the last one padded past n
  const used = diffBits.subarray(bitWords, bitWords + groups); // columns taken (or past n): 4 (bitWords + groups) <= 2n + SPARE_BYTES
  const repairTrials = n < REPAIR_TRIALS / 8 ? 8 * n : REPAIR_TRIALS;
  // Windowed draws from WINDOWED_FROM (param bit 2 forces them, for the tests): min-conflicts-windows.ts.
  const windowed = n >= WINDOWED_FROM || ((params.param ?? 0) & 2) !== 0;
  const windows = new Windows(groups, windowed);
  let blockLeft = 0; // rows the block may still place in its window
  let windowFirst = 0; // its first column and its groups, as `windows` drew them (locals: read once a row)
  let windowGroups = groups;
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

  /** Put a queen on (r, c)'s diagonals, counting the collisions it makes. */
  function addQueen(r: number, c: number): void {
    if (narrow) {
      const s = addOne(sumBits, 0, r + c, overflow);
      const d = addOne(diffBits, 1, diffBase + c - r, overflow);
      collisions += (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
      return;
    }
    const s = sumCount[r + c];
    const d = diffCount[diffBase + c - r];
    collisions += (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
    sumCount[r + c] = s + 1;
    diffCount[diffBase + c - r] = d + 1;
  }

  /** Take a queen off (r, c)'s diagonals, counting the collisions it leaves. */
  function removeQueen(r: number, c: number): void {
    if (narrow) {
      const s = removeOne(sumBits, 0, r + c, overflow);
      const d = removeOne(diffBits, 1, diffBase + c - r, overflow);
      collisions -= (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
      return;
    }
    const s = sumCount[r + c] - 1;
    const d = diffCount[diffBase + c - r] - 1;
    collisions -= (s !== 0 ? 1 : 0) + (d !== 0 ? 1 : 0);
    sumCount[r + c] = s;
    diffCount[diffBase + c - r] = d;
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
    if (narrow) return fieldAt(sumBits, r + c) > 1 || fieldAt(diffBits, diffBase + c - r) > 1;
    return sumCount[r + c] > 1 || diffCount[diffBase + c - r] > 1;
  }

  /** Whether the queen of row r stands on a diagonal close to the u8 counters' limit. */
  function crowded(r: number): boolean {
    const c = cols[r];
    if (narrow) return countAt(sumBits, 0, r + c, overflow) > CROWDED || countAt(diffBits, 1, diffBase + c - r, overflow) > CROWDED;
    return sumCount[r + c] > CROWDED || diffCount[diffBase + c - r] > CROWDED;
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
      else if (stage === STAGE_DIRECT) status = constructDirect(workLimit);
      else if (stage === STAGE_GATHER) status = gather(workLimit);
      else if (stage === STAGE_GREEDY) status = constructGreedy(workLimit);
      else if (stage === STAGE_COUNT) status = countDiagonals(workLimit);
      else status = repair(workLimit);
      // A new phase ends the run (the twin's header): the caller sizes each phase's chunks on their own.
      if (work >= workLimit || (stage === STAGE_REPAIR) !== repairing) break;
    }
    return status;
  }

  /** Step 1: the bits of both diagonal sets and of the columns zeroed (after a restart), columns n and up taken (cols is written in step 2). */
  function prepare(workLimit: number): SearchStatus {
    const bitBytes = bitWords << 2;
    const total = tries > 1 ? bitBytes + (groups << 2) : 0; // a first try's arrays are new: zero
    while (row < total) {
      if (work >= workLimit) return RUNNING;
      const end = Math.min(row + PREPARE_BYTES, total);
      if (row < bitBytes) sumCount.fill(0, row, Math.min(end, bitBytes));
      diffCount.fill(0, row, end);
      row = end;
      work++;
    }
    for (let c = n; c < groups << 5; c++) setBit(used, c);
    blockLeft = windows.count > 1 ? 0 : 2147483647; // (one window: every row draws from every group)
    stage = STAGE_DIRECT;
    row = 0;
    return RUNNING;
  }

  /** Step 2a: each try of rows 0 .. directEnd-1 takes the better of two random groups of 32 columns, windowed from WINDOWED_FROM (the twin's header). */
  function constructDirect(workLimit: number): SearchStatus {
    const end = directEnd;
    // Windowed: WINDOW_TRIES pairs of draws in the window, then GREEDY_TRIES pairs anywhere.
    const leaveAt = windows.count > 1 ? 2 * WINDOW_TRIES : -1;
    const drawLimit = windows.count > 1 ? 2 * (WINDOW_TRIES + GREEDY_TRIES) : 2 * GREEDY_TRIES;
    let r = row;
    let w = work;
    while (r < end) {
      if (w >= workLimit) break;
      if (blockLeft === 0) {
        w += windows.next(random, r, n, used, sumBits, diffBits);
        windowFirst = windows.first;
        windowGroups = windows.groups;
        blockLeft = WINDOW_ROWS;
      }
      blockLeft--;
      const base = n - 1 - r; // the diff diagonal of (r, c) is c + base
      let wk = windowGroups;
      let wf = windowFirst;
      let draws = 0;
      let c = -1;
      while (draws < drawLimit) {
        if (draws === leaveAt) { // the window's tries failed: the rest anywhere, and the next row draws a new window
          wk = groups;
          wf = 0;
          blockLeft = 0;
        }
        const a = drawGroup(random, wk) + wf;
        const b = drawGroup(random, wk) + wf;
        draws += 2;
        const fa = a & ~31;
        const fb = b & ~31;
        const openA = openColumns(used, fa, sumBits, r + fa, diffBits, fa + base);
        const openB = openColumns(used, fb, sumBits, r + fb, diffBits, fb + base);
        const takeB = popcount(openB) > popcount(openA);
        const open = takeB ? openB : openA;
        const pick = takeB ? b : a;
        if (open !== 0) {
          c = (pick & ~31) + firstFrom(open, pick & 31);
          setBit(sumBits, r + c);
          setBit(diffBits, c + base);
          break;
        }
      }
      if (c < 0) {
        let open = 0;
        let pick = 0;
        while (open === 0) {
          pick = drawGroup(random, groups);
          draws++;
          open = ~used[pick >>> 5] >>> 0;
        }
        c = (pick & ~31) + firstFrom(open, pick & 31);
        pushCandidate(r);
      }
      setBit(used, c);
      cols[r] = c;
      w += draws + 1;
      r++;
    }
    row = r;
    work = w;
    if (r === end) {
      stage = STAGE_GATHER;
      scan = 0;
    }
    return RUNNING;
  }

  /** Step 2b: the columns no row took, in increasing order, into cols[directEnd .. n-1]. */
  function gather(workLimit: number): SearchStatus {
    let g = scan;
    let r = row;
    while (g < groups) {
      if (work >= workLimit) break;
      let open = ~used[g];
      while (open !== 0) {
        cols[r++] = (g << 5) + (31 - Math.clz32(open & -open));
        open &= open - 1;
      }
      g++;
      work++;
    }
    scan = g;
    row = r;
    if (g === groups) {
      stage = STAGE_GREEDY;
      row = directEnd;
    }
    return RUNNING;
  }

  /** Step 2c: rows directEnd .. greedyEnd-1 swap with a random partner in [row, n) until on free diagonals, the rest with one at random. */
  function constructGreedy(workLimit: number): SearchStatus {
    let r = row;
    let w = work;
    while (r < n) {
      if (w >= workLimit) break;
      const remaining = n - r;
      const base = n - 1 - r;
      const tries = r < greedyEnd ? GREEDY_TRIES : 0;
      let t = 0;
      let placed = false;
      while (t < tries) {
        const j = r + draw(random, remaining);
        t++;
        const cj = cols[j];
        if ((bitAt(sumBits, r + cj) | bitAt(diffBits, cj + base)) === 0) {
          swapColumns(r, j);
          setBit(sumBits, r + cj);
          setBit(diffBits, cj + base);
          placed = true;
          break;
        }
      }
      if (!placed) {
        swapColumns(r, r + draw(random, remaining));
        pushCandidate(r);
      }
      w += t + 1;
      r++;
    }
    row = r;
    work = w;
    if (r === n) {
      stage = STAGE_COUNT;
      row = bitWords - 1; // the top word of the bitsets
    }
    return RUNNING;
  }

  /** Step 3: bits to counters, top down, then the candidates' queens with their collisions. */
  function countDiagonals(workLimit: number): SearchStatus {
    while (row >= 0) {
      if (work >= workLimit) return RUNNING;
      // Word `row` of each bitset becomes counters 32 row .. 32 row + 31, which only
      // overwrite words of bits already expanded (8 row >= row), or this one, read first.
      if (narrow) {
        expandNarrow(sumBits, row);
        expandNarrow(diffBits, row);
      } else {
        const s = sumBits[row];
        const d = diffBits[row];
        const low = row << 5;
        for (let k = 0; k < 32; k++) {
          sumCount[low + k] = (s >>> k) & 1;
          diffCount[low + k] = (d >>> k) & 1;
        }
      }
      row--;
      work++;
    }
    overflow.reset();
    for (let k = 0; k < candidateCount; k++) {
      const r = candidates[k];
      addQueen(r, cols[r]);
    }
    for (let k = 0; k < candidateCount; k++) {
      if (crowded(candidates[k])) restartNeeded = true;
    }
    work += candidateCount;
    stage = STAGE_REPAIR;
    if (restartNeeded || overflow.full) return restart();
    return collisions === 0 ? FOUND : RUNNING;
  }

  /** Step 4: conflict-driven swaps on the candidates until no collision is left. */
  function repair(workLimit: number): SearchStatus {
    const n = size;
    while (collisions !== 0) {
      if (restartNeeded || candidateCount === 0 || overflow.full) return restart();
      if (work >= workLimit) return RUNNING;
      const k = draw(random, candidateCount);
      const i = candidates[k];
      work++;
      if (!attacked(i)) {
        candidates[k] = candidates[--candidateCount];
        continue;
      }
      let improved = false;
      for (let t = 0; t < repairTrials; t++) {
        const j = draw(random, n);
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
        const j = draw(random, n);
        if (j !== i) {
          swapRows(i, j);
          pushCandidate(j);
          if (crowded(i) || crowded(j)) restartNeeded = true;
          steps++;
        }
      }
      if (collisions !== 0 && steps >= maxSteps) return MAX_STEPS;
    }
    return overflow.full ? restart() : FOUND;
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
