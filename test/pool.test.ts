// The counting pool (src/workers/pool.ts) shared by countParallel and the queue worker:
// a part counted on a thread is countTask's count, an abort frees the thread within a
// measured bound, a killed thread's part is counted again (the total stays exact), threads
// that keep dying fail the part instead of looping, and close() leaves no thread running.
import { execFileSync } from "node:child_process";
import { getEventListeners } from "node:events";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { WorkerPool, workerHooks } from "../src/workers/pool.js";
import { threadsDying } from "../src/workers/thread-start.js";
import type { PartResult as AnyCount } from "../src/count/split.js";
import { derivePart, type PartCount } from "../src/count/parts.js";
import { countTask, mergeCounts, splitCount } from "../src/count/split.js";
import { checkConstraints } from "../src/board/constraints.js";
import type { ConstrainedPartCount } from "../src/count/constrained-parts.js";
import { countConstrainedPart, mergeConstrainedCounts, splitConstrainedCount } from "../src/count/deprecated.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { ENGINES } from "./helpers.js";

// A hang guard, not a latency bound (the long part takes hours; the latency figures are in
// npm run bench -- --only abort): what is checked is that the thread answers the cancel and
// is reused, not replaced.
const BOUND_MS = 10_000;

/** The OS threads of this process (Linux: /proc/self/task); a worker thread is one, until it has exited. */
function liveThreads(): number {
  return readdirSync("/proc/self/task").length;
}

async function until(condition: () => boolean, ms = 10_000): Promise<boolean> {
  const end = performance.now() + ms;
  while (!condition() && performance.now() < end) await new Promise((r) => setTimeout(r, 10));
  return condition();
}

/** A measurement taken again (up to 3 tries) while over the bound: a shared machine can leave a process unscheduled. */
async function settled<T extends { ms: number }>(measure: () => Promise<T>): Promise<T> {
  let last = await measure();
  for (let i = 1; i < 3 && last.ms >= BOUND_MS; i++) last = await measure();
  return last;
}

describe("WorkerPool", () => {
  it.each(ENGINES)("a part counted on a thread is countTask's count, field for field (engine %s)", async (engine) => {
    const pool = new WorkerPool({ size: 2, engine });
    try {
      const parts = splitCount(12, { parts: 16 });
      const results = await Promise.all(parts.map((part) => pool.run(JSON.parse(JSON.stringify(part)))));
      for (const [i, part] of parts.entries()) expect(results[i]).toEqual(countTask(part, { engine }));
      expect(mergeCounts(results as PartCount[], { n: 12, parts: 16 }).total).toBe(A000170[12]);
      // A constrained board's part: countConstrainedPart's count.
      const constraints = checkConstraints(9, { fixed: [[0, 2]], blocked: [[4, 4]] }, "test");
      const split = splitConstrainedCount(9, constraints, 6);
      const counted = await Promise.all(split.map((part) => pool.run(part)));
      for (const [i, part] of split.entries()) expect(counted[i]).toEqual(countConstrainedPart(part, { engine }));
      expect(mergeConstrainedCounts(counted as ConstrainedPartCount[], split).total)
        .toBe(split.reduce((sum, part) => sum + BigInt(countConstrainedPart(part).total), 0n));
      expect(pool.started).toBe(2); // the same two threads for every part
    } finally {
      await pool.close();
    }
  });

  it("a thread holds no Wasm of its own: without WebAssembly where the pool starts, 'ts' counts and 'wasm' is refused in the thread", async () => {
    vi.stubGlobal("WebAssembly", undefined); // on this thread only: the threads have WebAssembly, but no module to instantiate
    const pool = new WorkerPool({ size: 1, engine: "ts" });
    try {
      const part = splitCount(10, { parts: 4 })[1];
      expect(await pool.run(part)).toEqual(countTask(part, { engine: "ts" }));
      const refused = await pool.run(part, { engine: "wasm" }).catch((error: unknown) => error);
      expect(refused).toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE", message: expect.stringMatching(/no compiled module/) });
      expect(pool.started).toBe(1); // refused, not crashed
    } finally {
      vi.unstubAllGlobals();
      await pool.close();
    }
  });

  it("a part that is not its split's part is refused by the thread, naming it", async () => {
    const pool = new WorkerPool({ size: 1 });
    try {
      const part = splitCount(10, { parts: 8 })[3];
      await pool.run(part); // the thread now keeps this split
      await expect(pool.run({ ...part, prefixes: part.prefixes.slice(1) })).rejects.toThrow(/part 3 of 8 \(n = 10\).*NQ_PART_MISMATCH|other prefixes than the split deals/);
      await expect(pool.run({ ...part, digest: "0000000000000000" })).rejects.toThrow(/carries digest/);
      expect(await pool.run(part)).toEqual(countTask(part)); // and the thread still counts
    } finally {
      await pool.close();
    }
  });

  it("an abort rejects with the signal's reason, and the thread is free for the next part, not replaced", async () => {
    // A grace of a minute: the thread's own answer to the cancel frees it (on a loaded machine it
    // can take past the default second, and a replaced thread would prove nothing here).
    const pool = new WorkerPool({ size: 1, cancelGraceMs: 60_000 });
    try {
      const long = derivePart(32, 256, 0); // hours of counting
      const small = splitCount(10, { parts: 1 })[0];
      await pool.run(small); // the thread started
      const measured = await settled(async () => {
        const controller = new AbortController();
        const running = pool.run(long, { signal: controller.signal }).then(() => undefined, (e: unknown) => e);
        await new Promise((r) => setTimeout(r, 150));
        const t0 = performance.now();
        controller.abort();
        const error = await running;
        const rejectedMs = performance.now() - t0;
        await pool.run(small); // waits for the thread to answer the cancel
        return { ms: Math.max(rejectedMs, performance.now() - t0), rejectedMs, error };
      });
      expect((measured.error as Error).name).toBe("AbortError");
      expect(measured.ms).toBeLessThan(BOUND_MS);
      expect(pool.started).toBe(1); // cancelled, not replaced
      // A signal aborted already: refused without a thread.
      await expect(pool.run(small, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      await pool.close();
    }
  });

  it("a constrained part is cancelled between chunks: the thread answers and is kept", async () => {
    const constraints = checkConstraints(30, { blocked: [[0, 0]] }, "test");
    const [long] = splitConstrainedCount(30, constraints, 1); // hours in one part
    const pool = new WorkerPool({ size: 1, cancelGraceMs: 60_000 });
    try {
      const small = splitCount(10, { parts: 1 })[0];
      await pool.run(small);
      const controller = new AbortController();
      const running = pool.run(long, { signal: controller.signal }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      controller.abort();
      expect((await running as Error).name).toBe("AbortError");
      expect(await pool.run(small)).toEqual(countTask(small)); // on the same thread, free again
      expect(pool.started).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it("a thread that does not answer a cancel within cancelGraceMs is terminated and replaced", async () => {
    // The first thread is made deaf to cancels (as one stuck in a long kernel call would be).
    workerHooks.onStart = (worker, index) => {
      if (index !== 0) return;
      const post = worker.post.bind(worker);
      worker.post = (message) => { if (!("cancel" in message)) post(message); };
    };
    const constraints = checkConstraints(30, { blocked: [[0, 0]] }, "test");
    const [stuck] = splitConstrainedCount(30, constraints, 1);
    const before = liveThreads();
    const pool = new WorkerPool({ size: 1, cancelGraceMs: 100 });
    try {
      const small = splitCount(10, { parts: 1 })[0];
      await pool.run(small);
      const controller = new AbortController();
      const running = pool.run(stuck, { signal: controller.signal }).catch((e: unknown) => e);
      await new Promise((r) => setTimeout(r, 100));
      const t0 = performance.now();
      controller.abort();
      expect((await running as Error).name).toBe("AbortError");
      expect(await pool.run(small)).toEqual(countTask(small)); // on a fresh thread
      expect(pool.started).toBe(2);
      expect(performance.now() - t0).toBeLessThan(5000); // the grace, a fresh thread's start and a tiny part: not the part's hours
      expect(await until(() => liveThreads() === before + 1)).toBe(true); // the stuck thread is gone, its replacement alone
    } finally {
      workerHooks.onStart = undefined;
      await pool.close();
    }
  });

  it("a killed thread's parts are counted again on a fresh thread, and the total stays exact", async () => {
    const pool = new WorkerPool({ size: 2 });
    const killed: number[] = [];
    workerHooks.onStart = (worker, index) => {
      if (index === 0 && killed.length === 0) {
        killed.push(index);
        setTimeout(() => worker.kill(), 30);
      }
    };
    try {
      const parts = splitCount(14, { parts: 64 });
      const results: AnyCount[] = await Promise.all(parts.map((part) => pool.run(part)));
      expect(killed).toEqual([0]);
      expect(pool.started).toBe(3); // the killed thread's place taken by a fresh one
      const merged = mergeCounts(results as PartCount[], { n: 14, parts: 64 });
      expect([merged.total, merged.unique]).toEqual([A000170[14], A002562[14]]);
    } finally {
      workerHooks.onStart = undefined;
      await pool.close();
    }
  });

  it("parts in hand on one signal share one abort listener (no MaxListenersExceededWarning past 10), and an abort still cancels each", async () => {
    const pool = new WorkerPool({ size: 2 });
    const controller = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => { warnings.push(w); };
    process.on("warning", onWarning);
    try {
      const parts = splitCount(32, { parts: 256 }).slice(0, 24); // long parts: none ends before the abort
      const runs = parts.map((part) => pool.run(part, { signal: controller.signal }).catch((e: unknown) => e));
      expect(getEventListeners(controller.signal, "abort").length).toBe(1);
      controller.abort();
      for (const error of await Promise.all(runs)) expect((error as Error).name).toBe("AbortError");
      expect(getEventListeners(controller.signal, "abort").length).toBe(0);
      const done = new AbortController();
      await Promise.all(splitCount(10, { parts: 16 }).map((part) => pool.run(part, { signal: done.signal })));
      expect(getEventListeners(done.signal, "abort").length).toBe(0); // the last part settled takes the listener away
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await pool.close();
    }
  });

  it("threads that keep dying fail the part (bounded restarts), not loop", async () => {
    const pool = new WorkerPool({ size: 1, maxAttempts: 3 });
    workerHooks.onStart = (worker) => setTimeout(() => worker.kill(), 5);
    try {
      const part = derivePart(20, 64, 0);
      await expect(pool.run(part)).rejects.toThrow(/part 0 of 64 \(n = 20\): counting threads keep dying/);
      await expect(pool.run(part)).rejects.toMatchObject({ code: "NQ_THREAD_FAILED" });
      expect(pool.started).toBe(6);
      // A thread Node stopped at its memory limit says so by its code.
      expect(threadsDying("m", "Error [ERR_WORKER_OUT_OF_MEMORY]: Worker terminated due to reaching memory limit: JS heap out of memory")).toMatchObject({ code: "NQ_OUT_OF_MEMORY" });
      expect(threadsDying("m", "exit code 1")).toMatchObject({ code: "NQ_THREAD_FAILED", message: "m" });
    } finally {
      workerHooks.onStart = undefined;
      await pool.close();
    }
  });

  it("close() rejects the parts in hand and waiting with an AbortError and leaves no thread running", async () => {
    const before = liveThreads();
    const pool = new WorkerPool({ size: 2 });
    pool.warm();
    const long = derivePart(32, 256, 0);
    const runs = [pool.run(long), pool.run(derivePart(32, 256, 1)), pool.run(derivePart(32, 256, 2))].map((p) => p.catch((e: unknown) => e));
    expect(await until(() => liveThreads() === before + 2)).toBe(true);
    expect(pool.threads).toBe(2);
    await pool.close();
    for (const error of await Promise.all(runs)) expect((error as Error).name).toBe("AbortError");
    await expect(pool.run(long)).rejects.toMatchObject({ name: "AbortError" });
    expect(pool.threads).toBe(0);
    expect(await until(() => liveThreads() === before)).toBe(true);
    await pool.close(); // twice: nothing more to do
  });

  it("checks its size", () => {
    expect(() => new WorkerPool({ size: 0 })).toThrow(/size must be an integer from 1 to 256, got 0/);
  });

  it("starts its threads under node --expose-gc (a flag worker threads refuse)", () => {
    const script = `import { countParallel } from ${JSON.stringify(join(process.cwd(), "dist/index.js"))};
      const r = await countParallel(10, { workers: 2 }); console.log(String(r.total), typeof gc);`;
    const out = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(out.trim()).toBe(`${A000170[10]} function`);
  });
});
