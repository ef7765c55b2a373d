// Distributed counting over Redis (BullMQ): a coordinator and `nqueens worker` processes
// count exactly; a worker killed with SIGKILL mid-part has its part retried; a stopped
// run resumes without recounting; an unreachable Redis and a queue of another run are
// refused clearly. Redis: $REDIS_URL (.ci/run starts one), else a redis-server started
// here on a free port; skipped without redis-server, except in CI, where that fails.
import { connect as connectTcp, createServer, type Socket } from "node:net";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { count, SPLIT_VERSION } from "../src/index.js";
import { countDistributed, listRuns, queueName, removeRun, startWorker, type WorkerEvent } from "../src/distributed/index.js";
import { countedKey } from "../src/distributed/keys.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { freePort, haveRedisServer, killChildren, pong, quietClient, RedisServer, requireRedis, sleep, spawnCli, until, withQueueOn, type Proc } from "./redis-harness.js";

const usable = requireRedis(Boolean(process.env.REDIS_URL) || haveRedisServer, {
  ci: "distributed tests need Redis: set REDIS_URL or install redis-server (.ci/run does)",
  skipped: "test/distributed.test.ts skipped: no REDIS_URL and no redis-server (apt-get install -y redis-server)",
});

let url = process.env.REDIS_URL ?? "";
let server: RedisServer | undefined;
let redis: Redis;

/**
 * A worker process that hands a dead worker's part back within about 1.5 s, or, with
 * `rescue: false`, not within any test (its stalled-job check comes every 120 s): then a
 * part that a stopped worker left active, instead of handing it back, is never counted.
 * A test that counts each part exactly once takes `rescue: false` too: a 1 s lock runs out
 * under load (a worker process unscheduled that long), and a live worker's part was taken
 * by the other and counted twice ([1, 1, 1, 1, 2, ...] at load 20 on 2 cores).
 */
async function worker({ rescue = true } = {}): Promise<Proc> {
  const { lockDuration, stalledInterval } = locks(rescue);
  const w = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--lock-duration", String(lockDuration), "--stalled-interval", String(stalledInterval), "--unauthenticated"]);
  await until("the worker to start", async () => w.stderr().includes("ready"));
  return w;
}

/** The same worker in this process (where no test is about the worker's process). */
const localWorker = ({ rescue = true } = {}) => startWorker({ unauthenticated: true, connection: url, concurrency: 1, ...locks(rescue) });

/** A worker's lock and stalled-job check (see worker). */
const locks = (rescue: boolean) => (rescue ? { lockDuration: 1000, stalledInterval: 500 } : { lockDuration: 120_000, stalledInterval: 120_000 });

/** A coordinator in this process counting n in `parts` parts; `stop()` aborts it (a test's finally, should it fail first). */
function coordinator(n: number, parts: number): { result: Promise<Awaited<ReturnType<typeof countDistributed>>>; stop: () => void } {
  const controller = new AbortController();
  const result = countDistributed(n, { unauthenticated: true, connection: url, parts, signal: controller.signal });
  result.catch(() => {}); // awaited by the test
  return { result, stop: () => controller.abort() };
}

/** Both workers have a part in hand while parts still wait. (Each holds at most two, one counting and one taken ahead, so 3 active means both hold one.) */
const bothWorkersBusy = (name: string) => until("both workers busy", async () => {
  const { counts } = await jobs(name).catch(() => ({ counts: { active: 0, waiting: 0 } as Record<string, number> }));
  return counts.active >= 3 && counts.waiting >= 2;
});

const withQueue = withQueueOn(() => ({ host: new URL(url).hostname, port: Number(new URL(url).port) }));

const jobs = (name: string) => withQueue(name, async (queue) => ({ counts: await queue.getJobCounts(), completed: await queue.getCompleted(0, -1) }));

async function countedTimes(name: string): Promise<number[]> {
  const hash = await redis.hgetall(countedKey(name));
  return Object.entries(hash).sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => Number(v));
}

describe.skipIf(!usable)("countDistributed over Redis", () => {
  beforeAll(async () => {
    if (!url) {
      server = await RedisServer.create("nqueens-redis-");
      server.spawn();
      url = server.url;
    }
    redis = quietClient(url); // errors ignored while a fresh redis-server starts
    await until("Redis to answer", () => pong(redis), 10_000);
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.dispose("SIGTERM");
  });

  afterEach(async () => {
    await killChildren();
    await redis.flushdb();
  });

  it("a coordinator and two worker processes count n = 12 and 13 exactly", async () => {
    await redis.flushdb();
    await worker({ rescue: false });
    await worker({ rescue: false });
    for (const n of [12, 13]) {
      const run = await runCli(["count", String(n), "--queue", url, "--parts", "16", "--json", "--unauthenticated"]);
      expect(run.stderr).toMatch(/^nqueens: the queue is not authenticated: [^\n]*set NQUEENS_KEY or --key-file FILE[^\n]*\n$/); // one line: no key here
      expect(run.code).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ n, total: String(A000170[n]), unique: String(A002562[n]), parts: 16, resumed: 0 });
      expect(result.nodes).toBe(String((await count(n)).nodes));
      expect(await countedTimes(queueName(n, 16))).toEqual(Array(16).fill(1));
    }
  });

  it("a worker killed with SIGKILL mid-part: its part is retried elsewhere, the total stays exact, no job is left", async () => {
    const n = 16, parts = 8, name = queueName(n, parts);
    const a = await worker();
    // Only the killed worker needs to be a process: the other worker, which takes the part
    // back, and the coordinator run in this one (the same lock and stalled-job check).
    const b = await localWorker();
    const run = coordinator(n, parts);
    try {
      await bothWorkersBusy(name); // kill one then
      a.child.kill("SIGKILL");
      expect(await run.result).toMatchObject({ total: BigInt(A000170[n]), unique: BigInt(A002562[n]) });
      const { counts, completed } = await jobs(name);
      expect(counts).toMatchObject({ completed: parts, active: 0, waiting: 0, failed: 0, delayed: 0 });
      // The part in hand was taken back by the stalled-job check (nothing else does it for a
      // killed worker) and counted by the other worker.
      expect(completed.some((job) => job.stalledCounter > 0)).toBe(true);
      expect((await countedTimes(name)).every((t) => t >= 1)).toBe(true);
    } finally {
      run.stop();
      await b.close();
    }
  });

  it("a stopped run resumes: finished parts are reused, not recounted", async () => {
    const n = 16, parts = 16, name = queueName(n, parts);
    // One worker process (a part at a time: the stop finds parts still waiting), stopped with
    // SIGTERM, which finishes the parts in hand; the run stopped with Ctrl-C.
    const first = await worker({ rescue: false });
    const cli = spawnCli(["count", String(n), "--queue", url, "--parts", String(parts), "--json", "--unauthenticated"]);
    await until("a few parts done", async () => ((await jobs(name).catch(() => undefined))?.counts.completed ?? 0) >= 3, 60_000); // two processes to start: 20 s was short at load 20
    first.child.kill("SIGTERM"); // graceful: the parts in hand are finished
    cli.child.kill("SIGINT");
    expect(await cli.exited).toBe(130);
    expect(await first.exited).toBe(0);
    const before = await jobs(name);
    const doneBefore = before.counts.completed;
    expect(doneBefore).toBeGreaterThan(0);
    expect(doneBefore).toBeLessThan(parts);
    expect(before.counts.active).toBe(0);
    const finishedOn = new Map(before.completed.map((job) => [job.id, job.finishedOn]));

    // Resumed in this process: the worker's stalled-job check, like rescue: false, comes only
    // after the test ends, so no part is counted twice.
    const w = await localWorker({ rescue: false });
    try {
      const result = await countDistributed(n, { unauthenticated: true, connection: url, parts });
      expect(result).toMatchObject({ total: BigInt(A000170[n]), unique: BigInt(A002562[n]) });
      // The restarted worker picks the run up by itself, so more may be done by the time it starts.
      expect(result.resumed).toBeGreaterThanOrEqual(doneBefore);
    } finally {
      await w.close();
    }
    // Every part was counted exactly once over both runs; the early ones were not touched again.
    expect(await countedTimes(name)).toEqual(Array(parts).fill(1));
    const after = await jobs(name);
    for (const job of after.completed) if (finishedOn.has(job.id)) expect(job.finishedOn).toBe(finishedOn.get(job.id));
  });

  it("a worker stopped twice (SIGTERM, SIGTERM) with parts in hand exits at once, handing them back; another worker counts them, exactly", async () => {
    const n = 16, parts = 8, name = queueName(n, parts);
    // No stalled-job check within the test: only a part handed back is counted again. Only the
    // stopped worker needs to be a process: the other worker and the coordinator run in this one.
    const a = await worker({ rescue: false });
    const b = await localWorker({ rescue: false });
    const run = coordinator(n, parts);
    let settled = false;
    run.result.then(() => { settled = true; }, () => { settled = true; });
    try {
      await bothWorkersBusy(name);
      a.child.kill("SIGTERM");
      await until("the graceful stop to begin", async () => a.stderr().includes("stopping:"));
      a.child.kill("SIGTERM");
      // It exits while its parts are still unfinished (no graceful wait), with 130.
      expect(await a.exited).toBe(130);
      expect(a.stderr()).toContain("stopping now");
      expect(settled, "the run still counting when the worker exits").toBe(false);
      expect(await run.result).toMatchObject({ total: BigInt(A000170[n]), unique: BigInt(A002562[n]) });
      const { counts, completed } = await jobs(name);
      expect(counts).toMatchObject({ completed: parts, active: 0, waiting: 0, failed: 0, delayed: 0 });
      // Handed back (started twice), not recovered as stalled, and no attempt used up.
      expect(completed.some((job) => job.attemptsStarted > 1)).toBe(true);
      for (const job of completed) expect({ part: job.id, stalledCounter: job.stalledCounter, attemptsMade: job.attemptsMade }).toEqual({ part: job.id, stalledCounter: 0, attemptsMade: 1 });
    } finally {
      run.stop();
      await b.close();
    }
  });

  it("close(true) with parts in hand and the worker still taking parts: none stays active or locked, none finished is lost, the total stays exact", async () => {
    // Parts of ~100 ms (n = 16 in 16: the same work as in 64, four times longer parts), so the stop
    // below finds one in hand, not one just finished: at ~40 ms a part (64 parts), load 12 once let
    // both parts in hand finish between the look and the stop, and nothing was handed back.
    const n = 16, parts = 16, name = queueName(n, parts);
    const a = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, prefetch: 1, pollMs: 60_000 });
    const run = coordinator(n, parts);
    let b: Awaited<ReturnType<typeof startWorker>> | undefined;
    const queue = new Queue(name, { connection: { host: new URL(url).hostname, port: Number(new URL(url).port) } });
    try {
      await until("a few parts done", async () => (await queue.getCompletedCount()) >= 5);
      await until("a part in hand", async () => (await queue.getJobCounts("active")).active > 0);
      await a.close(true);
      // At once, not after a lock runs out: nothing of this worker is left active or locked.
      expect(await queue.getJobCounts("active")).toEqual({ active: 0 });
      expect(await redis.keys(`bull:${name}:*:lock`)).toEqual([]);
      // Every part it counted was stored (a part finished just before the stop is not dropped).
      const done = new Set((await queue.getCompleted(0, -1)).map((job) => job.id));
      expect(Object.keys(await redis.hgetall(countedKey(name))).map((part) => `part-${part}`).filter((id) => !done.has(id))).toEqual([]);
      // The parts in hand (one counting, one taken ahead) wait again, no attempt used up.
      const handedBack = (await queue.getWaiting(0, -1)).filter((job) => job.attemptsStarted > 0);
      expect(handedBack.length).toBeGreaterThan(0);
      for (const job of handedBack) expect({ part: job.id, stalledCounter: job.stalledCounter, attemptsMade: job.attemptsMade }).toEqual({ part: job.id, stalledCounter: 0, attemptsMade: 0 });
      // A worker whose stalled-job check comes only after the test ends counts the rest.
      b = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, lockDuration: 120_000, stalledInterval: 120_000, pollMs: 60_000 });
      expect(await run.result).toMatchObject({ total: BigInt(A000170[n]), unique: BigInt(A002562[n]) });
      expect((await queue.getCompleted(0, -1)).filter((job) => job.stalledCounter > 0)).toEqual([]);
    } finally {
      run.stop();
      await a.close(true);
      await b?.close();
      await queue.close();
    }
  });

  it("an idle worker joins a new run and leaves a finished one on the coordinator's notice, not its slow poll", async () => {
    const events: WorkerEvent[] = [];
    const w = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, pollMs: 60_000, onEvent: (e) => events.push(e) });
    try {
      const reports: { workers: number; tasksDone: number }[] = [];
      const r = await countDistributed(9, { unauthenticated: true, connection: url, queue: "noticed", onProgress: (p) => reports.push(p) });
      expect(r).toMatchObject({ total: BigInt(A000170[9]), unique: BigInt(A002562[9]) });
      // the coordinator sees the worker that counted its parts (it asks again while it sees none)
      expect(reports.at(-1)!.workers).toBe(1);
      await until("the worker to leave the finished run", async () => events.some((e) => e.type === "left" && e.queue === "noticed"));
      expect(events.find((e) => e.type === "left")).toEqual({ type: "left", queue: "noticed", reason: "finished" });
      expect(events.filter((e) => e.type === "joined").map((e) => (e as { queue: string }).queue)).toEqual(["noticed"]);
      expect(w.counted).toBe(r.parts);
    } finally {
      await w.close();
    }
  });

  it("a worker closed while it looks for runs reports no error (the look ends before its connection goes)", async () => {
    const events: WorkerEvent[] = [];
    const w = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, pollMs: 10, onEvent: (e) => events.push(e) });
    // Redis holds every command for 300 ms: the worker's next look waits for its answer.
    await redis.client("PAUSE", 300, "ALL");
    await sleep(50);
    await w.close();
    await sleep(50); // an error from a command cut off by the close comes just after it
    expect(events.filter((e) => e.type === "error")).toEqual([]);
  });

  it("nqueens worker says why it left a run: finished, removed, or no longer listed", async () => {
    const w = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--unauthenticated"]);
    await until("the worker to start", async () => w.stderr().includes("ready"));
    const open = async (name: string) => {
      await redis.set(`nqueens:meta:${name}`, JSON.stringify({ format: "nqueens-count-run", n: 9, parts: 8, splitVersion: 1 }));
      await redis.sadd("nqueens:runs", name);
      await redis.publish("nqueens:runs:changed", name);
      await until(`the worker to join ${name}`, async () => w.stderr().includes(`working on ${name}\n`));
    };
    await open("gone");
    await removeRun("gone", { connection: url }); // as `nqueens runs --remove` does (its own test is below)
    await until("the worker to leave gone", async () => w.stderr().includes("left gone (removed)\n"));
    await open("dropped");
    await redis.srem("nqueens:runs", "dropped");
    await redis.publish("nqueens:runs:changed", "dropped");
    await until("the worker to leave dropped", async () => w.stderr().includes("left dropped (no longer listed in nqueens:runs)\n"));
    await countDistributed(9, { unauthenticated: true, connection: url, queue: "done" });
    await until("the worker to leave done", async () => w.stderr().includes("left done (finished)\n"));
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(w.stderr()).not.toMatch(/is finished/);
  });

  it("nqueens runs lists runs in progress and finished, and --remove deletes one", async () => {
    // A run with no worker yet, its coordinator stopped: all its parts wait. (Ctrl-C on the
    // coordinator process, exit code 130, is the resume test's.)
    const stop = new AbortController();
    const waiting = countDistributed(12, { unauthenticated: true, connection: url, queue: "pending", parts: 16, signal: stop.signal });
    waiting.catch(() => {}); // aborted below
    await until("the run to be listed", async () => (await listRuns({ connection: url })).find((r) => r.queue === "pending" && r.waiting === 16));
    stop.abort();
    expect(await waiting.catch((e: unknown) => (e as Error).name)).toBe("AbortError");
    const w = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "done" });
    try {
      await countDistributed(10, { unauthenticated: true, connection: url, queue: "done" });
    } finally {
      await w.close();
    }

    const json = await runCli(["runs", "--queue", url, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).runs).toEqual([
      { queue: "done", n: 10, parts: 8, splitVersion: SPLIT_VERSION, done: 8, active: 0, waiting: 0, failed: 0, workers: 0, open: false, total: String(A000170[10]), unique: String(A002562[10]), verified: null },
      { queue: "pending", n: 12, parts: 16, splitVersion: SPLIT_VERSION, done: 0, active: 0, waiting: 16, failed: 0, workers: 0, open: true, verified: null },
    ]);
    const text = await runCli(["runs", "--queue", url]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^queue\s+n\s+done\s+active\s+waiting\s+failed\s+workers\s+state\s+verified\s+total$/);
    expect(lines[1]).toMatch(new RegExp(`^done\\s+10\\s+8/8\\s+0\\s+0\\s+0\\s+0\\s+finished\\s+no key\\s+${A000170[10]} \\(${A002562[10]} unique\\)$`));
    expect(lines[2]).toMatch(/^pending\s+12\s+0\/16\s+0\s+16\s+0\s+0\s+counting\s+no key\s+-$/);
    expect(text.stderr).toContain("the records are not verified");

    const removed = await runCli(["runs", "--queue", url, "--remove", "pending"]);
    expect(removed).toMatchObject({ code: 0, stdout: "removed pending (n = 12, 0/16 parts done)\n" });
    expect((await listRuns({ connection: url })).map((r) => r.queue)).toEqual(["done"]);
    expect(await redis.keys("bull:pending:*")).toEqual([]);
    expect(await redis.sismember("nqueens:runs", "pending")).toBe(0);
    const unknown = await runCli(["runs", "--queue", url, "--remove", "pending"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`nqueens: no run named "pending" in Redis at ${url} (runs: done)\n`);
  });

  it("nqueens runs: a run whose record holds a bad total is listed as unreadable, not as a lost Redis", async () => {
    await redis.set("nqueens:meta:bad", JSON.stringify({ format: "nqueens-count-run", n: 9, parts: 8, splitVersion: 1, total: "3.5e2", unique: "46" }));
    const [run] = await listRuns({ connection: url });
    expect(run).toMatchObject({ queue: "bad", n: 9, parts: 8, done: 0, unreadable: 'nqueens:meta:bad: the stored total "3.5e2" is not a count' });
    expect(run.total).toBeUndefined();
    const cli = await runCli(["runs", "--queue", url]);
    expect(cli.code).toBe(0);
    expect(cli.stdout.trim().split("\n")[1]).toMatch(/^bad\s+9\s+0\/8\s+0\s+0\s+0\s+0\s+unreadable\s+no key\s+-$/);
    expect(cli.stderr.split("\n")[0]).toBe('nqueens: run bad is unreadable: nqueens:meta:bad: the stored total "3.5e2" is not a count');
  });

  it("nqueens runs ends with the unreachable error when Redis goes away after the first answers (no hang)", async () => {
    await redis.set("nqueens:meta:somerun", JSON.stringify({ format: "nqueens-count-run", n: 9, parts: 8, splitVersion: 1 }));
    // A proxy to Redis that lets the first two connections through (listRuns's probe and its
    // client), then refuses every other: the run's queue, opened next, never connects.
    const proxies: { close: () => void }[] = [];
    const flaky = async (): Promise<string> => {
      const target = new URL(url);
      const sockets = new Set<Socket>();
      let accepted = 0;
      const proxy = createServer((socket) => {
        if (++accepted === 2) proxy.close(); // refuse from now on
        const upstream = connectTcp(Number(target.port), target.hostname);
        for (const s of [socket, upstream]) { sockets.add(s); s.on("error", () => {}); s.on("close", () => { socket.destroy(); upstream.destroy(); }); }
        socket.pipe(upstream).pipe(socket);
      });
      proxies.push({ close: () => { proxy.close(); for (const s of sockets) s.destroy(); } });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      return `redis://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    };
    try {
      const error = await listRuns({ connection: await flaky(), connectTimeoutMs: 500 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      expect((error as Error).message).toMatch(/^lost Redis at 127\.0\.0\.1:\d+: queue somerun: no answer within 500 ms$/);
      // The command ends (its connections dropped), exit code 1.
      const cli = await runCli(["runs", "--queue", await flaky()]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toMatch(/^nqueens: lost Redis at 127\.0\.0\.1:\d+: queue somerun: no answer within 3000 ms\n$/);
    } finally {
      for (const p of proxies) p.close();
    }
  });

  it("--timeout ends a queue count that no worker takes (database 9, where no test's worker looks), keeping the run", async () => {
    const lonely = `${url.replace(/\/\d+$/, "")}/9`;
    const run = await runCli(["count", "12", "--queue", lonely, "--queue-name", "no-worker-here", "--timeout", "1500", "--unauthenticated"], { killAfterMs: 60_000 });
    expect(run.signal, "still waiting a minute after --timeout 1500").toBeNull();
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^nqueens: count 12 did not finish within --timeout 1500 ms; the run stays in Redis \(0 of (\d+|\?) parts done\): run the same command again to resume\n$/m);
  });

  it("a job taken out of its list by one Redis command (LREM from wait, ZREM from completed) is put back, and the count is exact", async () => {
    const lonely = `${url.replace(/\/\d+$/, "")}/11`; // a database no other test's worker looks at
    const client = quietClient(lonely);
    await client.flushdb(); // this test's own database
    try {
      for (const [queue, harm] of [
        ["stuck-wait", (q: string) => client.lrem(`bull:${q}:wait`, 0, "part-3")],
        ["stuck-completed", (q: string) => client.zrem(`bull:${q}:completed`, "part-5")],
      ] as const) {
        const notices: string[] = [];
        const controller = new AbortController();
        const run = countDistributed(10, { unauthenticated: true, connection: lonely, queue, parts: 8, pollMs: 50, signal: controller.signal, onNotice: (m) => notices.push(m) });
        run.catch(() => {});
        await until("the parts to be queued", async () => (await client.llen(`bull:${queue}:wait`)) === 8);
        if (queue === "stuck-wait") await harm(queue);
        const worker = await startWorker({ unauthenticated: true, connection: lonely, concurrency: 1, queue, pollMs: 50 });
        try {
          if (queue === "stuck-completed") {
            // its result read, then the coordinator stopped; the job taken out of completed before it resumes
            await until("part 5 counted", async () => (await client.zscore(`bull:${queue}:completed`, "part-5")) !== null);
            controller.abort();
            await run.catch(() => {});
            await harm(queue);
            const again = await countDistributed(10, { unauthenticated: true, connection: lonely, queue, parts: 8, pollMs: 50, onNotice: (m) => notices.push(m) });
            expect([again.total, again.unique]).toEqual([A000170[10], A002562[10]]);
          } else {
            const r = await run;
            expect([r.total, r.unique]).toEqual([A000170[10], A002562[10]]);
          }
        } finally {
          await worker.close();
        }
        if (queue === "stuck-wait") expect(notices.join("\n")).toMatch(/putting the run back/);
      }
    } finally {
      client.disconnect();
    }
  });

  it("a job moved to the delayed set for good, or a queue paused in Redis, is put back or resumed (two runs side by side), and the counts are exact", async () => {
    const lonely = `${url.replace(/\/\d+$/, "")}/12`; // a database no other test's worker looks at
    const client = quietClient(lonely);
    await client.flushdb();
    const far = (Date.now() + 365 * 86_400_000) * 4096; // BullMQ's delayed score: due time in ms times 4096
    try {
      const runs = (["stuck-delayed", "stuck-paused"] as const).map(async (queue) => {
        const notices: string[] = [];
        const run = countDistributed(10, { unauthenticated: true, connection: lonely, queue, parts: 8, pollMs: 50, stallNoticeMs: 1000, onNotice: (m) => notices.push(m) });
        run.catch(() => {});
        await until("the parts to be queued", async () => (await client.llen(`bull:${queue}:wait`)) === 8);
        if (queue === "stuck-delayed") await client.multi().lrem(`bull:${queue}:wait`, 0, "part-3").zadd(`bull:${queue}:delayed`, far, "part-3").exec();
        else await client.multi().hset(`bull:${queue}:meta`, "paused", "1").rename(`bull:${queue}:wait`, `bull:${queue}:paused`).exec();
        const worker = await startWorker({ unauthenticated: true, connection: lonely, concurrency: 1, queue, pollMs: 50 });
        try {
          const r = await run;
          expect([r.total, r.unique], queue).toEqual([A000170[10], A002562[10]]);
        } finally {
          await worker.close();
        }
        expect(notices.join("\n"), queue).toMatch(queue === "stuck-delayed" ? /putting the run back/ : /was paused in Redis \(not by this run\): resumed/);
      });
      await Promise.all(runs);
    } finally {
      client.disconnect();
    }
  }, 180_000);

  it("a run that waits says why, and what would end the wait: no worker on it; replicas 2 with one worker", async () => {
    const lonely = `${url.replace(/\/\d+$/, "")}/10`; // a database no other test's worker looks at
    const own = quietClient(lonely);
    await own.flushdb(); // this test's own database
    own.disconnect();
    const waitFor = async (options: Omit<Parameters<typeof countDistributed>[1], "connection">, match: RegExp): Promise<string[]> => {
      const controller = new AbortController();
      const notices: string[] = [];
      const run = countDistributed(9, { unauthenticated: true, ...options, connection: lonely, parts: 4, pollMs: 50, stallNoticeMs: 500, signal: controller.signal, onNotice: (m) => {
        notices.push(m);
        if (match.test(m)) controller.abort();
      } }).catch((e: unknown) => e);
      const settled = await run;
      expect((settled as Error).name, notices.join("\n")).toBe("AbortError");
      return notices;
    };
    const none = await waitFor({ queue: "stall-no-worker" }, /no part finished/);
    expect(none.at(-1)).toMatch(/^queue stall-no-worker: no part finished for \d+ s \(0 of 4 done, 0 in hand, 4 waiting, 0 workers on it\): no worker is on it: start one \(nqueens worker --queue URL --unauthenticated\); Ctrl-C stops waiting, and the same command resumes$/);
    const worker = await startWorker({ unauthenticated: true, connection: lonely, concurrency: 1, queue: "stall-replicas", pollMs: 50 });
    try {
      const one = await waitFor({ queue: "stall-replicas", replicas: 2 }, /two different workers/);
      expect(one.at(-1)).toMatch(/1 worker on it\): with replicas 2 each part is counted by two different workers, and one worker is on it: start another/);
    } finally {
      await worker.close();
    }
    await expect(countDistributed(9, { unauthenticated: true, connection: lonely, stallNoticeMs: 5 })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "stallNoticeMs" });
  });

  it("an unreachable Redis is a clear error within a few seconds, exit code 1", async () => {
    const closed = await freePort();
    const run = await runCli(["count", "12", "--queue", `redis://127.0.0.1:${closed}`, "--unauthenticated"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^nqueens: cannot reach Redis at 127\.0\.0\.1:\d+ \(connect ECONNREFUSED/);
    const w = await runCli(["worker", "--queue", `redis://127.0.0.1:${closed}`, "--unauthenticated"]);
    expect(w.code).toBe(1);
    expect(w.stderr).toMatch(/cannot reach Redis/);
    // The refusal ends the attempt (no ioredis retries for ever): within the connect timeout
    // (3 s by default), here given 30 s, a margin that load cannot eat; a retry loop never ends.
    const t0 = Date.now();
    const error = await countDistributed(12, { unauthenticated: true, connection: `redis://127.0.0.1:${closed}` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
    expect(Date.now() - t0).toBeLessThan(30_000);
  });

  it("a queue holding another n is refused with a clear message (library and CLI)", async () => {
    const w = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "shared" });
    try {
      const r = await countDistributed(8, { unauthenticated: true, connection: url, queue: "shared" });
      expect(r).toMatchObject({ total: 92n, unique: 12n, queue: "shared" });
      const error = await countDistributed(9, { unauthenticated: true, connection: url, queue: "shared" }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_QUEUE_MISMATCH" });
      expect((error as Error).message).toContain(`queue shared holds another count (n = 8, 8 parts, split version ${SPLIT_VERSION}), not n = 9`);
      const cli = await runCli(["count", "9", "--queue", url, "--queue-name", "shared", "--unauthenticated"]);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toMatch(/queue shared holds another count/);
    } finally {
      await w.close();
    }
  });
});
