// Hill climbing on permutations (text 4 in docs/references.md): each try shuffles 0..n-1 by
// Fisher-Yates (for i from n-1 down to 1, swap i with j = below(i + 1)), which
// replaces that text's biased `swap(board[i], board[rand() % n])` shuffle, so rows
// and columns never clash. Counters per diagonal (`ru`: col - row, `rd`: col + row)
// give h = the sum over diagonals of (count - 1) where count > 1. Pairs (i < j) are
// scanned in the seed's order; each swap is evaluated with the seed's O(1) update of
// the four diagonals of each queen; the FIRST improving swap is taken (a step) and the
// scan restarts from i = 0, as the seed's `goto label` does. A full scan with no
// improving swap and h > 0 ends the try, and a fresh permutation starts the next.
// Nodes: 0. Work unit = swap evaluations (a chunk stays bounded at any n). Caps
// maxSteps and maxTries are exact. Twin: src/engine/ts/hill-climb.ts.

import { allocate } from "./memory";
import { constrained, fixedColumn, isBlocked } from "./constraints";
import { linesOpen } from "./lines-open";
import { below, seedRandom } from "./rng";
import {
  RUNNING, FOUND, EXHAUSTED, MAX_STEPS, MAX_TRIES,
  STAT_WORK, STAT_NODES, STAT_TRIES, STAT_STEPS, STAT_CONFLICTS, STAT_PHASE, PHASE_SEARCH,
} from "./status";

let size: i32 = 0;
let h: i32 = 0; // surplus queens on diagonals (0: a solution)
let scanI: i32 = 0; // the next pair to evaluate is (scanI, scanJ)
let scanJ: i32 = 1;
let work: f64 = 0;
let steps: f64 = 0;
let tries: f64 = 0;
let maxSteps: f64 = 0;
let maxTries: f64 = 0;
let board: usize = 0; // i32[n]: column of the queen in each row
let ru: usize = 0; // i32[2n - 1]: queens on diagonal col - row + n - 1
let rd: usize = 0; // i32[2n - 1]: queens on diagonal col + row

/**
 * Allocate for an n x n board and start the first try; returns the columns buffer, 0 if out
 * of memory. Honours the job's constraints (assembly/constraints.ts), if any.
 */
export function hillClimbInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  size = n;
  maxSteps = stepCap;
  maxTries = tryCap;
  board = allocate(<usize>n << 2);
  ru = allocate(<usize>(2 * n - 1) << 2);
  rd = allocate(<usize>(2 * n - 1) << 2);
  if (board == 0 || ru == 0 || rd == 0) return 0;
  seedRandom(seed);
  work = 0;
  steps = 0;
  tries = 1;
  withConstraints = constrained;
  if (withConstraints) return initConstrained() ? board : 0;
  shuffle();
  return board;
}

@inline function column(r: i32): i32 {
  return load<i32>(board + (<usize>r << 2));
}

/** Take queen (r, c) off its diagonals; the change in h (-1 per diagonal still occupied). */
@inline function lift(r: i32, c: i32): i32 {
  const up = ru + (<usize>(c - r + size - 1) << 2);
  const down = rd + (<usize>(c + r) << 2);
  const u = load<i32>(up) - 1;
  const d = load<i32>(down) - 1;
  store<i32>(up, u);
  store<i32>(down, d);
  return -<i32>(u > 0) - <i32>(d > 0);
}

/** Put queen (r, c) on its diagonals; the change in h (+1 per diagonal already occupied). */
@inline function put(r: i32, c: i32): i32 {
  const up = ru + (<usize>(c - r + size - 1) << 2);
  const down = rd + (<usize>(c + r) << 2);
  const u = load<i32>(up) + 1;
  const d = load<i32>(down) + 1;
  store<i32>(up, u);
  store<i32>(down, d);
  return <i32>(u > 1) + <i32>(d > 1);
}

/** A new try: a fresh random permutation, its diagonal counts and h; the scan starts over. */
function shuffle(): void {
  for (let i = 0; i < size; i++) store<i32>(board + (<usize>i << 2), i);
  for (let i = size - 1; i >= 1; i--) {
    const j = <i32>below(<u32>(i + 1));
    const a = column(i);
    store<i32>(board + (<usize>i << 2), column(j));
    store<i32>(board + (<usize>j << 2), a);
  }
  recount();
}

/** A try's start, on both boards: the diagonal counts and h of the board as it stands; the scan starts over. */
function recount(): void {
  memory.fill(ru, 0, <usize>(2 * size - 1) << 2);
  memory.fill(rd, 0, <usize>(2 * size - 1) << 2);
  h = 0;
  for (let r = 0; r < size; r++) h += put(r, column(r));
  scanI = 0;
  scanJ = 1;
}

/**
 * The swap of the queens of rows i and j (columns a and b), on both boards: evaluated with
 * the seed's O(1) update, taken when it lowers h (a step; the scan restarts from the first
 * pair, as the seed's `goto label`), else undone. Whether it was taken. Inlined into both
 * loops, so each compiles as when it had its own copy.
 */
@inline function trySwap(i: i32, j: i32, a: i32, b: i32): bool {
  // The seed's order: a leaves row i for row j, then b leaves row j for row i.
  const delta = lift(i, a) + put(j, a) + lift(j, b) + put(i, b);
  if (delta < 0) {
    store<i32>(board + (<usize>i << 2), b);
    store<i32>(board + (<usize>j << 2), a);
    h += delta;
    steps++;
    scanI = 0;
    scanJ = 1;
    return true;
  }
  lift(i, b); // undo: the counts go back as they were
  lift(j, a);
  put(i, a);
  put(j, b);
  return false;
}

/** Climb until a solution, maxSteps, maxTries, or `workLimit` swap evaluations in all; returns the status. */
export function hillClimbRun(workLimit: f64): i32 {
  if (withConstraints) return runConstrained(workLimit);
  while (true) {
    if (h == 0) return FOUND;
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
    if (trySwap(i, j, column(i), column(j))) continue;
    scanJ++;
    if (scanJ == size) {
      scanI++;
      scanJ = scanI + 1;
    }
  }
}

/** The figures of the climb: work = swap evaluations; no nodes; conflicts = h. */
export function hillClimbStat(slot: i32): f64 {
  if (slot == STAT_WORK) return work;
  if (slot == STAT_NODES) return 0;
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_STEPS) return steps;
  if (slot == STAT_CONFLICTS) return h;
  if (slot == STAT_PHASE) return PHASE_SEARCH;
  return 0;
}

// ---- Constrained boards ----
// The given queens never move and no queen is ever put on a blocked square. The board
// stays a permutation: the m rows without a given queen (in increasing order) hold the
// m columns no given queen holds. A try shuffles those columns over those rows by
// Fisher-Yates (as above, over the list of free rows), then moves each queen standing
// on a blocked square: partners are scanned from a random one for a swap that puts both
// queens on open squares; if a queen finds none the try is dropped (`stuck`) and the
// next starts. The scan runs over pairs of free rows in the same order as above and
// skips (as not improving) any swap that would put a queen on a blocked square. h
// counts the given queens' diagonals too. Work counts swap evaluations, and one for a
// try with nothing to scan (stuck, or fewer than two free rows), so a chunk stays
// bounded when every try is dropped. If the givens leave a row or column
// without a square (linesOpen), no completion exists: EXHAUSTED at once.

let withConstraints: bool = false;
let proved: bool = false;
let stuck: bool = false; // this try could not keep every queen off blocked squares
let free: i32 = 0; // m: rows without a given queen
let freeRows: usize = 0; // i32[m]
let freeCols: usize = 0; // i32[m]: the columns no given queen holds, increasing

@inline function freeRow(k: i32): i32 {
  return load<i32>(freeRows + (<usize>k << 2));
}

@inline function setColumn(r: i32, c: i32): void {
  store<i32>(board + (<usize>r << 2), c);
}

function initConstrained(): bool {
  const n = size;
  freeRows = allocate(<usize>n << 2);
  freeCols = allocate(<usize>n << 2);
  const held = allocate(<usize>n);
  const open = linesOpen(n);
  if (freeRows == 0 || freeCols == 0 || held == 0 || open < 0) return false;
  proved = open == 0;
  free = 0;
  for (let r = 0; r < n; r++) {
    const c = fixedColumn(r);
    if (c >= 0) {
      setColumn(r, c);
      store<u8>(held + <usize>c, 1);
    } else {
      store<i32>(freeRows + (<usize>free << 2), r);
      free++;
    }
  }
  let k = 0;
  for (let c = 0; c < n; c++) {
    if (load<u8>(held + <usize>c) != 0) continue;
    store<i32>(freeCols + (<usize>k << 2), c);
    k++;
  }
  shuffleConstrained();
  return true;
}

/** A new try (constrained): the free columns shuffled over the free rows, queens moved off blocked squares. */
function shuffleConstrained(): void {
  const m = free;
  for (let k = 0; k < m; k++) setColumn(freeRow(k), load<i32>(freeCols + (<usize>k << 2)));
  for (let k = m - 1; k >= 1; k--) {
    const j = <i32>below(<u32>(k + 1));
    const a = column(freeRow(k));
    setColumn(freeRow(k), column(freeRow(j)));
    setColumn(freeRow(j), a);
  }
  stuck = false;
  for (let k = 0; k < m; k++) {
    const r = freeRow(k);
    const a = column(r);
    if (!isBlocked(r, a)) continue;
    let j = <i32>below(<u32>m);
    let moved = false;
    for (let t = 0; t < m; t++) {
      const rj = freeRow(j);
      const b = column(rj);
      if (!isBlocked(r, b) && !isBlocked(rj, a)) {
        setColumn(r, b);
        setColumn(rj, a);
        moved = true;
        break;
      }
      j++;
      if (j == m) j = 0;
    }
    if (!moved) {
      stuck = true;
      break;
    }
  }
  recount();
}

function runConstrained(workLimit: f64): i32 {
  if (proved) return EXHAUSTED;
  const m = free;
  while (true) {
    if (h == 0 && !stuck) return FOUND;
    if (steps >= maxSteps) return MAX_STEPS;
    if (stuck || scanI >= m - 1) {
      // Stuck, or a full scan found no improving swap: a fresh permutation.
      if (tries >= maxTries) return MAX_TRIES;
      if (stuck || m < 2) {
        // A try with nothing to scan counts one unit of work, so a chunk ends.
        if (work >= workLimit) return RUNNING;
        work++;
      }
      tries++;
      shuffleConstrained();
      continue;
    }
    if (work >= workLimit) return RUNNING;
    work++;
    const i = freeRow(scanI), j = freeRow(scanJ);
    const a = column(i), b = column(j);
    if (!isBlocked(i, b) && !isBlocked(j, a) && trySwap(i, j, a, b)) continue;
    scanJ++;
    if (scanJ == m) {
      scanI++;
      scanJ = scanI + 1;
    }
  }
}
