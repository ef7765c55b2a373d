// The queue under a cluster key, against a real redis-server: a Redis writer without the key
// edits results (within what the part can hold, so only the MAC can tell), jobs and the run
// record through ioredis; a worker without the key; a run resumed under another key or none.
// The answer is the exact total or a coded error naming the part or the run; never a wrong total.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker as BullWorker } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { SPLIT_VERSION, derivePart, splitCount } from "../src/index.js";
import { countDistributed, queueName, startWorker, type WorkerEvent } from "../src/distributed/index.js";
import { jobId, metaKey } from "../src/distributed/keys.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, killChildren, pong, quietClient, RedisServer, requireRedis, spawnCli, until, withQueueOn, withoutNoWorker } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "queue integrity tests need redis-server (.ci/run installs it)",
  skipped: "test/queue-integrity.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the cluster key of this test file";
let server: RedisServer;
let url = "";
let redis: Redis;
let dir = "";
const withQueue = withQueueOn(() => ({ host: "127.0.0.1", port: server.port }));

/** A coordinator under the key with no worker, its parts on the queue. */
async function enqueued(n: number, parts: number, name: string, key: string | null = KEY) {
  const controller = new AbortController();
  const notices: string[] = [];
  const run = countDistributed(n, { connection: url, parts, queue: name, ...(key === null ? { unauthenticated: true } : { key }), signal: controller.signal, pollMs: 50, onNotice: (m) => notices.push(m) });
  run.catch(() => {}); // looked at by the test
  await until("the parts to be queued", async () => withQueue(name, async (q) => (await q.getWaitingCount()) === parts));
  return { run, controller, notices };
}

/** Every part of a run counted under the key, its coordinator stopped before it merged. */
async function counted(n: number, parts: number, name: string) {
  const { run, controller } = await enqueued(n, parts, name);
  controller.abort();
  await run.catch(() => {});
  const worker = await startWorker({ connection: url, concurrency: 1, queue: name, key: KEY });
  await until("every part counted", async () => withQueue(name, async (q) => (await q.getCompletedCount()) === parts));
  await worker.close();
}

describe.skipIf(!haveRedisServer)("the queue under a cluster key", () => {
  beforeAll(async () => {
    server = await RedisServer.create("nqueens-redis-keyed-");
    url = server.url;
    await server.start();
    redis = quietClient(url);
    dir = mkdtempSync(join(tmpdir(), "nqueens-keyed-"));
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await killChildren();
    await redis.flushdb();
  });

  it("a result raised within what its part can hold (HSET returnvalue, count8 and nodes + 1) is refused by its MAC and counted again; without a key it would be summed", async () => {
    await counted(12, 16, "raised");
    const stored = JSON.parse((await redis.hget("bull:raised:part-3", "returnvalue"))!);
    expect(stored.mac).toMatch(/^[0-9a-f]{64}$/);
    const raised = { ...stored, count8: String(BigInt(stored.count8) + 1n), nodes: String(BigInt(stored.nodes) + 1n) };
    await redis.hset("bull:raised:part-3", "returnvalue", JSON.stringify(raised));
    const notices: string[] = [];
    const worker = await startWorker({ connection: url, concurrency: 1, queue: "raised", key: KEY });
    try {
      const result = await countDistributed(12, { connection: url, parts: 16, queue: "raised", key: KEY, pollMs: 50, onNotice: (m) => notices.push(m) });
      expect(result).toMatchObject({ total: BigInt(A000170[12]), unique: BigInt(A002562[12]), authenticated: true });
      expect(withoutNoWorker(notices)).toEqual([
        "queue raised: the result for part 3 of 16 (n = 12) does not verify under the key (changed in Redis, or written without the key); not added: counting part 3 again",
      ]);
      const again = JSON.parse((await redis.hget("bull:raised:part-3", "returnvalue"))!);
      const counts = ({ count8, count4, count2, nodes }: Record<string, string>) => ({ count8, count4, count2, nodes });
      expect(counts(again)).toEqual(counts(stored)); // counted afresh
    } finally {
      await worker.close();
    }
    // The same edit in a run without a key passes every range check: only the MAC can tell.
    const part = derivePart(12, 16, 3);
    const { checkPartCount } = await import("../src/count/split.js");
    expect(() => checkPartCount(part, raised)).not.toThrow();
  });

  it("results written without the key, again and again (a rogue BullMQ worker of Redis writers): NQ_TAMPERED naming the part, nothing summed", async () => {
    const rogue = new BullWorker("unsigned", async (job) => {
      const d = job.data as { n: number; parts: number; index: number };
      const part = derivePart(d.n, d.parts, d.index);
      const { countTask } = await import("../src/index.js");
      return { ...countTask(part), worker: "rogue", run: (job.data as { run: string }).run, job: job.id }; // a true count, but no MAC
    }, { connection: { host: "127.0.0.1", port: server.port } });
    try {
      const error = await countDistributed(10, { connection: url, parts: 8, queue: "unsigned", key: KEY, pollMs: 50 }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_TAMPERED" });
      expect((error as Error).message).toMatch(/^queue unsigned: the result for part \d of 8 \(n = 10\) does not verify under the key .*, again after counting it afresh/);
    } finally {
      await rogue.close();
    }
  });

  it("a job rewritten in Redis (another part's identity, its digest right) is refused by the worker's key check and written afresh by the coordinator; the total is exact", async () => {
    const { run, notices } = await enqueued(12, 16, "job-edit");
    const parts = splitCount(12, { parts: 16 });
    await withQueue("job-edit", async (q) => {
      const job = (await q.getJob(jobId(3)))!;
      await job.updateData({ ...(job.data as object), index: 5, digest: parts[5].digest });
    });
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ connection: url, concurrency: 1, queue: "job-edit", key: KEY, onEvent: (e) => events.push(e) });
    try {
      expect(await run).toMatchObject({ total: BigInt(A000170[12]), unique: BigInt(A002562[12]), authenticated: true });
      expect(events.some((e) => e.type === "error" && /refused job part-3 of queue job-edit: it does not verify under this worker's key/.test(e.message))).toBe(true);
      expect(withoutNoWorker(notices)).toEqual([expect.stringMatching(/^queue job-edit: refused job part-3 of queue job-edit: it does not verify under this worker's key .*; writing job part-3 afresh$/)]);
    } finally {
      await worker.close();
    }
  });

  it("the run record rewritten mid-run is written back; a record made under another key, or none, is refused at the start (NQ_TAMPERED), and a keyed run needs its key (NQ_KEY)", async () => {
    const { run, controller, notices } = await enqueued(10, 8, "record");
    const record = JSON.parse((await redis.get(metaKey("record")))!);
    expect(record.mac).toMatch(/^[0-9a-f]{64}$/);
    await redis.set(metaKey("record"), JSON.stringify({ ...record, run: "0".repeat(32) }));
    await until("the record written back", async () => notices.includes("queue record: the run's record in Redis was changed; written back"));
    expect(JSON.parse((await redis.get(metaKey("record")))!)).toEqual(record);
    controller.abort();
    await run.catch(() => {});
    // Resumed under another key, or with the MAC stripped: refused, nothing used.
    const other = await countDistributed(10, { connection: url, parts: 8, queue: "record", key: "another key" }).catch((e: unknown) => e);
    expect(other).toMatchObject({ code: "NQ_TAMPERED" });
    expect((other as Error).message).toMatch(/^queue record: the run's record \(nqueens:meta:record\) does not verify under this key: it was changed in Redis, or made under another key/);
    const { mac: _mac, ...stripped } = record;
    await redis.set(metaKey("record"), JSON.stringify(stripped));
    expect(await countDistributed(10, { connection: url, parts: 8, queue: "record", key: KEY }).catch((e: unknown) => e)).toMatchObject({ code: "NQ_TAMPERED" });
    await redis.set(metaKey("record"), JSON.stringify(record));
    const none = await countDistributed(10, { connection: url, parts: 8, queue: "record", unauthenticated: true }).catch((e: unknown) => e);
    expect(none).toMatchObject({ code: "NQ_KEY", message: expect.stringMatching(/^queue record: the run was made under a key/) });
    expect(JSON.stringify(none) + (none as Error).message).not.toContain(KEY);
  });

  it("a worker without the key, or with another, does not join a keyed run; a keyed worker does not join a run made without a key", async () => {
    const { run, controller } = await enqueued(10, 8, "keyed");
    const plainRun = await enqueued(10, 8, "plain", null);
    const events: WorkerEvent[] = [];
    const stranger = await startWorker({ connection: url, concurrency: 1, key: "not the key", onEvent: (e) => events.push(e) });
    const keyless = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, onEvent: (e) => events.push(e) });
    try {
      await until("both to say why", async () => events.filter((e) => e.type === "error" && /^not joining run (keyed|plain)/.test(e.message)).length >= 3);
      const messages = events.filter((e) => e.type === "error").map((e) => (e as { message: string }).message);
      expect(messages).toContain("not joining run keyed: its record does not verify under this worker's key (another key, or changed in Redis)");
      expect(messages).toContain("not joining run keyed: it was made under a key: start the worker with the same key (NQUEENS_KEY or --key-file FILE)");
      expect(messages).toContain("not joining run plain: it was made without a key; this worker counts only runs signed with its key");
      expect(events.some((e) => e.type === "joined" && e.queue === "keyed")).toBe(false);
      expect(await plainRun.run).toMatchObject({ total: BigInt(A000170[10]), authenticated: false }); // the keyless worker counts it
    } finally {
      controller.abort();
      await run.catch(() => {});
      await stranger.close();
      await keyless.close();
    }
  });

  it("CLI: NQUEENS_KEY for the coordinator, --key-file for the workers, end to end; without a key, as asked (--unauthenticated), the result says so and stderr says in one line how to set one", async () => {
    const keyFile = join(dir, "cluster.key");
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const w = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--key-file", keyFile, "--name", "w1"]);
    await until("the worker to start", async () => w.stderr().includes("ready"));
    expect(w.stderr()).not.toMatch(/not authenticated/);
    process.env.NQUEENS_KEY = KEY;
    let cli;
    try {
      cli = await runCli(["count", "11", "--queue", url, "--parts", "8", "--json"]);
    } finally {
      delete process.env.NQUEENS_KEY;
    }
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ total: String(A000170[11]), authenticated: true, mismatches: 0, suspects: [] });
    expect(JSON.parse(cli.stdout).audited).toBeGreaterThanOrEqual(1); // one part of w1 at least
    expect(cli.stderr).toBe("");
    // No key on either side, as asked (--unauthenticated, even with NQUEENS_KEY set): it counts, says so, and how to set a key.
    const ambient = { ...process.env, NQUEENS_KEY: KEY };
    const plain = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--unauthenticated"], ambient);
    await until("the keyless worker to start", async () => plain.stderr().includes("ready"));
    expect(plain.stderr()).toMatch(/^nqueens worker: the queue is not authenticated: .*set NQUEENS_KEY or --key-file FILE/m);
    const open = await runCli(["count", "10", "--queue", url, "--parts", "8", "--unauthenticated"], { env: ambient });
    expect(open.code, open.stderr).toBe(0);
    expect(open.stdout).toMatch(/^n = 10: 724 solutions, 92 unique/);
    expect(open.stdout).toMatch(/not authenticated \(no key\)/);
    expect(open.stderr.split("\n").filter(Boolean)).toEqual([expect.stringMatching(/^nqueens: the queue is not authenticated: .*set NQUEENS_KEY or --key-file FILE/)]);
  }, 40_000);

  it("nqueens runs verifies each record under the key: a finished run's total edited in Redis (14200 to 14201) shows as unverified, with no total; without the key, as not checked", async () => {
    const name = "runs-verified";
    const worker = await startWorker({ connection: url, concurrency: 1, queue: name, key: KEY });
    try {
      expect((await countDistributed(12, { connection: url, parts: 8, queue: name, key: KEY, pollMs: 50 })).total).toBe(BigInt(A000170[12]));
    } finally {
      await worker.close();
    }
    const env = { ...process.env, NQUEENS_KEY: KEY };
    const row = (stdout: string): string => stdout.split("\n").find((l) => l.startsWith(`${name} `)) ?? "";
    const honest = await runCli(["runs", "--queue", url], { env });
    expect(row(honest.stdout)).toMatch(new RegExp(`\\sfinished\\s+yes\\s+${A000170[12]} \\(${A002562[12]} unique\\)$`));
    const record = JSON.parse((await redis.get(metaKey(name)))!) as { total: string };
    await redis.set(metaKey(name), JSON.stringify({ ...record, total: String(A000170[12]! + 1n) }));
    const edited = await runCli(["runs", "--queue", url], { env });
    expect(row(edited.stdout)).toMatch(/\sunverified\s+NO\s+-$/);
    expect(edited.stdout).not.toContain(String(A000170[12]! + 1n));
    expect(edited.stderr).toContain(`nqueens: run ${name}: its record does not verify under this key`);
    const json = JSON.parse((await runCli(["runs", "--queue", url, "--json"], { env })).stdout) as { runs: { queue: string; verified: boolean | null; total?: string }[] };
    expect(json.runs.find((r) => r.queue === name)).toMatchObject({ verified: false });
    expect(json.runs.find((r) => r.queue === name)!.total).toBeUndefined();
    const { NQUEENS_KEY: _, ...keyless } = env;
    const unchecked = await runCli(["runs", "--queue", url], { env: keyless });
    expect(row(unchecked.stdout)).toMatch(/\sfinished\s+no key\s+/);
    expect(unchecked.stderr).toContain("the records are not verified");
  });

  it("records planted without the key do not steer a keyed run's default split (n = 18, no parts given): neither 99999999999 parts nor an unsigned 300", async () => {
    await redis.set(metaKey(`nqueens-count-n18-p99999999999-v${SPLIT_VERSION}`), JSON.stringify({ format: "nqueens-count-run", n: 18, parts: 99999999999, splitVersion: SPLIT_VERSION }));
    await redis.set(metaKey(`nqueens-count-n18-p300-v${SPLIT_VERSION}`), JSON.stringify({ format: "nqueens-count-run", n: 18, parts: 300, splitVersion: SPLIT_VERSION }));
    const controller = new AbortController();
    let plan: { parts: number; from: string } | undefined;
    const run = countDistributed(18, {
      connection: url, key: KEY, signal: controller.signal, pollMs: 50,
      onPlan: (p) => { plan = p; controller.abort(); },
    });
    await run.catch(() => {}); // stopped from onPlan: only the plan matters here
    expect(plan).toBeDefined();
    expect(plan!.from).toBe("default");
    expect(plan!.parts).not.toBe(300);
    expect(plan!.parts).toBeLessThanOrEqual(1_000_000);
    await redis.del(metaKey(`nqueens-count-n18-p99999999999-v${SPLIT_VERSION}`), metaKey(`nqueens-count-n18-p300-v${SPLIT_VERSION}`));
  });

  it("honest faults under a key: the coordinator killed with SIGKILL mid-run and a worker killed mid-part; the run resumes, exact and authenticated", async () => {
    const keyFile = join(dir, "faults.key");
    writeFileSync(keyFile, KEY, { mode: 0o600 });
    // What is killed (the coordinator, one worker) are processes; the worker that goes on
    // counting runs in this one, with the same key file, lock and stalled-job check.
    const doomed = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--key-file", keyFile, "--lock-duration", "1000", "--stalled-interval", "500"]);
    const steady = await startWorker({ connection: url, concurrency: 1, keyFile, lockDuration: 1000, stalledInterval: 500 });
    try {
      await until("the worker to start", async () => doomed.stderr().includes("ready"));
      const first = spawnCli(["count", "14", "--queue", url, "--parts", "32", "--key-file", keyFile, "--json"]);
      const name = queueName(14, 32);
      await until("a few parts done", async () => (await withQueue(name, (q) => q.getCompletedCount()).catch(() => 0)) >= 3);
      first.child.kill("SIGKILL");
      doomed.child.kill("SIGKILL");
      await first.exited;
      const second = await runCli(["count", "14", "--queue", url, "--parts", "32", "--key-file", keyFile, "--json"]);
      expect(second.code, second.stderr).toBe(0);
      expect(JSON.parse(second.stdout)).toMatchObject({ total: String(A000170[14]), unique: String(A002562[14]), authenticated: true, mismatches: 0 });
      expect(JSON.parse(second.stdout).resumed).toBeGreaterThanOrEqual(3);
    } finally {
      await steady.close();
    }
  }, 40_000);
});

describe("a queue run without a key is refused unless asked for", () => {
  /** NQUEENS_KEY unset (or set to `value`) for `body`, as it was after. */
  async function withEnvKey<T>(value: string | undefined, body: () => Promise<T>): Promise<T> {
    const saved = process.env.NQUEENS_KEY;
    if (value === undefined) delete process.env.NQUEENS_KEY;
    else process.env.NQUEENS_KEY = value;
    try {
      return await body();
    } finally {
      if (saved === undefined) delete process.env.NQUEENS_KEY;
      else process.env.NQUEENS_KEY = saved;
    }
  }
  const nowhere = "redis://127.0.0.1:1"; // nothing listens there: a call that gets past its checks is NQ_QUEUE_UNREACHABLE
  const failure = (call: () => Promise<unknown>): Promise<unknown> => call().then(() => undefined, (e: unknown) => e);

  it("API: countDistributed and startWorker without a key are NQ_KEY saying how to set one and naming unauthenticated, before Redis is asked anything", async () => {
    await withEnvKey(undefined, async () => {
      for (const call of [() => countDistributed(10, { connection: nowhere, parts: 8 }), () => startWorker({ connection: nowhere, concurrency: 1 })]) {
        const error = await failure(call);
        expect(error).toMatchObject({ code: "NQ_KEY", param: "key", message: expect.stringMatching(/^no cluster key: .*NQUEENS_KEY.*unauthenticated: true/) });
      }
      // Asked for: on to Redis, as before.
      expect(await failure(() => countDistributed(10, { connection: nowhere, parts: 8, unauthenticated: true }))).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      expect(await failure(() => startWorker({ connection: nowhere, concurrency: 1, unauthenticated: true }))).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      // A key, or a worker's own identity, is enough; unauthenticated beside one is refused, naming where the key came from.
      expect(await failure(() => countDistributed(10, { connection: nowhere, parts: 8, key: KEY }))).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      const identity = { name: "w", key: new Uint8Array(32).fill(7) };
      expect(await failure(() => startWorker({ connection: nowhere, concurrency: 1, identity }))).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      expect(await failure(() => countDistributed(10, { connection: nowhere, key: KEY, unauthenticated: true })))
        .toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "unauthenticated", message: "unauthenticated asks for a run without a key, but one is given (key): leave one of the two out" });
      expect(await failure(() => startWorker({ connection: nowhere, identity, unauthenticated: true }))).toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "unauthenticated" });
      expect(await failure(() => startWorker({ connection: nowhere, unauthenticated: "yes" as never }))).toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "unauthenticated" });
    });
    await withEnvKey(KEY, async () => {
      expect(await failure(() => countDistributed(10, { connection: nowhere, parts: 8 }))).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      expect(await failure(() => startWorker({ connection: nowhere, concurrency: 1 }))).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
    });
  });

  it("CLI: count --queue and worker without a key exit 2, one line saying how to set one and naming --unauthenticated; with it they go on to Redis", async () => {
    const env = { ...process.env };
    delete env.NQUEENS_KEY;
    const own = mkdtempSync(join(tmpdir(), "nqueens-keyless-"));
    const keyFile = join(own, "cluster.key");
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    onTestFinished(() => rmSync(own, { recursive: true, force: true }));
    const [count, worker, count2, worker2, both] = await Promise.all([
      runCli(["count", "10", "--queue", nowhere], { env }),
      runCli(["worker", "--queue", nowhere], { env }),
      runCli(["count", "10", "--queue", nowhere, "--unauthenticated"], { env }),
      runCli(["worker", "--queue", nowhere, "--unauthenticated"], { env }),
      runCli(["count", "10", "--queue", nowhere, "--unauthenticated", "--key-file", keyFile], { env }),
    ]);
    for (const run of [count, worker]) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^nqueens: no cluster key: [^\n]*export NQUEENS_KEY=[^\n]*--key-file FILE[^\n]*--unauthenticated to run without one\n$/);
    }
    for (const run of [count2, worker2]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/cannot reach Redis at 127\.0\.0\.1:1/);
    }
    expect(both.code).toBe(2);
    expect(both.stderr).toBe("nqueens: --unauthenticated runs the count without a key: it does not go with --key-file\n");
  });
});
