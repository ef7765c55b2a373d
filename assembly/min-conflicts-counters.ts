// The diagonal counters of min-conflicts (assembly/min-conflicts.ts), in one of two widths:
// a u8 per diagonal below n = 2^22 (NARROW_FROM), and from there 2-bit saturating counters,
// 16 to a 32-bit word, with an overflow list holding the exact count of the rare diagonal
// past 2 (its field reads 3). After the greedy construction a diagonal almost never holds
// more than 2 queens, so the list stays nearly empty, and the counters take n / 2 bytes
// per set instead of 2n: at n = 10^8, 100 MB instead of 400 MB (fewer pages mapped, fewer
// cache and TLB misses in repair). Both widths count exactly, so the search is the same
// (same tries, steps, board), but for one case never met: a full list restarts the try.
// Twin: src/engine/ts/min-conflicts-counters.ts.

import { expandWord } from "./min-conflicts-bits";
import { OVERFLOW_CAPACITY } from "./min-conflicts-params";

/** A try restarts when a queen at rest stands on a diagonal holding more than this (the u8 counters' limit, less a trial's 2). */
export const CROWDED: i32 = 250;

let narrow: bool = false; // 2-bit counters (else u8)
let overflow: usize = 0; // u32 pairs [OVERFLOW_CAPACITY]: (2 d + set, queens on it), for diagonals past 2
let overflowCount: i32 = 0;
let overflowFull: bool = false;

/** Pick the width for this job (and the overflow list's place, for 2-bit counters). */
export function useCounters(twoBit: bool, overflowAt: usize): void {
  narrow = twoBit;
  overflow = overflowAt;
  resetOverflow();
}

/** Empty the overflow list (the counters are rebuilt from bits). */
export function resetOverflow(): void {
  overflowCount = 0;
  overflowFull = false;
}

/** Whether a diagonal past 2 found the overflow list full since the last reset: the try must restart. */
export function countersFailed(): bool {
  return overflowFull;
}

/** The entry of key (2 d + set), or -1. */
function findOverflow(key: u32): i32 {
  for (let k = 0; k < overflowCount; k++) {
    if (load<u32>(overflow + (<usize>k << 3)) == key) return k;
  }
  return -1;
}

/** Add delta to the queens of key's entry (made with 3 if there is none and delta > 0); the new count (3 if the list is full). */
function bumpOverflow(key: u32, delta: i32): i32 {
  let k = findOverflow(key);
  if (k < 0) {
    if (overflowCount == OVERFLOW_CAPACITY) {
      overflowFull = true;
      return 3;
    }
    k = overflowCount++;
    store<u32>(overflow + (<usize>k << 3), key);
    store<i32>(overflow + (<usize>k << 3) + 4, 3);
    return 3;
  }
  const at = overflow + (<usize>k << 3) + 4;
  const count = load<i32>(at) + delta;
  if (count > 2) {
    store<i32>(at, count);
  } else { // back to 2: the field says it, the entry goes (the last moves into its place)
    overflowCount--;
    store<u64>(overflow + (<usize>k << 3), load<u64>(overflow + (<usize>overflowCount << 3)));
  }
  return count;
}

@inline function wordOf(base: usize, d: i32): usize {
  return base + ((<usize>d >>> 4) << 2);
}

/** One queen more on diagonal d of the set at base (set 0: sums, 1: diffs); the queens it held before. */
@inline function addOne(base: usize, set: u32, d: i32): i32 {
  if (!narrow) {
    const s = <i32>load<u8>(base + <usize>d);
    store<u8>(base + <usize>d, <u8>(s + 1));
    return s;
  }
  const at = wordOf(base, d);
  const shift = <u32>(d & 15) << 1;
  const w = load<u32>(at);
  const f = <i32>((w >>> shift) & 3);
  if (f < 3) {
    store<u32>(at, w + (<u32>1 << shift));
    if (f == 2) bumpOverflow((<u32>d << 1) | set, 1);
    return f;
  }
  return bumpOverflow((<u32>d << 1) | set, 1) - 1;
}

/** One queen less on diagonal d of the set at base; the queens it holds after. */
@inline function removeOne(base: usize, set: u32, d: i32): i32 {
  if (!narrow) {
    const s = <i32>load<u8>(base + <usize>d) - 1;
    store<u8>(base + <usize>d, <u8>s);
    return s;
  }
  const at = wordOf(base, d);
  const shift = <u32>(d & 15) << 1;
  const w = load<u32>(at);
  const f = <i32>((w >>> shift) & 3);
  if (f < 3) {
    store<u32>(at, w - (<u32>1 << shift));
    return f - 1;
  }
  const left = bumpOverflow((<u32>d << 1) | set, -1);
  if (left == 2) store<u32>(at, w - (<u32>1 << shift));
  return left;
}

/** Queens on diagonal d, exact only up to 2 (3 means 3 or more). */
@inline function fieldAt(base: usize, d: i32): i32 {
  if (!narrow) return <i32>load<u8>(base + <usize>d);
  return <i32>((load<u32>(wordOf(base, d)) >>> (<u32>(d & 15) << 1)) & 3);
}

/** Queens on diagonal d, exact. */
function countAt(base: usize, set: u32, d: i32): i32 {
  const f = fieldAt(base, d);
  if (!narrow || f < 3) return f;
  const k = findOverflow((<u32>d << 1) | set);
  return k < 0 ? 3 : load<i32>(overflow + (<usize>k << 3) + 4);
}

/** Put a queen on sum diagonal s and diff diagonal d; the collisions it makes (0 to 2). */
@inline export function addQueenOn(sum: usize, s: i32, diff: usize, d: i32): i32 {
  return <i32>(addOne(sum, 0, s) != 0) + <i32>(addOne(diff, 1, d) != 0);
}

/** Take a queen off sum diagonal s and diff diagonal d; the collisions that go with it (0 to 2). */
@inline export function removeQueenOn(sum: usize, s: i32, diff: usize, d: i32): i32 {
  return <i32>(removeOne(sum, 0, s) != 0) + <i32>(removeOne(diff, 1, d) != 0);
}

/** Whether a queen on sum diagonal s and diff diagonal d shares one of them. */
@inline export function sharedOn(sum: usize, s: i32, diff: usize, d: i32): bool {
  return fieldAt(sum, s) > 1 || fieldAt(diff, d) > 1;
}

/** Whether a queen on s and d stands on a diagonal holding more than CROWDED queens. */
export function crowdedOn(sum: usize, s: i32, diff: usize, d: i32): bool {
  return countAt(sum, 0, s) > CROWDED || countAt(diff, 1, d) > CROWDED;
}

/** Word w of the bits at `at` to 32 counters of 0 or 1, at byte 32 w (u8) or 8 w (2-bit): top down, only words already read are overwritten. */
@inline export function expandCounters(at: usize, w: i32): void {
  if (narrow) store<u64>(at + (<usize>w << 3), spreadBits(load<u32>(at + (<usize>w << 2))));
  else expandWord(at, w);
}

/** Bit k of a 32-bit word to bit 2k of a u64 (a field of 0 or 1 per bit), by halving the gaps. */
@inline function spreadBits(bits: u32): u64 {
  let x = <u64>bits;
  x = (x | (x << 16)) & 0x0000FFFF_0000FFFF;
  x = (x | (x << 8)) & 0x00FF00FF_00FF00FF;
  x = (x | (x << 4)) & 0x0F0F0F0F_0F0F0F0F;
  x = (x | (x << 2)) & 0x33333333_33333333;
  return (x | (x << 1)) & 0x55555555_55555555;
}
