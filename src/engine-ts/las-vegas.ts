// Twin of assembly/las-vegas.ts: pure Las Vegas (seed 001's queen_lv). Each try
// fills rows from 0, placing each row's queen at index below(count) of its safe
// columns listed in increasing order; a row with none fails the try and the next
// starts from an empty board. Empty board of each try = 1 node, each queen = 1 node.
import { FOUND, MAX_NODES, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../engine.js";
import { Random } from "./rng.js";

export function openLasVegas(n: number, params: SearchParams): Search {
  const size = n;
  const maxNodes = params.maxNodes;
  const maxTries = params.maxTries;
  const cols = new Int32Array(n).fill(-1);
  const safe = new Int32Array(n);
  const colUsed = new Uint8Array(n);
  const sumUsed = new Uint8Array(2 * n);
  const diffUsed = new Uint8Array(2 * n);
  const random = new Random(params.seed);
  let row = 0;
  let nodes = 1; // the empty board of the first try
  let tries = 1;

  function mark(r: number, c: number, v: number): void {
    colUsed[c] = v;
    sumUsed[r + c] = v;
    diffUsed[r - c + size - 1] = v;
  }

  /** The try failed: stop at maxTries, else lift every queen and start a new try (RUNNING). */
  function newTry(): SearchStatus {
    if (tries >= maxTries) return MAX_TRIES;
    for (let r = 0; r < row; r++) {
      mark(r, cols[r], 0);
      cols[r] = -1;
    }
    row = 0;
    tries++;
    nodes++; // the new try's empty board
    return RUNNING;
  }

  function run(workLimit: number): SearchStatus {
    for (;;) {
      if (row === size) return FOUND;
      if (nodes >= maxNodes) return MAX_NODES;
      if (nodes >= workLimit) return RUNNING;
      let count = 0;
      const diff = row + size - 1;
      for (let c = 0; c < size; c++) {
        if ((colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) === 0) {
          safe[count] = c;
          count++;
        }
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
      row++;
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
