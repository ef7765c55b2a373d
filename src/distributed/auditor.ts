// The coordinator's audit of one run (internal): which accepted results it counts again itself,
// and what a count that differs means. Three rules choose them:
// - plausibility: each result is scored against the coordinator's own estimate of the part
//   (src/count/plausibility.ts, probes drawn from node:crypto, so no worker knows what it is
//   judged against); a result with a count that can be known exactly and is not, or (where
//   the estimate is precise) past FAR_OFF standard errors, is counted again at once;
// - each worker's least plausible result is counted again once every part is in, so the
//   largest lie a worker tells is the likeliest caught, and every worker is checked;
// - a random sample of `fraction` of the results (AuditSampler), so a lie small enough to
//   hide in the estimate's noise is still caught with a known chance (auditCatchChance).
// One count that differs makes its worker suspect: every result of it is counted again.
import { randomInt } from "node:crypto";
import { countPart, type Split } from "../count/split.js";
import { partPlausibility } from "../count/plausibility.js";
import { AuditSampler } from "./audit.js";
import { ACCEPTED, PENDING, Tally } from "./tally.js";

/** Recounted at once: counts this many standard errors from the estimate (honest ones measured at 0 to about 4), where the estimate is precise enough to say so. */
export const FAR_OFF = 12;

/** Probes a part needs before FAR_OFF is trusted: with fewer, the probes' spread understates the error (at 16 a part, 4% of honest parts of n = 17 scored past 8). */
export const PRECISE_PROBES = 256;

/** Notices of implausible results a run prints (the recounts go on without one). */
const MAX_NOTICES = 5;

/** Probes per part: about 2^21 a run (a few seconds of the coordinator's time), 16 to 2048 a part. */
export function probesPerPart(parts: number): number {
  return Math.max(16, Math.min(2048, Math.floor(2 ** 21 / Math.max(1, parts))));
}

/** A generator of [0, 1) seeded from node:crypto (xorshift128+ would do as well; this is xorshift32 per run). */
function secretRandom(): () => number {
  let state = randomInt(1, 2 ** 32 - 1) >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
}

type Recount = { part: number; other?: { counts: bigint[]; worker: number } };

export type AuditorSetup = {
  name: string; parts: Split; tally: Tally; fraction: number;
  notice: (message: string) => void; signal: AbortSignal | undefined;
};

export class Auditor {
  audited = 0;
  mismatches = 0;
  onDone: () => void = () => {};
  private readonly checked: Uint8Array;
  private readonly recounts: Recount[] = [];
  private recounting: Promise<void> | undefined;
  private error: unknown;
  private readonly suspects = new Set<number>();
  private readonly sampler: AuditSampler;
  private readonly random = secretRandom();
  private readonly probes: number;
  private toppedUp = false;
  private implausible = 0;

  constructor(private readonly s: AuditorSetup) {
    this.checked = new Uint8Array(s.parts.count);
    this.sampler = new AuditSampler(s.fraction);
    this.probes = probesPerPart(s.parts.count);
  }

  /** The audit's failure (the coordinator's own count could not be made), thrown where the run goes on. */
  rethrow(): void {
    if (this.error) throw this.error;
  }

  isSuspect(worker: number): boolean {
    return this.suspects.has(worker);
  }

  /**
   * Part p's result, counted by `worker`, was accepted: scored, counted again at once when far
   * off, drawn for the sample, and kept as the worker's least plausible when it is.
   */
  accepted(p: number, worker: number, counts: readonly bigint[]): void {
    if (this.s.fraction > 0 && worker >= 0) {
      const { score, why } = partPlausibility(this.s.parts, p, counts, this.random, this.probes);
      if (score === Infinity || (this.probes >= PRECISE_PROBES && score > FAR_OFF)) {
        if (++this.implausible <= MAX_NOTICES) {
          this.s.notice(`queue ${this.s.name}: part ${p} from worker ${this.s.tally.names[worker] ?? "?"} is implausible (${why}): the coordinator counts it itself${this.implausible === MAX_NOTICES ? " (further ones without a notice)" : ""}`);
        }
        this.queue({ part: p });
      } else if (this.sampler.offer(worker, p, score)) this.queue({ part: p });
    }
    if (this.suspects.has(worker)) this.queue({ part: p });
  }

  queue(r: Recount): void {
    this.recounts.push(r);
    this.recounting ??= this.recountAll().catch((e) => { this.error = e; }).finally(() => { this.recounting = undefined; this.onDone(); });
  }

  private async recountAll(): Promise<void> {
    const t = this.s.tally;
    while (this.recounts.length > 0) {
      const { part: p, other } = this.recounts.shift()!;
      if (this.checked[p] && !other) continue;
      const own = this.s.parts.countsOf(await countPart(this.s.parts.at(p), { engine: "wasm", signal: this.s.signal }));
      this.audited++;
      this.checked[p] = 1;
      const differ: number[] = [];
      if (t.state[p] !== PENDING && !t.same(p, own)) differ.push(t.workerOf[p]);
      if (other && !own.every((v, f) => v === other.counts[f])) differ.push(other.worker);
      if (t.secondOf && t.secondOf[p] >= 0 && differ.includes(t.workerOf[p])) differ.push(t.secondOf[p]);
      this.mismatches += differ.filter((w) => w >= 0).length;
      t.accept(p, own, -1);
      for (const w of differ) if (w >= 0) this.suspect(w, p);
    }
  }

  private suspect(w: number, p: number): void {
    if (this.suspects.has(w)) return;
    this.suspects.add(w);
    const t = this.s.tally;
    this.s.notice(`queue ${this.s.name}: worker ${t.names[w]} gave part ${p} a count that is not the part's (the coordinator counted it itself); every result of ${t.names[w]} is counted again`);
    for (let q = 0; q < t.parts; q++) {
      if (this.checked[q]) continue;
      if (t.workerOf[q] === w || (t.secondOf && t.secondOf[q] === w)) this.recounts.push({ part: q });
    }
  }

  /** Once every part is accepted: each worker's least plausible result not yet counted here is; true when the audit is done too. */
  async finish(): Promise<boolean> {
    this.rethrow();
    if (!this.toppedUp && this.s.fraction > 0) {
      this.toppedUp = true;
      for (const p of this.sampler.leastPlausible()) if (!this.checked[p] && this.s.tally.state[p] === ACCEPTED) this.queue({ part: p });
    }
    if (this.recounting) return false;
    this.rethrow();
    return this.s.tally.accepted >= this.s.tally.parts;
  }

  suspectNames(): string[] {
    return [...this.suspects].map((w) => this.s.tally.names[w]);
  }
}
