// Twin of assembly/min-conflicts-bits.ts: the bit helpers and the draws of min-conflicts
// (src/engine/ts/min-conflicts.ts), apart so that file stays readable. Bitsets are
// Uint32Array words here (bit k: word k / 32, bit k % 32), the same bits as the kernel's
// bytes on a little-endian machine, and the same answers on any machine.
import type { Random } from "./rng.js";

/** Bit k of a bitset. */
export function bitAt(bits: Uint32Array, k: number): number {
  return (bits[k >>> 5] >>> (k & 31)) & 1;
}

export function setBit(bits: Uint32Array, k: number): void {
  bits[k >>> 5] |= 1 << (k & 31);
}

/** Bits k .. k + 31 of a bitset, bit k lowest (it reads the word after bit k + 31's when k % 32 > 0). */
export function bits32(bits: Uint32Array, k: number): number {
  const i = k >>> 5;
  const s = k & 31;
  return s === 0 ? bits[i] : ((bits[i] >>> s) | (bits[i + 1] << (32 - s))) >>> 0;
}

/** Columns first .. first + 31 free in their row, as bits: not taken (`used`), nor on a taken sum diagonal (bits s on) or diff one (bits d on). */
export function openColumns(used: Uint32Array, first: number, sum: Uint32Array, s: number, diff: Uint32Array, d: number): number {
  return ~(used[first >>> 5] | bits32(sum, s) | bits32(diff, d)) >>> 0;
}

/** The first set bit of `open` (not 0) at or after bit `from`, going round. */
export function firstFrom(open: number, from: number): number {
  const turned = from === 0 ? open : ((open >>> from) | (open << (32 - from))) >>> 0;
  return (31 - Math.clz32(turned & -turned) + from) & 31;
}

/** Set bits of a 32-bit word (the kernel's popcnt). */
export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

let low = 0; // the low word of the last product (drawGroup's 5 bits)

/** The high word of x k for a fresh 32-bit x, the rare biased low words redrawn (1 <= k < 2^31); its low word in `low`. */
function product(random: Random, k: number): number {
  let x = random.nextU32();
  low = Math.imul(x, k) >>> 0;
  if (low < k) {
    const floor = (4294967296 - k) % k; // 2^32 mod k
    while (low < floor) {
      x = random.nextU32();
      low = Math.imul(x, k) >>> 0;
    }
  }
  // The high word of x k, exactly: x = xh 2^16 + xl and xh k = a 2^16 + b give
  // x k = a 2^32 + (b 2^16 + xl k), the bracket below 2^49 (every double here is exact).
  const p1 = (x >>> 16) * k;
  const a = Math.floor(p1 / 65536);
  return a + Math.floor(((p1 - a * 65536) * 65536 + (x & 0xffff) * k) / 4294967296);
}

/** A uniform integer in [0, k), 1 <= k < 2^31: the twin's multiply-shift, exact in doubles. */
export function draw(random: Random, k: number): number {
  return product(random, k);
}

/** 32 g + o: g uniform in [0, k) (as draw), o in [0, 32) from the next 5 bits of the same product (1 <= k < 2^26). */
export function drawGroup(random: Random, k: number): number {
  const g = product(random, k);
  return g * 32 + (low >>> 27);
}
