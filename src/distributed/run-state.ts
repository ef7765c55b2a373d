// One run as its coordinator follows it (internal): which jobs finished or failed (from the
// event stream, and from batched reads of BullMQ's sets when events may have been missed),
// each result read once (pipelined) and verified (MAC, identity, digest, bounds) before its
// counts go into the tally, replicas compared, and handed to the audit (./auditor.ts: what the
// coordinator counts again itself). Redis work per part is a constant few commands.
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { countPart, checkPartCount, type Part, type Split } from "../count/split.js";
import { ErrorCode, rephrased, withCode } from "../core/errors.js";
import { IDENTITY_NAME, RESULT_DOMAIN, JOB_DOMAIN, identityKey, signed, tampered, verifies } from "./auth.js";
import { jobId, partOfJobId, type ConstrainedPartJob, type PartJob } from "./keys.js";
import { ACCEPTED, ONE_IN, PENDING, Tally } from "./tally.js";
import { Auditor } from "./auditor.js";
import { STUCK_CHECK_MAX, jobIdsIn, missingJobs, stuckJobs } from "./job-checks.js";

/** A part being settled (two replicas disagreed) or recounted: results for it are ignored meanwhile. */
const SETTLING = 3;
/** Jobs read per Redis round trip. */
const BATCH = 1000;
/** Jobs added per Redis round trip (BullMQ makes a Job object of each). */
const ENQUEUE_BATCH = 250;
/** A job a worker refused because its MAC did not verify is written afresh this many times before the run stops (NQ_TAMPERED). */
const MAX_REWRITES = 2;
/** Least time between two scans of a whole set (completed, or the pending parts' jobs). */
const SCAN_EVERY_MS = 2000;
/** Extra jobs a part may get when its two replicas came from one worker (then the coordinator counts it). */
const MAX_EXTRA_JOBS = 2;
/** No part accepted for this long: look whether the pending parts' jobs still exist. */
const STALL_MS = 30_000;

/**
 * The run's split (src/count/split.ts) holds no parts: part `p` is made when it is needed (a
 * result to check, a job to write or rewrite, a part the audit recounts). A plain run re-derives
 * the part from its identity (derivePart: bounded, the split's index built once per process), so
 * the coordinator holds bytes per part (the tally), not the part objects (~650 bytes each).
 */
type Setup = {
  name: string; n: number; parts: Split; runId: string;
  key: Uint8Array | undefined; client: Redis; queue: Queue; audit: number; replicas: number;
  /** "required": only results under a worker's own identity key are taken; revoked: identities whose results are counted here instead. */
  identities: "allowed" | "required"; revoked: ReadonlySet<string>;
  notice: (message: string) => void; signal: AbortSignal | undefined;
};

export class RunState {
  readonly tally: Tally;
  readonly audit: Auditor;
  /** Job ids that vanished (found by a scan): the coordinator puts the run back. */
  readonly vanished: string[] = [];

  private readonly P: number;
  private readonly completedIds = new Set<string>();
  private readonly failedIds = new Set<string>();
  /** Bits per part: its first (1) and replica (2) jobs' results were read. */
  private readonly read: Uint8Array;
  private readonly extrasRead = new Set<string>();
  private readSoFar = 0;
  private readonly foreignCompleted = new Set<string>();
  private readonly recounted = new Set<number>();
  private readonly rewrites = new Map<number, number>();
  private readonly extras = new Map<number, number>();
  private ownJobs = 0;
  private lastFailed = 0;
  private lastScan = -Infinity;
  private scanMs = 0;
  private lastExistScan = -Infinity;
  private existScanMs = 0;
  private short = 0;
  private lastAccepted = performance.now();
  private acceptedBefore = 0;

  constructor(private readonly s: Setup) {
    this.P = s.parts.count;
    this.tally = new Tally(this.P, s.parts.fields, s.replicas);
    this.read = new Uint8Array(this.P);
    this.audit = new Auditor({ name: s.name, parts: s.parts, tally: this.tally, fraction: s.audit, notice: s.notice, signal: s.signal });
  }

  // ---- jobs ----------------------------------------------------------------------------

  private jobData(part: Part, id: string, not?: string[]): PartJob | ConstrainedPartJob {
    const { runId, key, name } = this.s;
    const identity = this.s.parts.identity(part) as PartJob | ConstrainedPartJob;
    return signed(key, JOB_DOMAIN, name, { ...identity, run: runId, job: id, ...(not ? { not } : {}) });
  }

  private async add(jobs: { part: Part; id: string; not?: string[] }[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += ENQUEUE_BATCH) {
      await this.s.queue.addBulk(jobs.slice(i, i + ENQUEUE_BATCH).map(({ part, id, not }) => ({
        name: "part",
        data: this.jobData(part, id, not),
        opts: { jobId: id, attempts: 3, backoff: { type: "fixed", delay: 500 }, removeOnComplete: false, removeOnFail: false },
      })));
    }
  }

  /** Every part's jobs (both replicas), idempotent: existing job ids are kept as they are. */
  async enqueueAll(): Promise<void> {
    this.extras.clear();
    this.ownJobs = this.P * this.s.replicas;
    // Made a batch at a time: a run of 10^5 parts never holds all its jobs' data at once.
    for (let at = 0; at < this.P; at += ENQUEUE_BATCH) {
      const jobs: { part: Part; id: string }[] = [];
      for (let p = at; p < Math.min(this.P, at + ENQUEUE_BATCH); p++) {
        const part = this.s.parts.at(p);
        jobs.push({ part, id: jobId(part.part) });
        if (this.s.replicas > 1) jobs.push({ part, id: `${jobId(part.part)}-r1` });
      }
      await this.add(jobs);
    }
  }

  /** Job `id` written afresh from this coordinator's own split. */
  private async rewrite(id: string, part: number): Promise<void> {
    await this.s.queue.remove(id).catch(() => 0);
    this.forget(id, part);
    await this.add([{ part: this.s.parts.at(part), id }]);
  }

  private forget(id: string, part: number): void {
    const slot = partOfJobId(id, this.P)?.slot;
    const bit = slot === "r0" ? 1 : slot === "r1" ? 2 : 0;
    if (bit && this.read[part] & bit) { this.read[part] &= ~bit; this.readSoFar--; }
    if (slot === "x" && this.extrasRead.delete(id)) this.readSoFar--;
  }

  /** Own jobs that failed for good in an earlier run: removed, to be enqueued afresh. */
  async removeFailed(): Promise<void> {
    for (const id of await jobIdsIn(this.s.client, this.s.queue, "failed")) if (partOfJobId(id, this.P)) await this.s.queue.remove(id).catch(() => 0);
  }

  // ---- learning what finished ----------------------------------------------------------

  sawCompleted(id: string): void { this.completedIds.add(id); }
  sawFailed(id: string): void { this.failedIds.add(id); }

  /** Reads the whole completed set (at the start, and when events may have been missed). */
  async scanCompleted(): Promise<void> {
    const t0 = performance.now();
    for (const id of await jobIdsIn(this.s.client, this.s.queue, "completed")) this.completedIds.add(id);
    await this.readCompleted();
    this.lastScan = performance.now();
    this.scanMs = this.lastScan - t0;
  }

  /** One round: results of the parts that finished, failures, and the checks for missed events and vanished jobs. */
  async step(counts: Record<string, number>): Promise<void> {
    if (this.failure) throw this.failure;
    try {
      await this.round(counts);
    } catch (error) {
      // A verdict on the run (a coded error) stands, even when the round that met it was no longer awaited.
      if ((error as { code?: string }).code?.startsWith("NQ_")) this.failure = error;
      throw error;
    }
  }

  private failure: unknown;

  private async round(counts: Record<string, number>): Promise<void> {
    this.audit.rethrow();
    await this.readCompleted();
    if ((counts.failed ?? 0) !== this.lastFailed || this.failedIds.size > 0) {
      for (const id of (counts.failed ?? 0) > 0 ? await jobIdsIn(this.s.client, this.s.queue, "failed") : []) this.failedIds.add(id);
      this.lastFailed = counts.failed ?? 0;
      await this.readFailed();
    }
    const now = performance.now();
    if (this.tally.accepted !== this.acceptedBefore) { this.acceptedBefore = this.tally.accepted; this.lastAccepted = now; }
    // More completed jobs than this coordinator has read: events were missed (a reconnect):
    // read the set again, as rarely as its size asks.
    if ((counts.completed ?? 0) > this.readSoFar + this.foreignCompleted.size && now - this.lastScan >= Math.max(SCAN_EVERY_MS, 10 * this.scanMs)) {
      await this.scanCompleted();
    }
    // Fewer jobs than this run has (twice running): some vanished. Or nothing accepted for a
    // long while: look. Never more often than ten times what a look takes (it reads every
    // pending part's job), so it stays a small share of the run however many parts.
    const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
    this.short = jobs < this.ownJobs ? this.short + 1 : 0;
    const spaced = now - this.lastExistScan >= Math.max(SCAN_EVERY_MS / 4, 10 * this.existScanMs);
    const stalled = now - this.lastAccepted >= STALL_MS && now - this.lastExistScan >= Math.max(STALL_MS, 10 * this.existScanMs);
    if ((this.short >= 2 && spaced) || stalled) await this.findVanished();
  }

  /** The run starts being watched now (the split and the enqueueing are not a stall). */
  watching(): void {
    this.lastAccepted = performance.now();
  }

  /** Pipelined EXISTS of the pending parts' jobs; the missing ones go to `vanished`. */
  private async findVanished(): Promise<void> {
    const t0 = performance.now();
    try {
      await this.lookForVanished();
    } finally {
      this.lastExistScan = performance.now();
      this.existScanMs = this.lastExistScan - t0;
    }
  }

  private async lookForVanished(): Promise<void> {
    // A queue paused in Redis (the run never pauses it) holds every job from the workers.
    if (await this.s.queue.isPaused()) {
      await this.s.queue.resume();
      this.s.notice(`queue ${this.s.name} was paused in Redis (not by this run): resumed`);
    }
    const ids: string[] = [];
    for (let p = 0; p < this.P; p++) {
      if (this.tally.state[p] === ACCEPTED || this.tally.state[p] === SETTLING) continue;
      ids.push(jobId(p));
      if (this.s.replicas > 1) ids.push(`${jobId(p)}-r1`);
      const extra = this.extras.get(p);
      if (extra) ids.push(`${jobId(p)}-x${extra}`);
    }
    const { gone, present } = await missingJobs(this.s.client, this.s.queue, ids);
    this.vanished.push(...gone);
    if (present.length === 0 || present.length > STUCK_CHECK_MAX) return;
    // Put back once seen twice running (a look is a snapshot; twice rules out a passing state).
    const stuck = await stuckJobs(this.s.client, this.s.queue, present);
    const again = [...stuck].filter((id) => this.stuckBefore.has(id));
    for (const id of again) {
      await this.s.client.multi().del(this.s.queue.toKey(id), `${this.s.queue.toKey(id)}:lock`).zrem(this.s.queue.toKey("delayed"), id).exec();
    }
    this.vanished.push(...again);
    this.stuckBefore = stuck;
  }

  /** Jobs the last look found held in no list, or completed without a result. */
  private stuckBefore = new Set<string>();

  private async readCompleted(): Promise<void> {
    while (this.completedIds.size > 0) {
      const batch = [...this.completedIds].slice(0, BATCH);
      for (const id of batch) this.completedIds.delete(id);
      const own: { id: string; part: number; slot: "r0" | "r1" | "x" }[] = [];
      for (const id of batch) {
        const at = partOfJobId(id, this.P);
        if (!at) { this.foreignCompleted.add(id); continue; }
        const bit = at.slot === "r0" ? 1 : at.slot === "r1" ? 2 : 0;
        if (bit ? this.read[at.part] & bit : this.extrasRead.has(id)) continue; // read already
        own.push({ id, ...at });
      }
      if (own.length === 0) continue;
      const pipeline = this.s.client.pipeline();
      for (const { id } of own) pipeline.hget(this.s.queue.toKey(id), "returnvalue");
      const answers = (await pipeline.exec()) ?? [];
      for (const [j, job] of own.entries()) {
        const [error, value] = answers[j] ?? [];
        if (error || typeof value !== "string") continue; // gone: the vanish check puts it back
        const bit = job.slot === "r0" ? 1 : job.slot === "r1" ? 2 : 0;
        if (bit) this.read[job.part] |= bit; else this.extrasRead.add(job.id);
        this.readSoFar++;
        await this.result(job.id, job.part, value);
      }
    }
  }

  private async readFailed(): Promise<void> {
    const own = [...this.failedIds].filter((id) => partOfJobId(id, this.P));
    this.failedIds.clear();
    if (own.length === 0) return;
    const pipeline = this.s.client.pipeline();
    for (const id of own) pipeline.hmget(this.s.queue.toKey(id), "failedReason", "atm", "finishedOn");
    const answers = (await pipeline.exec()) ?? [];
    for (const [j, id] of own.entries()) {
      const [error, fields] = answers[j] ?? [];
      const [reason, attempts, finished] = (error ? [] : fields as (string | null)[]) ?? [];
      // Not failed for good (a retry is waiting), gone, or no longer the job that failed: one
      // written afresh since holds no failedReason, and may have finished since (BullMQ writes
      // a reason on every failure).
      if (!finished || reason === null || reason === undefined) continue;
      const part = partOfJobId(id, this.P)!.part;
      if (this.tally.state[part] === ACCEPTED) { await this.s.queue.remove(id).catch(() => 0); continue; }
      const why = reason;
      if (/does not verify/.test(why)) {
        const done = this.rewrites.get(part) ?? 0;
        if (done >= MAX_REWRITES) {
          throw tampered(`part ${part} of queue ${this.s.name}: its job was refused ${done + 1} times, written afresh each time: ${why} (someone without the key writes to this Redis: close it, see docs/distributed.md)`);
        }
        this.rewrites.set(part, done + 1);
        this.s.notice(`queue ${this.s.name}: ${why}; writing job ${id} afresh`);
        await this.rewrite(id, part);
        continue;
      }
      throw withCode(new Error(`part ${part} of queue ${this.s.name} failed ${attempts ?? "?"} times: ${why} (run the same command again to retry it)`), ErrorCode.queuePartFailed);
    }
  }

  // ---- results -------------------------------------------------------------------------

  /** Verifies the result stored for job `id` of `part` and takes it in, or refuses it (counted again once, then the run stops). */
  private async result(id: string, p: number, text: string): Promise<void> {
    const { n, key, name, runId } = this.s;
    const part = this.s.parts.at(p);
    let value: unknown = text;
    try { value = JSON.parse(text); } catch { /* refused by the checks */ }
    let counts: bigint[], worker: number;
    let revokedResult: string | undefined;
    try {
      if (key) {
        const v = value as { run?: unknown; job?: unknown; worker?: unknown; identity?: unknown };
        const own = v.identity === true && typeof v.worker === "string" && IDENTITY_NAME.test(v.worker);
        if (this.s.identities === "required" && !own) {
          throw tampered(`the result for part ${p} of ${this.P} (n = ${n}) is not signed by a worker identity (the run takes only results under a worker's own key: nqueens key --worker NAME)`);
        }
        if (!(verifies(own ? identityKey(key, v.worker as string) : key, RESULT_DOMAIN, name, value) && v.run === runId && v.job === id)) {
          throw tampered(`the result for part ${p} of ${this.P} (n = ${n}) does not verify under ${own ? `the key of worker ${v.worker as string}` : "the key"} (changed in Redis, or written without the key)`);
        }
        if (own && this.s.revoked.has(v.worker as string)) revokedResult = v.worker as string;
      }
      const board = this.s.parts.board;
      counts = this.s.parts.countsOf(checkPartCount(part, value, board.plain ? undefined : `the result for constrained part ${p} of ${this.P} (n = ${n}, board ${board.digest})`));
      const named = (value as { worker?: unknown }).worker;
      worker = this.tally.worker(typeof named === "string" && named.length > 0 ? named.slice(0, 200) : "(unnamed)");
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
    if (revokedResult !== undefined) {
      // A revoked identity's result is never taken: the coordinator counts the part itself.
      const state = this.tally.state[p];
      if (state === ACCEPTED || state === SETTLING) return;
      this.tally.state[p] = SETTLING;
      this.s.notice(`queue ${name}: part ${p} was counted by revoked worker ${revokedResult}; not added: the coordinator counts it itself`);
      this.audit.queue({ part: p });
      return;
    }
    this.take(p, id, counts, worker);
  }

  private take(p: number, id: string, counts: bigint[], worker: number): void {
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
        void this.add([{ part: this.s.parts.at(p), id: `${jobId(p)}-x${k}`, not: [t.names[worker]] }]).catch(() => {});
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
    void id;
  }

  /** The total: every part's accepted counts, summed once. */
  merge(): { total: bigint; unique: bigint | null; nodes: bigint } {
    const { total, unique, nodes } = this.s.parts.totalOf(this.tally.sums());
    return { total, unique, nodes };
  }
}
