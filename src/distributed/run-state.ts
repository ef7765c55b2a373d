// One count run as its coordinator follows it (internal): its parts' jobs (./queue-run.ts reads
// what finished or failed), each result verified (MAC, identity, digest, bounds) before its
// counts go into the tally, replicas compared, and handed to the audit (./auditor.ts: what the
// coordinator counts again itself). Redis work per part is a constant few commands.
import { checkPartCount, type Part, type Split } from "../count/split.js";
import { rephrased } from "../core/errors.js";
import { JOB_DOMAIN, checkSeal, signed } from "./auth.js";
import { jobId, partOfJobId, type ConstrainedPartJob, type PartJob } from "./keys.js";
import { ACCEPTED, ONE_IN, PENDING, Tally } from "./tally.js";
import { Auditor } from "./auditor.js";
import { QueueRun, type QueueRunSetup } from "./queue-run.js";

/** A part being settled (two replicas disagreed) or recounted: results for it are ignored meanwhile. */
const SETTLING = 3;
/** Jobs added per Redis round trip while enqueueing every part (made a batch at a time). */
const ENQUEUE_BATCH = 250;
/** Extra jobs a part may get when its two replicas came from one worker (then the coordinator counts it). */
const MAX_EXTRA_JOBS = 2;

/**
 * The run's split (src/count/split.ts) holds no parts: part `p` is made when it is needed (a
 * result to check, a job to write or rewrite, a part the audit recounts). A plain run re-derives
 * the part from its identity (derivePart: bounded, the split's index built once per process), so
 * the coordinator holds bytes per part (the tally), not the part objects (~650 bytes each).
 */
type Setup = QueueRunSetup & {
  n: number; parts: Split; runId: string;
  key: Uint8Array | undefined; audit: number; replicas: number;
  /** "required": only results under a worker's own identity key are taken; revoked: identities whose results are counted here instead. */
  identities: "allowed" | "required"; revoked: ReadonlySet<string>;
  signal: AbortSignal | undefined;
};

export class RunState extends QueueRun {
  readonly tally: Tally;
  readonly audit: Auditor;
  protected readonly unitName = "part";
  protected readonly jobName = "part";

  private readonly P: number;
  /** Bits per part: its first (1) and replica (2) jobs' results were read. */
  private readonly read: Uint8Array;
  private readonly extrasRead = new Set<string>();
  private readonly recounted = new Set<number>();
  private readonly extras = new Map<number, number>();

  constructor(private readonly s: Setup) {
    super(s);
    this.P = s.parts.count;
    this.tally = new Tally(this.P, s.parts.fields, s.replicas);
    this.read = new Uint8Array(this.P);
    this.audit = new Auditor({ name: s.name, parts: s.parts, tally: this.tally, fraction: s.audit, notice: s.notice, signal: s.signal });
    this.audit.onDone = () => this.onWake();
  }

  get accepted(): number { return this.tally.accepted; }

  /** Every part accepted, and the audit done (each worker's least plausible result recounted first). */
  async finished(): Promise<boolean> {
    return this.tally.accepted >= this.P && await this.audit.finish();
  }

  // ---- jobs ----------------------------------------------------------------------------

  protected jobData(id: string, p: number, not?: string[]): PartJob | ConstrainedPartJob {
    const { runId, key, name } = this.s;
    const identity = this.s.parts.identity(this.s.parts.at(p)) as PartJob | ConstrainedPartJob;
    return signed(key, JOB_DOMAIN, name, { ...identity, run: runId, job: id, ...(not ? { not } : {}) });
  }

  /** Every part's jobs (both replicas), idempotent: existing job ids are kept as they are. */
  async enqueueAll(): Promise<void> {
    this.extras.clear();
    this.ownJobs = this.P * this.s.replicas;
    // Made a batch at a time: a run of 10^5 parts never holds all its jobs' data at once.
    for (let at = 0; at < this.P; at += ENQUEUE_BATCH) {
      const jobs: { id: string; unit: number }[] = [];
      for (let p = at; p < Math.min(this.P, at + ENQUEUE_BATCH); p++) {
        jobs.push({ id: jobId(p), unit: p });
        if (this.s.replicas > 1) jobs.push({ id: `${jobId(p)}-r1`, unit: p });
      }
      await this.add(jobs);
    }
  }

  protected unitOf(id: string): number | undefined {
    return partOfJobId(id, this.P)?.part;
  }

  private bit(id: string): number {
    const slot = partOfJobId(id, this.P)?.slot;
    return slot === "r0" ? 1 : slot === "r1" ? 2 : 0;
  }

  protected isRead(id: string, p: number): boolean {
    const bit = this.bit(id);
    return bit ? (this.read[p] & bit) !== 0 : this.extrasRead.has(id);
  }

  protected markRead(id: string, p: number): void {
    const bit = this.bit(id);
    if (bit) this.read[p] |= bit; else this.extrasRead.add(id);
  }

  protected clearRead(id: string, p: number): boolean {
    const bit = this.bit(id);
    if (bit && this.read[p] & bit) { this.read[p] &= ~bit; return true; }
    return !bit && this.extrasRead.delete(id);
  }

  protected settled(p: number): boolean {
    return this.tally.state[p] === ACCEPTED;
  }

  protected beforeRound(): void {
    this.audit.rethrow();
  }

  protected pendingIds(): string[] {
    const ids: string[] = [];
    for (let p = 0; p < this.P; p++) {
      if (this.tally.state[p] === ACCEPTED || this.tally.state[p] === SETTLING) continue;
      ids.push(jobId(p));
      if (this.s.replicas > 1) ids.push(`${jobId(p)}-r1`);
      const extra = this.extras.get(p);
      if (extra) ids.push(`${jobId(p)}-x${extra}`);
    }
    return ids;
  }

  // ---- results -------------------------------------------------------------------------

  /** Verifies the result stored for job `id` of `part` and takes it in, or refuses it (counted again once, then the run stops). */
  protected async result(id: string, p: number, text: string): Promise<void> {
    const { n, key, name, runId } = this.s;
    const part = this.s.parts.at(p);
    let value: unknown = text;
    try { value = JSON.parse(text); } catch { /* refused by the checks */ }
    let counts: bigint[], worker: number;
    let revoked = false;
    try {
      const seal = checkSeal(value, { key, identities: this.s.identities, revoked: this.s.revoked, queue: name, runId, job: id, what: `the result for part ${p} of ${this.P} (n = ${n})` });
      revoked = seal.revoked;
      const board = this.s.parts.board;
      counts = this.s.parts.countsOf(checkPartCount(part, value, board.plain ? undefined : `the result for constrained part ${p} of ${this.P} (n = ${n}, board ${board.digest})`));
      worker = this.tally.worker(seal.worker);
    } catch (error) {
      const e = error as Error & { code?: string };
      if (this.tally.state[p] === ACCEPTED || this.tally.state[p] === SETTLING) return; // nothing of it is needed
      if (this.recounted.has(p)) {
        throw rephrased(e, `queue ${name}: ${e.message}, again after counting it afresh (refused; remove the run with \`nqueens runs --remove ${name}\` and look at who writes to this Redis)`);
      }
      this.recounted.add(p);
      this.s.notice(`queue ${name}: ${e.message}; not added: counting part ${p} again`);
      await this.rewrite(id, p);
      return;
    }
    if (revoked) {
      // A revoked identity's result is never taken: the coordinator counts the part itself.
      const state = this.tally.state[p];
      if (state === ACCEPTED || state === SETTLING) return;
      this.tally.state[p] = SETTLING;
      this.s.notice(`queue ${name}: part ${p} was counted by revoked worker ${this.tally.names[worker]}; not added: the coordinator counts it itself`);
      this.audit.queue({ part: p });
      return;
    }
    this.take(p, counts, worker);
  }

  private take(p: number, counts: bigint[], worker: number): void {
    const t = this.tally;
    const state = t.state[p];
    if (state === ACCEPTED || state === SETTLING) return;
    if (this.s.replicas > 1) {
      if (state === PENDING) {
        t.put(p, counts);
        t.workerOf[p] = worker;
        t.state[p] = ONE_IN;
        return;
      }
      // ONE_IN: the second count.
      if (worker === t.workerOf[p]) {
        // The same worker counted both: one more count, by another worker, at most
        // MAX_EXTRA_JOBS times a part; past that (a worker that ignores the exclusion, or only
        // one worker there) the coordinator counts the part itself, so the jobs stay bounded.
        const k = (this.extras.get(p) ?? 0) + 1;
        if (k > MAX_EXTRA_JOBS) {
          t.state[p] = SETTLING;
          this.s.notice(`queue ${this.s.name}: part ${p} was counted again by the same worker ${t.names[worker] ?? "?"} ${k} times (no other worker took it): the coordinator counts it itself`);
          this.audit.queue({ part: p, other: { counts, worker } });
          return;
        }
        this.extras.set(p, k);
        this.ownJobs++;
        const id = `${jobId(p)}-x${k}`;
        void this.add([{ id, unit: p, data: this.jobData(id, p, [t.names[worker]]) }]).catch(() => {});
        return;
      }
      if (!t.same(p, counts)) {
        t.state[p] = SETTLING;
        this.audit.queue({ part: p, other: { counts, worker } });
        return;
      }
      t.accept(p, counts, t.workerOf[p]);
      t.secondOf![p] = worker;
    } else {
      t.accept(p, counts, worker);
    }
    this.audit.accepted(p, t.workerOf[p], counts);
    if (worker !== t.workerOf[p] && this.audit.isSuspect(worker)) this.audit.queue({ part: p });
  }

  /** The total: every part's accepted counts, summed once. */
  merge(): { total: bigint; unique: bigint | null; nodes: bigint } {
    const { total, unique, nodes } = this.s.parts.totalOf(this.tally.sums());
    return { total, unique, nodes };
  }
}
