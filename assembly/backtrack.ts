// First solution by depth-first backtracking (Horowitz & Sahni, text 3 in docs/references.md; Brassard & Bratley's
// node convention): rows from 0, columns tried in increasing order; the empty
// board is one node and every queen placed is one node. Arrays, not bitboards,
// so any n works. Constrained boards (constraints.ts): a row with a given queen
// tries only its column, blocked squares are skipped; nothing else changes (the
// row-order baseline of the complete search, complete.ts). Runs in bounded chunks: backtrackRun stops at a work limit and
// resumes where it stopped. Twin: src/engine/ts/backtrack.ts.
//
// Every search kernel has the same exports (see src/engine/wasm/index.ts):
//   <name>Init(n, seed, param, maxNodes, maxSteps, maxTries): columns pointer, 0 if out of memory
//   <name>Run(workLimit): status (status.ts)      <name>Stat(slot): a figure (status.ts)

import { allocate } from "./memory";
import { fixedColumn, hasConstraints, isBlocked, rowConstrained } from "./constraints";

/** Largest n whose constrained squares are tabled (n^2 bytes, 4 MiB): one load per square instead of a search. */
const TABLE_MAX_N: i32 = 2048;
import { RUNNING, FOUND, EXHAUSTED, MAX_NODES, STAT_WORK, STAT_NODES, STAT_TRIES, STAT_CONFLICTS, PHASE_SEARCH, STAT_PHASE } from "./status";

let size: i32 = 0;
let row: i32 = 0;
let nodes: f64 = 0;
let maxNodes: f64 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row (-1: none yet)
let colUsed: usize = 0; // u8[n]
let sumUsed: usize = 0; // u8[2n]: diagonal row + col
let diffUsed: usize = 0; // u8[2n]: diagonal row - col + n - 1
let forbidden: usize = 0; // u8[n * n] when constrained and n <= TABLE_MAX_N: 1 where no queen may go (blocked, or off a given queen's column)

/** Allocate and reset for an n x n board; returns the columns buffer, 0 if out of memory. */
export function backtrackInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  size = n;
  maxNodes = nodeCap;
  cols = allocate(<usize>n << 2);
  colUsed = allocate(<usize>n);
  sumUsed = allocate(<usize>n << 1);
  diffUsed = allocate(<usize>n << 1);
  if (cols == 0 || colUsed == 0 || sumUsed == 0 || diffUsed == 0) return 0;
  forbidden = 0;
  if (hasConstraints() && n <= TABLE_MAX_N) {
    forbidden = allocate(<usize>n * <usize>n);
    if (forbidden == 0) return 0;
    for (let r = 0; r < n; r++) {
      if (!rowConstrained(r)) continue;
      const f = fixedColumn(r);
      const at = forbidden + <usize>r * <usize>n;
      for (let c = 0; c < n; c++) if ((f >= 0 && c != f) || isBlocked(r, c)) store<u8>(at + <usize>c, 1);
    }
  }
  store<i32>(cols, -1);
  row = 0;
  nodes = 1; // the empty board
  return cols;
}

@inline function mark(r: i32, c: i32, v: u8): void {
  store<u8>(colUsed + <usize>c, v);
  store<u8>(sumUsed + <usize>(r + c), v);
  store<u8>(diffUsed + <usize>(r - c + size - 1), v);
}

/** Search until a solution, exhaustion, maxNodes, or `workLimit` nodes in all; returns the status. */
export function backtrackRun(workLimit: f64): i32 {
  while (true) {
    if (row < 0) return EXHAUSTED;
    if (row == size) return FOUND;
    if (nodes >= maxNodes) return MAX_NODES;
    if (nodes >= workLimit) return RUNNING;
    const at = cols + (<usize>row << 2);
    let c = load<i32>(at);
    if (c >= 0) mark(row, c, 0); // lift the queen we come back to
    c++;
    const sum = sumUsed + <usize>row;
    const diff = diffUsed + <usize>(row + size - 1);
    if (forbidden != 0) {
      const no = forbidden + <usize>row * <usize>size;
      while (c < size && (load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c) | load<u8>(no + <usize>c)) != 0) c++;
    } else if (rowConstrained(row)) {
      const f = fixedColumn(row);
      while (c < size && ((f >= 0 && c != f) || (load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0 || isBlocked(row, c))) c++;
    } else {
      while (c < size && (load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) != 0) c++;
    }
    if (c == size) {
      store<i32>(at, -1);
      row--;
      continue;
    }
    store<i32>(at, c);
    mark(row, c, 1);
    nodes++;
    row++;
    if (row < size) store<i32>(cols + (<usize>row << 2), -1);
  }
}

/** The figures of the search: work and nodes are the same count here; one try, no steps. */
export function backtrackStat(slot: i32): f64 {
  if (slot == STAT_WORK || slot == STAT_NODES) return nodes;
  if (slot == STAT_TRIES) return 1;
  if (slot == STAT_CONFLICTS) return -1;
  if (slot == STAT_PHASE) return PHASE_SEARCH;
  return 0;
}
