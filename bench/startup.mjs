// What a fresh `nqueens` process costs before and around its first answer: whole-process CPU
// time (user + system, every thread) of `node dist/cli.cjs solve 8` (the bin; a board this small
// runs on the TS engine by default), `solve 8 --engine wasm` (the Wasm kernels' start: their
// compile and instance), `count 10` and `--version` against a bare `node -e 0`, each a fresh
// process, the runs interleaved (one of each in turn, `repeats` times), medians. The CPU time
// is read in the child itself, at its exit, by a preloaded reporter (process.resourceUsage), the
// same in every run and in the bare one, so it cancels out of the difference; wall time on a
// shared machine says less.
// `NQUEENS_CODE_CACHE=0` runs the same build without its code cache (a first run, or a cache
// directory that cannot be written); NQ_BENCH_BASELINE_CLI=/path/to/other/dist/cli.js adds an
// earlier build, interleaved too. The load average before and after is saved with the rows.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { median, printTable } from "./lib.mjs";

/** The `nqueens` bin (package.json), a CommonJS launcher; `node dist/cli.js` (an ES module that requires it) is timed too. */
const CLI = new URL("../dist/cli.cjs", import.meta.url).pathname;
const CLI_ESM = new URL("../dist/cli.js", import.meta.url).pathname;
const CASES = [["solve", "8"], ["solve", "8", "--engine", "wasm"], ["count", "10"], ["--version"]];

/** Runs node with `args` under the reporter; the child's CPU time in ms, and its exit status. */
function cpuOf(reporter, out, args, env = {}) {
  const r = spawnSync(process.execPath, ["-r", reporter, ...args], { stdio: "ignore", env: { ...process.env, ...env, NQ_BENCH_CPU_OUT: out } });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited with ${r.status ?? r.signal}`);
  return Number(readFileSync(out, "utf8")) / 1000;
}

export async function benchStartup({ repeats = Number(process.env.NQ_BENCH_STARTUP_REPEATS ?? 30) } = {}) {
  const dir = mkdtempSync(join(os.tmpdir(), "nqueens-startup-"));
  const reporter = join(dir, "reporter.cjs");
  writeFileSync(reporter, `process.on("exit", () => { const u = process.resourceUsage(); require("node:fs").writeFileSync(process.env.NQ_BENCH_CPU_OUT, String(u.userCPUTime + u.systemCPUTime)); });\n`);
  const out = join(dir, "cpu");
  const baseline = process.env.NQ_BENCH_BASELINE_CLI;
  const variants = [
    { name: "node -e 0", args: ["-e", "0"] },
    ...CASES.map((c) => ({ name: c.join(" "), args: [CLI, ...c] })),
    { name: "solve 8 (no code cache)", args: [CLI, "solve", "8"], env: { NQUEENS_CODE_CACHE: "0" } },
    { name: "node dist/cli.js solve 8", args: [CLI_ESM, "solve", "8"] },
    ...(baseline ? CASES.map((c) => ({ name: `baseline ${c.join(" ")}`, args: [baseline, ...c] })) : []),
  ];
  const loadBefore = os.loadavg();
  for (const v of variants) cpuOf(reporter, out, v.args, v.env); // a first run each: writes the code cache, warms the disk cache
  const samples = variants.map(() => []);
  for (let i = 0; i < repeats; i++) variants.forEach((v, k) => samples[k].push(cpuOf(reporter, out, v.args, v.env)));
  const loadAfter = os.loadavg();
  rmSync(dir, { recursive: true, force: true });
  const bare = median(samples[0]);
  const rows = variants.map((v, k) => ({
    run: v.name,
    cpu_ms: +median(samples[k]).toFixed(1),
    over_bare_ms: +(median(samples[k]) - bare).toFixed(1),
    min_ms: +Math.min(...samples[k]).toFixed(1),
  }));
  printTable(`start-up: whole-process CPU, medians of ${repeats} interleaved fresh processes (load ${loadBefore[0].toFixed(1)} -> ${loadAfter[0].toFixed(1)})`, rows);
  return { repeats, cores: os.cpus().length, load_before: loadBefore, load_after: loadAfter, ...(baseline ? { baseline } : {}), rows };
}
