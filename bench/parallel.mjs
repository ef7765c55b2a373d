// Counting at the frontier: single-thread count on Wasm against count.c at n = 15..17,
// countParallel with 1 worker against count on the main thread at n = 14, 15, 16 (wall and
// CPU time, the fixed cost of starting a thread, and the rate once a thread counts: is a
// worker as fast as the main thread?), and 1 vs 2 workers at n = 16 and 17 (speedup;
// target >= 1.8x on 2 free cores). Issue target for the kernel: wasm_ms <= c_ms / 1.5 at
// n = 16 and 17. NQ_BENCH_BASELINE=path/to/earlier/dist/index.js adds an earlier build's
// countParallel, interleaved, to the worker tables.
import os from "node:os";
import { count, countParallel } from "../dist/index.js";
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

  const parallel = [];
  for (const n of [16, 17]) {
    const repeats = n >= 17 ? 1 : 3;
    const one = [], two = [], oneBase = [], twoBase = [];
    for (let i = 0; i < repeats; i++) {
      one.push((await measure(() => countParallel(n, { workers: 1 }))).wall);
      two.push((await measure(() => countParallel(n, { workers: 2 }))).wall);
      if (baseline) {
        oneBase.push((await measure(() => baseline.countParallel(n, { workers: 1 }))).wall);
        twoBase.push((await measure(() => baseline.countParallel(n, { workers: 2 }))).wall);
      }
    }
    const row = { n, one_worker_ms: round(median(one), 0), two_workers_ms: round(median(two), 0), speedup: round(median(one) / median(two), 2) };
    if (baseline) Object.assign(row, { before_one_ms: round(median(oneBase), 0), before_two_ms: round(median(twoBase), 0), before_speedup: round(median(oneBase) / median(twoBase), 2) });
    parallel.push(row);
  }
  printTable(`countParallel: 1 vs 2 workers (target speedup >= 1.8 on 2 free cores; this machine: ${cores} cores${cores <= 2 ? ", shared" : ""})`, parallel);
  return { c_available: Boolean(binary), cores, load, single, one_worker: oneWorker, parallel };
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
