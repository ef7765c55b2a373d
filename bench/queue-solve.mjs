// A solve on the queue against one thread (npm run bench -- --only queue-solve; its own
// redis-server unless --queue URL): Excluded Diagonals boards of n = 32 that one thread decides
// in seconds to a minute, each solved on this thread (solve, method 'complete'), on 2 pool
// threads of this process (solve with workers: 2: the same tasks and passes, no queue), and by
// solveDistributed over 2 local `nqueens worker --concurrency 1` processes on one Redis, keyed,
// with no audit and with the default audit (the coordinator searches again a share of the
// "none" answers, and one of each worker's), interleaved board by board. Threads against the
// queue is what the queue costs; one thread against threads, what the cut into tasks costs. The
// verdicts must agree (a run cut by the time limit is undecided); every board found is verified.
// On the queue as on threads the whole board's restarting search runs beside the tasks
// (`found_by_queue`: which found it).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "ioredis";
import { excludedDiagonalsBoard, solve, verify } from "../dist/index.js";
import { DEFAULT_AUDIT, removeRun, solveDistributed } from "../dist/distributed.js";
import { printTable, round } from "./lib.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const KEY = "the queue-solve bench's cluster key";

/**
 * Boards (n, d, seed) of n = 32 one thread decided in 1 to 25 s (2026-12-06, load 6 to 10 on 2
 * cores; `excludedDiagonalsBoard(32, d, { seed })`), with a solution (d = 32 seed 1, d = 33 and
 * 35 seed 3, d = 38 seed 32) and without (d = 35 seed 1, d = 39 seeds 28 and 26, d = 38 seed 29).
 * At n = 32 about two boards in three of d = 35 to 37 are proved at the root (no task at all), and boards
 * without a solution that one thread decides within a minute are rare: of 40 seeds of d = 35 to
 * 39 tried, these four; most others were undecided after 30 to 60 s.
 */
export const QUEUE_SOLVE_BOARDS = [[32, 32, 1], [32, 35, 1], [32, 33, 3], [32, 39, 28], [32, 35, 3], [32, 39, 26], [32, 38, 32], [32, 38, 29]];

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once("error", reject);
  server.listen(0, "127.0.0.1", () => { const { port } = server.address(); server.close(() => resolve(port)); });
});

function startWorker(url) {
  const child = spawn(process.execPath, [CLI, "worker", "--queue", url, "--concurrency", "1"], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NQUEENS_KEY: KEY } });
  let stderr = "";
  const ready = new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => { stderr += d; if (stderr.includes("ready")) resolve(); });
    child.once("exit", (code, signal) => reject(new Error(`nqueens worker exited (${code ?? signal}) before it was ready:\n${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, ready, exited };
}

const verdictOf = (r) => (r.reason === "timeout" ? "undecided" : r.found ? "found" : "none");
/** Who found a board on the queue: the restarting search's job, or a task's ("" where none was found). */
const foundBy = (r) => (!r.found ? "" : /restarting search/.test(r.foundBy) ? "restarts" : "task");

export async function benchQueueSolve({ url, boards = QUEUE_SOLVE_BOARDS, timeoutMs = 120_000 } = {}) {
  let server, dir;
  if (!url) {
    if (spawnSync("redis-server", ["--version"]).status !== 0) throw new Error("queue-solve needs redis-server (or --queue URL)");
    const port = await freePort();
    dir = mkdtempSync(join(tmpdir(), "nqueens-queue-solve-"));
    server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
  }
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  redis.on("error", () => {});
  for (let i = 0; (await redis.ping().catch(() => "")) !== "PONG"; i++) {
    if (i > 200) throw new Error("redis-server did not answer");
    await new Promise((r) => setTimeout(r, 50));
  }
  const workers = [startWorker(url), startWorker(url)];
  const loadBefore = os.loadavg();
  const rows = [];
  try {
    await Promise.all(workers.map((w) => w.ready));
    for (const [n, d, seed, minFree = 1] of boards) {
      const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
      const t0 = performance.now();
      const one = await solve(n, { method: "complete", blocked, timeoutMs });
      const oneMs = performance.now() - t0;
      const t2 = performance.now();
      const threads = await solve(n, { method: "complete", blocked, timeoutMs, workers: 2 });
      const threadsMs = performance.now() - t2;
      const queued = [];
      for (const audit of [0, DEFAULT_AUDIT]) {
        const queue = `nqueens-bench-solve-${process.pid}-${n}-${d}-${seed}-${audit}`;
        const r = await solveDistributed(n, { connection: url, key: KEY, blocked, audit, queue, timeoutMs });
        await removeRun(queue, { connection: url }).catch(() => {});
        queued.push(r);
      }
      for (const r of [one, threads, ...queued]) if (r.found && !verify(r.columns).ok) throw new Error(`queue-solve: a board found for n = ${n}, d = ${d}, seed ${seed} is not a solution`);
      const verdicts = new Set([one, threads, ...queued].map(verdictOf).filter((v) => v !== "undecided"));
      if (verdicts.size > 1) throw new Error(`queue-solve: the verdicts disagree on n = ${n}, d = ${d}, seed ${seed}: ${[one, threads, ...queued].map(verdictOf).join(", ")}`);
      const [plain, audited] = queued;
      rows.push({
        n, d, seed, ...(minFree !== 1 ? { min_free: minFree } : {}), verdict_one_thread: verdictOf(one), verdict_threads: verdictOf(threads), verdict_queue: verdictOf(plain), verdict_queue_audited: verdictOf(audited),
        one_thread_ms: round(one.reason === "timeout" ? Infinity : oneMs, 0), threads2_ms: round(threads.reason === "timeout" ? Infinity : threadsMs, 0),
        queue_ms: round(plain.reason === "timeout" ? Infinity : plain.ms, 0), queue_audited_ms: round(audited.reason === "timeout" ? Infinity : audited.ms, 0),
        queue_over_one: round(plain.ms / oneMs, 2), queue_over_threads: round(plain.ms / threadsMs, 2), tasks: plain.tasks, passes: plain.passes, audited_tasks: audited.audited,
        nodes_one_thread: one.nodes, nodes_threads2: threads.nodes, nodes_queue: plain.nodes, nodes_queue_audited: audited.nodes,
        // Who found it on the queue: a task's search, or the restarting search's pass (a worker's name left out).
        found_by_queue: foundBy(plain), found_by_queue_audited: foundBy(audited),
      });
      console.error(JSON.stringify(rows.at(-1)));
    }
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGTERM");
    await Promise.all(workers.map((w) => w.exited));
    redis.disconnect();
    if (server) { const exited = new Promise((r) => server.once("exit", r)); server.kill("SIGKILL"); await exited; rmSync(dir, { recursive: true, force: true }); }
  }
  const loadAfter = os.loadavg();
  printTable(
    `solve on the queue (2 local \`nqueens worker --concurrency 1\`, one Redis, keyed; audit 0 and ${DEFAULT_AUDIT}) against one thread and 2 pool threads, Excluded Diagonals at n = 32; ` +
      `${timeoutMs / 1000} s a run (Infinity: undecided); ${os.availableParallelism?.() ?? os.cpus().length} cores, load average ${loadBefore[0].toFixed(1)} before, ${loadAfter[0].toFixed(1)} after`,
    rows,
  );
  return { load_before: round(loadBefore[0], 2), load_after: round(loadAfter[0], 2), rows };
}
