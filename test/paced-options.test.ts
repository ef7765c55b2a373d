// signal, timeoutMs, onProgress and progressIntervalMs are declared and documented once
// (src/core/pacer.ts: SignalOptions, TimeoutOptions, ProgressOptions, PacedOptions); every
// long-running function's options type extends them instead of restating the four fields.
import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, test } from "vitest";
import type {
  ConstrainedCountOptions, CountOptions, CountPartOptions, CountProgress, EstimateOptions, EstimateProgress, LasVegasProgress,
  LasVegasStatsOptions, LasVegasTableOptions, PacedOptions, ParallelOptions, ParallelProgress, ProgressOptions, SignalOptions,
  SolveOptions, SolveProgress, TimeoutOptions, TreeSizeOptions, TreeSizeProgress,
} from "../src/index.js";

const PACED = ["signal", "timeoutMs", "onProgress", "progressIntervalMs"] as const;

/** Which paced fields each options type takes, and the file that declares it. */
const TAKERS = {
  CountOptions: { file: "src/engine/count-types.ts", fields: PACED },
  SolveOptions: { file: "src/search/solve.ts", fields: PACED },
  EstimateOptions: { file: "src/analysis/estimate.ts", fields: PACED },
  TreeSizeOptions: { file: "src/analysis/estimate.ts", fields: PACED },
  LasVegasStatsOptions: { file: "src/analysis/las-vegas-stats.ts", fields: PACED },
  ParallelOptions: { file: "src/workers/parallel.ts", fields: ["signal", "onProgress", "progressIntervalMs"] },
  CountPartOptions: { file: "src/count/split.ts", fields: ["signal", "timeoutMs"] },
} as const;

describe("paced options", () => {
  test("the four fields are declared once, in src/core/pacer.ts, not restated by each function's options", () => {
    for (const [name, { file }] of Object.entries(TAKERS)) {
      const source = readFileSync(file, "utf8");
      const start = source.indexOf(`export interface ${name} extends `);
      expect(start, `${name} in ${file} extends the paced options`).toBeGreaterThanOrEqual(0);
      const body = source.slice(start, source.indexOf("\n}\n", start));
      for (const field of PACED) expect(body, `${name} restates ${field}`).not.toMatch(new RegExp(`^\\s+${field}\\?:`, "m"));
    }
    const pacer = readFileSync("src/core/pacer.ts", "utf8");
    for (const field of PACED) expect(pacer).toMatch(new RegExp(`^  ${field}\\?:`, "m"));
  });

  test("the API reference shows each function's paced fields inherited, with the one description", () => {
    const api = readFileSync("docs/api/nqueens-wasm.md", "utf8");
    const section = (name: string) => {
      const start = api.indexOf(`\n### ${name}\n`);
      expect(start, name).toBeGreaterThanOrEqual(0);
      return api.slice(start, api.indexOf("\n***", start));
    };
    const described = new Map<string, string>();
    for (const [name, { fields }] of Object.entries(TAKERS)) {
      for (const field of fields) {
        const row = section(name).split("\n").find((line) => line.includes(`\`${field}?\``));
        expect(row, `${name}.${field}`).toBeDefined();
        expect(row, `${name}.${field} is inherited`).toMatch(/\[`(Paced|Signal|Timeout|Progress)Options`\]\(#\w+\)\.\[`\w+`\]/);
        const description = row!.split(" | ")[2]!;
        expect(description === "-" ? "" : description).not.toBe("");
        if (described.has(field)) expect(description, `${name}.${field}`).toBe(described.get(field));
        else described.set(field, description);
      }
    }
    expect([...described.keys()].sort()).toEqual([...PACED].sort());
  });

  test("the public shapes: each options type is its paced options (types only; tsc checks this file)", () => {
    expectTypeOf<CountOptions>().toMatchTypeOf<PacedOptions<CountProgress>>();
    expectTypeOf<SolveOptions>().toMatchTypeOf<PacedOptions<SolveProgress>>();
    expectTypeOf<EstimateOptions>().toMatchTypeOf<PacedOptions<EstimateProgress>>();
    expectTypeOf<TreeSizeOptions>().toMatchTypeOf<PacedOptions<TreeSizeProgress>>();
    expectTypeOf<LasVegasStatsOptions>().toMatchTypeOf<PacedOptions<LasVegasProgress>>();
    expectTypeOf<LasVegasTableOptions>().toMatchTypeOf<PacedOptions<LasVegasProgress>>();
    expectTypeOf<ParallelOptions>().toMatchTypeOf<SignalOptions & ProgressOptions<ParallelProgress>>();
    expectTypeOf<CountPartOptions>().toMatchTypeOf<TimeoutOptions>();
    expectTypeOf<ConstrainedCountOptions>().toMatchTypeOf<TimeoutOptions>();
    expectTypeOf<CountOptions["onProgress"]>().toEqualTypeOf<((progress: CountProgress) => void) | undefined>();
    // countParallel takes no timeoutMs: the type says so too.
    expectTypeOf<ParallelOptions>().not.toHaveProperty("timeoutMs");
  });
});
