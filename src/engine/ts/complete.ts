// Twin of assembly/complete.ts: the complete search for constrained boards (n <= 64 here;
// larger boards, or param bit COMPLETE_WIDE, take the wide path of complete-wide.ts).
// A 64-bit mask is two int32 halves (lo: columns 0..31, hi: 32..63), so both engines
// walk the same tree: same nodes, same solution. See the kernel for the algorithm.
import type { Constraints } from "../../board/constraints.js";
import { WideSearch } from "./complete-wide.js";
import { boundsPay, diagonalsFeasible, diagonalsForbidden } from "./diagonal-bounds.js";
import { colourForbidden } from "./colour-bounds.js";
import { EXHAUSTED, FOUND, MAX_NODES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";

const FAIL = 0, OPEN = 1, SOLVED = 2;
const BY_ROW = 0, BY_COLUMN = 1;

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** words |= the 64-bit mask (lo, hi) shifted left by `shift` (0..63), words of 32 bits. */
function orShifted(words: Int32Array, lo: number, hi: number, shift: number): void {
  const w = shift >>> 5, b = shift & 31;
  if (b === 0) {
    words[w] |= lo;
    words[w + 1] |= hi;
  } else {
    words[w] |= lo << b;
    words[w + 1] |= (lo >>> (32 - b)) | (hi << b);
    words[w + 2] |= hi >>> (32 - b);
  }
}

/** The 32-bit word of the 128-bit `words` from bit `at` (0..95). */
function wordFrom(words: Int32Array, at: number): number {
  const w = at >>> 5, b = at & 31;
  return b === 0 ? words[w] : (words[w] >>> b) | (words[w + 1] << (32 - b));
}

/** One 32-bit half of the free columns exactly k rows can take (1 <= k <= 7), from build's bit planes (as the kernel's takenBy). */
function takenBy(k: number, b0: number, b1: number, b2: number, exact: number): number {
  return exact & (k & 1 ? b0 : ~b0) & (k & 2 ? b1 : ~b1) & (k & 4 ? b2 : ~b2);
}

/** Row r's allowed columns as two halves [lo, hi] (as assembly/constraints.ts allowedMask). */
export function allowedHalves(n: number, constraints: Constraints | undefined, r: number): [number, number] {
  let lo = n >= 32 ? -1 : (1 << n) - 1;
  let hi = n >= 64 ? -1 : n > 32 ? (1 << (n - 32)) - 1 : 0;
  if (constraints === undefined || constraints.empty) return [lo, hi];
  const f = constraints.fixedColumn[r];
  if (f >= 0) return f < 32 ? [1 << f, 0] : [0, 1 << (f - 32)];
  for (let i = constraints.blockedStart[r]; i < constraints.blockedStart[r + 1]; i++) {
    const c = constraints.blockedCols[i];
    if (c < 32) lo &= ~(1 << c);
    else hi &= ~(1 << (c - 32));
  }
  return [lo, hi];
}

/** The complete search's state, shared by solve (mode 0), enumeration (1) and counting (2). */
export class CompleteSearch {
  readonly n: number;
  nodes = 1; // the empty board
  solutions = 0; // exact below 2^53 (a count that large takes centuries here)
  depth = 0;
  found = false;
  readonly cols: Int32Array;
  private readonly availLo: Int32Array;
  private readonly availHi: Int32Array;
  private readonly rowsLo: Int32Array;
  private readonly rowsHi: Int32Array;
  private readonly freeLo: Int32Array;
  private readonly freeHi: Int32Array;
  private readonly kind: Int32Array;
  private readonly index: Int32Array;
  private readonly restLo: Int32Array;
  private readonly restHi: Int32Array;

  // The usable diagonals at a node (sum r + c, difference c - r + n - 1), 127 bits each.
  private readonly sums = new Int32Array(4);
  private readonly diffs = new Int32Array(4);
  private readonly cutSums = new Int32Array(4);
  private readonly cutDiffs = new Int32Array(4);
  /** Filtering (diagonalsForbidden, and colourForbidden with the per-colour bounds): solve mode only, as the kernel. */
  private readonly filtering: boolean;
  /** The diagonal bounds, only where they pay (boundsPay at the root, as the kernel). */
  readonly bounds: boolean;
  /** The deepest level with solve's lookahead (lookAhead; -1: none), where filtering is on (as the kernel). */
  private lookaheadDepth: number;
  private readonly lookaheadRows: number;
  /** The lookahead's reach, for startLookahead when it was deferred (the portfolio's). */
  private readonly lookaheadReach: number;
  /** build's bit planes of the column takers at its last open node (b0, b1, b2 and the exact columns, lo/hi), for lookAhead. */
  private readonly planes = new Int32Array(8);
  /** build's open squares of the rows left at its last node (0x7fffffff when solved), survivors' scores per branch, lookAhead's best's, and the order of each level's branches (as the kernel). */
  private builtOpen = 0;
  /** survivors' open squares of the rows left, summed over the branches that build (as the kernel). */
  private survivorsOpen = 0;
  private readonly scores = new Int32Array(64);
  private readonly bestScores = new Int32Array(64);
  private readonly order: Int32Array;
  /** The next of level d's ordered branches to try (-1: no order, lowest first). */
  private readonly orderPos: Int32Array;

  /** `bounds`: the diagonal bounds (diagonal-bounds.ts) at every node; `colourBounds`: with their per-colour form (colour-bounds.ts). */
  constructor(n: number, constraints: Constraints | undefined, readonly mode: number, readonly maxNodes: number, bounds = true, readonly colourBounds = true, lookahead: boolean | "always" = true, deferLookahead = false) {
    this.n = n;
    const levels = n + 1;
    this.availLo = new Int32Array(levels * n);
    this.availHi = new Int32Array(levels * n);
    this.rowsLo = new Int32Array(levels);
    this.rowsHi = new Int32Array(levels);
    this.freeLo = new Int32Array(levels);
    this.freeHi = new Int32Array(levels);
    this.kind = new Int32Array(levels);
    this.index = new Int32Array(levels);
    this.restLo = new Int32Array(levels);
    this.restHi = new Int32Array(levels);
    this.cols = new Int32Array(n).fill(-1);
    this.order = new Int32Array(levels * 64);
    this.orderPos = new Int32Array(levels).fill(-1);
    for (let r = 0; r < n; r++) [this.availLo[r], this.availHi[r]] = allowedHalves(n, constraints, r);
    [this.rowsLo[0], this.rowsHi[0]] = allowedHalves(n, undefined, 0);
    this.freeLo[0] = this.rowsLo[0];
    this.freeHi[0] = this.rowsHi[0];
    this.bounds = bounds && this.rootPays();
    this.filtering = this.bounds && mode === 0;
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
    this.depth = this.expand(0, 0, -1, -1) === OPEN ? 0 : -1;
  }

  /** boundsPay on the root's allowed squares (as the kernel's rootPays). */
  private rootPays(): boolean {
    const n = this.n, sums = this.sums, diffs = this.diffs;
    for (let y = 0; y < n; y++) {
      orShifted(sums, this.availLo[y], this.availHi[y], y);
      orShifted(diffs, this.availLo[y], this.availHi[y], n - 1 - y);
    }
    return boundsPay(n, sums, diffs);
  }

  /** As the kernel's narrowWithLookahead: start again from the root with the deferred lookahead; false when the root fails. */
  startLookahead(): boolean {
    if (this.lookaheadReach < 0 || this.lookaheadDepth >= 0) return true; // none to start
    this.lookaheadDepth = this.lookaheadReach;
    this.depth = this.expand(0, 0, -1, -1) === OPEN ? 0 : -1;
    return this.depth === 0;
  }

  /** Level dst from level src with a queen at (r, c) (r < 0: none); then the branch of dst, with solve's lookahead where it is on. */
  private expand(src: number, dst: number, r: number, c: number): number {
    const result = this.build(src, dst, r, c);
    this.orderPos[dst] = -1;
    return result === OPEN && dst <= this.lookaheadDepth && popcount32(this.rowsLo[dst]) + popcount32(this.rowsHi[dst]) >= this.lookaheadRows ? this.lookAhead(dst) : result;
  }

  /** The branches of (row or column `at`) among the 64-bit `values` whose level builds; each build is a node (as the kernel's survivors). */
  private survivors(dst: number, byRow: boolean, at: number, valuesLo: number, valuesHi: number): [number, number] {
    let aliveLo = 0, aliveHi = 0, open = 0;
    for (let half = 0; half < 2; half++) {
      for (let x = half === 0 ? valuesLo : valuesHi; x !== 0; x &= x - 1) {
        const v = ctz32(x) + 32 * half;
        this.nodes++;
        if ((byRow ? this.build(dst, dst + 1, at, v) : this.build(dst, dst + 1, v, at)) === FAIL) continue;
        this.scores[v] = this.builtOpen;
        open += this.builtOpen; // exact: at most 64 * (2^31 - 1)
        if (half === 0) aliveLo |= 1 << v;
        else aliveHi |= 1 << (v - 32);
      }
    }
    this.survivorsOpen = open;
    return [aliveLo, aliveHi];
  }

  /** As the kernel's lookAhead: dead squares go; branch on the row or column with the fewest branches left, among those near build's choice. */
  private lookAhead(dst: number): number {
    const n = this.n, to = dst * n, availLo = this.availLo, availHi = this.availHi;
    let rounds = 0;
    for (;;) {
      const rowsLo = this.rowsLo[dst], rowsHi = this.rowsHi[dst];
      const chosenKind = this.kind[dst], chosen = this.index[dst];
      const valuesLo = this.restLo[dst], valuesHi = this.restHi[dst];
      const [b0Lo, b0Hi, b1Lo, b1Hi, b2Lo, b2Hi, exactLo, exactHi] = this.planes; // before the builds below overwrite them
      const limit = popcount32(valuesLo) + popcount32(valuesHi) + LOOKAHEAD_SLACK;
      let bestKind = 0, bestIndex = 0, bestLo = 0, bestHi = 0, bestCount = 65, bestOpen = 0, pruned = false;
      const consider = (byRow: boolean, at: number, lo: number, hi: number): boolean => {
        const [aliveLo, aliveHi] = this.survivors(dst, byRow, at, lo, hi);
        if (aliveLo === 0 && aliveHi === 0) return false;
        if (aliveLo !== lo || aliveHi !== hi) {
          if (byRow) {
            availLo[to + at] = aliveLo;
            availHi[to + at] = aliveHi;
          } else {
            for (let half = 0; half < 2; half++) {
              for (let x = half === 0 ? lo & ~aliveLo : hi & ~aliveHi; x !== 0; x &= x - 1) {
                const y = ctz32(x) + 32 * half;
                if (at < 32) availLo[to + y] &= ~(1 << at);
                else availHi[to + y] &= ~(1 << (at - 32));
              }
            }
          }
          pruned = true;
        }
        const k = popcount32(aliveLo) + popcount32(aliveHi);
        if (k < bestCount || (k === bestCount && this.survivorsOpen < bestOpen)) { // as the kernel: ties to the fewest open squares left
          bestCount = k;
          bestOpen = this.survivorsOpen;
          bestKind = byRow ? BY_ROW : BY_COLUMN;
          bestIndex = at;
          bestLo = aliveLo;
          bestHi = aliveHi;
          this.bestScores.set(this.scores);
        }
        return true;
      };
      if (!consider(chosenKind === BY_ROW, chosen, valuesLo, valuesHi)) return FAIL;
      for (let half = 0; half < 2; half++) {
        for (let x = half === 0 ? rowsLo : rowsHi; x !== 0; x &= x - 1) {
          const y = ctz32(x) + 32 * half;
          if (chosenKind === BY_ROW && y === chosen) continue;
          const lo = availLo[to + y], hi = availHi[to + y];
          if (popcount32(lo) + popcount32(hi) <= limit && !consider(true, y, lo, hi)) return FAIL;
        }
      }
      // Free columns with at most `limit` takers: from build's bit planes up to 7, else every free
      // column's takers counted (as the kernel).
      let columnsLo = 0, columnsHi = 0;
      if (limit < 8) {
        for (let k = 1; k <= limit; k++) {
          columnsLo |= takenBy(k, b0Lo, b1Lo, b2Lo, exactLo);
          columnsHi |= takenBy(k, b0Hi, b1Hi, b2Hi, exactHi);
        }
      } else {
        columnsLo = this.freeLo[dst];
        columnsHi = this.freeHi[dst];
      }
      for (let half = 0; half < 2; half++) {
        for (let x = half === 0 ? columnsLo : columnsHi; x !== 0; x &= x - 1) {
          const cc = ctz32(x) + 32 * half;
          if (chosenKind === BY_COLUMN && cc === chosen) continue;
          const [takersLo, takersHi] = this.takersOf(to, rowsLo, rowsHi, cc);
          if ((takersLo !== 0 || takersHi !== 0) && popcount32(takersLo) + popcount32(takersHi) <= limit && !consider(false, cc, takersLo, takersHi)) return FAIL;
        }
      }
      if (!pruned) {
        this.kind[dst] = bestKind;
        this.index[dst] = bestIndex;
        this.restLo[dst] = bestLo;
        this.restHi[dst] = bestHi;
        this.orderBranches(dst, bestLo, bestHi);
        return OPEN;
      }
      const result = this.build(dst, dst, -1, -1);
      if (result !== OPEN) return result;
      if (++rounds === LOOKAHEAD_ROUNDS) return OPEN; // bounded work a node: build's choice (as the kernel)
    }
  }

  /** The rows of (rowsLo, rowsHi) that can take column cc at the level whose masks start at `to`, as two halves (as the kernel's takersOf). */
  private takersOf(to: number, rowsLo: number, rowsHi: number, cc: number): [number, number] {
    let takersLo = 0, takersHi = 0;
    for (let half = 0; half < 2; half++) {
      for (let x = half === 0 ? rowsLo : rowsHi; x !== 0; x &= x - 1) {
        const y = ctz32(x) + 32 * half;
        if ((cc < 32 ? (this.availLo[to + y] >>> cc) & 1 : (this.availHi[to + y] >>> (cc - 32)) & 1) === 0) continue;
        if (y < 32) takersLo |= 1 << y;
        else takersHi |= 1 << (y - 32);
      }
    }
    return [takersLo, takersHi];
  }

  /** As the kernel's orderBranches: lookAhead's branches, the most open squares left first, ties lowest first. */
  private orderBranches(dst: number, lo: number, hi: number): void {
    const values: number[] = [];
    for (let half = 0; half < 2; half++) for (let x = half === 0 ? lo : hi; x !== 0; x &= x - 1) values.push(ctz32(x) + 32 * half);
    values.sort((a, b) => this.bestScores[b] - this.bestScores[a] || a - b);
    this.order.set(values, dst * 64);
    this.orderPos[dst] = 0;
  }

  /** Level dst from level src with a queen at (r, c) (r < 0: none); then the branch of dst by the fewest squares. */
  private build(src: number, dst: number, r: number, c: number): number {
    const n = this.n;
    let rowsLo = this.rowsLo[src], rowsHi = this.rowsHi[src];
    let freeLo = this.freeLo[src], freeHi = this.freeHi[src];
    // The lines of the new queen, as a function of the row y: column c, c + (y - r), c - (y - r).
    if (r >= 0) {
      if (r < 32) rowsLo &= ~(1 << r);
      else rowsHi &= ~(1 << (r - 32));
      if (c < 32) freeLo &= ~(1 << c);
      else freeHi &= ~(1 << (c - 32));
    }
    this.rowsLo[dst] = rowsLo; this.rowsHi[dst] = rowsHi;
    this.freeLo[dst] = freeLo; this.freeHi[dst] = freeHi;
    if (rowsLo === 0 && rowsHi === 0) {
      this.builtOpen = 0x7fffffff;
      return SOLVED;
    }
    const availLo = this.availLo, availHi = this.availHi;
    const from = src * n, to = dst * n;
    // Per free column, how many rows can take it: bit planes b0 b1 b2 (0..7), sat: 8 or more.
    let b0Lo = 0, b0Hi = 0, b1Lo = 0, b1Hi = 0, b2Lo = 0, b2Hi = 0, satLo = 0, satHi = 0;
    let best = -1, bestCount = 65, open = 0;
    const bounds = this.bounds, sums = this.sums, diffs = this.diffs;
    let evenRows = 0, rowSum = 0, moments = 0;
    if (bounds) {
      sums.fill(0);
      diffs.fill(0);
    }
    for (let half = 0; half < 2; half++) {
      let x = half === 0 ? rowsLo : rowsHi;
      while (x !== 0) {
        const y = ctz32(x) + 32 * half;
        x &= x - 1;
        let lo = availLo[from + y], hi = availHi[from + y];
        if (r >= 0) {
          const dr = y - r;
          if (c < 32) lo &= ~(1 << c);
          else hi &= ~(1 << (c - 32));
          let p = c + dr;
          if (p >= 0 && p < n) {
            if (p < 32) lo &= ~(1 << p);
            else hi &= ~(1 << (p - 32));
          }
          p = c - dr;
          if (p >= 0 && p < n) {
            if (p < 32) lo &= ~(1 << p);
            else hi &= ~(1 << (p - 32));
          }
        }
        availLo[to + y] = lo; availHi[to + y] = hi;
        if (lo === 0 && hi === 0) return FAIL;
        if (bounds) {
          orShifted(sums, lo, hi, y);
          orShifted(diffs, lo, hi, n - 1 - y);
          evenRows += (y & 1) ^ 1;
          rowSum += y;
          moments += (2 * y - n + 1) ** 2;
        }
        let c0 = b0Lo & lo, c1: number;
        b0Lo ^= lo; c1 = b1Lo & c0; b1Lo ^= c0; satLo |= b2Lo & c1; b2Lo ^= c1;
        c0 = b0Hi & hi;
        b0Hi ^= hi; c1 = b1Hi & c0; b1Hi ^= c0; satHi |= b2Hi & c1; b2Hi ^= c1;
        const k = popcount32(lo) + popcount32(hi);
        open += k;
        if (k < bestCount) {
          bestCount = k;
          best = y;
        }
      }
    }
    // a free column no row can take
    if ((freeLo & ~(b0Lo | b1Lo | b2Lo | satLo)) !== 0 || (freeHi & ~(b0Hi | b1Hi | b2Hi | satHi)) !== 0) return FAIL;
    if (bounds) {
      let evenCols = 0, colSum = 0;
      for (let half = 0; half < 2; half++) {
        for (let x = half === 0 ? freeLo : freeHi; x !== 0; x &= x - 1) {
          const p = ctz32(x) + 32 * half;
          evenCols += (p & 1) ^ 1;
          colSum += p;
          moments += (2 * p - n + 1) ** 2;
        }
      }
      const left = popcount32(rowsLo) + popcount32(rowsHi);
      const sumTarget = rowSum + colSum, diffTarget = colSum - rowSum + left * (n - 1);
      if (!diagonalsFeasible(n, left, sums, diffs, evenRows, evenCols, sumTarget, diffTarget, moments, this.colourBounds)) return FAIL;
      const cutSums = this.cutSums, cutDiffs = this.cutDiffs;
      // The per-colour filtering takes away every diagonal the filtering over both colours would (and more).
      if (this.filtering && (this.colourBounds ? colourForbidden(n, sums, diffs, cutSums, cutDiffs)
        : diagonalsForbidden(n, sums, diffs, sumTarget, diffTarget, moments, cutSums, cutDiffs)) > 0) {
        // Take the squares of the unusable diagonals away, then this level again (in place).
        for (let half = 0; half < 2; half++) {
          for (let x = half === 0 ? rowsLo : rowsHi; x !== 0; x &= x - 1) {
            const y = ctz32(x) + 32 * half;
            availLo[to + y] &= ~(wordFrom(cutSums, y) | wordFrom(cutDiffs, n - 1 - y));
            availHi[to + y] &= ~(wordFrom(cutSums, y + 32) | wordFrom(cutDiffs, n - 1 - y + 32));
          }
        }
        return this.build(dst, dst, -1, -1);
      }
    }
    const exactLo = freeLo & ~satLo, exactHi = freeHi & ~satHi;
    const planes = this.planes;
    planes[0] = b0Lo; planes[1] = b0Hi; planes[2] = b1Lo; planes[3] = b1Hi;
    planes[4] = b2Lo; planes[5] = b2Hi; planes[6] = exactLo; planes[7] = exactHi;
    this.builtOpen = open;
    for (let k = 1; k < bestCount && k < 8; k++) {
      const hitsLo = takenBy(k, b0Lo, b1Lo, b2Lo, exactLo), hitsHi = takenBy(k, b0Hi, b1Hi, b2Hi, exactHi);
      if (hitsLo === 0 && hitsHi === 0) continue;
      const cc = hitsLo !== 0 ? ctz32(hitsLo) : 32 + ctz32(hitsHi);
      this.kind[dst] = BY_COLUMN;
      this.index[dst] = cc;
      [this.restLo[dst], this.restHi[dst]] = this.takersOf(to, rowsLo, rowsHi, cc);
      return OPEN;
    }
    this.kind[dst] = BY_ROW;
    this.index[dst] = best;
    this.restLo[dst] = availLo[to + best];
    this.restHi[dst] = availHi[to + best];
    return OPEN;
  }

  /**
   * The root's branch before the search has gone down (after the lookahead where it runs): the
   * row or column, and its squares' other coordinate in the order they are tried; null when the
   * root failed or is solved.
   */
  rootBranch(): { byRow: boolean; index: number; values: number[] } | null {
    if (this.depth !== 0) return null;
    const lo = this.restLo[0], hi = this.restHi[0];
    const count = popcount32(lo) + popcount32(hi);
    const values: number[] = [];
    if (this.orderPos[0] >= 0) for (let i = 0; i < count; i++) values.push(this.order[this.orderPos[0] + i]);
    else for (let v = 0; v < 64; v++) if ((v < 32 ? (lo >>> v) & 1 : (hi >>> (v - 32)) & 1) !== 0) values.push(v);
    return { byRow: this.kind[0] === BY_ROW, index: this.index[0], values };
  }

  /**
   * One of Knuth's random probes of this search's tree (for an estimate of its nodes, not a
   * count): from the root, one branch drawn at random (`random` in [0, 1)) at each level, by
   * the search's own choice of row or column; returns 1 + d1 + d1*d2 + ..., dk the branches
   * met at level k, whose mean over probes is the tree's node count. Only levels below the
   * root are written, so probes may follow one another; the search is not run after them.
   */
  probe(random: () => number): number {
    if (this.depth < 0) return 1;
    let estimate = 1, product = 1;
    for (let d = 0; ; d++) {
      const lo = this.restLo[d], hi = this.restHi[d];
      const k = popcount32(lo) + popcount32(hi);
      if (k === 0) return estimate;
      product *= k;
      estimate += product;
      let j = Math.min(k - 1, Math.floor(random() * k));
      let x = lo, b = -1;
      for (let half = 0; half < 2 && b < 0; half++, x = hi) {
        for (; x !== 0; x &= x - 1) if (j-- === 0) { b = ctz32(x) + 32 * half; break; }
      }
      const byRow = this.kind[d] === BY_ROW;
      const r = byRow ? this.index[d] : b, c = byRow ? b : this.index[d];
      if (this.expand(d, d + 1, r, c) !== OPEN) return estimate;
    }
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
      let r: number, c: number;
      if (this.kind[d] === BY_ROW) {
        r = this.index[d];
        c = b;
      } else {
        c = this.index[d];
        r = b;
      }
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
/** lookAhead's candidates: rows and columns with at most this many squares more than build's choice (as the kernel). */
const LOOKAHEAD_SLACK = 2;
/** lookAhead runs on the nodes with at least LOOKAHEAD_ROWS rows left, down to LOOKAHEAD_LEVELS levels below the given queens (as the kernel). */
const LOOKAHEAD_LEVELS = 8, LOOKAHEAD_ROWS = 22, LOOKAHEAD_ROUNDS = 8;
/** Largest n of the 64-bit path; past it the wide path runs. */
export const NARROW_MAX_N = 64;
const PORTFOLIO_START = 262144, NARROW_SLICE = 65536, WIDE_SLICE = 65536, SHARES_HALVE = 4194304;

/** Solve mode's portfolio at n <= 64 (as assembly/complete.ts): the 64-bit search, then slices of it taking turns with the wide path's restarting search. */
class Portfolio {
  private wide: WideSearch | null = null;
  private turn = 0;
  private turnEnd: number;
  private settled: SearchStatus | null = null;
  private wideFound = false;
  /** 1, or 1/64 with COMPLETE_PORTFOLIO_SMALL (as the kernel). */
  private readonly scale: number;
  constructor(private readonly narrow: CompleteSearch, private readonly constraints: Constraints | undefined, private readonly cap: number, private readonly bounds: boolean, private readonly colourBounds: boolean, small: boolean) {
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
        const sum = this.nodes;
        const halve = SHARES_HALVE * this.scale, slice = NARROW_SLICE * this.scale;
        this.turnEnd = sum + (sum > halve ? Math.floor(slice * sum / halve) : slice);
      }
    }
  }
}

export function openComplete(n: number, params: SearchParams): Search {
  const mode = params.param & 3;
  const wide = n > NARROW_MAX_N || (params.param & COMPLETE_WIDE) !== 0;
  const bounds = (params.param & COMPLETE_NO_BOUNDS) === 0;
  const colourBounds = (params.param & COMPLETE_NO_COLOUR_BOUNDS) === 0;
  // Solve's portfolio only where the diagonal bounds pay (boundsPay), as the kernel; elsewhere the 64-bit search alone.
  const lookahead = (params.param & COMPLETE_LOOKAHEAD_ALWAYS) !== 0 ? "always" : (params.param & COMPLETE_NO_LOOKAHEAD) === 0;
  // The portfolio's 64-bit search takes the lookahead only once its first PORTFOLIO_START nodes have not decided the board (as the kernel).
  const narrow = wide ? null : new CompleteSearch(n, params.constraints, mode, Infinity, bounds, colourBounds, lookahead, true);
  const portfolio = narrow !== null && narrow.bounds && mode === 0 && (params.param & COMPLETE_PLAIN) === 0;
  const search = wide
    ? new WideSearch(n, params.constraints, mode, params.maxNodes, (params.param & COMPLETE_RESTART_OFTEN) !== 0 ? 1 : undefined, bounds, colourBounds, (params.param & COMPLETE_ROTATE) !== 0)
    : portfolio
      ? new Portfolio(narrow!, params.constraints, params.maxNodes, bounds, colourBounds, (params.param & COMPLETE_PORTFOLIO_SMALL) !== 0)
      : new CompleteSearch(n, params.constraints, mode, params.maxNodes, bounds, colourBounds, lookahead);
  return {
    run: (workLimit) => search.run(workLimit),
    work: () => search.nodes,
    stats: () => ({ nodes: search.nodes, tries: 1, steps: 0 }),
    state: () => ({ phase: "search", conflicts: -1 }),
    columns: () => search.cols.slice(),
    solutions: () => BigInt(search.solutions),
    close() {},
  };
}
