// The coordinator's memory of a run (internal): bytes per part, not objects. Each part's
// accepted counts sit in one BigUint64Array (a count of 2^64 or more, n = 32 only, in a small
// map beside it), with the worker that counted it and its state; the total is summed from
// them once at the end. The workers are named once each.

/** A part's state: nothing accepted yet, one replica in (waiting for a second), accepted. */
export const PENDING = 0, ONE_IN = 2, ACCEPTED = 1;

export class Tally {
  readonly state: Uint8Array;
  /** The worker (index into `names`) whose count was accepted, -1 for the coordinator's own. */
  readonly workerOf: Int32Array;
  /** With replicas: the second worker that gave the same count. */
  readonly secondOf: Int32Array | undefined;
  private readonly values: BigUint64Array;
  private readonly big = new Map<number, bigint>();
  readonly names: string[] = [];
  private readonly byName = new Map<string, number>();
  accepted = 0;

  constructor(readonly parts: number, readonly fields: number, replicas: number) {
    this.state = new Uint8Array(parts);
    this.workerOf = new Int32Array(parts).fill(-1);
    this.secondOf = replicas > 1 ? new Int32Array(parts).fill(-1) : undefined;
    this.values = new BigUint64Array(parts * fields);
  }

  worker(name: string): number {
    let i = this.byName.get(name);
    if (i === undefined) { i = this.names.length; this.names.push(name); this.byName.set(name, i); }
    return i;
  }

  /** Stores part `p`'s counts (state and workers set by the caller). */
  put(p: number, counts: readonly bigint[]): void {
    for (let f = 0; f < this.fields; f++) {
      const at = p * this.fields + f, v = counts[f];
      if (v < 1n << 64n) { this.values[at] = v; this.big.delete(at); } else { this.values[at] = 0n; this.big.set(at, v); }
    }
  }

  get(p: number): bigint[] {
    const out: bigint[] = [];
    for (let f = 0; f < this.fields; f++) {
      const at = p * this.fields + f;
      out.push(this.big.get(at) ?? this.values[at]);
    }
    return out;
  }

  same(p: number, counts: readonly bigint[]): boolean {
    return this.get(p).every((v, f) => v === counts[f]);
  }

  accept(p: number, counts: readonly bigint[], worker: number): void {
    this.put(p, counts);
    if (this.state[p] !== ACCEPTED) this.accepted++;
    this.state[p] = ACCEPTED;
    this.workerOf[p] = worker;
  }

  /** Every field summed over the accepted parts. */
  sums(): bigint[] {
    const sums = new Array<bigint>(this.fields).fill(0n);
    // Numbers while the sums stay exact (every part's count below 2^53 and their sum too), BigInts beyond.
    for (let f = 0; f < this.fields; f++) {
      let small = 0, total = 0n;
      for (let p = 0; p < this.parts; p++) {
        const at = p * this.fields + f;
        const big = this.big.get(at);
        const v = this.values[at];
        if (big === undefined && v < 1n << 52n) {
          small += Number(v);
          if (small >= 2 ** 52) { total += BigInt(small); small = 0; }
        } else total += big ?? v;
      }
      sums[f] = total + BigInt(small);
    }
    return sums;
  }
}
