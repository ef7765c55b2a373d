// Twin of assembly/hybrid.ts: Las Vegas for rows 0..k-1 (k = stopVegas; a column
// drawn among the row's safe columns), then backtracking over rows k..n-1 as backtrack.ts does,
// never moving the random queens; an exhausted backtrack fails the try (and is
// final when k = 0). k = 0 equals backtrack; las-vegas.ts is this with k = n.
// The try loop is written once (openHybridTries): the search below makes its tries
// with it, and so does las-vegas-stats.ts (so its try i is the solver's try i).
import {
  EXHAUSTED, FOUND, MAX_NODES, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus,
} from "../contract.js";
import { Random } from "./rng.js";
import { activeConstraints, linesOpen } from "./lines-open.js";
import { isBlockedSquare as isBlocked, type Constraints } from "../../board/constraints.js";

/** What runTry returns when the try under way failed (as assembly/hybrid.ts's TRY_FAILED). */
export const TRY_FAILED = -1;

/** The hybrid's tries, one at a time (assembly/hybrid.ts: hybridTry, hybridNextTry). */
export type HybridTries = {
  /**
   * The try under way, a node at a time, until a solution (FOUND), its failure
   * (TRY_FAILED: the board stays until nextTry), or `limit` nodes in all (RUNNING).
   */
  runTry(limit: number): typeof FOUND | typeof RUNNING | typeof TRY_FAILED;
  /** Lift every queen and start the next try on an empty board (one more node). */
  nextTry(): void;
  /** Nodes of all tries so far (each try's empty board and every queen placed). */
  nodes(): number;
  /** Tries started. */
  tries(): number;
  /** The columns (-1: no queen), a copy. */
  columns(): Int32Array;
};

export function openHybridTries(n: number, seed: number, stopVegas: number): HybridTries {
  const size = n;
  const cols = new Int32Array(n).fill(-1);
  const safe = new Int32Array(n);
  const colUsed = new Uint8Array(n);
  const sumUsed = new Uint8Array(2 * n);
  const diffUsed = new Uint8Array(2 * n);
  const random = new Random(seed);
  let row = 0;
  let nodes = 1; // the empty board of the first try
  let tries = 1;

  function mark(r: number, c: number, v: number): void {
    colUsed[c] = v;
    sumUsed[r + c] = v;
    diffUsed[r - c + size - 1] = v;
  }

  function runTry(limit: number): typeof FOUND | typeof RUNNING | typeof TRY_FAILED {
    for (;;) {
      if (row === size) return FOUND;
      if (nodes >= limit) return RUNNING;
      const diff = row + size - 1;
      if (row < stopVegas) {
        // A random row (Las Vegas; las-vegas.ts has only these).
        let count = 0;
        for (let c = 0; c < size; c++) {
          if ((colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) === 0) {
            safe[count] = c;
            count++;
          }
        }
        if (count === 0) return TRY_FAILED;
        const c = safe[random.below(count)];
        cols[row] = c;
        mark(row, c, 1);
        nodes++;
        row++;
        continue;
      }
      // A backtracking row, as in backtrack.ts (rows below stopVegas are never revisited).
      let c = cols[row];
      if (c >= 0) mark(row, c, 0); // lift the queen we come back to
      c++;
      while (c < size && (colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) !== 0) c++;
      if (c === size) {
        cols[row] = -1;
        if (row === stopVegas) return TRY_FAILED;
        row--;
        continue;
      }
      cols[row] = c;
      mark(row, c, 1);
      nodes++;
      row++;
    }
  }

  function nextTry(): void {
    for (let r = 0; r < row; r++) {
      mark(r, cols[r], 0);
      cols[r] = -1;
    }
    row = 0;
    tries++;
    nodes++; // the new try's empty board
  }

  return { runTry, nextTry, nodes: () => nodes, tries: () => tries, columns: () => cols.slice() };
}

export function openHybrid(n: number, params: SearchParams): Search {
  const constraints = activeConstraints(params.constraints);
  if (constraints) return openHybridConstrained(n, params, constraints);
  const stopVegas = params.param;
  const maxNodes = params.maxNodes;
  const maxTries = params.maxTries;
  const tries = openHybridTries(n, params.seed, stopVegas);

  function run(workLimit: number): SearchStatus {
    const limit = Math.min(workLimit, maxNodes);
    for (;;) {
      const status = tries.runTry(limit);
      if (status === RUNNING) return tries.nodes() >= maxNodes ? MAX_NODES : RUNNING;
      if (status !== TRY_FAILED) return status; // FOUND
      if (stopVegas === 0) return EXHAUSTED; // nothing random to retry
      if (tries.tries() >= maxTries) return MAX_TRIES;
      tries.nextTry();
    }
  }

  return {
    run,
    work: tries.nodes,
    stats: () => ({ nodes: tries.nodes(), tries: tries.tries(), steps: 0 }),
    state: () => ({ phase: "search", conflicts: -1 }),
    columns: tries.columns,
    close() {},
  };
}

// ---- Constrained boards, twin of the same section of assembly/hybrid.ts ----
// Given queens stand from the start of every try and their rows are passed over; random
// rows draw among the columns neither attacked nor blocked, backtracking rows try them in
// increasing order; going back past the first backtracking row fails the try. If the
// givens leave a row or column without a square (linesOpen), EXHAUSTED at once.
function openHybridConstrained(n: number, params: SearchParams, k: Constraints): Search {
  const size = n;
  const stopVegas = params.param;
  const maxNodes = params.maxNodes;
  const maxTries = params.maxTries;
  const given = k.fixedColumn;
  const cols = new Int32Array(n).fill(-1);
  const safe = new Int32Array(n);
  const colUsed = new Uint8Array(n);
  const sumUsed = new Uint8Array(2 * n);
  const diffUsed = new Uint8Array(2 * n);
  const random = new Random(params.seed);
  const proved = !linesOpen(k);
  let nodes = 1; // the empty board of the first try
  let tries = 1;

  function mark(r: number, c: number, v: number): void {
    colUsed[c] = v;
    sumUsed[r + c] = v;
    diffUsed[r - c + size - 1] = v;
  }

  function nextFreeRow(r: number): number {
    while (r < size && given[r] >= 0) r++;
    return r;
  }

  for (let r = 0; r < n; r++) {
    if (given[r] < 0) continue;
    cols[r] = given[r];
    mark(r, given[r], 1);
  }
  let row = nextFreeRow(0);

  function newTry(): SearchStatus {
    if (stopVegas === 0) return EXHAUSTED;
    if (tries >= maxTries) return MAX_TRIES;
    for (let r = 0; r < row; r++) {
      if (given[r] >= 0 || cols[r] < 0) continue;
      mark(r, cols[r], 0);
      cols[r] = -1;
    }
    row = nextFreeRow(0);
    tries++;
    nodes++; // the new try's empty board
    return RUNNING;
  }

  function run(workLimit: number): SearchStatus {
    if (proved) return EXHAUSTED;
    for (;;) {
      if (row === size) return FOUND;
      if (nodes >= maxNodes) return MAX_NODES;
      if (nodes >= workLimit) return RUNNING;
      const diff = row + size - 1;
      if (row < stopVegas) {
        let count = 0;
        for (let c = 0; c < size; c++) {
          if ((colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) !== 0) continue;
          if (isBlocked(k, row, c)) continue;
          safe[count] = c;
          count++;
        }
        if (count === 0) {
          const status = newTry();
          if (status !== RUNNING) return status;
          continue;
        }
        const c = safe[random.below(count)];
        cols[row] = c;
        mark(row, c, 1);
        nodes++;
        row = nextFreeRow(row + 1);
        continue;
      }
      let c = cols[row];
      if (c >= 0) mark(row, c, 0); // lift the queen we come back to
      c++;
      while (c < size && ((colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) !== 0 || isBlocked(k, row, c))) c++;
      if (c === size) {
        cols[row] = -1;
        let back = row - 1;
        while (back >= stopVegas && given[back] >= 0) back--;
        if (back < stopVegas) {
          const status = newTry();
          if (status !== RUNNING) return status;
          continue;
        }
        row = back;
        continue;
      }
      cols[row] = c;
      mark(row, c, 1);
      nodes++;
      row = nextFreeRow(row + 1);
    }
  }

  return {
    run,
    work: () => nodes,
    stats: () => ({ nodes, tries, steps: 0 }),
    state: () => ({ phase: "search", conflicts: -1 }),
    columns: () => cols.slice(),
    close() {},
  };
}
