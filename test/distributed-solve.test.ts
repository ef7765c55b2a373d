// solveDistributed: the complete search's tasks as keyed jobs on the count's queue, against a
// real redis-server started here. The verdict is the one thread's on every board (plain, and
// Excluded Diagonals with and without a solution), each board found checked here by the
// tests' own checker; a rogue worker with the key that answers "no solution here" where its
// task holds one is caught by an audit of 1.0 (and, to show what the audit is for, not by
// none); a forged "found" is refused, naming its worker; a run stopped midway resumes without
// searching its decided tasks again; a run without a key is refused; bad input is refused; the
// CLI end to end with `nqueens worker`. Skipped without redis-server, except in CI. No timed
// assertion: the waits below are hang guards.
import { Worker as BullWorker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { excludedDiagonalsBoard, type Square } from "../src/index.js";
import { solve as solveOneThread } from "../src/search/solve.js";
import { boardOf } from "../src/board/board.js";
import { identityText, listRuns, solveDistributed, solveQueueName, startWorker, type DistributedSolveResult, type DistributedWorker, type WorkerEvent } from "../src/distributed/index.js";
import { RESULT_DOMAIN, signed } from "../src/distributed/auth.js";
import { metaKey } from "../src/distributed/keys.js";
import { SOLVE_TASKS_VERSION, type SolveJob } from "../src/distributed/solve-jobs.js";
import { queueText, queueTimeoutText } from "../src/cli/commands/solve-queue.js";
import { describeFailure } from "../src/cli/errors.js";
import { isSolution } from "./helpers.js";
import { solveAnswerer, tasksOf, type TestAnswer } from "./solve-queue-workers.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, killChildren, requireRedis, spawnCli, until, usePrivateRedis, withQueueOn, type RedisServer } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "queue solve tests need redis-server (.ci/run installs it)",
  skipped: "test/distributed-solve.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the queue solve test's cluster key";
const key = new TextEncoder().encode(KEY);
let server: RedisServer;
let url = "";
let redis: Redis;
const withQueue = withQueueOn(() => ({ host: "127.0.0.1", port: server.port }));
const connection = () => ({ host: "127.0.0.1", port: server.port });

type Givens = { fixed?: Square[]; blocked?: Square[] };
const ed = (n: number, d: number, seed: number): Givens => ({ blocked: excludedDiagonalsBoard(n, d, { seed }).blocked });

/** A board found is a solution (the tests' own checker) that keeps every given queen and blocked square. */
function expectValid(r: DistributedSolveResult, n: number, givens: Givens): void {
  if (!r.found) return;
  const columns = Array.from(r.columns);
  expect(columns).toHaveLength(n);
  expect(isSolution(columns)).toBe(true);
  for (const [row, col] of givens.fixed ?? []) expect(columns[row]).toBe(col);
  for (const [row, col] of givens.blocked ?? []) expect(columns[row]).not.toBe(col);
}

/** A BullMQ worker of the test's own with the key, answering every job of `queue` with `answer(job)`, signed as an honest one. */
const rogue = (queue: string, answer: (d: SolveJob, job: Job<SolveJob>) => TestAnswer, name = "rogue") => solveAnswerer(connection(), queue, key, answer, () => name);

const workers: DistributedWorker[] = [];
async function honest(name: string, options: { queue?: string; onEvent?: (e: WorkerEvent) => void } = {}): Promise<DistributedWorker> {
  const w = await startWorker({ connection: url, concurrency: 1, key: KEY, name, ...options });
  workers.push(w);
  return w;
}

describe.skipIf(!haveRedisServer)("solveDistributed over Redis", () => {
  usePrivateRedis("nqueens-redis-solve-", (s) => ({ server, url, redis } = s));
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close();
    await killChildren();
  });

  it("two workers give the one thread's verdict on plain and Excluded Diagonals boards, with and without a solution; each board found is a solution", async () => {
    await honest("a");
    await honest("b");
    // (n = 22, d = 22 seed 4 and n = 21, d = 23 seed 2, without a solution, are solved on the queue
    // by the resume and replicas tests below, the first against its one thread's verdict.)
    const boards: [number, Givens][] = [
      // (n = 10 is decided by the root's probe, n = 40 goes on the queue)
      [10, {}], [40, {}], [20, ed(20, 16, 1)], [22, ed(22, 16, 2)], [24, ed(24, 20, 1)], // solutions
      [20, ed(20, 18, 1)], [20, ed(20, 19, 3)], // none
      [12, { fixed: [[3, 3], [5, 8]], blocked: [[0, 0], [7, 7]] }],
    ];
    const verdicts: boolean[] = [];
    for (const [n, givens] of boards) {
      const one = await solveOneThread(n, { method: "complete", ...givens });
      const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, pollMs: 20 });
      expect([r.found, r.reason], `n = ${n}, ${JSON.stringify(givens).slice(0, 60)}`).toEqual([one.found, one.reason]);
      expectValid(r, n, givens);
      expect(r).toMatchObject({ method: "complete", engine: "wasm", authenticated: true, replicas: 1 });
      if (r.tasks > 0) {
        expect(r.queue).toBe(solveQueueName(n, boardOf(n, givens, { caller: "test", plain: [1, 1000], givens: [1, 1000] }).digest, r.tasks));
        const record = JSON.parse((await redis.get(metaKey(r.queue)))!);
        expect(record).toMatchObject({ format: "nqueens-solve-run", n, tasks: r.tasks, found: r.found });
        if (r.found) expect(record.columns).toEqual(Array.from(r.columns));
      }
      verdicts.push(r.found);
    }
    expect(verdicts).toContain(true);
    expect(verdicts).toContain(false);
  });

  it("answered at once, without Redis: givens in conflict, n = 2 and 3, a board its root decides (a blocked row)", async () => {
    const nowhere = "redis://127.0.0.1:1";
    expect(await solveDistributed(8, { connection: nowhere, key: KEY, fixed: [[0, 0], [1, 1]] })).toMatchObject({ found: false, reason: "conflict", tasks: 0 });
    expect(await solveDistributed(3, { connection: nowhere, key: KEY })).toMatchObject({ found: false, reason: "no-solution", tasks: 0 });
    const row: Square[] = Array.from({ length: 9 }, (_, c) => [4, c] as Square);
    expect(await solveDistributed(9, { connection: nowhere, key: KEY, blocked: row })).toMatchObject({ found: false, reason: "no-solution", tasks: 0 });
    const one = await solveDistributed(1, { connection: nowhere, key: KEY });
    expect(one.found && Array.from(one.columns)).toEqual([0]);
  });

  it("a forged \"no solution\" (a worker with the key answering none where its task holds one) passes without an audit, and an audit of 1.0 catches it, naming the worker", async () => {
    const n = 20, givens = ed(20, 16, 1);
    expect((await solveOneThread(n, { method: "complete", ...givens })).found).toBe(true);
    const liar = rogue("liar-none", () => ({ columns: null, nodes: 100 }));
    try {
      // Without the audit the lie decides every task: what the audit is for.
      const unaudited = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "liar-none", audit: 0, pollMs: 20 });
      expect([unaudited.found, unaudited.reason]).toEqual([false, "no-solution"]);
      await redis.flushdb();
      const error = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "liar-none", audit: 1, pollMs: 20 }).then(() => undefined, (e: unknown) => e) as Error & { code?: string; workers?: string[]; task?: number; columns?: number[] };
      expect(error).toMatchObject({ code: "NQ_AUDIT_MISMATCH", workers: ["rogue"] });
      expect(error.message).toMatch(/^queue liar-none: worker rogue answered that task \d+ of \d+ \(n = 20\) holds no solution, but the coordinator's own search \(the audit\) found one there \(checked on the board\)/);
      // The solution the audit found is a solution of the board, in the task the liar answered.
      expect(isSolution(error.columns!)).toBe(true);
      const [[row, col]] = tasksOf(n, givens)[error.task!].prefixes[0];
      expect(error.columns![row]).toBe(col);
      // The liar is distrusted in this run from now on: run again, even with no audit and the liar
      // still the only worker, none of its answers is taken (the coordinator searches its tasks itself).
      const notices: string[] = [];
      const again = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "liar-none", audit: 0, pollMs: 20, onNotice: (m) => notices.push(m) });
      expect(again.found).toBe(true);
      expectValid(again, n, givens);
      expect(notices.some((m) => /^queue liar-none: task \d+ was searched by distrusted worker rogue \(caught answering "none" where a task holds a solution\); not taken: the coordinator searches it itself$/.test(m)), notices.join("\n")).toBe(true);
    } finally {
      await liar.close();
    }
  });

  it("a forged \"found\" is refused, naming the worker: a board whose queens attack (searched again once, then NQ_PART_MISMATCH), and one off the board's blocked squares", async () => {
    const n = 20, board = ed(20, 16, 1), tasks = tasksOf(n, board);
    // The task's square, and in every other row the row's first square not blocked: it holds the task's square, keeps the
    // board's blocked squares, and is no solution (queens share columns). (The restarting search's job answered "none": only its passes end.)
    const blockedAt = new Set(board.blocked!.map(([r, c]) => r * n + c));
    const forged = (d: SolveJob): number[] => {
      const [[row, col]] = tasks[d.index].prefixes[0];
      return Array.from({ length: n }, (_, r) => (r === row ? col : Array.from({ length: n }, (_, c) => c).find((c) => !blockedAt.has(r * n + c))!));
    };
    expect(tasks.every((_, index) => !isSolution(forged({ index } as SolveJob)))).toBe(true);
    const stacked = rogue("forged-attack", (d) => (d.method === "restarts" ? { columns: null, nodes: 5 } : { columns: forged(d), nodes: 5 }));
    const notices: string[] = [];
    try {
      const error = await solveDistributed(n, { connection: url, key: KEY, ...board, queue: "forged-attack", audit: 0, pollMs: 20, onNotice: (m) => notices.push(m) }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_PART_MISMATCH" });
      expect((error as Error).message).toMatch(/^queue forged-attack: the answer for task \d+ of \d+ \(n = 20\) is not a solution: two of its queens attack each other \(from worker rogue\), again after searching it afresh/);
      expect(notices.some((m) => /is not a solution: two of its queens attack each other \(from worker rogue\); not taken: searching task \d+ again$/.test(m))).toBe(true);
    } finally {
      await stacked.close();
    }
    // A solution of the plain board, given for an Excluded Diagonals board: it breaks the blocked squares.
    const givens = ed(20, 16, 1);
    const plain = (await solveOneThread(20, { method: "complete" })).columns!;
    const offBoard = rogue("forged-blocked", () => ({ columns: Array.from(plain), nodes: 5 }));
    try {
      const error = await solveDistributed(20, { connection: url, key: KEY, ...givens, queue: "forged-blocked", pollMs: 20 }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_PART_MISMATCH" });
      expect((error as Error).message).toMatch(/(breaks the board's given queens or blocked squares|holds none of the task's prefixes) \(from worker rogue\)/);
    } finally {
      await offBoard.close();
    }
  });

  it("a run stopped midway resumes: the tasks decided are not searched again, and the verdict is the one thread's", async () => {
    const n = 22, givens = ed(22, 22, 4);
    const one = await solveOneThread(n, { method: "complete", ...givens });
    const controller = new AbortController();
    const queue = "resume";
    let worker: DistributedWorker | undefined;
    worker = await startWorker({
      connection: url, concurrency: 1, key: KEY, name: "first", queue,
      // The first task decided: the coordinator stops, and the worker stops at once (its task in hand goes back).
      onEvent: (e) => { if (e.type === "searched" && e.answer === "none" && !controller.signal.aborted) { controller.abort(); void worker?.close(true); } },
    });
    const first = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, signal: controller.signal, pollMs: 20 }).catch((e: unknown) => e);
    expect((first as Error).name).toBe("AbortError");
    await worker.close(true);
    const before = await withQueue(queue, async (q) => (await q.getCompleted(0, -1)).map((job) => [job.id, job.finishedOn] as const));
    expect(before.length).toBeGreaterThan(0);
    await honest("second", { queue });
    const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, pollMs: 20 });
    expect([r.found, r.reason]).toEqual([one.found, one.reason]);
    expect(r.resumed).toBeGreaterThanOrEqual(1);
    const after = new Map(await withQueue(queue, async (q) => (await q.getCompleted(0, -1)).map((job) => [job.id, job.finishedOn] as const)));
    for (const [id, finishedOn] of before) expect(after.get(id), `job ${id} was not searched again`).toBe(finishedOn);
    // Decided: the same call answers from the run's record at once, every task resumed.
    expect(await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, pollMs: 20 })).toMatchObject({ found: one.found, resumed: r.tasks });
  });

  it("the first solution found ends the run: the jobs still waiting are removed, and the record holds the solution", async () => {
    const n = 24, givens = ed(24, 20, 1);
    await honest("solo");
    const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, pollMs: 20 });
    expect(r.found).toBe(true);
    expectValid(r, n, givens);
    // (by a task's search or the restarting search's, whichever found it first; the task is the one holding it either way)
    expect(r.found && r.foundBy).toMatch(/^worker solo( \(the restarting search\))?$/);
    const [[row, col]] = tasksOf(n, givens)[r.found ? r.task : -1].prefixes[0];
    expect(r.found && r.columns[row]).toBe(col);
    await until("no job of the run left waiting or in hand", async () => withQueue(r.queue, async (q) => {
      const counts = await q.getJobCounts("waiting", "delayed", "prioritized", "active");
      return Object.values(counts).every((c) => c === 0);
    }));
    const runs = await listRuns({ connection: url, key: KEY });
    expect(runs.find((run) => run.queue === r.queue)).toMatchObject({ kind: "solve", found: true, open: false, verified: true, parts: r.tasks });
  });

  it("a task in hand stops when its run is decided elsewhere (the record holds a verdict, the workers told): its job fails for good, saying so", async () => {
    // A board one search does not decide for minutes (n = 30, d = 34, seed 2); its first task's job with no budget, so it runs till stopped.
    const n = 30, givens = ed(30, 34, 2), queue = "decided-elsewhere";
    const controller = new AbortController();
    const run = solveDistributed(n, { connection: url, unauthenticated: true, ...givens, queue, signal: controller.signal, pollMs: 20 }).catch(() => undefined);
    const first = await until("the tasks to be queued", async () => withQueue(queue, async (q) => (await q.getJob("task-0-p0")) ?? false));
    controller.abort();
    await run;
    await withQueue(queue, async (q) => {
      await q.drain(true);
      await q.add("task", { ...first.data, budget: null, job: "task-0-r1" }, { jobId: "task-0-r1", attempts: 3 });
    });
    const worker = await startWorker({ connection: url, concurrency: 1, unauthenticated: true, queue, name: "busy" });
    workers.push(worker);
    await until("the task in hand", async () => withQueue(queue, async (q) => (await q.getActiveCount()) === 1));
    // Decided elsewhere: the record says found, and the workers are told (a keyless record: no MAC to check).
    const record = JSON.parse((await redis.get(metaKey(queue)))!);
    await redis.set(metaKey(queue), JSON.stringify({ ...record, found: true }));
    await redis.publish("nqueens:runs:changed", queue);
    const failed = await until("the job given up", async () => withQueue(queue, async (q) => (await q.getFailed(0, -1))[0] ?? false), 60_000);
    expect(failed.id).toBe("task-0-r1");
    expect(failed.failedReason).toMatch(/the run was decided meanwhile \(a solution was found elsewhere\): task 0 no longer searched/);
    expect(worker.searched).toBe(0);
    // A job given up because the run was decided is no failure of the run: nqueens runs counts none.
    expect((await listRuns({ connection: url })).find((r) => r.queue === queue)).toMatchObject({ kind: "solve", found: true, failed: 0 });
  });

  it("replicas 2: each task's \"none\" from two different workers; the verdict stands", async () => {
    await honest("a");
    await honest("b");
    const n = 21, givens = ed(21, 23, 2);
    const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, replicas: 2, audit: 0, pollMs: 20 });
    expect([r.found, r.reason, r.replicas, r.audited]).toEqual([false, "no-solution", 2, 0]);
    const confirmations = await withQueue(r.queue, async (q) => (await q.getCompleted(0, -1)).filter((job) => /-r1$/.test(String(job.id))));
    expect(confirmations.length).toBe(r.tasks);
  });

  it("identities required and a revoked identity: the revoked worker's answers are never taken (the coordinator searches its tasks itself)", async () => {
    const identity = (name: string) => {
      const [, , , hex] = identityText(KEY, name).trim().split(" ");
      return { name, key: new Uint8Array(hex!.match(/../g)!.map((h) => parseInt(h, 16))) };
    };
    const bad = await startWorker({ connection: url, concurrency: 1, identity: identity("bad"), queue: "revoked" });
    workers.push(bad);
    const n = 20, givens = ed(20, 18, 1);
    const notices: string[] = [];
    const r = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "revoked", identities: "required", revoked: ["bad"], audit: 0, pollMs: 20, onNotice: (m) => notices.push(m) });
    expect([r.found, r.reason]).toEqual([false, "no-solution"]);
    expect(r.audited).toBe(r.tasks); // every task, the coordinator's own search
    expect(notices.some((m) => /^queue revoked: task \d+ was searched by revoked worker bad; not taken: the coordinator searches it itself$/.test(m))).toBe(true);
    // Identities required: a worker with only the cluster key is refused (searched again once, then NQ_TAMPERED).
    await bad.close();
    await honest("key-only", { queue: "required" });
    await expect(solveDistributed(n, { connection: url, key: KEY, ...givens, queue: "required", identities: "required", pollMs: 20 }))
      .rejects.toMatchObject({ code: "NQ_TAMPERED", message: expect.stringContaining("is not signed by a worker identity") });
  });

  it("no key, no run (NQ_KEY, before Redis), unless asked for; bad input is refused, naming the option", async () => {
    const nowhere = "redis://127.0.0.1:1";
    const givens = ed(20, 16, 1);
    await expect(solveDistributed(20, { connection: nowhere, ...givens })).rejects.toMatchObject({ code: "NQ_KEY", param: "key" });
    await honest("keyless-refuses"); // a keyed worker leaves a keyless run alone
    const open = await startWorker({ connection: url, concurrency: 1, unauthenticated: true, name: "open" });
    workers.push(open);
    const r = await solveDistributed(20, { connection: url, unauthenticated: true, ...givens, pollMs: 20 });
    expect([r.found, r.authenticated]).toEqual([true, false]);
    for (const [options, param] of [
      [{ audit: 2 }, "audit"], [{ replicas: 3 }, "replicas"], [{ queue: "a:b" }, "queue"], [{ timeoutMs: -1 }, "timeoutMs"],
      [{ identities: "some" }, "identities"], [{ pollMs: 1 }, "pollMs"], [{ connection: "http://x" }, "connection"],
    ] as const) {
      await expect(solveDistributed(20, { connection: nowhere, key: KEY, ...givens, ...options } as never), param).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", param });
    }
    // timeoutMs 0, as solve on threads: 'timeout' at once, no task decided (the board cut, Redis not waited for).
    const none = await solveDistributed(20, { connection: nowhere, key: KEY, ...givens, timeoutMs: 0 });
    expect([none.found, none.reason, none.decided, none.workers]).toEqual([false, "timeout", 0, 0]);
    await expect(solveDistributed(0, { connection: nowhere, key: KEY })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "n" });
    await expect(solveDistributed(20, { connection: nowhere, key: KEY, parts: 4 } as never)).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
    await expect(solveDistributed(20, { connection: nowhere, key: KEY, identities: "required", unauthenticated: true } as never)).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });

  it("timeoutMs with no worker: found false, reason 'timeout', the run kept in Redis to resume; no worker answered, and the CLI says so; the decided run met with another key or none is refused in a solve's words", async () => {
    const givens = ed(20, 16, 1);
    const r = await solveDistributed(20, { connection: url, key: KEY, ...givens, timeoutMs: 300, queue: "timed", pollMs: 20 });
    expect([r.found, r.reason]).toEqual([false, "timeout"]);
    expect(r).toMatchObject({ resumed: 0, decided: 0, answers: 0, workers: 0 });
    expect(queueTimeoutText(r)).toBe("; no worker took a task (none is on the queue: start `nqueens worker --queue URL` with this run's key (NQUEENS_KEY or --key-file FILE)); the run stays in Redis: run the same command again to resume");
    expect((await listRuns({ connection: url, key: KEY })).find((run) => run.queue === "timed")).toMatchObject({ kind: "solve", open: true });
    await honest("late", { queue: "timed" });
    const solved = await solveDistributed(20, { connection: url, key: KEY, ...givens, queue: "timed", pollMs: 20 });
    expect(solved).toMatchObject({ found: true, decided: solved.tasks });
    expect(solved.answers).toBeGreaterThan(0);
    // Met under another key: a solve is solved again, not counted; met without a key: the way out in the API's words, and in the CLI's by the CLI.
    const other = await solveDistributed(20, { connection: url, key: "another key", ...givens, queue: "timed", pollMs: 20 }).catch((e: unknown) => e) as Error;
    expect(other).toMatchObject({ code: "NQ_TAMPERED" });
    expect(other.message).toMatch(/: remove the run with `nqueens runs --remove timed` and solve again$/);
    const keyless = await solveDistributed(20, { connection: url, unauthenticated: true, ...givens, queue: "timed", pollMs: 20 }).catch((e: unknown) => e) as Error;
    const made = "queue timed: the run was made under a key, and its answers are checked under it";
    expect(keyless).toMatchObject({ code: "NQ_KEY", param: "key", detail: made, message: `${made}; give the key it was made under (key or keyFile, or the environment variable NQUEENS_KEY)` });
    expect(describeFailure(keyless)).toEqual({ line: `nqueens: ${made}; give the key it was made under (NQUEENS_KEY or --key-file FILE), without --unauthenticated`, exitCode: 2 });
  });

  it("no worker on the run (none started, one with another key): the coordinator says so within seconds, not at a stall notice, once; and once more when the workers it had are all gone", async () => {
    const n = 20, givens = ed(20, 18, 1), queue = "lonely";
    workers.push(await startWorker({ connection: url, concurrency: 1, key: "not the cluster key", name: "stranger" }));
    const notices: string[] = [];
    let seen = 0;
    const run = solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20, onNotice: (m) => notices.push(m), onProgress: (p) => { seen = p.workers; } });
    run.catch(() => {}); // awaited below
    const said = (when: string): RegExp => new RegExp(`^queue ${queue}: no worker on it ${when}: start one \\(nqueens worker --queue URL with this run's key: NQUEENS_KEY or --key-file FILE\\); ` +
      "a worker without this run's key does not join it \\(it says so on its own stderr\\); the run waits for one$");
    // The stall notice comes after a minute (stallNoticeMs's default): this one is not it.
    await until("the notice that no worker is on the run", async () => notices.some((m) => said("yet").test(m)));
    expect(notices.filter((m) => /no task finished/.test(m))).toEqual([]);
    // A worker of the test's own comes (it holds the task it takes until let go, then answers "none": the board has none), and goes.
    let letGo = (): void => {};
    const held = new Promise<void>((resolve) => { letGo = resolve; });
    const visitor = new BullWorker(queue, async (job: Job<SolveJob>) => {
      await held;
      const d = job.data;
      return signed(key, RESULT_DOMAIN, queue, { kind: "solve", task: d.index, tasks: d.tasks, digest: d.digest, columns: null, nodes: 100, worker: "visitor", run: d.run, job: job.id });
    }, { connection: connection(), concurrency: 1 });
    visitor.on("error", () => {});
    try {
      await until("the coordinator to see the worker", async () => seen > 0);
    } finally {
      letGo();
      await visitor.close();
    }
    await until("the notice that the workers are all gone", async () => notices.some((m) => said("any more").test(m)));
    await honest("late", { queue });
    expect(await run).toMatchObject({ found: false, reason: "no-solution" });
    expect([notices.filter((m) => said("yet").test(m)).length, notices.filter((m) => said("any more").test(m)).length]).toEqual([1, 1]);
  });

  it("a run stopped midway: nqueens runs shows its tasks decided (not its jobs, passes included); timed out later, the answer holds the tasks resumed and decided, the workers on it and the answers read", async () => {
    const n = 20, givens = ed(20, 18, 1), queue = "figures", T = tasksOf(n, givens).length;
    expect(T).toBeGreaterThan(2);
    // A worker of the test's own: "none" for tasks 0 and 1 (the board has none), "unfinished" for the others' first pass and the
    // restarting search's (index T), and a later pass held until let go.
    let letGo = (): void => {};
    const held = new Promise<void>((resolve) => { letGo = resolve; });
    const partial = new BullWorker(queue, async (job: Job<SolveJob>) => {
      const d = job.data, first = /-p0$/.test(String(job.id));
      if (!first) await held;
      const answer = d.index < 2 || !first ? { columns: null, nodes: 100 } : { columns: null, nodes: d.budget, unfinished: true };
      return signed(key, RESULT_DOMAIN, queue, { kind: "solve", task: d.index, tasks: d.tasks, digest: d.digest, ...answer, worker: "partial", run: d.run, job: job.id });
    }, { connection: connection(), concurrency: 1 });
    partial.on("error", () => {});
    try {
      const controller = new AbortController();
      const stopped = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20, signal: controller.signal, onProgress: (p) => { if (p.tasksDone >= 2) controller.abort(); } }).catch((e: unknown) => e);
      expect((stopped as Error).name).toBe("AbortError");
      // Every first pass answered: T + 1 jobs completed (the restarting search's first pass too), 2 tasks decided.
      await until("every first pass answered", async () => withQueue(queue, async (q) => (await q.getCompletedCount()) === T + 1));
      expect((await listRuns({ connection: url, key: KEY })).find((run) => run.queue === queue)).toMatchObject({ kind: "solve", done: 2, parts: T, failed: 0 });
      // Timed out while the worker holds a second pass: a timeout that ends before the coordinator's first look is tried again with twice the time.
      let r: DistributedSolveResult | undefined;
      for (let ms = 2000; r === undefined; ms *= 2) {
        let looked = false;
        const timed = await solveDistributed(n, { connection: url, key: KEY, ...givens, queue, audit: 0, pollMs: 20, timeoutMs: ms, onProgress: (p) => { looked ||= p.workers > 0; } });
        expect(timed.reason).toBe("timeout");
        if (looked || ms > 30_000) r = timed;
      }
      expect(r).toMatchObject({ found: false, reason: "timeout", tasks: T, resumed: 2, decided: 2, workers: 1, answers: 0, passes: 2 });
      expect(queueText(r!)).toBe(`queue ${queue}, 2 of ${T} tasks decided (2 before this run), 2 passes, 1 worker; authenticated, 0 tasks searched again by the coordinator`);
      expect(queueTimeoutText(r!)).toBe("; no worker answered a task in this run (1 worker on the queue); the run stays in Redis: run the same command again to resume");
    } finally {
      letGo();
      await partial.close();
    }
  });

  it("the CLI: nqueens solve --queue with `nqueens worker` processes, keyed; JSON; refusals of flags that do not apply", async () => {
    const env = { ...process.env, NQUEENS_KEY: KEY };
    const w = spawnCli(["worker", "--queue", url, "--concurrency", "1"], env);
    await until("the worker to start", async () => w.stderr().includes("ready"));
    const { blocked } = excludedDiagonalsBoard(22, 16, { seed: 2 });
    const flag = blocked.map(([r, c]) => `${r}:${c}`).join(",");
    const run = await runCli(["solve", "22", "--method", "complete", "--blocked", flag, "--queue", url, "--json"], { env });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ n: 22, found: true, method: "complete", authenticated: true, foundBy: expect.stringMatching(/^worker \S+( \(the restarting search\))?$/) });
    expect(isSolution(result.columns)).toBe(true);
    for (const [r, c] of blocked) expect(result.columns[r]).not.toBe(c);
    // The same board again, as text: answered from the run's record, saying who found it.
    const again = await runCli(["solve", "22", "--method", "complete", "--blocked", flag, "--queue", url], { env });
    expect(again.stdout).toMatch(/ nodes, queue nqueens-solve-n22-b[0-9a-f]{32}-t\d+-sv\d+, found by an earlier run \(its record\), \d+ tasks \(\d+ decided before this run\), /);
    const none = await runCli(["solve", "20", "--method", "complete", "--blocked", excludedDiagonalsBoard(20, 18, { seed: 1 }).blocked.map(([r, c]) => `${r}:${c}`).join(","), "--queue", url], { env });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toMatch(new RegExp(String.raw`^n = 20: no completion \(proved by exhaustive search\); \d+ nodes, queue nqueens-solve-n20-b[0-9a-f]{32}-t\d+-sv${SOLVE_TASKS_VERSION}, \d+ tasks \(0 decided before this run\), \d+ pass(es)?, \d+ workers?; authenticated, \d+ tasks? searched again by the coordinator, [\d.]+ ms\n$`));
    // Refusals, exit 2, before Redis.
    const noKey = await runCli(["solve", "22", "--method", "complete", "--blocked", flag, "--queue", "redis://127.0.0.1:1"], { env: { ...process.env, NQUEENS_KEY: "" } });
    expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringMatching(/^nqueens: no cluster key/)]);
    for (const [args, message] of [
      [["--method", "hybrid"], /--queue spreads the complete search over Redis workers: it takes --method complete/],
      [["--method", "complete", "--workers", "2"], /--workers does not apply with --queue/],
      [["--method", "complete", "--max-nodes", "5"], /--max-nodes does not apply with --queue/],
    ] as const) {
      const refused = await runCli(["solve", "20", ...args, "--queue", "redis://127.0.0.1:1"], { env });
      expect([refused.code, refused.stderr], args.join(" ")).toEqual([2, expect.stringMatching(message)]);
    }
    const orphan = await runCli(["solve", "20", "--audit", "1"], { env });
    expect([orphan.code, orphan.stderr]).toEqual([2, expect.stringMatching(/--audit applies to a solve on Redis workers: add --queue URL/)]);
  });
});
