// Pure Las Vegas (seed 001's queen_lv; Brassard & Bratley's QueensLV): each try
// fills rows 0, 1, ... in turn; for a row it lists the safe columns in increasing
// order and places the one at index below(count) of the seeded generator. A row
// with no safe column fails the try, and the next try starts from an empty board.
// Nodes: every try counts its empty board as one node, plus one per queen placed.
// Work unit = nodes. Caps maxNodes and maxTries are exact. The list-and-draw
// replaces the seed's reservoir sampling with `rand() % nb` (same distribution,
// one draw per row). Twin: src/engine-ts/las-vegas.ts.

import { allocate } from "./memory";
import { below, seedRandom } from "./rng";
import {
  RUNNING, FOUND, MAX_NODES, MAX_TRIES,
  STAT_WORK, STAT_NODES, STAT_TRIES, STAT_CONFLICTS, STAT_PHASE, PHASE_SEARCH,
} from "./status";

let size: i32 = 0;
let row: i32 = 0;
let nodes: f64 = 0;
let tries: f64 = 0;
let maxNodes: f64 = 0;
let maxTries: f64 = 0;
let cols: usize = 0; // i32[n]: column of the queen in each row (-1: none yet)
let safe: usize = 0; // i32[n]: the safe columns of the current row
let colUsed: usize = 0; // u8[n]
let sumUsed: usize = 0; // u8[2n]: diagonal row + col
let diffUsed: usize = 0; // u8[2n]: diagonal row - col + n - 1

/** Allocate and reset for an n x n board; returns the columns buffer, 0 if out of memory. */
export function lasVegasInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  size = n;
  maxNodes = nodeCap;
  maxTries = tryCap;
  cols = allocate(<usize>n << 2);
  safe = allocate(<usize>n << 2);
  colUsed = allocate(<usize>n);
  sumUsed = allocate(<usize>n << 1);
  diffUsed = allocate(<usize>n << 1);
  if (cols == 0 || safe == 0 || colUsed == 0 || sumUsed == 0 || diffUsed == 0) return 0;
  memory.fill(cols, 0xFF, <usize>n << 2); // every row -1
  seedRandom(seed);
  row = 0;
  nodes = 1; // the empty board of the first try
  tries = 1;
  return cols;
}

@inline function mark(r: i32, c: i32, v: u8): void {
  store<u8>(colUsed + <usize>c, v);
  store<u8>(sumUsed + <usize>(r + c), v);
  store<u8>(diffUsed + <usize>(r - c + size - 1), v);
}

/** The try failed: stop at maxTries, else lift every queen and start a new try (RUNNING). */
function newTry(): i32 {
  if (tries >= maxTries) return MAX_TRIES;
  for (let r = 0; r < row; r++) {
    const at = cols + (<usize>r << 2);
    mark(r, load<i32>(at), 0);
    store<i32>(at, -1);
  }
  row = 0;
  tries++;
  nodes++; // the new try's empty board
  return RUNNING;
}

/** Search until a solution, maxNodes, maxTries, or `workLimit` nodes in all; returns the status. */
export function lasVegasRun(workLimit: f64): i32 {
  while (true) {
    if (row == size) return FOUND;
    if (nodes >= maxNodes) return MAX_NODES;
    if (nodes >= workLimit) return RUNNING;
    let count = 0;
    const sum = sumUsed + <usize>row;
    const diff = diffUsed + <usize>(row + size - 1);
    for (let c = 0; c < size; c++) {
      if ((load<u8>(colUsed + <usize>c) | load<u8>(sum + <usize>c) | load<u8>(diff - <usize>c)) == 0) {
        store<i32>(safe + (<usize>count << 2), c);
        count++;
      }
    }
    if (count == 0) {
      const status = newTry();
      if (status != RUNNING) return status;
      continue;
    }
    const c = load<i32>(safe + (<usize>below(count) << 2));
    store<i32>(cols + (<usize>row << 2), c);
    mark(row, c, 1);
    nodes++;
    row++;
  }
}

/** The figures of the search: work and nodes are the same count here; no steps. */
export function lasVegasStat(slot: i32): f64 {
  if (slot == STAT_WORK || slot == STAT_NODES) return nodes;
  if (slot == STAT_TRIES) return tries;
  if (slot == STAT_CONFLICTS) return -1;
  if (slot == STAT_PHASE) return PHASE_SEARCH;
  return 0;
}
