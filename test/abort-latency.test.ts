// Every long job honours abort and timeoutMs within about 100 ms, at every n it accepts
//. Latency is measured: from the moment the abort or time limit was due
// (not when a late timer ran) to the moment the promise settled; the bound asserted is
// 200 ms, a generous margin over the ~10 ms chunks on a busy machine (a try over it is
// measured again, up to 3 times: a shared machine can leave a process unscheduled).
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import workerSource from "../build/worker-source.js";
import {
  count, countParallel, countPart, crossCheck, derivePart, estimate, lasVegasStats, lasVegasTable, solve, treeSize,
  type SolveProgress,
} from "../src/index.js";
import { ENGINES } from "./helpers.js";

const BOUND_MS = 200;

/** Starts a job with a signal, aborts it `afterMs` later; the time from then to its rejection. */
async function abortLatency(start: (signal: AbortSignal) => Promise<unknown>, afterMs = 250): Promise<{ ms: number; error: unknown }> {
  const controller = new AbortController();
  const due = performance.now() + afterMs;
  setTimeout(() => controller.abort(), afterMs);
  const error = await start(controller.signal).then(() => undefined, (e: unknown) => e);
  return { ms: performance.now() - due, error };
}

/** Runs a job with timeoutMs; how long after the limit it settled, and how. */
async function timeoutLatency(start: (timeoutMs: number) => Promise<unknown>, timeoutMs = 250): Promise<{ ms: number; value?: unknown; error?: unknown }> {
  const due = performance.now() + timeoutMs;
  const outcome = await start(timeoutMs).then((value) => ({ value }), (error: unknown) => ({ error }));
  return { ms: performance.now() - due, ...outcome };
}

/**
 * A measurement retried (up to 3 times) while it is over the bound: on a shared machine a
 * process can go unscheduled for a while, which no code can answer for. A job that does not
 * stop in time fails every try.
 */
async function settled<T extends { ms: number }>(measure: () => Promise<T>): Promise<T> {
  let last = await measure();
  for (let i = 1; i < 3 && last.ms >= BOUND_MS; i++) last = await measure();
  return last;
}

const isAbort = (e: unknown): boolean => (e as Error)?.name === "AbortError";
const isTimeout = (e: unknown): boolean => (e as { code?: string })?.code === "NQ_TIMEOUT";

describe.each(ENGINES)("abort and timeoutMs act within 200 ms (engine %s)", (engine) => {
  it.each([17, 20, 27, 32])("count(%i): abort and timeout", async (n) => {
    const aborted = await settled(() => abortLatency((signal) => count(n, { engine, signal })));
    expect(isAbort(aborted.error)).toBe(true);
    expect(aborted.ms).toBeLessThan(BOUND_MS);
    const timed = await settled(() => timeoutLatency((timeoutMs) => count(n, { engine, timeoutMs })));
    expect(isTimeout(timed.error)).toBe(true);
    expect(timed.ms).toBeGreaterThanOrEqual(-1);
    expect(timed.ms).toBeLessThan(BOUND_MS);
  });

  it("countPart of a part of n = 32: abort and timeout", async () => {
    const part = derivePart(32, 256, 0);
    const aborted = await settled(() => abortLatency((signal) => countPart(part, { engine, signal })));
    expect(isAbort(aborted.error)).toBe(true);
    expect(aborted.ms).toBeLessThan(BOUND_MS);
    const timed = await settled(() => timeoutLatency((timeoutMs) => countPart(part, { engine, timeoutMs })));
    expect(isTimeout(timed.error)).toBe(true);
    expect(timed.ms).toBeLessThan(BOUND_MS);
  });

  it.each([
    ["las-vegas", 1_000_000], ["hybrid", 1_000_000], ["backtrack", 1_000_000], ["hill-climb", 100_000],     // min-conflicts: big enough not to finish in 400 ms on either engine
    ["min-conflicts", engine === "wasm" ? 10_000_000 : 3_000_000],
  ] as const)("solve(%s, n = %i): timeout answers reason 'timeout', abort rejects", async (method, n) => {
    const timed = await settled(() => timeoutLatency((timeoutMs) => solve(n, { engine, method, timeoutMs }), 400));
    expect((timed.value as { reason?: string }).reason).toBe("timeout");
    expect(timed.ms).toBeLessThan(BOUND_MS);
    const aborted = await settled(() => abortLatency((signal) => solve(n, { engine, method, signal }), 400));
    expect(isAbort(aborted.error)).toBe(true);
    expect(aborted.ms).toBeLessThan(BOUND_MS);
  });

  // Min-conflicts' work units cost a few ns late in construction and 100 ns or more in
  // repair: a chunk sized on construction's units used to run long into repair, and an abort
  // seen between chunks waited for one more chunk. Aborted from onProgress (between two
  // chunks) at a chosen moment; measured from the abort to the rejection.
  it.each([
    ["as repair begins", (p: SolveProgress) => p.phase === "repair"],
    ["in mid-construction", (p: SolveProgress) => p.phase === "construct" && p.elapsedMs >= 150],
    ["early in construction", (p: SolveProgress) => p.elapsedMs >= 30],
  ] as const)("solve(min-conflicts at n = 3 * 10^6 on ts, 10^7 on wasm) aborted %s rejects at once", async (_, when) => {
    const n = engine === "wasm" ? 10_000_000 : 3_000_000;
    const aborted = await settled(async () => {
      const controller = new AbortController();
      let due = NaN;
      const onProgress = (p: SolveProgress): void => {
        if (!Number.isNaN(due) || !when(p)) return;
        due = performance.now();
        controller.abort();
      };
      const error = await solve(n, { engine, method: "min-conflicts", seed: 1, progressIntervalMs: 0, signal: controller.signal, onProgress })
        .then(() => undefined, (e: unknown) => e);
      return { ms: performance.now() - due, error };
    });
    expect(isAbort(aborted.error)).toBe(true); // not a board found in the chunk after the abort
    expect(aborted.ms).toBeLessThan(BOUND_MS);
  });

  it("estimate(32), treeSize(17), lasVegasStats and lasVegasTable at n = 10^6: timeout and abort", async () => {
    const jobs: ((o: { signal?: AbortSignal; timeoutMs?: number }) => Promise<unknown>)[] = [
      (o) => estimate(32, { engine, samples: 1e12, ...o }),
      (o) => treeSize(17, { engine, ...o }),
      (o) => lasVegasStats(1_000_000, { engine, trials: 1e9, ...o }),
      (o) => lasVegasTable(1_000_000, { engine, trials: 1e9, ...o }),
    ];
    for (const job of jobs) {
      const timed = await settled(() => timeoutLatency((timeoutMs) => job({ timeoutMs })));
      expect(isTimeout(timed.error)).toBe(true);
      expect(timed.ms).toBeLessThan(BOUND_MS);
      const aborted = await settled(() => abortLatency((signal) => job({ signal })));
      expect(isAbort(aborted.error)).toBe(true);
      expect(aborted.ms).toBeLessThan(BOUND_MS);
    }
  });
});

describe("crossCheck stops promptly, inside a long case too", () => {
  it("crossCheck over thousands of cases that each end in a fraction of a ms: abort", async () => {
    // solve(3) answers without a search, so no case lets the event loop run: the sweep must,
    // or the abort's timer waits for its end (seconds). Aborted past the sweep's setup.
    const sweep = (signal: AbortSignal) => crossCheck({ kernels: ["solve:backtrack"], sizes: Array<number>(20_000).fill(3), budgetMs: 600_000, signal });
    const aborted = await settled(() => abortLatency(sweep, 300));
    expect(isAbort(aborted.error)).toBe(true);
    expect(aborted.ms).toBeLessThan(BOUND_MS);
  });

  it("crossCheck over count(12) and solve(min-conflicts, 10^5 .. 10^7): abort", async () => {
    // Each case runs for hundreds of ms: the abort lands inside one, and the signal is passed in.
    const sweep = (signal: AbortSignal) => crossCheck({
      kernels: ["count", "solve:min-conflicts"], sizes: [12, 100_000, 1_000_000, 10_000_000], seeds: [1], budgetMs: 60_000, signal,
    });
    for (const afterMs of [250, 900]) {
      const aborted = await settled(() => abortLatency(sweep, afterMs));
      expect(isAbort(aborted.error)).toBe(true);
      expect(aborted.ms).toBeLessThan(BOUND_MS);
    }
  });
});

describe("parallel counts stop promptly at large n", () => {
  it("countParallel(32): the split is quick and an abort rejects within 200 ms", async () => {
    const aborted = await settled(() => abortLatency((signal) => countParallel(32, { workers: 2, signal }), 500));
    expect(isAbort(aborted.error)).toBe(true);
    expect(aborted.ms).toBeLessThan(BOUND_MS);
  });

  it("a counting worker stops a part of n = 32 within 200 ms of { cancel }", async () => {
    const worker = new Worker(workerSource, { eval: true });
    try {
      const part = derivePart(32, 256, 3);
      const reply = new Promise<{ id: number; error?: string }>((resolve) => worker.once("message", resolve));
      worker.postMessage({ id: 7, part, engine: "wasm" });
      // it is counting (a part of n = 32 takes years; a thread's first part of n = 32 makes the
      // split's 83,190 constellations first, about 0.3 s, before it counts)
      await new Promise((r) => setTimeout(r, 1500));
      const sent = performance.now();
      worker.postMessage({ cancel: 7 });
      const answer = await reply;
      expect(performance.now() - sent).toBeLessThan(BOUND_MS);
      expect(answer.id).toBe(7);
      expect(answer.error).toMatch(/^AbortError/);
    } finally {
      await worker.terminate();
    }
  });
});
