// Twin of assembly/complete-wide.ts: the complete search's wide path (past n = 64, or
// when asked). Rows keep their open columns in 32-bit words edited in place, with a
// trail of the squares cleared, and counters per row, column and diagonal; branches
// least constraining first, restarts in solve mode. Same nodes, same solution as the
// kernel. See the kernel for the algorithm.
import type { Constraints } from "../../board/constraints.js";
import { EXHAUSTED, FOUND, MAX_NODES, RUNNING, type SearchStatus } from "../contract.js";
import { boundsOnLines, boundsPay } from "./diagonal-bounds.js";
import { key, rotateLeft, sortKeys, tie } from "./complete-wide-order.js";
import { BY_COLUMN, BY_ROW, FAIL, OPEN, SOLVED } from "./complete-state.js";

const RESTART_BASE = 16;
/** The longest cycle of the rotating restarts (as the kernel's ROTATION_MAX). */
const ROTATION_MAX = 16;

function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The wide path's state (mode 0 solve, 1 enumerate, 2 count, as CompleteSearch). */
export class WideSearch {
  nodes = 1; // the empty board
  solutions = 0;
  depth = 0;
  found = false;
  readonly cols: Int32Array;
  private readonly words: number;
  private left: number;
  private readonly avail: Int32Array; // row r's open columns from r * words
  private readonly rowCount: Int32Array;
  private readonly colCount: Int32Array;
  private readonly rowsLeft: Int32Array;
  private readonly colsFree: Int32Array;
  private readonly kind: Int32Array;
  private readonly index: Int32Array;
  private readonly next: Int32Array;
  protected readonly placedRow: Int32Array;
  private readonly placedCol: Int32Array;
  private readonly mark: Int32Array;
  private readonly trailRow: Int32Array;
  private readonly trailCol: Int32Array;
  private trailTop = 0;
  private readonly sumCount: Int32Array;
  private readonly diffCount: Int32Array;
  private readonly bounds: boolean;
  private readonly sumBits: Int32Array; // the sum diagonals with an open square (sumCount > 0)
  private readonly diffBits: Int32Array; // likewise the difference diagonals
  protected readonly start: Int32Array;
  private readonly candidates: Float64Array;
  private restarts = 0;
  private runNodes: number;
  private cutoff: number;
  private turn = 0; // rotate: the restart's place in its cycle
  /** rotate: this search's share of the restarts (as the kernel's SHARE_SHIFT): the restarts numbered shareTurn modulo shareOf. */
  private readonly shareTurn: number;
  private readonly shareOf: number;

  /**
   * `mode` 0 solve, 1 enumerate, 2 count; `restartBase`: solve's first run takes restartBase * n nodes (tests make it 1);
   * `bounds`: the diagonal bounds (diagonal-bounds.ts) at every node; `colourBounds`: with their per-colour form (colour-bounds.ts);
   * `rotate`: the restarts in cycles through the root's first branches (the kernel's ROTATE, the portfolio's);
   * `share` (with rotate): this search's turn of `of` searches sharing the restarts (the kernel's param >> SHARE_SHIFT).
   */
  constructor(readonly n: number, constraints: Constraints | undefined, readonly mode: number, readonly maxNodes: number, restartBase = RESTART_BASE, bounds = true, private readonly colourBounds = true, private readonly rotate = false, share: RestartsShare = { turn: 0, of: 1 }) {
    this.shareOf = Math.max(1, share.of);
    this.shareTurn = share.turn % this.shareOf;
    const words = (this.words = (n + 31) >>> 5);
    const levels = n + 1;
    const trail = (3 * n * (n - 1)) / 2 + 1;
    this.left = n;
    this.avail = new Int32Array(n * words);
    this.rowCount = new Int32Array(n);
    this.colCount = new Int32Array(n);
    this.rowsLeft = new Int32Array(words);
    this.colsFree = new Int32Array(words);
    this.kind = new Int32Array(levels);
    this.index = new Int32Array(levels);
    this.next = new Int32Array(levels);
    this.placedRow = new Int32Array(levels).fill(-1);
    this.placedCol = new Int32Array(levels);
    this.mark = new Int32Array(levels);
    this.trailRow = new Int32Array(trail);
    this.trailCol = new Int32Array(trail);
    this.cols = new Int32Array(n).fill(-1);
    this.sumCount = new Int32Array(2 * n);
    this.diffCount = new Int32Array(2 * n);
    this.sumBits = new Int32Array((2 * n - 1 + 31) >>> 5);
    this.diffBits = new Int32Array((2 * n - 1 + 31) >>> 5);
    this.start = new Int32Array(levels + 1);
    this.candidates = new Float64Array((n * (n + 1)) / 2 + n);
    this.runNodes = restartBase * n;
    this.cutoff = mode === 0 ? this.nodes + this.runNodes : Infinity;
    const avail = this.avail;
    const plain = constraints === undefined || constraints.empty;
    let ok = true;
    for (let r = 0; r < n; r++) {
      this.rowsLeft[r >>> 5] |= 1 << (r & 31);
      this.colsFree[r >>> 5] |= 1 << (r & 31);
      const base = r * words;
      const f = plain ? -1 : constraints.fixedColumn[r];
      if (f >= 0) avail[base + (f >>> 5)] = 1 << (f & 31);
      else {
        for (let w = 0; w < words; w++) {
          const rest = n - 32 * w;
          avail[base + w] = rest >= 32 ? -1 : (1 << rest) - 1;
        }
        if (!plain) {
          for (let i = constraints.blockedStart[r]; i < constraints.blockedStart[r + 1]; i++) {
            const c = constraints.blockedCols[i];
            avail[base + (c >>> 5)] &= ~(1 << (c & 31));
          }
        }
      }
      let k = 0;
      for (let w = 0; w < words; w++) {
        let x = avail[base + w];
        k += popcount32(x);
        while (x !== 0) {
          const p = 32 * w + ctz32(x);
          x &= x - 1;
          this.colCount[p]++;
          this.lines(r, p, 1);
        }
      }
      this.rowCount[r] = k;
      if (k === 0) ok = false;
    }
    for (let p = 0; p < n; p++) if (this.colCount[p] === 0) ok = false;
    this.bounds = bounds && boundsPay(n, this.sumBits, this.diffBits);
    if (ok && this.bounds && !this.boundsHold()) ok = false;
    if (ok) {
      this.branch(0);
      if (rotate && mode === 0 && this.shareTurn !== 0) this.restart(); // (restart 0, the first run, is another's)
    } else this.depth = -1;
  }

  /** Adds `by` to the diagonal counters of square (y, p) (and keeps the usable diagonals' bits). */
  private lines(y: number, p: number, by: number): void {
    const k = y + p, j = y - p + this.n - 1;
    const vs = (this.sumCount[k] += by);
    if (vs === 0) this.sumBits[k >>> 5] &= ~(1 << (k & 31));
    else if (vs === 1 && by > 0) this.sumBits[k >>> 5] |= 1 << (k & 31);
    const vt = (this.diffCount[j] += by);
    if (vt === 0) this.diffBits[j >>> 5] &= ~(1 << (j & 31));
    else if (vt === 1 && by > 0) this.diffBits[j >>> 5] |= 1 << (j & 31);
  }

  /** The diagonal bounds (diagonal-bounds.ts) at the current node (difference index r - c + n - 1 here). */
  private boundsHold(): boolean {
    return boundsOnLines(this.n, this.left, this.rowsLeft, this.colsFree, this.words, this.sumBits, this.diffBits, true, this.colourBounds);
  }

  /** Clears square (y, p) if open; false when that leaves row y, or free column p (p != c), with nothing. */
  private take(y: number, p: number, c: number): boolean {
    const at = y * this.words + (p >>> 5), bit = 1 << (p & 31);
    if ((this.avail[at] & bit) === 0) return true;
    this.avail[at] &= ~bit;
    this.trailRow[this.trailTop] = y;
    this.trailCol[this.trailTop++] = p;
    const rc = --this.rowCount[y];
    const cc = --this.colCount[p];
    this.lines(y, p, -1);
    return rc !== 0 && (cc !== 0 || p === c);
  }

  private branch(d: number): void {
    const words = this.words, n = this.n, restarted = this.restarts !== 0;
    let best = -1, bestCount = 0x7fffffff;
    for (let w = 0; w < words; w++) {
      let x = this.rowsLeft[w];
      while (x !== 0) {
        const y = 32 * w + ctz32(x);
        x &= x - 1;
        const k = this.rowCount[y];
        if (k < bestCount || (k === bestCount && restarted && tie(y, this.restarts) < tie(best, this.restarts))) {
          bestCount = k;
          best = y;
        }
      }
    }
    let limit = bestCount < 8 ? bestCount : 8, column = -1;
    for (let w = 0; w < words; w++) {
      let x = this.colsFree[w];
      while (x !== 0) {
        const p = 32 * w + ctz32(x);
        x &= x - 1;
        const k = this.colCount[p];
        if (k < limit || (k === limit && column >= 0 && restarted && tie(p, this.restarts) < tie(column, this.restarts))) {
          limit = k;
          column = p;
        }
      }
    }
    this.next[d] = 0;
    this.placedRow[d] = -1;
    const base = this.start[d];
    let count = 0;
    if (column >= 0) {
      this.kind[d] = BY_COLUMN;
      this.index[d] = column;
      const at = column >>> 5, bit = 1 << (column & 31);
      for (let w = 0; w < words; w++) {
        let x = this.rowsLeft[w];
        while (x !== 0) {
          const y = 32 * w + ctz32(x);
          x &= x - 1;
          if ((this.avail[y * words + at] & bit) === 0) continue;
          const score = this.rowCount[y] + this.sumCount[y + column] + this.diffCount[y - column + n - 1];
          this.candidates[base + count++] = key(score, y, this.restarts);
        }
      }
    } else {
      this.kind[d] = BY_ROW;
      this.index[d] = best;
      const row = best * words;
      for (let w = 0; w < words; w++) {
        let x = this.avail[row + w];
        while (x !== 0) {
          const p = 32 * w + ctz32(x);
          x &= x - 1;
          const score = this.colCount[p] + this.sumCount[best + p] + this.diffCount[best - p + n - 1];
          this.candidates[base + count++] = key(score, p, this.restarts);
        }
      }
    }
    sortKeys(this.candidates, base, count);
    this.start[d + 1] = base + count;
  }

  /** Solve mode's restart: every queen taken off, the root branched again with new ties, the next cutoff 1.5 times further. */
  private restart(): void {
    while (this.depth >= 0) {
      if (this.placedRow[this.depth] >= 0) this.undo(this.depth);
      this.depth--;
    }
    this.restarts++;
    this.branch(0);
    if (this.rotate) {
      // As the kernel: the k-th restart of a cycle dives first into the root's k-th best branch.
      const base = this.start[0], count = this.start[1] - base, cycle = Math.min(count, ROTATION_MAX);
      if (++this.turn >= cycle) this.turn = 0;
      if (this.turn === 0) this.runNodes *= 1.5;
      // A share of the restarts: others' restarts counted (the root built again with their ties, the cycle moved on) until this one's.
      if (this.shareOf > 1 && this.restarts % this.shareOf !== this.shareTurn) {
        this.restart();
        return;
      }
      if (this.turn !== 0) rotateLeft(this.candidates, base, count, this.turn);
    } else {
      this.runNodes *= 1.5;
    }
    this.cutoff = this.nodes + this.runNodes;
    this.depth = 0;
  }

  /** Places candidate `at` of level d: the level's row (or column) and the square its key names on it; place()'s result. */
  protected placeCandidate(d: number, at: number): number {
    const pick = this.candidates[at] % 1048576;
    const byRow = this.kind[d] === BY_ROW;
    const r = byRow ? this.index[d] : pick, c = byRow ? pick : this.index[d];
    this.cols[r] = c;
    return this.place(d, r, c);
  }

  private place(d: number, r: number, c: number): number {
    const words = this.words, n = this.n;
    this.placedRow[d] = r;
    this.placedCol[d] = c;
    this.mark[d] = this.trailTop;
    this.rowsLeft[r >>> 5] &= ~(1 << (r & 31));
    this.colsFree[c >>> 5] &= ~(1 << (c & 31));
    this.left--;
    let ok = true;
    const own = r * words;
    for (let w = 0; w < words; w++) {
      let x = this.avail[own + w];
      while (x !== 0) {
        const p = 32 * w + ctz32(x);
        x &= x - 1;
        this.lines(r, p, -1);
        if (--this.colCount[p] === 0 && p !== c) ok = false;
      }
    }
    if (!ok) return FAIL;
    if (this.left === 0) return SOLVED;
    for (let w = 0; w < words; w++) {
      let x = this.rowsLeft[w];
      while (x !== 0) {
        const y = 32 * w + ctz32(x);
        x &= x - 1;
        const dr = y - r;
        if (!this.take(y, c, c)) return FAIL;
        const up = c + dr;
        if (up >= 0 && up < n && !this.take(y, up, c)) return FAIL;
        const down = c - dr;
        if (down >= 0 && down < n && !this.take(y, down, c)) return FAIL;
      }
    }
    if (this.bounds && !this.boundsHold()) return FAIL;
    this.branch(d + 1);
    return OPEN;
  }

  protected undo(d: number): void {
    const words = this.words;
    const r = this.placedRow[d], c = this.placedCol[d], stop = this.mark[d];
    while (this.trailTop > stop) {
      const t = --this.trailTop;
      const y = this.trailRow[t], p = this.trailCol[t];
      this.avail[y * words + (p >>> 5)] |= 1 << (p & 31);
      this.rowCount[y]++;
      this.colCount[p]++;
      this.lines(y, p, 1);
    }
    const own = r * words;
    for (let w = 0; w < words; w++) {
      let x = this.avail[own + w];
      while (x !== 0) {
        const p = 32 * w + ctz32(x);
        x &= x - 1;
        this.colCount[p]++;
        this.lines(r, p, 1);
      }
    }
    this.rowsLeft[r >>> 5] |= 1 << (r & 31);
    this.colsFree[c >>> 5] |= 1 << (c & 31);
    this.left++;
    this.placedRow[d] = -1;
  }

  run(workLimit: number): SearchStatus {
    for (;;) {
      if (this.found) return FOUND;
      const d = this.depth;
      if (d < 0) return EXHAUSTED;
      if (this.nodes >= this.maxNodes) return MAX_NODES;
      if (this.nodes >= workLimit) return RUNNING;
      if (this.nodes >= this.cutoff) {
        this.restart();
        continue;
      }
      if (this.placedRow[d] >= 0) this.undo(d);
      const tried = this.next[d], at = this.start[d] + tried;
      if (at === this.start[d + 1]) {
        this.depth--;
        continue;
      }
      this.next[d] = tried + 1;
      this.nodes++;
      const result = this.placeCandidate(d, at);
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

/** A share of the rotating restarts (solve on threads): turn `turn` (0 <= turn < of) of `of` searches, each taking the restarts numbered `turn` modulo `of`. */
export type RestartsShare = { turn: number; of: number };
