// Twin of assembly/colour-bounds.ts: the sum, difference and moment bounds per colour,
// jointly (diagonalsFeasible's test with them on), and their filtering in solve. Bit sets are
// 32-bit words here; the verdicts are the kernel's (exact integers). See the kernel for the
// reasoning.

const MAX_LIST = 1024; // a colour of a family has at most n <= 1000 diagonals
// Prefix sums by [family (sum, diff)][colour (even, odd)][indices, squared distances], MAX_LIST + 1 entries each.
const PREFIX = Array.from({ length: 8 }, () => new Float64Array(MAX_LIST + 1));
const LIST = new Int32Array(MAX_LIST);
const COUNTS = new Int32Array(4);

/** The prefix sums of one colour of a family (the usable bits of `set` with index parity `parity`); how many. */
function build(set: Int32Array, span: number, parity: number, slot: number): number {
  const centre = span >> 1;
  let count = 0;
  for (let k = parity; k < span; k += 2) if ((set[k >> 5] >>> (k & 31)) & 1) LIST[count++] = k;
  const idx = PREFIX[2 * slot], dist = PREFIX[2 * slot + 1];
  let split = 0; // the first entry above the centre
  for (let i = 0; i < count; i++) {
    if (LIST[i] <= centre) split = i + 1;
    idx[i + 1] = idx[i] + LIST[i];
  }
  // Outwards from the centre, merged by distance.
  let lo = split - 1, hi = split;
  for (let i = 0; i < count; i++) {
    const dLo = lo >= 0 ? centre - LIST[lo] : Infinity;
    const dHi = hi < count ? LIST[hi] - centre : Infinity;
    let off: number;
    if (dLo <= dHi) {
      off = dLo;
      lo--;
    } else {
      off = dHi;
      hi++;
    }
    dist[i + 1] = dist[i] + off * off;
  }
  return count;
}

/** Sum of the j smallest (kind 0: indices; 1: squared distances) of slot's colour. */
const low = (slot: number, kind: number, j: number): number => PREFIX[2 * slot + kind][j];
/** Sum of the j largest. */
const high = (slot: number, kind: number, j: number): number => {
  const p = PREFIX[2 * slot + kind], count = COUNTS[slot];
  return p[count] - p[count - j];
};

// colourBoundsHold's node, for colourForbidden (as the kernel).
let nodeLeft = 0, nodeTLow = 0, nodeTHigh = 0, nodeRo = 0, nodeCe = 0, nodeSum = 0, nodeDiff = 0, nodeMoment = 0;

/** Whether all six bounds per colour hold with e queens on even squares and o on odd ones. */
function holdsAt(e: number, o: number): boolean {
  if (e > COUNTS[0] || e > COUNTS[2] || o > COUNTS[1] || o > COUNTS[3]) return false;
  if (low(0, 0, e) + low(1, 0, o) > nodeSum) return false;
  if (high(0, 0, e) + high(1, 0, o) < nodeSum) return false;
  if (low(2, 0, e) + low(3, 0, o) > nodeDiff) return false;
  if (high(2, 0, e) + high(3, 0, o) < nodeDiff) return false;
  if (2 * (low(0, 1, e) + low(1, 1, o) + low(2, 1, e) + low(3, 1, o)) > nodeMoment) return false;
  return 2 * (high(0, 1, e) + high(1, 1, o) + high(2, 1, e) + high(3, 1, o)) >= nodeMoment;
}

/** As the kernel's colourBoundsHold: whether some t in tLow..tHigh keeps all six bounds per colour. */
export function colourBoundsHold(
  n: number, left: number, sums: Int32Array, diffs: Int32Array, tLow: number, tHigh: number, ro: number, ce: number,
  sumTarget: number, diffTarget: number, momentTarget: number,
): boolean {
  const span = 2 * n - 1;
  const diffParity = (n - 1) & 1;
  // Slots: 0 even sums, 1 odd sums, 2 even differences, 3 odd differences (by their squares' colour).
  COUNTS[0] = build(sums, span, 0, 0);
  COUNTS[1] = build(sums, span, 1, 1);
  COUNTS[2] = build(diffs, span, diffParity, 2);
  COUNTS[3] = build(diffs, span, diffParity ^ 1, 3);
  nodeLeft = left; nodeTLow = tLow; nodeTHigh = tHigh; nodeRo = ro; nodeCe = ce;
  nodeSum = sumTarget; nodeDiff = diffTarget; nodeMoment = momentTarget;
  for (let t = tLow; t <= tHigh; t++) {
    const e = 2 * t + ro - ce;
    if (holdsAt(e, left - e)) return true;
  }
  return false;
}

/** A window of one slot at one split: indexLow <= k <= indexHigh and farLimit <= q <= nearLimit (q: k's squared distance from the centre). */
type Window = [indexLow: number, indexHigh: number, farLimit: number, nearLimit: number];

const inWindow = (k: number, q: number, [indexLow, indexHigh, farLimit, nearLimit]: Window): boolean =>
  k >= indexLow && k <= indexHigh && q >= farLimit && q <= nearLimit;

/**
 * The usable diagonals of every slot that lie in no split's window, written into outSums /
 * outDiffs (cleared first); how many. `windowsOf(slot, e)` is the slot's window at the split with
 * e queens on even squares (null: an empty one), over the splits where the bounds hold (as
 * colourBoundsHold left them).
 */
function markDiagonals(
  n: number, sums: Int32Array, diffs: Int32Array, outSums: Int32Array, outDiffs: Int32Array, windowsOf: (slot: number, e: number) => Window | null,
): number {
  const span = 2 * n - 1, centre = span >> 1;
  const diffParity = (n - 1) & 1;
  let added = 0;
  outSums.fill(0);
  outDiffs.fill(0);
  const feasible: number[] = [];
  for (let t = nodeTLow; t <= nodeTHigh; t++) {
    const e = 2 * t + nodeRo - nodeCe;
    if (holdsAt(e, nodeLeft - e)) feasible.push(e);
  }
  for (let slot = 0; slot < 4; slot++) {
    const family = slot >> 1, colour = slot & 1;
    const set = family === 0 ? sums : diffs, out = family === 0 ? outSums : outDiffs;
    const parity = family === 0 ? colour : diffParity ^ colour;
    const windows = feasible.map((e) => windowsOf(slot, e));
    for (let k = parity; k < span; k += 2) {
      if (((set[k >> 5] >>> (k & 31)) & 1) === 0) continue;
      const q = (k - centre) * (k - centre);
      if (!windows.some((w) => w !== null && inWindow(k, q, w))) {
        out[k >> 5] |= 1 << (k & 31);
        added++;
      }
    }
  }
  return added;
}

/** A slot's figures at a split with e queens on even squares: its queens m, the other colour's mo, and the slots' numbers. */
function splitOf(slot: number, e: number) {
  const family = slot >> 1, colour = slot & 1, o = nodeLeft - e;
  return {
    family, o, m: colour === 0 ? e : o, mo: colour === 0 ? o : e, me: slot, other: slot ^ 1,
    target: family === 0 ? nodeSum : nodeDiff, half: nodeMoment / 2,
  };
}

/**
 * As the kernel's colourForbidden (solve on the 64-bit path, right after colourBoundsHold held):
 * writes the diagonals no t leaves room for into outSums / outDiffs (cleared first); how many.
 * The twin tests each usable diagonal against each t's window; the kernel builds the same sets as masks.
 */
export function colourForbidden(n: number, sums: Int32Array, diffs: Int32Array, outSums: Int32Array, outDiffs: Int32Array): number {
  // Per feasible split with a queen of this colour, the window a diagonal must lie in (the kernel's masks).
  const windowsOf = (slot: number, e: number): Window | null => {
    const { family, o, m, mo, me, other, target, half } = splitOf(slot, e);
    if (m === 0) return null;
    const f = 2 * (family ^ 1);
    return [
      target - high(other, 0, mo) - high(me, 0, m - 1),
      target - low(other, 0, mo) - low(me, 0, m - 1),
      half - (high(f, 1, e) + high(f + 1, 1, o)) - high(other, 1, mo) - high(me, 1, m - 1),
      half - (low(f, 1, e) + low(f + 1, 1, o)) - low(other, 1, mo) - low(me, 1, m - 1),
    ];
  };
  return markDiagonals(n, sums, diffs, outSums, outDiffs, windowsOf);
}

/**
 * As the kernel's colourMandatory (solve on the 64-bit path, after colourBoundsHold held and
 * colourForbidden took nothing away, on the same node): writes the usable diagonals that every
 * t keeping the bounds needs into outSums / outDiffs (cleared first); how many. A diagonal is
 * needed at a t when taking it out of the usable set breaks one of that t's bounds: its colour
 * then has fewer diagonals than queens, or the next index (squared distance) in its place pushes
 * a sum or the moment past its target. So every completion puts a queen on it. The twin tests
 * each usable diagonal against each t; the kernel builds the same sets as masks.
 */
export function colourMandatory(n: number, sums: Int32Array, diffs: Int32Array, outSums: Int32Array, outDiffs: Int32Array): number {
  const ANY: Window = [-Infinity, Infinity, -Infinity, Infinity];
  // Per feasible split, the window of the diagonals that may go without breaking a bound (null: none may); the needed lie in none.
  const windowsOf = (slot: number, e: number): Window | null => {
    const { o, m, mo, me, other, target, half } = splitOf(slot, e);
    const count = COUNTS[me];
    if (m === 0) return ANY; // no queen of this colour needs it
    if (count - 1 < m) return null;
    const near = low(0, 1, e) + low(1, 1, o) + low(2, 1, e) + low(3, 1, o);
    const far = high(0, 1, e) + high(1, 1, o) + high(2, 1, e) + high(3, 1, o);
    const nextIndex = low(me, 0, m + 1) - low(me, 0, m), prevIndex = low(me, 0, count - m) - low(me, 0, count - m - 1);
    const nextDist = low(me, 1, m + 1) - low(me, 1, m), prevDist = low(me, 1, count - m) - low(me, 1, count - m - 1);
    return [
      nextIndex - (target - low(other, 0, mo) - low(me, 0, m)),
      prevIndex + (high(me, 0, m) + high(other, 0, mo) - target),
      nextDist - (half - near), // the smallest squared distance that may go
      prevDist + (far - half), // the largest
    ];
  };
  return markDiagonals(n, sums, diffs, outSums, outDiffs, windowsOf);
}
