// Solve mode's portfolio on the 64-bit complete search's boards (n <= 64, where the diagonal
// bounds pay): the 64-bit search (complete.ts) and the wide path's restarting search
// (complete-wide.ts) taking turns, in slices of nodes. complete.ts hands its search in as two
// functions (run on to a node count; start again from the root with the lookahead), so this
// file imports the 64-bit search's state (complete-state.ts) and never complete.ts; a call
// through them is made once a slice, not once a node. Twin: src/engine/ts/complete-portfolio.ts.

import { wideInit, wideRun, wideNodes } from "./complete-wide";
import { size, nodes, solutions, cols, neededLines } from "./complete-state";
import { ESTIMATE_PROBES, estimateTree } from "./complete-estimate";
import { RUNNING, FOUND, EXHAUSTED, MAX_NODES } from "./status";

// The 64-bit search alone for its first PORTFOLIO_START nodes (every board it decides by
// then is answered exactly as before), then slices of NARROW_SLICE nodes of it taking turns with slices of WIDE_SLICE nodes of the wide
// path's restarting search (complete-wide.ts), equal shares in nodes: on Excluded
// Diagonals boards at n = 30 the restarting search finds the solutions in about a tenth
// of the 64-bit search's nodes, and the 64-bit one gives the proofs (measured: equal
// shares against one wide node in nine took the slowest solvable d = 28 and d = 32 boards
// from 22.8M / 19.4M nodes to 5.3M / 4.5M, and the slowest proof at d = 36 from 10.6M nodes
// to 18.7M). Past SHARES_HALVE nodes in all the 64-bit search's slices grow with the total
// (NARROW_SLICE * total / SHARES_HALVE), so the wide search's share halves each time the
// total doubles: its finds came within 2.5M of its nodes on every board measured, and the
// long runs are the 64-bit search's proofs and late finds (d = 36 seed 4, d = 32 seed 1),
// which equal shares took twice as long (the point moved from 2^23 to 2^22 with the rotating
// restarts: d = 36 seed 4's proof 35.25M -> 31.19M nodes, the finds of 11 solvable n = 30
// boards and of n = 32, d = 34, seed 3 the same or within 2%). Either one's solution is the
// answer, and either one's exhausted tree a proof; nodes are the sum of both.
const PORTFOLIO_START: f64 = 262144;
const NARROW_SLICE: f64 = 65536;
const WIDE_SLICE: f64 = 65536;
const SHARES_HALVE: f64 = 4194304;
// Unless the 64-bit search's tree is out of its reach: at SHARES_HALVE the portfolio estimates
// that tree (complete-estimate.ts, ESTIMATE_PROBES probes without the lookahead), and past
// OUT_OF_REACH nodes (hours of the 64-bit search) the shares stay equal. The proofs it gives are
// on trees estimated at 10^8 (n = 30, d = 36, seed 4: 1.6 * 10^8; n = 32, d = 35, seed 2, minFree 4:
// 2.4 * 10^8), while the restarting search alone found n = 36, d = 33, seed 2 and d = 36, seed 1
// (minFree 4; estimated 1.3 * 10^15 and 2.2 * 10^15) in 21.4M and 21.7M of its nodes, which the
// moving shares give it only past 8 * 10^8 nodes in all.
const OUT_OF_REACH: f64 = 1e10;
/**
 * The 64-bit search's slices, in nodes, are this much of a wide slice's once it branches on the
 * needed diagonals (complete-state.ts), whose nodes cost it about 1.3 times more (n = 36, d = 33,
 * seed 2: 0.80M nodes a second against 1.05M): so the turns stay about equal in time, and the
 * restarting search's finds come no later than before them.
 */
const NEEDED_SLICE: f64 = 0.75;
let estimated: bool = false; // the estimate made (once, at SHARES_HALVE)
let equalShares: bool = false; // it said out of reach
let scale: f64 = 1; // 1, or 1/64 (complete.ts's PORTFOLIO_SMALL, for tests)
let wideParam: i32 = 0; // the restarting search's param
let wideReady: bool = false;
let wideCols: usize = 0;
let wideFound: bool = false; // the answer is the wide search's solution (copied into the 64-bit search's columns)
let turn: i32 = 0; // 0: the 64-bit search's slice, 1: the wide search's
let turnEnd: f64 = 0; // in nodes of both
let settled: i32 = -1; // the portfolio's final status once FOUND or EXHAUSTED
let cap: f64 = 0; // maxNodes over both searches

/** Reset for a new board (the 64-bit search already made by completeInit): `nodeCap` over both searches, `small` the figures 64 times smaller, `param` the wide search's. */
export function portfolioInit(nodeCap: f64, small: bool, param: i32): void {
  scale = small ? 1.0 / 64 : 1;
  wideParam = param;
  wideReady = false;
  wideFound = false;
  turn = 0;
  turnEnd = PORTFOLIO_START * scale;
  settled = -1;
  cap = nodeCap;
  estimated = false;
  equalShares = false;
}

/** Nodes of both searches (the wide one's empty board not counted again). */
export function portfolioNodes(): f64 {
  return wideReady ? nodes + wideNodes() - 1 : nodes;
}

/** The solutions met: the wide search's one, or the 64-bit search's. */
export function portfolioSolutions(): u64 {
  return wideFound ? 1 : solutions;
}

/**
 * As completeRun, over both searches. `narrowRun(limit)` runs the 64-bit search on to `limit`
 * of its nodes (its status); `narrowRestart()` starts it again from the root with the
 * lookahead the first time it is called (false when the root fails) and is true after.
 */
export function portfolioRun(workLimit: f64, narrowRun: (workLimit: f64) => i32, narrowRestart: () => bool): i32 {
  while (true) {
    if (settled >= 0) return settled;
    const total = portfolioNodes();
    if (total >= cap) return MAX_NODES;
    if (total >= workLimit) return RUNNING;
    let stop = turnEnd < workLimit ? turnEnd : workLimit;
    if (cap < stop) stop = cap;
    if (turn == 0) {
      const status = narrowRun(nodes + (stop - total));
      if (status == FOUND || status == EXHAUSTED) {
        settled = status;
        continue;
      }
      if (portfolioNodes() < turnEnd) continue;
      if (!narrowRestart()) {
        settled = EXHAUSTED;
        continue;
      }
      if (!wideReady) {
        wideCols = wideInit(size, wideParam, Infinity);
        if (wideCols == 0) {
          turnEnd = Infinity; // no memory for it: the 64-bit search alone
          continue;
        }
        wideReady = true;
      }
      turn = 1;
      turnEnd = portfolioNodes() + WIDE_SLICE * scale;
    } else {
      const status = wideRun(wideNodes() + (stop - total));
      if (status == FOUND) {
        memory.copy(cols, wideCols, <usize>size << 2);
        wideFound = true;
        settled = FOUND;
        continue;
      }
      if (status == EXHAUSTED) {
        settled = EXHAUSTED;
        continue;
      }
      if (portfolioNodes() < turnEnd) continue;
      turn = 0;
      const halve = SHARES_HALVE * scale, slice = NARROW_SLICE * scale;
      if (portfolioNodes() > halve && !estimated) {
        estimated = true;
        // (only where the cap leaves room for every probe, so that the portfolio's node limit stays exact)
        if (cap - portfolioNodes() > <f64>(ESTIMATE_PROBES * (size + 1))) equalShares = estimateTree(ESTIMATE_PROBES) > OUT_OF_REACH;
      }
      const sum = portfolioNodes();
      const share = neededLines ? NEEDED_SLICE : 1;
      turnEnd = sum + Math.floor(share * (sum > halve && !equalShares ? Math.floor(slice * sum / halve) : slice));
    }
  }
}
