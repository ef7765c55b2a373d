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

/** A fresh 32-bit x whose product with k is not in the rare biased low range (Lemire's rejection; 1 <= k < 2^31). */
function accepted(random: Random, k: number): number {
  let x = random.nextU32();
  if ((Math.imul(x, k) >>> 0) < k) {
    const floor = (4294967296 - k) % k; // 2^32 mod k
    while ((Math.imul(x, k) >>> 0) < floor) x = random.nextU32();
  }
  return x;
}

// The high word of x k (x < 2^32, k < 2^31) from its exact low word: the double x * k, and
// its difference with the low word, are each within 2^10 of the truth, far below 2^31, so
// the rounded quotient by 2^32 is the high word exactly.
const highWord = (x: number, k: number, low: number): number => Math.round((x * k - low) / 4294967296);

/** A uniform integer in [0, k), 1 <= k < 2^31: the twin's multiply-shift, exact in doubles. */
export function draw(random: Random, k: number): number {
  const x = accepted(random, k);
  return highWord(x, k, Math.imul(x, k) >>> 0);
}

/** 32 g + o: g uniform in [0, k) (as draw), o in [0, 32) from the next 5 bits of the same product (1 <= k < 2^26). */
export function drawGroup(random: Random, k: number): number {
  const x = accepted(random, k);
  const low = Math.imul(x, k) >>> 0;
  return highWord(x, k, low) * 32 + (low >>> 27);
}
