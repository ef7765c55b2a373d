// Twin of assembly/complete-state.ts: the 64-bit complete search's state (n <= 64) and build,
// the step that writes it (a level from its parent). CompleteSearch (complete.ts) is this
// state with its walk; complete-lookahead.ts works on it and complete-portfolio.ts runs the
// search it is, and neither imports complete.ts. A 64-bit mask is two int32 halves (lo:
// columns 0..31, hi: 32..63), so both engines walk the same tree. See the kernel for the algorithm.
import type { Constraints } from "../../board/constraints.js";
import { boundsPay, diagonalsFeasible, diagonalsForbidden } from "./diagonal-bounds.js";
import { colourForbidden, colourMandatory } from "./colour-bounds.js";

/** What build makes of a level (as the kernel). */
export const FAIL = 0, OPEN = 1, SOLVED = 2;
/**
 * What a level branches on: a row's squares, a column's takers, or the open squares of a
 * diagonal every completion needs (solve's filtering: colourMandatory), by their rows: sum
 * diagonal r + c = index, difference diagonal c - r + n - 1 = index.
 */
export const BY_ROW = 0, BY_COLUMN = 1, BY_SUM = 2, BY_DIFF = 3;

/** The row of branch v of a level that branches on (kind, index), on a board of size n. */
export function rowOf(kind: number, index: number, v: number): number {
  return kind === BY_ROW ? index : v;
}

/** The column of branch v of a level that branches on (kind, index), on a board of size n. */
export function columnOf(n: number, kind: number, index: number, v: number): number {
  return kind === BY_ROW ? v : kind === BY_COLUMN ? index : kind === BY_SUM ? index - v : index - (n - 1) + v;
}

export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** The j-th set bit (0: the lowest) of the 64-bit mask (lo, hi), for 0 <= j < its popcount: a level's j-th branch, lowest first. */
export function nthBit(lo: number, hi: number, j: number): number {
  const low = popcount32(lo);
  let x = j < low ? lo : hi;
  for (let i = j < low ? j : j - low; i > 0; i--) x &= x - 1;
  return ctz32(x) + (j < low ? 0 : 32);
}

/** words |= the 64-bit mask (lo, hi) shifted left by `shift` (0..63), words of 32 bits. */
export function orShifted(words: Int32Array, lo: number, hi: number, shift: number): void {
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
export function wordFrom(words: Int32Array, at: number): number {
  const w = at >>> 5, b = at & 31;
  return b === 0 ? words[w] : (words[w] >>> b) | (words[w + 1] << (32 - b));
}

/** One 32-bit half of the free columns exactly k rows can take (1 <= k <= 7), from build's bit planes (as the kernel's takenBy). */
export function takenBy(k: number, b0: number, b1: number, b2: number, exact: number): number {
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

/** The 64-bit search's levels and figures, shared by solve (mode 0), enumeration (1) and counting (2). */
export class CompleteState {
  readonly n: number;
  nodes = 1; // the empty board
  solutions = 0; // exact below 2^53 (a count that large takes centuries here)
  readonly cols: Int32Array;
  readonly availLo: Int32Array;
  readonly availHi: Int32Array;
  readonly rowsLo: Int32Array;
  readonly rowsHi: Int32Array;
  readonly freeLo: Int32Array;
  readonly freeHi: Int32Array;
  readonly kind: Int32Array;
  readonly index: Int32Array;
  readonly restLo: Int32Array;
  readonly restHi: Int32Array;

  // The usable diagonals at a node (sum r + c, difference c - r + n - 1), 127 bits each.
  private readonly sums = new Int32Array(4);
  private readonly diffs = new Int32Array(4);
  private readonly cutSums = new Int32Array(4);
  private readonly cutDiffs = new Int32Array(4);
  /** Filtering (diagonalsForbidden, and colourForbidden with the per-colour bounds): solve mode only, as the kernel. */
  readonly filtering: boolean;
  /** The diagonal bounds, only where they pay (boundsPay at the root, as the kernel). */
  readonly bounds: boolean;
  /** build's bit planes of the column takers at its last open node (b0, b1, b2 and the exact columns, lo/hi), for lookAhead. */
  readonly planes = new Int32Array(8);
  /** The diagonals every completion needs at build's last open node (colourMandatory; none without filtering), sums and differences, for lookAhead. */
  readonly neededSums = new Int32Array(4);
  readonly neededDiffs = new Int32Array(4);
  /** build's open squares of the rows left at its last node (0x7fffffff when solved), survivors' scores per branch, lookAhead's best's, and the order of each level's branches (as the kernel). */
  builtOpen = 0;
  /** survivors' open squares of the rows left, summed over the branches that build (as the kernel). */
  survivorsOpen = 0;
  readonly scores = new Int32Array(64);
  readonly bestScores = new Int32Array(64);
  readonly order: Int32Array;
  /** The next of level d's ordered branches to try (-1: no order, lowest first). */
  readonly orderPos: Int32Array;

  /** With filtering and the per-colour bounds: the diagonals every completion needs as lines to branch on (colourMandatory), as the kernel; held back in the portfolio until the lookahead starts (holdNeeded). */
  neededLines: boolean;
  /** neededLines as asked for. */
  private readonly neededAsked: boolean;

  /** As the kernel's stateInit: `bounds`, the diagonal bounds (diagonal-bounds.ts) where they pay; `colourBounds`, with their per-colour form (colour-bounds.ts); `solveMode`, filtering with them; `needed` (with both), the needed diagonals as lines. */
  constructor(n: number, constraints: Constraints | undefined, solveMode: boolean, bounds: boolean, readonly colourBounds: boolean, needed = true) {
    this.n = n;
    const levels = 2 * (n + 1); // the search's levels 0..n, then as many for complete-estimate.ts's probes (as the kernel)
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
    this.filtering = this.bounds && solveMode;
    this.neededAsked = this.filtering && colourBounds && needed;
    this.neededLines = this.neededAsked;
  }

  /** As the kernel's holdNeeded: the needed diagonals as lines held back (true) or started again (false). */
  holdNeeded(hold: boolean): void {
    this.neededLines = this.neededAsked && !hold;
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

  /** The rows of (rowsLo, rowsHi) that can take column cc at the level whose masks start at `to`, as two halves (as the kernel's takersOf). */
  takersOf(to: number, rowsLo: number, rowsHi: number, cc: number): [number, number] {
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

  build(src: number, dst: number, r: number, c: number): number {
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
    this.kind[dst] = BY_ROW;
    this.index[dst] = best;
    this.restLo[dst] = availLo[to + best];
    this.restHi[dst] = availHi[to + best];
    for (let k = 1; k < bestCount && k < 8; k++) {
      const hitsLo = takenBy(k, b0Lo, b1Lo, b2Lo, exactLo), hitsHi = takenBy(k, b0Hi, b1Hi, b2Hi, exactHi);
      if (hitsLo === 0 && hitsHi === 0) continue;
      const cc = hitsLo !== 0 ? ctz32(hitsLo) : 32 + ctz32(hitsHi);
      this.kind[dst] = BY_COLUMN;
      this.index[dst] = cc;
      [this.restLo[dst], this.restHi[dst]] = this.takersOf(to, rowsLo, rowsHi, cc);
      bestCount = k;
      break;
    }
    // A needed diagonal with fewer squares still (at most 7), the fewest; ties: sums first, lowest
    // first (none looked for where the line chosen has one square, as the kernel).
    if (this.neededLines && bestCount > 1 && colourMandatory(n, this.sums, this.diffs, this.neededSums, this.neededDiffs) > 0) {
      for (let family = 0; family < 2; family++) {
        const set = family === 0 ? this.neededSums : this.neededDiffs;
        for (let w = 0; w < 4; w++) {
          for (let x = set[w]; x !== 0; x &= x - 1) {
            const k = 32 * w + ctz32(x);
            const kind = family === 0 ? BY_SUM : BY_DIFF;
            const [lo, hi] = this.diagonalRows(dst, kind, k);
            const count = popcount32(lo) + popcount32(hi);
            if (count >= bestCount || count >= 8) continue;
            bestCount = count;
            this.kind[dst] = kind;
            this.index[dst] = k;
            this.restLo[dst] = lo;
            this.restHi[dst] = hi;
          }
        }
      }
    } else {
      this.neededSums.fill(0);
      this.neededDiffs.fill(0);
    }
    return OPEN;
  }

  /** The rows left at level dst whose square on diagonal k (kind BY_SUM or BY_DIFF) is open, as two halves. */
  diagonalRows(dst: number, kind: number, k: number): [number, number] {
    const n = this.n, to = dst * n;
    let lo = 0, hi = 0;
    for (let half = 0; half < 2; half++) {
      for (let x = half === 0 ? this.rowsLo[dst] : this.rowsHi[dst]; x !== 0; x &= x - 1) {
        const y = ctz32(x) + 32 * half;
        const c = columnOf(n, kind, k, y);
        if (c < 0 || c >= n || ((c < 32 ? this.availLo[to + y] >>> c : this.availHi[to + y] >>> (c - 32)) & 1) === 0) continue;
        if (y < 32) lo |= 1 << y;
        else hi |= 1 << (y - 32);
      }
    }
    return [lo, hi];
  }
}
