// Constrained boards (given queens, blocked squares) on the Redis queue, against a
// real redis-server started here on a free port: countDistributed(n, { fixed, blocked }) equals
// count() and a brute-force checker written here; the run's record holds the board and the
// queue's name its digest; tampered jobs (prefixes, board, depth, digest, a foreign board, a
// forged record) are refused and never change the answer; a tampered result is never summed;
// the CLI end to end with `nqueens worker`; a constrained part stops within the bound when
// cancelled or handed back (measured). Skipped without redis-server, except in CI.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker as ThreadWorker } from "node:worker_threads";
import { Queue, Worker as BullWorker } from "bullmq";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import workerSource from "../build/worker-source.js";
import { compileWasmModule } from "../src/engine/wasm/index.js";
import { Pacer } from "../src/core/pacer.js";
import { checkConstraints, count, countConstrainedPartAsync, countParallel, splitConstrainedCount } from "../src/index.js";
import { CONSTRAINED_SPLIT_VERSION } from "../src/count/constrained.js";
import { boardOfConstraints as constrainedBoard } from "../src/board/board.js";
import { countDistributed, listRuns, queueName, startWorker, type WorkerEvent } from "../src/distributed/index.js";
import { jobId, metaKey } from "../src/distributed/keys.js";
import { bruteForce, randomGivens, rng, type Givens } from "./constrained.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, killChildren, pong, quietClient, RedisServer, requireRedis, sleep, spawnCli, until, withQueueOn, withoutNoWorker } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "distributed tests need redis-server (.ci/run installs it)",
  skipped: "test/distributed-constrained.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

let server: RedisServer | undefined;
let port = 0;
let url = "";
let redis: Redis;

const withQueue = withQueueOn(() => ({ host: "127.0.0.1", port }));

/** The split the coordinator makes of a board (so a test knows the real number of parts). */
function splitOf(n: number, givens: Givens, parts: number) {
  return splitConstrainedCount(n, checkConstraints(n, givens, "test"), parts);
}

/** Starts a coordinator with no worker, and waits until its parts are on the queue. */
async function enqueued(n: number, givens: Givens, parts: number, name: string) {
  const controller = new AbortController();
  const notices: string[] = [];
  const expected = splitOf(n, givens, parts).length;
  const run = countDistributed(n, { unauthenticated: true, connection: url, ...givens, parts, queue: name, signal: controller.signal, pollMs: 50, onNotice: (m) => notices.push(m) });
  run.catch(() => {}); // looked at by the test
  await until("the parts to be queued", async () => withQueue(name, async (q) => (await q.getWaitingCount()) === expected));
  return { run, controller, notices, parts: expected };
}

/** The total of a board by trying every permutation (test/constrained.ts's checker, n <= 8). */
const brute = (n: number, givens: Givens): bigint => BigInt(bruteForce(n, givens).length);

const BOARD: Givens = { fixed: [[3, 4]], blocked: [[0, 0], [5, 5], [7, 2]] };

describe.skipIf(!haveRedisServer)("constrained boards on the queue", () => {
  beforeAll(async () => {
    server = await RedisServer.create("nqueens-redis-constrained-");
    port = server.port;
    url = server.url;
    server.spawn();
    redis = quietClient(url, { retryStrategy: () => 50 }); // errors ignored: refused until redis-server listens
    await until("Redis to answer", () => pong(redis), 10_000);
  });

  afterAll(async () => {
    redis?.disconnect();
    await server?.dispose();
  });

  afterEach(async () => {
    await killChildren();
    await redis.flushdb();
  });

  it("equals count() and a brute-force checker on random boards (n <= 8), and count() at n = 12; a board of two queens on one row counts 0", async () => {
    const worker = await startWorker({ unauthenticated: true, connection: url, concurrency: 2 });
    try {
      const random = rng(1515);
      let nonZero = 0;
      for (let i = 0; i < 8; i++) {
        const n = 6 + (i % 3);
        const givens = randomGivens(n, random, 2, 0.12);
        const expected = brute(n, givens);
        if (expected > 0n) nonZero++;
        const r = await countDistributed(n, { unauthenticated: true, connection: url, ...givens, parts: 8, pollMs: 20 });
        expect(r, JSON.stringify(givens)).toMatchObject({ n, total: expected, unique: null, engine: "wasm" });
        expect((await count(n, givens)).total).toBe(expected);
      }
      expect(nonZero).toBeGreaterThan(2); // the boards are not all empty of solutions
      const big = await countDistributed(12, { unauthenticated: true, connection: url, ...BOARD, pollMs: 20 });
      expect(big).toMatchObject({ total: (await count(12, BOARD)).total, unique: null, parts: 64, resumed: 0 });
      // fixed (0, 0) and (0, 1): one row, two queens (the parts kept both, so the count is 0, not a part mismatch)
      expect(await countDistributed(8, { unauthenticated: true, connection: url, fixed: [[0, 0], [0, 1]], pollMs: 20 })).toMatchObject({ total: 0n, unique: null, parts: 1 });
      expect(brute(8, { fixed: [[0, 0], [0, 1]], blocked: [] })).toBe(0n);
    } finally {
      await worker.close();
    }
  }, 60_000);

  it("the record holds the board, the queue's name its digest, a job only its part's identity; two boards never share a queue", async () => {
    const parts = splitOf(10, BOARD, 16);
    const board = constrainedBoard(checkConstraints(10, BOARD, "test"));
    const name = queueName(10, parts.length, board.digest);
    expect(name).toBe(`nqueens-count-n10-b${board.digest}-p${parts.length}-cv${CONSTRAINED_SPLIT_VERSION}`);
    const { controller } = await enqueued(10, BOARD, 16, name);
    const record = JSON.parse((await redis.get(metaKey(name)))!);
    expect(record).toEqual({
      format: "nqueens-count-run", n: 10, parts: parts.length, splitVersion: CONSTRAINED_SPLIT_VERSION, run: expect.stringMatching(/^[0-9a-f]{32}$/),
      board: { n: 10, fixed: [[3, 4]], blocked: [[0, 0], [5, 5], [7, 2]], digest: board.digest, depth: parts[0].depth },
    });
    const data = await withQueue(name, async (q) => (await q.getJob(jobId(3)))!.data);
    expect(data).toEqual({ kind: "constrained", n: 10, board: board.digest, depth: parts[0].depth, parts: parts.length, index: 3, splitVersion: CONSTRAINED_SPLIT_VERSION, digest: parts[3].digest, run: record.run, job: "part-3" });
    // Another board (one more blocked square) has another default queue; on this one by name it is refused, as is the plain count.
    const other: Givens = { fixed: BOARD.fixed, blocked: [...BOARD.blocked, [9, 9]] };
    expect(queueName(10, parts.length, constrainedBoard(checkConstraints(10, other, "test")).digest)).not.toBe(name);
    const refused = await countDistributed(10, { unauthenticated: true, connection: url, ...other, parts: 16, queue: name }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "NQ_QUEUE_MISMATCH" });
    expect((refused as Error).message).toMatch(new RegExp(`^queue ${name} holds another count \\(n = 10, ${parts.length} parts, split version ${CONSTRAINED_SPLIT_VERSION}, board ${board.digest}\\), not n = 10, \\d+ parts, split version ${CONSTRAINED_SPLIT_VERSION}, board [0-9a-f]{32}: use another queue name`));
    expect(await countDistributed(10, { unauthenticated: true, connection: url, parts: parts.length, queue: name }).catch((e: unknown) => e)).toMatchObject({ code: "NQ_QUEUE_MISMATCH" });
    controller.abort();
  });

  it("tampered jobs (prefixes, board, depth, digest, index) are refused or ignored; the total stays exact", async () => {
    const expected = (await count(10, BOARD)).total;
    const { run, parts } = await enqueued(10, BOARD, 16, "tampered");
    const split = splitOf(10, BOARD, 16);
    const foreign = constrainedBoard(checkConstraints(10, { fixed: [], blocked: [[1, 1]] }, "test")).digest;
    await withQueue("tampered", async (q) => {
      const job = async (i: number) => (await q.getJob(jobId(i)))!;
      // Prefixes written into a job are never read: the worker re-derives them (part 1's prefixes twice, or none).
      await (await job(1)).updateData({ ...((await job(1)).data as object), prefixes: [...split[2].prefixes, ...split[2].prefixes] });
      await (await job(2)).updateData({ ...((await job(2)).data as object), prefixes: [] });
      await (await job(3)).updateData({ ...((await job(3)).data as object), board: foreign }); // another board
      await (await job(4)).updateData({ ...((await job(4)).data as object), depth: 6 }); // another depth
      await (await job(5)).updateData({ ...((await job(5)).data as object), digest: split[6].digest }); // another part's digest
      await (await job(7)).updateData({ ...((await job(7)).data as object), index: 8 }); // another index, its digest kept
    });
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ unauthenticated: true, connection: url, concurrency: 2, queue: "tampered", onEvent: (e) => events.push(e) });
    try {
      const error = await run.then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_QUEUE_PART_FAILED" }); // the first failed part found stops the run
      const refusals = () => events.filter((e) => e.type === "error").map((e) => (e as { message: string }).message);
      await until("every tampered job refused", async () => refusals().length === 4);
      expect(refusals().sort()).toEqual([
        expect.stringMatching(new RegExp(`^refused job part-3 of queue tampered: it is a part of n = 10, board ${foreign}, depth \\d, ${parts} parts, split version ${CONSTRAINED_SPLIT_VERSION}; the run is n = 10, board [0-9a-f]{32}, depth \\d, ${parts} parts`)),
        expect.stringMatching(/^refused job part-4 of queue tampered: it is a part of n = 10, board [0-9a-f]{32}, depth 6,/),
        expect.stringMatching(/^refused job part-5 of queue tampered: its digest "[0-9a-f]{32}" is not that of constrained part 5 of \d+ \(n = 10, board [0-9a-f]{32}\)$/),
        expect.stringMatching(/^refused job part-7 of queue tampered: its digest "[0-9a-f]{32}" is not that of constrained part 8 of/),
      ]);
      // Run again: the coordinator writes the failed parts afresh from its own split; the total is exact.
      const again = await countDistributed(10, { unauthenticated: true, connection: url, ...BOARD, parts: 16, queue: "tampered", pollMs: 20 });
      expect(again).toMatchObject({ total: expected, unique: null });
      expect(again.total).toBe((await count(10, BOARD)).total);
    } finally {
      await worker.close();
    }
  }, 40_000);

  it("a foreign board's job added to the queue, a plain job on a constrained run and a constrained job on a plain run are refused at once and change nothing", async () => {
    const expected = (await count(10, BOARD)).total;
    const { run } = await enqueued(10, BOARD, 16, "intruders");
    const foreignGivens: Givens = { fixed: [], blocked: [[1, 1]] };
    const foreign = splitOf(10, foreignGivens, 16);
    const foreignBoard = constrainedBoard(checkConstraints(10, foreignGivens, "test")).digest;
    await withQueue("intruders", async (q) => {
      await q.add("part", { kind: "constrained", n: 10, board: foreignBoard, depth: foreign[0].depth, parts: foreign.length, index: 0, splitVersion: CONSTRAINED_SPLIT_VERSION, digest: foreign[0].digest }, { jobId: "evil" });
      await q.add("part", { n: 10, parts: 16, index: 0, splitVersion: 2, digest: "0123456789abcdef" }, { jobId: "plain" });
    });
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ unauthenticated: true, connection: url, concurrency: 2, queue: "intruders", onEvent: (e) => events.push(e) });
    try {
      expect(await run).toMatchObject({ total: expected, unique: null });
      const messages = events.filter((e) => e.type === "error").map((e) => (e as { message: string }).message);
      expect(messages).toContainEqual(expect.stringMatching(new RegExp(`^refused job evil of queue intruders: it is a part of n = 10, board ${foreignBoard},`)));
      expect(messages).toContainEqual("refused job plain of queue intruders: it is a part of a plain count (kind undefined); the run counts a board with given queens or blocked squares");
    } finally {
      await worker.close();
    }
    // A plain run: a constrained job in it is refused.
    const plain = await enqueuedPlain("plain-run");
    const split = splitOf(10, BOARD, 16);
    await withQueue("plain-run", (q) => q.add("part", { kind: "constrained", n: 10, board: "0000000000000000", depth: split[0].depth, parts: 8, index: 0, splitVersion: CONSTRAINED_SPLIT_VERSION, digest: split[0].digest }, { jobId: "evil" }));
    const events2: WorkerEvent[] = [];
    const worker2 = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "plain-run", onEvent: (e) => events2.push(e) });
    try {
      expect((await plain.run).total).toBe(BigInt(A000170[10]));
      expect(events2.map((e) => (e as { message?: string }).message)).toContain("refused job evil of queue plain-run: it is a part of a constrained board's count; the run is a plain count");
    } finally {
      await worker2.close();
    }
  }, 40_000);

  it("a forged record (board lists changed, or an absurd depth) is refused quickly and pins no worker; a coordinator writes its record back", async () => {
    // The coordinator stopped: nobody puts the record right, the worker meets the forgery.
    const { run, controller } = await enqueued(10, BOARD, 16, "forged");
    controller.abort();
    await run.catch(() => {});
    const meta = JSON.parse((await redis.get(metaKey("forged")))!);
    // The lists changed under the same digest: the worker's board would not be the coordinator's.
    await redis.set(metaKey("forged"), JSON.stringify({ ...meta, board: { ...meta.board, blocked: [[0, 0]] } }));
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "forged", onEvent: (e) => events.push(e) });
    try {
      await until("the worker to refuse a job", async () => events.some((e) => e.type === "error" &&
        /refused job part-\d+ of queue forged: the run's board and its identity give no part: the board's givens \(digest [0-9a-f]{32}\) do not match its digest "[0-9a-f]{32}"/.test(e.message)), 10_000);
    } finally {
      await worker.close();
    }
    // A coordinator started on it refuses the record (not its board).
    expect(await countDistributed(10, { unauthenticated: true, connection: url, ...BOARD, parts: 16, queue: "forged" }).catch((e: unknown) => e)).toMatchObject({ code: "NQ_QUEUE_MISMATCH" });
    await redis.flushdb();
    // A record forged while its coordinator runs: written back within a poll; the total is exact.
    const live = await enqueued(10, BOARD, 16, "forged-live");
    const liveMeta = JSON.parse((await redis.get(metaKey("forged-live")))!);
    await redis.set(metaKey("forged-live"), JSON.stringify({ ...liveMeta, board: { ...liveMeta.board, blocked: [[0, 0]] } }));
    await until("the record written back", async () => live.notices.some((m) => /the run's record in Redis was changed; written back/.test(m)), 10_000);
    expect(JSON.parse((await redis.get(metaKey("forged-live")))!)).toEqual(liveMeta);
    const honest = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "forged-live" });
    try {
      expect((await live.run).total).toBe((await count(10, BOARD)).total);
    } finally {
      await honest.close();
    }
    await redis.flushdb();
    // n = 64, nothing given but one blocked square, its depth raised to 6 in the record and the jobs:
    // the whole split would be about 10^10 prefixes; the worker refuses it after parts * n.
    const big: Givens = { fixed: [], blocked: [[0, 0]] };
    const second = await enqueued(64, big, 8, "absurd");
    second.controller.abort();
    await second.run.catch(() => {});
    const bigMeta = JSON.parse((await redis.get(metaKey("absurd")))!);
    await redis.set(metaKey("absurd"), JSON.stringify({ ...bigMeta, board: { ...bigMeta.board, depth: 6 } }));
    await withQueue("absurd", async (q) => {
      for (let i = 0; i < second.parts; i++) {
        const job = (await q.getJob(jobId(i)))!;
        await job.updateData({ ...(job.data as object), depth: 6 });
      }
    });
    const events2: WorkerEvent[] = [];
    const worker2 = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "absurd", onEvent: (e) => events2.push(e) });
    try {
      await until("the worker to refuse a job", async () => events2.some((e) => e.type === "error" &&
        /refused job part-\d+ of queue absurd: the run's board and its identity give no part: the split places more than 512 prefixes in its first \d free rows/.test(e.message)), 30_000);
    } finally {
      // Nothing pinned: a part of that board taken to be counted would hold the close for its
      // whole count (hours); refused, none is in hand, and none was counted.
      const closed = await Promise.race([worker2.close().then(() => true), sleep(20_000).then(() => false)]);
      expect(closed, "the worker closed (nothing pinned it)").toBe(true);
      expect(await withQueue("absurd", (q) => q.getJobCounts("active", "completed"))).toEqual({ active: 0, completed: 0 });
    }
  }, 40_000);

  it("a tampered stored result is never summed: the part is counted again and the total is exact; a rogue worker stops the run with NQ_PART_MISMATCH", async () => {
    const expected = (await count(11, BOARD)).total;
    const { run, controller, parts } = await enqueued(11, BOARD, 16, "raised");
    controller.abort();
    await run.catch(() => {});
    const worker = await startWorker({ unauthenticated: true, connection: url, concurrency: 2, queue: "raised" });
    try {
      await until("every part counted", async () => withQueue("raised", async (q) => (await q.getCompletedCount()) === parts));
      const stored = JSON.parse((await redis.hget("bull:raised:part-4", "returnvalue"))!);
      const other = JSON.parse((await redis.hget("bull:raised:part-5", "returnvalue"))!);
      for (const bad of [
        JSON.stringify({ ...stored, total: String(BigInt(stored.nodes) + 1n) }), // more solutions than nodes
        JSON.stringify({ ...stored, total: "-1" }),
        JSON.stringify({ ...stored, total: "0x10" }),
        JSON.stringify(other),
        JSON.stringify({ ...stored, digest: other.digest }),
        JSON.stringify({ ...stored, kind: undefined }),
        "not json",
      ]) {
        await redis.hset("bull:raised:part-4", "returnvalue", bad);
        const notices: string[] = [];
        const result = await countDistributed(11, { unauthenticated: true, connection: url, ...BOARD, parts: 16, queue: "raised", pollMs: 20, onNotice: (m) => notices.push(m) });
        expect(result.total, bad).toBe(expected);
        expect(withoutNoWorker(notices), bad).toEqual([expect.stringMatching(/^queue raised: the result for constrained part 4 of \d+ \(n = 11, board [0-9a-f]{32}\).*; not added: counting part 4 again$/)]);
        expect(JSON.parse((await redis.hget("bull:raised:part-4", "returnvalue"))!)).toEqual(stored); // counted afresh
      }
    } finally {
      await worker.close();
    }
    // Not an nqueens worker: every answer a made-up count.
    const rogue = new BullWorker("rogue", async (job) => {
      const d = job.data as { n: number; parts: number; index: number; splitVersion: number };
      return { kind: "constrained", splitVersion: d.splitVersion, n: d.n, part: d.index, parts: d.parts, digest: "0123456789abcdef", total: "1", nodes: "100" };
    }, { connection: { host: "127.0.0.1", port } });
    try {
      const error = await countDistributed(11, { unauthenticated: true, connection: url, ...BOARD, parts: 16, queue: "rogue", pollMs: 20 }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_PART_MISMATCH" });
      expect((error as Error).message).toMatch(/^queue rogue: the result for constrained part 0 of \d+ \(n = 11, board [0-9a-f]{32}\) has digest "?0123456789abcdef"?, not [0-9a-f]{32}: .*again after counting it afresh/);
    } finally {
      await rogue.close();
    }
  }, 60_000);

  it("CLI: nqueens count --blocked/--board --queue with nqueens worker processes, end to end; nqueens runs shows the board", async () => {
    const worker = spawnCli(["worker", "--queue", url, "--concurrency", "2", "--unauthenticated"]);
    await until("the worker to start", async () => worker.stderr().includes("ready"));
    const givens: Givens = { fixed: [], blocked: [[0, 0], [3, 3], [6, 1]] };
    const expected = (await count(11, givens)).total;
    const cli = await runCli(["count", "11", "--blocked", "0:0,3:3,6:1", "--queue", url, "--json", "--unauthenticated"]);
    expect(cli.code, cli.stderr).toBe(0);
    const json = JSON.parse(cli.stdout);
    const board = constrainedBoard(checkConstraints(11, givens, "test"));
    expect(json).toMatchObject({ n: 11, total: String(expected), unique: null, parts: 64, queue: queueName(11, 64, board.digest) });
    // A board file (text form), and the plain text output.
    const dir = mkdtempSync(join(tmpdir(), "nq-cq-"));
    try {
      const file = join(dir, "board.txt");
      writeFileSync(file, ["#.......", "........", "..Q.....", "........", "........", "........", "........", "....#..."].join("\n") + "\n");
      const fileGivens: Givens = { fixed: [[2, 2]], blocked: [[0, 0], [7, 4]] };
      const plain = await runCli(["count", "--board", file, "--queue", url, "--parts", "8", "--unauthenticated"]);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout.split("\n")[0]).toBe(`n = 8: ${brute(8, fileGivens)} solutions with the given queens and blocked squares (no count up to symmetry: they break it)`);
      expect(plain.stdout).toMatch(new RegExp(`engine wasm, queue nqueens-count-n8-b[0-9a-f]{32}-p\\d+-cv${CONSTRAINED_SPLIT_VERSION}, \\d+ parts \\(0 finished before this run\\)`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const runs = await runCli(["runs", "--queue", url]);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toContain(`${queueName(11, 64, board.digest)}  11  64/64`);
    expect(runs.stdout).toMatch(new RegExp(`finished\\s+no key\\s+${expected} \\(board ${board.digest}\\)`));
    const listed = (await listRuns({ connection: url })).find((r) => r.board === board.digest);
    expect(listed).toMatchObject({ total: expected, unique: null, n: 11, parts: 64 });
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
  }, 60_000);
});

/** A plain run (n = 10, 8 parts) with no worker yet. */
async function enqueuedPlain(name: string) {
  const run = countDistributed(10, { unauthenticated: true, connection: url, parts: 8, queue: name, pollMs: 20 });
  run.catch(() => {});
  await until("the parts to be queued", async () => withQueue(name, async (q) => (await q.getWaitingCount()) === 8));
  return { run };
}

// ---------------------------------------------------------------------------------------
// Stopping a constrained part: what is asserted is that it stopped (an AbortError or NQ_TIMEOUT,
// where a part not stopped gives its count) and, in this process, how many chunks were
// counted after the stop: none but the one in hand. Not milliseconds, which load changes.

/** n = 22 with one blocked corner: a part of 4 takes many seconds. */
const LONG: Givens = { fixed: [], blocked: [[0, 0]] };
const longPart = () => splitOf(22, LONG, 4)[1];

/**
 * Runs `count` with each chunk's end (Pacer.between: countPart's pause between chunks) timed,
 * on the clock and on the count's own (its pacer's elapsed time, which its timeoutMs runs on);
 * gives the chunks that ended past `stop(now, elapsed)`.
 */
async function chunksAfter<T>(stop: (now: number, elapsed: number) => boolean, count: () => Promise<T>): Promise<{ value?: T; error?: unknown; after: number; chunks: number }> {
  const ends: [number, number][] = [];
  const between = Pacer.prototype.between;
  const spy = vi.spyOn(Pacer.prototype, "between").mockImplementation(function (this: Pacer<never>, progress) {
    ends.push([performance.now(), this.elapsed()]);
    return between.call(this, progress);
  });
  try {
    const outcome = await count().then((value) => ({ value }), (error: unknown) => ({ error }));
    return { ...outcome, after: ends.filter(([now, elapsed]) => stop(now, elapsed)).length, chunks: ends.length };
  } finally {
    spy.mockRestore();
  }
}

describe("two queens given on one row", () => {
  it("count 0 on worker threads too: a part keeps both queens, so it re-derives to itself (it lost one, and every part failed its own check)", async () => {
    const givens: Givens = { fixed: [[0, 0], [0, 1]], blocked: [[4, 4]] };
    const [part] = splitOf(8, givens, 4);
    expect(part.fixed).toEqual([[0, 0], [0, 1]]);
    expect((await countConstrainedPartAsync(part)).total).toBe("0");
    expect(await countParallel(8, { ...givens, workers: 1 })).toMatchObject({ total: 0n, unique: null, parts: 1 });
    expect(brute(8, givens)).toBe(0n);
  });
});

describe("a constrained part stops when told", () => {
  it("countConstrainedPartAsync: abort and timeoutMs (both engines), and the same count as countConstrainedPart", async () => {
    for (const engine of ["wasm", "ts"] as const) {
      const controller = new AbortController();
      let abortedAt = Infinity;
      setTimeout(() => { abortedAt = performance.now(); controller.abort(); }, 250);
      const aborted = await chunksAfter((now) => now > abortedAt, () => countConstrainedPartAsync(longPart(), { engine, signal: controller.signal }));
      expect((aborted.error as Error).name, engine).toBe("AbortError");
      expect(aborted.after, `${engine}: chunks after the abort, of ${aborted.chunks}`).toBeLessThanOrEqual(1);
      const timed = await chunksAfter((_, elapsed) => elapsed > 250, () => countConstrainedPartAsync(longPart(), { engine, timeoutMs: 250 }));
      expect(timed.error, engine).toMatchObject({ code: "NQ_TIMEOUT" });
      expect(timed.after, `${engine}: chunks after the time ran out, of ${timed.chunks}`).toBeLessThanOrEqual(1);
    }
    const split = splitOf(9, BOARD, 6);
    const chunked = await Promise.all(split.map((p) => countConstrainedPartAsync(p)));
    expect(chunked.reduce((a, r) => a + BigInt(r.total), 0n)).toBe(brute(9, BOARD));
    await expect(countConstrainedPartAsync({ ...split[0], prefixes: split[1].prefixes })).rejects.toMatchObject({ code: "NQ_PART_MISMATCH" });
    await expect(countConstrainedPartAsync(split[0], { timeoutMs: -1 })).rejects.toThrow(/timeoutMs/);
  }, 30_000);

  it("a counting thread stops a constrained part on { cancel }", async () => {
    const thread = new ThreadWorker(workerSource, { eval: true, workerData: { wasm: await compileWasmModule() } }); // the pool's way: the thread holds no Wasm bytes
    try {
      const id = Math.floor(Math.random() * 1e9);
      const reply = new Promise<{ id: number; error?: string; result?: unknown }>((resolve) => {
        const on = (m: { id: number; error?: string }) => { if (m.id === id) { thread.off("message", on); resolve(m); } };
        thread.on("message", on);
      });
      thread.postMessage({ id, part: longPart(), engine: "wasm" });
      await sleep(300); // counting (the part takes many seconds)
      thread.postMessage({ cancel: id });
      // Stopped, not counted to its end (which answers with a result); the test's timeout is the hang guard.
      const answer = await reply;
      expect(answer.result).toBeUndefined();
      expect(answer.error).toMatch(/^AbortError/);
    } finally {
      await thread.terminate();
    }
  });

  it.skipIf(!haveRedisServer)("a queue worker stopped at once hands a constrained part back at once, none left active", async () => {
    const server2 = await RedisServer.create("nqueens-redis-stop-");
    server2.spawn();
    const port2 = server2.port, url2 = server2.url;
    const probe = quietClient(url2, { retryStrategy: () => 50 });
    const controller = new AbortController();
    try {
      await until("Redis to answer", () => pong(probe), 10_000);
      const run = countDistributed(22, { unauthenticated: true, connection: url2, ...LONG, parts: 4, queue: "long", signal: controller.signal, pollMs: 50 });
      run.catch(() => {});
      const worker = await startWorker({ unauthenticated: true, connection: url2, concurrency: 1, prefetch: 0, queue: "long" });
      const queue = new Queue("long", { connection: { host: "127.0.0.1", port: port2 } });
      try {
        await until("the worker to take a part", async () => (await queue.getActiveCount()) === 1);
        await sleep(300); // counting, well inside the part
        const t0 = performance.now();
        await worker.close(true);
        const took = performance.now() - t0;
        expect(took).toBeLessThan(10_000); // a hang guard: the part itself takes minutes
        const counts = await queue.getJobCounts("active", "waiting", "completed");
        expect(counts).toMatchObject({ active: 0, completed: 0, waiting: 4 });
      } finally {
        await queue.close();
      }
    } finally {
      controller.abort();
      probe.disconnect();
      await server2.dispose();
    }
  }, 30_000);
});
