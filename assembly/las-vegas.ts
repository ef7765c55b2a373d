// Pure Las Vegas (`queen_lv` of text 2 in docs/references.md; Brassard & Bratley's QueensLV): each try
// fills rows 0, 1, ... in turn; for a row it lists the safe columns in increasing
// order and places the one at index below(count) of the seeded generator. A row
// with no safe column fails the try, and the next try starts from an empty board.
// Nodes: every try counts its empty board as one node, plus one per queen placed.
// Work unit = nodes. Caps maxNodes and maxTries are exact. The list-and-draw
// replaces the seed's reservoir sampling with `rand() % nb` (same distribution,
// one draw per row).
//
// That is the hybrid method with every row random (stopVegas = n): the random rows
// of assembly/hybrid.ts are this algorithm, so Las Vegas runs that code with k = n
// rather than a copy of it that could drift. Twin: src/engine/ts/las-vegas.ts.

import { hybridInit, hybridRun, hybridStat } from "./hybrid";

/**
 * Allocate and reset for an n x n board (`param` is unused: every row is random); returns the
 * columns buffer, 0 if out of memory. The job's constraints, if any, are honoured by hybrid.ts
 * (given queens stand, random rows draw among the squares neither attacked nor blocked).
 */
export function lasVegasInit(n: i32, seed: u32, param: i32, nodeCap: f64, stepCap: f64, tryCap: f64): usize {
  return hybridInit(n, seed, n, nodeCap, stepCap, tryCap);
}

/** Search until a solution, maxNodes, maxTries, or `workLimit` nodes in all; returns the status. */
export function lasVegasRun(workLimit: f64): i32 {
  return hybridRun(workLimit);
}

/** The figures of the search: work and nodes are the same count here; no steps. */
export function lasVegasStat(slot: i32): f64 {
  return hybridStat(slot);
}
