// Run administration: listRuns (every run Redis holds) and removeRun.
import { invalid } from "../core/errors.js";
import { checkInteger, checkOptions, describe } from "../core/validate.js";
import { bull, connect, lost, redisOptions, within, type Connection } from "./redis.js";
import { queueLibraries } from "./deps.js";
import { ACTIVE_RUNS_KEY, QUEUE_NAME, RUNS_CHANNEL, countedKey, distrustKey, metaKey, type CountRunMeta, type RunMeta } from "./keys.js";
import { RUN_DOMAIN, queueKey, verifies } from "./auth.js";
import { jobIdsIn } from "./job-checks.js";
import { givenUpAsDecided, restartsPassOf, slotOfJobId } from "./solve-jobs.js";
import type { KeyInput } from "../core/key.js";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** One run as Redis holds it (listRuns). */
export type RunInfo = {
  queue: string;
  /**
   * "solve" for a solveDistributed run (then `parts` is its tasks, `splitVersion` their cut's
   * version, `done` the tasks decided: a job of the task answered to its end, "none" or a
   * solution, as Redis holds the answers, their MACs unchecked: a display); absent for a count.
   */
  kind?: "solve";
  n: number;
  parts: number;
  splitVersion: number;
  /**
   * Parts finished (jobs finished, times the parts a job holds, at most `parts`); then jobs
   * being counted, waiting (including delayed retries), failed for good (a decided solve's jobs
   * that its workers gave up because it was decided are not failures, and not counted).
   */
  done: number;
  active: number;
  waiting: number;
  failed: number;
  /** Consecutive parts a job of this run holds, when more than one (a run of many parts). */
  perJob?: number;
  /** Worker connections on the queue now. */
  workers: number;
  /** Listed for workers to find: a coordinator started it and has not yet seen it finish. */
  open: boolean;
  /** A constrained board's run (given queens, blocked squares): the board's digest (its givens are in the run's record). */
  board?: string;
  /** Set once a coordinator has merged every part. */
  total?: bigint;
  /** Set with total; null for a constrained board's run (the givens break the symmetry). */
  unique?: bigint | null;
  /** A solve's verdict, once decided: true (a solution was found; it is in the record), false (none). */
  found?: boolean;
  /** Set when the run's record (`nqueens:meta:QUEUE`) cannot be read as it should: what is wrong. */
  unreadable?: string;
  /**
   * Whether the run's record verifies under the key listRuns was given (`key`, `keyFile`, else
   * NQUEENS_KEY): true; false when it does not (changed in Redis, made under another key, or
   * made without one): then its total is not reported; null without a key (nothing checked:
   * anyone who can write to Redis can have written it).
   */
  verified: boolean | null;
};

/** A stored count (a decimal integer string) as a bigint, or undefined when it is not one. */
function storedCount(value: unknown): bigint | undefined {
  return typeof value === "string" && /^\d+$/.test(value) ? BigInt(value) : undefined;
}

/**
 * Every run recorded in Redis (finished or not), by queue name: its parts done, in hand
 * and waiting, the workers on it and, once merged, its total. With a key (`key`, `keyFile`,
 * else NQUEENS_KEY) each record is verified: one that does not is listed with `verified:
 * false` and no total; without a key nothing is verified (`verified: null`). A run whose record holds
 * a total that is not a count is listed with `unreadable` saying so (and no total);
 * Redis that stops answering is an NQ_QUEUE_UNREACHABLE error within connectTimeoutMs.
 * @example for (const run of await listRuns({ connection: "redis://127.0.0.1:6379" })) console.log(run.queue, run.done, run.parts);
 */
export async function listRuns(options: { connection: Connection; connectTimeoutMs?: number; key?: KeyInput; keyFile?: string }): Promise<RunInfo[]> {
  const opts = checkOptions<{ connection: Connection; connectTimeoutMs: number; key: KeyInput; keyFile: string }>("listRuns", options, ["connection", "connectTimeoutMs", "key", "keyFile"]);
  const key = queueKey(opts);
  const redis = redisOptions(opts.connection as Connection);
  const timeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const { bullmq: { Queue } } = await queueLibraries();
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
    for (const recordKey of [...new Set(keys)].sort()) {
      const name = recordKey.slice(metaKey("").length);
      const stored = await ask(client.get(recordKey), "get");
      let meta: RunMeta | undefined;
      try { meta = stored === null ? undefined : JSON.parse(stored) as RunMeta; } catch { /* not ours */ }
      if (!meta || (meta.format !== "nqueens-count-run" && meta.format !== "nqueens-solve-run")) continue;
      const solve = meta.format === "nqueens-solve-run" ? meta : undefined;
      const kind = solve ? { kind: "solve" as const } : {};
      const count = (solve ? { n: meta.n, parts: solve.tasks, splitVersion: solve.tasksVersion, total: undefined, unique: undefined, board: solve.board } : meta) as CountRunMeta;
      const problems: string[] = [];
      for (const field of ["n", "parts", "splitVersion"] as const) {
        if (!Number.isSafeInteger(count[field])) problems.push(`${field} ${JSON.stringify(count[field]) ?? "missing"} is not an integer`);
      }
      const constrained = count.board !== undefined;
      const board = constrained && typeof count.board === "object" && count.board !== null && typeof count.board.digest === "string" ? count.board.digest : undefined;
      if (constrained && board === undefined) problems.push("its board is not a board's record");
      const total = count.total === undefined ? undefined : storedCount(count.total);
      const unique = count.total === undefined ? undefined : constrained ? (count.unique === undefined ? null : undefined) : storedCount(count.unique);
      if (count.total !== undefined && total === undefined) problems.push(`the stored total ${JSON.stringify(count.total)} is not a count`);
      if (count.total !== undefined && unique === undefined) {
        problems.push(constrained ? `a constrained board's run has no unique count, but it holds ${JSON.stringify(count.unique)}` : `the stored unique ${JSON.stringify(count.unique) ?? "(missing)"} is not a count`);
      }
      const verified = key ? verifies(key, RUN_DOMAIN, name, meta) : null;
      if (solve && solve.found !== undefined && typeof solve.found !== "boolean") problems.push(`its verdict ${JSON.stringify(solve.found)} is not true or false`);
      const verdict = solve && typeof solve.found === "boolean" && verified !== false ? { found: solve.found } : {};
      const shown = verified !== false; // a record that does not verify reports no total
      if (!QUEUE_NAME.test(name)) { // not a queue BullMQ can open: listed as unreadable, the others still listed
        runs.push({
          queue: name, ...kind, n: count.n, parts: count.parts, splitVersion: count.splitVersion, done: 0, active: 0, waiting: 0, failed: 0, workers: 0, open: open.has(name),
          unreadable: `${metaKey(name)}: its queue name is not one a run can have (letters, digits, '.', '_' and '-')`, verified,
        });
        continue;
      }
      const perJob = !solve && Number.isSafeInteger(count.perJob) && count.perJob! > 1 ? count.perJob! : 1;
      const queue = new Queue(name, { connection: bull({ ...redis, connectTimeout: timeoutMs }) });
      queue.on("error", () => {});
      try {
        const counts = await ask(queue.getJobCounts("completed", "active", "waiting", "prioritized", "delayed", "failed"), `queue ${name}`);
        // A solve's jobs are its tasks' passes: its tasks decided are read from their answers.
        const { done, failed } = solve && Number.isSafeInteger(count.parts)
          ? await ask(solveTally(client, queue, count.parts, counts.failed, solve.found !== undefined), `queue ${name}`)
          : { done: Math.min(count.parts, counts.completed * perJob), failed: counts.failed };
        runs.push({
          queue: name, ...kind, n: count.n, parts: count.parts, splitVersion: count.splitVersion, ...(board !== undefined ? { board } : {}),
          ...(perJob > 1 ? { perJob } : {}), done, active: counts.active, waiting: counts.waiting + counts.prioritized + counts.delayed, failed,
          workers: await ask(queue.getWorkersCount(), `queue ${name}`), open: open.has(name),
          ...(shown && total !== undefined && unique !== undefined ? { total, unique } : {}), ...verdict,
          ...(problems.length ? { unreadable: `${metaKey(name)}: ${problems.join("; ")}` } : {}),
          verified,
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

/** Jobs read a pipeline at a time. */
const BATCH = 1000;

/**
 * A solve run's tasks decided (a job of the task answered to its end: "none", or a solution;
 * an "unfinished" pass decides nothing) and its jobs failed for good (`failed` of them), less
 * those its workers gave up because the run was decided (`decided`: its record holds a verdict)
 * and the restarting search's (no verdict needs them).
 */
async function solveTally(client: Redis, queue: Queue, tasks: number, failed: number, decided: boolean): Promise<{ done: number; failed: number }> {
  const answered = new Set<number>();
  /** Each job of a set with one field of its hash, read in pipelines. */
  const read = async (set: "completed" | "failed", field: string, use: (id: string, value: string | null) => void): Promise<void> => {
    const ids = await jobIdsIn(client, queue, set);
    for (let i = 0; i < ids.length; i += BATCH) {
      const pipeline = client.pipeline();
      for (const id of ids.slice(i, i + BATCH)) pipeline.hget(queue.toKey(id), field);
      ((await pipeline.exec()) ?? []).forEach(([error, value], j) => use(ids[i + j]!, error ? null : (value as string | null)));
    }
  };
  await read("completed", "returnvalue", (id, text) => {
    const task = slotOfJobId(id, tasks)?.task;
    let answer: Partial<Record<"task" | "unfinished", unknown>> | null = null;
    try { answer = JSON.parse(text ?? "null") as Partial<Record<"task" | "unfinished", unknown>> | null; } catch { /* not an answer */ }
    if (task !== undefined && answer?.task === task && answer.unfinished !== true) answered.add(task);
  });
  // No failure of the run: a job its worker gave up because the run was decided, and the
  // restarting search's (no verdict needs it: the tasks decide).
  let givenUp = 0;
  if (failed > 0) await read("failed", "failedReason", (id, reason) => { if ((decided && givenUpAsDecided(reason)) || restartsPassOf(id) !== undefined) givenUp++; });
  return { done: answered.size, failed: Math.max(0, failed - givenUp) };
}

/** Removes a run from Redis: its queue, its jobs and results, its meta keys. */
export async function removeRun(queue: string, options: { connection: Connection; connectTimeoutMs?: number }): Promise<void> {
  const opts = checkOptions<{ connection: Connection; connectTimeoutMs: number }>("removeRun", options, ["connection", "connectTimeoutMs"]);
  if (typeof queue !== "string" || !QUEUE_NAME.test(queue)) throw invalid("queue", ` must be a name of letters, digits, '.', '_' and '-', got ${describe(queue)}`);
  const redis = redisOptions(opts.connection as Connection);
  const timeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const { bullmq: { Queue } } = await queueLibraries();
  const client = await connect(redis, timeoutMs);
  const q = new Queue(queue, { connection: bull(redis) });
  try {
    await q.obliterate({ force: true });
    await client.del(metaKey(queue), countedKey(queue), distrustKey(queue));
    await client.srem(ACTIVE_RUNS_KEY, queue);
    await client.publish(RUNS_CHANNEL, queue);
  } finally {
    await q.close().catch(() => {});
    client.disconnect();
  }
}
