// The built bundles, loaded the way users load them, in fresh Node processes.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

async function node(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, args, { cwd: process.cwd() });
  return stdout.trim();
}

describe("built package", () => {
  it("the ESM bundle loads through the package's exports map and counts", async () => {
    const out = await node([
      "--input-type=module",
      "-e",
      "import { count, solve } from 'nqueens-wasm'; const c = await count(10); const s = await solve(8); console.log(c.total, c.engine, s.nodes);",
    ]);
    expect(out).toBe("724n wasm 114");
  });

  it("the CJS bundle loads through require and counts", async () => {
    const out = await node([
      "-e",
      "const { count } = require('nqueens-wasm'); count(10, { engine: 'ts' }).then((w) => count(10).then((c) => console.log(c.total, c.engine, w.total, w.engine)));",
    ]);
    expect(out).toBe("724n wasm 724n ts");
  });

  it("without WebAssembly the default engine falls back to 'ts', and 'wasm' asked for explicitly is refused clearly", async () => {
    const out = await node([
      "--input-type=module",
      "-e",
      [
        "delete globalThis.WebAssembly;",
        "const { count } = await import('nqueens-wasm');",
        "const c = await count(9);",
        "const e = await count(9, { engine: 'wasm' }).catch((e) => e);",
        "console.log(c.total, c.engine, e.code);",
      ].join(" "),
    ]);
    expect(out).toBe("352n ts NQ_ENGINE_UNAVAILABLE");
  });

  it("countParallel's threads count on 'wasm' with the module the pool hands them, and on 'ts' where the pool has no WebAssembly", async () => {
    const count = "const { countParallel } = await import('nqueens-wasm'); const c = await countParallel(10, { workers: 2 }); console.log(c.total, c.engine);";
    expect(await node(["--input-type=module", "-e", count])).toBe("724n wasm");
    expect(await node(["--input-type=module", "-e", `delete globalThis.WebAssembly; ${count}`])).toBe("724n ts");
    const cjs = "const { countParallel } = require('nqueens-wasm'); countParallel(10, { workers: 2 }).then((c) => console.log(c.total, c.engine));";
    expect(await node(["-e", cjs])).toBe("724n wasm");
  });

  it("the bundles embed the Wasm bytes: no fs, fetch or import.meta.url paths", async () => {
    const { readFile } = await import("node:fs/promises");
    for (const file of ["dist/index.js", "dist/index.cjs"]) {
      const text = await readFile(file, "utf8");
      expect(text).not.toMatch(/import\.meta\.url|require\(["']fs["']\)|from ["']node:fs["']|fetch\(/);
    }
  });
});
