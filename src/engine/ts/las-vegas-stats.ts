// Twin of assembly/las-vegas-stats.ts: what one try of the 'hybrid' method costs.
// Monte Carlo: `trials` tries in a row from one seeded generator, each made exactly
// as hybrid.ts makes a try (so try i is the solver's try i), adding up per outcome
// the tries, their nodes and nodes squared in try order. Exact: the whole tree of
// random choices (a row with d safe columns: d branches of probability 1/d), the
// deterministic backtracking over rows k..n-1 at each leaf, probability-weighted
// sums added in depth-first order, columns increasing.
import type { ExactSums, LasVegasExactWalker, LasVegasTrials, TrialSums } from "../contract.js";
import { Random } from "./rng.js";

export function openLasVegasTrials(n: number, seed: number, stopVegas: number, trials: number): LasVegasTrials {
  const size = n;
  const cols = new Int32Array(n).fill(-1);
  const safe = new Int32Array(n);
  const colUsed = new Uint8Array(n);
  const sumUsed = new Uint8Array(2 * n);
  const diffUsed = new Uint8Array(2 * n);
  const random = new Random(seed);
  let row = 0;
  let tries = 0; // tries finished
  let tryNodes = 1; // the empty board of the first try
  let work = 1; // nodes of all tries so far
  let successes = 0, successNodes = 0, successSquares = 0, failureNodes = 0, failureSquares = 0;

  function mark(r: number, c: number, v: number): void {
    colUsed[c] = v;
    sumUsed[r + c] = v;
    diffUsed[r - c + size - 1] = v;
  }

  /** Record the try under way, lift its queens, and start the next one if any is left. */
  function endTry(success: boolean): void {
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
      mark(r, cols[r], 0);
      cols[r] = -1;
    }
    row = 0;
    if (tries < trials) {
      tryNodes = 1; // the next try's empty board
      work++;
    }
  }

  function run(workLimit: number): boolean {
    for (;;) {
      if (tries >= trials) return true;
      if (row === size) { endTry(true); continue; }
      if (work >= workLimit) return false;
      const diff = row + size - 1;
      if (row < stopVegas) {
        // A random row, as in hybrid.ts.
        let count = 0;
        for (let c = 0; c < size; c++) {
          if ((colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) === 0) {
            safe[count] = c;
            count++;
          }
        }
        if (count === 0) { endTry(false); continue; }
        const c = safe[random.below(count)];
        cols[row] = c;
        mark(row, c, 1);
        tryNodes++;
        work++;
        row++;
        continue;
      }
      // A backtracking row, as in hybrid.ts (rows below stopVegas are never revisited).
      let c = cols[row];
      if (c >= 0) mark(row, c, 0); // lift the queen we come back to
      c++;
      while (c < size && (colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) !== 0) c++;
      if (c === size) {
        cols[row] = -1;
        if (row === stopVegas) { endTry(false); continue; }
        row--;
        continue;
      }
      cols[row] = c;
      mark(row, c, 1);
      tryNodes++;
      work++;
      row++;
    }
  }

  return {
    run,
    work: () => work,
    sums: (): TrialSums => ({ tries, successes, successNodes, successSquares, failureNodes, failureSquares }),
    close() {},
  };
}

function popcount(x: number): number {
  let count = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) count++;
  return count;
}

export function openLasVegasExact(n: number, stopVegas: number): LasVegasExactWalker {
  const size = n;
  const full = n === 32 ? 0xffffffff : (1 << n) - 1;
  let btNodes = 0; // queens placed by the backtracking of the leaf under way
  let pSuccess = 0, pFailure = 0, wSuccessNodes = 0, wFailureNodes = 0;

  /** First-solution backtracking from `r` (columns increasing); adds its queens placed to btNodes. */
  function firstSolution(r: number, cols: number, left: number, right: number): boolean {
    if (r === size) return true;
    let avail = (~(cols | left | right) & full) >>> 0;
    while (avail !== 0) {
      const bit = (avail & -avail) >>> 0;
      avail = (avail ^ bit) >>> 0;
      btNodes++;
      if (firstSolution(r + 1, (cols | bit) >>> 0, ((left | bit) << 1) >>> 0, (right | bit) >>> 1)) return true;
    }
    return false;
  }

  /** The random rows from `r` on, reached with probability `w`. */
  function walk(r: number, cols: number, left: number, right: number, w: number): void {
    if (r === stopVegas) {
      btNodes = 0;
      const found = firstSolution(r, cols, left, right);
      const nodes = 1 + r + btNodes; // the empty board, r random queens, the backtracking's
      if (found) {
        pSuccess += w;
        wSuccessNodes += w * nodes;
      } else {
        pFailure += w;
        wFailureNodes += w * nodes;
      }
      return;
    }
    let avail = (~(cols | left | right) & full) >>> 0;
    const d = popcount(avail);
    if (d === 0) {
      pFailure += w;
      wFailureNodes += w * (1 + r);
      return;
    }
    const branch = w / d;
    while (avail !== 0) {
      const bit = (avail & -avail) >>> 0;
      avail = (avail ^ bit) >>> 0;
      walk(r + 1, (cols | bit) >>> 0, ((left | bit) << 1) >>> 0, (right | bit) >>> 1, branch);
    }
  }

  return {
    walk(columns: readonly number[]): ExactSums {
      let cols = 0, left = 0, right = 0;
      for (let r = 0; r < columns.length; r++) {
        const bit = (1 << columns[r]) >>> 0;
        cols = (cols | bit) >>> 0;
        left = ((left | bit) << 1) >>> 0;
        right = (right | bit) >>> 1;
      }
      pSuccess = 0;
      pFailure = 0;
      wSuccessNodes = 0;
      wFailureNodes = 0;
      walk(columns.length, cols, left, right, 1);
      return { success: pSuccess, failure: pFailure, successNodes: wSuccessNodes, failureNodes: wFailureNodes };
    },
    close() {},
  };
}
