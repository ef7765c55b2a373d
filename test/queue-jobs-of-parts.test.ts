// Jobs of several parts: a plain run of many parts puts consecutive parts in each queue job
// (a job costs the queue about the same whatever it holds). The parts a job holds are derived
// in one walk and must be exactly derivePart's; a worker re-derives them from the job's
// identity and refuses any other; the coordinator checks, tallies and audits each part on its
// own, so a job's result that lies about one part, or holds too few results, is refused.
import { DelayedError, Worker as BullWorker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { SPLIT_VERSION, countTask, derivePart, maxParts } from "../src/index.js";
import { dealParts, derivePartRange } from "../src/count/parts.js";
import { MAX_JOB_PARTS, partsOfIdentity, rangeDigest, splitBoard } from "../src/count/split.js";
import { plainBoard } from "../src/board/board.js";
import { countDistributed, listRuns, startWorker } from "../src/distributed/index.js";
import { MAX_RUN_JOBS, countedKey, metaKey, partOfJobId, partsPerJob } from "../src/distributed/keys.js";
import { RESULT_DOMAIN, signed } from "../src/distributed/auth.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { haveRedisServer, RedisServer, requireRedis, usePrivateRedis } from "./redis-harness.js";
import { runCli } from "./cli-run.js";

const refuse = (why: string): never => { throw new Error(why); };

describe("the parts of a job", () => {
  it("derivePartRange gives exactly derivePart's parts, for runs of parts anywhere in the split (the last job shorter)", () => {
    for (const [n, parts] of [[10, 8], [12, 1000], [14, 5000], [16, 100_000]] as const) {
      const most = Math.min(parts, maxParts(n));
      for (const [first, count] of [[0, 1], [0, 7], [3, 5], [most - 4, 4], [Math.floor(most / 2), 13], [most - 1, 1]]) {
        if (first < 0 || first + count > most) continue;
        const range = derivePartRange(n, most, first, count);
        expect(range.map((p) => p.part)).toEqual(Array.from({ length: count }, (_, i) => first + i));
        for (const part of range) expect(part).toEqual(derivePart(n, most, part.part));
      }
    }
    expect(() => derivePartRange(12, 1000, 998, 3)).toThrow(/count must be an integer from 1 to 2, got 3/);
    // And both are the whole split's one walk (dealParts without indices), part by part, where a
    // part's tasks share constellations (few parts) and where they do not (many).
    for (const [n, parts] of [[10, 8], [11, 3], [12, 1000]] as const) {
      const whole = dealParts(n, parts);
      expect(derivePartRange(n, parts, 0, parts)).toEqual(whole);
      expect(whole.map((p) => derivePart(n, parts, p.part))).toEqual(whole);
    }
  });

  it("a job's identity names exactly the run's job of those parts: other counts, starts, digests or kinds are refused", () => {
    const split = splitBoard(plainBoard(12), 1000);
    const run = { n: 12, parts: split.count, splitVersion: split.version, perJob: 16 };
    const parts = split.range(32, 16);
    const id = split.rangeIdentity(parts, true);
    expect(id).toMatchObject({ index: 32, count: 16, digest: rangeDigest(parts) });
    expect(partsOfIdentity(id, run, 64, refuse)).toEqual(parts);
    // The last job holds what is left.
    const last = Math.floor((split.count - 1) / 16) * 16;
    const tail = split.range(last, split.count - last);
    expect(partsOfIdentity(split.rangeIdentity(tail, true), run, 64, refuse)).toEqual(tail);
    expect(() => partsOfIdentity({ ...id, count: 15 }, run, 64, refuse)).toThrow(/holds 15 parts; the run's job from part 32 holds 16/);
    expect(() => partsOfIdentity({ ...id, index: 33 }, run, 64, refuse)).toThrow(/not where one of the run's jobs starts/);
    expect(() => partsOfIdentity({ ...id, digest: split.rangeIdentity(split.range(48, 16), true).digest }, run, 64, refuse)).toThrow(/its digest .* is not that of parts 32 to 47/);
    expect(() => partsOfIdentity(split.identity(parts[0]), run, 64, refuse)).toThrow(/not where|holds undefined parts/);
    expect(() => partsOfIdentity(id, { ...run, perJob: undefined }, 64, refuse)).toThrow(/names 16 parts; the run's jobs hold one part each/);
    expect(() => partsOfIdentity(id, { ...run, perJob: MAX_JOB_PARTS + 1 }, 64, refuse)).toThrow(/parts a job, not an integer from 1 to 4096/);
    // A lone part's job in a run of one part a job is the part's own identity, as always.
    expect(partsOfIdentity(split.identity(parts[0]), { ...run, perJob: undefined }, 64, refuse)).toEqual([parts[0]]);
  });

  it("the parts a job holds by default: one up to MAX_RUN_JOBS parts and for a board with givens, else enough for MAX_RUN_JOBS jobs; job ids say which", () => {
    expect(partsPerJob(MAX_RUN_JOBS, false)).toBe(1);
    expect(partsPerJob(MAX_RUN_JOBS + 1, false)).toBe(2);
    expect(partsPerJob(1_000_000, false)).toBe(62);
    expect(Math.ceil(1_000_000 / 62)).toBeLessThanOrEqual(MAX_RUN_JOBS);
    expect(partsPerJob(1_000_000, true)).toBe(1);
    expect(partOfJobId("parts-32", 1000, 16)).toEqual({ part: 32, slot: "r0" });
    expect(partOfJobId("parts-32-r1", 1000, 16)).toEqual({ part: 32, slot: "r1" });
    expect(partOfJobId("parts-33", 1000, 16)).toBeUndefined();
    expect(partOfJobId("part-32", 1000, 16)).toBeUndefined(); // a one-part job's id is not this run's
    expect(partOfJobId("parts-32", 1000, 1)).toBeUndefined();
    expect(partOfJobId("parts-1008", 1000, 16)).toBeUndefined();
  });
});

requireRedis(haveRedisServer, {
  ci: "queue tests of jobs of several parts need redis-server (.ci/run installs it)",
  skipped: "test/queue-jobs-of-parts.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the jobs-of-parts test's cluster key";
const key = new TextEncoder().encode(KEY);
let server: RedisServer;
let url = "";
let redis: Redis;

type JobData = { n: number; parts: number; index: number; count: number; run: string; job: string; not?: string[] };

/**
 * A keyed worker that lies about one part of each job it takes (count8 one lower, or nodes one
 * higher: within every range check), signed like an honest one; it leaves to others the jobs
 * it is told not to take.
 */
function liar(queue: string, name: string) {
  return new BullWorker(queue, async (job: Job<JobData>, token?: string) => {
    const d = job.data;
    if (d.not?.includes(name)) {
      await job.moveToDelayed(Date.now() + 100, token);
      throw new DelayedError();
    }
    const results = derivePartRange(d.n, d.parts, d.index, d.count).map((part) => countTask(part));
    const honest = results[results.length - 1];
    results[results.length - 1] = BigInt(honest.count8) > 0n ? { ...honest, count8: String(BigInt(honest.count8) - 1n) } : { ...honest, nodes: String(BigInt(honest.nodes) + 1n) };
    return signed(key, RESULT_DOMAIN, queue, { results, worker: name, run: d.run, job: job.id });
  }, { connection: { host: "127.0.0.1", port: server.port }, concurrency: 1 });
}

describe.skipIf(!haveRedisServer)("a run whose jobs hold several parts", () => {
  usePrivateRedis("nqueens-redis-jobs-of-parts-", (s) => ({ server, url, redis } = s));

  it("counts exactly, each part counted once, with the jobs and the record saying how many parts a job holds", async () => {
    const worker = await startWorker({ connection: url, concurrency: 1, queue: "grouped", key: KEY });
    try {
      const result = await countDistributed(12, { connection: url, parts: 1000, partsPerJob: 16, queue: "grouped", key: KEY, pollMs: 50 });
      expect(result).toMatchObject({ total: BigInt(A000170[12]), unique: BigInt(A002562[12]), parts: 1000 });
      expect(JSON.parse((await redis.get(metaKey("grouped")))!)).toMatchObject({ parts: 1000, perJob: 16 });
      const ids = (await redis.keys("bull:grouped:part*")).map((k) => k.slice("bull:grouped:".length)).filter((id) => !id.includes(":"));
      expect(ids.sort()).toEqual(Array.from({ length: 63 }, (_, g) => `parts-${g * 16}`).sort());
      const counted = await redis.hgetall(countedKey("grouped"));
      expect(Object.keys(counted).length).toBe(1000);
      expect(Object.values(counted).every((times) => times === "1")).toBe(true);
      // `nqueens runs` says parts done, not jobs.
      expect((await listRuns({ connection: url })).find((r) => r.queue === "grouped")).toMatchObject({ parts: 1000, perJob: 16, done: 1000 });
    } finally {
      await worker.close();
    }
  });

  it("a keyed liar's lie about one part of a job is caught by the audit (audit 1.0) and that part recounted; replicas 2 with an honest worker settle it too; the total is exact", async () => {
    const rogue = liar("grouped-liar", "rogue"), rogue2 = liar("grouped-replicas", "rogue");
    rogue.on("error", () => {});
    rogue2.on("error", () => {});
    const honest = await startWorker({ connection: url, concurrency: 1, key: KEY, name: "honest" });
    try {
      const audited = await countDistributed(11, { connection: url, parts: 160, partsPerJob: 8, queue: "grouped-liar", key: KEY, audit: 1, pollMs: 50 });
      expect(audited).toMatchObject({ total: BigInt(A000170[11]), unique: BigInt(A002562[11]) });
      expect(audited.suspects).toContain("rogue");
      expect(audited.audited).toBeGreaterThanOrEqual(1);
      const replicated = await countDistributed(11, { connection: url, parts: 160, partsPerJob: 8, queue: "grouped-replicas", key: KEY, audit: 0, replicas: 2, pollMs: 50 });
      expect(replicated).toMatchObject({ total: BigInt(A000170[11]), unique: BigInt(A002562[11]), replicas: 2 });
      expect(replicated.mismatches).toBeGreaterThanOrEqual(1);
    } finally {
      await rogue.close();
      await rogue2.close();
      await honest.close();
    }
  });

  it("a job's result that holds too few results is refused (NQ_PART_MISMATCH named in the notice), counted again, and the total stays exact", async () => {
    // Keyless, so that no MAC stands in front of the check of the results themselves.
    let cut = 0;
    const short = new BullWorker("grouped-short", async (job: Job<JobData>) => {
      const d = job.data;
      const results = derivePartRange(d.n, d.parts, d.index, d.count).map((part) => countTask(part));
      if (cut++ === 0) results.pop();
      return { results, worker: "short", job: job.id };
    }, { connection: { host: "127.0.0.1", port: server.port }, concurrency: 1 });
    short.on("error", () => {});
    const notices: string[] = [];
    try {
      const result = await countDistributed(10, { connection: url, parts: 64, partsPerJob: 8, queue: "grouped-short", unauthenticated: true, audit: 0, pollMs: 50, onNotice: (m) => notices.push(m) });
      expect(result).toMatchObject({ total: BigInt(A000170[10]), unique: BigInt(A002562[10]) });
      expect(notices.some((m) => /the result for parts \d+ to \d+ of 64 \(n = 10\) holds 7 results, not one for each of its 8 parts; not added: counting parts \d+ to \d+ again/.test(m)), notices.join("\n")).toBe(true);
    } finally {
      await short.close();
    }
  });

  it("nqueens count --queue --parts-per-job K: jobs of K parts, said in the summary; without --queue it is refused", async () => {
    const worker = await startWorker({ connection: url, concurrency: 1, queue: "grouped-cli", key: KEY });
    try {
      const run = await runCli(["count", "11", "--queue", url, "--parts", "200", "--parts-per-job", "32", "--queue-name", "grouped-cli"], { env: { ...process.env, NQUEENS_KEY: KEY } });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`n = 11: ${A000170[11]} solutions, ${A002562[11]} unique`);
      expect(run.stdout).toMatch(/200 parts in jobs of 32 \(0 finished before this run\)/);
    } finally {
      await worker.close();
    }
    const alone = await runCli(["count", "11", "--parts-per-job", "4"]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--parts-per-job applies to a count on Redis workers: add --queue URL/);
  });

  it("a run stopped midway resumes with the same jobs: the results already in are taken, not counted again, and the total is exact", async () => {
    const worker = await startWorker({ connection: url, concurrency: 1, queue: "grouped-resume", key: KEY });
    try {
      const controller = new AbortController();
      // 1024 parts: 64 jobs of 16, more than one read's worth of this run's jobs (a thousand parts).
      const first = countDistributed(13, { connection: url, parts: 1024, partsPerJob: 16, queue: "grouped-resume", key: KEY, pollMs: 50, signal: controller.signal,
        onProgress: (p) => { if (p.tasksDone >= 400) controller.abort(); } });
      await expect(first).rejects.toThrow();
      const result = await countDistributed(13, { connection: url, parts: 1024, partsPerJob: 16, queue: "grouped-resume", key: KEY, pollMs: 50 });
      expect(result).toMatchObject({ total: BigInt(A000170[13]), unique: BigInt(A002562[13]), partsPerJob: 16 });
      expect(result.resumed).toBeGreaterThanOrEqual(400);
      expect(result.resumed % 16 === 0 || result.resumed === 1024).toBe(true); // whole jobs' parts
      const counted = await redis.hgetall(countedKey("grouped-resume"));
      expect(Object.keys(counted).length).toBe(1024);
      expect(Object.values(counted).every((times) => times === "1")).toBe(true);
    } finally {
      await worker.close();
    }
  });

  it("another number of parts a job on the same queue is another run: refused, naming both", async () => {
    const controller = new AbortController();
    const first = countDistributed(12, { connection: url, parts: 1000, partsPerJob: 16, queue: "grouped-other", key: KEY, pollMs: 50, signal: controller.signal });
    first.catch(() => {});
    await expect.poll(async () => redis.get(metaKey("grouped-other")), { timeout: 20_000 }).not.toBeNull();
    controller.abort();
    await first.catch(() => {});
    await expect(countDistributed(12, { connection: url, parts: 1000, partsPerJob: 8, queue: "grouped-other", key: KEY, pollMs: 50 }))
      .rejects.toMatchObject({ code: "NQ_QUEUE_MISMATCH", message: expect.stringMatching(new RegExp(`holds another count \\(n = 12, 1000 parts, 16 parts a job, split version ${SPLIT_VERSION}\\), not n = 12, 1000 parts, 8 parts a job, split version ${SPLIT_VERSION}`)) });
    await expect(countDistributed(12, { connection: url, parts: 1000, partsPerJob: 0, queue: "grouped-other", key: KEY })).rejects.toThrow(/partsPerJob must be an integer from 1 to 4096, got 0/);
    await expect(countDistributed(12, { connection: url, fixed: [[0, 1]], partsPerJob: 2, key: KEY })).rejects.toThrow(/partsPerJob must be an integer from 1 to 1, got 2/);
  });
});
