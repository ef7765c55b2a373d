// One job in a fresh process, timed from the call to its answer:
//   node bench/child-job.mjs solve N METHOD SEED | count N | lv-stats N STOPVEGAS TRIALS
// prints one JSON line { ms, cpuMs, check }: check is the solution's nodes/tries/steps, or the
// count, so two builds can be checked to give the same answer. The time of a fresh
// process's first job includes compiling the Wasm module and making its first instance.
// NQ_BENCH_DIST=/path/to/dist/index.js runs another build (an earlier one, to compare);
// NQ_BENCH_WARM=1 makes the same job once first and times only the second.
import { performance } from "node:perf_hooks";

const { count, lasVegasStats, solve } = await import(process.env.NQ_BENCH_DIST ?? "../dist/index.js");
const [job, n, method, seed] = process.argv.slice(2);
const run = job === "count"
  ? () => count(Number(n), { engine: "wasm" })
  : job === "lv-stats"
    ? () => lasVegasStats(Number(n), { stopVegas: Number(method), trials: Number(seed), seed: 1, engine: "wasm" })
    : () => solve(Number(n), { method, engine: "wasm", seed: seed === undefined ? undefined : Number(seed) });
if (process.env.NQ_BENCH_WARM) await run();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const result = await run();
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000; // CPU time of the whole process (all threads): less hurt by a loaded machine
const check = job === "count" ? String(result.total)
  : job === "lv-stats" ? `${result.p} ${result.t}` : `${result.found} ${result.nodes} ${result.tries} ${result.steps}`;
console.log(JSON.stringify({ ms, cpuMs, check }));
