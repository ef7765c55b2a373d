// A kernel that aborts (a failed assert in assembly/, i.e. a bug: a call the TS side
// should never make) surfaces as a JS error with the kernel's message, file and line,
// coded ErrorCode.kernelAbort, through the `abort` import @assemblyscript/loader wires up;
// never as a bare `RuntimeError: unreachable`. And an allocation Wasm memory cannot
// hold is a RangeError coded ErrorCode.outOfMemory, not bad input.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../src/core/errors.js";
import { LAYOUT_GLOBALS, newInstance, wasmEngine } from "../src/engine/wasm/index.js";
import { solve } from "../src/search/solve.js";
import { caught, isSolutionOfSize } from "./helpers.js";

/** The line of assembly/<file> that holds `text` (1-based), read from the source. */
function lineOf(file: string, text: string): number {
  const lines = readFileSync(`assembly/${file}`, "utf8").split("\n");
  const index = lines.findIndex((l) => l.includes(text));
  expect(index).toBeGreaterThanOrEqual(0);
  return index + 1;
}

describe("kernel abort", () => {
  test("a bad internal call (exact walk past the bitboards' 32 columns) is a coded error naming the kernel file and line", async () => {
    const error = caught(() => wasmEngine.openLasVegasExact(40, 3));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("KernelAbortError");
    expect(error.code).toBe(ErrorCode.kernelAbort);
    expect(error.message).toContain("lasVegasExactInit: n out of 1..32");
    const line = lineOf("las-vegas-stats.ts", 'assert(n >= 1 && n <= 32 && param >= 0 && param <= n, "lasVegasExactInit');
    expect(error.message).toMatch(new RegExp(`\\(assembly/las-vegas-stats\\.ts:${line}:\\d+\\)$`));
    expect(error.message).not.toMatch(/unreachable/);
    // The aborted instance is dropped, not pooled: later jobs run as before.
    const after = await solve(8, { method: "hybrid", seed: 3, engine: "wasm" });
    expect(isSolutionOfSize(after.columns, 8)).toBe(true);
  });

  test("every abort path: a search opened with stopVegas > n, a task deeper than stopVegas", () => {
    const hybrid = caught(() => wasmEngine.openSearch("hybrid", 8, { seed: 1, param: 9, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity }));
    expect(hybrid.code).toBe(ErrorCode.kernelAbort);
    expect(hybrid.message).toMatch(/hybridInit: .* \(assembly\/hybrid\.ts:\d+:\d+\)$/);
    const walker = wasmEngine.openLasVegasExact(8, 2);
    const deep = caught(() => walker.walk([0, 2, 4]));
    expect(deep.code).toBe(ErrorCode.kernelAbort);
    expect(deep.message).toContain(`assembly/las-vegas-stats.ts:${lineOf("las-vegas-stats.ts", '"lasVegasExactTask: depth')}:`);
  });

  test("the module imports only env.abort, which the loader-made instance provides", () => {
    const module = new WebAssembly.Module(readFileSync("build/release.wasm"));
    expect(WebAssembly.Module.imports(module)).toEqual([{ module: "env", name: "abort", kind: "function" }]);
  });
});

describe("out of memory", () => {
  test("an allocation Wasm memory cannot hold is a RangeError coded outOfMemory (not invalid input)", () => {
    // 4 GiB - 4 bytes: the kernel's allocate refuses it; 4 GiB: refused before the u32 argument wraps to 0.
    for (const count of [2 ** 30 - 1, 2 ** 30]) {
      const error = caught(() => wasmEngine.randomSequence(1, 0, count));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.code).toBe(ErrorCode.outOfMemory);
      expect(error.message).toContain(`out of Wasm memory for ${count} random draws`);
    }
    expect(Array.from(wasmEngine.randomSequence(1, 0, 3))).toHaveLength(3); // and the next job runs
  });
});

describe("memory layout", () => {
  test("the layout, slots and status and phase codes the TS side uses are the module's own exports, read by name", () => {
    // Every global the module exports is read (LAYOUT_GLOBALS), and no other.
    const module = new WebAssembly.Module(readFileSync("build/release.wasm"));
    const globals = WebAssembly.Module.exports(module).filter((e) => e.kind === "global").map((e) => e.name);
    expect([...globals].sort()).toEqual([...LAYOUT_GLOBALS].sort());
    // The engine's TS side, all its rooms (loader, layout, the per-family wrappers).
    const source = readdirSync("src/engine/wasm").filter((f) => f.endsWith(".ts")).map((f) => readFileSync(`src/engine/wasm/${f}`, "utf8")).join("\n");
    for (const name of LAYOUT_GLOBALS) expect(source).toContain(`g("${name}")`);
    // ...and each holds what assembly/ declares for it.
    const declared = new Map<string, number>();
    for (const file of readdirSync("assembly").filter((f) => f.endsWith(".ts"))) {
      for (const m of readFileSync(`assembly/${file}`, "utf8").matchAll(/^export const ([A-Z0-9_]+): i32 = (\d+);/gm)) declared.set(m[1]!, Number(m[2]));
    }
    const k = newInstance();
    for (const name of LAYOUT_GLOBALS) expect([name, k[name].value]).toEqual([name, declared.get(name)]);
    // No numbers copied in: no slot constants, no literal slot passed to a Stat or Result
    // export, no offset added to a block, no phase list indexed by a kernel's code.
    expect(source).not.toMatch(/const (STAT|TRIAL)_\w+ = \d/);
    expect(source).not.toMatch(/(Stat|stat|countResult)\(\d/);
    expect(source).not.toMatch(/(block|sums) \+ \d/);
    expect(source).not.toMatch(/\bPHASES\b/);
  });
});
