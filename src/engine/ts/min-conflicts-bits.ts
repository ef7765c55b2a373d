// Twin of assembly/min-conflicts-bits.ts: the bit helpers and the draws of min-conflicts
// (src/engine/ts/min-conflicts.ts), apart so that file stays readable.
import type { Random } from "./rng.js";

/** Bit k of a bitset (byte k / 8, bit k % 8). */
export function bitAt(bits: Uint8Array, k: number): number {
  return (bits[k >>> 3] >>> (k & 7)) & 1;
}

export function setBit(bits: Uint8Array, k: number): void {
  bits[k >>> 3] |= 1 << (k & 7);
}

/** A uniform integer in [0, k), 1 <= k < 2^31: the twin's multiply-shift (the high word of a 32 x 32-bit product), exact in doubles. */
export function draw(random: Random, k: number): number {
  let x = random.nextU32();
  let low = Math.imul(x, k) >>> 0;
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
