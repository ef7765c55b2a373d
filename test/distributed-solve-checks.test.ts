// solveDistributed's verdicts against the checks asked for, over a real redis-server started
// here: a "no solution" stored by a run is not taken by a later call that asks for more than
// it was reached under (an identity since revoked, a larger audit, more replicas, identities
// required); with replicas 2 and an audit, a task the coordinator must settle after the audit
// searched it is decided, not left waiting; an "unfinished" answer to a job that had no node
// budget is refused (coded), and no job id past the last pass is one of a run's. Each verdict
// is the one thread's. No timed assertion: the waits are hang guards.
import type { Job } from "bullmq";
import { afterEach, describe, expect, it } from "vitest";
import { excludedDiagonalsBoard, type Square } from "../src/index.js";
import { solve as solveOneThread } from "../src/search/solve.js";
import { removeRun, solveDistributed, startWorker, type DistributedWorker } from "../src/distributed/index.js";
import { LAST_PASS, passBudget, restartsBudget, restartsPassOf, slotOfJobId, type SolveJob } from "../src/distributed/solve-jobs.js";
import { isSolution } from "./helpers.js";
import { solveAnswerer, type TestAnswer } from "./solve-queue-workers.js";
import { haveRedisServer, quietClient, requireRedis, until, usePrivateRedis, type RedisServer } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "queue solve tests need redis-server (.ci/run installs it)",
  skipped: "test/distributed-solve-checks.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the queue solve checks test's cluster key";
const key = new TextEncoder().encode(KEY);
let server: RedisServer;
let url = "";
const connection = () => ({ host: "127.0.0.1", port: server.port });
const ed = (n: number, d: number, seed: number): { blocked: Square[] } => ({ blocked: excludedDiagonalsBoard(n, d, { seed }).blocked });

/** A BullMQ worker of the test's own answering every job of `queue`, signed under the identity `name(job)` returns (or the cluster key, as "rogue", for null). */
function rogue(queue: string, answer: (d: SolveJob, job: Job<SolveJob>) => TestAnswer, name: (job: Job<SolveJob>) => string | null) {
  return solveAnswerer(connection(), queue, key, answer, (_d, job) => { const who = name(job); return who === null ? "rogue" : { identity: who }; });
}
const none = (): TestAnswer => ({ columns: null, nodes: 100 });

const workers: DistributedWorker[] = [];

describe.skipIf(!haveRedisServer)("solveDistributed: verdicts and the checks asked for", () => {
  usePrivateRedis("nqueens-redis-solve-checks-", (s) => ({ server, url } = s));
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close();
  });

  it("a stored \"no solution\" is not taken by a call asking for more than it was reached under; one asking for no more gets it; the run removed, it is searched again", async () => {
    const n = 20, givens = ed(20, 16, 1), queue = "stored-none";
    expect((await solveOneThread(n, { method: "complete", ...givens })).found).toBe(true);
    // A liar under an identity answers "none" everywhere; without an audit its lie decides the run.
    const liar = rogue(queue, none, () => "liar");
    try {
      const lied = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20 });
      expect([lied.found, lied.reason]).toEqual([false, "no-solution"]);
    } finally {
      await liar.close();
    }
    const again = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20 });
    expect([again.found, again.reason]).toEqual([false, "no-solution"]); // asked for no more: the record's verdict
    const refused = async (more: Omit<Parameters<typeof solveDistributed>[1], "connection">, why: RegExp) => {
      const error = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, pollMs: 20, ...more }).then(() => undefined, (e: unknown) => e) as Error & { code?: string };
      expect(error, String(why)).toMatchObject({ code: "NQ_QUEUE_MISMATCH" });
      expect(error.message).toMatch(new RegExp(`^queue ${queue}: its record answers "no solution", ${why.source}; not taken: remove the run with \`nqueens runs --remove ${queue}\` and solve again`));
    };
    await refused({ audit: 0, revoked: ["liar"] }, /reached taking "none" answers of liar, now revoked/);
    await refused({ audit: 1 }, /reached with audit 0, where this call asks for 1/);
    await refused({ audit: 0, replicas: 2 }, /reached with replicas 1, where this call asks for 2/);
    await refused({ audit: 0, identities: "required" }, /reached taking answers without worker identities, which this call requires/);
    // Removed, the run is searched afresh under the checks asked for: the liar revoked, an honest worker finds the solution.
    await removeRun(queue, { connection: url });
    workers.push(await startWorker({ connection: url, concurrency: 1, key: KEY, name: "honest", queue }));
    const found = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, revoked: ["liar"], pollMs: 20 });
    expect(found.found).toBe(true);
    expect(isSolution(Array.from(found.columns!))).toBe(true);
    for (const [row, col] of givens.blocked) expect(found.columns![row]).not.toBe(col);
  });

  it("replicas 2 with an audit of 1: a task the coordinator must settle after the audit searched it is decided (a revoked confirmer; one worker answering its own confirmations)", async () => {
    const n = 20, givens = ed(20, 18, 1);
    expect((await solveOneThread(n, { method: "complete", ...givens })).found).toBe(false);
    // Each task's first "none" from "good" (drawn by the audit, searched by the coordinator); its confirmation from the revoked "bad".
    const split = rogue("settle-revoked", none, (job) => (/-p\d+$/.test(job.id!) ? "good" : "bad"));
    try {
      const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "settle-revoked", audit: 1, replicas: 2, revoked: ["bad"], pollMs: 20, timeoutMs: 50_000 });
      expect([r.found, r.reason]).toEqual([false, "no-solution"]);
    } finally {
      await split.close();
    }
    // One worker that ignores "not this worker" answers a task's every confirmation itself: past the extra ones, the coordinator settles it.
    const alone = rogue("settle-same", none, () => "same");
    try {
      const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "settle-same", audit: 1, replicas: 2, pollMs: 20, timeoutMs: 50_000 });
      expect([r.found, r.reason]).toEqual([false, "no-solution"]);
    } finally {
      await alone.close();
    }
  });

  it("a job moved into the failed set by hand, without the reason BullMQ writes on a failure, is put back, and the verdict is the one thread's", async () => {
    const n = 20, givens = ed(20, 18, 1), queue = "stuck-failed";
    expect((await solveOneThread(n, { method: "complete", ...givens })).found).toBe(false);
    const client = quietClient(url);
    try {
      const notices: string[] = [];
      const run = solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20, stallNoticeMs: 1000, timeoutMs: 50_000, onNotice: (m) => notices.push(m) });
      run.catch(() => {});
      // (a solve's jobs are prioritized by pass: they wait in the prioritized set, not the wait list)
      await until("the tasks to be queued", async () => (await client.zcard(`bull:${queue}:prioritized`)) > 1);
      const id = (await client.zrange(`bull:${queue}:prioritized`, "0", "-1")).find((job) => job.startsWith("task-")); // a task's (the run needs it)
      await client.multi().zrem(`bull:${queue}:prioritized`, id!).zadd(`bull:${queue}:failed`, Date.now(), id!).exec();
      workers.push(await startWorker({ connection: url, concurrency: 1, key: KEY, name: "honest", queue }));
      const r = await run;
      expect([r.found, r.reason], notices.join("\n")).toEqual([false, "no-solution"]);
      expect(notices.join("\n")).toMatch(/putting the run back/);
    } finally {
      client.disconnect();
    }
  });

  it("a run waiting on the coordinator's own search says so, naming the task (not the workers)", async () => {
    const n = 28, givens = ed(28, 32, 1), queue = "own-search";
    // Every task answered "none" at once; an audit of 1 has the coordinator search each itself (no
    // solution: the answers were true), about 2.2M nodes in all over 7 tasks, each task's search far past 100 ms.
    const quick = rogue(queue, () => ({ columns: null, nodes: 1 }), () => null);
    try {
      const notices: string[] = [];
      const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 1, pollMs: 20, stallNoticeMs: 100, timeoutMs: 100_000, onNotice: (m) => notices.push(m) });
      expect([r.found, r.reason]).toEqual([false, "no-solution"]);
      expect(r.audited).toBe(r.tasks);
      expect(notices.some((m) => /^queue own-search: the coordinator is searching task \d+ of \d+ itself \(the audit, or a task no trusted worker answered\) for \d+ s, \d+ nodes so far: the run waits on that search; Ctrl-C stops waiting, and the same command resumes$/.test(m)), notices.join("\n")).toBe(true);
    } finally {
      await quick.close();
    }
  });

  it("an \"unfinished\" answer to a job with no node budget is refused, coded and naming the worker; no job id past the last pass is a run's", async () => {
    expect(passBudget(LAST_PASS)).toBeNull();
    expect(passBudget(LAST_PASS - 1)).not.toBeNull();
    expect(slotOfJobId(`task-0-p${LAST_PASS}`, 4)).toEqual({ task: 0, pass: LAST_PASS, slot: "p", k: LAST_PASS });
    expect(slotOfJobId(`task-0-p${LAST_PASS + 1}`, 4)).toBeUndefined();
    expect(restartsPassOf(`restarts-p${LAST_PASS}`)).toBe(LAST_PASS);
    expect(restartsPassOf(`restarts-p${LAST_PASS + 1}`)).toBeUndefined();
    // The restarting search's passes have the open tasks' budget of that pass together, and always one (at most 2^53 - 1).
    expect(restartsBudget(0, 7)).toBe(7 * passBudget(0)!);
    expect(restartsBudget(3, 0)).toBe(passBudget(3));
    expect([restartsBudget(LAST_PASS - 1, 2 ** 20), restartsBudget(LAST_PASS, 1)]).toEqual([Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]);
    // A task's job: the rogue answers the restarting search's "none" (ending its passes), every task "unfinished".
    const stalling = rogue("unfinished", (d) => ({ columns: null, nodes: 1, ...(d.method === "restarts" ? {} : { unfinished: true as const }) }), () => null);
    try {
      const error = await solveDistributed(20, { connection: url, key: KEY, ...ed(20, 18, 1), queue: "unfinished", audit: 0, pollMs: 20, timeoutMs: 50_000 }).then(() => undefined, (e: unknown) => e) as Error & { code?: string };
      expect(error).toMatchObject({ code: "NQ_PART_MISMATCH" });
      expect(error.message).toMatch(/^queue unfinished: the answer for task \d+ of \d+ \(n = 20\) says its budget ran out, but its job had none \(from worker rogue\), again after searching it afresh/);
    } finally {
      await stalling.close();
    }
    // Every job "unfinished", the restarting search's too: its passes (each with a budget) go on to the last, then end; the tasks' last pass is refused as above.
    const all = rogue("unfinished-restarts", () => ({ columns: null, nodes: 1, unfinished: true }), () => null);
    try {
      const error = await solveDistributed(20, { connection: url, key: KEY, ...ed(20, 18, 1), queue: "unfinished-restarts", audit: 0, pollMs: 20, timeoutMs: 50_000 }).then(() => undefined, (e: unknown) => e) as Error & { code?: string };
      expect(error).toMatchObject({ code: "NQ_PART_MISMATCH" });
      expect(error.message).toMatch(/^queue unfinished-restarts: the answer for task \d+ of \d+ \(n = 20\) says its budget ran out, but its job had none/);
    } finally {
      await all.close();
    }
  });
});
