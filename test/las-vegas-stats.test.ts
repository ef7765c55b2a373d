// lasVegasStats / lasVegasTable: what one try of the 'hybrid' method costs, by Monte
// Carlo and exactly, on both engines: the textbook's table, an independent exact
// reference, agreement of the two modes, the solver's node counting, parity, bad input, CLI.
import { describe, expect, it } from "vitest";
import { ErrorCode, lasVegasStats, lasVegasTable, solve, type LasVegasStats } from "../src/index.js";
import { ENGINES } from "./helpers.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { standardError } from "../src/analysis/estimate.js";
import { runCli } from "./cli-run.js";

/** Every number as the hex of its IEEE bits, so toEqual compares bit for bit. */
function bits(value: unknown): unknown {
  if (typeof value === "number") {
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, value);
    return view.getBigUint64(0).toString(16);
  }
  if (Array.isArray(value)) return value.map(bits);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bits(v)]));
  return value;
}

const withoutTiming = <T extends { ms: number; engine: string }>(r: T) => ({ ...r, ms: 0, engine: "" });

/** Equal up to a relative 1e-12 (both 0 counts as equal). */
function expectNear(got: number, want: number, label: string): void {
  expect(Math.abs(got - want), `${label}: ${got} vs ${want}`).toBeLessThanOrEqual(1e-12 * Math.abs(want));
}

/**
 * p, s, e by a plain recursion over arrays, written without the package: random rows
 * split into their safe columns with probability 1/d, then first-solution backtracking
 * (columns increasing) over the remaining rows, counting queens placed.
 */
function referenceExact(n: number, stopVegas: number): { p: number; s: number; e: number } {
  let success = 0, failure = 0, successNodes = 0, failureNodes = 0;
  const cols: number[] = [];
  const safe = (row: number): number[] => {
    const list: number[] = [];
    for (let c = 0; c < n; c++) if (cols.every((o, r) => o !== c && Math.abs(o - c) !== row - r)) list.push(c);
    return list;
  };
  const backtrack = (row: number): [boolean, number] => {
    if (row === n) return [true, 0];
    let placed = 0;
    for (const c of safe(row)) {
      cols.push(c);
      placed++;
      const [found, below] = backtrack(row + 1);
      placed += below;
      cols.pop();
      if (found) return [true, placed];
    }
    return [false, placed];
  };
  const walk = (row: number, w: number): void => {
    if (row === stopVegas) {
      const [found, placed] = backtrack(row);
      const nodes = 1 + row + placed;
      if (found) { success += w; successNodes += w * nodes; } else { failure += w; failureNodes += w * nodes; }
      return;
    }
    const list = safe(row);
    if (list.length === 0) { failure += w; failureNodes += w * (1 + row); return; }
    for (const c of list) {
      cols.push(c);
      walk(row + 1, w / list.length);
      cols.pop();
    }
  };
  walk(0, 1);
  return { p: success / (success + failure), s: successNodes / success, e: failureNodes / failure };
}

/** Brassard & Bratley's table for 8 queens (the table text 1 of docs/references.md discusses): p, s, e, t. */
const TEXTBOOK_8: [number, number, number | null, number][] = [
  [1, 114, null, 114], [1, 39.63, null, 39.63], [0.875, 22.53, 39.67, 28.2], [0.4931, 13.48, 15.1, 29.01],
  [0.2618, 10.31, 8.79, 35.1], [0.1624, 9.33, 7.29, 46.92], [0.1357, 9.05, 6.98, 53.5], [0.1293, 9, 6.97, 55.93],
  [0.1293, 9, 6.97, 55.93],
];

describe("lasVegasStats, exact", () => {
  it("reproduces the textbook's table for n = 8 (p 0.1293 at stopVegas 8, 0.4931 at 3), best stopVegas 2", async () => {
    for (const engine of ENGINES) {
      const table = await lasVegasTable(8, { exact: true, engine });
      expect(table).toMatchObject({ n: 8, exact: true, trials: null, seed: null, best: 2, engine });
      table.rows.forEach((row, k) => {
        const [p, s, e, t] = TEXTBOOK_8[k];
        expect(row.stopVegas).toBe(k);
        // the book prints 4 decimals for p, 2 for the rest: ours must round to them
        expect(Math.abs(row.p - p)).toBeLessThanOrEqual(0.00005 + 1e-12);
        expect(Math.abs(row.s - s)).toBeLessThanOrEqual(0.005 + 1e-12);
        if (e === null) expect(row.e).toBeNaN();
        else expect(Math.abs(row.e - e)).toBeLessThanOrEqual(0.005 + 1e-12);
        expect(Math.abs(row.t - t)).toBeLessThanOrEqual(0.005 + 1e-12);
        expect(row.stderr).toEqual({ p: 0, s: 0, e: 0, t: 0 });
      });
    }
  });

  it("agrees with an independent reference for n = 1..8 and every stopVegas", async () => {
    for (let n = 1; n <= 8; n++) {
      for (let k = 0; k <= n; k++) {
        const want = referenceExact(n, k);
        const got = await lasVegasStats(n, { stopVegas: k, exact: true });
        for (const key of ["p", "s", "e"] as const) {
          if (Number.isNaN(want[key])) expect(got[key], `n ${n} k ${k} ${key}`).toBeNaN();
          else expectNear(got[key], want[key], `n ${n} k ${k} ${key}`);
        }
      }
    }
  });

  it("is internally consistent: t = s + (1 - p) e / p, p in [0, 1], stopVegas n - 1 = n, for n = 4..11", async () => {
    for (let n = 4; n <= 11; n++) {
      const { rows, best } = await lasVegasTable(n, { exact: true });
      for (const r of rows) {
        expect(r.p).toBeGreaterThan(0);
        expect(r.p).toBeLessThanOrEqual(1);
        const t = r.p === 1 ? r.s : r.s + ((1 - r.p) * r.e) / r.p;
        expectNear(r.t, t, `n ${n} k ${r.stopVegas} t`);
        expect(r.t).toBeGreaterThanOrEqual(r.s);
        if (r.p === 1) expect(r.e).toBeNaN();
        expect(r.t).toBeGreaterThanOrEqual(rows[best].t);
      }
      // the last row never has more than one safe column: random or backtracking, the same try
      const { ms: _a, ...last } = rows[n];
      const { ms: _b, ...before } = rows[n - 1];
      expect({ ...last, stopVegas: 0 }).toEqual({ ...before, stopVegas: 0 });
    }
  });

  it("stopVegas = 0 is plain backtracking: p = 1 and s = solve(n, { method: 'backtrack' }).nodes", async () => {
    for (let n = 4; n <= 14; n++) {
      const r = await lasVegasStats(n, { stopVegas: 0, exact: true });
      const back = await solve(n, { method: "backtrack" });
      expect({ n, p: r.p, s: r.s, t: r.t }).toEqual({ n, p: 1, s: back.nodes, t: back.nodes });
    }
  });

  it("n = 1, 2, 3: one queen always fits; 2 and 3 never succeed (t infinite)", async () => {
    expect(await lasVegasStats(1, { exact: true })).toMatchObject({ stopVegas: 1, p: 1, s: 2, t: 2 });
    for (const n of [2, 3]) {
      for (let k = 0; k <= n; k++) {
        const r = await lasVegasStats(n, { stopVegas: k, exact: true });
        expect(r.p).toBe(0);
        expect(r.s).toBeNaN();
        expect(r.t).toBe(Infinity);
        expect(r.e).toBeGreaterThan(1);
      }
    }
  });
});

describe("lasVegasStats, Monte Carlo", () => {
  it("agrees with the exact numbers within 4 standard errors", async () => {
    const cases: [number, number][] = [[6, 3], [8, 2], [8, 3], [8, 8], [10, 4], [12, 5], [12, 9], [13, 6]];
    for (const [n, stopVegas] of cases) {
      const exact = await lasVegasStats(n, { stopVegas, exact: true });
      const mc = await lasVegasStats(n, { stopVegas, trials: 20_000, seed: 100 + n + stopVegas });
      expect(mc).toMatchObject({ n, stopVegas, exact: false, trials: 20_000, seed: 100 + n + stopVegas });
      expect(mc.successes).toBe(Math.round(mc.p * 20_000));
      for (const key of ["p", "s", "e", "t"] as const) {
        // se is 0 only where every try gives the same value (s = n + 1 for pure Las Vegas)
        const se = mc.stderr[key];
        expect(se, `n ${n} k ${stopVegas} ${key}`).toBeGreaterThanOrEqual(0);
        const tolerance = 4 * se + 1e-12 * exact[key];
        expect(Math.abs(mc[key] - exact[key]), `n ${n} k ${stopVegas} ${key}: ${mc[key]} +- ${se} vs ${exact[key]}`).toBeLessThanOrEqual(tolerance);
      }
      expect(mc.stderr.p).toBeGreaterThan(0);
      expect(mc.stderr.t).toBeGreaterThan(0);
      expect(mc.t).toBeCloseTo(mc.s + ((1 - mc.p) * mc.e) / mc.p, 9);
    }
  });

  it("where every try succeeds: p = 1 exactly, no failures; stopVegas = 0 repeats backtracking", async () => {
    const r = await lasVegasStats(8, { stopVegas: 1, trials: 3000, seed: 9 });
    expect(r).toMatchObject({ p: 1, successes: 3000 });
    expect(r.e).toBeNaN();
    expect(r.t).toBe(r.s);
    expect(r.stderr.t).toBeCloseTo(r.stderr.s, 12);
    const back = await lasVegasStats(10, { stopVegas: 0, trials: 50 });
    expect(back).toMatchObject({ p: 1, s: (await solve(10, { method: "backtrack" })).nodes, stderr: { p: 0, s: 0 } });
  });

  it("counts a try's nodes as the hybrid solver does (try i is the solver's try i for the same seed)", async () => {
    for (const [n, stopVegas] of [[8, 3], [8, 8], [12, 5], [20, 10], [25, 14]] as const) {
      let firstTry = -1, laterTry = -1;
      for (let seed = 1; seed <= 200 && (firstTry < 0 || laterTry < 0); seed++) {
        const solved = await solve(n, { method: "hybrid", stopVegas, seed });
        if (solved.tries === 1 && firstTry < 0) {
          firstTry = seed;
          const one = await lasVegasStats(n, { stopVegas, trials: 1, seed });
          expect({ successes: one.successes, p: one.p, s: one.s }).toEqual({ successes: 1, p: 1, s: solved.nodes });
        }
        if (solved.tries >= 2 && laterTry < 0) {
          laterTry = seed;
          const j = solved.tries;
          const all = await lasVegasStats(n, { stopVegas, trials: j, seed });
          expect(all.successes).toBe(1); // the last try, as in the solver
          expect(all.s + all.e * (j - 1)).toBeCloseTo(solved.nodes, 6);
          expect((await lasVegasStats(n, { stopVegas, trials: j - 1, seed })).successes).toBe(0);
        }
      }
      expect([firstTry, laterTry].every((seed) => seed > 0), `seeds for n ${n} stopVegas ${stopVegas}`).toBe(true);
    }
  });

  it("defaults: stopVegas as solve (8, or n - 15), 10000 trials, seed 1", async () => {
    expect(await lasVegasStats(8, { trials: 10 })).toMatchObject({ stopVegas: 8, seed: 1, trials: 10 });
    expect(await lasVegasStats(20, { trials: 10 })).toMatchObject({ stopVegas: 5 });
    const r = await lasVegasStats(6);
    expect(r).toMatchObject({ stopVegas: 6, trials: 10_000, seed: 1 });
    expect(bits(withoutTiming(r))).toEqual(bits(withoutTiming(await lasVegasStats(6, { stopVegas: 6, trials: 10_000, seed: 1 }))));
  });

  it("a Monte Carlo table is lasVegasStats row by row from the same seed", async () => {
    const table = await lasVegasTable(7, { trials: 500, seed: 42 });
    expect(table).toMatchObject({ n: 7, exact: false, trials: 500, seed: 42 });
    expect(table.rows).toHaveLength(8);
    for (const row of table.rows) {
      const alone = await lasVegasStats(7, { stopVegas: row.stopVegas, trials: 500, seed: 42 });
      expect(bits(withoutTiming(row))).toEqual(bits(withoutTiming(alone)));
    }
    expect(table.rows.every((r: LasVegasStats) => r.t >= table.rows[table.best].t)).toBe(true);
  });

  it("reports progress, honours an aborted signal and a timeout", async () => {
    const seen: number[] = [];
    await lasVegasStats(10, { stopVegas: 4, trials: 100_000, onProgress: (p) => seen.push(p.done) });
    expect(seen.at(-1)).toBe(100_000);
    await expect(lasVegasStats(8, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    await expect(lasVegasStats(40, { stopVegas: 0, trials: 2, timeoutMs: 0 })).rejects.toMatchObject({ code: ErrorCode.timeout });
    await expect(lasVegasTable(14, { exact: true, timeoutMs: 0 })).rejects.toMatchObject({ code: ErrorCode.timeout });
  });
});

describe("engines agree to the bit", () => {
  it("Monte Carlo: same seed, same numbers", async () => {
    for (const [n, stopVegas, trials, seed] of [[8, 3, 5000, 5], [12, 5, 3000, 0], [20, 5, 300, 0xffffffff], [5, 5, 1000, 77], [3, 2, 100, 1]] as const) {
      const [w, t] = await Promise.all([
        lasVegasStats(n, { stopVegas, trials, seed, engine: "wasm" }),
        lasVegasStats(n, { stopVegas, trials, seed, engine: "ts" }),
      ]);
      expect(bits(withoutTiming(w))).toEqual(bits(withoutTiming(t)));
    }
  });

  it("exact: every row of the tables for n = 1..10, and n = 12", async () => {
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12]) {
      const [w, t] = await Promise.all([lasVegasTable(n, { exact: true, engine: "wasm" }), lasVegasTable(n, { exact: true, engine: "ts" })]);
      expect(bits(w.rows.map(withoutTiming))).toEqual(bits(t.rows.map(withoutTiming)));
      expect(w.best).toBe(t.best);
    }
  });
});

describe("bad input", () => {
  const cases: [string, () => Promise<unknown>, ErrorConstructor | RangeErrorConstructor | TypeErrorConstructor, RegExp][] = [
    ["n = 0", () => lasVegasStats(0), RangeError, /n must be an integer from 1 to 1000000, got 0/],
    ["n as a string", () => lasVegasStats("8" as unknown as number), TypeError, /n must be an integer/],
    ["stopVegas > n", () => lasVegasStats(8, { stopVegas: 9 }), RangeError, /stopVegas must be an integer from 0 to 8, got 9/],
    ["stopVegas < 0", () => lasVegasStats(8, { stopVegas: -1 }), RangeError, /stopVegas must be an integer from 0 to 8, got -1/],
    ["trials = 0", () => lasVegasStats(8, { trials: 0 }), RangeError, /trials must be an integer >= 1, got 0/],
    ["seed too large", () => lasVegasStats(8, { seed: 2 ** 32 }), RangeError, /seed must be an integer from 0 to 4294967295/],
    ["exact beyond its limit", () => lasVegasStats(15, { exact: true }), RangeError, /n must be an integer from 1 to 14 when exact is true.*got 15/],
    ["exact table beyond its limit", () => lasVegasTable(16, { exact: true }), RangeError, /n must be an integer from 1 to 14 when exact is true.*got 16/],
    ["exact with trials", () => lasVegasStats(8, { exact: true, trials: 5 }), RangeError, /trials does not apply when exact is true/],
    ["exact with a seed", () => lasVegasTable(8, { exact: true, seed: 5 }), RangeError, /seed does not apply when exact is true/],
    ["exact not a boolean", () => lasVegasStats(8, { exact: "yes" as unknown as boolean }), TypeError, /exact must be true or false, got "yes"/],
    ["unknown option", () => lasVegasStats(8, { tries: 5 } as never), TypeError, /unknown option "tries" for lasVegasStats/],
    ["stopVegas in a table", () => lasVegasTable(8, { stopVegas: 2 } as never), TypeError, /unknown option "stopVegas" for lasVegasTable/],
  ];
  it.each(cases)("%s", async (_name, call, type, message) => {
    const error = await call().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(message);
    expect((error as { code?: string }).code).toBe(ErrorCode.invalidArgument);
  });
});

describe("CLI: lv-stats", () => {
  it("--table --exact: the textbook's table, the best stopVegas marked; --json as the API", async () => {
    const text = await runCli(["lv-stats", "8", "--table", "--exact"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^\s+3\s+0\.4931\s+13\.48\s+15\.10\s+29\.01$/m);
    expect(text.stdout).toMatch(/^\s+2\*/m);
    expect(text.stdout).toContain("stopVegas 2, t = 28.20");
    const json = JSON.parse((await runCli(["lv-stats", "8", "--table", "--exact", "--json"])).stdout);
    expect(json).toMatchObject({ n: 8, exact: true, best: 2 });
    expect(json.rows).toHaveLength(9);
    expect(json.rows[0]).toMatchObject({ p: 1, s: 114, e: null });
  });

  it("one stopVegas by Monte Carlo gives the API's numbers", async () => {
    const run = await runCli(["lv-stats", "8", "--stop-vegas", "3", "--trials", "1000", "--seed", "5", "--json"]);
    expect(run.code).toBe(0);
    const api = await lasVegasStats(8, { stopVegas: 3, trials: 1000, seed: 5 });
    expect(JSON.parse(run.stdout)).toMatchObject({ stopVegas: 3, trials: 1000, seed: 5, p: api.p, s: api.s, e: api.e, t: api.t, successes: api.successes });
    const text = await runCli(["lv-stats", "8", "--stop-vegas", "3", "--trials", "1000", "--seed", "5", "--engine", "ts"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("Monte Carlo, 1000 tries, seed 5");
    expect(text.stdout).toContain(`${api.p.toFixed(4)} +- ${api.stderr.p.toFixed(4)}`);
  });

  const badInput: [string[], RegExp][] = [
    [["lv-stats", "8", "--stop-vegas", "9"], /--stop-vegas must be an integer from 0 to 8, got 9/],
    [["lv-stats", "15", "--exact"], /n must be an integer from 1 to 14 when exact is true/],
    [["lv-stats", "8", "--exact", "--trials", "5"], /'--exact' cannot be used with option '--trials/],
    [["lv-stats", "8", "--table", "--stop-vegas", "2"], /'--table' cannot be used with option '--stop-vegas/],
    [["lv-stats", "8", "--trials", "0"], /trials must be an integer >= 1, got 0/],
  ];
  it.each(badInput)("bad input %j exits 2 with a one-line message", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
  });

  it("Ctrl-C stops a long run with exit code 130", async () => {
    const run = await runCli(["lv-stats", "40", "--stop-vegas", "0", "--trials", "2"], { killOnceHandled: 300 }); // 300 ms after its Ctrl-C handler is set
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });
});

describe("lasVegasStats at stopVegas = 0 (no random rows: every try is the same backtracking)", () => {
  /** Runs every one of `trials` tries through the engine itself, with no shortcut. */
  function everyTry(engine: "wasm" | "ts", n: number, trials: number, seed: number) {
    const runner = (engine === "wasm" ? wasmEngine : tsEngine).openLasVegasTrials(n, seed, 0, trials);
    try {
      while (!runner.run(runner.work() + 1e7));
      return runner.sums();
    } finally {
      runner.close();
    }
  }

  it.each(ENGINES)("one try stands for all: the figures equal those of running every try (%s)", async (engine) => {
    for (const n of [1, 2, 3, 4, 6, 8, 11, 14]) {
      for (const trials of [1, 2, 5, 64]) {
        const seed = 7 * n + trials;
        const sums = everyTry(engine, n, trials, seed);
        const r = await lasVegasStats(n, { stopVegas: 0, trials, seed, engine });
        const failures = sums.tries - sums.successes;
        expect(r.successes).toBe(sums.successes);
        expect(r.p).toBe(sums.successes / sums.tries);
        expect(r.s).toEqual(sums.successes ? sums.successNodes / sums.successes : NaN);
        expect(r.e).toEqual(failures ? sums.failureNodes / failures : NaN);
        // the standard errors are those of the tries really made (all the same: 0, or undefined below two)
        expect(r.stderr.s).toEqual(standardError(sums.successNodes, sums.successSquares, sums.successes));
        expect(r.stderr.e).toEqual(standardError(sums.failureNodes, sums.failureSquares, failures));
        expect(r.stderr.p).toBe(Math.sqrt((r.p * (1 - r.p)) / trials));
        // and they are backtracking's: solve's nodes for a solvable n, the whole tree's for n = 2, 3
        if (n !== 2 && n !== 3) expect(r.s).toBe((await solve(n, { method: "backtrack", engine })).nodes);
        else expect(r.p).toBe(0);
      }
    }
  });

  it("is quick where running every try is not: n = 20, 10,000 tries", async () => {
    // 10,000 plain backtracking runs of 199,636 nodes each would take minutes; the figures
    // are those of one, with the count of tries kept.
    const progress: number[] = [];
    const r = await lasVegasStats(20, { stopVegas: 0, trials: 10_000, onProgress: (p) => progress.push(p.done) });
    expect(r).toMatchObject({ trials: 10_000, successes: 10_000, p: 1, s: 199_636, t: 199_636, stderr: { p: 0, s: 0, t: 0 } });
    expect(progress.at(-1)).toBe(10_000);
    // and stays exact where the sums of so many tries would not fit a double's 53 bits
    const huge = await lasVegasStats(20, { stopVegas: 0, trials: 9e15 });
    expect(huge).toMatchObject({ successes: 9e15, p: 1, s: 199_636, t: 199_636, stderr: { p: 0, s: 0, t: 0 } });
  });
});
