// solve(): the comparison (text 2 of docs/references.md) of backtracking and Las Vegas, min-conflicts
// against ../shared/refs/minconf.c, and the explicit construction against
// ../shared/refs/construct.c, each measured in the same run.
import { execFileSync, spawnSync } from "node:child_process";
import { solve } from "../dist/index.js";
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { REFS, buildRef, median, printTable, round } from "./lib.mjs";

const CHILD = new URL("./child-solve.mjs", import.meta.url).pathname;

/** Seed 001: median ms per solution over many seeds (a run counts only if it finishes within the cap). */
export async function benchLasVegas({ sizes = [8, 20, 30, 50, 100, 1000], capMs = 3000 } = {}) {
  const rows = [];
  for (const n of sizes) {
    const row = { n };
    for (const method of ["backtrack", "las-vegas", "hybrid"]) {
      const seeds = method === "backtrack" ? [1, 1, 1] : Array.from({ length: n >= 1000 ? 5 : 21 }, (_, i) => i + 1);
      const times = [];
      let finished = 0;
      for (const seed of seeds) {
        const r = await solve(n, { method, seed: method === "backtrack" ? undefined : seed, timeoutMs: capMs });
        if (r.found) {
          finished++;
          times.push(r.ms);
        } else if (method === "backtrack") break; // deterministic: no point in repeating
      }
      row[`${method}_ms`] = finished === seeds.length ? round(median(times), 3) : undefined;
    }
    row.backtrack_over_las_vegas = row.backtrack_ms && row["las-vegas_ms"] ? round(row.backtrack_ms / row["las-vegas_ms"], 1) : undefined;
    row.backtrack_over_hybrid = row.backtrack_ms && row.hybrid_ms ? round(row.backtrack_ms / row.hybrid_ms, 1) : undefined;
    rows.push(row);
  }
  printTable(`las-vegas (text 2 of docs/references.md): median ms per solution on wasm ('-': not every run finished within ${capMs} ms); ratios = backtrack / random`, rows);
  return { capMs, rows };
}

function child(n, method, engine, seed, dist, warm = false) {
  const env = { ...process.env, ...(dist ? { NQ_BENCH_DIST: dist } : {}), ...(warm ? { NQ_BENCH_WARM: "1" } : {}) };
  const out = execFileSync(process.execPath, [CHILD, String(n), method, engine, String(seed)], { encoding: "utf8", env });
  const r = JSON.parse(out);
  if (!r.verified) throw new Error(`${method} ${engine} n=${n} seed=${seed}${dist ? ` (${dist})` : ""}${warm ? " (warm)" : ""}: not a verified solution`);
  return r;
}

function runC(binary, args, pattern) {
  const r = spawnSync("/usr/bin/time", ["-f", "maxrss=%M cpu=%U+%S", binary, ...args], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${binary} ${args.join(" ")} failed: ${r.stderr}`);
  const match = pattern.exec(r.stdout);
  const rss = /maxrss=(\d+)/.exec(r.stderr);
  const cpu = /cpu=([\d.]+)\+([\d.]+)/.exec(r.stderr); // the whole process: allocation, solve and its check
  return { ms: Number(match[1]) * 1000, maxRssMB: rss ? Math.round(Number(rss[1]) / 1024) : undefined, processCpuMs: cpu ? (Number(cpu[1]) + Number(cpu[2])) * 1000 : undefined };
}

/**
 * minconf.c built with -DPF_DIST=16: its greedy phase software-prefetches the partners'
 * columns and their diagonal counters (the yardstick's fastest build). undefined without gcc.
 */
function buildMinconfPrefetch() {
  if (!buildRef("minconf")) return undefined; // no gcc, or no refs/minconf.c
  const binary = join(mkdtempSync(join(tmpdir(), "nqueens-bench-pf-")), "minconf_pf");
  execFileSync("gcc", ["-O3", "-march=native", "-DPF_DIST=16", "-o", binary, join(REFS, "minconf.c")]);
  return binary;
}

/**
 * min-conflicts on both engines and minconf.c, plain and with -DPF_DIST=16 (c_pf); targets:
 * wasm/C <= 1.3 at 10^7, wasm/C_pf <= 1.5 at 10^7, ts/wasm <= 2.5.
 * Each run is a fresh process, as a command line is: its time includes compiling the
 * kernels and mapping fresh memory. wasm_warm (n <= 10^6) is the second solve of a process
 * (the first with another seed): what a page or a server that solves again meets. Above
 * 10^6 no instance is pooled (its memory is over 16 MB) and compiling is a small share.
 * Each seed's runs (every variant, the C) are made one after the other before the next
 * seed's, so load from other processes falls on all of them alike.
 * NQ_BENCH_BASELINE=/path/to/dist/index.js adds the same runs of an earlier build, and
 * checks that it finds the same solution (tries, steps) for each (n, seed).
 */
export async function benchMinConflicts({ sizes = [1e5, 1e6, 1e7], big = false, seeds = [1, 2, 3, 4, 5], baseline = process.env.NQ_BENCH_BASELINE } = {}) {
  const binary = buildRef("minconf");
  const prefetching = binary ? buildMinconfPrefetch() : undefined;
  const loadBefore = loadavg().map((x) => round(x, 2)); // the machine's load (1, 5, 15 min), saved with the rows
  const rows = [];
  const beforeRows = [];
  for (const n of big ? [...sizes, 1e8] : sizes) {
    const variants = { wasm: ["wasm", false], ...(n <= 1e6 ? { wasm_warm: ["wasm", true] } : {}), ...(n >= 1e8 ? {} : { ts: ["ts", false] }) };
    const runs = { c: [], c_pf: [] };
    for (const name in variants) runs[name] = [];
    for (const name in variants) runs[`before_${name}`] = [];
    for (const seed of seeds) {
      for (const [name, [engine, warm]] of Object.entries(variants)) {
        const after = child(n, "min-conflicts", engine, seed, undefined, warm);
        runs[name].push(after);
        if (!baseline) continue;
        const before = child(n, "min-conflicts", engine, seed, baseline, warm);
        if (before.tries !== after.tries || before.steps !== after.steps) {
          throw new Error(`min-conflicts ${name} n=${n} seed=${seed}: ${baseline} took ${before.tries} tries and ${before.steps} steps, this build ${after.tries} and ${after.steps}`);
        }
        runs[`before_${name}`].push(before);
      }
      if (binary) runs.c.push(runC(binary, [String(n), String(seed)], /solve_total=([\d.]+)s/));
      if (prefetching) runs.c_pf.push(runC(prefetching, [String(n), String(seed)], /solve_total=([\d.]+)s/));
    }
    const ms = (list) => round(median(list.map((r) => r.ms)), 1);
    const rss = (list) => Math.max(...list.map((r) => r.maxRssMB ?? 0));
    const row = { n };
    for (const name in variants) {
      row[`${name}_ms`] = ms(runs[name]);
      if (name === "wasm") {
        row.wasm_cpu_ms = round(median(runs.wasm.map((r) => r.cpuMs)), 1); // CPU of the solve: a loaded machine inflates it less
        row.wasm_process_cpu_ms = round(median(runs.wasm.map((r) => r.processCpuMs)), 1); // the whole process, its check included
      }
      if (name !== "wasm_warm") row[`${name}_rss_MB`] = rss(runs[name]);
    }
    if (binary) {
      row.c_ms = ms(runs.c);
      row.c_rss_MB = rss(runs.c);
      row.wasm_over_c = round(row.wasm_ms / row.c_ms);
      if (row.wasm_warm_ms) row.wasm_warm_over_c = round(row.wasm_warm_ms / row.c_ms);
    }
    if (prefetching) {
      row.c_pf_ms = ms(runs.c_pf);
      row.c_pf_rss_MB = rss(runs.c_pf);
      row.wasm_over_c_pf = round(row.wasm_ms / row.c_pf_ms);
      // Whole processes by CPU time: each solves and checks its board (the C with bitsets, ours on the TS engine).
      row.c_pf_process_cpu_ms = round(median(runs.c_pf.map((r) => r.processCpuMs)), 1);
      row.wasm_over_c_pf_process_cpu = round(row.wasm_process_cpu_ms / row.c_pf_process_cpu_ms);
    }
    row.ts_over_wasm = row.ts_ms ? round(row.ts_ms / row.wasm_ms) : undefined;
    rows.push(row);
    if (baseline) {
      const before = { n };
      for (const name in variants) {
        before[`before_${name}_ms`] = ms(runs[`before_${name}`]);
        before[`${name}_ms`] = row[`${name}_ms`];
        before[`${name}_speedup`] = round(before[`before_${name}_ms`] / row[`${name}_ms`], 2);
      }
      // By CPU time too (a loaded machine inflates wall times most): the solve's, and the whole process's.
      const cpu = (list, key) => round(median(list.map((r) => r[key])), 1);
      before.before_wasm_cpu_ms = cpu(runs.before_wasm, "cpuMs");
      before.wasm_cpu_ms = row.wasm_cpu_ms;
      if (runs.before_wasm.every((r) => r.processCpuMs !== undefined)) {
        before.before_wasm_process_cpu_ms = cpu(runs.before_wasm, "processCpuMs");
        before.wasm_process_cpu_ms = row.wasm_process_cpu_ms;
        before.before_wasm_rss_MB = rss(runs.before_wasm);
      }
      if (binary) {
        before.before_wasm_over_c = round(before.before_wasm_ms / row.c_ms);
        before.wasm_over_c = row.wasm_over_c;
      }
      beforeRows.push(before);
    }
  }
  printTable(
    `min-conflicts: median ms over seeds ${seeds.join(", ")}; each run in its own process (rss = its peak resident MB), ` +
      "wasm_warm = the second solve of a process",
    rows,
  );
  if (baseline) printTable(`min-conflicts: this build vs ${baseline}, same runs interleaved`, beforeRows);
  const load = { before: loadBefore, after: loadavg().map((x) => round(x, 2)) };
  console.log(`load average (1, 5, 15 min): ${load.before.join(", ")} before, ${load.after.join(", ")} after`);
  return { c_available: Boolean(binary), c_pf_available: Boolean(prefetching), seeds, load, rows, ...(baseline ? { baseline, before: beforeRows } : {}) };
}

const FILL = new URL("./child-fill.mjs", import.meta.url).pathname;

function childConstruct(n, engine, dist) {
  const env = dist ? { ...process.env, NQ_BENCH_DIST: dist } : process.env;
  const out = execFileSync(process.execPath, [CHILD, String(n), "construct", engine, "0"], { encoding: "utf8", env });
  const r = JSON.parse(out);
  if (!r.verified) throw new Error(`construct ${engine} n=${n}${dist ? ` (${dist})` : ""}: not a verified solution`);
  return r;
}

/** construct.c: its write time, and that plus making its array's pages resident (as a fresh JS array must). */
function runConstructC(binary, n) {
  const r = spawnSync("/usr/bin/time", ["-f", "maxrss=%M", binary, String(n)], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${binary} ${n} failed: ${r.stderr}`);
  const touch = Number(/alloc\+touch=([\d.]+)s/.exec(r.stdout)[1]) * 1000;
  const write = Number(/write=([\d.]+)s/.exec(r.stdout)[1]) * 1000;
  return { write, touchWrite: touch + write };
}

/**
 * The explicit construction: solve() on both engines (each run in a fresh process:
 * time, peak RSS), against construct.c's write time and its allocate + touch + write
 * time, and against the floor for any JS result (a fresh Int32Array(n) filled once).
 * The runs of all variants are interleaved, repeat by repeat, so load from other
 * processes falls on all of them alike. NQ_BENCH_BASELINE=/path/to/dist/index.js
 * adds the same runs of an earlier build (before/after in one run).
 */
export async function benchConstruct({ sizes = [1e7, 1e8], repeats = 5, baseline = process.env.NQ_BENCH_BASELINE } = {}) {
  const binary = buildRef("construct");
  const rows = [];
  const beforeRows = [];
  for (const n of sizes) {
    const runs = { wasm: [], ts: [], before_wasm: [], before_ts: [], fill: [], c: [] };
    for (let i = 0; i < repeats; i++) {
      for (const engine of ["wasm", "ts"]) {
        runs[engine].push(childConstruct(n, engine));
        if (baseline) runs[`before_${engine}`].push(childConstruct(n, engine, baseline));
      }
      runs.fill.push(JSON.parse(execFileSync(process.execPath, [FILL, String(n)], { encoding: "utf8" })));
      if (binary) runs.c.push(runConstructC(binary, n));
    }
    const ms = (list) => round(median(list.map((r) => r.ms)), 1);
    const rss = (list) => Math.max(...list.map((r) => r.maxRssMB));
    const row = { n, wasm_ms: ms(runs.wasm), ts_ms: ms(runs.ts), wasm_rss_MB: rss(runs.wasm), ts_rss_MB: rss(runs.ts) };
    row.js_fill_ms = ms(runs.fill);
    if (binary) {
      row.c_write_ms = round(median(runs.c.map((r) => r.write)), 1);
      row.c_touch_write_ms = round(median(runs.c.map((r) => r.touchWrite)), 1);
      // construct.c prints milliseconds: its write time reads 0 below n = 10^7 or so.
      row.wasm_over_c_write = row.c_write_ms > 0 ? round(row.wasm_ms / row.c_write_ms, 1) : undefined;
      row.wasm_over_c_touch_write = round(row.wasm_ms / row.c_touch_write_ms, 2);
    }
    row.wasm_over_js_fill = round(row.wasm_ms / row.js_fill_ms, 2);
    row.ts_over_wasm = round(row.ts_ms / row.wasm_ms, 2);
    rows.push(row);
    if (baseline) {
      const before = { n, before_wasm_ms: ms(runs.before_wasm), wasm_ms: row.wasm_ms, before_ts_ms: ms(runs.before_ts), ts_ms: row.ts_ms };
      before.wasm_speedup = round(before.before_wasm_ms / row.wasm_ms, 2);
      before.ts_speedup = round(before.before_ts_ms / row.ts_ms, 2);
      before.before_wasm_rss_MB = rss(runs.before_wasm);
      before.wasm_rss_MB = row.wasm_rss_MB;
      before.before_ts_rss_MB = rss(runs.before_ts);
      before.ts_rss_MB = row.ts_rss_MB;
      if (row.c_write_ms > 0) before.before_wasm_over_c_write = round(before.before_wasm_ms / row.c_write_ms, 1);
      beforeRows.push(before);
    }
  }
  printTable(
    `construct: median ms of solve() over ${repeats} runs, each in its own process (rss = its peak resident MB), ` +
      "vs construct.c's write time and its allocate+touch+write time, and vs filling a fresh Int32Array(n) in JS",
    rows,
  );
  if (baseline) printTable(`construct: this build vs ${baseline}, same runs interleaved`, beforeRows);
  return { c_available: Boolean(binary), repeats, rows, ...(baseline ? { baseline, before: beforeRows } : {}) };
}

/**
 * The loader's cost: solve(8), count(10) and min-conflicts at n = 10^5 on
 * wasm, this build against NQ_BENCH_BASELINE (an earlier dist/index.js), interleaved
 * run by run so that load from other processes falls on both alike. 'cold': a fresh
 * process's first job (compiling the module and instantiating included); 'warm': the
 * second job of a process (a pooled instance). Target: after/before <= 1.05. Also the
 * hybrid's try loop (shared with lasVegasStats) in a solve and in lv-stats.
 */
export async function benchLoader({ rounds = 15, baseline = process.env.NQ_BENCH_BASELINE } = {}) {
  if (!baseline) throw new Error("the loader section compares two builds: set NQ_BENCH_BASELINE=/path/to/earlier/dist/index.js");
  const script = new URL("./child-job.mjs", import.meta.url).pathname;
  const jobs = {
    "solve(8)": ["solve", "8", "auto", "1"],
    "count(10)": ["count", "10"],
    "min-conflicts 1e5": ["solve", "100000", "min-conflicts", "1"],
    // The hybrid's try loop, now shared with lasVegasStats: its speed in both.
    "las-vegas n=100 (929 tries)": ["solve", "100", "las-vegas", "1"],
    "lv-stats 20, 20000 tries": ["lv-stats", "20", "10", "20000"],
  };
  const rows = [];
  for (const [name, args] of Object.entries(jobs)) {
    for (const warm of [false, true]) {
      const times = { before: [], after: [] };
      const cpu = { before: [], after: [] };
      for (let i = 0; i < rounds; i++) {
        // Alternate which build goes first, so neither always meets a warmer machine.
        const order = i % 2 ? ["before", "after"] : ["after", "before"];
        const checks = {};
        for (const which of order) {
          const env = { ...process.env, ...(which === "before" ? { NQ_BENCH_DIST: baseline } : {}), ...(warm ? { NQ_BENCH_WARM: "1" } : {}) };
          const r = JSON.parse(execFileSync(process.execPath, [script, ...args], { encoding: "utf8", env }));
          times[which].push(r.ms);
          cpu[which].push(r.cpuMs);
          checks[which] = r.check;
        }
        if (checks.before !== checks.after) throw new Error(`${name}: the builds disagree (${checks.before} / ${checks.after})`);
      }
      const before = median(times.before), after = median(times.after);
      // The fastest runs too: on a loaded machine they show the build's own cost best.
      const beforeMin = Math.min(...times.before), afterMin = Math.min(...times.after);
      rows.push({
        job: name, start: warm ? "warm" : "cold", before_ms: round(before, 3), after_ms: round(after, 3), after_over_before: round(after / before, 3),
        before_min_ms: round(beforeMin, 3), after_min_ms: round(afterMin, 3), min_ratio: round(afterMin / beforeMin, 3),
        before_cpu_ms: round(median(cpu.before), 3), after_cpu_ms: round(median(cpu.after), 3), cpu_ratio: round(median(cpu.after) / median(cpu.before), 3),
      });
    }
  }
  printTable(`the loader's cost: median and least wall ms, median CPU ms, over ${rounds} interleaved fresh processes per row (target after/before <= 1.05)`, rows);
  return { rounds, baseline, rows };
}
