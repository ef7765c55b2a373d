// The bit helpers and the draws of min-conflicts (assembly/min-conflicts.ts), apart so
// that file stays readable. Twin: src/engine/ts/min-conflicts-bits.ts.
import { fillRandom, seedRandom } from "./rng";

/** Raw outputs of the generator made at a time (in locals, so faster than one by one through its globals). */
const BATCH: i32 = 256;
/** Outputs made beyond the batch, so that the next AHEAD can be read before they are drawn (peekGroup). */
export const AHEAD: i32 = 64;
const batch: usize = memory.data((BATCH + AHEAD) << 2, 16);
let taken: i32 = 0;

/** Seed the generator; the outputs come from batches from now on, in the same order. */
export function seedBatches(seed: u32): void {
  seedRandom(seed);
  fillRandom(batch, BATCH + AHEAD);
  taken = 0;
}

/** The batch drawn: the AHEAD outputs past it move to the front, the next BATCH follow them. */
function refill(): void {
  memory.copy(batch, batch + (<usize>BATCH << 2), <usize>AHEAD << 2);
  fillRandom(batch + (<usize>AHEAD << 2), BATCH);
  taken = 0;
}

/** The next raw output, as nextU32 would give it. */
@inline function nextU32(): u32 {
  if (taken == BATCH) refill();
  const x = load<u32>(batch + (<usize>taken << 2));
  taken++;
  return x;
}

/** What drawGroup(k) would give `i` draws from now (0 <= i < AHEAD), were no draw before it redrawn: a guess, drawing nothing. */
@inline export function peekGroup(k: u32, i: i32): i32 {
  return <i32>((<u64>load<u32>(batch + (<usize>(taken + i) << 2)) * <u64>k) >>> 27);
}

/**
 * Load, one after the other, the three words (openColumns) of each group draw expected
 * `rows` to 2 `rows` rows after row r (guessed from the generator's next outputs, at two
 * draws a row; 4 rows <= AHEAD), so that they are in cache when drawn: some 100 misses at
 * once, where a row alone waits for its own 6. Their xor is returned, for the caller to
 * keep (so the loads stay). The guesses change nothing but the cache: the search is the same.
 */
export function touchAhead(k: u32, rows: i32, used: usize, sum: usize, diff: usize, n: i32, r: i32): u32 {
  let sink: u32 = 0;
  for (let i = 2 * rows; i < 4 * rows; i++) {
    const f = peekGroup(k, i) & ~31;
    const at = r + (i >> 1);
    sink ^= load<u32>(used + <usize>(f >>> 3)) ^ load<u32>(sum + <usize>((at + f) >>> 3));
    sink ^= load<u32>(diff + <usize>((f + n - 1 - at) >>> 3));
  }
  return sink;
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
