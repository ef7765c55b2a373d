// Where the suite's CPU goes: `node scripts/test-cpu.mjs [vitest file filters...]` runs vitest
// (the given files, or all) with a setup file that reads /proc/self/stat around each test, and
// prints the tests that cost most: the CPU of the vitest worker that ran it (its threads
// included) and of the child processes it waited for (the CLI's, tsc's, npm's), in ms, beside the
// wall time. On 2 shared cores the suite is bound by CPU, so this, not the wall time, says what a
// change saves; run before and after, in the same minutes. Linux only (it reads /proc).
// NQ_TEST_CPU_TOP=N prints N rows (default 30); NQ_TEST_CPU_OUT=FILE keeps the raw rows.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const tag = `${process.pid}-${Date.now()}`;
const setup = join(root, "test", `.test-cpu-setup-${tag}.ts`);
const config = join(root, `.vitest-cpu-${tag}.config.ts`);
const dir = mkdtempSync(join(tmpdir(), "nqueens-test-cpu-"));
const out = process.env.NQ_TEST_CPU_OUT ?? join(dir, "rows.tsv");

writeFileSync(setup, `import { afterEach, beforeAll, beforeEach } from "vitest";
import { appendFileSync, readFileSync } from "node:fs";
// utime + stime of this process, and of its waited-for children, in ms (clock ticks of 10 ms).
const stat = () => { const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" "); return { self: (+f[11] + +f[12]) * 10, kids: (+f[13] + +f[14]) * 10 }; };
let file = "", t0 = stat(), w0 = 0;
beforeAll(({}: object, suite: { file?: { filepath?: string }; filepath?: string }) => { file = String(suite?.filepath ?? suite?.file?.filepath ?? "").split("/").pop() ?? ""; });
beforeEach(() => { t0 = stat(); w0 = performance.now(); });
afterEach(({ task }: { task: { name: string } }) => {
  const s = stat();
  appendFileSync(${JSON.stringify(out)}, [s.self - t0.self, s.kids - t0.kids, Math.round(performance.now() - w0), file, task.name.replace(/\\s+/g, " ")].join("\\t") + "\\n");
});
`);
writeFileSync(config, `import { mergeConfig } from "vitest/config";
import base from "./vitest.config.ts";
export default mergeConfig(base, { test: { setupFiles: [${JSON.stringify(setup)}] } });
`);
try {
  const run = spawnSync(process.execPath, [join(root, "node_modules/vitest/vitest.mjs"), "run", "--config", config, ...process.argv.slice(2)], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const rows = readFileSync(out, "utf8").trim().split("\n").map((line) => line.split("\t")).map(([self, kids, wall, file, name]) => ({ self: +self, kids: +kids, wall: +wall, file, name }));
  const byFile = new Map();
  for (const r of rows) byFile.set(r.file, (byFile.get(r.file) ?? 0) + r.self + r.kids);
  const total = rows.reduce((sum, r) => sum + r.self + r.kids, 0);
  const top = Number(process.env.NQ_TEST_CPU_TOP ?? 30);
  console.log(`CPU of ${rows.length} tests: ${(total / 1000).toFixed(1)} s (vitest exited with ${run.status})\n\nfiles, CPU s:`);
  for (const [file, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(ms / 1000).toFixed(1).padStart(7)}  ${file}`);
  console.log("\ntests: self s, children s, wall s");
  for (const r of rows.sort((a, b) => b.self + b.kids - a.self - a.kids).slice(0, top)) {
    console.log(`${(r.self / 1000).toFixed(1).padStart(6)} ${(r.kids / 1000).toFixed(1).padStart(6)} ${(r.wall / 1000).toFixed(1).padStart(6)}  ${r.file}: ${r.name.slice(0, 100)}`);
  }
  process.exitCode = run.status ?? 1;
} finally {
  rmSync(setup, { force: true });
  rmSync(config, { force: true });
  if (!process.env.NQ_TEST_CPU_OUT) rmSync(dir, { recursive: true, force: true });
}
