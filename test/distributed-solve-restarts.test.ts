// solveDistributed's restarting search on the queue, against a real redis-server started here:
// beside the tasks, the whole board searched by the restarting search alone in passes of its own
// (`restarts-pK`). Its solution ends the run (checked on the board, named as the restarting
// search's, in the task holding it); it unmasks a worker that answered "none" for that task,
// without an audit; its job failing for good, or its "none", ends its passes and nothing else
// (the tasks decide); honest workers answer its jobs. Workers of the test's own stand in where a
// test needs one kind of job answered one way; their searches are the package's own
// (solveTaskChunked). Skipped without redis-server, except in CI. No timed assertion: the waits
// are hang guards.
import { afterEach, describe, expect, it } from "vitest";
import { excludedDiagonalsBoard, type Square } from "../src/index.js";
import { solve as solveOneThread } from "../src/search/solve.js";
import { solveTaskChunked, type SolvedTask } from "../src/count/solve-tasks.js";
import { solveDistributed, startWorker, type DistributedSolveResult, type DistributedWorker } from "../src/distributed/index.js";
import { restartsBudget, restartsTask, type SolveJob } from "../src/distributed/solve-jobs.js";
import { isSolution } from "./helpers.js";
import { solveAnswerer, tasksOf, type TestAnswer } from "./solve-queue-workers.js";
import { haveRedisServer, requireRedis, usePrivateRedis, withQueueOn, type RedisServer } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "queue solve tests need redis-server (.ci/run installs it)",
  skipped: "test/distributed-solve-restarts.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the queue restarts test's cluster key";
const key = new TextEncoder().encode(KEY);
let server: RedisServer;
let url = "";
const connection = () => ({ host: "127.0.0.1", port: server.port });
const withQueue = withQueueOn(connection);

const blockedOf = (n: number, d: number, seed: number): Square[] => excludedDiagonalsBoard(n, d, { seed }).blocked;

/** The restarting search run here on the job's whole board, within the job's budget, as a pool thread runs it. */
const restartsSearch = (n: number, blocked: Square[], budget: number | null): Promise<SolvedTask> =>
  solveTaskChunked(restartsTask(tasksOf(n, { blocked })), "wasm", { allowed: () => Infinity, budget: budget ?? Infinity, between: async () => {} }, "restarts");

/** A BullMQ worker of the test's own answering every job of `queue` with `answer(job)`, signed under the cluster key as worker `who(job)`. */
const own = (queue: string, answer: (d: SolveJob) => Promise<TestAnswer>, who: (d: SolveJob) => string, concurrency = 1) => solveAnswerer(connection(), queue, key, answer, who, concurrency);

/** The board found is a solution (the tests' own checker) off the blocked squares, in the task the answer names. */
function expectFoundIn(r: DistributedSolveResult, n: number, blocked: Square[]): void {
  expect(r.found).toBe(true);
  if (!r.found) return;
  const columns = Array.from(r.columns);
  expect(isSolution(columns)).toBe(true);
  for (const [row, col] of blocked) expect(columns[row]).not.toBe(col);
  const [[row, col]] = tasksOf(n, { blocked })[r.task].prefixes[0];
  expect(columns[row]).toBe(col);
}

const workers: DistributedWorker[] = [];

describe.skipIf(!haveRedisServer)("solveDistributed: the restarting search beside the tasks", () => {
  usePrivateRedis("nqueens-redis-solve-restarts-", (s) => ({ server, url } = s));
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.close();
  });

  it("a board its tasks leave unfinished is found by the restarting search's pass: checked, named, in the task holding it; its passes have all the tasks' budget of that pass", async () => {
    // n = 22, d = 20, seed 3: the restarting search finds it in about 12k nodes, each task's 64-bit search needs 6.8k to 490k.
    const n = 22, blocked = blockedOf(22, 20, 3), queue = "restarts-found", T = tasksOf(n, { blocked }).length;
    const budgets: [number, number | null][] = [];
    const worker = own(queue, async (d) => {
      if (d.method !== "restarts") return { columns: null, nodes: d.budget!, unfinished: true }; // (the run ends long before a task's last pass)
      expect(d.index).toBe(T);
      budgets.push([Number(/\d+$/.exec(String(d.job))![0]), d.budget]);
      const r = await restartsSearch(n, blocked, d.budget);
      return r.columns ? { columns: r.columns, nodes: r.nodes } : { columns: null, nodes: r.nodes, ...(r.unfinished ? { unfinished: true as const } : {}) };
    }, () => "finder");
    try {
      const r = await solveDistributed(n, { connection: url, key: KEY, blocked, queue, audit: 0, pollMs: 20, timeoutMs: 60_000 });
      expectFoundIn(r, n, blocked);
      expect(r.found && r.foundBy).toBe("worker finder (the restarting search)");
      expect(budgets.length).toBeGreaterThan(0);
      for (const [pass, budget] of budgets) expect(budget).toBe(restartsBudget(pass, T));
    } finally {
      await worker.close();
    }
  });

  it("a forged \"none\" for the task holding the restarting search's solution is caught without an audit, naming the worker", async () => {
    const n = 22, blocked = blockedOf(22, 20, 3), queue = "restarts-liar", tasks = tasksOf(n, { blocked });
    // The finder searches first; the liar then answers "none" for the task holding that solution,
    // "unfinished" for the others (so the run waits), and the finder answers once the lie is in.
    let holder = (_t: number): void => {};
    const held = new Promise<number>((resolve) => { holder = resolve; });
    let lieTaken = (): void => {};
    const taken = new Promise<void>((resolve) => { lieTaken = resolve; });
    const worker = own(queue, async (d) => {
      if (d.method === "restarts") {
        const r = await restartsSearch(n, blocked, d.budget);
        if (r.columns === null) return { columns: null, nodes: r.nodes, ...(r.unfinished ? { unfinished: true as const } : {}) };
        holder(tasks.findIndex((task) => task.prefixes[0].every(([row, col]) => r.columns![row] === col)));
        await taken;
        return { columns: r.columns, nodes: r.nodes };
      }
      const h = await held;
      return d.index === h ? { columns: null, nodes: 100 } : { columns: null, nodes: d.budget!, unfinished: true };
    }, (d) => (d.method === "restarts" ? "finder" : "liar"), 4);
    try {
      const error = await solveDistributed(n, {
        connection: url, key: KEY, blocked, queue, audit: 0, pollMs: 20, timeoutMs: 60_000, onProgress: (p) => { if (p.tasksDone >= 1) lieTaken(); },
      }).then(() => undefined, (e: unknown) => e) as Error & { code?: string; workers?: string[]; task?: number; columns?: number[] };
      expect(error).toMatchObject({ code: "NQ_AUDIT_MISMATCH", workers: ["liar"], task: await held });
      expect(error.message).toMatch(new RegExp(`^queue ${queue}: worker liar answered that task ${await held} of ${tasks.length} \\(n = 22\\) holds no solution, but worker finder \\(the restarting search\\) found one there \\(checked on the board\\)`));
      expect(isSolution(error.columns!)).toBe(true);
    } finally {
      holder(-1);
      lieTaken();
      await worker.close();
    }
  });

  it("the restarting search's job failing for good, or its \"none\", ends its passes and nothing else: the tasks decide, as on one thread", async () => {
    const n = 20, blocked = blockedOf(20, 16, 1), tasks = tasksOf(n, { blocked });
    const one = await solveOneThread(n, { method: "complete", blocked });
    expect(one.found).toBe(true);
    const taskSearch = async (d: SolveJob) => {
      const r = await solveTaskChunked(tasks[d.index], "wasm", { allowed: () => Infinity, budget: d.budget ?? Infinity, between: async () => {} });
      return { columns: r.columns, nodes: r.nodes, ...(r.unfinished ? { unfinished: true as const } : {}) };
    };
    // Failing: three attempts, then the run goes on without it, saying so once. The tasks' answers
    // are held until the coordinator said so (so the run cannot end before).
    const notices: string[] = [];
    let spare = (): void => {};
    const spared = new Promise<void>((resolve) => { spare = resolve; });
    const said = /^queue restarts-fails: the restarting search's job failed: this worker cannot run the restarting search; its passes end \(the tasks decide the board without it\)$/;
    const failing = own("restarts-fails", async (d) => {
      if (d.method === "restarts") throw new Error("this worker cannot run the restarting search");
      await spared;
      return taskSearch(d);
    }, () => "tasks-only", 16); // (a slot free for the restarting search's retries while the tasks wait)
    try {
      const r = await solveDistributed(n, {
        connection: url, key: KEY, blocked, queue: "restarts-fails", audit: 0, pollMs: 20, timeoutMs: 60_000, onNotice: (m) => { notices.push(m); if (said.test(m)) spare(); },
      });
      expect([r.found, r.found && r.foundBy]).toEqual([true, "worker tasks-only"]);
      expectFoundIn(r, n, blocked);
      expect(notices.filter((m) => said.test(m)), notices.join("\n")).toHaveLength(1);
      // Removed (no run needs it), and no later pass was queued.
      expect(await withQueue("restarts-fails", async (q) => [await q.getJob("restarts-p0"), await q.getJob("restarts-p1")])).toEqual([undefined, undefined]);
    } finally {
      spare();
      await failing.close();
    }
    // "None" from the restarting search is no verdict: the run ends only when the tasks decide (here: a solution).
    const nothing = own("restarts-none", async (d) => (d.method === "restarts" ? { columns: null, nodes: 1 } : taskSearch(d)), () => "says-none");
    try {
      const r = await solveDistributed(n, { connection: url, key: KEY, blocked, queue: "restarts-none", audit: 0, pollMs: 20, timeoutMs: 60_000 });
      expectFoundIn(r, n, blocked);
      expect(r.found && r.foundBy).toBe("worker says-none");
      // Its passes ended: no later pass was queued.
      expect(await withQueue("restarts-none", async (q) => q.getJob("restarts-p1"))).toBeUndefined();
    } finally {
      await nothing.close();
    }
  });

  it("honest workers answer the restarting search's jobs: its first pass answered by one of them, for the whole board, queued before the tasks' pass", async () => {
    // A board without a solution: the tasks prove it, the restarting search's first pass (queued first) is taken and answered first.
    const n = 20, blocked = blockedOf(20, 18, 1);
    expect((await solveOneThread(n, { method: "complete", blocked })).found).toBe(false);
    workers.push(await startWorker({ connection: url, concurrency: 1, key: KEY, name: "a" }));
    const r = await solveDistributed(n, { connection: url, key: KEY, blocked, audit: 0, pollMs: 20 });
    expect([r.found, r.reason]).toEqual([false, "no-solution"]);
    const [first, task] = await withQueue(r.queue, async (q) => [await q.getJob("restarts-p0"), await q.getJob("task-0-p0")]);
    expect(first?.data).toMatchObject({ kind: "solve", method: "restarts", index: r.tasks, tasks: r.tasks, budget: restartsBudget(0, r.tasks) });
    // By pass, the restarting search's before the tasks' (BullMQ priorities: 2k + 1, then 2k + 2).
    expect([first?.opts.priority, task?.opts.priority]).toEqual([1, 2]);
    expect(first?.finishedOn).toBeGreaterThan(0);
    expect(first?.returnvalue).toMatchObject({ kind: "solve", task: r.tasks, tasks: r.tasks, worker: "a", unfinished: true });
  });
});
