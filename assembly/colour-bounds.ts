// The sum, difference and moment bounds of diagonal-bounds.ts taken per colour, jointly: a
// test of the complete search that diagonalsFeasible runs last, when the bounds over both
// colours together have held. Twin: src/engine/ts/colour-bounds.ts.
//
// A queen on a square with r + c even (an even square) stands on an even sum diagonal and a
// difference diagonal of the same colour; with t queens on (even row, even column) squares,
// e = 2t + ro - ce of them stand on even squares and o = left - e on odd ones (ro: odd rows
// left, ce: even free columns). So for some t of the colour test's range, all at once:
// - the e smallest even usable sum diagonals plus the o smallest odd ones cannot exceed the
//   queens' sum of r + c, nor the e and o largest fall short of it;
// - likewise the difference diagonals and the queens' sum of their indices;
// - the e even and o odd usable diagonals of each family nearest the centre (farthest from it)
//   bound the queens' moment from below (above).
// Each is the bound over both colours restricted to the splits the rows and columns allow;
// what it adds: where the central diagonals left are mostly of one colour, the queens of the
// other colour must go farther out. Measured (Knuth estimates, Excluded Diagonals at n = 30):
// it refutes two d = 36 boards at the root that took the other bounds millions of nodes.
//
// Every list is built by walking the usable bits (at most 2n - 1 of each family), so a call
// costs O(n): the prefix sums of each colour's indices in increasing order and of its squared
// distances from the centre in increasing order.

import { below } from "./bit-sums";

const MAX_LIST: i32 = 1024; // a colour of a family has at most n <= 1000 diagonals
// Prefix sums, i32 each (at most 1000 * 999^2 < 2^31), MAX_LIST + 1 entries: [family (sum, diff)][colour (even, odd)][indices, squared distances].
const PREFIX: usize = memory.data(4 * 8 * (MAX_LIST + 1), 16);
// Scratch for one colour's indices in increasing order (i32).
const LIST: usize = memory.data(4 * MAX_LIST, 16);

@inline function prefixAt(family: i32, colour: i32, kind: i32): usize {
  return PREFIX + <usize>(((family * 2 + colour) * 2 + kind) * (MAX_LIST + 1)) * 4;
}

/**
 * The prefix sums of one colour of a family: the usable bits of `set` whose index has the
 * parity `parity`; returns how many there are.
 */
function build(set: usize, span: i32, parity: i32, family: i32, colour: i32): i32 {
  const centre = span >> 1;
  const words = (span + 63) >> 6;
  const mask: u64 = parity == 0 ? 0x5555555555555555 : 0xAAAAAAAAAAAAAAAA;
  const idx = prefixAt(family, colour, 0);
  const dist = prefixAt(family, colour, 1);
  store<i32>(idx, 0);
  store<i32>(dist, 0);
  let count: i32 = 0;
  let split: i32 = 0; // the first list entry above the centre
  let total: i32 = 0;
  for (let w = 0; w < words; w++) {
    let x = load<u64>(set + (<usize>w << 3)) & mask;
    if (w == words - 1) x &= below(span - (w << 6));
    while (x != 0) {
      const k = (w << 6) + <i32>ctz<u64>(x);
      x &= x - 1;
      store<i32>(LIST + (<usize>count << 2), k);
      total += k;
      count++;
      store<i32>(idx + (<usize>count << 2), total);
      if (k <= centre) split = count;
    }
  }
  // Outwards from the centre: the entries below it downwards, those above it upwards, merged by distance.
  let lo = split - 1, hi = split;
  let sum: i32 = 0;
  for (let i = 1; i <= count; i++) {
    const dLo = lo >= 0 ? centre - load<i32>(LIST + (<usize>lo << 2)) : i32.MAX_VALUE;
    const dHi = hi < count ? load<i32>(LIST + (<usize>hi << 2)) - centre : i32.MAX_VALUE;
    const takeLo = dLo <= dHi;
    const off = takeLo ? dLo : dHi;
    lo -= <i32>takeLo;
    hi += <i32>!takeLo;
    sum += off * off;
    store<i32>(dist + (<usize>i << 2), sum);
  }
  return count;
}

@inline function low(family: i32, colour: i32, kind: i32, j: i32): f64 {
  return <f64>load<i32>(prefixAt(family, colour, kind) + (<usize>j << 2));
}

@inline function high(family: i32, colour: i32, kind: i32, count: i32, j: i32): f64 {
  const p = prefixAt(family, colour, kind);
  return <f64>(load<i32>(p + (<usize>count << 2)) - load<i32>(p + (<usize>(count - j) << 2)));
}

/**
 * Whether some t in tLow..tHigh (the colour test's range, where e and o fit each colour's usable
 * diagonals) keeps all six bounds per colour. `diffParity`: the parity of a difference index of
 * an even square (that of n - 1); targets as diagonalsFeasible's.
 */
export function colourBoundsHold(
  n: i32, left: i32, sums: usize, diffs: usize, tLow: i32, tHigh: i32, ro: i32, ce: i32,
  sumTarget: f64, diffTarget: f64, momentTarget: f64,
): bool {
  const span = 2 * n - 1;
  const diffParity = (n - 1) & 1;
  const counts0 = build(sums, span, 0, 0, 0);
  const counts1 = build(sums, span, 1, 0, 1);
  const counts2 = build(diffs, span, diffParity, 1, 0);
  const counts3 = build(diffs, span, diffParity ^ 1, 1, 1);
  for (let t = tLow; t <= tHigh; t++) {
    const e = 2 * t + ro - ce;
    const o = left - e;
    if (e > counts0 || e > counts2 || o > counts1 || o > counts3) continue;
    if (low(0, 0, 0, e) + low(0, 1, 0, o) > sumTarget) continue;
    if (high(0, 0, 0, counts0, e) + high(0, 1, 0, counts1, o) < sumTarget) continue;
    if (low(1, 0, 0, e) + low(1, 1, 0, o) > diffTarget) continue;
    if (high(1, 0, 0, counts2, e) + high(1, 1, 0, counts3, o) < diffTarget) continue;
    const near = low(0, 0, 1, e) + low(0, 1, 1, o) + low(1, 0, 1, e) + low(1, 1, 1, o);
    if (2 * near > momentTarget) continue;
    const far = high(0, 0, 1, counts0, e) + high(0, 1, 1, counts1, o) + high(1, 0, 1, counts2, e) + high(1, 1, 1, counts3, o);
    if (2 * far < momentTarget) continue;
    return true;
  }
  return false;
}
