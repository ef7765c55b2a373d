// Twin of assembly/complete.ts: the complete search for constrained boards (n <= 64 here;
// larger boards, or param bit COMPLETE_WIDE, take the wide path of complete-wide.ts).
// CompleteSearch is the 64-bit search's walk over its state (complete-state.ts, where build
// is), with solve's lookahead from complete-lookahead.ts; solve's portfolio is in
// complete-portfolio.ts. A 64-bit mask is two int32 halves (lo: columns 0..31, hi: 32..63), so
// both engines walk the same tree: same nodes, same solution. See the kernel for the algorithm.
import type { Constraints } from "../../board/constraints.js";
import { WideSearch, type RestartsShare } from "./complete-wide.js";
import { CompleteState, OPEN, SOLVED, columnOf, ctz32, nthBit, popcount32, rowOf } from "./complete-state.js";
import { LOOKAHEAD_LEVELS, LOOKAHEAD_ROWS, lookAhead } from "./complete-lookahead.js";
import { Portfolio } from "./complete-portfolio.js";
import { ESTIMATE_PROBES, estimateTree } from "./complete-estimate.js";
import { EXHAUSTED, FOUND, MAX_NODES, RUNNING, type Search, type SearchParams, type SearchSplit, type SearchStatus } from "../contract.js";

/** The complete search's state and walk, shared by solve (mode 0), enumeration (1) and counting (2). */
export class CompleteSearch extends CompleteState {
  depth = 0;
  found = false;
  /** What the last probe found below the root as solutions: its product of branches where it ended on a full board, else 0. */
  probeSolutions = 0;
  /** The deepest level with solve's lookahead (lookAhead; -1: none), where filtering is on (as the kernel). */
  private lookaheadDepth: number;
  private readonly lookaheadRows: number;
  /** The lookahead's reach, for startLookahead when it was deferred (the portfolio's). */
  private readonly lookaheadReach: number;

  /** `bounds`: the diagonal bounds (diagonal-bounds.ts) at every node; `colourBounds`: with their per-colour form (colour-bounds.ts). */
  constructor(n: number, constraints: Constraints | undefined, readonly mode: number, readonly maxNodes: number, bounds = true, colourBounds = true, lookahead: boolean | "always" = true, deferLookahead = false, needed = true) {
    super(n, constraints, mode === 0, bounds, colourBounds, needed);
    let deepest = -1;
    this.lookaheadRows = lookahead === "always" ? 0 : LOOKAHEAD_ROWS;
    if (this.filtering && lookahead === "always") {
      deepest = n;
    } else if (this.filtering && lookahead) {
      deepest = LOOKAHEAD_LEVELS; // and one level more for each given queen (a row with one square), placed first
      for (let y = 0; y < n; y++) if (popcount32(this.availLo[y]) + popcount32(this.availHi[y]) === 1) deepest++;
    }
    this.lookaheadReach = deepest;
    this.lookaheadDepth = deferLookahead ? -1 : deepest;
    this.holdNeeded(this.lookaheadDepth < 0 && deepest >= 0); // the needed diagonals start with the lookahead (as the kernel)
    this.depth = this.expand(0, 0, -1, -1) === OPEN ? 0 : -1;
  }

  /** As the kernel's narrowWithLookahead: start again from the root with the deferred lookahead; false when the root fails. */
  startLookahead(): boolean {
    if (this.lookaheadReach < 0 || this.lookaheadDepth >= 0) return true; // none to start
    this.lookaheadDepth = this.lookaheadReach;
    this.holdNeeded(false);
    this.depth = this.expand(0, 0, -1, -1) === OPEN ? 0 : -1;
    return this.depth === 0;
  }

  /** Knuth's estimate of this search's tree (complete-estimate.ts), on the levels above its own: the search goes on where it stood. */
  estimate(): number {
    return estimateTree(this, ESTIMATE_PROBES);
  }

  /** Level dst from level src with a queen at (r, c) (r < 0: none); then the branch of dst, with solve's lookahead where it is on. */
  protected expand(src: number, dst: number, r: number, c: number): number {
    const result = this.build(src, dst, r, c);
    this.orderPos[dst] = -1;
    return result === OPEN && dst <= this.lookaheadDepth && popcount32(this.rowsLo[dst]) + popcount32(this.rowsHi[dst]) >= this.lookaheadRows ? lookAhead(this, dst) : result;
  }

  /**
   * The root's branch before the search has gone down (after the lookahead where it runs): the
   * line (kind: BY_ROW, BY_COLUMN, BY_SUM or BY_DIFF, and its index) and its squares [row,
   * column] in the order they are tried; null when the root failed or is solved.
   */
  rootBranch(): { kind: number; index: number; squares: [number, number][] } | null {
    return this.depth === 0 ? this.branchAt(0) : null;
  }

  /** Level d's line and its untried squares, in the order they are tried. */
  private branchAt(d: number): { kind: number; index: number; squares: [number, number][] } {
    const lo = this.restLo[d], hi = this.restHi[d];
    const count = popcount32(lo) + popcount32(hi);
    const values: number[] = [];
    if (this.orderPos[d] >= 0) for (let i = 0; i < count; i++) values.push(this.order[d * 64 + this.orderPos[d] + i]);
    else for (let v = 0; v < 64; v++) if ((v < 32 ? (lo >>> v) & 1 : (hi >>> (v - 32)) & 1) !== 0) values.push(v);
    const kind = this.kind[d], index = this.index[d];
    return { kind, index, squares: values.map((v): [number, number] => [rowOf(kind, index, v), columnOf(this.n, kind, index, v)]) };
  }

  /**
   * The search's first real branch: from the root down the levels with one square (a given
   * queen's row, a line the filtering left one square), placing each as run() would, to the
   * first level with two squares or more; its line as rootBranch gives it, and the squares
   * placed on the way ([row, col]). null when the search is decided first (a level fails, or
   * the board is full). Only levels below the root are written: the search is not run after it.
   */
  firstBranch(): { placed: [number, number][]; kind: number; index: number; squares: [number, number][] } | null {
    if (this.depth !== 0) return null;
    const placed: [number, number][] = [];
    for (let d = 0; ; d++) {
      const branch = this.branchAt(d);
      if (branch.squares.length === 0) return null;
      if (branch.squares.length >= 2) return { placed, ...branch };
      const [r, c] = branch.squares[0];
      placed.push([r, c]);
      this.cols[r] = c;
      if (this.expand(d, d + 1, r, c) !== OPEN) return null;
    }
  }

  /**
   * One of Knuth's random probes of this search's tree (for an estimate of its nodes, not a
   * count): from the root, one branch drawn at random (`random` in [0, 1)) at each level, by
   * the search's own choice of line; returns 1 + d1 + d1*d2 + ..., dk the branches
   * met at level k, whose mean over probes is the tree's node count (and the mean of
   * probeSolutions its solutions'). Only levels below the
   * root are written, so probes may follow one another; the search is not run after them.
   */
  probe(random: () => number): number {
    this.probeSolutions = 0;
    if (this.depth < 0) return 1;
    let estimate = 1, product = 1;
    for (let d = 0; ; d++) {
      const lo = this.restLo[d], hi = this.restHi[d];
      const k = popcount32(lo) + popcount32(hi);
      if (k === 0) return estimate;
      product *= k;
      estimate += product;
      const b = nthBit(lo, hi, Math.min(k - 1, Math.floor(random() * k)));
      const r = rowOf(this.kind[d], this.index[d], b), c = columnOf(this.n, this.kind[d], this.index[d], b);
      const result = this.expand(d, d + 1, r, c);
      if (result === SOLVED) this.probeSolutions = product;
      if (result !== OPEN) return estimate;
    }
  }

  /** As the kernel's completeSplit: the untried branches at the shallowest open level given away (the search skips them), or null. */
  split(): SearchSplit | null {
    if (this.found || this.depth < 0) return null;
    let d = 0;
    while (d <= this.depth && this.restLo[d] === 0 && this.restHi[d] === 0) d++;
    if (d > this.depth) return null;
    const has = (lo: number, hi: number, b: number): boolean => ((b < 32 ? lo >>> b : hi >>> (b - 32)) & 1) !== 0;
    let lo = this.restLo[d], hi = this.restHi[d];
    const pos = this.orderPos[d];
    if (d === this.depth) {
      if (popcount32(lo) + popcount32(hi) < 2) return null;
      const next = pos >= 0 ? this.order[d * 64 + pos] : lo !== 0 ? ctz32(lo) : 32 + ctz32(hi);
      if (next < 32) lo &= ~(1 << next);
      else hi &= ~(1 << (next - 32));
      this.restLo[d] = next < 32 ? 1 << next : 0;
      this.restHi[d] = next < 32 ? 0 : 1 << (next - 32);
      this.orderPos[d] = -1; // one branch left: lowest first is the order
    } else {
      this.restLo[d] = 0;
      this.restHi[d] = 0;
    }
    const path: [number, number][] = [];
    for (let i = 0; i < d; i++) { // the queen that made level i + 1: the row it took, and its column
      const placedLo = this.rowsLo[i] & ~this.rowsLo[i + 1], placedHi = this.rowsHi[i] & ~this.rowsHi[i + 1];
      const r = placedLo !== 0 ? ctz32(placedLo) : 32 + ctz32(placedHi);
      path.push([r, this.cols[r]]);
    }
    const kind = this.kind[d], line = this.index[d];
    const values: number[] = [];
    const given = popcount32(lo) + popcount32(hi);
    if (pos >= 0) { // lookAhead's order: the entries from pos that are given away
      for (let i = pos; i < 64 && values.length < given; i++) if (has(lo, hi, this.order[d * 64 + i])) values.push(this.order[d * 64 + i]);
    } else {
      for (let b = 0; b < 64; b++) if (has(lo, hi, b)) values.push(b);
    }
    return { path, branches: values.map((b): [number, number] => [rowOf(kind, line, b), columnOf(this.n, kind, line, b)]) };
  }

  run(workLimit: number): SearchStatus {
    for (;;) {
      if (this.found) return FOUND;
      const d = this.depth;
      if (d < 0) return EXHAUSTED;
      if (this.nodes >= this.maxNodes) return MAX_NODES;
      if (this.nodes >= workLimit) return RUNNING;
      const lo = this.restLo[d], hi = this.restHi[d];
      if (lo === 0 && hi === 0) {
        this.depth--;
        continue;
      }
      let b: number;
      if (this.orderPos[d] >= 0) {
        b = this.order[d * 64 + this.orderPos[d]++]; // lookAhead's order
      } else {
        b = lo !== 0 ? ctz32(lo) : 32 + ctz32(hi);
      }
      if (b < 32) this.restLo[d] &= ~(1 << b);
      else this.restHi[d] &= ~(1 << (b - 32));
      const r = rowOf(this.kind[d], this.index[d], b), c = columnOf(this.n, this.kind[d], this.index[d], b);
      this.nodes++;
      this.cols[r] = c;
      const result = this.expand(d, d + 1, r, c);
      if (result === OPEN) {
        this.depth++;
      } else if (result === SOLVED) {
        this.solutions++;
        if (this.mode === 0) this.found = true;
        if (this.mode !== 2) return FOUND;
      }
    }
  }
}

/** Bit of param asking for the wide path at any n (as assembly/complete.ts). */
export const COMPLETE_WIDE = 8;
/** Bit of param keeping solve mode on the 64-bit search alone (no portfolio). */
export const COMPLETE_PLAIN = 16;
/** Bit of param (tests): on the wide path, solve's first run takes n nodes only, so small boards restart too. */
export const COMPLETE_RESTART_OFTEN = 32;
/** Bit of param turning the diagonal bounds (diagonal-bounds.ts) off, on both paths (measurements, tests). */
export const COMPLETE_NO_BOUNDS = 64;
/** Bit of param turning the per-colour bounds (colour-bounds.ts) off, on both paths (measurements, tests). */
export const COMPLETE_NO_COLOUR_BOUNDS = 128;
/** Bit of param turning solve's lookahead off, on the 64-bit path (measurements, tests). */
export const COMPLETE_NO_LOOKAHEAD = 256;
/** Bit of param (tests): solve's lookahead at every level, whatever the rows left, so that small boards take it too. */
export const COMPLETE_LOOKAHEAD_ALWAYS = 512;
/** Bit of param (tests): the portfolio's first run, slices and the point where its shares start to move, 64 times smaller. */
export const COMPLETE_PORTFOLIO_SMALL = 1024;
/** Bit of param: the wide path's restarts rotate through the root's first branches (the portfolio's; tests ask for it on the wide path alone). */
export const COMPLETE_ROTATE = 2048;
/** Bit of param turning solve's needed diagonals (colour-bounds.ts colourMandatory) off as lines to branch on (measurements, tests). */
export const COMPLETE_NO_NEEDED = 4096;
/**
 * param >> COMPLETE_SHARE_SHIFT (with COMPLETE_ROTATE, solve on threads): the rotating restarts'
 * share (RestartsShare, complete-wide.ts), its turn in bits 0-7 and `of` in bits 8-15 (as the kernel).
 */
export const COMPLETE_SHARE_SHIFT = 16;

/** The param bits of a share of the rotating restarts (0 for the whole: one search takes every restart). */
export function restartsShareParam(share: RestartsShare): number {
  return share.of > 1 ? ((share.turn & 255) | ((share.of & 255) << 8)) << COMPLETE_SHARE_SHIFT : 0;
}

/** The share of the rotating restarts a param names (restartsShareParam's inverse; the whole where it names none). */
export function restartsShareOf(param: number): RestartsShare {
  return { turn: (param >> COMPLETE_SHARE_SHIFT) & 255, of: (param >> (COMPLETE_SHARE_SHIFT + 8)) & 255 };
}

/** Largest n of the 64-bit path; past it the wide path runs. */
export const NARROW_MAX_N = 64;

export function openComplete(n: number, params: SearchParams): Search {
  const mode = params.param & 3;
  const wide = n > NARROW_MAX_N || (params.param & COMPLETE_WIDE) !== 0;
  const bounds = (params.param & COMPLETE_NO_BOUNDS) === 0;
  const colourBounds = (params.param & COMPLETE_NO_COLOUR_BOUNDS) === 0;
  // Solve's portfolio only where the diagonal bounds pay (boundsPay), as the kernel; elsewhere the 64-bit search alone.
  const lookahead = (params.param & COMPLETE_LOOKAHEAD_ALWAYS) !== 0 ? "always" : (params.param & COMPLETE_NO_LOOKAHEAD) === 0;
  // The portfolio's 64-bit search takes the lookahead only once its first PORTFOLIO_START nodes have not decided the board (as the kernel).
  const needed = (params.param & COMPLETE_NO_NEEDED) === 0;
  const narrow = wide ? null : new CompleteSearch(n, params.constraints, mode, Infinity, bounds, colourBounds, lookahead, true, needed);
  const portfolio = narrow !== null && narrow.bounds && mode === 0 && (params.param & COMPLETE_PLAIN) === 0;
  const search = wide
    ? new WideSearch(n, params.constraints, mode, params.maxNodes, (params.param & COMPLETE_RESTART_OFTEN) !== 0 ? 1 : undefined, bounds, colourBounds, (params.param & COMPLETE_ROTATE) !== 0,
      restartsShareOf(params.param))
    : portfolio
      ? new Portfolio(narrow!, params.constraints, params.maxNodes, bounds, colourBounds, (params.param & COMPLETE_PORTFOLIO_SMALL) !== 0)
      : new CompleteSearch(n, params.constraints, mode, params.maxNodes, bounds, colourBounds, lookahead, false, needed);
  return {
    run: (workLimit) => search.run(workLimit),
    work: () => search.nodes,
    stats: () => ({ nodes: search.nodes, tries: 1, steps: 0 }),
    state: () => ({ phase: "search", conflicts: -1 }),
    columns: () => search.cols.slice(),
    solutions: () => BigInt(search.solutions),
    // (the portfolio and the wide path never split, as the kernel)
    split: () => (search instanceof CompleteSearch ? search.split() : null),
    close() {},
  };
}
