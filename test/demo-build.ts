// The demo, built once per test run for every file that opens it (test/demo-page.ts,
// test/webgpu-browser.test.ts): the first file to ask builds it with Vite into the run's shared
// directory ($NQ_TEST_SHARED, made by vitest.config.ts, removed by test/global-setup.ts), and
// the others, in other workers, wait for it. The files only read it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "vite";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function viteBuild(outDir: string): Promise<void> {
  await build({ configFile: resolve("demo/vite.config.ts"), logLevel: "warn", build: { outDir, emptyOutDir: true } });
}

/** The directory of the built demo (index.html, crosscheck.html and their assets). */
export async function demoBuild(): Promise<string> {
  const shared = process.env.NQ_TEST_SHARED;
  if (!shared) { // (vitest.config.ts not read: a build of this file's own)
    const own = mkdtempSync(join(tmpdir(), "nqueens-demo-"));
    await viteBuild(own);
    return own;
  }
  const outDir = join(shared, "demo"), done = join(shared, "demo.done"), failed = join(shared, "demo.failed");
  let mine = false;
  try {
    mkdirSync(join(shared, "demo.lock")); // one file wins; the others wait below
    mine = true;
  } catch {
    // another file builds it
  }
  if (mine) {
    try {
      await viteBuild(outDir);
      writeFileSync(done, "");
    } catch (error) {
      writeFileSync(failed, String((error as Error)?.stack ?? error));
      throw error;
    }
    return outDir;
  }
  for (const end = Date.now() + 110_000; !existsSync(done); await sleep(100)) {
    if (existsSync(failed)) throw new Error(`the demo's build (in another test file) failed:\n${readFileSync(failed, "utf8")}`);
    if (Date.now() > end) throw new Error("timed out waiting for another test file's build of the demo");
  }
  return outDir;
}
