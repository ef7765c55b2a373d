// Sums over the positions of a u64's bits by popcounts, for diagonal-bounds.ts's and
// colour-bounds.ts's two-word sets (the kernel's fast path; the TS twin walks the bits and gets
// the same integers, which the parity tests compare). State: only fitWindow's two words.

// An index's bits k: the masks M0..M5 hold the positions whose index has bit k, so a sum
// over positions is a few dozen popcounts.
export const M0: u64 = 0xAAAAAAAAAAAAAAAA;
export const M1: u64 = 0xCCCCCCCCCCCCCCCC;
export const M2: u64 = 0xF0F0F0F0F0F0F0F0;
export const M3: u64 = 0xFF00FF00FF00FF00;
export const M4: u64 = 0xFFFF0000FFFF0000;
export const M5: u64 = 0xFFFFFFFF00000000;
/** The even positions. */
export const EVEN_BITS: u64 = 0x5555555555555555;

@inline export function pc(x: u64): i32 {
  return <i32>popcnt<u64>(x);
}

/** Bits below p (0..64). */
@inline export function below(p: i32): u64 {
  return p >= 64 ? ~(<u64>0) : (<u64>1 << <u64>p) - 1;
}

/** Sum of the positions of the bits of x. */
export function indexSum(x: u64): i32 {
  return pc(x & M0) + 2 * pc(x & M1) + 4 * pc(x & M2) + 8 * pc(x & M3) + 16 * pc(x & M4) + 32 * pc(x & M5);
}

/** Sum of the squares of the positions of the bits of x: i^2 = sum over bit pairs k, l of i of 2^(k + l). */
export function squareSum(x: u64): i32 {
  const a0 = x & M0, a1 = x & M1, a2 = x & M2, a3 = x & M3, a4 = x & M4, a5 = x & M5;
  const square = pc(a0) + 4 * pc(a1) + 16 * pc(a2) + 64 * pc(a3) + 256 * pc(a4) + 1024 * pc(a5);
  const cross = 2 * pc(a0 & M1) + 4 * pc(a0 & M2) + 8 * pc(a0 & M3) + 16 * pc(a0 & M4) + 32 * pc(a0 & M5)
    + 8 * pc(a1 & M2) + 16 * pc(a1 & M3) + 32 * pc(a1 & M4) + 64 * pc(a1 & M5)
    + 32 * pc(a2 & M3) + 64 * pc(a2 & M4) + 128 * pc(a2 & M5)
    + 128 * pc(a3 & M4) + 256 * pc(a3 & M5) + 512 * pc(a4 & M5);
  return square + 2 * cross;
}

/** The position of the j-th lowest bit of x (1 <= j <= popcount). */
export function select(x: u64, j: i32): i32 {
  let lo = 0, hi = 63;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (pc(x & below(mid + 1)) >= j) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function reverse(x: u64): u64 {
  x = ((x >> 1) & 0x5555555555555555) | ((x & 0x5555555555555555) << 1);
  x = ((x >> 2) & 0x3333333333333333) | ((x & 0x3333333333333333) << 2);
  x = ((x >> 4) & 0x0F0F0F0F0F0F0F0F) | ((x & 0x0F0F0F0F0F0F0F0F) << 4);
  x = ((x >> 8) & 0x00FF00FF00FF00FF) | ((x & 0x00FF00FF00FF00FF) << 8);
  x = ((x >> 16) & 0x0000FFFF0000FFFF) | ((x & 0x0000FFFF0000FFFF) << 16);
  return (x >> 32) | (x << 32);
}

/** Bits of the indices a..b (clamped to 0..127) that fall in the word from `base` (0 or 64), shifted down by base. */
export function between(a: f64, b: f64, base: i32): u64 {
  const lo = <i32>max<f64>(a, <f64>base) - base;
  const hi = <i32>min<f64>(b, <f64>(base + 63)) - base;
  if (lo > hi) return 0;
  return below(hi + 1) & ~below(lo);
}

/** The largest t >= 0 with t^2 <= b (-1: none). */
export function rootBelow(b: f64): f64 {
  if (b < 0) return -1;
  let t = Math.floor(Math.sqrt(b));
  while ((t + 1) * (t + 1) <= b) t++;
  while (t * t > b) t--;
  return t;
}

/** A two-word set folded at `centre` (0..63): bit t of foldUp is index centre + t. */
@inline export function foldUp(x0: u64, x1: u64, centre: i32): u64 {
  return centre == 0 ? x0 : (x0 >> <u64>centre) | (x1 << <u64>(64 - centre));
}

/** Bit t (t >= 1) of foldDown is index centre - t (every such index is in the low word). */
@inline export function foldDown(x0: u64, centre: i32): u64 {
  return reverse(x0 << <u64>(63 - centre)) & ~(<u64>1);
}

/** fitWindow's answer: the bits of indices 0..63 and 64..127. */
export let window0: u64 = 0;
export let window1: u64 = 0;

/**
 * The indices k (0..127) whose distance t from `centre` has farLimit <= t^2 <= nearLimit and that
 * lie within indexLow..indexHigh, as window0 and window1: the diagonals a filtering test lets
 * stay (diagonal-bounds.ts forbiddenFast, colour-bounds.ts colourForbidden).
 */
export function fitWindow(centre: f64, nearLimit: f64, farLimit: f64, indexLow: f64, indexHigh: f64): void {
  const tMax = rootBelow(nearLimit);
  const tMin = farLimit <= 0 ? 0 : rootBelow(farLimit - 1) + 1; // the smallest t with t^2 >= farLimit
  const x0 = max<f64>(indexLow, -1), x1 = min<f64>(indexHigh, 128);
  window0 = (between(centre - tMax, centre - tMin, 0) | between(centre + tMin, centre + tMax, 0)) & between(x0, x1, 0);
  window1 = (between(centre - tMax, centre - tMin, 64) | between(centre + tMin, centre + tMax, 64)) & between(x0, x1, 64);
}
