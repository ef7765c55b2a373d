// estimate (Knuth's random probes) and treeSize (the exact tree), on both engines:
// known answers, an independent DFS, unbiasedness, parity to the bit, bad input, CLI.
import { describe, expect, it } from "vitest";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { ErrorCode, estimate, solve, treeSize, type EstimateProgress } from "../src/index.js";
import { A000170 } from "./fixtures/oeis.js";
import { ENGINES } from "./helpers.js";
import { runCli } from "./cli-run.js";

/** Nodes per depth of the backtracking tree by plain recursion over arrays (no bitboards). */
function plainTree(n: number): number[] {
  const levels = new Array<number>(n + 1).fill(0);
  const columns: number[] = [];
  const visit = (row: number): void => {
    levels[row]++;
    if (row === n) return;
    for (let c = 0; c < n; c++) {
      let safe = true;
      for (let r = 0; r < row; r++) {
        if (columns[r] === c || Math.abs(columns[r] - c) === row - r) safe = false;
      }
      if (!safe) continue;
      columns.push(c);
      visit(row + 1);
      columns.pop();
    }
  };
  visit(0);
  return levels;
}

/** Every number as the hex of its IEEE bits, so toEqual compares bit for bit. */
function bits(value: unknown): unknown {
  if (typeof value === "number") {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    return view.getBigUint64(0).toString(16);
  }
  if (Array.isArray(value)) return value.map(bits);
  if (ArrayBuffer.isView(value)) return Array.from(value as Float64Array, bits);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bits(v)]));
  return value;
}

describe("treeSize", () => {
  it("gives the textbook's 2057 nodes for n = 8, level by level", async () => {
    for (const engine of ENGINES) {
      const result = await treeSize(8, { engine });
      expect(result).toMatchObject({ n: 8, total: 2057n, engine });
      expect(result.perLevel).toEqual([1n, 8n, 42n, 140n, 344n, 568n, 550n, 312n, 92n]);
    }
  });

  it("agrees with an independent plain DFS for n = 1..9 on both engines", async () => {
    for (let n = 1; n <= 9; n++) {
      const expected = plainTree(n).map(BigInt);
      for (const engine of ENGINES) {
        const result = await treeSize(n, { engine });
        expect({ n, perLevel: result.perLevel }).toEqual({ n, perLevel: expected });
        expect(result.total).toBe(expected.reduce((a, b) => a + b, 0n));
      }
    }
  });

  it("ends in the solutions (A000170), starts 1, n, and sums to total, for n = 1..13", async () => {
    for (let n = 1; n <= 13; n++) {
      const [w, t] = await Promise.all([treeSize(n, { engine: "wasm" }), treeSize(n, { engine: "ts" })]);
      expect(w.perLevel).toEqual(t.perLevel);
      expect(w.perLevel[n]).toBe(A000170[n]);
      expect(w.perLevel[0]).toBe(1n);
      expect(w.perLevel[1]).toBe(BigInt(n));
      expect(w.perLevel.reduce((a, b) => a + b, 0n)).toBe(w.total);
    }
  });

  it("counts more nodes than backtracking to the first solution visits (a subtree of it)", async () => {
    for (const n of [4, 8, 10]) {
      const first = await solve(n, { method: "backtrack" });
      expect(BigInt(first.nodes)).toBeLessThan((await treeSize(n)).total);
    }
  });

  it("reports progress, honours an aborted signal and a timeout", async () => {
    const seen: number[] = [];
    const result = await treeSize(12, { onProgress: (p) => seen.push(p.tasksDone) });
    expect(seen.at(-1)).toBeGreaterThan(0);
    expect(result.total).toBe(856189n);
    await expect(treeSize(12, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    await expect(treeSize(15, { timeoutMs: 0 })).rejects.toMatchObject({ code: ErrorCode.timeout });
  });
});

describe("estimate", () => {
  it("is unbiased: within 4 standard errors of treeSize, in all and per depth", async () => {
    for (const [n, samples] of [[4, 20_000], [5, 20_000], [6, 20_000], [8, 40_000], [10, 40_000], [12, 40_000]] as const) {
      const exact = await treeSize(n);
      const est = await estimate(n, { samples, seed: 11 + n });
      expect(est.samples).toBe(samples);
      const total = Number(exact.total);
      expect(est.stderr).toBeGreaterThan(0);
      expect(Math.abs(est.mean - total), `n = ${n}: ${est.mean} +- ${est.stderr} vs ${total}`).toBeLessThan(4 * est.stderr);
      // and the check means something: the error bar is a small part of the answer
      expect(est.stderr / total).toBeLessThan(0.05);
      expect(est.ci95[0]).toBeLessThan(est.mean);
      expect(est.ci95[1]).toBeGreaterThan(est.mean);
      for (let k = 0; k <= n; k++) {
        const want = Number(exact.perLevel[k]);
        const tolerance = 4 * est.perLevelStderr[k] + 1e-9 * want;
        expect(Math.abs(est.perLevel[k] - want), `n = ${n}, depth ${k}`).toBeLessThanOrEqual(tolerance);
      }
      // depths 0 and 1 have no randomness: 1 and n exactly
      expect(est.perLevel.slice(0, 2)).toEqual([1, n]);
      expect(est.perLevelStderr.slice(0, 2)).toEqual([0, 0]);
    }
  });

  it("gives bit-identical numbers on both engines for the same seed", async () => {
    for (const [n, seed] of [[1, 1], [4, 7], [8, 0], [13, 0xffffffff], [32, 99]] as const) {
      const [w, t] = await Promise.all([
        estimate(n, { engine: "wasm", samples: 3000, seed }),
        estimate(n, { engine: "ts", samples: 3000, seed }),
      ]);
      expect(bits({ ...w, ms: 0, engine: "" })).toEqual(bits({ ...t, ms: 0, engine: "" }));
      expect(w.engine).toBe("wasm");
      expect(t.engine).toBe("ts");
    }
  });

  it("does not depend on how the probes are split into kernel calls", () => {
    for (const engine of [wasmEngine, tsEngine]) {
      const whole = engine.openProbes(10, 5);
      whole.run(1000);
      const split = engine.openProbes(10, 5);
      split.run(1);
      split.run(299);
      split.run(700);
      expect(bits(split.sums())).toEqual(bits(whole.sums()));
      whole.close();
      split.close();
    }
  });

  it("the mean is the sum of the per-depth estimates; same seed, same answer; NaN stderr for one probe", async () => {
    const a = await estimate(9, { samples: 500, seed: 3 });
    const b = await estimate(9, { samples: 500, seed: 3 });
    expect(b.mean).toBe(a.mean);
    expect(a.perLevel.reduce((x, y) => x + y, 0)).toBeCloseTo(a.mean, 6);
    const one = await estimate(8, { samples: 1 });
    expect(one.stderr).toBeNaN();
    expect(one.mean).toBeGreaterThan(8);
  });

  it("reports progress, honours an aborted signal and a timeout", async () => {
    const seen: number[] = [];
    await estimate(6, { samples: 1000, onProgress: (p) => seen.push(p.samplesDone) });
    expect(seen.at(-1)).toBe(1000);
    await expect(estimate(8, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    await expect(estimate(30, { samples: 1e9, timeoutMs: 0 })).rejects.toMatchObject({ code: ErrorCode.timeout });
  });

  it.each(ENGINES)("progress carries the running estimate: each report is the estimate of the probes so far (%s)", async (engine) => {
    const reports: EstimateProgress[] = [];
    const result = await estimate(16, { samples: 200_000, seed: 5, engine, progressIntervalMs: 0, onProgress: (p) => reports.push(p) });
    expect(reports.length).toBeGreaterThan(2);
    // the last report is the result
    expect(reports.at(-1)).toMatchObject({ samplesDone: 200_000, mean: result.mean, stderr: result.stderr });
    // and an earlier one is exactly what an estimate with that many probes and the same seed says
    for (const report of [reports[0], reports[Math.floor(reports.length / 2)]]) {
      const shorter = await estimate(16, { samples: report.samplesDone, seed: 5, engine });
      expect(report.mean).toBe(shorter.mean);
      if (report.samplesDone >= 2) expect(report.stderr).toBe(shorter.stderr);
    }
  });
});

describe("bad input", () => {
  const cases: [string, () => Promise<unknown>, ErrorConstructor | RangeErrorConstructor | TypeErrorConstructor, RegExp][] = [
    ["estimate n = 0", () => estimate(0), RangeError, /n must be an integer from 1 to 32, got 0/],
    ["estimate n = 33", () => estimate(33), RangeError, /n must be an integer from 1 to 32, got 33/],
    ["estimate n as a string", () => estimate("8" as unknown as number), TypeError, /n must be an integer/],
    ["samples = 0", () => estimate(8, { samples: 0 }), RangeError, /samples must be an integer >= 1, got 0/],
    ["samples = 1.5", () => estimate(8, { samples: 1.5 }), RangeError, /samples must be an integer >= 1, got 1\.5/],
    ["seed = -1", () => estimate(8, { seed: -1 }), RangeError, /seed must be an integer from 0 to 4294967295, got -1/],
    ["unknown option", () => estimate(8, { sample: 5 } as never), TypeError, /unknown option "sample" for estimate/],
    ["treeSize n = 18", () => treeSize(18), RangeError, /n must be an integer from 1 to 17, got 18/],
    ["treeSize n = 0", () => treeSize(0), RangeError, /n must be an integer from 1 to 17, got 0/],
    ["treeSize seed", () => treeSize(8, { seed: 1 } as never), TypeError, /unknown option "seed" for treeSize/],
  ];
  it.each(cases)("%s", async (_name, call, type, message) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(message);
    expect((error as { code?: string }).code).toBe(ErrorCode.invalidArgument);
  });
});

describe("CLI: estimate and tree", () => {
  it("estimate --json gives the API's answer; the text form has a per-depth table", async () => {
    const run = await runCli(["estimate", "8", "--samples", "2000", "--seed", "4", "--json"]);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    const api = await estimate(8, { samples: 2000, seed: 4 });
    expect(json).toMatchObject({ n: 8, samples: 2000, seed: 4, mean: api.mean, stderr: api.stderr, perLevel: api.perLevel });
    const text = await runCli(["estimate", "8", "--samples", "500", "--engine", "ts"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/n = 8: about [\d.]+ nodes/);
    expect(text.stdout).toMatch(/depth\s+estimated nodes/);
    expect(text.stdout).toContain("engine ts");
  });

  it("tree --json gives bigints as decimal strings; text lists every depth", async () => {
    const json = JSON.parse((await runCli(["tree", "8", "--json"])).stdout);
    expect(json).toMatchObject({ n: 8, total: "2057", perLevel: ["1", "8", "42", "140", "344", "568", "550", "312", "92"] });
    const text = await runCli(["tree", "6"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("n = 6: 153 nodes");
  });

  const badInput: [string[], RegExp][] = [
    [["estimate", "0"], /n must be an integer from 1 to 32, got 0/],
    [["estimate", "8", "--samples", "0"], /samples must be an integer >= 1, got 0/],
    [["estimate", "8", "--seed", "x"], /--seed must be an integer from 0 to 4294967295, got "x"/],
    [["tree", "18"], /n must be an integer from 1 to 17, got 18/],
  ];
  it.each(badInput)("bad input %j exits 2 with a one-line message", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
  });

  it("Ctrl-C stops a long tree count with exit code 130", async () => {
    const run = await runCli(["tree", "17"], { killOnceHandled: 300 }); // 300 ms after its Ctrl-C handler is set
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });
});
