// Counting over the queue (BullMQ on Redis) against countParallel, in the same run:
// two `nqueens worker --concurrency 1` processes (started before any timing, left warm)
// against countParallel with 2 worker threads, at n = 16 (issue target: queue /
// countParallel < 1.10). The queue runs with its own default parts (defaultQueueParts: 32
// at n = 16) and again with countParallel's (256), which shows the cost of a part on the
// queue. Runs only with `--queue redis://HOST:PORT`. Every repeat uses a
// fresh queue name (removed afterwards), and the two sides are interleaved, alternating
// which goes first, so load changes on a shared machine hit both alike; medians reported.
// Without a key, as asked (unauthenticated): the queue's own cost, its MACs apart
// (bench/queue-cost.mjs measures those).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { countParallel, splitCount } from "../dist/index.js";
import { countDistributed, defaultQueueParts, removeRun } from "../dist/distributed.js";
import { median, printTable, round } from "./lib.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

/** Starts `nqueens worker` and resolves once it says it is ready. */
function startWorkerProcess(url, concurrency) {
  const child = spawn(process.execPath, [CLI, "worker", "--queue", url, "--concurrency", String(concurrency), "--unauthenticated"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const ready = new Promise((resolve, reject) => {
    child.stderr.on("data", (d) => {
      stderr += d;
      if (stderr.includes("ready")) resolve();
    });
    exited.then(({ code, signal }) => reject(new Error(`nqueens worker exited (${code ?? signal}) before it was ready:\n${stderr}`)));
  });
  return { child, ready, exited, stderr: () => stderr };
}

async function stopWorkerProcess(worker) {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill("SIGTERM");
  const timer = setTimeout(() => worker.child.kill("SIGKILL"), 10_000);
  await worker.exited;
  clearTimeout(timer);
}

export async function benchQueue({ url, sizes = [16], workers = 2, repeats = 5 } = {}) {
  if (!url) throw new Error("the queue section needs --queue redis://HOST:PORT");
  const procs = Array.from({ length: workers }, () => startWorkerProcess(url, 1));
  const stopAll = () => Promise.all(procs.map(stopWorkerProcess));
  const onSignal = () => { void stopAll().finally(() => process.exit(130)); };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const tag = `nqueens-bench-${process.pid}-${Date.now().toString(36)}`;
  const rows = [];
  const runs = [];
  try {
    await Promise.all(procs.map((p) => p.ready));
    // Warm-up on both sides (workers start their counting threads on their first part).
    const warm = `${tag}-warm`;
    await countDistributed(12, { connection: url, queue: warm, unauthenticated: true });
    await removeRun(warm, { connection: url });
    await countParallel(12, { workers });

    for (const n of sizes) {
      const queueMs = [], queueSamePartsMs = [], parallelMs = [];
      const queueParts = defaultQueueParts(n), parallelParts = splitCount(n).length;
      let expected;
      const onQueue = (parts, times, side, i) => async () => {
        const name = `${tag}-n${n}-p${parts}-r${i}`;
        globalThis.gc?.();
        const t0 = performance.now();
        const r = await countDistributed(n, { connection: url, queue: name, parts, unauthenticated: true });
        const ms = performance.now() - t0;
        await removeRun(name, { connection: url });
        times.push(ms);
        runs.push({ n, side, parts: r.parts, repeat: i, ms: round(ms, 1), total: String(r.total) });
        return r.total;
      };
      for (let i = 0; i < repeats; i++) {
        const sides = [
          onQueue(queueParts, queueMs, "queue", i),
          onQueue(parallelParts, queueSamePartsMs, "queue, countParallel's parts", i),
          async () => {
            globalThis.gc?.();
            const t0 = performance.now();
            const r = await countParallel(n, { workers });
            const ms = performance.now() - t0;
            parallelMs.push(ms);
            runs.push({ n, side: "countParallel", parts: r.parts, repeat: i, ms: round(ms, 1), total: String(r.total) });
            return r.total;
          },
        ];
        for (let k = 0; k < i % sides.length; k++) sides.push(sides.shift()); // rotate who goes first
        for (const side of sides) {
          const total = await side();
          expected ??= total;
          if (total !== expected) throw new Error(`n = ${n}: the sides disagree (${total} vs ${expected})`);
        }
      }
      const q = median(queueMs), q2 = median(queueSamePartsMs), p = median(parallelMs);
      rows.push({
        n, workers, repeats, queue_parts: queueParts, queue_ms: round(q, 0), parallel_parts: parallelParts, countParallel_ms: round(p, 0),
        queue_over_parallel: round(q / p), median_of_ratios: round(median(queueMs.map((ms, i) => ms / parallelMs[i]))),
        queue_at_parallel_parts_ms: round(q2, 0), same_parts_ratio: round(q2 / p),
      });
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await stopAll();
  }
  printTable(`queue: ${workers} \`nqueens worker --concurrency 1\` processes vs countParallel with ${workers} workers, medians, interleaved (target queue_over_parallel < 1.10 at n = 16)`, rows);
  return { url, rows, runs };
}
