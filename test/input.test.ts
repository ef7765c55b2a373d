// Bad input gets a TypeError or RangeError naming the parameter, the value and the range,
// before anything reaches a kernel.
import { describe, expect, it } from "vitest";
import { count, randomSequence, render, solutions, solve, verify, ErrorCode } from "../src/index.js";

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
