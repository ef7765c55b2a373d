// solve(): seed 001's comparison of backtracking and Las Vegas, min-conflicts
// against ../shared/refs/minconf.c, and the explicit construction against
// ../shared/refs/construct.c, each measured in the same run.
import { execFileSync, spawnSync } from "node:child_process";
import { solve } from "../dist/index.js";
import { buildRef, median, printTable, round } from "./lib.mjs";

const CHILD = new URL("./child-solve.mjs", import.meta.url).pathname;

/** Seed 001: median ms per solution over many seeds (a run counts only if it finishes within the cap). */
export async function benchSeed001({ sizes = [8, 20, 30, 50, 100, 1000], capMs = 3000 } = {}) {
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
  printTable(`seed 001: median ms per solution on wasm ('-': not every run finished within ${capMs} ms); ratios = backtrack / random`, rows);
  return { capMs, rows };
}

function child(n, method, engine, seed) {
  const out = execFileSync(process.execPath, [CHILD, String(n), method, engine, String(seed)], { encoding: "utf8" });
  const r = JSON.parse(out);
  if (!r.verified) throw new Error(`${method} ${engine} n=${n} seed=${seed}: not a verified solution`);
  return r;
}

function runC(binary, args, pattern) {
  const r = spawnSync("/usr/bin/time", ["-f", "maxrss=%M", binary, ...args], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${binary} ${args.join(" ")} failed: ${r.stderr}`);
  const match = pattern.exec(r.stdout);
  const rss = /maxrss=(\d+)/.exec(r.stderr);
  return { ms: Number(match[1]) * 1000, maxRssMB: rss ? Math.round(Number(rss[1]) / 1024) : undefined };
}

/** min-conflicts on both engines and minconf.c; targets: wasm/C <= 1.3 at 10^7, ts/wasm <= 2.5. */
export async function benchMinConflicts({ sizes = [1e5, 1e6, 1e7], big = false } = {}) {
  const binary = buildRef("minconf");
  const seeds = [1, 2, 3];
  const rows = [];
  for (const n of big ? [...sizes, 1e8] : sizes) {
    const engines = n >= 1e8 ? ["wasm"] : ["wasm", "ts"];
    const row = { n };
    for (const engine of engines) {
      const runs = seeds.map((seed) => child(n, "min-conflicts", engine, seed));
      row[`${engine}_ms`] = round(median(runs.map((r) => r.ms)), 1);
      row[`${engine}_rss_MB`] = Math.max(...runs.map((r) => r.maxRssMB));
    }
    if (binary) {
      const runs = seeds.map((seed) => runC(binary, [String(n), String(seed)], /solve_total=([\d.]+)s/));
      row.c_ms = round(median(runs.map((r) => r.ms)), 1);
      row.c_rss_MB = Math.max(...runs.map((r) => r.maxRssMB ?? 0));
    }
    row.wasm_over_c = row.c_ms ? round(row.wasm_ms / row.c_ms) : undefined;
    row.ts_over_wasm = row.ts_ms ? round(row.ts_ms / row.wasm_ms) : undefined;
    rows.push(row);
  }
  printTable("min-conflicts: median ms over seeds 1-3 (each run in its own process; rss = peak resident MB of that process)", rows);
  return { c_available: Boolean(binary), rows };
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
