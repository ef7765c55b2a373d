// The bit helpers and the draws of min-conflicts (assembly/min-conflicts.ts), apart so
// that file stays readable. Twin: src/engine/ts/min-conflicts-bits.ts.
import { nextU32 } from "./rng";

/** Bit `k` of the bitset at `bits` (byte k / 8, bit k % 8). */
@inline export function bitAt(bits: usize, k: i32): i32 {
  return (<i32>load<u8>(bits + <usize>(k >>> 3)) >>> (k & 7)) & 1;
}

@inline export function setBit(bits: usize, k: i32): void {
  const at = bits + <usize>(k >>> 3);
  store<u8>(at, <u8>(<i32>load<u8>(at) | (<i32>1 << (k & 7))));
}

/** A uniform integer in [0, k), 1 <= k < 2^31: Lemire's multiply-shift, redrawing the rare biased low words. */
@inline export function draw(k: u32): u32 {
  let m = <u64>nextU32() * <u64>k;
  if (<u32>m < k) {
    const floor: u32 = (<u32>0 - k) % k; // 2^32 mod k
    while (<u32>m < floor) m = <u64>nextU32() * <u64>k;
  }
  return <u32>(m >>> 32);
}

/** Eight bits to eight 0/1 bytes: bit k of `bits` becomes byte k (little-endian), by halving the gaps. */
@inline export function bitsToBytes(bits: u8): u64 {
  let x = <u64>bits;
  x = (x | (x << 28)) & 0x0000000F_0000000F; // bits 4..7 to 32..35
  x = (x | (x << 14)) & 0x00030003_00030003; // then 2, 3 of each half up by 14
  return (x | (x << 7)) & 0x01010101_01010101; // then the upper bit of each pair up by 7: bit k at 8k
}
