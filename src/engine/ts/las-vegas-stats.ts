// Twin of assembly/las-vegas-stats.ts: what one try of the 'hybrid' method costs.
// Monte Carlo: `trials` tries in a row from one seeded generator, each made by
// hybrid.ts's own try loop (so try i is the solver's try i), adding up per outcome
// the tries, their nodes and nodes squared in try order. Exact: the whole tree of
// random choices (a row with d safe columns: d branches of probability 1/d), the
// deterministic backtracking over rows k..n-1 at each leaf, probability-weighted
// sums added in depth-first order, columns increasing.
import { FOUND, RUNNING, type ExactSums, type LasVegasExactWalker, type LasVegasTrials, type TrialSums } from "../contract.js";
import { openHybridTries } from "./hybrid.js";

export function openLasVegasTrials(n: number, seed: number, stopVegas: number, trials: number): LasVegasTrials {
  // The tries are the hybrid's own (hybrid.ts, no caps: this loop decides when to stop).
  const hybrid = openHybridTries(n, seed, stopVegas);
  let tries = 0; // tries finished
  let tryStart = 0; // the hybrid's nodes before the try under way (its empty board is counted already)
  let successes = 0, successNodes = 0, successSquares = 0, failureNodes = 0, failureSquares = 0;

  /** Record the try just ended and start the next one if any is left. */
  function endTry(success: boolean): void {
    const nodes = hybrid.nodes();
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
      hybrid.nextTry(); // the next try's empty board is its first node
    }
  }

  function run(workLimit: number): boolean {
    for (;;) {
      if (tries >= trials) return true;
      const status = hybrid.runTry(workLimit);
      if (status === RUNNING) return false;
      endTry(status === FOUND);
    }
  }

  return {
    run,
    work: hybrid.nodes,
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
