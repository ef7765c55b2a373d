// A queue run's parts: more than the split can make is refused, naming the most it can (asked
// of the split itself); from n = 18 the default follows n and the worker threads seen (parts of
// about a minute on one thread, at least 4 per thread and 256), a run of n already in Redis is
// resumed with its own parts, and the plan says about how long the run should take.
import type { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { splitCount } from "../src/index.js";
import { countDistributed, queueName, startWorker, threadSeconds, type RunPlan } from "../src/distributed/index.js";
import { askedParts, lengthText } from "../src/distributed/plan.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, RedisServer, requireRedis, until, usePrivateRedis } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "queue plan tests need redis-server (.ci/run installs it)",
  skipped: "test/queue-plan.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

let server: RedisServer;
let url = "";
let redis: Redis;

describe("the default parts and the estimate", () => {
  it("parts of about a minute from n = 18, at least 4 per thread and 256; the estimate grows with the solutions", () => {
    expect(askedParts(16, 100)).toBe(32); // defaultQueueParts: few parts while a part costs more to queue than to count
    expect(askedParts(18, 0)).toBe(256);
    expect(askedParts(18, 1000)).toBe(4000);
    expect(threadSeconds(17)).toBeCloseTo(14.6, 5);
    expect(threadSeconds(24) / threadSeconds(23)).toBeCloseTo(227514171973736 / 24233937684440, 6);
    expect(askedParts(24, 16)).toBe(Math.ceil(threadSeconds(24) / 60)); // ~5.8e5 parts of a minute
    expect(askedParts(27, 16)).toBe(1_000_000); // capped
    expect([lengthText(5), lengthText(600), lengthText(7200), lengthText(86400 * 3)]).toEqual(["5.0 s", "10 min", "2.0 h", "3.0 days"]);
  });
});

describe.skipIf(!haveRedisServer)("a queue run's parts", () => {
  usePrivateRedis("nqueens-redis-plan-", (s) => ({ server, url, redis } = s));

  it("--parts above what the split can make is refused before Redis is asked, naming the most it can", async () => {
    const most = splitCount(12, { parts: 1_000_000 }).length; // what the split makes when asked for a million
    expect(most).toBeLessThan(1_000_000);
    const error = await countDistributed(12, { unauthenticated: true, connection: "redis://127.0.0.1:1", parts: 1_000_000 }).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
    expect((error as Error).message).toBe(`parts must be an integer from 1 to ${most} for n = 12 (the most parts its split can make), got 1000000`);
    const cli = await runCli(["count", "12", "--queue", "redis://127.0.0.1:1", "--parts", "1000000", "--unauthenticated"]);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toMatch(new RegExp(`parts must be an integer from 1 to ${most} for n = 12`));
  });

  it("from n = 18 the default follows the worker threads seen; the plan gives the run's estimated length; a run of n in Redis is resumed with its parts", async () => {
    const a = await startWorker({ unauthenticated: true, connection: url, concurrency: 3, queue: "nobody-here" });
    const b = await startWorker({ unauthenticated: true, connection: url, concurrency: 2, queue: "nobody-here" });
    try {
      await until("both workers registered", async () => (await redis.keys("nqueens:worker:*")).length === 2);
      const plans: RunPlan[] = [];
      const controller = new AbortController();
      const run = countDistributed(18, { unauthenticated: true, connection: url, signal: controller.signal, onPlan: (p) => plans.push(p) });
      run.catch(() => {});
      await until("the plan", async () => plans.length === 1);
      expect(plans[0]).toMatchObject({ n: 18, threads: 5, parts: 256, from: "default" });
      expect(plans[0].runSeconds).toBeCloseTo(threadSeconds(18) / 5, 6);
      expect(plans[0].partSeconds).toBeCloseTo(threadSeconds(18) / 256, 6);
      await until("its record", async () => (await redis.exists(`nqueens:meta:${queueName(18, 256)}`)) === 1);
      controller.abort();
      await run.catch(() => {});
      // More workers now would ask for more parts: the run already there is resumed instead.
      for (let i = 0; i < 70; i++) await redis.set(`nqueens:worker:extra-${i}`, "1", "EX", 60);
      expect(askedParts(18, 75)).toBe(300);
      const again = new AbortController();
      const second = countDistributed(18, { unauthenticated: true, connection: url, signal: again.signal, onPlan: (p) => plans.push(p) });
      second.catch(() => {});
      await until("the second plan", async () => plans.length === 2);
      expect(plans[1]).toMatchObject({ threads: 75, parts: 256, from: "resumed" });
      again.abort();
      await second.catch(() => {});
    } finally {
      await a.close();
      await b.close();
    }
    expect((await redis.keys("nqueens:worker:*")).filter((k) => !k.includes("extra"))).toEqual([]); // unregistered on close
  });
});
