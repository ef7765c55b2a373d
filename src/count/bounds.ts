// Upper bounds on how many solutions a board can hold, from its free squares alone (cheap
// enough to check every result that crossed a thread, a file or a queue before it is summed).
//
// A solution puts one queen in each open row, in distinct columns, on free squares: it is a
// perfect matching of the 0/1 matrix "row r may take column c", so there are at most its
// permanent. Bregman's theorem (the Minc conjecture, 1973) bounds the permanent of a square 0/1
// matrix whose rows hold r_1, ..., r_m ones by the product of (r_i!)^(1/r_i); each factor is at
// most r_i, so this is never above the plain product of the free squares, and often far below
// (a 10 x 10 board with one blocked square: 9 * 10^9 by the product, 3.3 * 10^6 by Bregman,
// below 10! = 3,628,800; one of its parts with a queen in row 0: some 5 * 10^4). Computed in floating point and rounded up with a margin far above its error.

/** ln((r!)^(1/r)) for r = 0 .. 64 (0 for r = 0: such a row makes the bound 0 anyway). */
const LOG_FACTOR: number[] = (() => {
  const table = [0];
  let logFactorial = 0;
  for (let r = 1; r <= 64; r++) {
    logFactorial += Math.log(r);
    table.push(logFactorial / r);
  }
  return table;
})();

/**
 * Running Bregman bound of one square board, row by row: `row(k)` for each open row with k free
 * squares (k from 0 to 64), then `bound()`. Any row with no free square makes it 0.
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
