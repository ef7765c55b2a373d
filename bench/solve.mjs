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

/** The explicit construction on both engines and construct.c (its write time). */
export async function benchConstruct({ sizes = [1e7, 1e8] } = {}) {
  const binary = buildRef("construct");
  const rows = [];
  for (const n of sizes) {
    const row = { n };
    for (const engine of ["wasm", "ts"]) {
      const runs = [1, 2, 3].map(() => child(n, "construct", engine, 0));
      row[`${engine}_ms`] = round(median(runs.map((r) => r.ms)), 1);
      row[`${engine}_rss_MB`] = Math.max(...runs.map((r) => r.maxRssMB));
    }
    if (binary) {
      const runs = [1, 2, 3].map(() => runC(binary, [String(n)], /write=([\d.]+)s/));
      row.c_write_ms = round(median(runs.map((r) => r.ms)), 1);
    }
    row.wasm_over_c = row.c_write_ms ? round(row.wasm_ms / row.c_write_ms, 1) : undefined;
    rows.push(row);
  }
  printTable("construct: median ms of solve() (includes copying the columns out) vs construct.c's write time", rows);
  return { c_available: Boolean(binary), rows };
}
