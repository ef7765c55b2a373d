// A worker that leaves a run alone, or leaves it, fails none of its jobs (startWorker over a
// redis-server started here): a worker with another key, or none, started before the
// coordinator says why once and never takes a job, and one already on the queue when a run
// under another key starts hands the jobs it took back (their attempts unused), says why once
// and leaves: the count is exact and the solve's verdict the one thread's (a board with no
// solution, n = 20). A solve run taken out of nqueens:runs mid-search has its tasks in hand
// handed back, not failed as "decided": the run waits, saying why, and ends once it is listed
// again. Skipped without redis-server, except in CI. No timed assertion: the waits below are
// hang guards.
import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { excludedDiagonalsBoard, type Square } from "../src/index.js";
import { solve as solveOneThread } from "../src/search/solve.js";
import { countDistributed, removeRun, solveDistributed, startWorker, type DistributedWorker, type WorkerEvent } from "../src/distributed/index.js";
import { JOB_DOMAIN, signed } from "../src/distributed/auth.js";
import { ACTIVE_RUNS_KEY, RUNS_CHANNEL } from "../src/distributed/keys.js";
import { givenUpAsDecided } from "../src/distributed/solve-jobs.js";
import { A000170 } from "./fixtures/oeis.js";
import { haveRedisServer, requireRedis, sleep, until, usePrivateRedis, withQueueOn, type RedisServer } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "worker-leave tests need redis-server (.ci/run installs it)",
  skipped: "test/queue-worker-leave.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the worker-leave test's cluster key";
const OTHER = "another cluster's key, not this run's";
let server: RedisServer;
let url = "";
let redis: Redis;
const withQueue = withQueueOn(() => ({ host: "127.0.0.1", port: server.port }));

type Givens = { blocked?: Square[] };
const ed = (n: number, d: number, seed: number): Givens => ({ blocked: excludedDiagonalsBoard(n, d, { seed }).blocked });

const workers: DistributedWorker[] = [];
async function worker(options: Partial<Parameters<typeof startWorker>[0]>, events?: WorkerEvent[]): Promise<DistributedWorker> {
  const w = await startWorker({ connection: url, concurrency: 1, pollMs: 50, ...(events ? { onEvent: (e: WorkerEvent) => events.push(e) } : {}), ...options });
  workers.push(w);
  return w;
}

const errors = (events: WorkerEvent[]): string[] => events.flatMap((e) => (e.type === "error" ? [e.message] : []));

/**
 * A run on `queue` under KEY: a count of n = 10 in 8 parts (checked against OEIS), or a solve
 * of a board with no solution (every task searched, none given up when a solution ends the
 * run), its verdict the one thread's.
 */
async function keyedRun(kind: "count" | "solve", queue: string): Promise<void> {
  if (kind === "count") {
    expect((await countDistributed(10, { connection: url, key: KEY, parts: 8, queue, pollMs: 20 })).total).toBe(BigInt(A000170[10]));
  } else {
    const givens = ed(20, 18, 1);
    const one = await solveOneThread(20, { method: "complete", ...givens });
    const r = await solveDistributed(20, { connection: url, key: KEY, ...givens, queue, pollMs: 20 });
    expect(r.tasks).toBeGreaterThan(0);
    expect([r.found, r.reason]).toEqual([one.found, one.reason]);
  }
}

/**
 * No job of `queue` failed (but the restarting search's pass in hand when the tasks proved "no
 * solution", given up as decided, no failure of the run), and none used up an attempt it did not
 * finish (a finished job has used one; a solve's jobs wait in the prioritized set).
 */
async function noAttemptSpent(queue: string): Promise<void> {
  await withQueue(queue, async (q) => {
    const failed = (await q.getFailed(0, -1)).filter((job) => !(String(job.id).startsWith("restarts-") && givenUpAsDecided(job.failedReason)));
    expect(failed.map((job) => [job.id, job.failedReason])).toEqual([]);
    for (const job of await q.getJobs(["completed", "waiting", "prioritized", "delayed", "active"])) expect(job.attemptsMade, String(job.id)).toBe(job.finishedOn ? 1 : 0);
  });
}

describe.skipIf(!haveRedisServer)("a worker that leaves a run", () => {
  usePrivateRedis("nqueens-redis-leave-", (s) => ({ server, url, redis } = s));
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close(true);
  });

  for (const kind of ["count", "solve"] as const) {
    it(`${kind}: workers with another key and with none, started on its queue before the coordinator, say why once and take no job; the honest worker's answer is exact`, async () => {
      const queue = `early-strangers-${kind}`;
      const stranger: WorkerEvent[] = [], keyless: WorkerEvent[] = [];
      await worker({ key: OTHER, queue, name: "stranger" }, stranger);
      await worker({ unauthenticated: true, queue, name: "keyless" }, keyless);
      await sleep(200); // a few of their looks with no run there yet: nothing joined, nothing said
      expect([...stranger, ...keyless]).toEqual([]);
      await worker({ key: KEY, name: "honest" }); // finds the run in nqueens:runs
      await keyedRun(kind, queue);
      await until("both to say why", async () => errors(stranger).length > 0 && errors(keyless).length > 0);
      expect(errors(stranger)).toEqual([`not joining run ${queue}: its record does not verify under this worker's key (another key, or changed in Redis)`]);
      expect(errors(keyless)).toEqual([`not joining run ${queue}: it was made under a key: start the worker with the same key (NQUEENS_KEY or --key-file FILE)`]);
      expect([...stranger, ...keyless].filter((e) => e.type === "joined")).toEqual([]);
      await noAttemptSpent(queue);
    });

    it(`${kind}: a worker on one queue meets a run there under another key: it hands back the jobs it took, their attempts unused, says why once and leaves; the honest worker's answer is exact`, async () => {
      const queue = `later-stranger-${kind}`;
      // Its first run is one it may work on (under its key): it joins the queue, and stays there after that run is removed.
      const events: WorkerEvent[] = [];
      const stranger = await worker({ key: OTHER, queue, name: "stranger" }, events);
      await countDistributed(8, { connection: url, key: OTHER, parts: 4, queue, pollMs: 20 });
      await removeRun(queue, { connection: url });
      const before = kind === "count" ? stranger.counted : stranger.searched;
      expect(errors(events)).toEqual([]);
      // A run under KEY on the same queue: the stranger takes its first jobs (nobody else is on it yet).
      const run = keyedRun(kind, queue);
      await until("the stranger to leave", async () => errors(events).length > 0);
      await worker({ key: KEY, name: "honest" });
      await run;
      expect(errors(events)).toEqual([`leaving run ${queue}: its record does not verify under this worker's key (another key, or changed in Redis)`]);
      expect(kind === "count" ? stranger.counted : stranger.searched).toBe(before);
      await noAttemptSpent(queue);
    });
  }

  it("a solve run taken out of nqueens:runs with a task in hand: the task is handed back (not failed as decided), and taken again once the run is listed again", async () => {
    // A board one search does not decide for minutes (n = 30, d = 34, seed 2): its first task's
    // confirmation job has no budget, so it is in hand until stopped.
    const n = 30, givens = ed(30, 34, 2), queue = "unlisted-in-hand";
    const controller = new AbortController();
    const coordinator = solveDistributed(n, { connection: url, key: KEY, ...givens, queue, signal: controller.signal, pollMs: 20 }).catch(() => undefined);
    const first = await until("the tasks to be queued", async () => withQueue(queue, async (q) => (await q.getJob("task-0-p0")) ?? false));
    controller.abort(); // the run stays listed in nqueens:runs
    await coordinator;
    await withQueue(queue, async (q) => {
      await q.drain(true);
      const data = signed(new TextEncoder().encode(KEY), JOB_DOMAIN, queue, { ...(first as Job).data, budget: null, job: "task-0-r1" });
      await q.add("task", data, { jobId: "task-0-r1", attempts: 3 });
    });
    const events: WorkerEvent[] = [];
    const w = await worker({ key: KEY, name: "busy" }, events); // finds the run in nqueens:runs
    await until("the task in hand", async () => withQueue(queue, async (q) => (await q.getActiveCount()) === 1));
    await sleep(300); // into the search
    await redis.srem(ACTIVE_RUNS_KEY, queue);
    await redis.publish(RUNS_CHANNEL, queue);
    await until("the worker to leave", async () => events.some((e) => e.type === "left"));
    expect(events.filter((e) => e.type === "left")).toEqual([{ type: "left", queue, reason: "unlisted" }]);
    const state = await until("the task handed back", async () => withQueue(queue, async (q) => {
      const s = await q.getJobState("task-0-r1");
      return s === "waiting" && s;
    }));
    expect(state).toBe("waiting");
    await withQueue(queue, async (q) => {
      expect(await q.getFailedCount()).toBe(0);
      expect((await q.getJob("task-0-r1"))!.attemptsMade).toBe(0);
    });
    expect(w.searched).toBe(0);
    expect(errors(events)).toEqual([]);
    // Listed again: the worker joins it again and takes the task.
    await redis.sadd(ACTIVE_RUNS_KEY, queue);
    await redis.publish(RUNS_CHANNEL, queue);
    await until("the task taken again", async () => withQueue(queue, async (q) => (await q.getActiveCount()) === 1));
    expect(events.filter((e) => e.type === "joined").length).toBe(2);
    expect(errors(events)).toEqual([]);
  });

  it("a solve run taken out of nqueens:runs mid-search waits, saying why, with no job failed; listed again, it ends with the one thread's verdict", async () => {
    const n = 22, givens = ed(22, 22, 2), queue = "unlisted-run"; // no solution: about 137,000 nodes over 7 tasks
    const one = await solveOneThread(n, { method: "complete", ...givens });
    const events: WorkerEvent[] = [];
    await worker({ key: KEY, name: "only" }, events);
    const notices: string[] = [];
    let unlisted = false;
    const run = solveDistributed(n, {
      connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20, stallNoticeMs: 500, onNotice: (m) => notices.push(m),
      onProgress: (p) => {
        if (!unlisted && p.tasksDone >= 1) {
          unlisted = true;
          void redis.srem(ACTIVE_RUNS_KEY, queue).then(() => redis.publish(RUNS_CHANNEL, queue));
        }
      },
    });
    let ended: string | undefined; // the run must neither fail nor end while it is not listed
    run.then(() => { ended = "ended while not listed"; }, (e: unknown) => { ended = `failed: ${(e as Error).message}`; });
    // Said again after each stretch of stallNoticeMs; one says that the tasks are back in the queue.
    const waits = new RegExp(`^queue ${queue}: no task finished for \\d+ s \\(\\d+ of \\d+ done, 0 in hand, [1-9]\\d* waiting, `);
    await until("the stall notice, the tasks back in the queue", async () => ended ?? notices.some((m) => waits.test(m)));
    expect(ended).toBeUndefined();
    // Why it waits: the run list, not the workers (one is connected, leaving it alone).
    const stall = notices.find((m) => waits.test(m))!;
    expect(stall).toContain(`it is not listed in nqueens:runs (taken out by hand), so workers leave it alone: list it again with redis-cli SADD nqueens:runs ${queue}`);
    expect(stall).not.toMatch(/no worker is on it/);
    expect(events.filter((e) => e.type === "left")).toEqual([{ type: "left", queue, reason: "unlisted" }]);
    await withQueue(queue, async (q) => expect(await q.getFailedCount()).toBe(0));
    // Listed again: the worker joins it again and the run ends.
    await redis.sadd(ACTIVE_RUNS_KEY, queue);
    await redis.publish(RUNS_CHANNEL, queue);
    const r = await run;
    expect([r.found, r.reason]).toEqual([one.found, one.reason]);
    expect(errors(events).filter((m) => /decided/.test(m))).toEqual([]);
    await noAttemptSpent(queue);
  });
});
