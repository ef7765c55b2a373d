// Upper bounds on how many solutions a board can hold, from its free squares alone (cheap
// enough to check every result that crossed a thread, a file or a queue before it is summed).
//
// A solution puts one queen in each open row, in distinct columns, on free squares: it is a
// perfect matching of the 0/1 matrix "row r may take column c", so there are at most its
// permanent. Bregman's theorem (the Minc conjecture, 1973) bounds the permanent of a square 0/1
// matrix whose rows hold r_1, ..., r_m ones by the product of (r_i!)^(1/r_i); each factor is at
// most r_i, so this is never above the plain product of the free squares, and often far below
// (a 10 x 10 board with one blocked square: 9 * 10^9 by the product, 3.3 * 10^6 by Bregman,
// below 10! = 3,628,800; one of its 8 parts, a queen in row 0: about 1.5 * 10^5). Computed
// in floating point and rounded up with a margin far above its error. constrainedCapacity
// applies it, with the product of free squares and a bound on the nodes, to a constrained part.

import type { Square } from "../board/constraints.js";

/** What constrainedCapacity reads of a constrained part (src/count/constrained-parts.ts's ConstrainedPart). */
export type PartBoard = { n: number; fixed: readonly Square[]; blocked: readonly Square[]; prefixes: readonly (readonly Square[])[] };

/** ln((r!)^(1/r)) for r = 0 .. 1000, the widest board (0 for r = 0: such a row makes the bound 0 anyway). */
const LOG_FACTOR: number[] = (() => {
  const table = [0];
  let logFactorial = 0;
  for (let r = 1; r <= 1000; r++) {
    logFactorial += Math.log(r);
    table.push(logFactorial / r);
  }
  return table;
})();

/**
 * Running Bregman bound of one square board, row by row: `row(k)` for each open row with k free
 * squares (k from 0 to 1000), then `bound()`. Any row with no free square makes it 0.
 */
export class BregmanBound {
  private log = 0;
  private empty = false;

  row(free: number): void {
    if (free === 0) this.empty = true;
    else this.log += LOG_FACTOR[free];
  }

  /** The bound as a float (0 when a row has no free square), before rounding up. */
  value(): number {
    return this.empty ? 0 : Math.exp(this.log);
  }
}

/**
 * A sum of Bregman values (BregmanBound.value) rounded up to a BigInt that is certainly at
 * least the exact sum of the permanents: a relative margin of 10^-9 (the float error of up to
 * 2^17 terms is below 10^-11) and one more.
 */
export function roundUpBound(sum: number): bigint {
  if (sum === 0) return 0n;
  if (!Number.isFinite(sum)) return BigInt(Number.MAX_SAFE_INTEGER) ** 8n; // beyond any count (no board of n <= 64 gets here)
  return BigInt(Math.ceil(sum * (1 + 1e-9))) + 1n;
}

/**
 * What a constrained part can hold, from its board alone. Solutions: each prefix's board (the
 * givens and the prefix's queens) has at most the product, over its open rows, of the free
 * squares of that row (not blocked, not attacked by a given or prefix queen: a solution holds
 * them all and puts one queen in each open row), and at most Bregman's bound on the perfect
 * matchings of those squares (a solution's queens take distinct columns too). Nodes: the
 * complete search places every queen, given ones included, in any order, one node per
 * consistent placement of queens in distinct rows on squares the row allows (its given square,
 * or any square not blocked), the empty board included: at most the product over all rows of
 * (1 + the squares the row allows). Summed over the part's prefixes; exact BigInts; cached per part.
 */
type ConstrainedCapacity = { total: bigint; nodes: bigint };
const constrainedCapacities = new WeakMap<PartBoard, ConstrainedCapacity>();

/** The rows of a board before any prefix: free squares (after blocks and the given queens' attacks), their counts, what each row allows. */
type BoardRows = { given: Uint8Array; free: Uint8Array[]; freeCount: Int32Array; allowed: Int32Array };
/** Keyed by the part's `fixed` list: the parts of one split share it (dealConstrained), so a split's board is read once. */
const boardRows = new WeakMap<readonly Square[], { blocked: readonly Square[]; rows: BoardRows }>();

function rowsOf(part: PartBoard): BoardRows {
  const known = boardRows.get(part.fixed);
  if (known && known.blocked === part.blocked) return known.rows;
  const { n } = part;
  const given = new Uint8Array(n);
  for (const [r] of part.fixed) given[r] = 1;
  const free: Uint8Array[] = [];
  for (let r = 0; r < n; r++) free.push(new Uint8Array(n).fill(given[r] ? 0 : 1));
  const allowed = new Int32Array(n);
  for (const [r, c] of part.blocked) if (!given[r] && free[r][c]) { free[r][c] = 0; allowed[r]--; }
  for (let r = 0; r < n; r++) allowed[r] += given[r] ? 1 : n;
  for (const [qr, qc] of part.fixed) {
    for (let r = 0; r < n; r++) {
      const d = Math.abs(r - qr);
      free[r][qc] = 0;
      if (qc - d >= 0) free[r][qc - d] = 0;
      if (qc + d < n) free[r][qc + d] = 0;
    }
  }
  const freeCount = new Int32Array(n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) freeCount[r] += free[r][c];
  const rows = { given, free, freeCount, allowed };
  boardRows.set(part.fixed, { blocked: part.blocked, rows });
  return rows;
}

/** A product of small factors, in a Number while it is exact, in a BigInt beyond. */
class Product {
  private small = 1;
  private big: bigint | undefined;

  times(k: number): void {
    if (this.big === undefined && this.small * k <= Number.MAX_SAFE_INTEGER) this.small *= k;
    else this.big = (this.big ?? BigInt(this.small)) * BigInt(k);
  }

  value(): bigint {
    return this.big ?? BigInt(this.small);
  }
}

export function constrainedCapacity(part: PartBoard): ConstrainedCapacity {
  const known = constrainedCapacities.get(part);
  if (known) return known;
  const { n } = part;
  const { given, free, freeCount, allowed } = rowsOf(part);
  let total = 0n, nodes = 0n, bregman = 0;
  const taken = new Int32Array(n); // stamp of the row a column was last taken off
  let stamp = 0;
  const inPrefix = new Uint8Array(n);
  for (const prefix of part.prefixes) {
    for (const [r] of prefix) inPrefix[r] = 1;
    const matchings = new BregmanBound();
    const solutions = new Product(), placements = new Product();
    for (let r = 0; r < n; r++) {
      if (given[r] || inPrefix[r]) {
        placements.times(2); // its one square, or not yet placed
        continue;
      }
      placements.times(1 + allowed[r]);
      let k = freeCount[r];
      stamp++;
      for (const [qr, qc] of prefix) {
        const d = Math.abs(r - qr);
        for (let i = 0; i < 3; i++) {
          const c = i === 0 ? qc : i === 1 ? qc - d : qc + d;
          if (c < 0 || c >= n || taken[c] === stamp || !free[r][c]) continue;
          taken[c] = stamp;
          k--;
        }
      }
      solutions.times(k);
      matchings.row(k);
    }
    for (const [r] of prefix) inPrefix[r] = 0;
    total += solutions.value();
    nodes += placements.value();
    bregman += matchings.value();
  }
  // A solution is also a perfect matching of the free squares (open rows to open columns): Bregman's bound (src/count/bounds.ts).
  const matchingBound = roundUpBound(bregman);
  if (matchingBound < total) total = matchingBound;
  const result = { total, nodes };
  constrainedCapacities.set(part, result);
  return result;
}
