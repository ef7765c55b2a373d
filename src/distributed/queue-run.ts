// What a coordinator does with the jobs of any run on the queue (internal), a count's parts
// (./run-state.ts) or a solve's tasks (./solve-state.ts) alike: learn which jobs finished or
// failed (from the event stream, and from batched reads of BullMQ's sets when events may have
// been missed), read each result once (pipelined) and hand it to the run, write a refused job
// afresh (then stop, NQ_TAMPERED), stop on a unit failed for good (NQ_QUEUE_PART_FAILED), and
// find the jobs that vanished or were stranded where no worker takes them. What a result means,
// and which jobs a run has, is the run's own (the abstract members below).
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { ErrorCode, withCode } from "../core/errors.js";
import { tampered } from "./auth.js";
import { STUCK_CHECK_MAX, jobIdsIn, missingJobs, stuckJobs } from "./job-checks.js";

/** Jobs read per Redis round trip. */
const BATCH = 1000;
/** Jobs added per Redis round trip (BullMQ makes a Job object of each). */
const ENQUEUE_BATCH = 250;
/** A job a worker refused because its MAC did not verify is written afresh this many times before the run stops (NQ_TAMPERED). */
const MAX_REWRITES = 2;
/** Least time between two scans of a whole set (completed, or the pending units' jobs). */
const SCAN_EVERY_MS = 2000;
/** Nothing accepted for this long (at most; half the run's stallNoticeMs when that is shorter): look whether the pending units' jobs still exist, or sit where no worker takes them. */
const STALL_MS = 30_000;

/** The stall look's interval for a run whose stall notice comes after `stallNoticeMs`: half of it, at most STALL_MS, so a run looks (and puts back what it can) before it says why it waits. */
export function stallLookMs(stallNoticeMs: number): number {
  return Math.min(STALL_MS, Math.floor(stallNoticeMs / 2));
}

/** What every run's coordinator state is given: the queue, its client, where notices go, and the run's stallNoticeMs (see stallLookMs). */
export type QueueRunSetup = { name: string; client: Redis; queue: Queue; notice: (message: string) => void; stallNoticeMs: number };

export abstract class QueueRun {
  /** Job ids that vanished (found by a scan): the coordinator puts the run back. */
  readonly vanished: string[] = [];
  /** "part" or "task": what one unit of the run is called in messages. */
  protected abstract readonly unitName: string;
  /** The BullMQ name of the run's jobs. */
  protected abstract readonly jobName: string;
  /** Results read per Redis round trip: fewer where a job's result is large (a job of many parts), so a batch's garbage stays small. */
  protected readBatch = BATCH;
  /** Jobs the run has now (every unit's, replicas and extras included): fewer in Redis means some vanished. */
  protected ownJobs = 0;
  private readonly completedIds = new Set<string>();
  private readonly failedIds = new Set<string>();
  private readonly foreignCompleted = new Set<string>();
  private readSoFar = 0;
  private readonly rewrites = new Map<number, number>();
  private lastFailed = 0;
  private lastScan = -Infinity;
  private scanMs = 0;
  private lastExistScan = -Infinity;
  private existScanMs = 0;
  private short = 0;
  private lastAccepted = performance.now();
  private acceptedBefore = 0;
  private failure: unknown;
  /** Jobs the last look found held in no list, or completed without a result. */
  private stuckBefore = new Set<string>();
  /** Wakes the coordinator's poll loop (work of the run's own, an audit, ended). */
  onWake: () => void = () => {};

  constructor(protected readonly q: QueueRunSetup) {}

  // ---- what the run says ---------------------------------------------------------------

  /** Units accepted so far (progress, and the stall checks). */
  abstract get accepted(): number;
  /** What changes whenever the run moves (a run that waits says so when it has not for a while): the units accepted, by default. */
  get activity(): number { return this.accepted; }
  /** Whether the run is over: every unit in and checked (a count), or decided (a solve). */
  abstract finished(): Promise<boolean>;
  /** Every unit's jobs, as the run stands now (idempotent: existing job ids are kept as they are). */
  abstract enqueueAll(): Promise<void>;
  /** The unit of job `id` when it is one of this run's jobs (else a foreign job, never read). */
  protected abstract unitOf(id: string): number | undefined;
  /** Whether job `id`'s result was read already; mark it read; forget it (true when it had been). */
  protected abstract isRead(id: string, unit: number): boolean;
  protected abstract markRead(id: string, unit: number): void;
  protected abstract clearRead(id: string, unit: number): boolean;
  /** The result of job `id` (read once): checked and taken in, or refused. */
  protected abstract result(id: string, unit: number, text: string): Promise<void>;
  /** Whether the unit needs no more results (a failed job of it is only removed). */
  protected abstract settled(unit: number): boolean;
  /** The data of job `id` of `unit`, written afresh from the coordinator's own split (signed). */
  protected abstract jobData(id: string, unit: number): object;
  /** The job ids of the units not settled yet (looked for when jobs may have vanished). */
  protected abstract pendingIds(): string[];
  /** Called first in each round: a verdict reached meanwhile (the audit's) is thrown here. */
  protected abstract beforeRound(): void;
  /** A unit whose job failed for good that the run can do without (it says so itself): true, and the run goes on; by default none. */
  protected spare(_unit: number, _why: string): boolean { return false; }
  /** Job `id`'s BullMQ priority (1 first; undefined: none, FIFO before every prioritized job); by default none. */
  protected priorityOf(_id: string, _unit: number): number | undefined { return undefined; }

  // ---- jobs ----------------------------------------------------------------------------

  protected async add(jobs: { id: string; unit: number; data?: object }[]): Promise<void> {
    for (let i = 0; i < jobs.length; i += ENQUEUE_BATCH) {
      await this.q.queue.addBulk(jobs.slice(i, i + ENQUEUE_BATCH).map(({ id, unit, data }) => {
        const priority = this.priorityOf(id, unit);
        return {
          name: this.jobName,
          data: data ?? this.jobData(id, unit),
          opts: { jobId: id, attempts: 3, backoff: { type: "fixed" as const, delay: 500 }, removeOnComplete: false, removeOnFail: false, ...(priority !== undefined ? { priority } : {}) },
        };
      }));
    }
  }

  /** Job `id` written afresh from this coordinator's own split. */
  protected async rewrite(id: string, unit: number): Promise<void> {
    await this.q.queue.remove(id).catch(() => 0);
    if (this.clearRead(id, unit)) this.readSoFar--;
    await this.add([{ id, unit }]);
  }

  /** Own jobs that failed for good in an earlier run: removed, to be enqueued afresh. */
  async removeFailed(): Promise<void> {
    for (const id of await jobIdsIn(this.q.client, this.q.queue, "failed")) if (this.unitOf(id) !== undefined) await this.q.queue.remove(id).catch(() => 0);
  }

  // ---- learning what finished ----------------------------------------------------------

  sawCompleted(id: string): void { this.completedIds.add(id); }
  sawFailed(id: string): void { this.failedIds.add(id); }

  /** The ids of the jobs completed now (at the start, before this run enqueues: those done before it). */
  completedNow(): Promise<string[]> {
    return jobIdsIn(this.q.client, this.q.queue, "completed");
  }

  /**
   * At the start: reads the results of `before` (completedNow's, before this run enqueued),
   * then the whole completed set; returns the units accepted from `before` alone, those
   * decided before this run (a job answered since, by a worker quick to take it, is not).
   */
  async scanCompletedAfter(before: readonly string[]): Promise<number> {
    const since = [...this.completedIds]; // this run's events so far: read with the whole set
    this.completedIds.clear();
    for (const id of before) this.completedIds.add(id);
    await this.readCompleted();
    const resumed = this.accepted;
    for (const id of since) this.completedIds.add(id);
    await this.scanCompleted();
    return resumed;
  }

  /** Reads the whole completed set (at the start, and when events may have been missed). */
  async scanCompleted(): Promise<void> {
    const t0 = performance.now();
    for (const id of await jobIdsIn(this.q.client, this.q.queue, "completed")) this.completedIds.add(id);
    await this.readCompleted();
    this.lastScan = performance.now();
    this.scanMs = this.lastScan - t0;
  }

  /** One round: results of the units that finished, failures, and the checks for missed events and vanished jobs. */
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

  private async round(counts: Record<string, number>): Promise<void> {
    this.beforeRound();
    await this.readCompleted();
    if ((counts.failed ?? 0) !== this.lastFailed || this.failedIds.size > 0) {
      for (const id of (counts.failed ?? 0) > 0 ? await jobIdsIn(this.q.client, this.q.queue, "failed") : []) this.failedIds.add(id);
      this.lastFailed = counts.failed ?? 0;
      await this.readFailed();
    }
    const now = performance.now();
    if (this.accepted !== this.acceptedBefore) { this.acceptedBefore = this.accepted; this.lastAccepted = now; }
    // More completed jobs than this coordinator has read: events were missed (a reconnect):
    // read the set again, as rarely as its size asks.
    if ((counts.completed ?? 0) > this.readSoFar + this.foreignCompleted.size && now - this.lastScan >= Math.max(SCAN_EVERY_MS, 10 * this.scanMs)) {
      await this.scanCompleted();
    }
    // Fewer jobs than this run has (twice running): some vanished. Or nothing accepted for a
    // long while: look. Never more often than ten times what a look takes (it reads every
    // pending unit's job), so it stays a small share of the run however many units.
    const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
    this.short = jobs < this.ownJobs ? this.short + 1 : 0;
    const spaced = now - this.lastExistScan >= Math.max(SCAN_EVERY_MS / 4, 10 * this.existScanMs);
    const stallMs = stallLookMs(this.q.stallNoticeMs);
    const stalled = now - this.lastAccepted >= stallMs && now - this.lastExistScan >= Math.max(stallMs, 10 * this.existScanMs);
    if ((this.short >= 2 && spaced) || stalled) await this.findVanished();
  }

  /** Reads every answer seen so far (not only those seen when the round began). */
  protected async readSeen(): Promise<void> {
    while (this.completedIds.size > 0) await this.readCompleted();
  }

  /** The run starts being watched now (the split and the enqueueing are not a stall). */
  watching(): void {
    this.lastAccepted = performance.now();
  }

  /** Pipelined EXISTS of the pending units' jobs; the missing ones go to `vanished`. */
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
    const { client, queue, name, notice } = this.q;
    // A queue paused in Redis (the run never pauses it) holds every job from the workers.
    if (await queue.isPaused()) {
      await queue.resume();
      notice(`queue ${name} was paused in Redis (not by this run): resumed`);
    }
    const { gone, present } = await missingJobs(client, queue, this.pendingIds());
    this.vanished.push(...gone);
    if (present.length === 0 || present.length > STUCK_CHECK_MAX) return;
    // Put back once seen twice running (a look is a snapshot; twice rules out a passing state).
    const stuck = await stuckJobs(client, queue, present);
    const again = [...stuck].filter((id) => this.stuckBefore.has(id));
    for (const id of again) {
      // (Out of every set it may sit in, so the job written afresh is not taken for stuck again.)
      await client.multi().del(queue.toKey(id), `${queue.toKey(id)}:lock`).zrem(queue.toKey("delayed"), id).zrem(queue.toKey("completed"), id).zrem(queue.toKey("failed"), id).exec();
    }
    this.vanished.push(...again);
    this.stuckBefore = stuck;
  }

  /**
   * Reads the results of the jobs seen completed when it is called; those seen meanwhile wait for
   * the next round, so a round ends (and the run's progress and end are looked at) even while
   * quick answers keep coming.
   */
  private async readCompleted(): Promise<void> {
    let left = this.completedIds.size;
    while (left > 0 && this.completedIds.size > 0) {
      const batch: string[] = [];
      for (const id of this.completedIds) { if (batch.length >= Math.min(this.readBatch, left)) break; batch.push(id); }
      left -= batch.length;
      for (const id of batch) this.completedIds.delete(id);
      const own: { id: string; unit: number }[] = [];
      for (const id of batch) {
        const unit = this.unitOf(id);
        if (unit === undefined) { this.foreignCompleted.add(id); continue; }
        if (this.isRead(id, unit)) continue; // read already
        own.push({ id, unit });
      }
      if (own.length === 0) continue;
      const pipeline = this.q.client.pipeline();
      for (const { id } of own) pipeline.hget(this.q.queue.toKey(id), "returnvalue");
      const answers = (await pipeline.exec()) ?? [];
      for (const [j, job] of own.entries()) {
        const [error, value] = answers[j] ?? [];
        if (error || typeof value !== "string") continue; // gone: the vanish check puts it back
        this.markRead(job.id, job.unit);
        this.readSoFar++;
        await this.result(job.id, job.unit, value);
      }
    }
  }

  private async readFailed(): Promise<void> {
    const own = [...this.failedIds].filter((id) => this.unitOf(id) !== undefined);
    this.failedIds.clear();
    if (own.length === 0) return;
    const { client, queue, name, notice } = this.q;
    const pipeline = client.pipeline();
    for (const id of own) pipeline.hmget(queue.toKey(id), "failedReason", "atm", "finishedOn");
    const answers = (await pipeline.exec()) ?? [];
    for (const [j, id] of own.entries()) {
      const [error, fields] = answers[j] ?? [];
      const [reason, attempts, finished] = (error ? [] : fields as (string | null)[]) ?? [];
      // Not failed for good (a retry is waiting), gone, or no longer the job that failed: one
      // written afresh since holds no failedReason, and may have finished since (BullMQ writes
      // a reason on every failure).
      if (!finished || reason === null || reason === undefined) continue;
      const unit = this.unitOf(id)!;
      if (this.settled(unit)) { await queue.remove(id).catch(() => 0); continue; }
      const why = reason;
      if (/does not verify/.test(why)) {
        const done = this.rewrites.get(unit) ?? 0;
        if (done >= MAX_REWRITES) {
          throw tampered(`${this.unitName} ${unit} of queue ${name}: its job was refused ${done + 1} times, written afresh each time: ${why} (someone without the key writes to this Redis: close it, see docs/distributed.md)`);
        }
        this.rewrites.set(unit, done + 1);
        notice(`queue ${name}: ${why}; writing job ${id} afresh`);
        await this.rewrite(id, unit);
        continue;
      }
      if (this.spare(unit, why)) { await queue.remove(id).catch(() => 0); continue; }
      throw withCode(new Error(`${this.unitName} ${unit} of queue ${name} failed ${attempts ?? "?"} times: ${why} (run the same command again to retry it)`), ErrorCode.queuePartFailed);
    }
  }
}
