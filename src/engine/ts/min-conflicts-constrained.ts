// Twin of assembly/min-conflicts-constrained.ts (read its header): min-conflicts on a
// board with given queens or blocked squares, which openMinConflicts
// (src/engine/ts/min-conflicts.ts) hands here. Given queens never move; no queen is put
// on a blocked square; i32 counters from the start; candidates without repeats.
import { EXHAUSTED, FOUND, MAX_STEPS, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";
import { Random } from "./rng.js";
import { linesOpen } from "./lines-open.js";
import { isBlockedSquare as isBlocked, type Constraints } from "../../board/constraints.js";
import { GREEDY_TRIES, REPAIR_TRIALS } from "./min-conflicts-params.js";

const STAGE_CONSTRUCT = 0;
const STAGE_REPAIR = 1;

/**
 * Largest n min-conflicts takes on a constrained board: its state is about 45 bytes per
 * row (i32 counters, lists of free rows and columns, the constraints), and the
 * construction's fallback scan can cost O(m) for a row whose drawn squares are all
 * blocked, so 10^6 keeps a solve within memory and minutes.
 */
export const MIN_CONFLICTS_CONSTRAINED_MAX_N = 1_000_000;

// About 200 lines in one closure for the reason openMinConflicts is (src/engine/ts/min-conflicts.ts):
// the state in the closure's locals, as the kernel's, so the hot loop reads no object property.
export function openMinConflictsConstrained(n: number, params: SearchParams, k: Constraints): Search {
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
  let stage = STAGE_CONSTRUCT;
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
    stage = STAGE_CONSTRUCT;
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

  // As the kernel's repairC: a copy of the plain board's repair, kept for the plain board's speed and for both streams (see there).
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
      status = stage === STAGE_CONSTRUCT ? construct(workLimit) : repair(workLimit);
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
