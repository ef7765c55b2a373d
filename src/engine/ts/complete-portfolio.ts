// Twin of assembly/complete-portfolio.ts: solve mode's portfolio on the 64-bit complete
// search's boards, that search (CompleteSearch, complete.ts) and the wide path's restarting
// search (complete-wide.ts) taking turns in slices of nodes. The 64-bit search comes in as an
// object of the shape NarrowSearch (as the kernel's comes in as two functions), so this file
// never imports complete.ts. See the kernel for the algorithm and its figures.
import type { Constraints } from "../../board/constraints.js";
import { WideSearch } from "./complete-wide.js";
import { ESTIMATE_PROBES } from "./complete-estimate.js";
import { EXHAUSTED, FOUND, MAX_NODES, RUNNING, type SearchStatus } from "../contract.js";

/** The portfolio's first run, its slices and the point where its shares start to move, in nodes (as the kernel). */
const PORTFOLIO_START = 262144, NARROW_SLICE = 65536, WIDE_SLICE = 65536, SHARES_HALVE = 4194304;
/** Past this estimate of the 64-bit search's tree, made once at SHARES_HALVE, the shares stay equal (as the kernel). */
export const OUT_OF_REACH = 1e10;
/** The 64-bit search's slices, as a share of a wide slice, once it branches on the needed diagonals (as the kernel). */
const NEEDED_SLICE = 0.75;

/**
 * The portfolio's nodes in all while its 64-bit search walks `narrowNodes` of them, where its
 * shares stay equal (the tree estimated past OUT_OF_REACH): the restarting search's turns beside
 * each slice, NEEDED_SLICE smaller with the needed diagonals on (what a proof's forecast weighs).
 */
function equalSharesNodes(narrowNodes: number, neededLines: boolean): number {
  return narrowNodes * (1 + 1 / (neededLines ? NEEDED_SLICE : 1));
}

/** The most searches that share the rotating restarts on threads (a share's `of`): the kernel keeps it in 8 bits, and a cycle has at most 16 turns. */
export const RESTARTS_SHARE_MAX = 16;

/**
 * Of `threads` threads of a solve (two or more), how many take the restarting search (each its
 * share of the restarts): half, rounded down, at most RESTARTS_SHARE_MAX; the others take the
 * 64-bit search's tasks (src/workers/solve-parallel.ts). 0 on one thread (the portfolio).
 */
export function restartsThreads(threads: number): number {
  return threads < 2 ? 0 : Math.min(RESTARTS_SHARE_MAX, Math.floor(threads / 2));
}

/**
 * The nodes of a proof on `threads` threads (0 or 1: one, the portfolio) where the 64-bit
 * search's tree is `narrowNodes`: on two or more, the threads' nodes in all while its tasks'
 * threads walk the tree (the restarting search's threads search beside them); on one, the
 * tree's, or with equal shares (`equalShares`: its estimate out of reach) equalSharesNodes.
 */
export function proofNodes(narrowNodes: number, threads: number, equalShares: boolean, neededLines: boolean): number {
  if (threads >= 2) return (narrowNodes * threads) / (threads - restartsThreads(threads));
  return equalShares ? equalSharesNodes(narrowNodes, neededLines) : narrowNodes;
}

/** What the portfolio needs of the 64-bit search (CompleteSearch has it). */
export type NarrowSearch = {
  readonly n: number;
  readonly nodes: number;
  readonly solutions: number;
  readonly cols: Int32Array;
  /** Search on to `workLimit` of its nodes. */
  run(workLimit: number): SearchStatus;
  /** As the kernel's narrowWithLookahead: start again from the root with the deferred lookahead; false when the root fails. */
  startLookahead(): boolean;
  /** Knuth's estimate of its tree (complete-estimate.ts), its probes counted in its nodes; the search goes on where it stood. */
  estimate(): number;
  /** Whether it branches on the needed diagonals now (held back until its lookahead starts). */
  readonly neededLines: boolean;
};

/** Solve mode's portfolio at n <= 64 (as the kernel): the 64-bit search, then slices of it taking turns with the wide path's restarting search. */
export class Portfolio {
  private wide: WideSearch | null = null;
  private turn = 0;
  private turnEnd: number;
  private settled: SearchStatus | null = null;
  private wideFound = false;
  /** The estimate made (once, at SHARES_HALVE), and whether it said out of reach (as the kernel). */
  private estimated = false;
  private equalShares = false;
  /** 1, or 1/64 with COMPLETE_PORTFOLIO_SMALL (as the kernel). */
  private readonly scale: number;
  constructor(private readonly narrow: NarrowSearch, private readonly constraints: Constraints | undefined, private readonly cap: number, private readonly bounds: boolean, private readonly colourBounds: boolean, small: boolean) {
    this.scale = small ? 1 / 64 : 1;
    this.turnEnd = PORTFOLIO_START * this.scale;
  }

  get nodes(): number {
    return this.wide !== null ? this.narrow.nodes + this.wide.nodes - 1 : this.narrow.nodes;
  }

  get cols(): Int32Array {
    return this.wideFound ? this.wide!.cols : this.narrow.cols;
  }

  get solutions(): number {
    return this.wideFound ? 1 : this.narrow.solutions;
  }

  run(workLimit: number): SearchStatus {
    for (;;) {
      if (this.settled !== null) return this.settled;
      const total = this.nodes;
      if (total >= this.cap) return MAX_NODES;
      if (total >= workLimit) return RUNNING;
      const stop = Math.min(this.turnEnd, workLimit, this.cap);
      if (this.turn === 0) {
        const status = this.narrow.run(this.narrow.nodes + (stop - total));
        if (status === FOUND || status === EXHAUSTED) {
          this.settled = status;
          continue;
        }
        if (this.nodes < this.turnEnd) continue;
        if (this.wide === null && !this.narrow.startLookahead()) {
          this.settled = EXHAUSTED;
          continue;
        }
        this.wide ??= new WideSearch(this.narrow.n, this.constraints, 0, Infinity, undefined, this.bounds, this.colourBounds, true);
        this.turn = 1;
        this.turnEnd = this.nodes + WIDE_SLICE * this.scale;
      } else {
        const wide = this.wide!;
        const status = wide.run(wide.nodes + (stop - total));
        if (status === FOUND) {
          this.wideFound = true;
          this.settled = FOUND;
          continue;
        }
        if (status === EXHAUSTED) {
          this.settled = EXHAUSTED;
          continue;
        }
        if (this.nodes < this.turnEnd) continue;
        this.turn = 0;
        const halve = SHARES_HALVE * this.scale, slice = NARROW_SLICE * this.scale;
        if (this.nodes > halve && !this.estimated) {
          this.estimated = true;
          // (only where the cap leaves room for every probe, as the kernel)
          if (this.cap - this.nodes > ESTIMATE_PROBES * (this.narrow.n + 1)) this.equalShares = this.narrow.estimate() > OUT_OF_REACH;
        }
        const sum = this.nodes;
        const share = this.narrow.neededLines ? NEEDED_SLICE : 1;
        this.turnEnd = sum + Math.floor(share * (sum > halve && !this.equalShares ? Math.floor(slice * sum / halve) : slice));
      }
    }
  }
}
