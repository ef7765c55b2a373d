// Twin of assembly/diagonal-bounds.ts: global bounds on the diagonals, a failure test of
// the complete search (complete.ts and complete-wide.ts call it at every node). The bit sets
// are 32-bit words here; the verdicts are the kernel's. See the kernel for the reasoning
// (colour, sum, difference and moment bounds over the usable diagonals).

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

const bit = (set: Int32Array, k: number): boolean => ((set[k >> 5] >>> (k & 31)) & 1) !== 0;

/** Usable diagonals of `set` of even and of odd index. */
function colours(set: Int32Array, words: number): [number, number] {
  let even = 0, odd = 0;
  for (let w = 0; w < words; w++) {
    even += popcount32(set[w] & 0x55555555);
    odd += popcount32(set[w] & 0xaaaaaaaa);
  }
  return [even, odd];
}

/** False when the `left` smallest usable indices of `set` exceed `target` or the largest fall short of it. */
function linear(set: Int32Array, span: number, left: number, target: number): boolean {
  let low = 0, found = 0;
  for (let k = 0; k < span && found < left; k++) {
    if (bit(set, k)) {
      low += k;
      found++;
    }
  }
  if (found < left || low > target) return false;
  let high = 0;
  found = 0;
  for (let k = span - 1; k >= 0 && found < left; k--) {
    if (bit(set, k)) {
      high += k;
      found++;
    }
  }
  return high >= target;
}

/** Sum of (k - centre)^2 over the `left` usable indices nearest the centre (near) or farthest from it. */
function moment(set: Int32Array, span: number, left: number, near: boolean): number {
  const centre = span >> 1;
  let total = 0, found = 0;
  for (let j = 0; j <= centre && found < left; j++) {
    const off = near ? j : centre - j;
    if (bit(set, centre - off)) {
      total += off * off;
      found++;
    }
    if (off !== 0 && found < left && bit(set, centre + off)) {
      total += off * off;
      found++;
    }
  }
  return total;
}

/** As the kernel's diagonalsFeasible: whether the colour, sum, difference and moment bounds all hold. */
export function diagonalsFeasible(
  n: number, left: number, sums: Int32Array, diffs: Int32Array, evenRows: number, evenCols: number,
  sumTarget: number, diffTarget: number, momentTarget: number,
): boolean {
  const span = 2 * n - 1;
  const words = (span + 31) >> 5;
  const [sumEven, sumOdd] = colours(sums, words);
  const [diffEvenIndex, diffOddIndex] = colours(diffs, words);
  const evenDiffs = (n & 1) !== 0 ? diffEvenIndex : diffOddIndex;
  const oddDiffs = (n & 1) !== 0 ? diffOddIndex : diffEvenIndex;
  const evenMax = Math.min(sumEven, evenDiffs), oddMax = Math.min(sumOdd, oddDiffs);
  const re = evenRows, ro = left - evenRows, ce = evenCols;
  const tLow = Math.max(0, ce - ro, (re + ce - oddMax + 1) >> 1);
  const tHigh = Math.min(re, ce, (evenMax - ro + ce) >> 1);
  if (tLow > tHigh) return false;
  if (!linear(sums, span, left, sumTarget) || !linear(diffs, span, left, diffTarget)) return false;
  const low = moment(sums, span, left, true) + moment(diffs, span, left, true);
  if (2 * low > momentTarget) return false;
  const high = moment(sums, span, left, false) + moment(diffs, span, left, false);
  return 2 * high >= momentTarget;
}
