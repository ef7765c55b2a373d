// Distributed counting over Redis with BullMQ (Node only; entry `nqueens-wasm/distributed`,
// never imported by src/index.ts so the browser bundle stays free of it).
//
// countDistributed(n) is the coordinator: it puts the parts of splitCount(n) on a queue
// named after n, parts and SPLIT_VERSION (job id = part index, so enqueueing twice adds
// nothing), waits for them, and merges the results stored as the jobs' return values by
// part index (a part counted twice is still added once). Finished jobs stay in Redis, so a
// coordinator started again after a stop reuses their results instead of recounting.
//
// startWorker() is the long-running worker: it finds the runs to work on in a Redis set,
// told at once of new and finished runs by a Redis PUBLISH on RUNS_CHANNEL (the set is
// polled too, slowly, in case a message is missed), or is given one queue, and counts each part with countTask on the Wasm engine in a
// worker thread (the same embedded worker as countParallel), `concurrency` parts at once.
// A worker killed mid-part loses its lock; another worker's stalled-job check puts the part
// back on the queue. close() (SIGTERM/SIGINT in the CLI) finishes the parts in hand first.
import { Worker as ThreadWorker } from "node:worker_threads";
import { availableParallelism } from "node:os";
import { Queue, QueueEvents, WaitingError, Worker as QueueWorker, type ConnectionOptions, type Job } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import workerSource from "../../build/worker-source.js";
import type { CountResult } from "../count/count.js";
import type { ParallelProgress } from "../count/parallel.js";
import { ErrorCode, rangeError, typeError, withCode } from "../core/errors.js";
import { SPLIT_VERSION, defaultParts, mergeCounts, splitCount, type CountPart, type PartCount } from "../count/parts.js";
import { checkInteger, checkOptions, optionalFunction, optionalSignal } from "../core/validate.js";
import { countPartWebGpu } from "../engine/webgpu/part.js";
import { gpuInfo } from "../engine/webgpu/device.js";
import type { WorkerRequest, WorkerResponse } from "../workers/worker.js";

/** Where Redis is: a URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS) or ioredis options. */
export type Connection = string | RedisOptions;

/** Error codes of this module (set as `.code`). */
/** The queue's error codes (also in `ErrorCode`, which lists every code of the package). */
export const DistributedErrorCode = {
  unreachable: ErrorCode.queueUnreachable,
  mismatch: ErrorCode.queueMismatch,
  failed: ErrorCode.queuePartFailed,
  lost: ErrorCode.queueLost,
} as const;

/** The Redis set that lists the queues of unfinished runs, for workers to find. */
export const ACTIVE_RUNS_KEY = "nqueens:runs";
/** The Redis pub/sub channel on which coordinators announce that a run started or finished (message: the queue). */
export const RUNS_CHANNEL = "nqueens:runs:changed";
const metaKey = (queue: string): string => `nqueens:meta:${queue}`;
/** Hash part -> how many times a worker finished counting it (tests read it: nothing is recounted). */
export const countedKey = (queue: string): string => `nqueens:counted:${queue}`;

/** The queue a run uses by default: its name says n, the number of parts and the split version. */
export function queueName(n: number, parts: number): string {
  return `nqueens-count-n${n}-p${parts}-v${SPLIT_VERSION}`;
}

/**
 * Default number of parts of a run on the queue: splitCount's, but fewer (so longer) from
 * n = 11 to 17. A part costs the queue about 2 ms of wall time however long it is (measured
 * with 2 workers, Redis on the same machine), a fifth of a part at n = 16 with 256 parts
 * (10 ms); from n = 18 a part takes seconds. Runs started before this default (n = 11 to 17)
 * are on queues named after splitCount's parts: 64 up to n = 14, 256 from n = 15.
 */
export function defaultQueueParts(n: number): number {
  return Math.min(defaultParts(n), n <= 16 ? 32 : n === 17 ? 64 : 256);
}

/** Job id of a part: derived from the part, so adding it twice adds nothing. */
const jobId = (part: number): string => `part-${part}`;

type RunMeta = { format: "nqueens-count-run"; n: number; parts: number; splitVersion: number; total?: string; unique?: string };


/** ioredis options from a URL or options object. */
export function redisOptions(connection: Connection): RedisOptions {
  if (typeof connection !== "string") {
    if (typeof connection !== "object" || connection === null) throw rangeError(`connection must be a redis:// URL or ioredis options, got ${String(connection)}`);
    return { ...connection };
  }
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    throw rangeError(`connection must be a redis:// URL such as redis://127.0.0.1:6379, got ${JSON.stringify(connection)}`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw rangeError(`connection must be a redis:// or rediss:// URL, got ${JSON.stringify(connection)}`);
  }
  const db = url.pathname.replace(/^\//, "");
  return {
    host: url.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  };
}

/** ioredis options as BullMQ's connection option (BullMQ's own type is looser than ioredis's). */
const bull = (options: RedisOptions): ConnectionOptions => options as unknown as ConnectionOptions;

function describeConnection(options: RedisOptions): string {
  return `${options.host ?? "127.0.0.1"}:${options.port ?? 6379}`;
}

/**
 * Connects and pings within `timeoutMs`, without ioredis's endless retries, so a wrong
 * address is a clear error at once rather than a hang. Returns a client for small
 * commands (a few retries, then an error).
 */
async function connect(options: RedisOptions, timeoutMs: number): Promise<Redis> {
  const probe = new Redis({
    ...options, lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false,
    retryStrategy: () => null,
    disconnectTimeout: 100, // else a refused socket keeps the process alive 2 s after the error
  });
  let cause: Error | undefined;
  probe.on("error", (e: Error) => { cause ??= e; }); // reported below
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe.connect().then(() => probe.ping()),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs); }),
    ]);
  } catch (error) {
    throw withCode(
      new Error(`cannot reach Redis at ${describeConnection(options)} (${(cause ?? error as Error)?.message ?? String(error)}); is redis-server running there?`),
      DistributedErrorCode.unreachable,
    );
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
  const client = new Redis({ ...options, connectTimeout: timeoutMs, maxRetriesPerRequest: 3 });
  client.on("error", () => {}); // commands fail with the error themselves
  return client;
}

/** Reads a Redis command's failure as "the connection is gone". */
function lost(options: RedisOptions, error: unknown): Error {
  if (error instanceof Error && (error as { code?: string }).code?.startsWith("NQ_")) return error;
  return withCode(
    new Error(`lost Redis at ${describeConnection(options)}: ${error instanceof Error ? error.message : String(error)}`),
    DistributedErrorCode.unreachable,
  );
}

/**
 * The coordinator's progress: the same fields as countParallel's, where `workers` is the
 * number of workers connected to the queue (as Redis sees them) and `tasksResumed` the parts
 * already finished when this coordinator started (results reused, not recounted).
 */
export type DistributedProgress = ParallelProgress;

export type DistributedOptions = {
  /** Redis: a URL such as redis://127.0.0.1:6379 or ioredis options. */
  connection: Connection;
  /** How many parts to split into (default: defaultQueueParts(n), fewer than splitCount's up to n = 17). */
  parts?: number;
  /** Queue name (default queueName(n, parts)); a queue that holds another run is refused. */
  queue?: string;
  /** Stops waiting (the jobs stay queued; run again to resume); rejects with the signal's reason. */
  signal?: AbortSignal;
  onProgress?: (progress: DistributedProgress) => void;
  /** How long to wait for Redis to answer at the start (default 3000 ms). */
  connectTimeoutMs?: number;
  /** How often to look at the queue between the workers' notices of finished parts (default 250 ms). */
  pollMs?: number;
  /** Give up when Redis has not answered for this long during the run (default 10000 ms; run again to resume). */
  lostAfterMs?: number;
};

export type DistributedResult = CountResult & { parts: number; resumed: number; queue: string };

/** A promise that rejects when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void { clearTimeout(timer); signal?.removeEventListener("abort", done); resolve(); }
    signal?.addEventListener("abort", done, { once: true });
  });

/**
 * The coordinator: counts n over a BullMQ queue that workers (startWorker or
 * `nqueens worker`) take parts from. Run again after a stop, it resumes.
 * @example const { total } = await countDistributed(16, { connection: "redis://127.0.0.1:6379" });
 */
export async function countDistributed(n: number, options: DistributedOptions): Promise<DistributedResult> {
  checkInteger("n", n, 4, 32);
  const opts = checkOptions<DistributedOptions>("countDistributed", options, ["connection", "parts", "queue", "signal", "onProgress", "connectTimeoutMs", "pollMs", "lostAfterMs"]);
  const redis = redisOptions(opts.connection as Connection);
  if (opts.parts !== undefined) checkInteger("parts", opts.parts, 1, 100_000);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: DistributedProgress) => void>("onProgress", opts.onProgress);
  const connectTimeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const pollMs = opts.pollMs === undefined ? 250 : checkInteger("pollMs", opts.pollMs, 10, 60_000);
  const lostAfterMs = opts.lostAfterMs === undefined ? 10_000 : checkInteger("lostAfterMs", opts.lostAfterMs, 100, 3_600_000);
  signal?.throwIfAborted();
  const start = performance.now();

  const parts = splitCount(n, { parts: opts.parts ?? defaultQueueParts(n) });
  const name = opts.queue ?? queueName(n, parts.length);
  if (typeof name !== "string" || !/^[A-Za-z0-9._-]+$/.test(name)) throw rangeError(`queue must be a name of letters, digits, '.', '_' and '-', got ${JSON.stringify(name)}`);

  const client = await connect(redis, connectTimeoutMs);
  const queue = new Queue(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
  queue.on("error", () => {}); // polling reports failures
  // BullMQ's event stream says when a part finishes, so the last one is seen at once
  // instead of at the next poll; the poll stays, for progress and to notice a lost Redis.
  let events: QueueEvents | undefined;
  try {
    // The run's identity: refuse a queue that holds another run.
    const want: RunMeta = { format: "nqueens-count-run", n, parts: parts.length, splitVersion: SPLIT_VERSION };
    const stored = await client.get(metaKey(name)).catch((e) => { throw lost(redis, e); });
    if (stored !== null) {
      let meta: RunMeta | undefined;
      try { meta = JSON.parse(stored) as RunMeta; } catch { /* refused below */ }
      if (!meta || meta.format !== want.format || meta.n !== n || meta.parts !== parts.length || meta.splitVersion !== SPLIT_VERSION) {
        throw withCode(rangeError(
          `queue ${name} holds another count (${meta ? `n = ${meta.n}, ${meta.parts} parts, split version ${meta.splitVersion}` : "unreadable"}), ` +
          `not n = ${n}, ${parts.length} parts, split version ${SPLIT_VERSION}: use another queue name or remove that run`,
        ), DistributedErrorCode.mismatch);
      }
    } else {
      const counts = await queue.getJobCounts();
      const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
      if (jobs > 0) {
        throw withCode(rangeError(`queue ${name} holds ${jobs} jobs that are not an nqueens count: use another queue name`), DistributedErrorCode.mismatch);
      }
      await client.set(metaKey(name), JSON.stringify(want));
    }

    let known = 0, seen = 0, wakeRequested = false;
    let wake: (() => void) | undefined;
    const requestWake = (): void => { if (wake) wake(); else wakeRequested = true; };
    events = new QueueEvents(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
    events.on("error", () => {}); // polling reports failures
    events.on("completed", () => { if (known + ++seen >= parts.length) requestWake(); });
    events.on("failed", requestWake);
    await within(events.waitUntilReady(), connectTimeoutMs, "queue events").catch((e) => { throw lost(redis, e); });
    /** Sleeps up to `ms`, less when a notice or an abort comes. */
    const nap = (ms: number): Promise<void> => {
      if (wakeRequested || signal?.aborted) { wakeRequested = false; return Promise.resolve(); }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done(): void { clearTimeout(timer); wake = undefined; signal?.removeEventListener("abort", done); resolve(); }
        wake = done;
        signal?.addEventListener("abort", done, { once: true });
      });
    };

    // Enqueue every part (idempotent: existing job ids are kept as they are), retry failed ones.
    await queue.addBulk(parts.map((part) => ({
      name: "part",
      data: part,
      opts: { jobId: jobId(part.part), attempts: 3, backoff: { type: "fixed", delay: 500 }, removeOnComplete: false, removeOnFail: false },
    })));
    for (const job of await queue.getFailed(0, -1)) await job.retry("failed").catch(() => {});
    await client.sadd(ACTIVE_RUNS_KEY, name);
    await client.publish(RUNS_CHANNEL, name); // idle workers join now rather than at their next look

    const completedAtStart = await queue.getCompletedCount();
    let lastReport = -Infinity;
    const report = (done: number, workers: number, final: boolean): void => {
      if (!onProgress || (!final && performance.now() - lastReport < 200)) return;
      lastReport = performance.now();
      const elapsedMs = performance.now() - start;
      const here = done - completedAtStart;
      const rate = here > 0 ? here / (elapsedMs / 1000) : undefined;
      onProgress({
        phase: "count", n, tasksDone: done, tasksTotal: parts.length, tasksResumed: completedAtStart, workers, elapsedMs, rate,
        etaMs: rate ? ((parts.length - done) / rate) * 1000 : undefined,
      });
    };

    // Wait, watching the counts.
    let workers = 0;
    let workersAsked = -Infinity;
    let answered = performance.now();
    for (;;) {
      if (signal?.aborted) throw signal.reason;
      let counts: { completed: number; failed: number };
      try {
        counts = await within(queue.getJobCounts("completed", "failed"), lostAfterMs, "queue") as typeof counts;
        answered = performance.now();
      } catch (error) {
        if (performance.now() - answered >= lostAfterMs) throw lost(redis, error);
        await sleep(pollMs, signal);
        continue;
      }
      known = counts.completed;
      seen = 0;
      // Workers connected (a CLIENT LIST in Redis): every second, and every round while none is seen
      // yet, so the count is right from the first parts on.
      if (workers === 0 || performance.now() - workersAsked >= 1000) {
        workersAsked = performance.now();
        workers = await within(queue.getWorkersCount(), lostAfterMs, "queue").catch(() => workers);
      }
      if (counts.failed > 0) {
        const [job] = await queue.getFailed(0, 0);
        throw withCode(
          new Error(`part ${job?.data?.part ?? "?"} of queue ${name} failed ${job?.attemptsMade ?? "?"} times: ${job?.failedReason ?? "unknown reason"} (run the same command again to retry it)`),
          DistributedErrorCode.failed,
        );
      }
      report(counts.completed, workers, false);
      if (counts.completed >= parts.length) break;
      await nap(pollMs);
    }

    // Merge by part index: each part once, whichever job run produced it.
    const results = new Map<number, PartCount>();
    for (const job of await queue.getCompleted(0, -1)) {
      const r = (typeof job.returnvalue === "string" ? JSON.parse(job.returnvalue) : job.returnvalue) as PartCount;
      if (r && r.n === n && r.parts === parts.length && r.splitVersion === SPLIT_VERSION && !results.has(r.part)) results.set(r.part, r);
    }
    const merged = mergeCounts(parts.map((p) => {
      const r = results.get(p.part);
      if (!r) throw withCode(new Error(`queue ${name} has no result for part ${p.part}`), DistributedErrorCode.failed);
      return r;
    }), { n, parts: parts.length });
    report(parts.length, workers, true);
    await client.set(metaKey(name), JSON.stringify({ ...want, total: String(merged.total), unique: String(merged.unique) }));
    await client.srem(ACTIVE_RUNS_KEY, name);
    await client.publish(RUNS_CHANNEL, name); // the workers leave the finished run
    return { ...merged, ms: performance.now() - start, engine: "wasm", parts: parts.length, resumed: completedAtStart, queue: name };
  } finally {
    // close() waits for Redis; when it is gone, drop the connections instead.
    await Promise.all([queue, events].map((q) => q && within(q.close(), 1000, "close").catch(() => within(q.disconnect(), 1000, "disconnect")).catch(() => {})));
    client.disconnect();
  }
}

/** One run as Redis holds it (listRuns). */
export type RunInfo = {
  queue: string;
  n: number;
  parts: number;
  splitVersion: number;
  /** Parts finished, being counted, waiting (including delayed retries), failed for good. */
  done: number;
  active: number;
  waiting: number;
  failed: number;
  /** Worker connections on the queue now. */
  workers: number;
  /** Listed for workers to find: a coordinator started it and has not yet seen it finish. */
  open: boolean;
  /** Set once a coordinator has merged every part. */
  total?: bigint;
  unique?: bigint;
  /** Set when the run's record (`nqueens:meta:QUEUE`) cannot be read as it should: what is wrong. */
  unreadable?: string;
};

/** A stored count (a decimal integer string) as a bigint, or undefined when it is not one. */
function storedCount(value: unknown): bigint | undefined {
  return typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : undefined;
}

/**
 * Every run recorded in Redis (finished or not), by queue name: its parts done, in hand
 * and waiting, the workers on it and, once merged, its total. A run whose record holds
 * a total that is not a count is listed with `unreadable` saying so (and no total);
 * Redis that stops answering is an NQ_QUEUE_UNREACHABLE error within connectTimeoutMs.
 * @example for (const run of await listRuns({ connection: "redis://127.0.0.1:6379" })) console.log(run.queue, run.done, run.parts);
 */
export async function listRuns(options: { connection: Connection; connectTimeoutMs?: number }): Promise<RunInfo[]> {
  const opts = checkOptions<{ connection: Connection; connectTimeoutMs: number }>("listRuns", options, ["connection", "connectTimeoutMs"]);
  const redis = redisOptions(opts.connection as Connection);
  const timeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const client = await connect(redis, timeoutMs);
  // Only Redis's answers can fail for want of Redis; reading what it holds is checked apart.
  // Each waits at most timeoutMs: BullMQ's connection retries forever when Redis is gone.
  const ask = <T>(promise: Promise<T>, what: string): Promise<T> => within(promise, timeoutMs, what).catch((e) => { throw lost(redis, e); });
  try {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, found] = await ask(client.scan(cursor, "MATCH", metaKey("*"), "COUNT", 1000), "scan");
      cursor = next;
      keys.push(...found);
    } while (cursor !== "0");
    const open = new Set(await ask(client.smembers(ACTIVE_RUNS_KEY), "smembers"));
    const runs: RunInfo[] = [];
    for (const key of [...new Set(keys)].sort()) {
      const name = key.slice(metaKey("").length);
      const stored = await ask(client.get(key), "get");
      let meta: RunMeta | undefined;
      try { meta = stored === null ? undefined : JSON.parse(stored) as RunMeta; } catch { /* not ours */ }
      if (!meta || meta.format !== "nqueens-count-run") continue;
      const problems: string[] = [];
      for (const field of ["n", "parts", "splitVersion"] as const) {
        if (!Number.isSafeInteger(meta[field])) problems.push(`${field} ${JSON.stringify(meta[field]) ?? "missing"} is not an integer`);
      }
      const total = meta.total === undefined ? undefined : storedCount(meta.total);
      const unique = meta.total === undefined ? undefined : storedCount(meta.unique);
      if (meta.total !== undefined && total === undefined) problems.push(`the stored total ${JSON.stringify(meta.total)} is not a count`);
      if (meta.total !== undefined && unique === undefined) problems.push(`the stored unique ${JSON.stringify(meta.unique) ?? "(missing)"} is not a count`);
      const queue = new Queue(name, { connection: bull({ ...redis, connectTimeout: timeoutMs }) });
      queue.on("error", () => {});
      try {
        const counts = await ask(queue.getJobCounts("completed", "active", "waiting", "prioritized", "delayed", "failed"), `queue ${name}`);
        runs.push({
          queue: name, n: meta.n, parts: meta.parts, splitVersion: meta.splitVersion,
          done: counts.completed, active: counts.active, waiting: counts.waiting + counts.prioritized + counts.delayed, failed: counts.failed,
          workers: await ask(queue.getWorkersCount(), `queue ${name}`), open: open.has(name),
          ...(total !== undefined && unique !== undefined ? { total, unique } : {}),
          ...(problems.length ? { unreadable: `${key}: ${problems.join("; ")}` } : {}),
        });
      } finally {
        await within(queue.close(), 1000, "close").catch(() => within(queue.disconnect(), 1000, "disconnect")).catch(() => {});
      }
    }
    return runs;
  } finally {
    client.disconnect();
  }
}

/** Removes a run from Redis: its queue, its jobs and results, its meta keys. */
export async function removeRun(queue: string, options: { connection: Connection; connectTimeoutMs?: number }): Promise<void> {
  const redis = redisOptions(options.connection);
  const client = await connect(redis, options.connectTimeoutMs ?? 3000);
  const q = new Queue(queue, { connection: bull(redis) });
  try {
    await q.obliterate({ force: true });
    await client.del(metaKey(queue), countedKey(queue));
    await client.srem(ACTIVE_RUNS_KEY, queue);
    await client.publish(RUNS_CHANNEL, queue);
  } finally {
    await q.close().catch(() => {});
    client.disconnect();
  }
}

/** A small pool of counting threads (the embedded worker of countParallel). */
class ThreadPool {
  private idle: ThreadWorker[] = [];
  private waiters: { resolve: (t: ThreadWorker) => void; reject: (e: Error) => void }[] = [];
  private all = new Set<ThreadWorker>();
  private nextId = 0;
  private closed = false;
  constructor(private readonly size: number) {}

  private spawn(): ThreadWorker {
    const thread = new ThreadWorker(workerSource, { eval: true });
    this.all.add(thread);
    return thread;
  }

  private acquire(): Promise<ThreadWorker> {
    if (this.closed) return Promise.reject(new Error("the counting threads are stopped"));
    const thread = this.idle.pop();
    if (thread) return Promise.resolve(thread);
    if (this.all.size < this.size) return Promise.resolve(this.spawn());
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private release(thread: ThreadWorker): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(thread);
    else this.idle.push(thread);
  }

  async run(part: CountPart): Promise<PartCount> {
    const thread = await this.acquire();
    const id = this.nextId++;
    return new Promise<PartCount>((resolve, reject) => {
      const cleanup = (): void => { thread.off("message", onMessage); thread.off("error", onDeath); thread.off("exit", onDeath); };
      const onMessage = (m: WorkerResponse): void => {
        if (m.id !== id) return;
        cleanup();
        this.release(thread);
        if (m.error !== undefined) reject(new Error(m.error));
        else resolve(m.result!);
      };
      const onDeath = (reason: unknown): void => {
        cleanup();
        this.all.delete(thread);
        const waiter = this.closed ? undefined : this.waiters.shift();
        if (waiter) waiter.resolve(this.spawn());
        reject(new Error(`counting thread died: ${String(reason)}`));
      };
      thread.on("message", onMessage);
      thread.on("error", onDeath);
      thread.on("exit", onDeath);
      thread.postMessage({ id, part, engine: "wasm" } satisfies WorkerRequest);
    });
  }

  /** Starts every thread and has it count a tiny part, so the first real part waits for nothing. */
  warm(): void {
    const tiny = splitCount(6, { parts: 1 })[0];
    for (let i = this.all.size; i < this.size; i++) void this.run(tiny).catch(() => {});
  }

  /** Stops every thread at once: the parts they count, and those waiting for one, reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("the counting threads are stopped"));
    await Promise.all([...this.all].map((t) => t.terminate()));
    this.all.clear();
    this.idle = [];
  }
}

export type WorkerEvent =
  | { type: "joined"; queue: string }
  /**
   * The run is no longer listed in `nqueens:runs`: `finished` (a coordinator stored its
   * total), `removed` (removeRun, `nqueens runs --remove`) or `unlisted` (taken out of the
   * set by hand; its parts stay).
   */
  | { type: "left"; queue: string; reason: "finished" | "removed" | "unlisted" }
  | { type: "counted"; queue: string; part: number; ms: number }
  | { type: "error"; queue?: string; message: string };

export type WorkerOptions = {
  /** Redis: a URL such as redis://127.0.0.1:6379 or ioredis options. */
  connection: Connection;
  /** Parts counted at once, each on its own thread (default: the cores available). */
  concurrency?: number;
  /**
   * Parts taken ahead of the threads (default 1): a thread that finishes a part starts the
   * next at once instead of waiting for a Redis round trip.
   */
  prefetch?: number;
  /** Work on this queue only (default: every unfinished run, found in Redis). */
  queue?: string;
  /** BullMQ lock of a part in hand, renewed every half of it (default 30000 ms). */
  lockDuration?: number;
  /** How often to look for parts whose worker died (default 30000 ms). */
  stalledInterval?: number;
  /** How often to look for new and finished runs besides the coordinators' notices (default 5000 ms). */
  pollMs?: number;
  connectTimeoutMs?: number;
  onEvent?: (event: WorkerEvent) => void;
  /**
   * Count the parts on this machine's GPU (engine 'webgpu', docs/gpu.md), one at a time
   * (concurrency defaults to 1). A part whose device is lost is counted again on the CPU
   * threads; without an adapter startWorker rejects with NQ_ENGINE_UNAVAILABLE.
   */
  gpu?: boolean;
};

export type DistributedWorker = {
  /** Parts this worker finished counting. */
  readonly counted: number;
  /**
   * Stops taking parts and finishes the parts in hand; with force, stops counting at once and
   * hands them back to the queue (or, Redis being gone, leaves them to the stalled-job check).
   */
  close(force?: boolean): Promise<void>;
};

/**
 * A long-running counting worker: takes parts from the queues of unfinished runs (or one
 * queue) and stores each part's count as its job's return value.
 * @example const worker = await startWorker({ connection: "redis://127.0.0.1:6379", concurrency: 2 });
 */
export async function startWorker(options: WorkerOptions): Promise<DistributedWorker> {
  const opts = checkOptions<WorkerOptions>("startWorker", options, ["connection", "concurrency", "prefetch", "queue", "lockDuration", "stalledInterval", "pollMs", "connectTimeoutMs", "onEvent", "gpu"]);
  if (opts.gpu !== undefined && typeof opts.gpu !== "boolean") throw typeError(`gpu must be true or false, got ${typeof opts.gpu}`);
  const gpu = opts.gpu === true;
  const redis = redisOptions(opts.connection as Connection);
  const concurrency = opts.concurrency === undefined ? (gpu ? 1 : availableParallelism()) : checkInteger("concurrency", opts.concurrency, 1, 256);
  const prefetch = opts.prefetch === undefined ? 1 : checkInteger("prefetch", opts.prefetch, 0, 256);
  const lockDuration = opts.lockDuration === undefined ? 30_000 : checkInteger("lockDuration", opts.lockDuration, 100, 3_600_000);
  const stalledInterval = opts.stalledInterval === undefined ? 30_000 : checkInteger("stalledInterval", opts.stalledInterval, 100, 3_600_000);
  const pollMs = opts.pollMs === undefined ? 5000 : checkInteger("pollMs", opts.pollMs, 10, 60_000);
  const connectTimeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const onEvent = optionalFunction<(e: WorkerEvent) => void>("onEvent", opts.onEvent) ?? (() => {});

  if (gpu) await gpuInfo(); // NQ_ENGINE_UNAVAILABLE, saying what is missing, before anything starts
  const stopGpu = new AbortController();
  let gpuTurn: Promise<unknown> = Promise.resolve(); // parts take turns on the GPU
  const onGpu = (part: CountPart): Promise<PartCount> => {
    const turn = gpuTurn.then(() => countPartWebGpu(part, { signal: stopGpu.signal }));
    gpuTurn = turn.catch(() => {});
    return turn;
  };
  const client = await connect(redis, connectTimeoutMs);
  const pool = new ThreadPool(concurrency);
  const workers = new Map<string, QueueWorker>();
  let counted = 0;
  let closing = false;
  let forced = false;
  const inHand = new Set<Promise<unknown>>(); // parts being counted or handed back, for close(true) to wait on
  const track = <T>(promise: Promise<T>): Promise<T> => {
    const settled = promise.then(() => {}, () => {}).finally(() => inHand.delete(settled));
    inHand.add(settled);
    return promise;
  };

  const join = (name: string): void => {
    const worker = new QueueWorker(name, (job: Job<CountPart>, token?: string) => track(countPart(name, job, token)), {
      connection: bull(redis), concurrency: concurrency + prefetch, lockDuration, stalledInterval, maxStalledCount: 3,
    });
    worker.on("error", (e) => onEvent({ type: "error", queue: name, message: e.message }));
    workers.set(name, worker);
    onEvent({ type: "joined", queue: name });
  };

  const countPart = async (name: string, job: Job<CountPart>, token?: string): Promise<PartCount> => {
    const t0 = performance.now();
    let result: PartCount;
    try {
      if (!gpu) result = await pool.run(job.data);
      else {
        try {
          result = await onGpu(job.data);
        } catch (error) {
          if ((error as { code?: string })?.code !== ErrorCode.deviceLost || forced) throw error;
          onEvent({ type: "error", queue: name, message: `part ${job.data.part}: ${(error as Error).message}; counting it on the CPU instead` });
          result = await pool.run(job.data);
        }
      }
    } catch (error) {
      // Stopped at once (close(true)): hand the part back to the queue, without using up
      // one of its attempts, for another worker to take now rather than after its lock.
      if (!forced) throw error;
      await job.moveToWait(token);
      throw new WaitingError();
    }
    await client.hincrby(countedKey(name), String(result.part), 1);
    counted++;
    onEvent({ type: "counted", queue: name, part: result.part, ms: performance.now() - t0 });
    return result;
  };

  const leave = async (name: string): Promise<void> => {
    const worker = workers.get(name);
    workers.delete(name);
    await worker?.close();
    const stored = await client.get(metaKey(name)).catch(() => undefined);
    let total: unknown;
    try { total = stored ? (JSON.parse(stored) as RunMeta).total : undefined; } catch { /* unlisted */ }
    onEvent({ type: "left", queue: name, reason: total !== undefined ? "finished" : stored === null ? "removed" : "unlisted" });
  };

  // One look at a time; a notice during a look makes another look right after it.
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  const look = async (): Promise<void> => {
    try {
      const names = opts.queue ? [opts.queue] : await client.smembers(ACTIVE_RUNS_KEY);
      if (closing) return;
      for (const name of names) if (!workers.has(name)) join(name);
      for (const name of [...workers.keys()]) if (!names.includes(name)) await leave(name);
    } catch (error) {
      if (!closing) onEvent({ type: "error", message: error instanceof Error ? error.message : String(error) });
    }
  };
  const discover = (): Promise<void> => {
    if (closing) return Promise.resolve();
    if (looking) { lookAgain = true; return looking; }
    clearTimeout(timer);
    looking = look().finally(() => {
      looking = undefined;
      if (closing) return;
      if (lookAgain) { lookAgain = false; void discover(); } else timer = setTimeout(() => void discover(), pollMs);
    });
    return looking;
  };

  // Coordinators PUBLISH on RUNS_CHANNEL when a run starts or finishes: look at once.
  let subscriber: Redis | undefined;
  if (!opts.queue) {
    subscriber = new Redis({ ...redis, connectTimeout: connectTimeoutMs });
    subscriber.on("error", () => {}); // it reconnects and resubscribes by itself; the poll covers the gap
    subscriber.on("message", () => void discover());
    await within(subscriber.subscribe(RUNS_CHANNEL), connectTimeoutMs, "subscribe").catch((error) => {
      onEvent({ type: "error", message: `no notices of new runs, looking every ${pollMs} ms instead: ${error instanceof Error ? error.message : String(error)}` });
    });
  }
  pool.warm(); // threads started and the Wasm compiled before the first part comes
  await discover();

  return {
    get counted() { return counted; },
    async close(force = false) {
      const first = !closing;
      closing = true;
      clearTimeout(timer);
      subscriber?.disconnect();
      const queueWorkers = [...workers.values()];
      if (force) {
        // Stop counting now; the parts in hand go back to the queue (see the processor).
        // Every queue worker must stop taking parts first: a worker still fetching takes a
        // handed-back part again at once (BullMQ fetches the next job after a WaitingError)
        // and a forced BullMQ close drops it, still active and locked, for lockDuration; a
        // forced close also skips storing a part finished just before it. A paused worker
        // takes nothing more, still stores what it finishes, and its pause() (which waits
        // for its parts in hand) ends once they are completed or back in wait. A graceful
        // close already under way ends the same way.
        forced = true;
        stopGpu.abort();
        const stopped = queueWorkers.map((w) => (first ? w.pause() : w.close()).catch(() => {}));
        await pool.close();
        await within(Promise.all([...stopped, ...inHand]), connectTimeoutMs, "hand back").catch(() => {});
      }
      await Promise.all(queueWorkers.map((w) => w.close(force)));
      workers.clear();
      await pool.close();
      // A look in flight (it joins nothing once closing) ends before its client goes, else
      // its command fails and reports an error after the worker said it was stopping.
      await within(looking ?? Promise.resolve(), connectTimeoutMs, "look").catch(() => {});
      client.disconnect();
    },
  };
}
