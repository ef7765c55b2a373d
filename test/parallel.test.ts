// Work splitting and parallel counting: exact sums, JSON round trips, abort, a killed
// worker, and checkpoints that resume without recounting.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { SPLIT_VERSION, count, countParallel, countTask, mergeCounts, splitCount, type ParallelProgress } from "../src/index.js";
import { workerHooks } from "../src/workers/parallel.js";
import { CHECKPOINT_DOMAIN } from "../src/count/checkpoint.js";
import { localKey, macOf } from "../src/core/key.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { ENGINES } from "./helpers.js";

const tempFile = (name: string): string => join(mkdtempSync(join(tmpdir(), "nqueens-parallel-")), name);

describe("splitCount / countTask / mergeCounts", () => {
  it.each(ENGINES)("split + merge equals count(n) for n = 4..14 (engine %s)", async (engine) => {
    for (let n = 4; n <= 14; n++) {
      const parts = splitCount(n);
      const results = parts.map((part) => countTask(JSON.parse(JSON.stringify(part)), { engine }));
      const merged = mergeCounts(JSON.parse(JSON.stringify(results)), { n, parts: parts.length });
      const whole = await count(n, { engine });
      expect(merged).toEqual({ n, total: A000170[n], unique: A002562[n], nodes: whole.nodes });
    }
  });

  it("parts are plain JSON, deterministic, and about as many as asked", () => {
    const a = splitCount(12, { parts: 10 });
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(splitCount(12, { parts: 10 })).toEqual(a);
    expect(a).toHaveLength(10);
    expect(splitCount(16, { parts: 1000 }).length).toBe(1000);
    expect(splitCount(5, { parts: 1000 }).length).toBeLessThan(1000); // n = 5 has few prefixes
  });

  it("mergeCounts refuses missing, repeated and mixed parts (the rest: test/integrity.test.ts)", () => {
    const results = splitCount(8, { parts: 4 }).map((p) => countTask(p));
    const split = { n: 8, parts: 4 };
    expect(() => mergeCounts(results.slice(1), split)).toThrow(/3 of 4 parts of n = 8; missing part 0/);
    expect(() => mergeCounts([...results, results[0]], split)).toThrow(/part 0 of 4 \(n = 8\) twice/);
    const other = splitCount(9, { parts: 4 }).map((p) => countTask(p));
    expect(() => mergeCounts([...results.slice(0, 3), other[3]], split)).toThrow(/part 3 of 4 \(n = 9\).*not a part of the split of n = 8/);
    expect(() => countTask({ ...splitCount(8)[0], splitVersion: 0 })).toThrow(new RegExp(`split version 0; this package uses version ${SPLIT_VERSION}`));
  });
});

describe("countParallel", () => {
  it("equals count(n) with 1, 2 and 3 workers", async () => {
    for (const [n, workers] of [[10, 1], [12, 2], [13, 3], [11, 3]] as const) {
      const result = await countParallel(n, { workers });
      expect({ total: result.total, unique: result.unique, nodes: result.nodes }).toEqual({
        total: A000170[n], unique: A002562[n], nodes: (await count(n)).nodes,
      });
      expect(result.workers).toBe(workers);
    }
    expect((await countParallel(3, { workers: 2 })).total).toBe(0n);
  });

  it("reports progress: tasks done, total, elapsed, rate and an ETA", async () => {
    const reports: ParallelProgress[] = [];
    await countParallel(14, { workers: 2, parts: 64, onProgress: (p) => reports.push(p) });
    const last = reports.at(-1)!;
    expect(last).toMatchObject({ tasksDone: 64, tasksTotal: 64, workers: 2, etaMs: 0 });
    expect(reports.some((r) => r.etaMs !== undefined)).toBe(true);
    expect(reports.filter((r) => r.phase !== "split").every((r) => r.phase === "count")).toBe(true);
    for (const r of reports.filter((r) => r.phase === "count")) {
      // a count's report comes when a part is done, so there is always a rate (the split's
      // reports, which a loaded machine may show, say parts made, with no rate):
      // parts per second of this run, which times the elapsed seconds gives the parts done
      expect(r.rate! * (r.elapsedMs / 1000)).toBeCloseTo(r.tasksDone - r.tasksResumed, 6);
      expect(r.etaMs).toBeCloseTo(((r.tasksTotal - r.tasksDone) / r.rate!) * 1000, 3);
    }
  });

  it("an abort rejects promptly with an AbortError and leaves no worker running", async () => {
    const controller = new AbortController();
    const started: object[] = [];
    workerHooks.onStart = (w) => started.push(w);
    try {
      setTimeout(() => controller.abort(), 300);
      const t0 = Date.now();
      const error = await countParallel(18, { workers: 2, signal: controller.signal }).catch((e: unknown) => e);
      expect((error as Error).name).toBe("AbortError");
      expect(Date.now() - t0).toBeLessThan(60_000); // a hang guard (count(18) runs for minutes); the latency is measured by npm run bench -- --only abort
    } finally {
      workerHooks.onStart = undefined;
    }
    expect(started.length).toBe(2);
    // The process's worker threads are gone: nothing keeps the event loop busy.
    await new Promise((r) => setTimeout(r, 200));
    const handles = (process as unknown as { _getActiveHandles(): object[] })._getActiveHandles();
    expect(handles.filter((h) => h.constructor.name === "Worker")).toHaveLength(0);
  });

  it("a worker killed mid-run has its part rerun, and the count stays exact", async () => {
    let killed = 0;
    workerHooks.onStart = (worker, index) => {
      if (index === 0 && killed === 0) {
        killed++;
        setTimeout(() => worker.kill(), 100);
      }
    };
    try {
      const result = await countParallel(15, { workers: 2, parts: 64 });
      expect(killed).toBe(1);
      expect([result.total, result.unique]).toEqual([A000170[15], A002562[15]]);
    } finally {
      workerHooks.onStart = undefined;
    }
  });

  it("a checkpoint lets an interrupted count resume without recounting finished parts", async () => {
    const file = tempFile("count-14.json");
    const controller = new AbortController();
    let seen = 0;
    const first = await countParallel(14, {
      workers: 1, parts: 64, checkpoint: file, signal: controller.signal, progressIntervalMs: 0,
      onProgress: (p) => { if (p.phase !== "count") return; seen = p.tasksDone; if (p.tasksDone >= 10) controller.abort(); }, // (split reports count parts made)
    }).catch((e: unknown) => e);
    expect((first as Error).name).toBe("AbortError");
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved.done.length).toBeGreaterThanOrEqual(10);
    expect(saved.done.length).toBeLessThan(64);
    const resumed = await countParallel(14, { workers: 2, checkpoint: file });
    expect(resumed.resumed).toBe(saved.done.length);
    expect([resumed.total, resumed.unique]).toEqual([A000170[14], A002562[14]]);
    expect(seen).toBeGreaterThanOrEqual(10);
    expect(JSON.parse(readFileSync(file, "utf8")).done).toHaveLength(64);
  });

  it("refuses a checkpoint of another n, another split version or another file", async () => {
    const file = tempFile("count-10.json");
    await countParallel(10, { workers: 1, checkpoint: file });
    await expect(countParallel(11, { checkpoint: file })).rejects.toThrow(/belongs to n = 10, not n = 11/);
    // another split version: refused as changed (its MAC covers the version) and, signed with the key, as another split's
    const { mac: _mac, ...data } = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...data, splitVersion: 99, mac: _mac }));
    await expect(countParallel(10, { checkpoint: file })).rejects.toThrow(/does not verify under the key/);
    const key = localKey().key;
    const other = { ...data, splitVersion: 99 };
    writeFileSync(file, JSON.stringify({ ...other, mac: macOf(key, CHECKPOINT_DOMAIN, other) }));
    await expect(countParallel(10, { checkpoint: file })).rejects.toThrow(/task split version 99/);
    writeFileSync(file, "not json");
    await expect(countParallel(10, { checkpoint: file })).rejects.toThrow(/not a checkpoint file/);
  });

  it("checks its input", async () => {
    await expect(countParallel(33)).rejects.toThrow(/n must be an integer from 1 to 32, got 33/);
    await expect(countParallel(8, { workers: 0 })).rejects.toThrow(/workers must be an integer from 1 to 256, got 0/);
    await expect(countParallel(8, { parts: 1.5 })).rejects.toThrow(/parts must be an integer/);
  });
});

describe("nqueens count --workers", () => {
  it("counts on workers and prints the exact result", async () => {
    const run = await runCli(["count", "13", "--workers", "2", "--json"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ n: 13, total: String(A000170[13]), unique: String(A002562[13]), workers: 2 });
  });

  it("Ctrl-C stops the workers, saves the checkpoint and exits 130; the next run resumes", async () => {
    const file = tempFile("count-17.json");
    // Ctrl-C once the checkpoint holds a part: the CLI is surely running and its handler set, however loaded the machine.
    const stopped = await runCli(["count", "17", "--workers", "2", "--checkpoint", file], { killWhen: () => existsSync(file) });
    expect(stopped.code).toBe(130);
    const saved = JSON.parse(readFileSync(file, "utf8"));
    expect(saved).toMatchObject({ n: 17, format: "nqueens-count-checkpoint" });
    const other = await runCli(["count", "16", "--workers", "2", "--checkpoint", file]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/belongs to n = 17, not n = 16/);
  });

  it("a second Ctrl-C exits 130 at once and leaves no temporary file beside the checkpoint, which still reads", async () => {
    const file = tempFile("twice.json");
    const where = dirname(file);
    const child = spawn(process.execPath, ["dist/cli.cjs", "count", "17", "--workers", "2", "--checkpoint", file], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => { stderr += d; });
    const ended = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    let first = false, second = false;
    // Ctrl-C once the checkpoint exists; again while its last save is being written (a .tmp beside it) or 200 ms later.
    const poll = setInterval(() => {
      if (!first && existsSync(file)) { first = true; child.kill("SIGINT"); setTimeout(() => { if (!second) { second = true; child.kill("SIGINT"); } }, 200); return; }
      if (first && !second && readdirSync(where).some((f) => f.endsWith(".tmp"))) { second = true; child.kill("SIGINT"); }
    }, 2);
    const code = await ended;
    clearInterval(poll);
    expect(code, stderr).toBe(130);
    expect(readdirSync(where)).toEqual(["twice.json"]);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ n: 17, format: "nqueens-count-checkpoint" });
  });
});
