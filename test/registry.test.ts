// The kernel registry (src/engine/registry.ts) is what every consumer reads: the Wasm
// module's exports, solve's ranges, caps, seeding and stopVegas, auto's rule, trace's
// methods, crossCheck's kernels and sizes, and the CLI's method choices.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  AUTO_RULE, CROSS_CHECK_KERNELS, LIMITS, METHODS, METHOD_NAMES, SEARCH_METHODS, TRACE_METHODS, autoMethod, defaultStopVegas,
} from "../src/engine/registry.js";
import { DEFAULT_SIZES, KERNELS, KERNEL_NAMES } from "../src/analysis/crosscheck.js";
import { solve } from "../src/search/solve.js";
import { trace, TRACE_METHODS as TRACE_METHODS_OF_TRACE } from "../src/search/trace.js";
import * as api from "../src/index.js";
import { runCli } from "./cli-run.js";
import { isSolutionOfSize } from "./helpers.js";

const exportsOf = (): string[] =>
  WebAssembly.Module.exports(new WebAssembly.Module(readFileSync("build/release.wasm"))).map((e) => e.name);

/** The `--method` choices a CLI command's help lists. */
async function cliChoices(command: string): Promise<string[]> {
  const run = await runCli([command, "--help"]);
  const help = run.stdout.replace(/\s+/g, " ");
  const match = /--method <M> .*?\(choices: (.*?), default/.exec(help);
  expect(match, `nqueens ${command} --help: exit ${run.code}, stdout ${JSON.stringify(run.stdout)}, stderr ${JSON.stringify(run.stderr)}`).not.toBeNull();
  return [...match![1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

describe("registry", () => {
  test("the Wasm module exports Init, Run and Stat for every method's kernel, and no search kernel the registry lacks", () => {
    const names = new Set(exportsOf());
    for (const method of SEARCH_METHODS) {
      for (const suffix of ["Init", "Run", "Stat"]) expect(names.has(`${METHODS[method].kernel}${suffix}`), `${method}: ${suffix}`).toBe(true);
    }
    const searchKernels = [...names].filter((n) => n.endsWith("Run") && names.has(n.replace(/Run$/, "Stat"))).map((n) => n.replace(/Run$/, ""));
    // lasVegasTrials is the Monte Carlo of lv-stats (it runs the hybrid's tries), not a method.
    expect(searchKernels.sort()).toEqual([...SEARCH_METHODS.map((m) => METHODS[m].kernel), "lasVegasTrials"].sort());
  });

  test("each method's files exist: assembly/<file>.ts and its twin src/engine/ts/<file>.ts", () => {
    for (const method of SEARCH_METHODS) {
      const { file, kernel } = METHODS[method];
      expect(readFileSync(`assembly/${file}.ts`, "utf8")).toContain(`export function ${kernel}Init(`);
      expect(readFileSync(`src/engine/ts/${file}.ts`, "utf8")).toContain("export function open");
    }
  });

  test("solve takes exactly the caps the registry lists, reports a seed only for seeded methods, stopVegas only where it applies", async () => {
    for (const method of SEARCH_METHODS) {
      const spec = METHODS[method];
      const plain = await solve(8, { method, engine: "ts" });
      expect(isSolutionOfSize(plain.columns, 8)).toBe(true);
      expect(plain.seed === null).toBe(!spec.seeded);
      expect("stopVegas" in plain).toBe(spec.stopVegas);
      if (spec.local) expect(plain.nodes).toBe(0); // a local search counts steps, not nodes
      else expect(plain.steps).toBe(0);
      for (const limit of LIMITS) {
        const run = solve(8, { method, engine: "ts", [limit]: 1_000_000 });
        if ((spec.limits as readonly string[]).includes(limit)) await expect(run).resolves.toMatchObject({ found: true });
        else await expect(run).rejects.toThrow(new RegExp(`${limit} does not apply to method "${method}"`));
      }
      const withStopVegas = solve(8, { method, engine: "ts", stopVegas: 2 });
      if (spec.stopVegas) await expect(withStopVegas).resolves.toMatchObject({ stopVegas: 2 });
      else await expect(withStopVegas).rejects.toThrow(RangeError);
      await expect(solve(spec.maxN + 1, { method, engine: "ts" })).rejects.toThrow(RangeError);
    }
    expect((await solve(20, { method: "hybrid", engine: "ts" })).stopVegas).toBe(defaultStopVegas(20));
  });

  test("'auto' follows the registry's rule at and around its thresholds", async () => {
    const { backtrackMaxN, hybridBelowN } = AUTO_RULE;
    expect([backtrackMaxN, backtrackMaxN + 1, hybridBelowN - 1, hybridBelowN].map((n) => autoMethod(n))).toEqual(["backtrack", "hybrid", "hybrid", "min-conflicts"]);
    expect(autoMethod(8, true)).toBe("complete"); // given queens or blocked squares
    expect((await solve(8, { blocked: [[0, 0]] })).method).toBe("complete");
    for (const n of [4, backtrackMaxN, backtrackMaxN + 1, hybridBelowN - 1, hybridBelowN, 1000]) {
      const result = await solve(n, { engine: "wasm" });
      expect(result.method).toBe(autoMethod(n));
      expect(isSolutionOfSize(result.columns, n)).toBe(true);
    }
    expect(api.autoMethod).toBe(autoMethod);
    expect(api.METHODS).toBe(METHODS);
    expect(api.METHOD_NAMES).toEqual(METHOD_NAMES);
  });

  test("trace follows exactly the traceable methods", () => {
    expect(TRACE_METHODS_OF_TRACE).toEqual(SEARCH_METHODS.filter((m) => METHODS[m].traceable));
    expect(api.TRACE_METHODS).toEqual(TRACE_METHODS);
    for (const method of SEARCH_METHODS) {
      const run = () => [...trace(6, { method: method as never, maxEvents: 5 })];
      if (METHODS[method].traceable) expect(run()).toHaveLength(5);
      else expect(run).toThrow(/method must be one of/);
    }
  });

  test("crossCheck's kernels are the registry's, each method swept up to its crossCheckMaxN", () => {
    expect(KERNEL_NAMES).toEqual(CROSS_CHECK_KERNELS);
    expect(Object.keys(KERNELS).sort()).toEqual([...CROSS_CHECK_KERNELS].sort());
    const sweep = { sizes: DEFAULT_SIZES, seeds: [1], thorough: false };
    for (const method of SEARCH_METHODS) {
      const sizes = KERNELS[`solve:${method}`].cases(sweep).map((c) => c.n);
      expect(sizes).toEqual(DEFAULT_SIZES.filter((n) => n <= METHODS[method].crossCheckMaxN));
    }
  });

  test("the demo reads the registry: auto's rule, the step-through's methods and stopVegas are not copied into it", () => {
    const files = readdirSync("demo").filter((f) => f.endsWith(".ts") && f !== "vite.config.ts");
    const code = files.map((f) => readFileSync(`demo/${f}`, "utf8")).join("\n");
    expect(code).not.toMatch(/n\s*(>=|<)\s*50|n\s*<=\s*12/); // auto's thresholds
    expect(code).not.toMatch(/=== "hybrid"/); // which methods take stopVegas
    expect(code).toContain("autoMethod(n)");
    expect(code).toContain("TRACE_METHODS");
    const html = readFileSync("demo/index.html", "utf8");
    for (const method of SEARCH_METHODS) expect(html).not.toContain(`<option value="${method}"`);
  });

  test("the CLI offers the registry's methods: solve's and trace's --method choices", async () => {
    expect(await cliChoices("solve")).toEqual(METHOD_NAMES);
    expect(await cliChoices("trace")).toEqual(TRACE_METHODS);
  });
});
