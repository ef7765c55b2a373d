// One count run as its coordinator follows it (internal): its parts' jobs (./queue-run.ts reads
// what finished or failed), each result verified (MAC, identity, digest, bounds) before its
// counts go into the tally, replicas compared, and handed to the audit (./auditor.ts: what the
// coordinator counts again itself). Redis work per part is a constant few commands.
import { checkPartCount, type Part, type Split } from "../count/split.js";
import { ErrorCode, rephrased, withCode } from "../core/errors.js";
import { JOB_DOMAIN, checkSeal, signed } from "./auth.js";
import { groupJobId, partOfJobId, type ConstrainedPartJob, type PartJob } from "./keys.js";
import { ACCEPTED, ONE_IN, PENDING, Tally } from "./tally.js";
import { Auditor } from "./auditor.js";
import { QueueRun, type QueueRunSetup } from "./queue-run.js";

/** A part being settled (two replicas disagreed) or recounted: results for it are ignored meanwhile. */
const SETTLING = 3;
/** Jobs added per Redis round trip while enqueueing every part (made a batch at a time); jobs of many parts, fewer. */
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
  /** Consecutive parts a job holds (partsPerJob): the run's units are its jobs' runs of parts. */
  perJob: number;
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
  /** Parts a job holds, and how many jobs (units: job g holds parts g * K .. g * K + K - 1, fewer in the last). */
  private readonly K: number;
  private readonly G: number;
  /** Bits per job: its first (1) and replica (2) jobs' results were read. */
  private readonly read: Uint8Array;
  private readonly extrasRead = new Set<string>();
  private readonly recounted = new Set<number>();
  private readonly extras = new Map<number, number>();

  constructor(private readonly s: Setup) {
    super(s);
    this.P = s.parts.count;
    this.K = s.perJob;
    this.G = Math.ceil(this.P / this.K);
    this.tally = new Tally(this.P, s.parts.fields, s.replicas);
    this.read = new Uint8Array(this.G);
    this.readBatch = Math.max(1, Math.floor(this.readBatch / this.K)); // about a thousand parts' results a round trip
    this.audit = new Auditor({ name: s.name, parts: s.parts, tally: this.tally, fraction: s.audit, notice: s.notice, signal: s.signal });
    this.audit.onDone = () => this.onWake();
  }

  get accepted(): number { return this.tally.accepted; }

  /** Every part accepted, and the audit done (each worker's least plausible result recounted first). */
  async finished(): Promise<boolean> {
    return this.tally.accepted >= this.P && await this.audit.finish();
  }

  // ---- jobs ----------------------------------------------------------------------------

  /** The parts of job g: its first, and how many. */
  private span(g: number): { first: number; size: number } {
    const first = g * this.K;
    return { first, size: Math.min(this.K, this.P - first) };
  }

  /** The parts of job g, made (a plain split's in one walk). */
  private partsOf(g: number): Part[] {
    const { first, size } = this.span(g);
    return size === 1 && this.K === 1 ? [this.s.parts.at(first)] : this.s.parts.range(first, size);
  }

  private idOf(g: number): string {
    return groupJobId(g * this.K, this.K);
  }

  protected jobData(id: string, g: number, not?: string[]): PartJob | ConstrainedPartJob {
    const { runId, key, name } = this.s;
    const identity = this.s.parts.rangeIdentity(this.partsOf(g), this.K > 1) as PartJob | ConstrainedPartJob;
    return signed(key, JOB_DOMAIN, name, { ...identity, run: runId, job: id, ...(not ? { not } : {}) });
  }

  /** Every job (both replicas), idempotent: existing job ids are kept as they are. */
  async enqueueAll(): Promise<void> {
    this.extras.clear();
    this.ownJobs = this.G * this.s.replicas;
    // Made a batch at a time: a run of 10^5 jobs never holds all its jobs' data at once.
    // (A job's data needs its parts derived: a batch of jobs of many parts is about 1,000 parts.)
    const batch = Math.max(4, Math.floor(ENQUEUE_BATCH / this.K));
    for (let at = 0; at < this.G; at += batch) {
      const jobs: { id: string; unit: number }[] = [];
      for (let g = at; g < Math.min(this.G, at + batch); g++) {
        jobs.push({ id: this.idOf(g), unit: g });
        if (this.s.replicas > 1) jobs.push({ id: `${this.idOf(g)}-r1`, unit: g });
      }
      await this.add(jobs);
    }
  }

  protected unitOf(id: string): number | undefined {
    const part = partOfJobId(id, this.P, this.K)?.part;
    return part === undefined ? undefined : part / this.K;
  }

  private bit(id: string): number {
    const slot = partOfJobId(id, this.P, this.K)?.slot;
    return slot === "r0" ? 1 : slot === "r1" ? 2 : 0;
  }

  /** Whether every part of job g is in (ACCEPTED), or in or being settled here too (SETTLING counts). */
  private all(g: number, settling: boolean): boolean {
    const { first, size } = this.span(g);
    for (let p = first; p < first + size; p++) {
      const state = this.tally.state[p];
      if (state !== ACCEPTED && !(settling && state === SETTLING)) return false;
    }
    return true;
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

  protected settled(g: number): boolean {
    return this.all(g, false);
  }

  protected beforeRound(): void {
    this.audit.rethrow();
  }

  protected pendingIds(): string[] {
    const ids: string[] = [];
    for (let g = 0; g < this.G; g++) {
      if (this.all(g, true)) continue;
      const id = this.idOf(g);
      ids.push(id);
      if (this.s.replicas > 1) ids.push(`${id}-r1`);
      const extra = this.extras.get(g);
      if (extra) ids.push(`${id}-x${extra}`);
    }
    return ids;
  }

  // ---- results -------------------------------------------------------------------------

  /**
   * Verifies the result stored for job `id` (job g: one part, or several whose results it
   * holds as `results`, each checked against its own part) and takes each part's counts in, or
   * refuses the whole job (counted again once, then the run stops).
   */
  protected async result(id: string, g: number, text: string): Promise<void> {
    const { n, key, name, runId } = this.s;
    const { first, size } = this.span(g);
    const parts = this.partsOf(g);
    const what = this.K === 1 ? `the result for part ${first} of ${this.P} (n = ${n})` : `the result for parts ${first} to ${first + size - 1} of ${this.P} (n = ${n})`;
    let value: unknown = text;
    try { value = JSON.parse(text); } catch { /* refused by the checks */ }
    let counts: bigint[][], worker: number;
    let revoked = false;
    try {
      const seal = checkSeal(value, { key, identities: this.s.identities, revoked: this.s.revoked, queue: name, runId, job: id, what });
      revoked = seal.revoked;
      const board = this.s.parts.board;
      const results = this.K === 1 ? [value] : resultsOf(value, size, what);
      counts = parts.map((part, i) => this.s.parts.countsOf(checkPartCount(part, results[i], board.plain ? undefined : `the result for constrained part ${part.part} of ${this.P} (n = ${n}, board ${board.digest})`)));
      worker = this.tally.worker(seal.worker);
    } catch (error) {
      const e = error as Error & { code?: string };
      if (this.all(g, true)) return; // nothing of it is needed
      if (this.recounted.has(g)) {
        throw rephrased(e, `queue ${name}: ${e.message}, again after counting it afresh (refused; remove the run with \`nqueens runs --remove ${name}\` and look at who writes to this Redis)`);
      }
      this.recounted.add(g);
      this.s.notice(`queue ${name}: ${e.message}; not added: counting ${this.K === 1 ? `part ${first}` : `parts ${first} to ${first + size - 1}`} again`);
      await this.rewrite(id, g);
      return;
    }
    if (revoked) {
      // A revoked identity's result is never taken: the coordinator counts the parts itself.
      if (this.all(g, true)) return;
      this.s.notice(`queue ${name}: ${this.K === 1 ? `part ${first} was` : `parts ${first} to ${first + size - 1} were`} counted by revoked worker ${this.tally.names[worker]}; not added: the coordinator counts ${this.K === 1 ? "it" : "them"} itself`);
      for (let p = first; p < first + size; p++) {
        if (this.tally.state[p] === ACCEPTED || this.tally.state[p] === SETTLING) continue;
        this.tally.state[p] = SETTLING;
        this.audit.queue({ part: p });
      }
      return;
    }
    const again = parts.flatMap((part, i) => (this.take(part.part, counts[i], worker) ? [i] : []));
    if (again.length > 0) this.countAgain(g, again.map((i) => parts[i].part), again.map((i) => counts[i]), worker);
  }

  /**
   * Job g's parts `ps` were counted again by the worker that counted them first (a replica):
   * one more job of g, for another worker, at most MAX_EXTRA_JOBS times; past that (a worker
   * that ignores the exclusion, or only one worker there) the coordinator counts the parts
   * itself, so the jobs stay bounded.
   */
  private countAgain(g: number, ps: number[], counts: bigint[][], worker: number): void {
    const t = this.tally;
    const k = (this.extras.get(g) ?? 0) + 1;
    if (k > MAX_EXTRA_JOBS) {
      this.s.notice(`queue ${this.s.name}: ${ps.length === 1 ? `part ${ps[0]} was` : `${ps.length} parts from ${ps[0]} were`} counted again by the same worker ${t.names[worker] ?? "?"} ${k} times (no other worker took ${ps.length === 1 ? "it" : "them"}): the coordinator counts ${ps.length === 1 ? "it" : "them"} itself`);
      for (const [i, p] of ps.entries()) {
        t.state[p] = SETTLING;
        this.audit.queue({ part: p, other: { counts: counts[i], worker } });
      }
      return;
    }
    this.extras.set(g, k);
    this.ownJobs++;
    const id = `${this.idOf(g)}-x${k}`;
    void this.add([{ id, unit: g, data: this.jobData(id, g, [t.names[worker]]) }]).catch(() => {});
  }

  /** Takes part p's checked counts from `worker`; true when the same worker counted it twice (a replica: another worker must). */
  private take(p: number, counts: bigint[], worker: number): boolean {
    const t = this.tally;
    const state = t.state[p];
    if (state === ACCEPTED || state === SETTLING) return false;
    if (this.s.replicas > 1) {
      if (state === PENDING) {
        t.put(p, counts);
        t.workerOf[p] = worker;
        t.state[p] = ONE_IN;
        return false;
      }
      // ONE_IN: the second count.
      if (worker === t.workerOf[p]) return true;
      if (!t.same(p, counts)) {
        t.state[p] = SETTLING;
        this.audit.queue({ part: p, other: { counts, worker } });
        return false;
      }
      t.accept(p, counts, t.workerOf[p]);
      t.secondOf![p] = worker;
    } else {
      t.accept(p, counts, worker);
    }
    this.audit.accepted(p, t.workerOf[p], counts);
    if (worker !== t.workerOf[p] && this.audit.isSuspect(worker)) this.audit.queue({ part: p });
    return false;
  }

  /** The total: every part's accepted counts, summed once. */
  merge(): { total: bigint; unique: bigint | null; nodes: bigint } {
    const { total, unique, nodes } = this.s.parts.totalOf(this.tally.sums());
    return { total, unique, nodes };
  }
}

/** The per-part results a job of `size` parts holds (`results`, in the job's order), or a refusal saying what it holds instead. */
function resultsOf(value: unknown, size: number, what: string): unknown[] {
  const results = (typeof value === "object" && value !== null ? value as { results?: unknown } : {}).results;
  if (!Array.isArray(results) || results.length !== size) {
    throw withCode(new RangeError(`${what} holds ${Array.isArray(results) ? `${results.length} results` : "no list of results"}, not one for each of its ${size} parts`), ErrorCode.partMismatch);
  }
  return results;
}
