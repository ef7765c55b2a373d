// Twin of assembly/hill-climb.ts: hill climbing on permutations (seed 003).
// Fisher-Yates shuffle per try (replacing the seed's biased rand() % n shuffle),
// diagonal counters, h = surplus queens on diagonals; the first improving swap in
// the seed's pair order is taken and the scan restarts from i = 0; a scan with no
// improving swap starts a new try. Work = swap evaluations; nodes 0.
import { FOUND, MAX_STEPS, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";
import { Random } from "./rng.js";

export function openHillClimb(n: number, params: SearchParams): Search {
  const size = n;
  const maxSteps = params.maxSteps;
  const maxTries = params.maxTries;
  const board = new Int32Array(n);
  const ru = new Int32Array(2 * n - 1); // queens on diagonal col - row + n - 1
  const rd = new Int32Array(2 * n - 1); // queens on diagonal col + row
  const random = new Random(params.seed);
  let h = 0; // surplus queens on diagonals (0: a solution)
  let scanI = 0; // the next pair to evaluate is (scanI, scanJ)
  let scanJ = 1;
  let work = 0;
  let steps = 0;
  let tries = 1;

  /** Take queen (r, c) off its diagonals; the change in h (-1 per diagonal still occupied). */
  function lift(r: number, c: number): number {
    const u = --ru[c - r + size - 1];
    const d = --rd[c + r];
    return -(u > 0 ? 1 : 0) - (d > 0 ? 1 : 0);
  }

  /** Put queen (r, c) on its diagonals; the change in h (+1 per diagonal already occupied). */
  function put(r: number, c: number): number {
    const u = ++ru[c - r + size - 1];
    const d = ++rd[c + r];
    return (u > 1 ? 1 : 0) + (d > 1 ? 1 : 0);
  }

  /** A new try: a fresh random permutation, its diagonal counts and h; the scan starts over. */
  function shuffle(): void {
    for (let i = 0; i < size; i++) board[i] = i;
    for (let i = size - 1; i >= 1; i--) {
      const j = random.below(i + 1);
      const a = board[i];
      board[i] = board[j];
      board[j] = a;
    }
    ru.fill(0);
    rd.fill(0);
    h = 0;
    for (let r = 0; r < size; r++) h += put(r, board[r]);
    scanI = 0;
    scanJ = 1;
  }

  function run(workLimit: number): SearchStatus {
    for (;;) {
      if (h === 0) return FOUND;
      if (steps >= maxSteps) return MAX_STEPS;
      if (scanI >= size - 1) {
        // A full scan found no improving swap: stuck, so a fresh permutation.
        if (tries >= maxTries) return MAX_TRIES;
        tries++;
        shuffle();
        continue;
      }
      if (work >= workLimit) return RUNNING;
      work++;
      const i = scanI, j = scanJ;
      const a = board[i], b = board[j];
      // The seed's order: a leaves row i for row j, then b leaves row j for row i.
      const delta = lift(i, a) + put(j, a) + lift(j, b) + put(i, b);
      if (delta < 0) {
        board[i] = b;
        board[j] = a;
        h += delta;
        steps++;
        scanI = 0; // the seed's `goto label`: scan again from the first pair
        scanJ = 1;
        continue;
      }
      lift(i, b); // undo: the counts go back as they were
      lift(j, a);
      put(i, a);
      put(j, b);
      scanJ++;
      if (scanJ === size) {
        scanI++;
        scanJ = scanI + 1;
      }
    }
  }

  shuffle();
  return {
    run,
    work: () => work,
    stats: () => ({ nodes: 0, tries, steps }),
    state: () => ({ phase: "search", conflicts: h }),
    columns: () => board.slice(),
    cursor: () => ({ i: scanI, j: scanJ }), // read-only, for src/search/trace.ts
    close() {},
  };
}
