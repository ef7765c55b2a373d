// The coordinator's waits on Redis outside its poll round (countDistributed and
// solveDistributed share them, src/distributed/drive.ts): a redis-server of the test's own is
// stopped (SIGSTOP) or killed just as the coordinator puts its run back (its record deleted) or
// writes its record back (its record changed). A stopped Redis ends the run with
// NQ_QUEUE_UNREACHABLE after lostAfterMs, naming the host and saying the same command resumes,
// while Redis is still stopped; a timeout or an abort ends it at once (the count rejects with the
// signal's reason, the solve answers reason 'timeout'); a killed Redis is the same coded error,
// never ioredis's own. Run again once Redis is back, the run resumes and answers. The first connect,
// to a server that takes the connection and never answers, ends at an abort or the timeout too. A
// worker that loses Redis says so in plain words, naming the address. Skipped without
// redis-server, except in CI. No timed assertion: the mechanism is asserted (the call ends while
// Redis is still stopped, with the right error), and the waits are hang guards.
import { afterEach, describe, expect, it } from "vitest";
import { countDistributed, solveDistributed, startWorker, type DistributedWorker } from "../src/distributed/index.js";
import { ACTIVE_RUNS_KEY, metaKey } from "../src/distributed/keys.js";
import { A000170 } from "./fixtures/oeis.js";
import { haveRedisServer, quietClient, RedisServer, requireRedis, sleep, until } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "the lost-Redis queue tests need redis-server (.ci/run installs it)",
  skipped: "test/queue-lost-redis.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the lost-Redis test's cluster key";
/** Redis is continued (or the test gives up) after this long stopped: far past every lostAfterMs and timeout below that should end the call first. */
const HELD_MS = 40_000;
/** A lostAfterMs that never fires within a test: what ends the call there is the timeout or the abort. */
const NEVER_LOST = 600_000;

/** Where the coordinator is stopped: putting the run back (its record deleted), or writing its record back (its record changed). */
type Point = "put back" | "write back";
const NOTICE: Record<Point, RegExp> = {
  "put back": /no longer holds this run .*putting the run back/,
  "write back": /the run's record in Redis was changed; written back/,
};

const servers: RedisServer[] = [];
const workers: DistributedWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.close();
  for (const s of servers.splice(0)) {
    s.child?.kill("SIGCONT"); // a stopped server would not die of SIGTERM until continued
    await s.dispose();
  }
});

/**
 * A redis-server of the test's own, and `at(point, name, what)`: once run `name` is listed (its
 * record and jobs written), the record is deleted or changed; when the coordinator's notice says
 * it reacts, Redis is stopped (SIGSTOP) or killed (SIGKILL) at once, before its next command is
 * sent. `notice` is the coordinator's onNotice; `stopped()` says whether Redis is stopped now.
 */
async function redisFor() {
  const server = await RedisServer.create("nqueens-redis-lost-");
  servers.push(server);
  await server.start();
  const url = server.url;
  const redis = quietClient(url);
  let state: "running" | "stopped" | "continued" | "killed" = "running";
  let point: Point | undefined, what: "stop" | "kill" = "stop";
  let hold: NodeJS.Timeout | undefined;
  const notices: string[] = [];
  let hit: () => void = () => {};
  const reached = new Promise<void>((resolve) => { hit = resolve; });
  const cont = (): void => {
    clearTimeout(hold);
    if (state === "stopped") { server.child?.kill("SIGCONT"); state = "continued"; }
  };
  return {
    url, server, notices, reached,
    stopped: () => state === "stopped",
    cont,
    notice: (message: string): void => {
      notices.push(message);
      if (point === undefined || state !== "running" || !NOTICE[point].test(message)) return;
      if (what === "kill") { void server.stop("SIGKILL"); state = "killed"; hit(); return; }
      server.child?.kill("SIGSTOP");
      state = "stopped";
      hold = setTimeout(cont, HELD_MS); // the hang guard: never stopped for ever
      hit();
    },
    /** Deletes or changes run `name`'s record once the run is listed, then stops or kills Redis at the coordinator's reaction. */
    async at(p: Point, name: string, w: "stop" | "kill" = "stop", ended?: Promise<unknown>): Promise<void> {
      point = p;
      what = w;
      let over = false;
      void ended?.then(() => { over = true; });
      await until("the run to be listed", async () => over || (await redis.sismember(ACTIVE_RUNS_KEY, name)) === 1);
      if (over) { redis.disconnect(); return; } // the call ended before its run was listed
      const write: Promise<unknown> = p === "put back" ? redis.del(metaKey(name)) : redis.set(metaKey(name), "{\"format\":\"nqueens-count-run\",\"changed\":true}");
      // The coordinator can react to this write, and Redis be stopped or killed, before the
      // write's own reply is read here (a killed server's reset drops it): the reaction proves
      // the write landed, so it ends this wait as the reply does. Failing before any reaction is
      // the test's failure.
      write.catch(() => {});
      await Promise.race([write, reached]);
      redis.disconnect();
    },
  };
}

/** The coded error of a lost Redis: the host, and that the same command resumes. */
function expectLost(error: unknown, port: number): void {
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).name).not.toBe("MaxRetriesPerRequestError");
  expect(error).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
  expect((error as Error).message).toMatch(new RegExp(`^lost Redis at 127\\.0\\.0\\.1:${port}: .*; run the same command again to resume once Redis answers$`));
}

/** The call's value or error; or, still waiting after Redis was continued and a while more, an error that says so (a hang guard). */
const settle = <T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> => Promise.race([
  p.then((value) => ({ value }), (error: unknown) => ({ error })),
  sleep(HELD_MS + 5000).then(() => ({ error: new Error(`still waiting ${HELD_MS + 5000} ms on`) })),
]);

describe.skipIf(!haveRedisServer)("the coordinator's waits on a Redis that stops answering", () => {
  it("count: Redis stopped as the run is put back: NQ_QUEUE_UNREACHABLE after lostAfterMs while still stopped; run again, it resumes and answers", async () => {
    const r = await redisFor();
    const queue = "lost-put-back";
    const options = { connection: r.url, key: KEY, queue, parts: 4, pollMs: 50, onNotice: r.notice };
    const run = settle(countDistributed(8, { ...options, lostAfterMs: 1000 }));
    await r.at("put back", queue);
    const { error } = await run;
    expect(r.stopped(), "the call ended only once Redis was continued").toBe(true);
    expectLost(error, r.server.port);
    expect((error as Error).message).toMatch(/: the run's record: no answer within 1000 ms; /);
    // Redis back: the same command resumes the run (the record it holds is whole) and answers.
    r.cont();
    workers.push(await startWorker({ connection: r.url, key: KEY, concurrency: 1, name: "w" }));
    const again = await countDistributed(8, { ...options, lostAfterMs: 10_000, onNotice: undefined });
    expect(again).toMatchObject({ total: BigInt(A000170[8]), queue });
  });

  it("solve: Redis stopped as the record is written back: NQ_QUEUE_UNREACHABLE after lostAfterMs while still stopped", async () => {
    const r = await redisFor();
    const queue = "lost-write-back";
    const run = settle(solveDistributed(40, { connection: r.url, key: KEY, queue, pollMs: 50, lostAfterMs: 1000, onNotice: r.notice }));
    await r.at("write back", queue);
    const { error } = await run;
    expect(r.stopped(), "the call ended only once Redis was continued").toBe(true);
    expectLost(error, r.server.port);
  });

  it("count: a timeout (the signal's TimeoutError, as --timeout gives) ends the wait on a stopped Redis at once, long before lostAfterMs", async () => {
    const r = await redisFor();
    const queue = "timeout-put-back";
    const controller = new AbortController();
    const timeUp = new DOMException("--timeout 1 ms", "TimeoutError");
    void r.reached.then(() => setTimeout(() => controller.abort(timeUp), 100));
    const run = settle(countDistributed(8, { connection: r.url, key: KEY, queue, parts: 4, pollMs: 50, lostAfterMs: NEVER_LOST, signal: controller.signal, onNotice: r.notice }));
    await r.at("put back", queue);
    const { error } = await run;
    expect(r.stopped(), "the call ended only once Redis was continued").toBe(true);
    expect(error).toBe(timeUp);
  });

  it("count: an abort ends the poll round's wait on a stopped Redis at once (no notice needed)", async () => {
    const r = await redisFor();
    const controller = new AbortController();
    let stoppedAt: number | undefined;
    let continued = false;
    const hold = setTimeout(() => { continued = true; r.server.child!.kill("SIGCONT"); }, HELD_MS); // the hang guard
    // The first progress report comes from the poll loop: Redis is stopped there, and the abort
    // comes while a poll round or two wait on it.
    const onProgress = (): void => {
      if (stoppedAt !== undefined) return;
      r.server.child!.kill("SIGSTOP");
      stoppedAt = performance.now();
      setTimeout(() => controller.abort(), 300);
    };
    try {
      const { error } = await settle(countDistributed(8, { connection: r.url, key: KEY, queue: "abort-in-loop", parts: 4, pollMs: 50, lostAfterMs: NEVER_LOST, signal: controller.signal, onProgress }));
      expect(stoppedAt, "Redis was stopped in the poll loop").toBeDefined();
      expect(continued, "the call ended only once Redis was continued").toBe(false);
      expect(error).toMatchObject({ name: "AbortError" });
    } finally {
      clearTimeout(hold);
      r.server.child!.kill("SIGCONT");
    }
  });

  it("solve: timeoutMs ends the wait on a stopped Redis (the run put back) and answers reason 'timeout'", async () => {
    // timeoutMs counts from the call, so it must outlast the start up to the put-back, which
    // load slows (past 6 s at load 9 on 2 cores): a timeout that came first (Redis never
    // stopped) is no test of the wait, and the test runs again on a fresh Redis with twice
    // the time. What is asserted holds on the try that reached the stop.
    for (let timeoutMs = 2000; ; timeoutMs *= 2) {
      const r = await redisFor();
      const queue = "timeout-solve";
      const run = settle(solveDistributed(40, { connection: r.url, key: KEY, queue, pollMs: 50, lostAfterMs: NEVER_LOST, timeoutMs, onNotice: r.notice }));
      const ended = run.then(() => "ended" as const);
      const first = await Promise.race([r.at("put back", queue, "stop", ended).then(() => r.reached).then(() => "stopped" as const), ended]);
      const { value, error } = await run;
      expect(error).toBeUndefined();
      expect(value).toMatchObject({ found: false, reason: "timeout", queue });
      if (first === "ended" && !r.stopped()) {
        expect(timeoutMs, "the start never reached the put-back within 32 s").toBeLessThan(32_000);
        continue;
      }
      expect(r.stopped(), "the call ended only once Redis was continued").toBe(true);
      return;
    }
  });

  it("count and solve: Redis killed as the run is put back, or the record written back: NQ_QUEUE_UNREACHABLE, not ioredis's MaxRetriesPerRequestError", async () => {
    for (const [kind, point] of [["count", "put back"], ["solve", "write back"], ["solve", "put back"]] as const) {
      const r = await redisFor();
      const queue = `killed-${kind}-${point.replace(" ", "-")}`;
      const common = { connection: r.url, key: KEY, queue, pollMs: 50, lostAfterMs: 1000, onNotice: r.notice };
      const run = settle<unknown>(kind === "count" ? countDistributed(8, { ...common, parts: 4 }) : solveDistributed(40, common));
      await r.at(point, queue, "kill");
      const { error } = await run;
      expect(r.notices.some((m) => NOTICE[point].test(m)), `${kind}, ${point}: ${r.notices.join("\n")}`).toBe(true);
      expectLost(error, r.server.port);
    }
  });

  it("count and solve: the first connect to a server that takes the connection and never answers ends at an abort or timeoutMs, not at connectTimeoutMs", async () => {
    const { createServer } = await import("node:net");
    const sockets: import("node:net").Socket[] = [];
    const silent = createServer((socket) => { sockets.push(socket); socket.on("error", () => {}); });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `redis://127.0.0.1:${(silent.address() as import("node:net").AddressInfo).port}`;
    // connectTimeoutMs at its largest (10 minutes): only the abort or the timeout can end these calls within the hang guard.
    const common = { connection: url, key: KEY, connectTimeoutMs: 600_000 };
    try {
      const aborted = new AbortController();
      const count = settle(countDistributed(8, { ...common, parts: 4, signal: aborted.signal }));
      const solveAborted = new AbortController();
      const solve = settle(solveDistributed(40, { ...common, signal: solveAborted.signal }));
      await until("both coordinators to connect", async () => sockets.length >= 2);
      aborted.abort();
      solveAborted.abort();
      expect((await count).error).toMatchObject({ name: "AbortError" });
      expect((await solve).error).toMatchObject({ name: "AbortError" });
      const timed = await settle(solveDistributed(40, { ...common, timeoutMs: 300 }));
      expect(timed.error).toBeUndefined();
      expect(timed.value).toMatchObject({ found: false, reason: "timeout" });
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("a worker that loses Redis says so in plain words, naming its address, never in ioredis's own", async () => {
    const server = await RedisServer.create("nqueens-redis-lost-worker-");
    servers.push(server);
    await server.start();
    const errors: string[] = [];
    // Looking for runs every 50 ms: its next look after the kill meets the lost connection.
    workers.push(await startWorker({ connection: server.url, unauthenticated: true, concurrency: 1, pollMs: 50, onEvent: (e) => { if (e.type === "error") errors.push(e.message); } }));
    await server.stop();
    const lost = new RegExp(`^lost Redis at 127\\.0\\.0\\.1:${server.port} \\([^)]+\\): it stopped, restarts or is out of reach; trying again until it answers$`);
    await until("the worker to say Redis is lost", async () => errors.some((m) => lost.test(m)), 30_000);
    expect(errors.filter((m) => /max retries per request/i.test(m))).toEqual([]);
  });
});
