// The start-constellation counter (after Preußer and Engelhardt's Q27 project, as NQueensFAF
// uses it), one task at a time. A task is a start constellation, the queens of row 0 (column
// i), row n-1 (column j), column 0 (row k) and column n-1 (row l), made one per symmetry
// class by src/count/tasks.ts, with the queens preset on its first free rows; the free rows
// left are searched top down. Twin: src/engine/ts/constellations.ts. Bit c of a mask is column c.
//
// The loop is specialised for the rows the border queens hold when the task starts: a table
// indexed by popcnt(down) of a row (its number among the free rows, plus the columns taken
// before it) gives the border queens' attacks on that row and how far the diagonals shift
// to reach it from the free row above (1, or 2 or 3 past a row that k or l holds). So there
// is no branch for the taken rows: the one branch per node beyond the plain step is the
// test for the last free row but one, whose candidates' solutions are counted without
// placing them (lastTwoRows: two columns are left, so a closed form). A row is not entered
// when the row after it is already full, and where that row has one free square left the
// queens that attack it are not tried. None of this changes the nodes (docs/counting.md):
// they are the plain top-down search's, which the split's presets and the GPU rely on.
// As in assembly/count.ts, `down` also marks the 32 - n columns off the board, a row is
// pushed only while it has untried queens (without a branch: written always, sp moved by a
// select), nodes are counted in bulk (popcnt of a row's candidates), and run() reads no
// globals (its inputs and counters sit at fixed addresses). What was measured and not kept
// is in docs/counting.md.
//
// A constellation that a half turn maps to itself holds solutions of classes of 4 (and 2,
// under a quarter turn) too: turnSymmetric() counts its turn-symmetric solutions by placing
// queens in pairs (r, c), (n-1-r, n-1-c), and consResult() tells the classes from them.

import { allocate } from "./memory";

const STACK: usize = memory.data(20 * 32, 16); // a pushed row: [queens left, left, down, right, its children's table entry] (one slot a free row, the top one written even when not kept)
const TABLE: usize = memory.data(16 * 36, 16); // by popcnt(down) of a free row: [border attacks, shift to it, shift to the free row after it, -] (u32; from the free row before it)
const BOARD: usize = memory.data(4 * 32, 16); // i32 per row: its queen's column (turnSymmetric)

// run()'s counters, limit and resume state (fixed offsets into RUN).
const RUN: usize = memory.data(64, 16);
const NODES = 0, SOLUTIONS = 8, LIMIT = 16; // u64
const LEFT = 24, DOWN = 28, RIGHT = 32, QUEENS = 36, ENTRY = 40, LAST = 44; // u32; ENTRY: the next free row's table entry, LAST: the last but one's

let size: i32 = 0;
let offBoard: u32 = 0;
let task: usize = 0; // u32[37]: i, j, k, l, presets, then the preset columns (written by the TS side)
let resumeSp: usize = 0; // 0: the task is done
let symmetry: i32 = 0; // 2: a quarter turn maps the constellation to itself, 1: a half turn only, 0: none
let half: u64 = 0; // its solutions a half turn maps to themselves
let quarter: u64 = 0; // ... and a quarter turn
let solutions: u64 = 0;
let nodes: u64 = 0;

/** Prepare to count constellation tasks of an n x n board (4 <= n <= 32); returns the task buffer (u32[37]). */
export function consInit(n: i32): usize {
  task = allocate(4 * 37);
  size = n;
  offBoard = n == 32 ? 0 : ~((<u32>1 << n) - 1);
  return task;
}

/** The columns a queen at (qr, qc) attacks diagonally on row r. */
@inline function diagonals(r: i32, qr: i32, qc: i32): u32 {
  const d = r > qr ? r - qr : qr - r;
  let m: u32 = 0;
  if (qc + d < size) m |= <u32>1 << (qc + d);
  if (qc - d >= 0) m |= <u32>1 << (qc - d);
  return m;
}

// turnSymmetric's lines in use: columns, and the diagonals r + c and r - c + n.
let symCols: u32 = 0;
let symSums: u64 = 0;
let symDiffs: u64 = 0;

@inline function boardAt(r: i32): i32 {
  return load<i32>(BOARD + (<usize>r << 2));
}
function isFree(r: i32, c: i32): bool {
  return boardAt(r) < 0 && !(symCols & (<u32>1 << c)) && !(symSums & (<u64>1 << (r + c))) && !(symDiffs & (<u64>1 << (r - c + size)));
}
function setQueen(r: i32, c: i32): void {
  store<i32>(BOARD + (<usize>r << 2), c);
  symCols ^= <u32>1 << c; symSums ^= <u64>1 << (r + c); symDiffs ^= <u64>1 << (r - c + size);
}
function clearQueen(r: i32, c: i32): void {
  store<i32>(BOARD + (<usize>r << 2), -1);
  symCols ^= <u32>1 << c; symSums ^= <u64>1 << (r + c); symDiffs ^= <u64>1 << (r - c + size);
}

/** Pairs of queens on the free rows r >= `from` of the upper half (and below them, mirrored): counts into half and quarter. */
function placePairs(from: i32): void {
  const m = size - 1;
  let r = from;
  while (r < m - r && boardAt(r) >= 0) r++;
  if (r >= m - r) {
    half++;
    for (let y = 0; y < size; y++) if (boardAt(boardAt(y)) != m - y) return; // a quarter turn takes (r, c) to (c, n-1-r)
    quarter++;
    return;
  }
  for (let c = 0; c < size; c++) {
    if (!isFree(r, c)) continue;
    setQueen(r, c);
    if (isFree(m - r, m - c)) {
      setQueen(m - r, m - c);
      placePairs(r + 1);
      clearQueen(m - r, m - c);
    }
    clearQueen(r, c);
  }
}

/** The constellation's solutions that a half turn maps to themselves (into half) and a quarter turn (quarter). */
function turnSymmetric(i: i32, j: i32, k: i32, l: i32): void {
  const m = size - 1;
  half = 0; quarter = 0;
  symCols = 0; symSums = 0; symDiffs = 0;
  for (let r = 0; r < size; r++) store<i32>(BOARD + (<usize>r << 2), -1);
  setQueen(0, i); setQueen(m, j);
  if (k != 0) setQueen(k, 0); // (k = 0: the corner queen is row 0's)
  if (l != m) setQueen(l, m);
  if (size & 1) {
    const mid = m >> 1;
    if (!isFree(mid, mid)) return;
    setQueen(mid, mid);
  }
  placePairs(1);
}

/**
 * The solutions below the candidates `queens` of the last free row but one, counted without
 * placing them. Two columns are free there (f = ~down), one on the last row once a queen
 * takes the other; `after` is the last row's free squares before that queen (the columns of
 * f that no diagonal of the rows above and no border queen takes), `s` the rows between.
 * A queen on one column of f leaves the last row the other: a solution if `after` holds it
 * and the two columns are not on one diagonal (s apart). So the solutions are the columns of
 * f "opposite" the candidates (both when both are candidates) that `after` holds, or none.
 * Each is one node too (the last row's queen), as the search would count it.
 */
@inline function lastTwoRows(down: u32, queens: u32, after: u32, s: u32): u32 {
  const f = ~down, low = f & (0 - f);
  const opposite = select<u32>(f, f ^ queens, queens == f);
  return select<u32>(0, popcnt(opposite & after), (low << s) == (f ^ low));
}

/**
 * Search from the state in RUN with the stack pointer `sp` until the task is done (returns
 * 0) or NODES reached LIMIT when a row is popped (returns sp | 1; the row to pop is resumed
 * from). `queens` are the columns still to try on the current row.
 */
function run(sp: usize): usize {
  let left = load<u32>(RUN, LEFT), down = load<u32>(RUN, DOWN), right = load<u32>(RUN, RIGHT);
  let queens = load<u32>(RUN, QUEENS);
  let e = <usize>load<u32>(RUN, ENTRY); // the next free row's table entry
  const lastEntry = <usize>load<u32>(RUN, LAST); // the entry of the last free row but one
  while (true) {
    if (!queens) {
      if (sp == STACK) break;
      if (load<u64>(RUN, NODES) >= load<u64>(RUN, LIMIT)) {
        store<u32>(RUN, left, LEFT); store<u32>(RUN, down, DOWN); store<u32>(RUN, right, RIGHT);
        store<u32>(RUN, 0, QUEENS); store<u32>(RUN, <u32>e, ENTRY);
        return sp | 1;
      }
      sp -= 20;
      queens = load<u32>(sp); left = load<u32>(sp, 4); down = load<u32>(sp, 8); right = load<u32>(sp, 12);
      e = <usize>load<u32>(sp, 16); // (kept, not worked out from popcnt(down): a shorter chain to the row's shifts)
    }
    const bit = queens & (0 - queens);
    queens ^= bit;
    const s = load<u32>(e, 4);
    const nextLeft = (left | bit) << s, nextDown = down | bit, nextRight = (right | bit) >> s;
    const next = ~(nextLeft | nextDown | nextRight | load<u32>(e));
    if (!next) continue;
    // The row after next straight from this row's lines (ss = s + s2), not from the next
    // row's: one shift less on the chain from one row's queen to the next's.
    const s2 = load<u32>(e, 20), ss = load<u32>(e, 8);
    const after = ~(((left | bit) << ss) | nextDown | ((right | bit) >> ss) | load<u32>(e, 16));
    if (e == lastEntry) { // the next row is the last but one: its queens' solutions in closed form
      const found = <u64>lastTwoRows(nextDown, next, after, s2);
      store<u64>(RUN, load<u64>(RUN, NODES) + <u64>popcnt(next) + found, NODES);
      store<u64>(RUN, load<u64>(RUN, SOLUTIONS) + found, SOLUTIONS);
      continue;
    }
    store<u64>(RUN, load<u64>(RUN, NODES) + <u64>popcnt(next), NODES);
    // The row after next has no free square even before a queen goes on the next one: its
    // candidates are nodes, none has a child (so the node count is the same without this).
    if (!after) continue;
    // Where the row after next has one free square, the next row's queens that attack it
    // (its column, or a diagonal s2 away) leave that row empty: they are not tried (nodes
    // already counted, and none has a child, so the node count is the same without this).
    // (The squares it attacks are worked out before the test for one square: a shorter chain.)
    const killers = select<u32>(after | (after << s2) | (after >> s2), 0, (after & (after - 1)) == 0);
    // The row is pushed while it has untried queens: written always, kept or not by moving
    // sp (a select, not a branch: which rows have queens left is hard to predict).
    store<u32>(sp, queens); store<u32>(sp, left, 4); store<u32>(sp, down, 8); store<u32>(sp, right, 12); store<u32>(sp, <u32>e, 16);
    sp += select<usize>(20, 0, queens != 0);
    left = nextLeft; down = nextDown; right = nextRight; queens = next & ~killers; e += 16;
  }
  return 0;
}

/**
 * Set up the task in the task buffer: (i, j, k, l), the number of preset rows, their
 * columns. Clears the counters read by consResult; then consRun searches.
 */
export function consStart(): void {
  const i = load<i32>(task), j = load<i32>(task, 4), k = load<i32>(task, 8), l = load<i32>(task, 12);
  const presets = load<i32>(task, 16);
  const m = size - 1;
  resumeSp = 0;
  solutions = 0; nodes = 0;
  let down: u32 = offBoard | (<u32>1 << i) | (<u32>1 << j) | 1 | (<u32>1 << m);
  const first = <i32>popcnt(down); // the entry of the first free row
  let e = first, previous = 0;
  for (let r = 1; r < m; r++) {
    if (r == k || r == l) continue;
    const attacks = diagonals(r, 0, i) | diagonals(r, m, j) | diagonals(r, k, 0) | diagonals(r, l, m);
    const entry = TABLE + (<usize>e << 4);
    store<u32>(entry, attacks);
    store<u32>(entry, r - previous, 4);
    store<u32>(entry, 0, 8);
    if (e > first) store<u32>(entry - 16, load<u32>(entry - 16, 4) + r - previous, 8); // the row before: its shift to this row
    previous = r;
    e++;
  }
  const last = e - 1;
  symmetry = 0;
  if (i == m - j && k == m - l) symmetry = k == j && l == i ? 2 : 1;
  if (symmetry) turnSymmetric(i, j, k, l);
  if (last < first) { solutions = 1; nodes = 1; return; } // n = 4: the border queens fill the board (one leaf)
  // The preset rows (a queen that does not fit leaves the task empty).
  let left: u32 = 0, right: u32 = 0;
  let at = first;
  for (let p = 0; p < presets; p++, at++) {
    const bit = <u32>1 << load<u32>(task + 20 + (<usize>p << 2));
    if (!(~(left | down | right | load<u32>(TABLE + (<usize>at << 4))) & bit)) return;
    const s = load<u32>(TABLE + (<usize>(at + 1) << 4), 4);
    left = (left | bit) << s; down |= bit; right = (right | bit) >> s;
  }
  const queens = ~(left | down | right | load<u32>(TABLE + (<usize>at << 4)));
  const c = <u64>popcnt(queens);
  nodes += c;
  if (at == last) { solutions += c; return; }
  if (!queens) return;
  if (at == last - 1) {
    const e1 = TABLE + (<usize>(at + 1) << 4), s1 = load<u32>(e1, 4);
    const found = <u64>lastTwoRows(down, queens, ~((left << s1) | down | (right >> s1) | load<u32>(e1)), s1);
    nodes += found; solutions += found;
    return;
  }
  store<u64>(RUN, 0, NODES); store<u64>(RUN, 0, SOLUTIONS);
  store<u32>(RUN, left, LEFT); store<u32>(RUN, down, DOWN); store<u32>(RUN, right, RIGHT); store<u32>(RUN, queens, QUEENS);
  store<u32>(RUN, <u32>(TABLE + (<usize>(at + 1) << 4)), ENTRY);
  store<u32>(RUN, <u32>(TABLE + (<usize>(last - 1) << 4)), LAST);
  resumeSp = STACK | 2; // (bit 1 marks "started", STACK itself is 16-aligned)
}

/**
 * Search the task set up by consStart until it is done (returns 1) or about `budget`
 * (>= 1) more nodes are placed (returns 0; call again to go on).
 */
export function consRun(budget: u32): i32 {
  if (!resumeSp) return 1;
  store<u64>(RUN, load<u64>(RUN, NODES) + <u64>budget, LIMIT);
  const sp = run(resumeSp & ~(<usize>3));
  if (sp) {
    resumeSp = sp ^ 1;
    return 0;
  }
  resumeSp = 0;
  nodes += load<u64>(RUN, NODES);
  solutions += load<u64>(RUN, SOLUTIONS);
  return 1;
}

/**
 * The counters of the last task, by COUNT_RESULT_* of assembly/count.ts: COUNT8, COUNT4,
 * COUNT2, nodes. A quarter-turn-symmetric constellation holds 4 solutions of each class of
 * 8, 2 of each class of 4 and 1 of each class of 2; a half-turn one 2 of each class of 8 and
 * 1 of each class of 4; any other 1 of each class of 8.
 */
export function consResult(which: i32): u64 {
  let c8 = solutions, c4: u64 = 0, c2: u64 = 0;
  if (symmetry == 2) { c8 = (solutions - half) / 4; c4 = (half - quarter) / 2; c2 = quarter; }
  else if (symmetry == 1) { c8 = (solutions - half) / 2; c4 = half; }
  return which == 0 ? c8 : which == 1 ? c4 : which == 2 ? c2 : nodes;
}
