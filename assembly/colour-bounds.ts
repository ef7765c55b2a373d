// The sum, difference and moment bounds of diagonal-bounds.ts taken per colour, jointly: the
// test diagonalsFeasible runs (after the colour count) in place of those bounds over both
// colours, which it implies; and its filtering, colourForbidden, which solve's 64-bit path runs
// in place of diagonalsForbidden. Twin: src/engine/ts/colour-bounds.ts.
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
// other colour must go farther out. Measured (Excluded Diagonals at n = 30): the test refutes two
// d = 36 boards at the root that took the other bounds millions of nodes, the filtering a third.
//
// Every list is built by walking the usable bits (at most 2n - 1 of each family), so a call
// costs O(n): the prefix sums of each colour's indices in increasing order and of its squared
// distances from the centre in increasing order.

import { EVEN_BITS, below, fitWindow, foldDown, foldUp, pc, window0, window1 } from "./bit-sums";

const MAX_LIST: i32 = 1024; // a colour of a family has at most n <= 1000 diagonals
// Prefix sums, i32 each (at most 1000 * 999^2 < 2^31), MAX_LIST + 1 entries: [family (sum, diff)][colour (even, odd)][indices, squared distances].
const PREFIX: usize = memory.data(4 * 8 * (MAX_LIST + 1), 16);
// Scratch for one colour's indices in increasing order (i32).
const LIST: usize = memory.data(4 * MAX_LIST, 16);
// colourForbidden's diagonals with room, per slot (family * 2 + colour): two u64 words each.
const ROOM: usize = memory.data(8 * 8, 16);

@inline function prefixAt(family: i32, colour: i32, kind: i32): usize {
  return PREFIX + <usize>(((family * 2 + colour) * 2 + kind) * (MAX_LIST + 1)) * 4;
}

/**
 * The prefix sums of one colour of a family: the usable bits of `set` whose index has the
 * parity `parity`; returns how many there are.
 */
function build(set: usize, span: i32, parity: i32, family: i32, colour: i32): i32 {
  if (span <= 127) return buildFast(set, span, parity, family, colour);
  const centre = span >> 1;
  const words = (span + 63) >> 6;
  const mask: u64 = parity == 0 ? EVEN_BITS : ~EVEN_BITS;
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

/**
 * build() on a two-word set (span <= 127, every board of the 64-bit path), the same sums: the
 * indices by walking the bits; the distances by folding the set at the centre (as
 * diagonal-bounds.ts momentFast), so that the bits of (up | down) come in increasing distance,
 * each once or twice (a diagonal on either side).
 */
function buildFast(set: usize, span: i32, parity: i32, family: i32, colour: i32): i32 {
  const centre = span >> 1;
  const mask: u64 = parity == 0 ? EVEN_BITS : ~EVEN_BITS;
  const x0 = load<u64>(set) & below(span) & mask;
  const x1 = span > 64 ? load<u64>(set + 8) & below(span - 64) & mask : 0;
  const idx = prefixAt(family, colour, 0);
  const dist = prefixAt(family, colour, 1);
  store<i32>(idx, 0);
  store<i32>(dist, 0);
  let count: i32 = 0;
  let total: i32 = 0;
  let x = x0;
  while (x != 0) {
    total += <i32>ctz<u64>(x);
    x &= x - 1;
    count++;
    store<i32>(idx + (<usize>count << 2), total);
  }
  x = x1;
  while (x != 0) {
    total += 64 + <i32>ctz<u64>(x);
    x &= x - 1;
    count++;
    store<i32>(idx + (<usize>count << 2), total);
  }
  const up = foldUp(x0, x1, centre); // bit t: index centre + t
  const down = foldDown(x0, centre); // bit t: index centre - t, t >= 1
  let sum: i32 = 0;
  let i: i32 = 0;
  x = up | down;
  while (x != 0) {
    const t = <i32>ctz<u64>(x);
    const bit = <u64>1 << <u64>t;
    x &= x - 1;
    const q = t * t;
    sum += q;
    i++;
    store<i32>(dist + (<usize>i << 2), sum);
    if ((up & down & bit) != 0) {
      sum += q;
      i++;
      store<i32>(dist + (<usize>i << 2), sum);
    }
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

// colourBoundsHold's node, for colourForbidden: its arguments and each colour's count.
let nodeLeft: i32 = 0, nodeTLow: i32 = 0, nodeTHigh: i32 = 0, nodeRo: i32 = 0, nodeCe: i32 = 0;
let nodeSum: f64 = 0, nodeDiff: f64 = 0, nodeMoment: f64 = 0;
let count0: i32 = 0, count1: i32 = 0, count2: i32 = 0, count3: i32 = 0;

@inline function countOf(family: i32, colour: i32): i32 {
  return family == 0 ? (colour == 0 ? count0 : count1) : (colour == 0 ? count2 : count3);
}

/** Whether all six bounds per colour hold with e queens on even squares and o on odd ones. */
function holdsAt(e: i32, o: i32): bool {
  if (e > count0 || e > count2 || o > count1 || o > count3) return false;
  if (low(0, 0, 0, e) + low(0, 1, 0, o) > nodeSum) return false;
  if (high(0, 0, 0, count0, e) + high(0, 1, 0, count1, o) < nodeSum) return false;
  if (low(1, 0, 0, e) + low(1, 1, 0, o) > nodeDiff) return false;
  if (high(1, 0, 0, count2, e) + high(1, 1, 0, count3, o) < nodeDiff) return false;
  const near = low(0, 0, 1, e) + low(0, 1, 1, o) + low(1, 0, 1, e) + low(1, 1, 1, o);
  if (2 * near > nodeMoment) return false;
  const far = high(0, 0, 1, count0, e) + high(0, 1, 1, count1, o) + high(1, 0, 1, count2, e) + high(1, 1, 1, count3, o);
  return 2 * far >= nodeMoment;
}

/**
 * Whether some t in tLow..tHigh (the colour test's range, where e and o fit each colour's usable
 * diagonals) keeps all six bounds per colour; targets as diagonalsFeasible's.
 */
export function colourBoundsHold(
  n: i32, left: i32, sums: usize, diffs: usize, tLow: i32, tHigh: i32, ro: i32, ce: i32,
  sumTarget: f64, diffTarget: f64, momentTarget: f64,
): bool {
  const span = 2 * n - 1;
  const diffParity = (n - 1) & 1; // the parity of a difference index of an even square
  count0 = build(sums, span, 0, 0, 0);
  count1 = build(sums, span, 1, 0, 1);
  count2 = build(diffs, span, diffParity, 1, 0);
  count3 = build(diffs, span, diffParity ^ 1, 1, 1);
  nodeLeft = left; nodeTLow = tLow; nodeTHigh = tHigh; nodeRo = ro; nodeCe = ce;
  nodeSum = sumTarget; nodeDiff = diffTarget; nodeMoment = momentTarget;
  for (let t = tLow; t <= tHigh; t++) {
    const e = 2 * t + ro - ce;
    if (holdsAt(e, left - e)) return true;
  }
  return false;
}

// Each slot's usable diagonals (family * 2 + colour: its sum or difference diagonals of that
// colour), two u64 words a slot, written by slotsOf.
const SLOTS: usize = memory.data(8 * 8, 16);

/** Each slot's usable diagonals of the sets `sums` and `diffs` (span <= 127) into SLOTS. */
function slotsOf(n: i32, sums: usize, diffs: usize): void {
  const span = 2 * n - 1;
  const low0 = below(span), high0 = span > 64 ? below(span - 64) : 0;
  const sumEven = EVEN_BITS, diffEven = ((n - 1) & 1) == 0 ? EVEN_BITS : ~EVEN_BITS;
  const s0 = load<u64>(sums) & low0, s1 = load<u64>(sums + 8) & high0;
  const d0 = load<u64>(diffs) & low0, d1 = load<u64>(diffs + 8) & high0;
  store<u64>(SLOTS, s0 & sumEven);
  store<u64>(SLOTS + 8, s1 & sumEven);
  store<u64>(SLOTS + 16, s0 & ~sumEven);
  store<u64>(SLOTS + 24, s1 & ~sumEven);
  store<u64>(SLOTS + 32, d0 & diffEven);
  store<u64>(SLOTS + 40, d1 & diffEven);
  store<u64>(SLOTS + 48, d0 & ~diffEven);
  store<u64>(SLOTS + 56, d1 & ~diffEven);
}

/** The slots' sets in ROOM (u64[8], as SLOTS) joined by family into `outSums` / `outDiffs`; how many diagonals. */
function writeFamilies(outSums: usize, outDiffs: usize): i32 {
  const s0 = load<u64>(ROOM) | load<u64>(ROOM + 16), s1 = load<u64>(ROOM + 8) | load<u64>(ROOM + 24);
  const d0 = load<u64>(ROOM + 32) | load<u64>(ROOM + 48), d1 = load<u64>(ROOM + 40) | load<u64>(ROOM + 56);
  store<u64>(outSums, s0);
  store<u64>(outSums + 8, s1);
  store<u64>(outDiffs, d0);
  store<u64>(outDiffs + 8, d1);
  return pc(s0) + pc(s1) + pc(d0) + pc(d1);
}

/**
 * Filtering per colour (solve on the 64-bit path, span <= 127), right after colourBoundsHold held
 * on the same node: a usable diagonal of colour c is unusable when no t that keeps the bounds
 * leaves it room, that is where, for every such t, a set of the colour's count of usable
 * diagonals of c holding it breaks a bound (as diagonalsForbidden, per colour: at least the
 * index sum of the count - 1 smallest others plus its own, and so on). For one t and colour the
 * diagonals that fit are a window of indices times a ring of distances from the centre, so the
 * test is a few masks a t. Writes their bits into `outSums` / `outDiffs` (two words each, as
 * the sets); returns how many there are. They include every diagonal diagonalsForbidden would
 * take away (a set of one split is a set of both colours).
 */
export function colourForbidden(n: i32, sums: usize, diffs: usize, outSums: usize, outDiffs: usize): i32 {
  const centre = <f64>((2 * n - 1) >> 1);
  const half = nodeMoment / 2;
  memory.fill(ROOM, 0, 64);
  let full: i32 = 0; // slots whose every usable diagonal already has room
  for (let t = nodeTLow; t <= nodeTHigh; t++) {
    const e = 2 * t + nodeRo - nodeCe;
    const o = nodeLeft - e;
    if (!holdsAt(e, o)) continue;
    for (let slot = 0; slot < 4; slot++) {
      if ((full & (1 << slot)) != 0) continue;
      const family = slot >> 1, colour = slot & 1;
      const m = colour == 0 ? e : o;
      if (m == 0) continue; // no queen of this colour: none of its diagonals is used
      const mo = colour == 0 ? o : e;
      const count = countOf(family, colour), countOther = countOf(family, colour ^ 1);
      const target = family == 0 ? nodeSum : nodeDiff;
      const indexHigh = target - low(family, colour ^ 1, 0, mo) - low(family, colour, 0, m - 1);
      const indexLow = target - high(family, colour ^ 1, 0, countOther, mo) - high(family, colour, 0, count, m - 1);
      const f = family ^ 1;
      const nearOther = low(f, 0, 1, e) + low(f, 1, 1, o);
      const farOther = high(f, 0, 1, countOf(f, 0), e) + high(f, 1, 1, countOf(f, 1), o);
      const nearLimit = half - nearOther - low(family, colour ^ 1, 1, mo) - low(family, colour, 1, m - 1);
      const farLimit = half - farOther - high(family, colour ^ 1, 1, countOther, mo) - high(family, colour, 1, count, m - 1);
      const room = ROOM + (<usize>slot << 4);
      // The window holds the slot's whole usable set (most often, measured): no masks needed.
      if (indexLow <= low(family, colour, 0, 1) && indexHigh >= high(family, colour, 0, count, 1)
        && farLimit <= low(family, colour, 1, 1) && nearLimit >= high(family, colour, 1, count, 1)) {
        full |= 1 << slot;
        store<u64>(room, ~(<u64>0));
        store<u64>(room + 8, ~(<u64>0));
        continue;
      }
      fitWindow(centre, nearLimit, farLimit, indexLow, indexHigh);
      store<u64>(room, load<u64>(room) | window0);
      store<u64>(room + 8, load<u64>(room + 8) | window1);
    }
  }
  // The usable diagonals without room, each slot's.
  slotsOf(n, sums, diffs);
  for (let w = 0; w < 8; w++) {
    const at = ROOM + (<usize>w << 3);
    store<u64>(at, load<u64>(SLOTS + (<usize>w << 3)) & ~load<u64>(at));
  }
  return writeFamilies(outSums, outDiffs);
}

/**
 * The diagonals every completion needs (solve on the 64-bit path, span <= 127), right after
 * colourBoundsHold held and colourForbidden took nothing away on the same node: a usable diagonal
 * is needed when, for every t that keeps the bounds, taking it out of the usable set breaks one of
 * that t's bounds: its colour has fewer diagonals than queens left, or the next index (squared
 * distance from the centre) of its colour in its place pushes the index sum or the moment past the
 * queens'. Taking out one of the m smallest indices raises their sum by the (m + 1)-th less its
 * own, so at one t the diagonals that may go are again a window of indices times a ring of
 * distances (fitWindow); the needed ones lie outside every t's. Every completion puts a queen on
 * each (build may branch on one: complete-state.ts). Writes their bits into `outSums` /
 * `outDiffs` (two words each); returns how many.
 */
export function colourMandatory(n: i32, sums: usize, diffs: usize, outSums: usize, outDiffs: usize): i32 {
  const centre = <f64>((2 * n - 1) >> 1);
  const half = nodeMoment / 2;
  // ROOM per slot, here the diagonals still needed at every t seen: the slot's usable set at first.
  slotsOf(n, sums, diffs);
  memory.copy(ROOM, SLOTS, 64);
  for (let t = nodeTLow; t <= nodeTHigh; t++) {
    const e = 2 * t + nodeRo - nodeCe;
    const o = nodeLeft - e;
    if (!holdsAt(e, o)) continue;
    const near = low(0, 0, 1, e) + low(0, 1, 1, o) + low(1, 0, 1, e) + low(1, 1, 1, o);
    const far = high(0, 0, 1, count0, e) + high(0, 1, 1, count1, o) + high(1, 0, 1, count2, e) + high(1, 1, 1, count3, o);
    let left: u64 = 0; // whether any slot still has a needed diagonal
    for (let slot = 0; slot < 4; slot++) {
      const room = ROOM + (<usize>slot << 4);
      if ((load<u64>(room) | load<u64>(room + 8)) == 0) continue;
      const family = slot >> 1, colour = slot & 1;
      const m = colour == 0 ? e : o;
      if (m == 0) { // no queen of this colour: none of its diagonals is needed
        store<u64>(room, 0);
        store<u64>(room + 8, 0);
        continue;
      }
      const count = countOf(family, colour);
      if (count - 1 < m) continue; // every one is needed at this t
      const mo = colour == 0 ? o : e;
      const countOther = countOf(family, colour ^ 1);
      const target = family == 0 ? nodeSum : nodeDiff;
      const nextIndex = low(family, colour, 0, m + 1) - low(family, colour, 0, m);
      const prevIndex = low(family, colour, 0, count - m) - low(family, colour, 0, count - m - 1);
      const nextDist = low(family, colour, 1, m + 1) - low(family, colour, 1, m);
      const prevDist = low(family, colour, 1, count - m) - low(family, colour, 1, count - m - 1);
      const indexLow = nextIndex - (target - low(family, colour ^ 1, 0, mo) - low(family, colour, 0, m));
      const indexHigh = prevIndex + (high(family, colour, 0, count, m) + high(family, colour ^ 1, 0, countOther, mo) - target);
      fitWindow(centre, prevDist + (far - half), nextDist - (half - near), indexLow, indexHigh);
      store<u64>(room, load<u64>(room) & ~window0);
      store<u64>(room + 8, load<u64>(room + 8) & ~window1);
    }
    for (let w = 0; w < 8; w++) left |= load<u64>(ROOM + (<usize>w << 3));
    if (left == 0) break; // none is needed
  }
  return writeFamilies(outSums, outDiffs);
}
