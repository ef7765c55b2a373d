// The coordinator: countDistributed(n) puts the parts of splitCount(n) on a queue named after
// n, parts and SPLIT_VERSION (job id = part index, so enqueueing twice adds nothing), waits
// for them, and merges the results stored as the jobs' return values by part index (a part
// counted twice is still added once). Finished jobs stay in Redis, so a coordinator started
// again after a stop reuses their results instead of recounting. With given queens or blocked
// squares it does the same with the parts of splitConstrainedCount, the board recorded in the
// run's record and named in the queue's name (its digest).
import type { QueueEvents } from "bullmq";
import type { CountResult } from "../count/count.js";
import type { ParallelProgress } from "../count/parallel.js";
import { ErrorCode, rangeError, withCode } from "../core/errors.js";
import { ProgressThrottle } from "../core/pacer.js";
import { SPLIT_VERSION, checkPartCount, mergeCounts, splitCount, type CountPart, type PartCount } from "../count/parts.js";
import { checkInteger, checkOptions, optionalFunction, optionalSignal } from "../core/validate.js";
import { checkConstraints, type Square } from "../board/constraints.js";
import {
  CONSTRAINED_MAX_N, CONSTRAINED_SPLIT_VERSION, checkConstrainedPartCount, constrainedBoard, mergeConstrainedCounts, splitConstrainedCount,
  type ConstrainedPart, type ConstrainedPartCount,
} from "../count/constrained.js";
import { bull, connect, lost, redisOptions, sleep, within, type Connection } from "./redis.js";
import {
  ACTIVE_RUNS_KEY, CONSTRAINED_QUEUE_MAX_PARTS, CONSTRAINED_QUEUE_PARTS, RUNS_CHANNEL, defaultQueueParts, jobId, metaKey, queueName,
  type ConstrainedPartJob, type PartJob, type RunMeta,
} from "./keys.js";
import { queueLibraries } from "./deps.js";
import { redact } from "./redact.js";

/** How many times a run whose keys vanish is put back before the coordinator gives up (NQ_QUEUE_LOST). */
const MAX_RECREATE = 3;
const RUN_GONE = "Redis no longer holds this run (restarted empty, or the run was removed)";
/** Least time between two of the coordinator's progress reports (it reports what its polls of Redis see). */
const QUEUE_PROGRESS_INTERVAL_MS = 200;

/**
 * The coordinator's progress: the same fields as countParallel's, where `workers` is the
 * number of workers connected to the queue (as Redis sees them) and `tasksResumed` the parts
 * already finished when this coordinator started (results reused, not recounted).
 */
export type DistributedProgress = ParallelProgress;

export type DistributedOptions = {
  /** Redis: a URL such as redis://127.0.0.1:6379 or ioredis options. */
  connection: Connection;
  /**
   * How many parts to split into (default: defaultQueueParts(n), fewer than splitCount's up to
   * n = 17; with givens 64, at most 4096, fewer when the board has fewer prefixes).
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
  /** Told what the coordinator does about a fault it survives (the run's keys vanished and were put back). */
  onNotice?: (message: string) => void;
  /**
   * Queens given in advance, [row, col] pairs, 0-based: the count of that board,
   * n <= 1000, `unique` null; the workers count its parts (splitConstrainedCount).
   */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
};

export type DistributedResult = CountResult & { parts: number; resumed: number; queue: string };

type AnyPart = CountPart | ConstrainedPart;
type AnyCount = PartCount | ConstrainedPartCount;

/**
 * The coordinator: counts n over a BullMQ queue that workers (startWorker or
 * `nqueens worker`) take parts from. Run again after a stop, it resumes. With `fixed` or
 * `blocked`, counts that board (n <= 1000; `unique` is null).
 * @example const { total } = await countDistributed(16, { connection: "redis://127.0.0.1:6379" });
 * @example const { total } = await countDistributed(14, { connection: "redis://127.0.0.1:6379", blocked: [[0, 0]] });
 */
export async function countDistributed(n: number, options: DistributedOptions): Promise<DistributedResult> {
  const opts = checkOptions<DistributedOptions>("countDistributed", options, ["connection", "parts", "queue", "signal", "onProgress", "connectTimeoutMs", "pollMs", "lostAfterMs", "onNotice", "fixed", "blocked"]);
  const givens = opts.fixed !== undefined || opts.blocked !== undefined;
  checkInteger("n", n, givens ? 1 : 4, givens ? CONSTRAINED_MAX_N : 32);
  const constraints = checkConstraints(n, givens ? { fixed: opts.fixed, blocked: opts.blocked } : undefined, "countDistributed");
  if (constraints.empty) checkInteger("n", n, 4, 32); // empty lists: the plain count
  const constrained = !constraints.empty;
  const redis = redisOptions(opts.connection as Connection);
  if (opts.parts !== undefined) checkInteger("parts", opts.parts, 1, constrained ? CONSTRAINED_QUEUE_MAX_PARTS : 100_000);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: DistributedProgress) => void>("onProgress", opts.onProgress);
  const onNotice = optionalFunction<(message: string) => void>("onNotice", opts.onNotice);
  const notice = (message: string): void => onNotice?.(redact(message));
  const connectTimeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const pollMs = opts.pollMs === undefined ? 250 : checkInteger("pollMs", opts.pollMs, 10, 60_000);
  const lostAfterMs = opts.lostAfterMs === undefined ? 10_000 : checkInteger("lostAfterMs", opts.lostAfterMs, 100, 3_600_000);
  signal?.throwIfAborted();
  const start = performance.now();

  // The run: its parts, a job's data, how a result is checked and merged, its record.
  const board = constrained ? constrainedBoard(constraints) : undefined;
  const parts: AnyPart[] = constrained
    ? splitConstrainedCount(n, constraints, opts.parts ?? CONSTRAINED_QUEUE_PARTS)
    : splitCount(n, { parts: opts.parts ?? defaultQueueParts(n) });
  const splitVersion = constrained ? CONSTRAINED_SPLIT_VERSION : SPLIT_VERSION;
  const depth = constrained ? (parts[0] as ConstrainedPart).depth : undefined;
  const want: RunMeta = {
    format: "nqueens-count-run", n, parts: parts.length, splitVersion,
    ...(board ? { board: { ...board, depth: depth! } } : {}),
  };
  const jobData = (part: AnyPart): PartJob | ConstrainedPartJob => board
    ? { kind: "constrained", n, board: board.digest, depth: depth!, parts: parts.length, index: part.part, splitVersion, digest: part.digest }
    : { n, parts: parts.length, index: part.part, splitVersion, digest: part.digest };
  const checkResult = (part: AnyPart, value: unknown): AnyCount => "kind" in part
    ? checkConstrainedPartCount(part, value, `the result for constrained part ${part.part} of ${parts.length} (n = ${n}, board ${board!.digest})`)
    : checkPartCount(part, value);
  const merge = (results: AnyCount[]): { total: bigint; unique: bigint | null; nodes: bigint } => constrained
    ? (({ total, nodes }) => ({ total, unique: null, nodes }))(mergeConstrainedCounts(results as ConstrainedPartCount[], parts as ConstrainedPart[]))
    : mergeCounts(results as PartCount[], { n, parts: parts.length });
  const name = opts.queue ?? queueName(n, parts.length, board?.digest);
  if (typeof name !== "string" || !/^[A-Za-z0-9._-]+$/.test(name)) throw rangeError(`queue must be a name of letters, digits, '.', '_' and '-', got ${JSON.stringify(name)}`);

  const { bullmq: { Queue, QueueEvents } } = await queueLibraries();
  const client = await connect(redis, connectTimeoutMs);
  const queue = new Queue(name, { connection: bull({ ...redis, connectTimeout: connectTimeoutMs }) });
  queue.on("error", () => {}); // polling reports failures
  // BullMQ's event stream says when a part finishes, so the last one is seen at once
  // instead of at the next poll; the poll stays, for progress and to notice a lost Redis.
  let events: QueueEvents | undefined;
  try {
    // The run's identity: refuse a queue that holds another run (another board too).
    const stored = await client.get(metaKey(name)).catch((e) => { throw lost(redis, e); });
    if (stored !== null) {
      let meta: RunMeta | undefined;
      try { meta = JSON.parse(stored) as RunMeta; } catch { /* refused below */ }
      if (!meta || meta.format !== want.format || meta.n !== n || meta.parts !== parts.length || meta.splitVersion !== splitVersion || !sameBoard(meta.board, want.board)) {
        throw withCode(rangeError(
          `queue ${name} holds another count (${meta ? runText(meta) : "unreadable"}), ` +
          `not ${runText(want)}: use another queue name or remove that run`,
        ), ErrorCode.queueMismatch);
      }
    } else {
      const counts = await queue.getJobCounts();
      const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
      if (jobs > 0) {
        throw withCode(rangeError(`queue ${name} holds ${jobs} jobs that are not an nqueens count: use another queue name`), ErrorCode.queueMismatch);
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

    // A job carries only its part's identity; workers re-derive the part (a constrained one
    // from the board in the run's record) and check the digest.
    const byId = new Map(parts.map((part) => [jobId(part.part), part]));
    const enqueue = (list: readonly AnyPart[]) => queue.addBulk(list.map((part) => ({
      name: "part",
      data: jobData(part),
      opts: { jobId: jobId(part.part), attempts: 3, backoff: { type: "fixed", delay: 500 }, removeOnComplete: false, removeOnFail: false },
    })));
    const announce = async (): Promise<void> => {
      await client.sadd(ACTIVE_RUNS_KEY, name);
      await client.publish(RUNS_CHANNEL, name); // idle workers join now rather than at their next look
    };
    // Parts that failed for good in an earlier run are written afresh (from this coordinator's
    // own split, so a job someone rewrote is put right), then every part is enqueued
    // (idempotent: existing job ids are kept as they are).
    for (const job of await queue.getFailed(0, -1)) if (job.id && byId.has(job.id)) await job.remove().catch(() => {});
    await enqueue(parts);
    await announce();

    const completedAtStart = Math.min(parts.length, await queue.getCompletedCount());
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
      await client.set(metaKey(name), JSON.stringify(want));
      await enqueue(parts);
      await announce();
    };

    /**
     * This run's own jobs (by id, so foreign jobs in the queue count for nothing): puts back
     * any that vanished, fails on one failed for good, true when every part is completed.
     */
    const ownJobsDone = async (): Promise<boolean> => {
      const ids = [...byId.keys()];
      const states = await Promise.all(ids.map((id) => queue.getJobState(id)));
      const missing = ids.filter((_, i) => states[i] === "unknown");
      if (missing.length > 0) {
        if (await client.exists(metaKey(name)) === 0) {
          await recreate(RUN_GONE);
          return false;
        }
        await recreate(`${missing.length} of its parts vanished from Redis (${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ", ..." : ""})`);
        return false;
      }
      const failed = ids.find((_, i) => states[i] === "failed");
      if (failed !== undefined) {
        const job = await queue.getJob(failed);
        throw withCode(
          new Error(`part ${byId.get(failed)!.part} of queue ${name} failed ${job?.attemptsMade ?? "?"} times: ${job?.failedReason ?? "unknown reason"} (run the same command again to retry it)`),
          ErrorCode.queuePartFailed,
        );
      }
      return states.every((state) => state === "completed");
    };

    // Each result is checked against the coordinator's own part (identity, digest, ranges)
    // before it is added. A result that is not its part's count is never summed: the part is
    // counted again once (the result may have been rewritten in Redis); a second bad result
    // for the same part stops the run with NQ_PART_MISMATCH naming it.
    const recounted = new Set<number>();
    const verified = async (): Promise<AnyCount[] | undefined> => {
      const results: AnyCount[] = [];
      const again: AnyPart[] = [];
      for (const [id, part] of byId) {
        const job = await queue.getJob(id);
        let value: unknown = job?.returnvalue;
        if (typeof value === "string") { try { value = JSON.parse(value); } catch { /* refused by checkPartCount */ } }
        try {
          results.push(checkResult(part, value));
        } catch (error) {
          const e = error as Error;
          if (recounted.has(part.part)) {
            e.message = `queue ${name}: ${e.message}, again after counting it afresh (refused; remove the run with \`nqueens runs --remove ${name}\` and look at who writes to this Redis)`;
            throw e;
          }
          recounted.add(part.part);
          notice(`queue ${name}: ${e.message}; not added: counting part ${part.part} again`);
          await job?.remove().catch(() => {});
          again.push(part);
        }
      }
      if (again.length === 0) return results;
      await enqueue(again);
      await announce();
      return undefined;
    };

    let workers = 0;
    let workersAsked = -Infinity;
    let results: AnyCount[] | undefined;
    while (!results) {
      // Wait, watching the counts.
      let scanned = -Infinity;
      let answered = performance.now();
      for (;;) {
        if (signal?.aborted) throw signal.reason;
        let counts: { completed: number; failed: number };
        let runThere: number;
        try {
          [counts, runThere] = await within(
            Promise.all([queue.getJobCounts("completed", "failed") as Promise<typeof counts>, client.exists(metaKey(name))]),
            lostAfterMs, "queue",
          );
          answered = performance.now();
        } catch (error) {
          if (performance.now() - answered >= lostAfterMs) throw lost(redis, error);
          await sleep(pollMs, signal);
          continue;
        }
        if (runThere === 0) {
          await recreate(RUN_GONE);
          continue;
        }
        known = Math.min(parts.length, counts.completed);
        seen = 0;
        // Workers connected (a CLIENT LIST in Redis): every second, and every round while none is seen
        // yet, so the count is right from the first parts on.
        if (workers === 0 || performance.now() - workersAsked >= 1000) {
          workersAsked = performance.now();
          workers = await within(queue.getWorkersCount(), lostAfterMs, "queue").catch(() => workers);
        }
        report(known, workers, false);
        // The parts themselves, by id: when the counts say done or failed, and every 2 s (a part
        // that vanished is put back).
        if (counts.completed >= parts.length || counts.failed > 0 || performance.now() - scanned >= 2000) {
          scanned = performance.now();
          const done = await within(ownJobsDone(), lostAfterMs, "queue").catch((e) => {
            if ((e as { code?: string }).code?.startsWith("NQ_")) throw e;
            return false; // Redis slow or gone: the next round's counts say so
          });
          if (done) break;
        }
        await nap(pollMs);
      }
      results = await verified();
    }
    const merged = merge(results);
    report(parts.length, workers, true);
    await client.set(metaKey(name), JSON.stringify({ ...want, total: String(merged.total), ...(merged.unique === null ? {} : { unique: String(merged.unique) }) }));
    await client.srem(ACTIVE_RUNS_KEY, name);
    await client.publish(RUNS_CHANNEL, name); // the workers leave the finished run
    return { n, ...merged, ms: performance.now() - start, engine: "wasm", parts: parts.length, resumed: completedAtStart, queue: name };
  } finally {
    // close() waits for Redis; when it is gone, drop the connections instead.
    await Promise.all([queue, events].map((q) => q && within(q.close(), 1000, "close").catch(() => within(q.disconnect(), 1000, "disconnect")).catch(() => {})));
    client.disconnect();
  }
}


/** What a run is, in messages: n, parts, split version and, for a constrained board, its digest. */
function runText(meta: RunMeta): string {
  const board = meta.board === undefined ? "" : typeof meta.board === "object" && meta.board !== null ? `, board ${String(meta.board.digest)}` : ", an unreadable board";
  return `n = ${meta.n}, ${meta.parts} parts, split version ${meta.splitVersion}${board}`;
}

/** The same board (or both plain): digest, depth and lists, field by field. */
function sameBoard(a: RunMeta["board"], b: RunMeta["board"]): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof a !== "object" || a === null) return false;
  return a.digest === b.digest && a.n === b.n && a.depth === b.depth && JSON.stringify(a.fixed) === JSON.stringify(b.fixed) && JSON.stringify(a.blocked) === JSON.stringify(b.blocked);
}
