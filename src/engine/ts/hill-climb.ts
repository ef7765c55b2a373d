// Twin of assembly/hill-climb.ts: hill climbing on permutations (text 4 in docs/references.md).
// Fisher-Yates shuffle per try (replacing that text's biased rand() % n shuffle),
// diagonal counters, h = surplus queens on diagonals; the first improving swap in
// that text's pair order is taken and the scan restarts from i = 0; a scan with no
// improving swap starts a new try. Work = swap evaluations; nodes 0.
import { EXHAUSTED, FOUND, MAX_STEPS, MAX_TRIES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";
import { Random } from "./rng.js";
import { activeConstraints, linesOpen } from "./lines-open.js";
import { isBlockedSquare as isBlocked, type Constraints } from "../../board/constraints.js";

export function openHillClimb(n: number, params: SearchParams): Search {
  const constraints = activeConstraints(params.constraints);
  if (constraints) return openHillClimbConstrained(n, params, constraints);
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

// ---- Constrained boards, twin of the same section of assembly/hill-climb.ts ----
// Given queens never move; no queen is put on a blocked square. The m free columns are
// shuffled over the m free rows, queens on blocked squares swapped off (or the try is
// dropped: `stuck`); the scan over pairs of free rows skips swaps onto blocked squares.
// Work: swap evaluations, and one for a try with nothing to scan (stuck, or fewer than
// two free rows). EXHAUSTED at once when linesOpen is false.
// Its lift, put, the recount that ends shuffle and the swap in run are the plain board's
// again, as closures over this board's own arrays and h. The kernel shares them (recount and
// trySwap, inlined into both loops); sharing them here would move the state out of the
// closures into an object both loops read, a change to the twin's hot loop not measured.
function openHillClimbConstrained(n: number, params: SearchParams, k: Constraints): Search {
  const size = n;
  const maxSteps = params.maxSteps;
  const maxTries = params.maxTries;
  const board = new Int32Array(n);
  const ru = new Int32Array(2 * n - 1);
  const rd = new Int32Array(2 * n - 1);
  const random = new Random(params.seed);
  const proved = !linesOpen(k);
  const held = new Uint8Array(n);
  const rows: number[] = [];
  for (let r = 0; r < n; r++) {
    const c = k.fixedColumn[r];
    if (c >= 0) {
      board[r] = c;
      held[c] = 1;
    } else rows.push(r);
  }
  const freeRows = Int32Array.from(rows);
  const m = freeRows.length;
  const freeCols = new Int32Array(m);
  for (let c = 0, j = 0; c < n; c++) if (!held[c]) freeCols[j++] = c;
  let h = 0;
  let stuck = false;
  let scanI = 0;
  let scanJ = 1;
  let work = 0;
  let steps = 0;
  let tries = 1;

  function lift(r: number, c: number): number {
    const u = --ru[c - r + size - 1];
    const d = --rd[c + r];
    return -(u > 0 ? 1 : 0) - (d > 0 ? 1 : 0);
  }

  function put(r: number, c: number): number {
    const u = ++ru[c - r + size - 1];
    const d = ++rd[c + r];
    return (u > 1 ? 1 : 0) + (d > 1 ? 1 : 0);
  }

  function shuffle(): void {
    for (let i = 0; i < m; i++) board[freeRows[i]] = freeCols[i];
    for (let i = m - 1; i >= 1; i--) {
      const j = random.below(i + 1);
      const a = board[freeRows[i]];
      board[freeRows[i]] = board[freeRows[j]];
      board[freeRows[j]] = a;
    }
    stuck = false;
    for (let i = 0; i < m; i++) {
      const r = freeRows[i];
      const a = board[r];
      if (!isBlocked(k, r, a)) continue;
      let j = random.below(m);
      let moved = false;
      for (let t = 0; t < m; t++) {
        const rj = freeRows[j];
        const b = board[rj];
        if (!isBlocked(k, r, b) && !isBlocked(k, rj, a)) {
          board[r] = b;
          board[rj] = a;
          moved = true;
          break;
        }
        j++;
        if (j === m) j = 0;
      }
      if (!moved) {
        stuck = true;
        break;
      }
    }
    ru.fill(0);
    rd.fill(0);
    h = 0;
    for (let r = 0; r < size; r++) h += put(r, board[r]);
    scanI = 0;
    scanJ = 1;
  }

  function run(workLimit: number): SearchStatus {
    if (proved) return EXHAUSTED;
    for (;;) {
      if (h === 0 && !stuck) return FOUND;
      if (steps >= maxSteps) return MAX_STEPS;
      if (stuck || scanI >= m - 1) {
        if (tries >= maxTries) return MAX_TRIES;
        if (stuck || m < 2) {
          // A try with nothing to scan counts one unit of work, so a chunk ends.
          if (work >= workLimit) return RUNNING;
          work++;
        }
        tries++;
        shuffle();
        continue;
      }
      if (work >= workLimit) return RUNNING;
      work++;
      const i = freeRows[scanI], j = freeRows[scanJ];
      const a = board[i], b = board[j];
      if (!isBlocked(k, i, b) && !isBlocked(k, j, a)) {
        const delta = lift(i, a) + put(j, a) + lift(j, b) + put(i, b);
        if (delta < 0) {
          board[i] = b;
          board[j] = a;
          h += delta;
          steps++;
          scanI = 0;
          scanJ = 1;
          continue;
        }
        lift(i, b); // undo
        lift(j, a);
        put(i, a);
        put(j, b);
      }
      scanJ++;
      if (scanJ === m) {
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
    // The next pair as board rows; i = j = -1 when the next unit of work is a new try (nothing to scan).
    cursor: () => (stuck || scanI >= m - 1 ? { i: -1, j: -1 } : { i: freeRows[scanI], j: freeRows[scanJ] }),
    close() {},
  };
}
