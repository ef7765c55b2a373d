// Progress pacing (src/core/pacer.ts): the first chunk is always reported, so a plot starts at
// the starting state; progressIntervalMs sets the least time between reports (0: every
// chunk), the same option on every long-running function.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { count, countParallel, estimate, lasVegasStats, lasVegasTable, solve, treeSize, type SolveProgress } from "../src/index.js";
import { ChunkSizer, CHUNK_TARGET_MS, ProgressThrottle } from "../src/core/pacer.js";
import { diagonalSurplus, isSolutionOfSize } from "./helpers.js";

describe("progress reports", () => {
  // Hill climbing on the reference engine at n = 1500 runs for many chunks of about 10 ms.
  const run = async (progressIntervalMs?: number) => {
    const reports: SolveProgress[] = [];
    const result = await solve(1500, {
      method: "hill-climb", engine: "ts", seed: 4, onProgress: (p) => reports.push(p),
      ...(progressIntervalMs === undefined ? {} : { progressIntervalMs }),
    });
    expect(result.found).toBe(true);
    expect(isSolutionOfSize(result.columns!, 1500)).toBe(true);
    return { reports, result };
  };

  it("the first chunk is reported, so a plot of conflicts starts near the random permutation's", async () => {
    const { reports } = await run(60_000);
    // With a long interval: the report after the first chunk, and the final one, nothing else.
    expect(reports).toHaveLength(2);
    const [first, last] = reports;
    expect(last.conflicts).toBe(0);
    // A random permutation of 1500 has hundreds of diagonal conflicts; one chunk of swap
    // evaluations (at most a few thousand, a handful of swaps taken) removes only a few.
    expect(first.conflicts).toBeGreaterThan(300);
    expect(first.steps).toBeLessThan(first.conflicts);
  });

  it("progressIntervalMs: 0 reports after every chunk: steps rise and conflicts fall, report by report", async () => {
    const dense = await run(0);
    const sparse = await run();
    // Same seed, same search: the same result whatever the pacing.
    expect(Array.from(dense.result.columns!)).toEqual(Array.from(sparse.result.columns!));
    expect(dense.result.steps).toBe(sparse.result.steps);
    expect(dense.reports.length).toBeGreaterThan(sparse.reports.length);
    for (let i = 1; i < dense.reports.length; i++) {
      expect(dense.reports[i].steps).toBeGreaterThanOrEqual(dense.reports[i - 1].steps);
      // Every swap taken lowers h by at least 1, within one try.
      if (dense.reports[i].tries === dense.reports[i - 1].tries) {
        expect(dense.reports[i].conflicts).toBeLessThanOrEqual(dense.reports[i - 1].conflicts - (dense.reports[i].steps - dense.reports[i - 1].steps));
      }
    }
    expect(diagonalSurplus(dense.result.columns!)).toBe(0);
  });

  it("the end is reported once: no report repeats the last one, even at progressIntervalMs 0", async () => {
    // (The split's reports, made when the split takes longer than a slice, as under load, count
    // the parts made, not those done: read the work's own reports.)
    const runs: [string, (on: (p: { tasksDone: number; phase?: string }) => void) => Promise<unknown>][] = [
      ["count(12)", (on) => count(12, { progressIntervalMs: 0, onProgress: on })],
      ["treeSize(10)", (on) => treeSize(10, { progressIntervalMs: 0, onProgress: on })],
      ["treeSize(2)", (on) => treeSize(2, { onProgress: on })],
      ["countParallel(9)", (on) => countParallel(9, { workers: 1, progressIntervalMs: 0, onProgress: on })],
    ];
    for (const [name, run] of runs) {
      const done: number[] = [];
      await run((p) => { if (p.phase !== "split") done.push(p.tasksDone); });
      for (let i = 1; i < done.length; i++) expect(done[i], `${name}: ${done.join(",")}`).toBeGreaterThan(done[i - 1]);
    }
    const exact: number[] = [];
    await lasVegasStats(8, { stopVegas: 3, exact: true, progressIntervalMs: 0, onProgress: (p) => exact.push(p.done) });
    for (let i = 1; i < exact.length; i++) expect(exact[i]).toBeGreaterThan(exact[i - 1]);
  });

  it("boards answered without a search (n <= 3) still report once, at the end", async () => {
    const calls: unknown[] = [];
    await count(2, { onProgress: (p) => calls.push(p) });
    await solve(3, { onProgress: (p) => calls.push(p) });
    await countParallel(3, { onProgress: (p) => calls.push(p) });
    expect(calls).toHaveLength(3);
    expect(calls[0]).toMatchObject({ n: 2, tasksDone: 0, tasksTotal: 0 });
    expect(calls[1]).toMatchObject({ n: 3, nodes: 0, tries: 0, steps: 0 });
    expect(calls[2]).toMatchObject({ n: 3, tasksDone: 0, tasksTotal: 0, workers: 0 });
  });

  it("every paced function takes progressIntervalMs and checks it", async () => {
    const calls = [
      (v: unknown) => count(6, { progressIntervalMs: v as number }),
      (v: unknown) => solve(6, { progressIntervalMs: v as number }),
      (v: unknown) => estimate(6, { samples: 10, progressIntervalMs: v as number }),
      (v: unknown) => treeSize(6, { progressIntervalMs: v as number }),
      (v: unknown) => lasVegasStats(6, { stopVegas: 2, trials: 10, progressIntervalMs: v as number }),
      (v: unknown) => lasVegasTable(6, { exact: true, progressIntervalMs: v as number }),
      (v: unknown) => countParallel(8, { workers: 1, progressIntervalMs: v as number }),
    ];
    for (const call of calls) {
      await expect(call(-1)).rejects.toThrow(/progressIntervalMs must be an integer from 0 to 60000, got -1/);
      await expect(call(1.5)).rejects.toThrow(RangeError);
      await expect(call("10")).rejects.toThrow(TypeError);
      await expect(call(0)).resolves.toBeDefined();
    }
  });
});

describe("ChunkSizer", () => {
  // The times are told, not measured: this is the sizing rule, not a timing.
  it("doubles while chunks are short, and cuts a slow chunk's budget at once to the target's share", () => {
    const sizer = new ChunkSizer();
    for (let i = 0; i < 20; i++) sizer.observe(CHUNK_TARGET_MS / 10);
    expect(sizer.get()).toBe(2 ** 20);
    sizer.observe(CHUNK_TARGET_MS * 16); // units 16 times dearer than the target allows
    expect(sizer.get()).toBe(2 ** 16); // not 2 ** 19: the next chunk takes about the target
    sizer.observe(CHUNK_TARGET_MS);
    expect(sizer.get()).toBe(2 ** 16);
    sizer.observe(1e9);
    expect(sizer.get()).toBe(1);
  });

  it("judges a chunk that ended early by what its whole budget would have taken", () => {
    const sizer = new ChunkSizer(1024);
    sizer.observe(CHUNK_TARGET_MS / 8, 32); // 32 units in 1.25 ms: 1024 would take 40 ms
    expect(sizer.get()).toBe(256);
    sizer.observe(0, 0); // a chunk that did nothing says nothing
    expect(sizer.get()).toBe(256);
    sizer.observe(CHUNK_TARGET_MS / 8, 256); // full budget, short: doubles
    expect(sizer.get()).toBe(512);
  });
});

describe("ProgressThrottle", () => {
  it("sends the first report at once, then at most one per interval; a final one always, outside the interval (a hand-moved clock)", () => {
    let t = 1000;
    const sent: number[] = [];
    const built: number[] = [];
    const throttle = new ProgressThrottle<number>((p) => sent.push(p), 50, () => t);
    const at = (time: number, value: number, final = false) => {
      t = time;
      return throttle.report(() => (built.push(value), value), final);
    };
    expect(at(1000, 1)).toBe(true); // the first: plots begin near the start
    expect(at(1020, 2)).toBe(false);
    expect(at(1049, 3)).toBe(false);
    expect(at(1050, 4)).toBe(true); // 50 ms after the last sent
    expect(at(1060, 5, true)).toBe(true); // final: sent although within the interval...
    expect(at(1080, 6)).toBe(false); // ...and it does not restart the interval (1080 - 1050 < 50)
    expect(at(1100, 7)).toBe(true);
    expect(sent).toEqual([1, 4, 5, 7]);
    expect(built).toEqual(sent); // a progress object is built only when it is sent
    expect(new ProgressThrottle<number>(undefined).report(() => { throw new Error("not built"); }, true)).toBe(false);
    const every = new ProgressThrottle<number>((p) => sent.push(p), 0, () => t);
    expect([every.report(() => 8), every.report(() => 9)]).toEqual([true, true]); // interval 0: every report
  });

  it("is the one throttle: Pacer, countParallel and the queue coordinator report through it, none throttles by hand", () => {
    // (the queue's coordinators, a count's and a solve's, report through the drive they share)
    for (const file of ["src/core/pacer.ts", "src/workers/parallel.ts", "src/distributed/drive.ts"]) {
      const source = readFileSync(file, "utf8");
      expect(source, file).toMatch(/new ProgressThrottle\(/);
      // no timestamp of the last report kept beside it
      expect(source, file).not.toMatch(/\blast(Progress|Report)\b/);
    }
  });
});
