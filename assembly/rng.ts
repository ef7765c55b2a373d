// The package's one random generator, bit for bit the same as src/engine/ts/rng.ts.
// xoshiro128** (Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c),
// its four words seeded from a u32 seed by four splitmix32 outputs.
// A draw in [0, k) masks a 32-bit output down to the smallest power of two above
// k - 1 and rejects values >= k (unbiased; every draw consumes at least one output).

let s0: u32 = 0;
let s1: u32 = 0;
let s2: u32 = 0;
let s3: u32 = 0;
let mixState: u32 = 0;

@inline function splitmix32(): u32 {
  mixState += 0x9E3779B9;
  let z = mixState;
  z = (z ^ (z >>> 16)) * 0x85EBCA6B;
  z = (z ^ (z >>> 13)) * 0xC2B2AE35;
  return z ^ (z >>> 16);
}

/** Seed the generator from a 32-bit seed. */
export function seedRandom(seed: u32): void {
  mixState = seed;
  s0 = splitmix32();
  s1 = splitmix32();
  s2 = splitmix32();
  s3 = splitmix32();
}

/** The next raw 32-bit output. */
@inline export function nextU32(): u32 {
  const result = rotl<u32>(s1 * 5, 7) * 9;
  const t = s1 << 9;
  s2 ^= s0;
  s3 ^= s1;
  s1 ^= s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = rotl<u32>(s3, 11);
  return result;
}

/** The next `count` raw outputs into `out` (a u32 each), as `count` calls of nextU32 give them, the state kept in locals meanwhile. */
export function fillRandom(out: usize, count: i32): void {
  let a = s0, b = s1, c = s2, d = s3;
  for (let i = 0; i < count; i++) {
    store<u32>(out + (<usize>i << 2), rotl<u32>(b * 5, 7) * 9);
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl<u32>(d, 11);
  }
  s0 = a;
  s1 = b;
  s2 = c;
  s3 = d;
}

/** A uniform integer in [0, k), k >= 1 (bitmask with rejection). */
@inline export function below(k: u32): u32 {
  const mask: u32 = k > 1 ? (<u32>0xFFFFFFFF) >>> clz<u32>(k - 1) : 0;
  let x = nextU32() & mask;
  while (x >= k) x = nextU32() & mask;
  return x;
}

/** Fill `count` u32 at `out` with draws in [0, k) (k = 0: raw outputs); for tests. */
export function randomSequence(seed: u32, k: u32, out: usize, count: i32): void {
  seedRandom(seed);
  for (let i = 0; i < count; i++) {
    store<u32>(out + (<usize>i << 2), k == 0 ? nextU32() : below(k));
  }
}
