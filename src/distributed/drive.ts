// A run driven on the queue by its coordinator (internal), a count's (./coordinator.ts) or a
// solve's (./solve-coordinator.ts): the queue claimed and the run's record written (MACed),
// the run listed for the workers and announced, its jobs enqueued and what is already done
// read, then the poll loop until the run says it is over: the event stream and the queue's
// counts feed the run (./queue-run.ts), a record someone changed is written back, a run whose
// keys vanished is put back, a run with no worker on it says so at once (and a run that waits,
// why), and Redis lost for lostAfterMs ends it.
// At the end the record gets the answer, and the workers are told the run is over. Every wait on
// Redis ends when the run's signal aborts (a timeout, Ctrl-C), and with NQ_QUEUE_UNREACHABLE
// when Redis has not answered for lostAfterMs: the poll round's own, and every other step's
// through one helper (redisWaits). Each step may be abandoned midway (its commands may still land
// later): every record this drive writes is whole (one SET) and of this run, written before the
// jobs it describes, and the answer's before anything is removed, so a run resumed after it
// reads a record of the same run, with its answer or without.
import type { Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { ErrorCode, withCode } from "../core/errors.js";
import { ProgressThrottle } from "../core/pacer.js";
import { RESUME_HINT, bull, lost, redisWaits, sleep, within, type RedisConnectionOptions, type RedisWait } from "./redis.js";
import { ACTIVE_RUNS_KEY, RUNS_CHANNEL, metaKey, type RunMeta } from "./keys.js";
import { queueLibraries } from "./deps.js";
import { RUN_DOMAIN, signed, verifies } from "./auth.js";
import { claimQueue } from "./claim.js";
import { noWorkerText, stallText } from "./waiting.js";
import type { QueueRun } from "./queue-run.js";

/** How many times a run whose keys vanish is put back before the coordinator gives up (NQ_QUEUE_LOST). */
const MAX_RECREATE = 3;
const RUN_GONE = "Redis no longer holds this run (restarted empty, or the run was removed)";
/** Least time between two of the coordinator's progress reports (it reports what its polls of Redis see). */
const QUEUE_PROGRESS_INTERVAL_MS = 200;
/**
 * Workers told of a run (the run list's message) join it within moments, and one that missed
 * the message finds it at its next look at the run list (every 5 s): a run with no worker on it
 * this long after they were told (or this long after the last one went) has none, and says so
 * then rather than at its first stall notice (60 s).
 */
const JOIN_GRACE_MS = 6000;

/** Where the run stands, for the caller's progress report. */
export type DriveProgress = { done: number; resumed: number; workers: number; elapsedMs: number };

export type DriveSetup<R extends QueueRun> = {
  /** The queue (a name BullMQ takes), and Redis: the options, and a connected client the drive disconnects at the end. */
  name: string; redis: RedisConnectionOptions; client: Redis;
  /** When the run was asked for (performance.now()): progress counts its time from there. */
  start: number;
  key: Uint8Array | undefined;
  /** The run's record as this coordinator makes it (without `run` and `mac`), and whether a stored record is of the same run. */
  record: RunMeta; same: (meta: RunMeta) => boolean;
  timing: { connectTimeoutMs: number; pollMs: number; lostAfterMs: number; stallNoticeMs: number };
  replicas: number; signal: AbortSignal | undefined; notice: (message: string) => void;
  /** "part" or "task", and how many: said in the run's notices. */
  unit: string; units: number;
  /** The run's state, made once the queue is claimed (its id known). */
  makeRun: (ctx: { runId: string; queue: Queue }) => R;
  /** A stored record that already holds the answer (a run finished before): nothing is enqueued, the answer is read from it. */
  answered?: (meta: RunMeta) => boolean;
  /** Called as the run goes, at most every 200 ms, and once at the end (final). */
  onProgress?: (p: DriveProgress, final: boolean) => void;
  /** The fields the record gets once the run is over (its answer). */
  answer: (run: R) => Record<string, unknown>;
  /** Done once the run is over, before the workers are told: what the run leaves behind (a solve's jobs no longer wanted). */
  conclude?: (queue: Queue) => Promise<void>;
  /**
   * Kept up to date as the run goes: the units decided before this run (once read) and the
   * workers on the queue at the last look; what a caller that stops waiting (a timeout) reports.
   */
  seen?: { resumed: number; workers: number };
};

/** What the drive ends with: the run (or, for a run answered already, the record that holds its answer). */
export type Driven<R> = { run: R; stored?: undefined; resumed: number; workers: number } | { run?: undefined; stored: RunMeta; resumed: number; workers: number };

/** Units in all, said in a notice: "16 parts", "1 task". */
const unitsText = (units: number, unit: string): string => `${units} ${unit}${units === 1 ? "" : "s"}`;

// About 150 lines: the claim and the record, then the poll loop, which holds the queue, the
// event stream and the run's state together until the run is over.
export async function driveRun<R extends QueueRun>(s: DriveSetup<R>): Promise<Driven<R>> {
  const { name, redis, client, key, signal, notice } = s;
  const { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs } = s.timing;
  const { start } = s;
  const { bullmq: { Queue, QueueEvents } } = await queueLibraries();
  const queue = new Queue(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
  queue.on("error", () => {}); // polling reports failures
  let events: QueueEvents | undefined;
  let ended = false;
  // Both connections the steps use are asked (a PING, a flag read): a step waits on either.
  const wait: RedisWait = redisWaits(redis, () => Promise.all([client.ping(), queue.isPaused()]), { lostAfterMs, retryMs: pollMs }, signal);
  try {
    // The run's identity: refuse a queue that holds another run (another board too), or a
    // record that does not verify under the key. (Reads only.)
    const stored = await wait("the run's record", () => client.get(metaKey(name)));
    const runId = await wait("queue", () => claimQueue(stored, queue, name, key, s.record, s.same));
    const storedMeta = stored === null ? undefined : JSON.parse(stored) as RunMeta;
    if (storedMeta && storedMeta.run === runId && s.answered?.(storedMeta)) { ended = true; return { stored: storedMeta, resumed: s.units, workers: 0 }; }
    const record: RunMeta = signed(key, RUN_DOMAIN, name, { ...s.record, run: runId } as RunMeta);
    const recordText = JSON.stringify(record);
    /** The run's record written whole (one SET, so never half of it), again when asked to. */
    const writeRecord = (): Promise<unknown> => wait("the run's record", () => client.set(metaKey(name), recordText));
    // Listed and announced (a set's member, a message: the same again is no change).
    const announce = async (): Promise<void> => {
      await wait("the run list", () => client.sadd(ACTIVE_RUNS_KEY, name));
      await wait("the run list", () => client.publish(RUNS_CHANNEL, name)); // idle workers join now rather than at their next look
    };
    // The record before any job, and the run listed as soon as its record is there: a run stopped
    // during its start (a timeout, Ctrl-C, Redis lost) is one the workers go on with, and the
    // same command resumes it (the jobs not enqueued yet are then).
    if (storedMeta?.run !== runId) await writeRecord();
    await announce();
    const toldAt = performance.now();
    /** Whether the record Redis holds now is this run's (as written, or finished by a coordinator under the same key). */
    const recordOk = (text: string): boolean => {
      if (text === recordText) return true;
      let meta: RunMeta;
      try { meta = JSON.parse(text) as RunMeta; } catch { return false; }
      return s.same(meta) && meta.run === runId && (key ? verifies(key, RUN_DOMAIN, name, meta) : meta.mac === undefined);
    };

    const run = s.makeRun({ runId, queue });
    events = new QueueEvents(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
    events.on("error", () => {}); // polling reports failures
    const waker = new Waker(signal);
    const requestWake = (): void => waker.wake();
    events.on("completed", ({ jobId }) => { run.sawCompleted(jobId); requestWake(); });
    events.on("failed", ({ jobId }) => { run.sawFailed(jobId); requestWake(); });
    const ready = events.waitUntilReady();
    ready.catch(() => {}); // met below, unless the wait ends first
    await wait("queue events", () => within(ready, connectTimeoutMs, "queue events").catch((e) => { throw lost(redis, e, RESUME_HINT); }));
    run.onWake = requestWake;

    // Units that failed for good in an earlier run are written afresh (from this coordinator's
    // own split, so a job someone rewrote is put right), then every unit is enqueued
    // (idempotent: existing job ids are kept as they are), then what is already done is read.
    // Each is made again after a failure, or left midway, as a resumed run would: a failed job
    // removed or not, some jobs added (one job a command), some results read (read again).
    // What was decided before this run is what was completed before the enqueue: a worker may
    // answer a job between the enqueue and the read (a fresh run said "1 decided before").
    await wait("queue", () => run.removeFailed());
    const before = await wait("queue", () => run.completedNow());
    await wait("queue", () => run.enqueueAll());
    const resumed = await wait("queue", () => run.scanCompletedAfter(before));
    if (s.seen) s.seen.resumed = resumed;

    const progress = new ProgressThrottle(s.onProgress && ((p: { p: DriveProgress; final: boolean }) => s.onProgress!(p.p, p.final)), QUEUE_PROGRESS_INTERVAL_MS);
    const report = (done: number, workers: number, final: boolean): void => {
      progress.report(() => ({ p: { done, resumed, workers, elapsedMs: performance.now() - start }, final }), final);
    };

    /** The run's keys are gone (Redis restarted empty, or removed): put the run back from what this coordinator knows. */
    let recreated = 0;
    const recreate = async (what: string): Promise<void> => {
      if (++recreated > MAX_RECREATE) {
        throw withCode(new Error(`queue ${name}: ${what} again (${MAX_RECREATE} times already); stopping: check what empties this Redis, then run the same command again`), ErrorCode.queueLost);
      }
      notice(`queue ${name}: ${what}; putting the run back (${unitsText(s.units, s.unit)}, the lost results are ${s.unit === "part" ? "counted" : "searched"} again)`);
      // As at the start: the record first, then the list, then the jobs.
      await writeRecord();
      await announce();
      await wait("queue", () => run.enqueueAll());
    };

    let workers = 0;
    let workersAsked = -Infinity;
    // No worker on the run JOIN_GRACE_MS after the workers were told of it, or after the last one went: said once each time.
    let noWorkerSince: number | undefined = toldAt, noWorkerSaid = false, hadWorkers = false;
    // No unit finished for stallNoticeMs: say why the run may be waiting (again after each stretch).
    let lastAccepted = -1, progressAt = performance.now(), noticedAt = -Infinity;
    let answered = performance.now();
    run.watching();
    let stepping: Promise<void> | undefined;
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      let counts: Record<string, number>;
      let now: string | null;
      try {
        [counts, now] = await within(Promise.all([queue.getJobCounts(), client.get(metaKey(name))]), lostAfterMs, "queue", signal);
        answered = performance.now();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (performance.now() - answered >= lostAfterMs) throw lost(redis, error, RESUME_HINT);
        await sleep(pollMs, signal);
        continue;
      }
      if (now === null) {
        await recreate(RUN_GONE);
        continue;
      }
      if (!recordOk(now)) {
        // Someone rewrote the run's record mid-run: workers would refuse its jobs (keyed) or
        // re-derive units from it (plain, re-checked by digest); this coordinator's copy wins.
        notice(`queue ${name}: the run's record in Redis was changed; written back`);
        await writeRecord();
      }
      try {
        // One round's reads at a time: a slow round (a loaded machine, a big batch) is waited
        // for again next time, never run twice side by side.
        stepping ??= run.step(counts).finally(() => { stepping = undefined; });
        stepping.catch(() => {}); // awaited below; a round that ends after its wait is met again by the next (run.step rethrows its verdict)
        await within(stepping, lostAfterMs, "queue", signal);
        answered = performance.now(); // a round's reads answered too
      } catch (error) {
        if (signal?.aborted || (error as { code?: string }).code?.startsWith("NQ_")) throw error;
        // Redis slow or gone: the next round's counts say so
      }
      if (run.vanished.length > 0) {
        const missing = run.vanished.splice(0);
        await recreate(`${missing.length} of its ${s.unit}s vanished from Redis (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""})`);
        continue;
      }
      // Workers connected (a CLIENT LIST in Redis): every second, and every round while none is seen yet.
      if (workers === 0 || performance.now() - workersAsked >= 1000) {
        workersAsked = performance.now();
        workers = await within(queue.getWorkersCount(), lostAfterMs, "queue", signal).catch(() => workers);
        if (s.seen) s.seen.workers = workers;
      }
      if (workers > 0) { noWorkerSince = undefined; noWorkerSaid = false; hadWorkers = true; }
      else if (!noWorkerSaid && performance.now() - (noWorkerSince ??= performance.now()) >= JOIN_GRACE_MS) {
        // A run taken out of the run list by hand has its workers leave it: its stall notice says why, not this.
        const listed = await within(client.sismember(ACTIVE_RUNS_KEY, name), lostAfterMs, "the run list", signal).then((m) => m === 1, () => undefined);
        if (listed === false) noWorkerSince = performance.now();
        else { noWorkerSaid = true; notice(noWorkerText(name, { before: hadWorkers, keyed: key !== undefined })); }
      }
      report(run.accepted, workers, false);
      const at = performance.now();
      if (run.activity !== lastAccepted) { lastAccepted = run.activity; progressAt = at; }
      else if (run.accepted < s.units && at - Math.max(progressAt, noticedAt) >= stallNoticeMs) {
        noticedAt = at;
        const listed = await within(client.sismember(ACTIVE_RUNS_KEY, name), lostAfterMs, "the run list", signal).then((m) => m === 1, () => undefined);
        notice(stallText(name, at - progressAt, { listed, workers, active: counts.active ?? 0, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0), done: run.accepted, parts: s.units, replicas: s.replicas, keyed: key !== undefined, unit: s.unit }));
      }
      if (await run.finished()) break;
      await waker.nap(pollMs);
    }
    report(run.accepted, workers, true);
    // The answer (one SET) before anything is removed: a run stopped after it answers from the
    // record (a solve) or finds every result still there (a count); stopped before it, it runs on.
    const final = signed(key, RUN_DOMAIN, name, { ...record, mac: undefined, ...s.answer(run) });
    await wait("the run's record", () => client.set(metaKey(name), JSON.stringify(final)));
    if (s.conclude) await wait("queue", () => s.conclude!(queue));
    await wait("the run list", () => client.srem(ACTIVE_RUNS_KEY, name));
    await wait("the run list", () => client.publish(RUNS_CHANNEL, name)); // the workers leave the finished run
    ended = true;
    return { run, resumed, workers };
  } finally {
    // close() waits for Redis; when it is gone, drop the connections instead. A run that ends
    // with an error (Redis lost, aborted) closes and drops them without waiting (a stopped Redis
    // holds a disconnect 2 s), so its error comes at once; closed, so nothing reconnects.
    if (ended) await Promise.all([queue, events].map((q) => q && within(q.close(), 1000, "close").catch(() => within(q.disconnect(), 1000, "disconnect")).catch(() => {})));
    else for (const q of [queue, events]) if (q) { q.close().catch(() => {}); q.disconnect().catch(() => {}); }
    client.disconnect();
  }
}

/** The coordinator's sleep between polls: up to `ms`, less when a worker's notice or an abort comes. */
class Waker {
  private wakeUp: (() => void) | undefined;
  private requested = false;
  constructor(private readonly signal: AbortSignal | undefined) {}
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.requested = true;
  }
  nap(ms: number): Promise<void> {
    if (this.requested || this.signal?.aborted) { this.requested = false; return Promise.resolve(); }
    return new Promise((resolve) => {
      const done = (): void => { clearTimeout(timer); this.wakeUp = undefined; this.requested = false; this.signal?.removeEventListener("abort", done); resolve(); };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
      this.signal?.addEventListener("abort", done, { once: true });
    });
  }
}
