// Bad input gets a TypeError or RangeError naming the parameter, the value and the range,
// before anything reaches a kernel.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { count, countParallel, crossCheck, randomSequence, render, solutions, solve, verify, ErrorCode } from "../src/index.js";
import { CROSSCHECK_MAX_N, firstDifference } from "../src/analysis/crosscheck.js";
import { MIN_CONFLICTS_MAX_N } from "../src/engine/ts/min-conflicts.js";

const badN: [unknown, RegExp, ErrorConstructor][] = [
  [0, /n must be an integer from 1 to 32, got 0/, RangeError],
  [-1, /n must be an integer from 1 to 32, got -1/, RangeError],
  [1.5, /n must be an integer from 1 to 32, got 1\.5/, RangeError],
  [NaN, /n must be an integer from 1 to 32, got NaN/, RangeError],
  [Infinity, /n must be an integer from 1 to 32, got Infinity/, RangeError],
  ["8", /n must be an integer from 1 to 32, got string "8"/, TypeError],
  [33, /n must be an integer from 1 to 32, got 33/, RangeError],
  [8n, /n must be an integer from 1 to 32, got bigint 8n/, TypeError],
  [undefined, /n must be an integer from 1 to 32, got undefined undefined/, TypeError],
];

describe("bad input", () => {
  it.each(badN)("count(%s) is refused", async (n, message, type) => {
    const error = await count(n as number).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(message);
    expect((error as { code?: string }).code).toBe(ErrorCode.invalidArgument);
  });

  it.each(badN)("solutions(%s) is refused at once", (n, message, type) => {
    expect(() => solutions(n as number)).toThrow(type);
    expect(() => solutions(n as number)).toThrow(message);
  });

  it("solve checks n against the method's range", async () => {
    await expect(solve(0)).rejects.toThrow(/n must be an integer from 1 to/);
    await expect(solve(2.5)).rejects.toThrow(RangeError);
    await expect(solve("10" as unknown as number)).rejects.toThrow(TypeError);
    await expect(solve(10 ** 9, { method: "backtrack" })).rejects.toThrow(/n must be an integer from 1 to 1000000, got 1000000000/);
  });

  it("options of the wrong type or unknown name are refused", async () => {
    await expect(count(8, { engine: "gpu" as "wasm" })).rejects.toThrow(/engine must be one of "wasm", "ts", got "gpu"/);
    await expect(count(8, { engine: 1 as unknown as "wasm" })).rejects.toThrow(TypeError);
    await expect(count(8, "fast" as never)).rejects.toThrow(/options of count must be an object, got "fast"/);
    await expect(count(8, { timeout: 5 } as never)).rejects.toThrow(/unknown option "timeout" for count/);
    await expect(count(8, { timeoutMs: -1 })).rejects.toThrow(/timeoutMs must be an integer >= 0, got -1/);
    await expect(count(8, { onProgress: 5 as never })).rejects.toThrow(/onProgress must be a function/);
    await expect(count(8, { signal: {} as AbortSignal })).rejects.toThrow(/signal must be an AbortSignal/);
    await expect(solve(8, { method: "magic" as "backtrack" })).rejects.toThrow(/method must be one of/);
    await expect(solve(8, { maxNodes: 0 })).rejects.toThrow(/maxNodes must be an integer >= 1, got 0/);
    await expect(solve(8, { maxNodes: "5" as unknown as number })).rejects.toThrow(TypeError);
    await expect(solve(8, { method: "backtrack", maxSteps: 5 })).rejects.toThrow(/maxSteps does not apply to method "backtrack"/);
    await expect(solve(8, { maxSteps: 0 })).rejects.toThrow(/maxSteps must be an integer >= 1, got 0/);
    await expect(solve(8, { method: "construct", maxNodes: 5 })).rejects.toThrow(/maxNodes does not apply to method "construct" \(it takes no work limit\)/);
    await expect(solve(8, { seed: -1 })).rejects.toThrow(/seed must be an integer from 0 to 4294967295, got -1/);
    await expect(solve(8, { stopVegas: 3 })).rejects.toThrow(/stopVegas applies only to method "hybrid"/);
    await expect(solve(8, { method: "backtrack", stopVegas: 3 })).rejects.toThrow(/stopVegas applies only to method "hybrid", not to "backtrack"/);
    expect(() => solutions(8, { limit: -1 })).toThrow(/limit must be an integer >= 0, got -1/);
    expect(() => randomSequence(1, { count: 1e8 })).toThrow(/count must be an integer from 0 to 10000000/);
  });

  it("verify and render check the board", () => {
    expect(() => verify([0, 4, 1])).toThrow(/columns\[1\] must be an integer from 0 to 2 .*got 4/);
    expect(() => verify([0, -1])).toThrow(RangeError);
    expect(() => verify([0, 1.5])).toThrow(RangeError);
    expect(() => verify([])).toThrow(/at least one queen/);
    expect(() => verify("0123" as never)).toThrow(TypeError);
    expect(() => render([0, "1"] as never)).toThrow(/columns\[1\]/);
    expect(() => verify([1, 3, 0, 2], { maxConflicts: -2 })).toThrow(/maxConflicts/);
  });
});

describe("signals, options objects and inherited keys: the gaps a first fuzz found", () => {
  it("signal must be a real AbortSignal", async () => {
    for (const signal of [{ aborted: false }, { aborted: false, addEventListener() {}, throwIfAborted() {} }, "signal", 1]) {
      const error = await count(8, { signal: signal as unknown as AbortSignal }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toMatch(/signal must be an AbortSignal/);
      expect((error as { code?: string }).code).toBe(ErrorCode.invalidArgument);
      await expect(solve(8, { signal: signal as unknown as AbortSignal })).rejects.toThrow(/signal must be an AbortSignal/);
      await expect(countParallel(8, { signal: signal as unknown as AbortSignal })).rejects.toThrow(/signal must be an AbortSignal/);
    }
    expect((await count(8, { signal: new AbortController().signal })).total).toBe(92n);
  });

  it("only own enumerable option keys count: inherited ones are ignored", async () => {
    const inherited = Object.create({ timeoutMs: 0, method: "no-such-method" }) as object;
    expect((await count(10, inherited)).total).toBe(724n);
    expect((await solve(8, inherited)).found).toBe(true);
    const proto = Object.prototype as Record<string, unknown>;
    proto.timeoutMs = 0;
    proto.maxNodes = 1;
    try {
      expect((await count(10)).total).toBe(724n);
      expect((await count(10, {})).total).toBe(724n);
      const solved = await solve(20, { method: "backtrack" });
      expect(solved.found).toBe(true);
    } finally {
      delete proto.timeoutMs;
      delete proto.maxNodes;
    }
  });

  it("verify and render take arrays and integer typed arrays only", () => {
    const board = [1, 3, 0, 2];
    for (const kind of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array]) {
      expect(verify(kind.from(board)).ok).toBe(true);
      expect(render(kind.from(board))).toBe(render(board));
    }
    const view = new DataView(new ArrayBuffer(16));
    for (const bad of [view, Float64Array.from(board), Float32Array.from(board), BigInt64Array.from(board.map(BigInt))]) {
      expect(() => verify(bad as unknown as number[])).toThrow(TypeError);
      expect(() => verify(bad as unknown as number[])).toThrow(/columns must be an array of column numbers or an integer typed array/);
      expect(() => render(bad as unknown as number[])).toThrow(TypeError);
    }
    expect(() => verify(view as unknown as number[])).toThrow(/got a DataView/);
  });

  it("crossCheck sizes are bounded by what it can compare; big boards are compared without key lists", async () => {
    const error = await crossCheck({ sizes: [1e8], kernels: ["solve:construct"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/sizes\[0\] must be an integer from 1 to 10000000, got 100000000/);
    expect((error as { code?: string }).code).toBe(ErrorCode.invalidArgument);
    await expect(crossCheck({ sizes: 5 as unknown as number[] })).rejects.toThrow(/sizes must be an array/);
    const report = await crossCheck({ sizes: [CROSSCHECK_MAX_N], kernels: ["solve:construct"], budgetMs: 60_000 });
    expect(report.ok).toBe(true);
    expect(report.kernels[0].agree).toBe(1);
    const a = new Int32Array(5_000_000), b = a.slice();
    b[4_999_999] = 1;
    expect(firstDifference({ columns: a }, { columns: b })).toBe("columns[4999999]");
    expect(firstDifference({ columns: a }, { columns: a.slice() })).toBeUndefined();
    expect(firstDifference([1, 2], [1, 2, 3])).toBe("(value).length");
  }, 60_000);

  it("min-conflicts: the checked maximum is the documented 858,947,576", async () => {
    expect(MIN_CONFLICTS_MAX_N).toBe(858_947_576);
    const guide = readFileSync(new URL("../docs/solving.md", import.meta.url), "utf8");
    expect(guide).toContain("1 .. 858,947,576");
    expect(guide).toContain("from 1 to 858947576, got 900000000");
    expect(guide).not.toMatch(/2\^30|1,073,741,824/);
    for (const n of [MIN_CONFLICTS_MAX_N + 1, 2 ** 30, 2 ** 30 + 1, 2 ** 40]) {
      await expect(solve(n, { method: "min-conflicts" })).rejects.toThrow(`n must be an integer from 1 to 858947576, got ${n}`);
    }
  });
});
