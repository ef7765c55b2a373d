// A run driven on the queue by its coordinator (internal), a count's (./coordinator.ts) or a
// solve's (./solve-coordinator.ts): the queue claimed and the run's record written (MACed),
// the run listed for the workers and announced, its jobs enqueued and what is already done
// read, then the poll loop until the run says it is over: the event stream and the queue's
// counts feed the run (./queue-run.ts), a record someone changed is written back, a run whose
// keys vanished is put back, a run that waits says why, and Redis lost for lostAfterMs ends it.
// At the end the record gets the answer, and the workers are told the run is over.
import type { Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import { ErrorCode, withCode } from "../core/errors.js";
import { ProgressThrottle } from "../core/pacer.js";
import { bull, lost, sleep, within, type RedisConnectionOptions } from "./redis.js";
import { ACTIVE_RUNS_KEY, RUNS_CHANNEL, metaKey, type RunMeta } from "./keys.js";
import { queueLibraries } from "./deps.js";
import { RUN_DOMAIN, signed, verifies } from "./auth.js";
import { claimQueue } from "./claim.js";
import { stallText } from "./waiting.js";
import type { QueueRun } from "./queue-run.js";

/** How many times a run whose keys vanish is put back before the coordinator gives up (NQ_QUEUE_LOST). */
const MAX_RECREATE = 3;
const RUN_GONE = "Redis no longer holds this run (restarted empty, or the run was removed)";
/** Least time between two of the coordinator's progress reports (it reports what its polls of Redis see). */
const QUEUE_PROGRESS_INTERVAL_MS = 200;

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
  try {
    // The run's identity: refuse a queue that holds another run (another board too), or a
    // record that does not verify under the key.
    const stored = await client.get(metaKey(name)).catch((e) => { throw lost(redis, e); });
    const runId = await claimQueue(stored, queue, name, key, s.record, s.same);
    const storedMeta = stored === null ? undefined : JSON.parse(stored) as RunMeta;
    if (storedMeta && storedMeta.run === runId && s.answered?.(storedMeta)) return { stored: storedMeta, resumed: s.units, workers: 0 };
    const record: RunMeta = signed(key, RUN_DOMAIN, name, { ...s.record, run: runId } as RunMeta);
    const recordText = JSON.stringify(record);
    if (storedMeta?.run !== runId) await client.set(metaKey(name), recordText);
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
    await within(events.waitUntilReady(), connectTimeoutMs, "queue events").catch((e) => { throw lost(redis, e); });
    run.onWake = requestWake;

    const announce = async (): Promise<void> => {
      await client.sadd(ACTIVE_RUNS_KEY, name);
      await client.publish(RUNS_CHANNEL, name); // idle workers join now rather than at their next look
    };
    // Units that failed for good in an earlier run are written afresh (from this coordinator's
    // own split, so a job someone rewrote is put right), then every unit is enqueued
    // (idempotent: existing job ids are kept as they are), then what is already done is read.
    await run.removeFailed();
    await run.enqueueAll();
    await announce();
    await run.scanCompleted();
    const resumed = run.accepted;

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
      await client.set(metaKey(name), recordText);
      await run.enqueueAll();
      await announce();
    };

    let workers = 0;
    let workersAsked = -Infinity;
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
        [counts, now] = await within(Promise.all([queue.getJobCounts(), client.get(metaKey(name))]), lostAfterMs, "queue");
        answered = performance.now();
      } catch (error) {
        if (performance.now() - answered >= lostAfterMs) throw lost(redis, error);
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
        await client.set(metaKey(name), recordText);
      }
      try {
        // One round's reads at a time: a slow round (a loaded machine, a big batch) is waited
        // for again next time, never run twice side by side.
        stepping ??= run.step(counts).finally(() => { stepping = undefined; });
        stepping.catch(() => {}); // awaited below; a round that ends after its wait is met again by the next (run.step rethrows its verdict)
        await within(stepping, lostAfterMs, "queue");
        answered = performance.now(); // a round's reads answered too
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith("NQ_")) throw error;
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
        workers = await within(queue.getWorkersCount(), lostAfterMs, "queue").catch(() => workers);
      }
      report(run.accepted, workers, false);
      const at = performance.now();
      if (run.activity !== lastAccepted) { lastAccepted = run.activity; progressAt = at; }
      else if (run.accepted < s.units && at - Math.max(progressAt, noticedAt) >= stallNoticeMs) {
        noticedAt = at;
        notice(stallText(name, at - progressAt, { workers, active: counts.active ?? 0, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0), done: run.accepted, parts: s.units, replicas: s.replicas, keyed: key !== undefined, unit: s.unit }));
      }
      if (await run.finished()) break;
      await waker.nap(pollMs);
    }
    report(run.accepted, workers, true);
    const final = signed(key, RUN_DOMAIN, name, { ...record, mac: undefined, ...s.answer(run) });
    await client.set(metaKey(name), JSON.stringify(final));
    await s.conclude?.(queue);
    await client.srem(ACTIVE_RUNS_KEY, name);
    await client.publish(RUNS_CHANNEL, name); // the workers leave the finished run
    return { run, resumed, workers };
  } finally {
    // close() waits for Redis; when it is gone, drop the connections instead.
    await Promise.all([queue, events].map((q) => q && within(q.close(), 1000, "close").catch(() => within(q.disconnect(), 1000, "disconnect")).catch(() => {})));
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
