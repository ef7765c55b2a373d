// The coordinator: countDistributed(n) puts the parts of splitCount(n) on a queue named after
// n, parts and SPLIT_VERSION (job id = part index, so enqueueing twice adds nothing), learns
// of finished parts from BullMQ's event stream (and, rarely, from batched reads of its sets),
// reads each finished part's result once, verifies it (MAC, identity, digest, bounds) and keeps
// its counts in a few bytes (tally.ts); an audit recounts a sample itself (audit.ts). Finished
// jobs stay in Redis, so a coordinator started again after a stop reuses their results. With
// given queens or blocked squares it does the same with the parts of splitConstrainedCount.
import type { QueueEvents } from "bullmq";
import type { CountResult } from "../count/count.js";
import type { ParallelProgress } from "../workers/parallel.js";
import type { KeyInput } from "../core/key.js";
import { ErrorCode, withCode, invalid } from "../core/errors.js";
import { ProgressThrottle } from "../core/pacer.js";
import { MAX_PARTS, type CountPart } from "../count/parts.js";
import { checkChoice, checkInteger, checkOptions, describe, optionalFunction, optionalSignal } from "../core/validate.js";
import type { Square } from "../board/constraints.js";
import { boardOf } from "../board/board.js";
import { COUNT_MAX_N } from "../count/count.js";
import { CONSTRAINED_MAX_N } from "../count/constrained.js";
import { splitBoard, type Split } from "../count/split.js";
import { bull, connect, lost, redisOptions, sleep, within, type Connection } from "./redis.js";
import { ACTIVE_RUNS_KEY, CONSTRAINED_QUEUE_MAX_PARTS, QUEUE_NAME, CONSTRAINED_QUEUE_PARTS, RUNS_CHANNEL, defaultQueueParts, metaKey, queueName, type RunMeta } from "./keys.js";
import { queueLibraries } from "./deps.js";
import { redact } from "./redact.js";
import { IDENTITY_NAME, RUN_DOMAIN, keyNeeded, keylessChoice, queueKey, signed, verifies } from "./auth.js";
import { claimQueue, sameBoard } from "./claim.js";
import { RunState } from "./run-state.js";
import { askedParts, planRun, workerKey, type RunPlan } from "./plan.js";
import { runToResume, stallText } from "./waiting.js";
import type { Redis } from "ioredis";

/** How many times a run whose keys vanish is put back before the coordinator gives up (NQ_QUEUE_LOST). */
const MAX_RECREATE = 3;
const RUN_GONE = "Redis no longer holds this run (restarted empty, or the run was removed)";
/** Least time between two of the coordinator's progress reports (it reports what its polls of Redis see). */
const QUEUE_PROGRESS_INTERVAL_MS = 200;
/** The audit's default fraction: each result is recounted by the coordinator with this probability (and one per worker at least). */
export const DEFAULT_AUDIT = 0.03;

/**
 * The coordinator's progress: the same fields as countParallel's, where `workers` is the
 * number of workers connected to the queue (as Redis sees them) and `tasksResumed` the parts
 * already finished when this coordinator started (results reused, not recounted).
 */
export type DistributedProgress = ParallelProgress;

export type DistributedOptions = {
  /** Redis: a URL such as redis://user:password@host:6379 (rediss:// for TLS) or ioredis options. */
  connection: Connection;
  /**
   * How many parts to split into (default: defaultQueueParts(n), fewer than splitCount's up to
   * n = 17; with givens 64, at most 4096, fewer when the board has fewer prefixes). More than
   * the split can make is refused, naming the most it can.
   */
  parts?: number;
  /** Queue name (default queueName(n, parts), with givens queueName(n, parts, board digest)); a queue that holds another run is refused. */
  queue?: string;
  /** Stops waiting (the jobs stay queued; run again to resume); rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called as the coordinator sees parts finish, at most every 200 ms, and once at the end. */
  onProgress?: (progress: DistributedProgress) => void;
  /** How long to wait for Redis to answer at the start (default 3000 ms). */
  connectTimeoutMs?: number;
  /** How often to look at the queue between the workers' notices of finished parts (default 250 ms). */
  pollMs?: number;
  /** Give up when Redis has not answered for this long during the run (default 10000 ms; run again to resume). */
  lostAfterMs?: number;
  /** Told what the coordinator does about a fault it survives (the run's keys vanished and were put back, a result refused), and why it waits when no part has finished for `stallNoticeMs`. */
  onNotice?: (message: string) => void;
  /** After this long with no part finished, onNotice says why the run may be waiting and what would end the wait, again after each such stretch (default 60000 ms). */
  stallNoticeMs?: number;
  /** Queens given in advance, [row, col] pairs, 0-based: the count of that board, n <= 1000, `unique` null. */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
  /**
   * The cluster key (any string or bytes; default: the file `keyFile`, else the environment
   * variable NQUEENS_KEY): the run record, jobs and results are MACed under it, and anything
   * that does not verify is refused. Without one the run is refused (NQ_KEY), unless
   * `unauthenticated` is true.
   */
  key?: KeyInput;
  /** A file holding the key (trailing newline trimmed). */
  keyFile?: string;
  /**
   * true: run without a key, as asked (`authenticated: false`: anyone who can write to Redis can
   * change the answer), NQUEENS_KEY left unused; refused beside `key` or `keyFile`.
   */
  unauthenticated?: boolean;
  /**
   * The fraction of each worker's results the coordinator recounts itself, drawn at random, 0
   * to 1 (default 0.03; 0: no audit at all). Besides the draw, a result far from the
   * coordinator's own estimate of its part is recounted at once, and each worker's least
   * plausible result at the end (docs/distributed.md). One mismatch makes every result of that
   * worker suspect: all are recounted and the worker is named in `suspects`.
   */
  audit?: number;
  /** 1 (default) or 2: with 2 every part is counted by two different workers; a disagreement is settled by the coordinator's own count. */
  replicas?: number;
  /**
   * "allowed" (default): results MACed under the cluster key or under a worker's own identity
   * key (`nqueens key --worker NAME`); "required": only the latter, so every result's worker
   * name is proven, and replicas and the audit count identities, not names a worker chose.
   */
  identities?: "allowed" | "required";
  /** Worker identities whose results are never taken: the coordinator counts their parts itself (a resumed run too). */
  revoked?: readonly string[];
  /** Told the run's plan once its parts are known: how many, the worker threads seen, and about how long a part and the run take. */
  onPlan?: (plan: RunPlan) => void;
};

export type DistributedResult = CountResult & {
  parts: number; resumed: number; queue: string;
  /** Whether jobs and results were MACed under a key (false: anyone who can write to Redis could change the answer). */
  authenticated: boolean;
  /** Parts the coordinator counted itself to check the workers (the audit, replica disagreements, suspects). */
  audited: number;
  /** Results found different from the coordinator's own count (each one refused and replaced). */
  mismatches: number;
  /** Workers (by name) a mismatch made suspect: every result of theirs was counted again. */
  suspects: string[];
  replicas: number;
  /** The plan the run started with (parts, threads seen, estimated lengths). */
  plan: RunPlan;
};

/**
 * The coordinator: counts n over a BullMQ queue that workers (startWorker or
 * `nqueens worker`) take parts from. Run again after a stop, it resumes. With `fixed` or
 * `blocked`, counts that board (n <= 1000; `unique` is null).
 * @example const { total } = await countDistributed(16, { connection: "redis://127.0.0.1:6379", key: process.env.NQUEENS_KEY });
 * @example const { total } = await countDistributed(14, { connection: "redis://127.0.0.1:6379", blocked: [[0, 0]], audit: 0.1 });
 */
// About 200 lines: the run's options, its split and record, then the poll loop, which holds
// the queue, the event stream and the run's state (./run-state.ts) together until every part
// is in; the steps that need none of that are apart (timings, Waker, workerThreads; claimQueue in ./claim.ts).
export async function countDistributed(n: number, options: DistributedOptions): Promise<DistributedResult> {
  const opts = checkOptions<DistributedOptions>("countDistributed", options, [
    "connection", "parts", "queue", "signal", "onProgress", "connectTimeoutMs", "pollMs", "lostAfterMs", "onNotice", "fixed", "blocked", "key", "keyFile", "audit", "replicas", "onPlan", "stallNoticeMs", "identities", "revoked", "unauthenticated",
  ]);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "countDistributed", plain: [4, COUNT_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  const constrained = !board.plain;
  const redis = redisOptions(opts.connection as Connection);
  if (opts.parts !== undefined) checkInteger("parts", opts.parts, 1, constrained ? CONSTRAINED_QUEUE_MAX_PARTS : 1_000_000);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: DistributedProgress) => void>("onProgress", opts.onProgress);
  const onNotice = optionalFunction<(message: string) => void>("onNotice", opts.onNotice);
  const onPlan = optionalFunction<(plan: RunPlan) => void>("onPlan", opts.onPlan);
  const notice = (message: string): void => onNotice?.(redact(message));
  const { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs, audit, replicas } = timings(opts);
  const key = queueKey(opts);
  const identities = opts.identities === undefined ? "allowed" : checkChoice("identities", opts.identities, ["allowed", "required"] as const);
  const badName = Array.isArray(opts.revoked) ? opts.revoked.find((r) => typeof r !== "string" || !IDENTITY_NAME.test(r)) : undefined;
  if (opts.revoked !== undefined && (!Array.isArray(opts.revoked) || badName !== undefined)) {
    throw invalid("revoked", ` must be a list of worker identities (names of 1 to 100 letters, digits or . _ @ : -), got ${Array.isArray(opts.revoked) ? `${describe(badName)} in the list` : describe(opts.revoked)}`, TypeError);
  }
  if ((identities === "required" || opts.revoked !== undefined) && !key) throw keyNeeded("identities and revoked need the cluster key (NQUEENS_KEY, --key-file FILE or key): a worker's identity key is made from it");
  signal?.throwIfAborted();
  const start = performance.now();

  // The run: its parts and its record. Given parts are split before Redis is asked anything
  // (a number the split cannot make is refused at once); the default from n = 18 follows the
  // worker threads seen, unless a run of n is already there to resume.
  const split = (asked: number): Split => {
    // A constrained split (at most CONSTRAINED_QUEUE_MAX_PARTS parts) is kept whole; a plain one
    // is only counted here, and each part re-derived from its identity when it is needed.
    const made = splitBoard(board, asked, { maxParts: constrained ? CONSTRAINED_QUEUE_MAX_PARTS : MAX_PARTS });
    if (opts.parts !== undefined && made.count < opts.parts) {
      throw invalid("parts", ` must be an integer from 1 to ${made.count} for ${constrained ? "this board" : `n = ${n}`} (the most parts its split can make), got ${opts.parts}`);
    }
    return made;
  };
  const byDefault = opts.parts === undefined && !constrained && n >= 18;
  let source: Split | undefined = byDefault ? undefined : split(opts.parts ?? (constrained ? CONSTRAINED_QUEUE_PARTS : defaultQueueParts(n)));
  if (opts.queue !== undefined && (typeof opts.queue !== "string" || !QUEUE_NAME.test(opts.queue))) {
    throw invalid("queue", ` must be a name of letters, digits, '.', '_' and '-', got ${JSON.stringify(opts.queue)}`);
  }
  keylessChoice(opts.unauthenticated, opts.key !== undefined ? "key" : opts.keyFile !== undefined ? "keyFile" : undefined, key !== undefined); // NQ_KEY without a key, unless asked for

  const { bullmq: { Queue, QueueEvents } } = await queueLibraries();
  const client = await connect(redis, connectTimeoutMs);
  let threads: number, from: RunPlan["from"] = opts.parts === undefined ? "default" : "given";
  try {
    threads = await workerThreads(client);
    if (byDefault) {
      const resumable = opts.queue === undefined ? await runToResume(client, n, key) : undefined;
      if (resumable !== undefined) from = "resumed";
      source = split(resumable ?? askedParts(n, threads));
    }
    source = source!;
  } catch (error) {
    client.disconnect();
    throw lost(redis, error);
  }
  const parts = { length: source.count };
  const { splitVersion, depth } = { splitVersion: source.version, depth: source.depth };
  // The run's board as its record holds it (a constrained board's: lists, digest, split depth).
  const recorded = depth === undefined ? undefined : { n, fixed: [...board.fixed], blocked: [...board.blocked], digest: board.digest, depth };
  const name = opts.queue ?? queueName(n, parts.length, recorded?.digest);
  const same = (meta: RunMeta): boolean => meta.format === "nqueens-count-run" && meta.n === n && meta.parts === parts.length && meta.splitVersion === splitVersion && sameBoard(meta.board, recorded);
  const plan = planRun(n, parts.length, threads, from);
  onPlan?.(plan);

  const queue = new Queue(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
  queue.on("error", () => {}); // polling reports failures
  let events: QueueEvents | undefined;
  try {
    // The run's identity: refuse a queue that holds another run (another board too), or a
    // record that does not verify under the key.
    const stored = await client.get(metaKey(name)).catch((e) => { throw lost(redis, e); });
    const runId = await claimQueue(stored, queue, name, key, { format: "nqueens-count-run", n, parts: parts.length, splitVersion, ...(recorded ? { board: recorded } : {}) }, same);
    const record: RunMeta = signed(key, RUN_DOMAIN, name, {
      format: "nqueens-count-run", n, parts: parts.length, splitVersion, run: runId, ...(recorded ? { board: recorded } : {}),
    } as RunMeta);
    const recordText = JSON.stringify(record);
    if (stored === null || (JSON.parse(stored) as RunMeta).run !== runId) await client.set(metaKey(name), recordText);
    /** Whether the record Redis holds now is this run's (as written, or finished by a coordinator under the same key). */
    const recordOk = (text: string): boolean => {
      if (text === recordText) return true;
      let meta: RunMeta;
      try { meta = JSON.parse(text) as RunMeta; } catch { return false; }
      return same(meta) && meta.run === runId && (key ? verifies(key, RUN_DOMAIN, name, meta) : meta.mac === undefined);
    };

    const run = new RunState({ name, n, parts: source, runId, key, client, queue, audit, replicas, identities, revoked: new Set(opts.revoked ?? []), notice, signal });
    events = new QueueEvents(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
    events.on("error", () => {}); // polling reports failures
    const waker = new Waker(signal);
    const requestWake = (): void => waker.wake();
    events.on("completed", ({ jobId }) => { run.sawCompleted(jobId); requestWake(); });
    events.on("failed", ({ jobId }) => { run.sawFailed(jobId); requestWake(); });
    await within(events.waitUntilReady(), connectTimeoutMs, "queue events").catch((e) => { throw lost(redis, e); });
    run.audit.onDone = requestWake;

    const announce = async (): Promise<void> => {
      await client.sadd(ACTIVE_RUNS_KEY, name);
      await client.publish(RUNS_CHANNEL, name); // idle workers join now rather than at their next look
    };
    // Parts that failed for good in an earlier run are written afresh (from this coordinator's
    // own split, so a job someone rewrote is put right), then every part is enqueued
    // (idempotent: existing job ids are kept as they are), then what is already done is read.
    await run.removeFailed();
    await run.enqueueAll();
    await announce();
    await run.scanCompleted();
    const completedAtStart = run.tally.accepted;

    const progress = new ProgressThrottle(onProgress, QUEUE_PROGRESS_INTERVAL_MS);
    const report = (done: number, workers: number, final: boolean): void => {
      progress.report(() => {
        const elapsedMs = performance.now() - start;
        const here = done - completedAtStart;
        const rate = here > 0 ? here / (elapsedMs / 1000) : undefined;
        return {
          phase: "count", n, tasksDone: done, tasksTotal: parts.length, tasksResumed: completedAtStart, workers, elapsedMs, rate,
          etaMs: rate ? ((parts.length - done) / rate) * 1000 : undefined,
        };
      }, final);
    };

    /** The run's keys are gone (Redis restarted empty, or removed): put the run back from what this coordinator knows. */
    let recreated = 0;
    const recreate = async (what: string): Promise<void> => {
      if (++recreated > MAX_RECREATE) {
        throw withCode(new Error(`queue ${name}: ${what} again (${MAX_RECREATE} times already); stopping: check what empties this Redis, then run the same command again`), ErrorCode.queueLost);
      }
      notice(`queue ${name}: ${what}; putting the run back (${parts.length} parts, the lost results are counted again)`);
      await client.set(metaKey(name), recordText);
      await run.enqueueAll();
      await announce();
    };

    let workers = 0;
    let workersAsked = -Infinity;
    // No part finished for stallNoticeMs: say why the run may be waiting (again after each stretch).
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
        // re-derive parts from it (plain, re-checked by digest); this coordinator's copy wins.
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
        await recreate(`${missing.length} of its parts vanished from Redis (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""})`);
        continue;
      }
      // Workers connected (a CLIENT LIST in Redis): every second, and every round while none is seen yet.
      if (workers === 0 || performance.now() - workersAsked >= 1000) {
        workersAsked = performance.now();
        workers = await within(queue.getWorkersCount(), lostAfterMs, "queue").catch(() => workers);
      }
      report(run.tally.accepted, workers, false);
      const at = performance.now();
      if (run.tally.accepted !== lastAccepted) { lastAccepted = run.tally.accepted; progressAt = at; }
      else if (run.tally.accepted < parts.length && at - Math.max(progressAt, noticedAt) >= stallNoticeMs) {
        noticedAt = at;
        notice(stallText(name, at - progressAt, { workers, active: counts.active ?? 0, waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0), done: run.tally.accepted, parts: parts.length, replicas, keyed: key !== undefined }));
      }
      if (run.tally.accepted >= parts.length && await run.audit.finish()) break;
      await waker.nap(pollMs);
    }
    const merged = run.merge();
    report(parts.length, workers, true);
    const final = signed(key, RUN_DOMAIN, name, { ...record, mac: undefined, total: String(merged.total), ...(merged.unique === null ? {} : { unique: String(merged.unique) }) });
    await client.set(metaKey(name), JSON.stringify(final));
    await client.srem(ACTIVE_RUNS_KEY, name);
    await client.publish(RUNS_CHANNEL, name); // the workers leave the finished run
    return {
      n, ...merged, ms: performance.now() - start, engine: "wasm", parts: parts.length, resumed: completedAtStart, queue: name,
      authenticated: key !== undefined, audited: run.audit.audited, mismatches: run.audit.mismatches, suspects: run.audit.suspectNames(), replicas, plan,
    };
  } finally {
    // close() waits for Redis; when it is gone, drop the connections instead.
    await Promise.all([queue, events].map((q) => q && within(q.close(), 1000, "close").catch(() => within(q.disconnect(), 1000, "disconnect")).catch(() => {})));
    client.disconnect();
  }
}

/** Worker threads registered in Redis now (each worker refreshes `nqueens:worker:NAME` = its threads). */
async function workerThreads(client: Redis): Promise<number> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", workerKey("*"), "COUNT", 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== "0" && keys.length < 100_000);
  if (keys.length === 0) return 0;
  let threads = 0;
  for (let i = 0; i < keys.length; i += 1000) {
    for (const v of await client.mget(...keys.slice(i, i + 1000))) {
      const t = Number(v);
      if (Number.isSafeInteger(t) && t > 0 && t <= 256) threads += t;
    }
  }
  return threads;
}

/** The run's options of time and checking, each checked (NQ_INVALID_ARGUMENT naming it) or its default. */
function timings(opts: Partial<DistributedOptions>): { connectTimeoutMs: number; pollMs: number; lostAfterMs: number; stallNoticeMs: number; audit: number; replicas: number } {
  const connectTimeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const pollMs = opts.pollMs === undefined ? 250 : checkInteger("pollMs", opts.pollMs, 10, 60_000);
  const lostAfterMs = opts.lostAfterMs === undefined ? 10_000 : checkInteger("lostAfterMs", opts.lostAfterMs, 100, 3_600_000);
  const stallNoticeMs = opts.stallNoticeMs === undefined ? 60_000 : checkInteger("stallNoticeMs", opts.stallNoticeMs, 100, 86_400_000);
  const audit = opts.audit === undefined ? DEFAULT_AUDIT : opts.audit;
  if (typeof audit !== "number" || !(audit >= 0 && audit <= 1)) throw invalid("audit", ` must be a fraction from 0 to 1, got ${describe(audit)}`);
  const replicas = opts.replicas === undefined ? 1 : checkInteger("replicas", opts.replicas, 1, 2);
  return { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs, audit, replicas };
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

export type { CountPart };
