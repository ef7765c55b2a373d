// Counting at the frontier: single-thread count on Wasm against count.c at n = 15..17,
// countParallel with 1 worker against count on the main thread at n = 14, 15, 16 (wall and
// CPU time, the fixed cost of starting a thread, and the rate once a thread counts: is a
// worker as fast as the main thread?), and scaling: countParallel(17) with 1, 2, 4, ... up to
// the cores against count(17) on the main thread, beside the speedup the split's part times
// allow (target >= 1.8x on 2 free cores). Issue target for the kernel: wasm_ms <= c_ms / 1.5
// at n = 16 and 17. NQ_BENCH_BASELINE=path/to/earlier/dist/index.js adds an earlier build's
// countParallel, interleaved, to the worker tables.
import os from "node:os";
import { count, countParallel, countTask, splitCount } from "../dist/index.js";
import { buildRef, median, printTable, round, runBinaryBoth, time } from "./lib.mjs";

export async function benchParallel({ sizes = [15, 16, 17] } = {}) {
  const binary = buildRef("count");
  const single = [];
  for (const n of sizes) {
    const repeats = n >= 17 ? 3 : 5;
    // interleave wasm and C so load changes hit both alike
    const wasmTimes = [], cTimes = [];
    for (let i = 0; i < repeats; i++) {
      globalThis.gc?.();
      wasmTimes.push((await time(() => count(n), 1)).ms);
      if (binary) {
        const r = await runBinaryBoth(binary, [String(n)]);
        cTimes.push(Number(/time=([\d.]+)/.exec(r.stderr)[1]) * 1000);
      }
    }
    const wasmMs = median(wasmTimes), cMs = binary ? median(cTimes) : undefined;
    single.push({ n, wasm_ms: round(wasmMs, 1), c_ms: round(cMs, 1), wasm_over_c: cMs ? round(wasmMs / cMs) : undefined, c_over_wasm: cMs ? round(cMs / wasmMs, 2) : undefined });
  }
  printTable("count, one thread: wasm vs count.c (gcc -O3 -march=native), medians, interleaved (target c_over_wasm >= 1.5 at 16, 17)", single);

  const baseline = process.env.NQ_BENCH_BASELINE ? await import(process.env.NQ_BENCH_BASELINE) : undefined;
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  const load = os.loadavg()[0];
  console.log(`\n(this machine: ${cores} cores, load average ${load.toFixed(1)} at the start of this section${cores <= 2 ? "; 2 shared cores: the 2-worker figures compete with everything else on it, and the medians move by 10-20% from run to run" : ""})`);
  const oneWorker = await benchOneWorker(baseline);
  printTable("countParallel(n, { workers: 1 }) vs count(n) on the main thread: medians of interleaved runs; cpu = the process's CPU time (all threads); start_ms = until the first part is done; steady = the rest of the parts' wall time over the main thread's time for as many parts (1 = a worker counts as fast as the main thread)", oneWorker);

  const checkpoint = await benchCheckpoint({ n: 16 });
  printTable("what a keyed checkpoint costs counting n = 16 in 256 parts on 2 workers: medians of interleaved runs; mac_ms = HMAC-SHA-256 of the final checkpoint's content (canonical JSON) times the writes; mac_share = mac_ms over the count (target < 1%); with_over_without = the whole checkpoint (MACs, writes, fsync, bounds) over none", [checkpoint]);

  const scaling = await benchScaling({ n: 17, baseline });
  return { c_available: Boolean(binary), cores, load, single, one_worker: oneWorker, checkpoint, scaling };
}

/** JSON with object keys sorted, bigints as digits and n (as src/core/key.ts canonicalJson does for a checkpoint's content). */
function canonical(value) {
  if (typeof value === "bigint") return `${value}n`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value).sort().filter((k) => value[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

/**
 * The cost of keyed checkpoints: countParallel(n, { workers: 2, parts: 256 }) with and without
 * a checkpoint (interleaved pairs, medians), and the MACs alone: one HMAC of the final content
 * (as the write of the last save computes it, the largest) times the number of writes (one a
 * second at most, and the last), so an upper bound of what the MACs take.
 */
export async function benchCheckpoint({ n = 16, pairs = 3 } = {}) {
  const { mkdtempSync, readFileSync, rmSync } = await import("node:fs");
  const { createHmac } = await import("node:crypto");
  const { join } = await import("node:path");
  const dir = mkdtempSync(join(os.tmpdir(), "nq-bench-checkpoint-"));
  const key = "bench-key";
  const without = [], withCheckpoint = [];
  let content;
  try {
    for (let i = 0; i < pairs; i++) {
      globalThis.gc?.();
      without.push((await time(() => countParallel(n, { workers: 2, parts: 256 }), 1)).ms);
      const path = join(dir, `c${i}.json`);
      globalThis.gc?.();
      withCheckpoint.push((await time(() => countParallel(n, { workers: 2, parts: 256, checkpoint: path, key }), 1)).ms);
      content = JSON.parse(readFileSync(path, "utf8"));
    }
    delete content.mac;
    const macTimes = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      createHmac("sha256", key).update(`nqueens-checkpoint-v1\0${canonical(content)}`).digest("hex");
      macTimes.push(performance.now() - t0);
    }
    const countMs = median(withCheckpoint);
    const writes = Math.ceil(countMs / 1000) + 1;
    const macMs = median(macTimes) * writes;
    return {
      n, parts: 256, workers: 2, without_ms: round(median(without), 0), with_ms: round(countMs, 0),
      with_over_without: round(countMs / median(without), 3), mac_one_ms: round(median(macTimes), 3), writes,
      mac_ms: round(macMs, 2), mac_share: `${round((100 * macMs) / countMs, 3)}%`, load: round(os.loadavg()[0], 1),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 1, 2, 4, ... up to the cores: the worker counts a scaling table tries. */
export function workerSteps(cores) {
  const steps = [];
  for (let w = 1; w < cores; w *= 2) steps.push(w);
  steps.push(cores);
  return steps;
}

/**
 * The best speedup `workers` threads can get from these part times when the parts are dealt
 * in order to whichever thread is free first (as the pool deals them): sum over span.
 */
export function scheduleBound(partMs, workers) {
  const free = new Array(workers).fill(0);
  for (const t of partMs) {
    let i = 0;
    for (let j = 1; j < workers; j++) if (free[j] < free[i]) i = j;
    free[i] += t;
  }
  return partMs.reduce((a, b) => a + b, 0) / Math.max(...free);
}

/**
 * Does the pool scale? countParallel(n) with 1, 2, 4, ... up to the cores, against count(n) on
 * the main thread (speedup, and efficiency = speedup / workers), beside the schedule bound: the
 * speedup the split's own part times allow (each part timed on the main thread with countTask,
 * dealt in order). What falls short of the bound is the pool's or the machine's (shared cores,
 * SMT siblings, a lower clock with every core busy), not the split's.
 */
export async function benchScaling({ n = 17, steps, repeats = 1, baseline } = {}) {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  steps ??= workerSteps(cores);
  const parts = splitCount(n);
  const partMs = [];
  for (const part of parts) {
    const t0 = performance.now();
    countTask(part);
    partMs.push(performance.now() - t0);
  }
  const main = [];
  let total;
  for (let i = 0; i < repeats; i++) main.push((await measure(async () => (total = (await count(n)).total))).wall);
  const checked = async (run) => {
    const result = await run();
    if (result.total !== total) throw new Error(`countParallel(${n}) gave ${result.total}, count(${n}) ${total}`);
  };
  const mainMs = median(main);
  const rows = [];
  for (const workers of steps) {
    const wall = [], before = [];
    for (let i = 0; i < repeats; i++) {
      wall.push((await measure(() => checked(() => countParallel(n, { workers })))).wall);
      if (baseline) before.push((await measure(() => checked(() => baseline.countParallel(n, { workers })))).wall);
    }
    const ms = median(wall);
    const row = {
      n, workers, ms: round(ms, 0), speedup: round(mainMs / ms, 2), efficiency: round(mainMs / ms / workers, 2),
      schedule_bound: round(scheduleBound(partMs, workers), 2),
    };
    if (baseline) Object.assign(row, { before_ms: round(median(before), 0), before_speedup: round(mainMs / median(before), 2) });
    rows.push(row);
  }
  const sum = partMs.reduce((a, b) => a + b, 0);
  printTable(
    `countParallel(${n}) scaling: speedup over count(${n}) on the main thread (${round(mainMs, 0)} ms; its ${parts.length} parts one by one: ${round(sum, 0)} ms, ${round(Math.min(...partMs), 1)} to ${round(Math.max(...partMs), 1)} ms a part); schedule_bound = what the part times allow; ${cores} cores${cores <= 2 ? ", shared: the figures above 1 worker say little" : ""}`,
    rows,
  );
  return { n, total: String(total), cores, main_ms: round(mainMs, 0), parts: parts.length, part_ms_sum: round(sum, 0), rows };
}

/** Wall and CPU time (ms) of one awaited run; CPU is the whole process's (every thread). */
async function measure(fn) {
  globalThis.gc?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** One worker against the main thread, interleaved; with a baseline build, its countParallel too. */
async function benchOneWorker(baseline, sizes = [14, 15, 16]) {
  await count(10);
  await countParallel(10, { workers: 1 }); // (the loader and the embedded worker read once)
  if (baseline) await baseline.countParallel(10, { workers: 1 });
  const rows = [];
  for (const n of sizes) {
    const repeats = n >= 16 ? 3 : 7;
    const main = [], worker = [], before = [];
    let parts = 0;
    for (let i = 0; i < repeats; i++) {
      main.push(await measure(() => count(n)));
      let first = 0, last = 0, t0 = 0;
      const run = await measure(() => {
        t0 = performance.now();
        return countParallel(n, {
          workers: 1, progressIntervalMs: 0,
          onProgress: (p) => { const t = performance.now() - t0; if (p.tasksDone === 1) first = t; last = t; parts = p.tasksTotal; },
        });
      });
      worker.push({ ...run, first, rest: last - first });
      if (baseline) before.push(await measure(() => baseline.countParallel(n, { workers: 1 })));
    }
    const m = (list, key) => median(list.map((r) => r[key]));
    const mainWall = m(main, "wall"), mainCpu = m(main, "cpu");
    const row = {
      n, parts, main_ms: round(mainWall, 0), main_cpu_ms: round(mainCpu, 0),
      worker_ms: round(m(worker, "wall"), 0), worker_cpu_ms: round(m(worker, "cpu"), 0),
      wall_ratio: round(m(worker, "wall") / mainWall, 2), cpu_ratio: round(m(worker, "cpu") / mainCpu, 2),
      start_ms: round(m(worker, "first"), 0), steady: round(m(worker, "rest") / (mainWall * (parts - 1) / parts), 2),
    };
    if (baseline) Object.assign(row, { before_ms: round(m(before, "wall"), 0), before_cpu_ms: round(m(before, "cpu"), 0), before_wall_ratio: round(m(before, "wall") / mainWall, 2), before_cpu_ratio: round(m(before, "cpu") / mainCpu, 2) });
    rows.push(row);
  }
  return rows;
}
