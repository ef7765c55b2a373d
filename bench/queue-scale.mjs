// The queue at scale (npm run bench -- --queue-scale): one coordinator (its own process) and
// local `nqueens worker --concurrency 1` processes count n = 14 split into 10^3, 10^4 and 10^5
// parts (--queue-scale-sizes and --queue-scale-n choose others; n = 13 splits into at most
// 63,352) on a
// redis-server of its own (or --queue URL). Per size: the overhead per part (wall time less
// the count's own time spread over the workers, per part), Redis commands and memory per part
// (INFO commandstats, INFO memory, before and after), Redis CPU, the coordinator's CPU time and
// peak RSS, the heap it holds per part with every part in (after a GC: what it keeps, where
// the peak RSS also counts garbage not yet collected), and the time from the last part seen
// to the answer (audit top-up, merge, record). Keyed with the default audit, as any queue run
// is unless asked otherwise (--queue-scale-keyless: the keyless run, for comparison).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { count } from "../dist/index.js";
import { removeRun } from "../dist/distributed.js";
import { printTable, round } from "./lib.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const CHILD = fileURLToPath(new URL("./queue-scale-child.mjs", import.meta.url));
const A000170 = { 12: 14200n, 13: 73712n, 14: 365596n, 15: 2279184n, 16: 14772512n, 17: 95815104n };
/** The cluster key of a keyed run (the default, as for any queue run now): workers read it from NQUEENS_KEY. */
const KEY = "the queue-scale bench's cluster key";

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once("error", reject);
  server.listen(0, "127.0.0.1", () => { const { port } = server.address(); server.close(() => resolve(port)); });
});

function startWorker(url, keyed) {
  const child = spawn(process.execPath, [...(process.env.NQ_BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.NQ_BENCH_PROF}`] : []), CLI, "worker", "--queue", url, "--concurrency", "1", "--quiet", ...(keyed ? [] : ["--unauthenticated"])], {
    stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NQUEENS_KEY: keyed ? KEY : "" },
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { child, exited };
}

/** A process's CPU seconds so far (user + system, from /proc; NaN where there is no /proc). */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch { return NaN; }
}

/** Sums of INFO: commands called, used memory, Redis CPU seconds. */
async function info(redis) {
  const stats = await redis.info("commandstats");
  let calls = 0;
  for (const m of stats.matchAll(/calls=(\d+)/g)) calls += Number(m[1]);
  const memory = Number(/used_memory:(\d+)/.exec(await redis.info("memory"))[1]);
  const cpu = await redis.info("cpu");
  const seconds = Number(/used_cpu_sys:([\d.]+)/.exec(cpu)[1]) + Number(/used_cpu_user:([\d.]+)/.exec(cpu)[1]);
  return { calls, memory, seconds };
}

function runCoordinator(url, n, parts, queue, keyed) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(process.env.NQ_BENCH_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.NQ_BENCH_PROF}`] : []), "--expose-gc", CHILD, url, String(n), String(parts), queue, keyed ? KEY : ""], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out.trim().split("\n").at(-1))) : reject(new Error(`coordinator exited ${code}: ${err}`))));
  });
}

export async function benchQueueScale({ url, sizes = [1000, 10_000, 100_000], n = 14, workers = 2, keyed = true } = {}) {
  let server, dir;
  if (!url) {
    if (spawnSync("redis-server", ["--version"]).status !== 0) throw new Error("--queue-scale needs redis-server (or --queue URL)");
    const port = await freePort();
    dir = mkdtempSync(join(tmpdir(), "nqueens-queue-scale-"));
    server = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    url = `redis://127.0.0.1:${port}`;
  }
  const redis = new Redis(url, { maxRetriesPerRequest: 1, retryStrategy: () => 50 });
  redis.on("error", () => {});
  for (let i = 0; (await redis.ping().catch(() => "")) !== "PONG"; i++) {
    if (i > 200) throw new Error("redis-server did not answer");
    await new Promise((r) => setTimeout(r, 50));
  }
  const procs = Array.from({ length: workers }, () => startWorker(url, keyed));
  const rows = [];
  try {
    // The count's own time on one thread (Wasm), to take out of the queue's wall time.
    const t0 = performance.now();
    await count(n);
    const countMs = performance.now() - t0;
    // Warm-up: the workers start their threads on their first part.
    await runCoordinator(url, 10, 8, "nqueens-scale-warm", keyed);
    await removeRun("nqueens-scale-warm", { connection: url });
    for (const parts of sizes) {
      const queue = `nqueens-scale-n${n}-p${parts}`;
      await redis.config("RESETSTAT");
      const before = await info(redis);
      const workersBefore = procs.reduce((sum, p) => sum + cpuSecondsOf(p.child.pid), 0);
      const r = await runCoordinator(url, n, parts, queue, keyed);
      const workersAfter = procs.reduce((sum, p) => sum + cpuSecondsOf(p.child.pid), 0);
      const after = await info(redis);
      await removeRun(queue, { connection: url });
      if (BigInt(r.total) !== A000170[n]) throw new Error(`n = ${n}, ${parts} parts: total ${r.total}, not ${A000170[n]}`);
      const overhead = (r.ms - countMs / workers) / r.parts;
      rows.push({
        n, parts: r.parts, per_job: r.perJob, workers, keyed, wall_s: round(r.ms / 1000, 1), overhead_ms_per_part: round(overhead, 2),
        redis_cmds_per_part: round((after.calls - before.calls) / r.parts, 1), redis_bytes_per_part: round((after.memory - before.memory) / r.parts, 0),
        redis_cpu_ms_per_part: round(((after.seconds - before.seconds) * 1000) / r.parts, 3),
        coordinator_cpu_s: round(r.cpuMs / 1000, 1), coordinator_cpu_ms_per_part: round(r.cpuMs / r.parts, 3),
        // The workers' CPU less the count's own (one thread's time), per part: what a part costs a worker beyond counting it.
        worker_cpu_ms_per_part: round(((workersAfter - workersBefore) * 1000 - countMs) / r.parts, 3), coordinator_peak_rss_mb: round(r.maxRssMB, 0), coordinator_peak_heap_mb: round(r.peak.heapUsedMB, 0), coordinator_peak_external_mb: round(r.peak.externalMB, 0), coordinator_heap_bytes_per_part: round(r.heapPerPart ?? NaN, 0), end_ms: round(r.endMs, 0), audited: r.audited,
      });
      console.log(JSON.stringify(rows.at(-1)));
    }
  } finally {
    for (const p of procs) if (p.child.exitCode === null) p.child.kill("SIGTERM");
    await Promise.all(procs.map((p) => p.exited));
    redis.disconnect();
    if (server) { const exited = new Promise((r) => server.once("exit", r)); server.kill("SIGKILL"); await exited; rmSync(dir, { recursive: true, force: true }); }
  }
  const first = rows[0];
  for (const row of rows) row.overhead_vs_first = round(row.overhead_ms_per_part / first.overhead_ms_per_part, 2);
  printTable(`queue at scale: n = ${n}, ${workers} local \`nqueens worker --concurrency 1\`, one coordinator process${keyed ? ", keyed, default audit" : ", keyless"} (targets: 16,384 parts <= 3 ms/part and <= 150 MB; 10^5 within 1.5x of 10^3, <= 300 MB; 10^6 <= 0.5 ms/part, <= 250 MB)`, rows);
  return { url: url.replace(/\/\/[^@]*@/, "//***@"), rows };
}
