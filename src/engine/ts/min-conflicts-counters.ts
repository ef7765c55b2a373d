// Twin of assembly/min-conflicts-counters.ts (read its header): the 2-bit saturating
// diagonal counters of min-conflicts from n = 2^22 (NARROW_FROM), 16 to a 32-bit word, a
// field of 3 meaning "3 or more" with the exact count in an overflow list. The u8 counters
// below 2^22 stay in src/engine/ts/min-conflicts.ts, which calls these only for 2-bit ones.
import { OVERFLOW_CAPACITY } from "./min-conflicts-params.js";

/** A try restarts when a queen at rest stands on a diagonal holding more than this (the u8 counters' limit, less a trial's 2). */
export const CROWDED = 250;

/** The diagonals holding more than 2 queens: key 2 d + set (set 0: sums, 1: diffs) and queens. */
export class OverflowList {
  readonly keys = new Uint32Array(OVERFLOW_CAPACITY);
  readonly counts = new Int32Array(OVERFLOW_CAPACITY);
  count = 0;
  /** A diagonal past 2 found the list full since the last reset: the try must restart. */
  full = false;

  reset(): void {
    this.count = 0;
    this.full = false;
  }

  find(key: number): number {
    for (let k = 0; k < this.count; k++) if (this.keys[k] === key) return k;
    return -1;
  }

  /** Add delta to the queens of key's entry (made with 3 if there is none); the new count (3 if the list is full). */
  bump(key: number, delta: number): number {
    let k = this.find(key);
    if (k < 0) {
      if (this.count === OVERFLOW_CAPACITY) {
        this.full = true;
        return 3;
      }
      k = this.count++;
      this.keys[k] = key;
      this.counts[k] = 3;
      return 3;
    }
    const count = this.counts[k] + delta;
    if (count > 2) {
      this.counts[k] = count;
    } else { // back to 2: the field says it, the entry goes (the last moves into its place)
      this.count--;
      this.keys[k] = this.keys[this.count];
      this.counts[k] = this.counts[this.count];
    }
    return count;
  }
}

/** One queen more on diagonal d of the 2-bit counters `words` (set 0: sums, 1: diffs); the queens it held before. */
export function addOne(words: Uint32Array, set: number, d: number, overflow: OverflowList): number {
  const i = d >>> 4;
  const shift = (d & 15) << 1;
  const w = words[i];
  const f = (w >>> shift) & 3;
  const key = d * 2 + set;
  if (f < 3) {
    words[i] = w + (1 << shift);
    if (f === 2) overflow.bump(key, 1);
    return f;
  }
  return overflow.bump(key, 1) - 1;
}

/** One queen less on diagonal d; the queens it holds after. */
export function removeOne(words: Uint32Array, set: number, d: number, overflow: OverflowList): number {
  const i = d >>> 4;
  const shift = (d & 15) << 1;
  const w = words[i];
  const f = (w >>> shift) & 3;
  if (f < 3) {
    words[i] = w - (1 << shift);
    return f - 1;
  }
  const left = overflow.bump(d * 2 + set, -1);
  if (left === 2) words[i] = w - (1 << shift);
  return left;
}

/** Queens on diagonal d, exact only up to 2 (3 means 3 or more). */
export function fieldAt(words: Uint32Array, d: number): number {
  return (words[d >>> 4] >>> ((d & 15) << 1)) & 3;
}

/** Queens on diagonal d, exact. */
export function countAt(words: Uint32Array, set: number, d: number, overflow: OverflowList): number {
  const f = fieldAt(words, d);
  if (f < 3) return f;
  const k = overflow.find(d * 2 + set);
  return k < 0 ? 3 : overflow.counts[k];
}

/** Word w of the bits in `words` to 32 fields of 0 or 1 in words 2w and 2w + 1 (top down, only words already read are overwritten). */
export function expandNarrow(words: Uint32Array, w: number): void {
  const bits = words[w];
  words[2 * w] = spread16(bits & 0xffff);
  words[2 * w + 1] = spread16(bits >>> 16);
}

/** Bit k of a 16-bit value to bit 2k, by halving the gaps. */
function spread16(x: number): number {
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  return ((x | (x << 1)) & 0x55555555) >>> 0;
}
