// The bit helpers and the draws of min-conflicts (assembly/min-conflicts.ts), apart so
// that file stays readable. Twin: src/engine/ts/min-conflicts-bits.ts.
import { fillRandom, seedRandom } from "./rng";

/** Raw outputs of the generator made at a time (in locals, so faster than one by one through its globals). */
const BATCH: i32 = 256;
const batch: usize = memory.data(BATCH << 2, 16);
let taken: i32 = 0;

/** Seed the generator; the outputs come from batches from now on, in the same order. */
export function seedBatches(seed: u32): void {
  seedRandom(seed);
  fillRandom(batch, BATCH);
  taken = 0;
}

/**
 * The batch drawn: the next BATCH outputs, 64 at a time (the same sequence). In one call, the
 * optimiser copies the generator's loop into every draw of the kernels, 3 KB of Wasm more.
 */
function refill(): void {
  taken = 0;
  for (let i = 0; i < BATCH; i += 64) fillRandom(batch + (<usize>i << 2), 64);
}

/** The next raw output, as nextU32 would give it. */
@inline function nextU32(): u32 {
  if (taken == BATCH) refill();
  const x = load<u32>(batch + (<usize>taken << 2));
  taken++;
  return x;
}

/** Bit `k` of the bitset at `bits` (byte k / 8, bit k % 8). */
@inline export function bitAt(bits: usize, k: i32): i32 {
  return (<i32>load<u8>(bits + <usize>(k >>> 3)) >>> (k & 7)) & 1;
}

@inline export function setBit(bits: usize, k: i32): void {
  const at = bits + <usize>(k >>> 3);
  store<u8>(at, <u8>(<i32>load<u8>(at) | (<i32>1 << (k & 7))));
}

/** Bits k .. k + 31 of the bitset at `bits`, bit k lowest (one unaligned 8-byte load; it may read 7 bytes past bit k + 31). */
@inline export function bits32(bits: usize, k: i32): u32 {
  return <u32>(load<u64>(bits + <usize>(k >>> 3)) >>> <u64>(k & 7));
}

/**
 * Columns first .. first + 31 free in their row, as bits: not taken (the column bits at
 * `used`), nor on a taken sum diagonal (bits s on at `sum`) or diff one (bits d on at
 * `diff`). Three loads that need nothing but the draw, so many rows' overlap.
 */
@inline export function openColumns(used: usize, first: i32, sum: usize, s: i32, diff: usize, d: i32): u32 {
  return ~(load<u32>(used + <usize>(first >>> 3)) | bits32(sum, s) | bits32(diff, d));
}

/** Word w of the bits at `at` to 32 counters of 0 or 1 from byte 32 w on (one 8-byte store per byte of bits). */
@inline export function expandWord(at: usize, w: i32): void {
  const bits = load<u32>(at + (<usize>w << 2));
  const to = at + (<usize>w << 5);
  for (let q = 0; q < 4; q++) store<u64>(to + (<usize>q << 3), bitsToBytes(<u8>(bits >>> (q << 3))));
}

/** The first set bit of `open` (not 0) at or after bit `from`, going round. */
@inline export function firstFrom(open: u32, from: i32): i32 {
  return (ctz(rotr<u32>(open, <u32>from)) + from) & 31;
}

/** x k for a fresh 32-bit x: Lemire's multiply-shift, the rare biased low words redrawn (1 <= k < 2^31). */
@inline function product(k: u32): u64 {
  let m = <u64>nextU32() * <u64>k;
  if (<u32>m < k) {
    const floor: u32 = (<u32>0 - k) % k; // 2^32 mod k
    while (<u32>m < floor) m = <u64>nextU32() * <u64>k;
  }
  return m;
}

/** A uniform integer in [0, k), 1 <= k < 2^31. */
@inline export function draw(k: u32): u32 {
  return <u32>(product(k) >>> 32);
}

/** 32 g + o: g uniform in [0, k) (as draw), o in [0, 32) from the next 5 bits of the same product (1 <= k < 2^26). */
@inline export function drawGroup(k: u32): i32 {
  return <i32>(product(k) >>> 27);
}

/** Eight bits to eight 0/1 bytes: bit k of `bits` becomes byte k (little-endian), by halving the gaps. */
@inline export function bitsToBytes(bits: u8): u64 {
  let x = <u64>bits;
  x = (x | (x << 28)) & 0x0000000F_0000000F; // bits 4..7 to 32..35
  x = (x | (x << 14)) & 0x00030003_00030003; // then 2, 3 of each half up by 14
  return (x | (x << 7)) & 0x01010101_01010101; // then the upper bit of each pair up by 7: bit k at 8k
}
