// The package's one random generator, bit for bit the same as assembly/rng.ts.
// xoshiro128** (Blackman & Vigna) seeded from a u32 by four splitmix32 outputs;
// a draw in [0, k) masks an output to the smallest power of two above k - 1 and
// rejects values >= k. All arithmetic is 32-bit (Math.imul, >>> 0).

export class Random {
  private s0 = 0;
  private s1 = 0;
  private s2 = 0;
  private s3 = 0;

  constructor(seed: number) {
    let mix = seed >>> 0;
    const splitmix32 = (): number => {
      mix = (mix + 0x9e3779b9) >>> 0;
      let z = mix;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = splitmix32();
    this.s1 = splitmix32();
    this.s2 = splitmix32();
    this.s3 = splitmix32();
  }

  /** The next raw 32-bit output. */
  nextU32(): number {
    const s1 = this.s1;
    const x = Math.imul(s1, 5);
    const result = Math.imul((x << 7) | (x >>> 25), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result;
  }

  /** A uniform integer in [0, k), k >= 1. */
  below(k: number): number {
    const mask = k > 1 ? 0xffffffff >>> Math.clz32(k - 1) : 0;
    let x = (this.nextU32() & mask) >>> 0;
    while (x >= k) x = (this.nextU32() & mask) >>> 0;
    return x;
  }
}

export function randomSequence(seed: number, bound: number, count: number): Uint32Array {
  const random = new Random(seed);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = bound === 0 ? random.nextU32() : random.below(bound);
  return out;
}
