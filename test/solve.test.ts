// solve(): the driver's promises about abort, progress, time limits and results.
import { describe, expect, it, vi } from "vitest";
import { ChunkSizer } from "../src/core/pacer.js";
import { solve, type SolveProgress } from "../src/index.js";
import { ENGINES, isSolutionLarge } from "./helpers.js";

describe.each(ENGINES)("solve on engine %s", (engine) => {
  it("an abort rejects a long search promptly with an AbortError: no chunk searched after it", async () => {
    // Promptly in chunks, not milliseconds (load stretches those): each chunk's end is timed
    // (ChunkSizer.observe, called with each chunk's time); none comes after the abort, which
    // lands while solve lets the event loop run between two chunks, and is checked there.
    const ends: number[] = [];
    const observe = ChunkSizer.prototype.observe;
    const spy = vi.spyOn(ChunkSizer.prototype, "observe").mockImplementation(function (this: ChunkSizer, ...args) {
      ends.push(performance.now());
      return observe.apply(this, args);
    });
    try {
      const controller = new AbortController();
      let abortedAt = Infinity;
      setTimeout(() => { abortedAt = performance.now(); controller.abort(); }, 100);
      const error = await solve(40, { engine, method: "backtrack", signal: controller.signal }).catch((e: unknown) => e);
      expect((error as Error).name).toBe("AbortError");
      expect(ends.filter((t) => t > abortedAt), `chunks after the abort, of ${ends.length}`).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it("reports progress at most about 20 times a second, with the figures that move", async () => {
    const reports: SolveProgress[] = [];
    const result = await solve(40, { engine, method: "backtrack", timeoutMs: 600, onProgress: (p) => reports.push(p) });
    expect(result).toMatchObject({ found: false, reason: "timeout" });
    expect(reports.length).toBeGreaterThan(3);
    expect(reports.length).toBeLessThanOrEqual(Math.ceil(result.ms / 50) + 2);
    for (let i = 1; i < reports.length; i++) expect(reports[i].nodes).toBeGreaterThanOrEqual(reports[i - 1].nodes);
    expect(reports.at(-1)).toMatchObject({ phase: "search", method: "backtrack", nodes: result.nodes, conflicts: -1 });
  });

  it("min-conflicts reports its construct and repair phases with the conflicts left", async () => {
    const phases = new Set<string>();
    let lastConflicts = Infinity;
    const result = await solve(2_000_000, {
      engine,
      method: "min-conflicts",
      onProgress: (p) => {
        phases.add(p.phase);
        if (p.phase === "repair") lastConflicts = p.conflicts;
      },
    });
    expect(result.found).toBe(true);
    expect(phases.has("repair")).toBe(true);
    expect(lastConflicts).toBe(0);
    expect(isSolutionLarge(result.columns!)).toBe(true);
  });

  it("returns fresh columns that later calls do not overwrite", async () => {
    const first = await solve(30, { engine, method: "las-vegas", seed: 1 });
    const copy = Array.from(first.columns!);
    const second = await solve(30, { engine, method: "las-vegas", seed: 2 });
    await solve(30, { engine, method: "las-vegas", seed: 3 });
    expect(Array.from(first.columns!)).toEqual(copy);
    second.columns![0] = -1;
    expect(Array.from((await solve(30, { engine, method: "las-vegas", seed: 1 })).columns!)).toEqual(copy);
  });

  it("answers n = 2 and 3 at once on every method, and n = 1 with [0]", async () => {
    for (const method of ["auto", "backtrack", "las-vegas", "hybrid", "hill-climb", "min-conflicts", "construct"] as const) {
      for (const n of [2, 3]) {
        const result = await solve(n, { engine, method });
        expect(result).toMatchObject({ found: false, reason: "no-solution", columns: null });
        expect(result.ms).toBeLessThan(50);
      }
      expect(Array.from((await solve(1, { engine, method })).columns!)).toEqual([0]);
    }
  });

  it("seed 'random' picks a seed and reports it, so the run can be repeated", async () => {
    const first = await solve(40, { engine, method: "las-vegas", seed: "random" });
    expect(Number.isInteger(first.seed)).toBe(true);
    const again = await solve(40, { engine, method: "las-vegas", seed: first.seed! });
    expect(Array.from(again.columns!)).toEqual(Array.from(first.columns!));
  });
});

describe("solve's result type", () => {
  it("found narrows the result: columns is the solution when found, null with a reason when not", async () => {
    const r = await solve(8);
    if (!r.found) throw new Error("solve(8) finds a solution");
    const first: number = r.columns[0]; // no `!`: found narrows columns to Int32Array (tsc checks this file, test/typecheck.test.ts)
    expect(first).toBe(Array.from(r.columns)[0]);
    expect(r.reason).toBeUndefined();
    const none = await solve(3);
    if (none.found) throw new Error("n = 3 has no solution");
    const why: string = none.reason; // a reason is always there when found is false
    expect([why, none.columns]).toEqual(["no-solution", null]);
    const either = await solve(6);
    // @ts-expect-error without narrowing by found, columns may be null
    expect(either.columns[0]).toBeGreaterThanOrEqual(0);
  });
});
