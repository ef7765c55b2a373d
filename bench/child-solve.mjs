// One solve in a fresh process, so its peak memory is its own:
//   node bench/child-solve.mjs N METHOD ENGINE SEED
// prints one JSON line { ms, cpuMs, found, nodes, tries, steps, verified, verifyCpuMs, processCpuMs,
// maxRssMB } (cpuMs: the process's CPU time during the solve, which a loaded machine inflates
// less than ms; verifyCpuMs: the check's, verify() on its default engine; processCpuMs: the whole process's,
// every thread, from its start to the end of the check, as /usr/bin/time counts the C's).
// NQ_BENCH_DIST=/path/to/dist/index.js runs another build (an earlier one, to compare).
// NQ_BENCH_WARM=1 first solves the same n with another seed and times only the second
// solve: code compiled and optimised, a pooled Wasm instance's memory already mapped.
const { solve, verify } = await import(process.env.NQ_BENCH_DIST ?? "../dist/index.js");

const [n, method, engine, seed] = process.argv.slice(2);
if (process.env.NQ_BENCH_WARM) await solve(Number(n), { method, engine, seed: Number(seed) + 1000, timeoutMs: 600_000 });
const cpu0 = process.cpuUsage();
const result = await solve(Number(n), { method, engine, seed: Number(seed), timeoutMs: 600_000 });
const cpu = process.cpuUsage(cpu0);
const verified = result.found ? verify(result.columns).ok : false; // on the default engine, wasm
const verifyCpu = process.cpuUsage(cpu0), whole = process.cpuUsage();
console.log(JSON.stringify({
  ms: result.ms,
  cpuMs: (cpu.user + cpu.system) / 1000,
  found: result.found,
  nodes: result.nodes,
  tries: result.tries,
  steps: result.steps,
  verified,
  verifyCpuMs: (verifyCpu.user + verifyCpu.system - cpu.user - cpu.system) / 1000,
  processCpuMs: (whole.user + whole.system) / 1000,
  maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
}));
