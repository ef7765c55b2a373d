// What each built library entry ships: the Wasm kernels' bytes once (the counting threads'
// bundle, embedded in the entry as text, holds none: the threads instantiate the module
// their pool compiled) and at most 361 KB in all; and the WGSL kernel, embedded compacted
// (scripts/wgsl-compact.mjs), still counting on the GPU when run from the bundle.
import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { gpuInfo, releaseGpu } from "../src/index.js";
import { A000170 } from "./fixtures/oeis.js";

const ENTRIES = ["dist/index.js", "dist/index.cjs", "dist/distributed.js", "dist/distributed.cjs"];
/**
 * The budget of each entry, in bytes: 361 KB for the main entry (what browsers load), 386 KB
 * for the queue's (Node only): it carries the main entry's engines and pool as well as the
 * queue's coordinators and worker (a count's, and since the solve on the queue a solve's, 22 KB
 * more, which took it from 333 to 356 KB). The main entry's budget went from 350,000 to 351,000
 * bytes for the reference engine's counter at 0.65 of count.c (its row table, branch-free
 * steps) and the given queens checked line by line (linear, not pairwise), each in the entry
 * and again in its threads' source: 350,153 bytes then. It went to 353,000 for min-conflicts'
 * windowed draws (its group stage 3.5 times faster at n = 10^8): 532 bytes of Wasm (about 710
 * of base64) and the twin's windows in the entry (the threads' source has no min-conflicts),
 * 350,918 -> 352,441 bytes. The queue's went from 375,000 to 378,000 for what a queue run says
 * of itself (no worker on it at once, a timeout's tasks decided and workers, `nqueens runs`'s tasks
 * decided of a solve read from its answers, the key errors in the CLI's words): 374,406 -> 376,699
 * bytes (dist/distributed.cjs). Both went up by 8,000 (361,000 and 386,000) for solve's needed
 * diagonals (colourMandatory, branching on a diagonal, in the lookahead too): 2.6 KB of Wasm (3.4
 * KB of base64) and the twin's in the entry and again in its threads' source, 352,558 -> 360,214
 * bytes (dist/index.cjs), 376,893 -> 384,441 (dist/distributed.cjs). The queue's went to 389,000
 * for the restarting search's jobs beside a solve's tasks (their passes, the checks of their
 * answers, a solution's task, a job that may fail): 385,109 -> 388,093 bytes (dist/distributed.cjs).
 */
const MAX_BYTES: Record<string, number> = { "dist/index.js": 361_000, "dist/index.cjs": 361_000, "dist/distributed.js": 389_000, "dist/distributed.cjs": 389_000 };

/** The kernels as tsup's binary loader embeds them: the base64 of build/release.wasm, one string. */
const wasmBase64 = readFileSync("build/release.wasm").toString("base64");

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/**
 * 64 characters of it, from the middle on, found once in the whole (the kernels' data repeats):
 * a second copy cut, wrapped or encoded from another offset could hold it without the whole.
 */
const slice = ((): string => {
  for (let at = wasmBase64.length >> 3 << 2; at + 64 <= wasmBase64.length; at += 4) {
    const candidate = wasmBase64.slice(at, at + 64);
    if (occurrences(wasmBase64, candidate) === 1) return candidate;
  }
  throw new Error("no distinctive slice in build/release.wasm's base64");
})();

describe("the built entries", () => {
  it("the kernels' base64 is long enough to be distinctive", () => {
    expect(wasmBase64.length).toBeGreaterThan(10_000);
  });

  it.each(ENTRIES)("%s holds the Wasm bytes exactly once, and no other slice of them", (file) => {
    const text = readFileSync(file, "utf8");
    expect(occurrences(text, wasmBase64)).toBe(1);
    expect(occurrences(text, slice)).toBe(1);
  });

  it("the counting threads' bundle holds no Wasm bytes", () => {
    expect(occurrences(readFileSync("build/worker.global.js", "utf8"), slice)).toBe(0);
  });

  it.each(ENTRIES)("%s is within its budget (MAX_BYTES)", (file) => {
    expect(statSync(file).size).toBeLessThanOrEqual(MAX_BYTES[file]!);
  });

  it("the minified main entry still hides Node's modules and the webgpu package from bundlers (no literal import() specifiers)", () => {
    for (const file of ["dist/index.js", "dist/index.cjs"]) {
      const text = readFileSync(file, "utf8");
      expect(text.match(/import\(\s*[^)\s]{0,40}/g)?.filter((call) => /import\(\s*["'`]/.test(call)) ?? []).toEqual([]);
      expect(text).toMatch(/import\(/); // (there are such imports, by variable)
    }
  });
});

const haveGpu = await gpuInfo().then(() => true, (error: Error) => {
  console.warn(`the bundle's GPU check is skipped: WebGPU cannot start in Node here: ${error.message}`);
  return false;
});
afterAll(() => releaseGpu());

describe.skipIf(!haveGpu)("the bundle's compacted WGSL kernel", () => {
  it("count on the GPU: count() and countParallel's GPU thread, both on gpu/constellations.wgsl", async () => {
    const script = [
      "import { count, countParallel, releaseGpu } from 'nqueens-wasm';",
      "const c = await count(10, { engine: 'webgpu' });",
      "const p = await countParallel(11, { workers: 2, engine: 'webgpu' });",
      "await releaseGpu();",
      "console.log(String(c.total), c.engine, String(p.total), p.gpuParts > 0);",
    ].join(" ");
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd() });
    expect(stdout.trim()).toBe(`${A000170[10]} webgpu ${A000170[11]} true`);
  });
});
