// Twin of assembly/diagonal-bounds.ts: global bounds on the diagonals, a failure test of
// the complete search (complete.ts and complete-wide.ts call it at every node). The bit sets
// are 32-bit words here; the verdicts are the kernel's. See the kernel for the reasoning
// (colour, sum, difference and moment bounds over the usable diagonals).

import { colourBoundsHold } from "./colour-bounds.js";

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Usable diagonals of `set` of even and of odd index. */
function colours(set: Int32Array, words: number): [number, number] {
  let even = 0, odd = 0;
  for (let w = 0; w < words; w++) {
    even += popcount32(set[w] & 0x55555555);
    odd += popcount32(set[w] & 0xaaaaaaaa);
  }
  return [even, odd];
}

function ctz32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** The first usable index of `set` at or above k (span: none). */
function nextBit(set: Int32Array, k: number, span: number): number {
  while (k < span) {
    const w = k >> 5;
    const x = set[w] >>> (k & 31);
    if (x !== 0) return Math.min(k + ctz32(x), span);
    k = (w + 1) << 5;
  }
  return span;
}

/** The last usable index of `set` at or below k (-1: none). */
function prevBit(set: Int32Array, k: number): number {
  while (k >= 0) {
    const w = k >> 5;
    const x = set[w] << (31 - (k & 31));
    if (x !== 0) return k - Math.clz32(x);
    k = (w << 5) - 1;
  }
  return -1;
}

// The last value linear() and moment() took and linear()'s sums (as the kernel).
let lastLow = 0, lastHigh = 0, lastCost = 0, lowSum = 0, highSum = 0;

/** False when the `left` smallest usable indices of `set` exceed `target` or the largest fall short of it. */
function linear(set: Int32Array, span: number, left: number, target: number): boolean {
  let low = 0, found = 0;
  for (let k = nextBit(set, 0, span); k < span && found < left; k = nextBit(set, k + 1, span)) {
    low += k;
    lastLow = k;
    found++;
  }
  lowSum = low;
  if (found < left || low > target) return false;
  let high = 0;
  found = 0;
  for (let k = prevBit(set, span - 1); k >= 0 && found < left; k = prevBit(set, k - 1)) {
    high += k;
    lastHigh = k;
    found++;
  }
  highSum = high;
  return high >= target;
}

/** Sum of (k - centre)^2 over the `left` usable indices nearest the centre (near) or farthest from it. */
function moment(set: Int32Array, span: number, left: number, near: boolean): number {
  const centre = span >> 1;
  let total = 0, found = 0;
  let lo = near ? prevBit(set, centre) : nextBit(set, 0, span);
  let hi = near ? nextBit(set, centre + 1, span) : prevBit(set, span - 1);
  while (found < left) {
    const loOk = lo >= 0 && lo <= centre, hiOk = hi > centre && hi < span;
    if (!loOk && !hiOk) break;
    const dLo = loOk ? centre - lo : -1, dHi = hiOk ? hi - centre : -1;
    let off: number;
    if (!hiOk || (loOk && (near ? dLo <= dHi : dLo >= dHi))) {
      off = dLo;
      lo = near ? prevBit(set, lo - 1) : nextBit(set, lo + 1, span);
    } else {
      off = dHi;
      hi = near ? nextBit(set, hi + 1, span) : prevBit(set, hi - 1);
    }
    total += off * off;
    lastCost = off * off;
    found++;
  }
  return total;
}

// diagonalsFeasible's figures of the node when it held, for diagonalsForbidden.
let sLow = 0, sHigh = 0, sLowSum = 0, sHighSum = 0, dLow = 0, dHigh = 0, dLowSum = 0, dHighSum = 0;
let sNear = 0, sNearCost = 0, sFar = 0, sFarCost = 0, dNear = 0, dNearCost = 0, dFar = 0, dFarCost = 0;

/** As the kernel's diagonalsFeasible: whether the colour, sum, difference and moment bounds all hold (`colour`: the last three per colour). */
export function diagonalsFeasible(
  n: number, left: number, sums: Int32Array, diffs: Int32Array, evenRows: number, evenCols: number,
  sumTarget: number, diffTarget: number, momentTarget: number, colour: boolean,
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
  // The per-colour bounds imply the three below, so with them these are skipped (as the kernel).
  if (colour) return colourBoundsHold(n, left, sums, diffs, tLow, tHigh, ro, ce, sumTarget, diffTarget, momentTarget);
  if (!linear(sums, span, left, sumTarget)) return false;
  sLow = lastLow; sHigh = lastHigh; sLowSum = lowSum; sHighSum = highSum;
  if (!linear(diffs, span, left, diffTarget)) return false;
  dLow = lastLow; dHigh = lastHigh; dLowSum = lowSum; dHighSum = highSum;
  sNear = moment(sums, span, left, true);
  sNearCost = lastCost;
  dNear = moment(diffs, span, left, true);
  dNearCost = lastCost;
  if (2 * (sNear + dNear) > momentTarget) return false;
  sFar = moment(sums, span, left, false);
  sFarCost = lastCost;
  dFar = moment(diffs, span, left, false);
  dFarCost = lastCost;
  return 2 * (sFar + dFar) >= momentTarget;
}

/** As the kernel's diagonalsForbidden (right after diagonalsFeasible held): the unusable diagonals as bits of outSums / outDiffs; how many. */
export function diagonalsForbidden(
  n: number, sums: Int32Array, diffs: Int32Array, sumTarget: number, diffTarget: number, momentTarget: number, outSums: Int32Array, outDiffs: Int32Array,
): number {
  const span = 2 * n - 1, centre = span >> 1;
  outSums.fill(0);
  outDiffs.fill(0);
  let count = 0;
  for (let k = nextBit(sums, 0, span); k < span; k = nextBit(sums, k + 1, span)) {
    const q = (k - centre) * (k - centre);
    const qMin = q <= sNearCost ? sNear : sNear - sNearCost + q;
    const qMax = q >= sFarCost ? sFar : sFar - sFarCost + q;
    const lMin = k <= sLow ? sLowSum : sLowSum - sLow + k;
    const lMax = k >= sHigh ? sHighSum : sHighSum - sHigh + k;
    if (2 * (qMin + dNear) > momentTarget || 2 * (qMax + dFar) < momentTarget || lMin > sumTarget || lMax < sumTarget) {
      outSums[k >> 5] |= 1 << (k & 31);
      count++;
    }
  }
  for (let k = nextBit(diffs, 0, span); k < span; k = nextBit(diffs, k + 1, span)) {
    const q = (k - centre) * (k - centre);
    const qMin = q <= dNearCost ? dNear : dNear - dNearCost + q;
    const qMax = q >= dFarCost ? dFar : dFar - dFarCost + q;
    const lMin = k <= dLow ? dLowSum : dLowSum - dLow + k;
    const lMax = k >= dHigh ? dHighSum : dHighSum - dHigh + k;
    if (2 * (qMin + sNear) > momentTarget || 2 * (qMax + sFar) < momentTarget || lMin > diffTarget || lMax < diffTarget) {
      outDiffs[k >> 5] |= 1 << (k & 31);
      count++;
    }
  }
  return count;
}

/** As the kernel's boundsPay: whether the bounds pay on this board (the root's moment slack under 42%). */
export function boundsPay(n: number, sums: Int32Array, diffs: Int32Array): boolean {
  let momentTarget = 0;
  for (let i = 0; i < n; i++) momentTarget += 2 * (2 * i - n + 1) ** 2; // row i and column i
  const span = 2 * n - 1;
  const low = moment(sums, span, n, true) + moment(diffs, span, n, true);
  return 200 * low > 58 * momentTarget;
}

/** As the kernel's boundsOnLines: diagonalsFeasible at a node whose rows left and free columns are bit sets (32-bit words). */
export function boundsOnLines(n: number, left: number, rows: Int32Array, cols: Int32Array, words: number, sums: Int32Array, diffs: Int32Array, mirrored: boolean, colour: boolean): boolean {
  let evenRows = 0, evenCols = 0, rowSum = 0, colSum = 0, moments = 0;
  for (let w = 0; w < words; w++) {
    for (let x = rows[w]; x !== 0; x &= x - 1) {
      const y = 32 * w + ctz32(x);
      evenRows += (y & 1) ^ 1;
      rowSum += y;
      moments += (2 * y - n + 1) ** 2;
    }
    for (let x = cols[w]; x !== 0; x &= x - 1) {
      const p = 32 * w + ctz32(x);
      evenCols += (p & 1) ^ 1;
      colSum += p;
      moments += (2 * p - n + 1) ** 2;
    }
  }
  const diffTarget = (mirrored ? rowSum - colSum : colSum - rowSum) + left * (n - 1);
  return diagonalsFeasible(n, left, sums, diffs, evenRows, evenCols, rowSum + colSum, diffTarget, moments, colour);
}
