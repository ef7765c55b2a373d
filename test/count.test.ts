// Counting: the task split, progress, abort and timeout.
import { describe, expect, it } from "vitest";
import { splitTasks } from "../src/engine/prefix-split.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { count, type CountProgress } from "../src/index.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { ENGINES } from "./helpers.js";

describe("count", () => {
  it.each([["ts", tsEngine], ["wasm", wasmEngine]] as const)("gives the same total, unique and nodes whatever the split depth (n = 5..11, engine %s)", (_name, engine) => {
    for (let n = 5; n <= 11; n++) {
      const results = [];
      // up to depth n - 1, so tasks that start on the last two rows are counted too
      for (let depth = 2; depth <= n - 1; depth++) {
        const { tasks, prefixNodes } = splitTasks(n, depth);
        const counter = engine.openCounter(n);
        let c8 = 0n, c4 = 0n, c2 = 0n, nodes = prefixNodes;
        for (const task of tasks) {
          const r = counter.countTask(task);
          c8 += r.count8; c4 += r.count4; c2 += r.count2; nodes += r.nodes;
        }
        counter.close();
        results.push({ total: 8n * c8 + 4n * c4 + 2n * c2, unique: c8 + c4 + c2, nodes });
      }
      for (const r of results) expect(r).toEqual({ total: A000170[n], unique: A002562[n], nodes: results[0].nodes });
    }
  });

  it.each([["ts", tsEngine], ["wasm", wasmEngine]] as const)("a task counted in chunks of any budget gives what countTask gives (n = 6..12, engine %s)", (_name, engine) => {
    for (let n = 6; n <= 12; n++) {
      const { tasks } = splitTasks(n, Math.min(3, n - 1));
      const whole = engine.openCounter(n), chunked = engine.openCounter(n);
      for (const [i, task] of tasks.entries()) {
        const budget = [1, 2, 7, 100, 5000][i % 5];
        chunked.start(task);
        let chunks = 0;
        while (!chunked.run(budget)) chunks++;
        const expected = whole.countTask(task);
        expect(chunked.result()).toEqual(expected);
        // a chunk places about `budget` nodes: the check is at a pop, so a little more
        if (budget === 1) expect(chunks).toBeGreaterThanOrEqual(Number(expected.nodes) / (2 * n) - 1);
      }
      whole.close(); chunked.close();
    }
  });

  it("uses symmetry to search far fewer nodes than a plain search (n = 10)", async () => {
    // a plain depth-first count, placing every queen that fits
    const n = 10;
    const cols: number[] = [];
    let plainNodes = 0;
    let plainTotal = 0;
    const place = (row: number): void => {
      if (row === n) { plainTotal++; return; }
      for (let c = 0; c < n; c++) {
        if (cols.some((d, r) => d === c || Math.abs(d - c) === row - r)) continue;
        plainNodes++;
        cols.push(c);
        place(row + 1);
        cols.pop();
      }
    };
    place(0);
    expect(BigInt(plainTotal)).toBe(A000170[n]);
    expect((await count(n)).nodes).toBeLessThan(BigInt(plainNodes) / 3n);
  });

  it.each(ENGINES)("reports progress and ends with every task done (engine %s)", async (engine) => {
    const reports: CountProgress[] = [];
    const result = await count(14, { engine, onProgress: (p) => reports.push(p) });
    expect(reports.length).toBeGreaterThan(0);
    const last = reports[reports.length - 1];
    expect(last.tasksDone).toBe(last.tasksTotal);
    expect(last.nodes).toBe(result.nodes);
    for (let i = 1; i < reports.length; i++) expect(reports[i].tasksDone).toBeGreaterThanOrEqual(reports[i - 1].tasksDone);
  });

  it.each(ENGINES)("an abort stops a long count promptly with an AbortError (engine %s)", async (engine) => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const error = await count(18, { engine, signal: controller.signal }).then(() => undefined, (e: unknown) => e);
    expect((error as Error).name).toBe("AbortError");
    expect(Date.now() - started).toBeLessThan(20_000); // a hang guard: count(18) takes much longer on either engine
  });

  it("an already aborted signal rejects at once", async () => {
    await expect(count(8, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("timeoutMs rejects with a TimeoutError", async () => {
    await expect(count(18, { timeoutMs: 50 })).rejects.toMatchObject({ name: "TimeoutError", code: "NQ_TIMEOUT" });
  });

  it("two counts at once do not disturb each other", async () => {
    const [a, b] = await Promise.all([count(12), count(13)]);
    expect([a.total, b.total]).toEqual([A000170[12], A000170[13]]);
  });
});
