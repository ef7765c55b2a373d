// Global bounds on the diagonals, a failure test of the complete search (complete.ts and
// complete-wide.ts call it at every node). Twin: src/engine/ts/diagonal-bounds.ts.
//
// The queens still to place (`left` of them) stand on distinct rows (the rows left),
// distinct columns (the free columns), distinct sum diagonals s = r + c and distinct
// difference diagonals; every one of those diagonals must hold an open square of a row
// left (a usable diagonal). Four facts hold of every completion, so a node where one
// cannot hold has none:
// - colour: a queen on a square with r + c even has an even sum diagonal and an even
//   difference. With t queens on (even row, even column) squares, the even-row and
//   even-column counts fix the rest: 2t + ro - ce queens stand on even squares and
//   re + ce - 2t on odd ones; some t must leave each colour no more queens than it has
//   usable sum and usable difference diagonals;
// - sum: the s of the queens add up to the rows left plus the free columns, so the
//   `left` smallest usable s cannot exceed it, nor the `left` largest fall short of it;
// - difference: likewise, the differences add up to the columns less the rows;
// - moment: with s~ = r + c - (n - 1) and d~ = c - r, s~^2 + d~^2 = 2 r~^2 + 2 c~^2
//   (r~, c~ centred on (n - 1) / 2): the `left` usable diagonals of each family nearest
//   the centre (the farthest) bound the sum of s~^2 + d~^2, which is fixed by the rows and
//   columns left. This one cuts Excluded Diagonals boards (whole diagonals removed) by
//   orders of magnitude: a queen must take a far diagonal when the near ones are gone.
// These are relaxations (each family apart from the rows and columns), never wrong: a
// node they fail has no completion (tested against brute force). With the per-colour bounds on
// (the default), the last three are taken per colour, jointly, instead (colour-bounds.ts).
//
// The usable diagonals are two bit sets of `span = 2n - 1` bits (u64 words): bit k of
// `sums` is the sum diagonal k, bit k of `diffs` the difference diagonal with index k,
// either c - r + n - 1 or r - c + n - 1 (the bounds are symmetric under that mirror).

/** Usable diagonals of `set` of each colour: [even index, odd index] packed as even | odd << 16. */
function colours(set: usize, words: i32): i32 {
  let even: i32 = 0;
  let odd: i32 = 0;
  for (let w = 0; w < words; w++) {
    const x = load<u64>(set + (<usize>w << 3));
    even += <i32>popcnt<u64>(x & EVEN_BITS);
    odd += <i32>popcnt<u64>(x & ~EVEN_BITS);
  }
  return even | (odd << 16);
}

/** The first usable index of `set` at or above k (span: none). */
function nextBit(set: usize, k: i32, span: i32): i32 {
  while (k < span) {
    const w = k >> 6;
    const x = load<u64>(set + (<usize>w << 3)) >> <u64>(k & 63);
    if (x != 0) return min<i32>(k + <i32>ctz<u64>(x), span);
    k = (w + 1) << 6;
  }
  return span;
}

/** The last usable index of `set` at or below k (-1: none). */
function prevBit(set: usize, k: i32): i32 {
  while (k >= 0) {
    const w = k >> 6;
    const x = load<u64>(set + (<usize>w << 3)) << <u64>(63 - (k & 63));
    if (x != 0) return k - <i32>clz<u64>(x);
    k = (w << 6) - 1;
  }
  return -1;
}

// The last value linear() and moment() took (the left-th smallest index, largest index, nearest
// cost, farthest cost) and linear()'s sums, for diagonalsForbidden.
let lastLow: f64 = 0;
let lastHigh: f64 = 0;
let lastCost: f64 = 0;
let lastFound: i32 = 0;
let lowSum: f64 = 0;
let highSum: f64 = 0;

// Two-word sets (span <= 127, every board of the 64-bit path): linear() and moment() by
// popcounts (bit-sums.ts) instead of walking the bits, the same values (exact integers).
import { EVEN_BITS, below, fitWindow, foldDown, foldUp, indexSum, pc, select, squareSum, window0, window1 } from "./bit-sums";
import { colourBoundsHold } from "./colour-bounds";

// The two words of a set (bits at or above span cleared), and the last select's position.
let w0: u64 = 0;
let w1: u64 = 0;

@inline function loadSet(set: usize, span: i32): void {
  w0 = load<u64>(set) & below(span);
  w1 = span > 64 ? load<u64>(set + 8) & below(span - 64) : 0;
}

/** Sum of the j smallest indices of (w0, w1) (1 <= j <= their count); lastPos: the j-th. */
let lastPos: i32 = 0;
function smallest(j: i32): f64 {
  const c0 = pc(w0);
  if (j <= c0) {
    lastPos = select(w0, j);
    return <f64>indexSum(w0 & below(lastPos + 1));
  }
  const p = select(w1, j - c0);
  lastPos = 64 + p;
  const part = w1 & below(p + 1);
  return <f64>indexSum(w0) + <f64>indexSum(part) + 64 * <f64>pc(part);
}

/** linear() on a two-word set. */
function linearFast(set: usize, span: i32, left: i32, target: f64): bool {
  loadSet(set, span);
  const count = pc(w0) + pc(w1);
  if (count < left) {
    lowSum = <f64>indexSum(w0) + <f64>indexSum(w1) + 64 * <f64>pc(w1);
    return false;
  }
  if (left == 0) {
    lowSum = 0;
    highSum = 0;
    return target >= 0 && target <= 0;
  }
  const low = smallest(left);
  lastLow = <f64>lastPos;
  lowSum = low;
  if (low > target) return false;
  const all = <f64>indexSum(w0) + <f64>indexSum(w1) + 64 * <f64>pc(w1);
  // The left largest: all less the count - left smallest; the largest-but-left is the (count - left + 1)-th.
  const rest = count - left;
  const under = rest == 0 ? 0 : smallest(rest);
  smallest(rest + 1);
  lastHigh = <f64>lastPos;
  const high = all - under;
  highSum = high;
  return high >= target;
}

/** moment() on a two-word set: distances from the centre n - 1 (at most 63) as two words. */
function momentFast(set: usize, span: i32, left: i32, near: bool): f64 {
  loadSet(set, span);
  const centre = span >> 1;
  const up = foldUp(w0, w1, centre); // bit t: index centre + t
  const down = foldDown(w0, centre); // bit t: index centre - t, t >= 1
  const count = pc(up) + pc(down);
  if (count <= left) {
    lastFound = count;
    if (count > 0) {
      // The walk's last one: the farthest (near), the nearest (far).
      const t = near ? 63 - min<i32>(<i32>clz<u64>(up), <i32>clz<u64>(down)) : min<i32>(<i32>ctz<u64>(up), <i32>ctz<u64>(down));
      lastCost = <f64>t * <f64>t;
    }
    return <f64>squareSum(up) + <f64>squareSum(down);
  }
  lastFound = left;
  if (left == 0) return 0;
  let lo = 0, hi = 63;
  if (near) {
    // The smallest t with at least `left` distances up to t.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = below(mid + 1);
      if (pc(up & m) + pc(down & m) >= left) hi = mid;
      else lo = mid + 1;
    }
    const m = below(lo);
    const taken = pc(up & m) + pc(down & m);
    lastCost = <f64>lo * <f64>lo;
    return <f64>(squareSum(up & m) + squareSum(down & m)) + <f64>(left - taken) * lastCost;
  }
  // The largest t with at least `left` distances from t up.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const m = ~below(mid);
    if (pc(up & m) + pc(down & m) >= left) lo = mid;
    else hi = mid - 1;
  }
  const m = ~below(lo + 1);
  const taken = pc(up & m) + pc(down & m);
  lastCost = <f64>lo * <f64>lo;
  return <f64>(squareSum(up & m) + squareSum(down & m)) + <f64>(left - taken) * lastCost;
}

/** False when the `left` smallest usable indices of `set` exceed `target` or the largest fall short of it. */
function linear(set: usize, span: i32, left: i32, target: f64): bool {
  if (span <= 127) return linearFast(set, span, left, target);
  let low: f64 = 0;
  let found: i32 = 0;
  for (let k = nextBit(set, 0, span); k < span && found < left; k = nextBit(set, k + 1, span)) {
    low += <f64>k;
    lastLow = <f64>k;
    found++;
  }
  lowSum = low;
  if (found < left || low > target) return false;
  let high: f64 = 0;
  found = 0;
  for (let k = prevBit(set, span - 1); k >= 0 && found < left; k = prevBit(set, k - 1)) {
    high += <f64>k;
    lastHigh = <f64>k;
    found++;
  }
  highSum = high;
  return high >= target;
}

/** Sum of (k - centre)^2 over the `left` usable indices nearest the centre (near) or farthest from it. */
function moment(set: usize, span: i32, left: i32, near: bool): f64 {
  if (span <= 127) return momentFast(set, span, left, near);
  const centre = span >> 1;
  let total: f64 = 0;
  let found: i32 = 0;
  // Two streams of usable indices, below (and at) the centre and above it, each in the order wanted.
  let lo = near ? prevBit(set, centre) : nextBit(set, 0, span);
  let hi = near ? nextBit(set, centre + 1, span) : prevBit(set, span - 1);
  while (found < left) {
    const loOk = lo >= 0 && lo <= centre;
    const hiOk = hi > centre && hi < span;
    if (!loOk && !hiOk) break;
    const dLo = loOk ? centre - lo : -1;
    const dHi = hiOk ? hi - centre : -1;
    let off: i32;
    if (!hiOk || (loOk && (near ? dLo <= dHi : dLo >= dHi))) {
      off = dLo;
      lo = near ? prevBit(set, lo - 1) : nextBit(set, lo + 1, span);
    } else {
      off = dHi;
      hi = near ? nextBit(set, hi + 1, span) : prevBit(set, hi - 1);
    }
    total += <f64>off * <f64>off;
    lastCost = <f64>off * <f64>off;
    found++;
  }
  return total;
}

// diagonalsFeasible's figures of the node when it held, for diagonalsForbidden.
let sLow: f64 = 0, sHigh: f64 = 0, sLowSum: f64 = 0, sHighSum: f64 = 0;
let dLow: f64 = 0, dHigh: f64 = 0, dLowSum: f64 = 0, dHighSum: f64 = 0;
let sNear: f64 = 0, sNearCost: f64 = 0, sFar: f64 = 0, sFarCost: f64 = 0;
let dNear: f64 = 0, dNearCost: f64 = 0, dFar: f64 = 0, dFarCost: f64 = 0;

/**
 * diagonalsForbidden's test for one family of a two-word set, as windows: a diagonal passes the
 * moment tests where its distance t from the centre has t^2 within [farLimit, nearLimit] (the
 * cost that keeps the near sum with it at most, the far sum at least, the target), and the sum
 * tests where its index is within [indexLow, indexHigh]. Writes the forbidden bits; their count.
 */
function forbiddenFast(set: usize, span: i32, out: usize, nearLimit: f64, farLimit: f64, indexLow: f64, indexHigh: f64): i32 {
  loadSet(set, span);
  fitWindow(<f64>(span >> 1), nearLimit, farLimit, indexLow, indexHigh);
  const f0 = w0 & ~window0, f1 = w1 & ~window1;
  store<u64>(out, f0);
  store<u64>(out + 8, f1);
  return pc(f0) + pc(f1);
}

/**
 * Filtering (solve on the 64-bit path): right after diagonalsFeasible held on the same node,
 * the usable diagonals no completion can use. A k-subset of usable diagonals holding diagonal
 * x has at least the moment of the left - 1 nearest others plus x's own (at most: of the
 * farthest), and at least the index sum of the left - 1 smallest others plus x (at most: the
 * largest); where even that breaks a bound, x is unusable and its squares can go. Writes those
 * diagonals' bits into `outSums` / `outDiffs` (same layout as the sets, cleared first); returns
 * how many there are.
 */
export function diagonalsForbidden(n: i32, sums: usize, diffs: usize, sumTarget: f64, diffTarget: f64, momentTarget: f64, outSums: usize, outDiffs: usize): i32 {
  const span = 2 * n - 1;
  if (span <= 127) {
    // The same tests as below, solved for the cost and the index: q <= nearLimit keeps
    // 2 (near - nearCost + q + other near) <= target, q >= farLimit likewise for the far sums.
    const half = momentTarget / 2;
    return forbiddenFast(sums, span, outSums, half - dNear - sNear + sNearCost, half - dFar - sFar + sFarCost, sumTarget - sHighSum + sHigh, sumTarget - sLowSum + sLow)
      + forbiddenFast(diffs, span, outDiffs, half - sNear - dNear + dNearCost, half - sFar - dFar + dFarCost, diffTarget - dHighSum + dHigh, diffTarget - dLowSum + dLow);
  }
  const words = (span + 63) >> 6;
  for (let w = 0; w < words; w++) {
    store<u64>(outSums + (<usize>w << 3), 0);
    store<u64>(outDiffs + (<usize>w << 3), 0);
  }
  const centre = span >> 1;
  let count: i32 = 0;
  for (let k = nextBit(sums, 0, span); k < span; k = nextBit(sums, k + 1, span)) {
    const q = <f64>(k - centre) * <f64>(k - centre);
    const x = <f64>k;
    const qMin = q <= sNearCost ? sNear : sNear - sNearCost + q;
    const qMax = q >= sFarCost ? sFar : sFar - sFarCost + q;
    const lMin = x <= sLow ? sLowSum : sLowSum - sLow + x;
    const lMax = x >= sHigh ? sHighSum : sHighSum - sHigh + x;
    if (2 * (qMin + dNear) > momentTarget || 2 * (qMax + dFar) < momentTarget || lMin > sumTarget || lMax < sumTarget) {
      const at = outSums + (<usize>(k >> 6) << 3);
      store<u64>(at, load<u64>(at) | (<u64>1 << <u64>(k & 63)));
      count++;
    }
  }
  for (let k = nextBit(diffs, 0, span); k < span; k = nextBit(diffs, k + 1, span)) {
    const q = <f64>(k - centre) * <f64>(k - centre);
    const x = <f64>k;
    const qMin = q <= dNearCost ? dNear : dNear - dNearCost + q;
    const qMax = q >= dFarCost ? dFar : dFar - dFarCost + q;
    const lMin = x <= dLow ? dLowSum : dLowSum - dLow + x;
    const lMax = x >= dHigh ? dHighSum : dHighSum - dHigh + x;
    if (2 * (qMin + sNear) > momentTarget || 2 * (qMax + sFar) < momentTarget || lMin > diffTarget || lMax < diffTarget) {
      const at = outDiffs + (<usize>(k >> 6) << 3);
      store<u64>(at, load<u64>(at) | (<u64>1 << <u64>(k & 63)));
      count++;
    }
  }
  return count;
}

/**
 * Whether the colour, sum, difference and moment bounds above all hold (`colour`: the last three
 * in their per-colour form, colour-bounds.ts, which implies them). `evenRows`, `evenCols`:
 * rows left and free columns of even index; `sumTarget`: the rows left plus the free columns;
 * `diffTarget`: the sum of the queens' difference indices (with index c - r + n - 1: the
 * columns less the rows, plus left * (n - 1)); `momentTarget`: the sum over rows left and free
 * columns of (2i - n + 1)^2 (which is twice the queens' s~^2 + d~^2).
 */
export function diagonalsFeasible(
  n: i32, left: i32, sums: usize, diffs: usize, evenRows: i32, evenCols: i32,
  sumTarget: f64, diffTarget: f64, momentTarget: f64, colour: bool,
): bool {
  const span = 2 * n - 1;
  const words = (span + 63) >> 6;
  // Colour: a difference index k has the colour of k + n - 1.
  const sc = colours(sums, words);
  const dc = colours(diffs, words);
  const evenDiffs = (n & 1) != 0 ? dc & 0xffff : dc >> 16;
  const oddDiffs = (n & 1) != 0 ? dc >> 16 : dc & 0xffff;
  const evenMax = min<i32>(sc & 0xffff, evenDiffs);
  const oddMax = min<i32>(sc >> 16, oddDiffs);
  const re = evenRows;
  const ro = left - evenRows;
  const ce = evenCols;
  const tLow = max<i32>(max<i32>(0, ce - ro), (re + ce - oddMax + 1) >> 1);
  const tHigh = min<i32>(min<i32>(re, ce), (evenMax - ro + ce) >> 1);
  if (tLow > tHigh) return false;
  // The per-colour bounds imply the three below (a split's e smallest even plus o smallest odd
  // diagonals sum to at least the left smallest of both, and so on), so with them these are skipped.
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

/**
 * Whether the bounds pay on this board, decided once at the root: they cut only where whole
 * diagonals near the centre are missing, so that the `left` usable diagonals nearest the centre
 * already take more than 58% of the moment the queens must have (the slack below 42%). Measured:
 * random Blocked n-Queens boards (n = 28 to 200) and the empty board have a slack of 47 to 50%,
 * Excluded Diagonals boards at n = 30 fall from 40% at d = 20 to under 10% at d = 36; elsewhere
 * the bounds cost up to 7 times a node's time and cut almost nothing.
 */
export function boundsPay(n: i32, sums: usize, diffs: usize): bool {
  let momentTarget: f64 = 0;
  for (let i = 0; i < n; i++) momentTarget += 2 * <f64>(2 * i - n + 1) * <f64>(2 * i - n + 1); // row i and column i
  const span = 2 * n - 1;
  const low = moment(sums, span, n, true) + moment(diffs, span, n, true);
  return 200 * low > 58 * momentTarget;
}

/**
 * diagonalsFeasible at a node whose rows left and free columns are bit sets of `words` u64
 * (the wide path); `mirrored`: difference index r - c + n - 1 (the columns' sum less the rows').
 */
export function boundsOnLines(n: i32, left: i32, rows: usize, cols: usize, words: i32, sums: usize, diffs: usize, mirrored: bool, colour: bool): bool {
  let evenRows: i32 = 0;
  let evenCols: i32 = 0;
  let rowSum: f64 = 0;
  let colSum: f64 = 0;
  let moments: f64 = 0;
  for (let w = 0; w < words; w++) {
    let x = load<u64>(rows + (<usize>w << 3));
    while (x != 0) {
      const y = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      evenRows += (y & 1) ^ 1;
      rowSum += <f64>y;
      const m = <f64>(2 * y - n + 1);
      moments += m * m;
    }
    x = load<u64>(cols + (<usize>w << 3));
    while (x != 0) {
      const p = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      evenCols += (p & 1) ^ 1;
      colSum += <f64>p;
      const m = <f64>(2 * p - n + 1);
      moments += m * m;
    }
  }
  const diffTarget = (mirrored ? rowSum - colSum : colSum - rowSum) + <f64>left * <f64>(n - 1);
  return diagonalsFeasible(n, left, sums, diffs, evenRows, evenCols, rowSum + colSum, diffTarget, moments, colour);
}
