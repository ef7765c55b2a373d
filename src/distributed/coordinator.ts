// The coordinator: countDistributed(n) puts the parts of splitCount(n) on a queue named after
// n, parts and SPLIT_VERSION (job id = part index, so enqueueing twice adds nothing), learns
// of finished parts from BullMQ's event stream (and, rarely, from batched reads of its sets:
// ./drive.ts and ./queue-run.ts, shared with solveDistributed), reads each finished part's
// result once, verifies it (MAC, identity, digest, bounds) and keeps
// its counts in a few bytes (tally.ts); an audit recounts a sample itself (audit.ts). Finished
// jobs stay in Redis, so a coordinator started again after a stop reuses their results. With
// given queens or blocked squares it does the same with the parts of splitConstrainedCount.
import type { CountResult } from "../count/count.js";
import type { ParallelProgress } from "../workers/parallel.js";
import type { KeyInput } from "../core/key.js";
import { invalid } from "../core/errors.js";
import { MAX_PARTS, type CountPart } from "../count/parts.js";
import { checkChoice, checkInteger, checkOptions, describe, optionalFunction, optionalSignal } from "../core/validate.js";
import type { Square } from "../board/constraints.js";
import { boardOf } from "../board/board.js";
import { COUNT_MAX_N } from "../count/count.js";
import { CONSTRAINED_MAX_N } from "../count/constrained.js";
import { MAX_JOB_PARTS, splitBoardPaced, type Split } from "../count/split.js";
import { yieldToEventLoop } from "../core/pacer.js";
import { RESUME_HINT, connect, lost, redisOptions, redisWaits, type Connection } from "./redis.js";
import { CONSTRAINED_QUEUE_MAX_PARTS, QUEUE_NAME, CONSTRAINED_QUEUE_PARTS, defaultQueueParts, partsPerJob, queueName, type RunMeta } from "./keys.js";
import { queueLibraries } from "./deps.js";
import { redact } from "./redact.js";
import { IDENTITY_NAME, keyNeeded, keylessChoice, queueKey } from "./auth.js";
import { sameBoard } from "./claim.js";
import { RunState } from "./run-state.js";
import { askedParts, planRun, workerKey, type RunPlan } from "./plan.js";
import { runToResume } from "./waiting.js";
import { driveRun } from "./drive.js";
import type { Redis } from "ioredis";

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
  /**
   * Consecutive parts each job holds (default: 1 up to 16,384 parts, else enough for 16,384
   * jobs: a job costs the queue 1 to 2 ms of CPU whatever it holds). Each part's result is still
   * checked, tallied and audited on its own. A board with givens has one part a job.
   */
  partsPerJob?: number;
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
  /**
   * Told what the coordinator does about a fault it survives (the run's keys vanished and were
   * put back, a result refused), that no worker is on the run (none there a second after the
   * workers were told of it, or the ones it had all gone: said once each time), and why it
   * waits when no part has finished for `stallNoticeMs`.
   */
  onNotice?: (message: string) => void;
  /** After this long with no part finished, onNotice says why the run may be waiting and what would end the wait, again after each such stretch (default 60000 ms). After half of it (at most 30 s) the coordinator also looks for jobs left where no worker takes them, and puts back those seen so twice. */
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
  /** Consecutive parts each job held (1 unless the run had many parts, or partsPerJob said so). */
  partsPerJob: number;
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
// About 110 lines: the run's options, its split and record; then ./drive.ts drives the run on
// the queue (the claim, the poll loop) with the count's state (./run-state.ts) until every part
// is in; the steps that need none of that are apart (timings, keyOptions, workerThreads).
export async function countDistributed(n: number, options: DistributedOptions): Promise<DistributedResult> {
  const opts = checkOptions<DistributedOptions>("countDistributed", options, [
    "connection", "parts", "queue", "signal", "onProgress", "connectTimeoutMs", "pollMs", "lostAfterMs", "onNotice", "fixed", "blocked", "key", "keyFile", "audit", "replicas", "onPlan", "stallNoticeMs", "identities", "revoked", "unauthenticated", "partsPerJob",
  ]);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "countDistributed", plain: [4, COUNT_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  const constrained = !board.plain;
  const redis = redisOptions(opts.connection as Connection);
  if (opts.parts !== undefined) checkInteger("parts", opts.parts, 1, constrained ? CONSTRAINED_QUEUE_MAX_PARTS : 1_000_000);
  if (opts.partsPerJob !== undefined) checkInteger("partsPerJob", opts.partsPerJob, 1, constrained ? 1 : MAX_JOB_PARTS);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: DistributedProgress) => void>("onProgress", opts.onProgress);
  const onNotice = optionalFunction<(message: string) => void>("onNotice", opts.onNotice);
  const onPlan = optionalFunction<(plan: RunPlan) => void>("onPlan", opts.onPlan);
  const notice = (message: string): void => onNotice?.(redact(message));
  const { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs, audit, replicas } = timings(opts);
  const { key, identities, revoked } = keyOptions(opts);
  signal?.throwIfAborted();
  const start = performance.now();

  // The run: its parts and its record. Given parts are split before Redis is asked anything
  // (a number the split cannot make is refused at once); the default from n = 18 follows the
  // worker threads seen, unless a run of n is already there to resume.
  const split = async (asked: number): Promise<Split> => {
    // A constrained split (at most CONSTRAINED_QUEUE_MAX_PARTS parts) is kept whole; a plain one
    // is only counted here, and each part re-derived from its identity when it is needed. Made
    // in slices, the signal checked between them (a large board's parts take seconds).
    const made = await splitBoardPaced(board, asked, () => yieldToEventLoop().then(() => signal?.throwIfAborted()), { maxParts: constrained ? CONSTRAINED_QUEUE_MAX_PARTS : MAX_PARTS });
    if (opts.parts !== undefined && made.count < opts.parts) {
      throw invalid("parts", ` must be an integer from 1 to ${made.count} for ${constrained ? "this board" : `n = ${n}`} (the most parts its split can make), got ${opts.parts}`);
    }
    return made;
  };
  const byDefault = opts.parts === undefined && !constrained && n >= 18;
  let source: Split | undefined = byDefault ? undefined : await split(opts.parts ?? (constrained ? CONSTRAINED_QUEUE_PARTS : defaultQueueParts(n)));
  checkQueueName(opts.queue);
  keylessChoice(opts.unauthenticated, opts.key !== undefined ? "key" : opts.keyFile !== undefined ? "keyFile" : undefined, key !== undefined); // NQ_KEY without a key, unless asked for

  await queueLibraries(); // NQ_MISSING_DEPENDENCY before anything else
  const client = await connect(redis, connectTimeoutMs, signal);
  let threads: number, from: RunPlan["from"] = opts.parts === undefined ? "default" : "given";
  // Reads only, so each may be made again or left midway; bounded as the run's waits are.
  const wait = redisWaits(redis, () => client.ping(), { lostAfterMs, retryMs: pollMs }, signal);
  try {
    threads = await wait("worker threads", () => workerThreads(client));
    if (byDefault) {
      const resumable = opts.queue === undefined ? await wait("runs", () => runToResume(client, n, key)) : undefined;
      if (resumable !== undefined) from = "resumed";
      source = await split(resumable ?? askedParts(n, threads));
    }
    source = source!;
  } catch (error) {
    client.disconnect();
    throw signal?.aborted ? error : lost(redis, error, RESUME_HINT);
  }
  const whole = source;
  const parts = { length: source.count };
  const { splitVersion, depth } = { splitVersion: source.version, depth: source.depth };
  // The run's board as its record holds it (a constrained board's: lists, digest, split depth).
  const recorded = depth === undefined ? undefined : { n, fixed: [...board.fixed], blocked: [...board.blocked], digest: board.digest, depth };
  const name = opts.queue ?? queueName(n, parts.length, recorded?.digest);
  // A run of many parts puts several consecutive parts in each job (partsPerJob: fixed by the parts, so a resumed run has the same jobs).
  const perJob = Math.min(opts.partsPerJob ?? partsPerJob(parts.length, constrained), parts.length);
  const same = (meta: RunMeta): boolean => meta.format === "nqueens-count-run" && meta.n === n && meta.parts === parts.length && meta.splitVersion === splitVersion && sameBoard(meta.board, recorded) && (meta.perJob ?? 1) === perJob;
  const plan = planRun(n, parts.length, threads, from);
  onPlan?.(plan);

  const driven = await driveRun({
    name, redis, client, start, key, record: { format: "nqueens-count-run", n, parts: parts.length, splitVersion, ...(recorded ? { board: recorded } : {}), ...(perJob > 1 ? { perJob } : {}) }, same,
    timing: { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs }, replicas, signal, notice, unit: "part", units: parts.length,
    makeRun: ({ runId, queue }) => new RunState({ name, n, parts: whole, perJob, runId, key, client, queue, audit, replicas, identities, revoked, notice, signal, stallNoticeMs }),
    onProgress: onProgress && ((p, final) => {
      const here = p.done - p.resumed;
      const rate = here > 0 ? here / (p.elapsedMs / 1000) : undefined;
      onProgress({
        phase: "count", n, tasksDone: final ? parts.length : p.done, tasksTotal: parts.length, tasksResumed: p.resumed, workers: p.workers, elapsedMs: p.elapsedMs, rate,
        etaMs: rate ? ((parts.length - p.done) / rate) * 1000 : undefined,
      });
    }),
    answer: (run) => {
      const merged = run.merge();
      return { total: String(merged.total), ...(merged.unique === null ? {} : { unique: String(merged.unique) }) };
    },
  });
  const run = driven.run!;
  const merged = run.merge();
  return {
    n, ...merged, ms: performance.now() - start, engine: "wasm", parts: parts.length, resumed: driven.resumed, queue: name,
    authenticated: key !== undefined, audited: run.audit.audited, mismatches: run.audit.mismatches, suspects: run.audit.suspectNames(), replicas, partsPerJob: perJob, plan,
  };
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

/** The key a coordinator runs under, and the identities it takes (checked; NQ_KEY for identities or revoked without a key). */
export function keyOptions(opts: { key?: KeyInput; keyFile?: string; unauthenticated?: boolean; identities?: unknown; revoked?: unknown }): { key: Uint8Array | undefined; identities: "allowed" | "required"; revoked: ReadonlySet<string> } {
  const key = queueKey(opts);
  const identities = opts.identities === undefined ? "allowed" : checkChoice("identities", opts.identities, ["allowed", "required"] as const);
  const badName = Array.isArray(opts.revoked) ? opts.revoked.find((r) => typeof r !== "string" || !IDENTITY_NAME.test(r)) : undefined;
  if (opts.revoked !== undefined && (!Array.isArray(opts.revoked) || badName !== undefined)) {
    throw invalid("revoked", ` must be a list of worker identities (names of 1 to 100 letters, digits or . _ @ : -), got ${Array.isArray(opts.revoked) ? `${describe(badName)} in the list` : describe(opts.revoked)}`, TypeError);
  }
  if ((identities === "required" || opts.revoked !== undefined) && !key) throw keyNeeded("identities and revoked need the cluster key (NQUEENS_KEY, --key-file FILE or key): a worker's identity key is made from it");
  return { key, identities, revoked: new Set((opts.revoked as string[] | undefined) ?? []) };
}

/** A queue name given: one BullMQ takes (letters, digits, '.', '_' and '-'). */
export function checkQueueName(queue: unknown): void {
  if (queue !== undefined && (typeof queue !== "string" || !QUEUE_NAME.test(queue))) {
    throw invalid("queue", ` must be a name of letters, digits, '.', '_' and '-', got ${JSON.stringify(queue)}`);
  }
}

/** The run's options of time and checking, each checked (NQ_INVALID_ARGUMENT naming it) or its default. */
export function timings(opts: Partial<Pick<DistributedOptions, "connectTimeoutMs" | "pollMs" | "lostAfterMs" | "stallNoticeMs" | "audit" | "replicas">>): { connectTimeoutMs: number; pollMs: number; lostAfterMs: number; stallNoticeMs: number; audit: number; replicas: number } {
  const connectTimeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const pollMs = opts.pollMs === undefined ? 250 : checkInteger("pollMs", opts.pollMs, 10, 60_000);
  const lostAfterMs = opts.lostAfterMs === undefined ? 10_000 : checkInteger("lostAfterMs", opts.lostAfterMs, 100, 3_600_000);
  const stallNoticeMs = opts.stallNoticeMs === undefined ? 60_000 : checkInteger("stallNoticeMs", opts.stallNoticeMs, 100, 86_400_000);
  const audit = opts.audit === undefined ? DEFAULT_AUDIT : opts.audit;
  if (typeof audit !== "number" || !(audit >= 0 && audit <= 1)) throw invalid("audit", ` must be a fraction from 0 to 1, got ${describe(audit)}`);
  const replicas = opts.replicas === undefined ? 1 : checkInteger("replicas", opts.replicas, 1, 2);
  return { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs, audit, replicas };
}

export type { CountPart };
