// Workers with the key can still lie: a rogue BullMQ worker of this file's own holds the key,
// follows the protocol (signs its results, leaves a replica to another worker) and returns
// counts within what each part can hold, but wrong. The coordinator's audit (audit 1.0, the
// default with its one part per worker) and replicas 2 catch it, name it, and recount every
// result of it; the total stays exact. Absurd constrained totals are refused by the bounds.
// The audit's sampling matches its documented catch probability.
import { DelayedError, Worker as BullWorker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { count, countTask, derivePart, type PartCount } from "../src/index.js";
import { countDistributed, startWorker } from "../src/distributed/index.js";
import { RESULT_DOMAIN, signed } from "../src/distributed/auth.js";
import { AuditSampler, auditCatchChance } from "../src/distributed/audit.js";
import { DEFAULT_AUDIT } from "../src/distributed/coordinator.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, RedisServer, requireRedis, usePrivateRedis } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "queue audit tests need redis-server (.ci/run installs it)",
  skipped: "test/queue-audit.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the audit test's cluster key";
const key = new TextEncoder().encode(KEY);
let server: RedisServer;
let url = "";
let redis: Redis;

type JobData = { n: number; parts: number; index: number; run: string; job: string; not?: string[] };

/**
 * A worker with the key that lies: each part's true count with count8 (or, when count8 is 0,
 * count4; when both are, nodes one higher) one lower, within every range check; signed like an honest one.
 * It leaves to others the jobs it is told not to take and second counts of its own parts.
 */
function liar(queue: string, name = "rogue", lies: (index: number) => boolean = () => true) {
  const mine = new Set<number>();
  const worker = new BullWorker(queue, async (job: Job<JobData>, token?: string) => {
    const d = job.data;
    if (d.not?.includes(name) || (/-(r1|x\d+)$/.test(d.job) && mine.has(d.index))) {
      await job.moveToDelayed(Date.now() + 100, token);
      throw new DelayedError();
    }
    mine.add(d.index);
    const honest = countTask(derivePart(d.n, d.parts, d.index));
    // One lower where there is a solution to take away, else one node more: every part is a lie.
    const field = BigInt(honest.count8) > 0n ? "count8" : BigInt(honest.count4) > 0n ? "count4" : undefined;
    const lie = field ? { ...honest, [field]: String(BigInt(honest[field]) - 1n) } : { ...honest, nodes: String(BigInt(honest.nodes) + 1n) };
    const value = lies(d.index) ? lie : honest;
    return signed(key, RESULT_DOMAIN, queue, { ...value, worker: name, run: d.run, job: job.id });
  }, { connection: { host: "127.0.0.1", port: server.port }, concurrency: 1 });
  worker.on("error", () => {});
  return worker;
}

describe.skipIf(!haveRedisServer)("the audit", () => {
  usePrivateRedis("nqueens-redis-audit-", (s) => ({ server, url, redis } = s));

  it("audit 1.0: every result recounted; the liar's wrong in-range counts are caught, it is named, the total is exact", async () => {
    const rogue = liar("audit-all");
    const honest = await startWorker({ connection: url, concurrency: 1, queue: "audit-all", key: KEY, name: "honest" });
    const notices: string[] = [];
    try {
      const result = await countDistributed(12, { connection: url, parts: 16, queue: "audit-all", key: KEY, audit: 1, pollMs: 50, onNotice: (m) => notices.push(m) });
      expect(result).toMatchObject({ total: BigInt(A000170[12]), unique: BigInt(A002562[12]), authenticated: true, audited: 16, suspects: ["rogue"] });
      expect(result.mismatches).toBeGreaterThan(0);
      expect(notices.some((m) => /^queue audit-all: worker rogue gave part \d+ a count that is not the part's .*every result of rogue is counted again$/.test(m))).toBe(true);
    } finally {
      await rogue.close();
      await honest.close();
    }
  });

  it("the default audit: one part per worker at least, so a worker lying on every part is caught even on a run of 16 parts", async () => {
    expect(DEFAULT_AUDIT).toBe(0.03);
    const rogue = liar("audit-default");
    try {
      const result = await countDistributed(12, { connection: url, parts: 16, queue: "audit-default", key: KEY, pollMs: 50 });
      expect(result).toMatchObject({ total: BigInt(A000170[12]), unique: BigInt(A002562[12]), suspects: ["rogue"] });
      expect(result.audited).toBe(16); // suspect: all of its results recounted
      expect(result.mismatches).toBeGreaterThanOrEqual(1);
    } finally {
      await rogue.close();
    }
  });

  it("the default audit, ranked by plausibility: one part's total tripled (inside every range check) is caught on every run, not one in 32", async () => {
    const truths = new Map<number, PartCount>();
    for (let run = 0; run < 4; run++) {
      const queue = `audit-ranked-${run}`;
      const lied = (run * 11 + 5) % 32;
      const raiser = new BullWorker(queue, async (job: Job<JobData>) => {
        const d = job.data;
        let honest = truths.get(d.index);
        if (!honest) truths.set(d.index, (honest = countTask(derivePart(d.n, d.parts, d.index))));
        const value = d.index === lied ? { ...honest, count8: String(3n * BigInt(honest.count8) + BigInt(honest.count4)) } : honest;
        return signed(key, RESULT_DOMAIN, queue, { ...value, worker: "raiser", run: d.run, job: job.id });
      }, { connection: { host: "127.0.0.1", port: server.port }, concurrency: 1 });
      raiser.on("error", () => {});
      const notices: string[] = [];
      try {
        const result = await countDistributed(12, { connection: url, parts: 32, queue, key: KEY, pollMs: 50, onNotice: (m) => notices.push(m) });
        expect(result, `run ${run}, part ${lied} lied`).toMatchObject({ total: BigInt(A000170[12]), unique: BigInt(A002562[12]), suspects: ["raiser"] });
        expect(notices.some((m) => new RegExp(`worker raiser gave part ${lied} a count that is not the part's`).test(m))).toBe(true);
      } finally {
        await raiser.close();
      }
    }
  });

  it("a result far past the estimate is counted again at once, saying so (one part raised to 20x)", async () => {
    const queue = "audit-far";
    const raiser = new BullWorker(queue, async (job: Job<JobData>) => {
      const d = job.data;
      const honest = countTask(derivePart(d.n, d.parts, d.index));
      const value = d.index === 3 ? { ...honest, count8: String(20n * BigInt(honest.count8)) } : honest;
      return signed(key, RESULT_DOMAIN, queue, { ...value, worker: "far", run: d.run, job: job.id });
    }, { connection: { host: "127.0.0.1", port: server.port }, concurrency: 1 });
    raiser.on("error", () => {});
    const notices: string[] = [];
    try {
      const result = await countDistributed(12, { connection: url, parts: 32, queue, key: KEY, pollMs: 50, onNotice: (m) => notices.push(m) });
      expect(result).toMatchObject({ total: BigInt(A000170[12]), suspects: ["far"] });
      expect(notices.some((m) => /^queue audit-far: part 3 from worker far is implausible \(total \d+ and \d+ nodes, where about \d+ and \d+ were expected\): the coordinator counts it itself$/.test(m)), notices.join("\n")).toBe(true);
    } finally {
      await raiser.close();
    }
  });

  it("replicas 2 (audit 0): every part counted by two different workers; each disagreement is settled by the coordinator's own count; exact", async () => {
    const rogue = liar("replicas");
    const honest = await startWorker({ connection: url, concurrency: 1, queue: "replicas", key: KEY, name: "honest" });
    try {
      const result = await countDistributed(11, { connection: url, parts: 8, queue: "replicas", key: KEY, audit: 0, replicas: 2, pollMs: 50 });
      expect(result).toMatchObject({ total: BigInt(A000170[11]), unique: BigInt(A002562[11]), replicas: 2, suspects: ["rogue"] });
      expect(result.mismatches).toBeGreaterThanOrEqual(1);
      expect(result.audited).toBeGreaterThanOrEqual(1);
    } finally {
      await rogue.close();
      await honest.close();
    }
  });

  it("replicas 2 with one keyed worker that ignores the exclusion: each part gets at most 2 extra jobs, then the coordinator counts it; the run ends exact", async () => {
    // Honest counts, but it takes every job, those naming it in `not` and second counts of its own parts too.
    const greedy = new BullWorker("greedy", async (job: Job<JobData>) => {
      const d = job.data;
      return signed(key, RESULT_DOMAIN, "greedy", { ...countTask(derivePart(d.n, d.parts, d.index)), worker: "greedy", run: d.run, job: job.id });
    }, { connection: { host: "127.0.0.1", port: server.port }, concurrency: 1 });
    greedy.on("error", () => {});
    const notices: string[] = [];
    try {
      const result = await countDistributed(10, { connection: url, parts: 8, queue: "greedy", key: KEY, audit: 0, replicas: 2, pollMs: 50, onNotice: (m) => notices.push(m) });
      expect(result).toMatchObject({ total: BigInt(A000170[10]), unique: BigInt(A002562[10]), replicas: 2, mismatches: 0 });
      expect(result.audited).toBe(8); // every part, once its extra jobs ran out
      // The jobs stay bounded: 2 a part, plus at most 2 extra a part (part-I-x1, part-I-x2).
      const ids = (await redis.keys("bull:greedy:part-*")).map((k) => k.slice("bull:greedy:".length)).filter((id) => !id.includes(":"));
      expect(ids.length).toBeLessThanOrEqual(8 * 4);
      expect(ids.filter((id) => /-x[3-9]$|-x\d\d+$/.test(id))).toEqual([]);
      expect(notices.filter((m) => /was counted again by the same worker greedy 3 times .*the coordinator counts it itself/.test(m)).length).toBe(8);
    } finally {
      await greedy.close();
    }
  });

  it("replicas 2 with two honest workers: no mismatch, nothing recounted by the coordinator (audit 0), exact", async () => {
    const a = await startWorker({ connection: url, concurrency: 1, queue: "two-honest", key: KEY, name: "a" });
    const b = await startWorker({ connection: url, concurrency: 1, queue: "two-honest", key: KEY, name: "b" });
    try {
      const result = await countDistributed(10, { connection: url, parts: 8, queue: "two-honest", key: KEY, audit: 0, replicas: 2, pollMs: 50 });
      expect(result).toMatchObject({ total: BigInt(A000170[10]), unique: BigInt(A002562[10]), audited: 0, mismatches: 0, suspects: [], replicas: 2 });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("absurd constrained totals (10^6 a part for n = 10 with 0:0 blocked; the board holds 660) are refused at once, never summed (library and CLI)", async () => {
    const absurd = new BullWorker("absurd", async (job: Job<Record<string, unknown>>) => {
      const d = job.data as { n: number; parts: number; index: number; splitVersion: number; digest: string };
      return { kind: "constrained", splitVersion: d.splitVersion, n: d.n, part: d.index, parts: d.parts, digest: d.digest, total: "1000000", nodes: "100000000" };
    }, { connection: { host: "127.0.0.1", port: server.port } });
    absurd.on("error", () => {});
    try {
      expect((await count(10, { blocked: [[0, 0]] })).total).toBe(660n);
      const error = await countDistributed(10, { unauthenticated: true, connection: url, blocked: [[0, 0]], parts: 8, queue: "absurd", pollMs: 50 }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_PART_MISMATCH" });
      expect((error as Error).message).toMatch(/^queue absurd: the result for constrained part \d+ of \d+ .*1000000.*again after counting it afresh/);
      const cli = await runCli(["count", "10", "--blocked", "0:0", "--queue", url, "--parts", "8", "--queue-name", "absurd", "--unauthenticated"]);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toBe("");
      expect(cli.stderr).not.toMatch(/8000000/);
    } finally {
      await absurd.close();
    }
  });
});

describe("the audit's sampling", () => {
  it("catches a worker lying on k of its m results with the documented probability (20,000 simulated runs), and always where a lie is its least plausible result", () => {
    const f = DEFAULT_AUDIT;
    for (const [m, k, lieScore] of [[100, 1, 0.1], [100, 10, 0.1], [30, 30, 0.1], [1, 1, 0.1], [100, 1, 0.5], [100, 10, 0.5]] as const) {
      const trials = 20_000;
      let caught = 0;
      for (let t = 0; t < trials; t++) {
        const sampler = new AuditSampler(f, Math.random); // the coordinator draws from node:crypto; the rule is the same
        let hit = false;
        // Parts 0..k-1 are lies scored lieScore; the honest ones score from 0 to 0.3 (the estimate's noise).
        for (let p = 0; p < m; p++) if (sampler.offer(0, p, p < k ? lieScore : Math.random() * 0.3) && p < k) hit = true;
        if (!hit && sampler.leastPlausible().some((p) => p < k)) hit = true;
        if (hit) caught++;
      }
      if (lieScore > 0.3) {
        expect(caught, `m = ${m}, k = ${k}: a lie past every honest result is the one recounted`).toBe(trials);
        continue;
      }
      // Lies inside the noise: caught by the draws, or (every result a lie) by the least plausible pick.
      const low = auditCatchChance(f, m, k);
      const sigma = Math.sqrt((low * (1 - low)) / trials);
      expect(caught / trials, `m = ${m}, k = ${k}: ${caught / trials} against at least ${low}`).toBeGreaterThanOrEqual(low - 4 * sigma - 1e-9);
      expect(caught / trials, `m = ${m}, k = ${k}: at most the draws plus the one pick`).toBeLessThanOrEqual(low + (1 - low) * (k / m) + 4 * sigma + 1e-9);
    }
    // The figures docs/distributed.md quotes.
    expect(auditCatchChance(f, 1000, 1)).toBeCloseTo(0.03, 3);
    expect(auditCatchChance(f, 32, 31)).toBeCloseTo(0.611, 3);
    expect(auditCatchChance(f, 1000, 10)).toBeCloseTo(0.263, 3);
    expect(auditCatchChance(f, 1000, 100)).toBeCloseTo(0.952, 3);
    expect(auditCatchChance(f, 1000, 1000)).toBe(1);
    expect(auditCatchChance(f, 16, 16)).toBe(1);
  });
});
