import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig, type Plugin } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { softwareVulkanEnv } from "./test/webgpu-env.js";

// WebGPU tests in Node without a GPU (test/webgpu.test.ts): set before the workers are forked.
Object.assign(process.env, softwareVulkanEnv(process.env));
// Checkpoints made by tests without a key of their own use a local key: made here (mode 0600,
// so no test's CLI says it made one), never in the real ~/.config.
process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), "nqueens-test-config-"));
mkdirSync(join(process.env.XDG_CONFIG_HOME, "nqueens"), { mode: 0o700 });
writeFileSync(join(process.env.XDG_CONFIG_HOME, "nqueens", "key"), `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
// What the test files of one run share, made once (the demo's build: test/demo-build.ts);
// removed by test/global-setup.ts when the run ends.
process.env.NQ_TEST_SHARED = mkdtempSync(join(tmpdir(), "nqueens-test-run-"));

/**
 * The files that run in a worker of their own: crosscheck-abort (vi.mock replaces a module of
 * src/ that other files import), webgpu-queue (a deprecation is said once per process: it checks
 * that once), pool and parallel (they count the process's threads and Worker handles).
 */
const ISOLATED = ["test/crosscheck-abort.test.ts", "test/webgpu-queue.test.ts", "test/pool.test.ts", "test/parallel.test.ts"];

/**
 * Files that are short but long to run (one tool, a few costly tests). vitest runs the files it
 * has timed before longest first, and files it has not (a fresh clone, as in CI) largest first:
 * then these came last, and the run ended on typecheck's tsc alone, 20 s with the other core
 * idle. So they go first, in this order, and the rest as vitest would have them.
 */
const LONG_FIRST = [
  "test/typecheck.test.ts", "test/solve-share.test.ts", "test/solve-cut.test.ts", "test/bundler.test.ts",
  "test/docs.test.ts", "test/parity.test.ts", "test/min-conflicts-counters.test.ts",
];

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = LONG_FIRST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at < 0 ? LONG_FIRST.length : at;
    };
    return sorted.map((spec, i) => ({ spec, i })).sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i).map(({ spec }) => spec);
  }
}

/** Imports of *.wasm give the bytes, as tsup's binary loader does in the bundle. */
function wasmBytes(): Plugin {
  return {
    name: "wasm-bytes",
    enforce: "pre",
    load(id) {
      if (!id.endsWith(".wasm")) return null;
      const base64 = readFileSync(id).toString("base64");
      return `export default Uint8Array.from(atob(${JSON.stringify(base64)}), (c) => c.charCodeAt(0));`;
    },
  };
}

/** Imports of *.wgsl give the source text, as tsup's text loader does in the bundle. */
function wgslText(): Plugin {
  return {
    name: "wgsl-text",
    enforce: "pre",
    load(id) {
      return id.endsWith(".wgsl") ? `export default ${JSON.stringify(readFileSync(id, "utf8"))};` : null;
    },
  };
}

export default defineConfig({
  plugins: [wasmBytes(), wgslText()],
  test: {
    globalSetup: ["test/global-setup.ts"],
    // CI also writes a JSON report, from which .ci/run prints its "N passed, N failed" line.
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-artifacts/vitest.json" }]] : ["default"],
    // Many files wait more than they compute (child processes, Redis, Chromium, timers): one
    // more worker than cores keeps both cores busy (vitest's default is cores - 1: one on 2 cores).
    maxWorkers: availableParallelism() + 1,
    // Hang guards, not speed goals: under load 9 on 2 cores the slowest tests take 30 s (a minute
    // of CPU shared three ways), so the default leaves a margin that load cannot eat.
    sequence: { sequencer: LongFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A file's fresh worker costs about 0.6 s of CPU (a process, vitest's runtime, the modules of
    // src/ evaluated again): 82 files, about 50 s of the suite's CPU on 2 cores. So most files
    // share their worker and its modules (isolate: false); they leave nothing behind (each
    // closes its pools, clients and servers, and puts back what it sets: process.env, the GPU
    // loader, the queue's importer, globals). The files below are each given a fresh worker,
    // because what they check is the state of the whole process.
    projects: [
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED, isolate: true } },
    ],
  },
});
