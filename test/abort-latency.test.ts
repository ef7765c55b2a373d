// Every long job honours abort and timeoutMs. These tests check the mechanism, never a
// latency, so that a busy machine cannot fail them; the latency figures themselves (the goal:
// about 100 ms) are measured by `npm run bench -- --only abort` (bench/abort.mjs).
//
// - Abort between chunks: a job aborted from its own onProgress (called between two chunks of
//   work when progressIntervalMs is 0) rejects with an AbortError and runs no further chunk:
//   no report comes after the abort. A driver that stopped looking at the signal between
//   chunks would report again (or finish); one that ran the rest in one chunk would finish.
// - Abort from outside (a timer) on work that cannot end for minutes or years: AbortError.
// - A timeout on work that cannot end first (at least ten times the limit on the fastest
//   machine measured; load only makes the work longer): reason 'timeout' or NQ_TIMEOUT, and
//   not before the limit.
// - A counting thread told { cancel } answers AbortError and is free for the next part.
// Every wait has a hang guard (HANG_GUARD_MS): not a latency bound but a margin no load eats,
// which turns a job ignoring its signal (minutes to years of work) into a failure.
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import workerSource from "../build/worker-source.js";
import { compileWasmModule } from "../src/engine/wasm/index.js";
import { CHUNK_TARGET_MS, stepHooks } from "../src/core/pacer.js";
import {
  count, countParallel, countPart, crossCheck, derivePart, estimate, lasVegasStats, lasVegasTable, solve, treeSize,
  type CountProgress, type ParallelProgress, type SolveProgress,
} from "../src/index.js";
import { ENGINES } from "./helpers.js";
import { solveDistributed } from "../src/distributed/index.js";

const HANG_GUARD_MS = 20_000;

/**
 * `work`, or a rejection naming `what` once HANG_GUARD_MS have passed since `stopSent` resolved
 * (the abort sent; by default at once): a hang guard counted from the stop, so that a loaded
 * machine's slow start of the job (threads, a split) cannot eat it.
 */
async function guarded<T>(what: string, work: Promise<T>, stopSent: Promise<void> = Promise.resolve()): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  const hung = new Promise<never>((_, reject) => {
    void stopSent.then(() => {
      if (!settled) timer = setTimeout(() => reject(new Error(`${what}: still running ${HANG_GUARD_MS} ms after it was told to stop`)), HANG_GUARD_MS);
    });
  });
  try {
    return await Promise.race([work, hung]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}

type Progressed<P> = { signal: AbortSignal; onProgress: (p: P) => void; progressIntervalMs: number };

/**
 * Starts a job that reports after every chunk, aborts it from the report for which `when`
 * is true (by default the second), and counts the reports after that: 0 when the abort was
 * acted on at the next check.
 */
async function abortFromProgress<P>(
  start: (options: Progressed<P>) => Promise<unknown>, when: (p: P, reports: number) => boolean = (_, reports) => reports >= 2,
): Promise<{ error: unknown; aborted: boolean; reportsAfter: number }> {
  const controller = new AbortController();
  let sent!: () => void;
  const stopSent = new Promise<void>((resolve) => (sent = resolve));
  let reports = 0;
  let reportsAfter = -1;
  const onProgress = (p: P): void => {
    reports++;
    if (reportsAfter >= 0) reportsAfter++;
    else if (when(p, reports)) {
      reportsAfter = 0;
      controller.abort();
      sent();
    }
  };
  const job = start({ signal: controller.signal, onProgress, progressIntervalMs: 0 }).then(() => undefined, (e: unknown) => e);
  const error = await guarded("abort from onProgress", job, stopSent);
  return { error, aborted: reportsAfter >= 0, reportsAfter: Math.max(0, reportsAfter) };
}

/** Starts a job with a signal and aborts it `afterMs` later from a timer; how it settled. */
async function abortFromTimer(start: (signal: AbortSignal) => Promise<unknown>, afterMs = 100): Promise<unknown> {
  const controller = new AbortController();
  let sent!: () => void;
  const stopSent = new Promise<void>((resolve) => (sent = resolve));
  const timer = setTimeout(() => { controller.abort(); sent(); }, afterMs);
  try {
    return await guarded("abort from a timer", start(controller.signal).then(() => undefined, (e: unknown) => e), stopSent);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs a job with timeoutMs; how it settled, and after how long. */
async function withTimeout(start: (timeoutMs: number) => Promise<unknown>, timeoutMs = 100): Promise<{ ms: number; value?: unknown; error?: unknown }> {
  const t0 = performance.now();
  const outcome = await guarded("timeoutMs", start(timeoutMs).then((value) => ({ value }), (error: unknown) => ({ error })));
  return { ms: performance.now() - t0, ...outcome };
}

const isAbort = (e: unknown): boolean => (e as Error)?.name === "AbortError";
const isTimeout = (e: unknown): boolean => (e as { code?: string })?.code === "NQ_TIMEOUT";

/** The abort was seen at the next check: an AbortError, and no chunk ran after it. */
function expectStoppedAtNextCheck(r: { error: unknown; aborted: boolean; reportsAfter: number }): void {
  expect(r.aborted).toBe(true);
  expect(isAbort(r.error)).toBe(true);
  expect(r.reportsAfter).toBe(0);
}

describe.each(ENGINES)("abort and timeoutMs stop every long job (engine %s)", (engine) => {
  // count(17) takes seconds on one thread, count(20) and up hours to years.
  it.each([17, 20, 27, 32])("count(%i): abort at the next check, from a timer, and the timeout", async (n) => {
    expectStoppedAtNextCheck(await abortFromProgress((o) => count(n, { engine, ...o })));
    expect(isAbort(await abortFromTimer((signal) => count(n, { engine, signal })))).toBe(true);
    const timed = await withTimeout((timeoutMs) => count(n, { engine, timeoutMs }));
    expect(isTimeout(timed.error)).toBe(true);
    expect(timed.ms).toBeGreaterThanOrEqual(99);
  });

  it("countPart of a part of n = 32 (years of work): abort and timeout", async () => {
    const part = derivePart(32, 256, 0);
    expect(isAbort(await abortFromTimer((signal) => countPart(part, { engine, signal }), 300))).toBe(true);
    const timed = await withTimeout((timeoutMs) => countPart(part, { engine, timeoutMs }), 300);
    expect(isTimeout(timed.error)).toBe(true);
    expect(timed.ms).toBeGreaterThanOrEqual(299);
  });

  // Sizes at which no method can end within ten times its timeout on either engine: min-conflicts
  // at 10^7 takes about 0.25 s on Wasm (3 * 10^6 about 1 s on TS) on a quiet machine, against 20 ms.
  it.each([
    ["las-vegas", 1_000_000, 100], ["hybrid", 1_000_000, 100], ["backtrack", 1_000_000, 100], ["hill-climb", 100_000, 100],
    ["min-conflicts", engine === "wasm" ? 10_000_000 : 3_000_000, 20],
  ] as const)("solve(%s, n = %i): abort at the next check, from a timer; the timeout answers reason 'timeout'", async (method, n, timeoutMs) => {
    expectStoppedAtNextCheck(await abortFromProgress<SolveProgress>((o) => solve(n, { engine, method, ...o })));
    const timed = await withTimeout((t) => solve(n, { engine, method, timeoutMs: t }), timeoutMs);
    expect((timed.value as { reason?: string }).reason).toBe("timeout");
    expect(timed.ms).toBeGreaterThanOrEqual(timeoutMs - 1);
    expect(isAbort(await abortFromTimer((signal) => solve(n, { engine, method, signal }), timeoutMs))).toBe(true);
  });

  // Min-conflicts' work units cost a few ns late in construction and 100 ns or more in repair:
  // a chunk sized on construction's units used to run long into repair, and an abort seen
  // between chunks waited for one more chunk. Aborted from onProgress at each phase.
  it.each([
    ["as repair begins", (p: SolveProgress) => p.phase === "repair"],
    ["in mid-construction", (p: SolveProgress, reports: number) => p.phase === "construct" && reports >= 5],
    ["early in construction", (_: SolveProgress, reports: number) => reports >= 1],
  ] as const)("solve(min-conflicts at n = 3 * 10^6 on ts, 10^7 on wasm) aborted %s rejects at the next check", async (_, when) => {
    const n = engine === "wasm" ? 10_000_000 : 3_000_000;
    // not a board found in a chunk after the abort
    expectStoppedAtNextCheck(await abortFromProgress<SolveProgress>((o) => solve(n, { engine, method: "min-conflicts", seed: 1, ...o }), when));
  });

  it("estimate(32), treeSize(17), lasVegasStats and lasVegasTable at n = 10^6: abort at the next check, from a timer, and the timeout", async () => {
    const jobs: ((o: { signal?: AbortSignal; timeoutMs?: number; onProgress?: (p: unknown) => void; progressIntervalMs?: number }) => Promise<unknown>)[] = [
      (o) => estimate(32, { engine, samples: 1e12, ...o }),
      (o) => treeSize(17, { engine, ...o }),
      (o) => lasVegasStats(1_000_000, { engine, trials: 1e9, ...o }),
      (o) => lasVegasTable(1_000_000, { engine, trials: 1e9, ...o }),
    ];
    for (const job of jobs) {
      expectStoppedAtNextCheck(await abortFromProgress((o) => job(o)));
      expect(isAbort(await abortFromTimer((signal) => job({ signal })))).toBe(true);
      const timed = await withTimeout((timeoutMs) => job({ timeoutMs }));
      expect(isTimeout(timed.error)).toBe(true);
      expect(timed.ms).toBeGreaterThanOrEqual(99);
    }
  });
});

// The split before the first task or part is counted (count(31)'s constellations: about 0.4 s;
// countParallel(16) in 200,000 parts: seconds of walks and digests; a board's prefix split;
// solve's tasks on threads) runs in slices that report phase 'split' and check the signal and
// the time limit. Aborted from the split's first report, a job rejects without finishing the
// split: no report of phase 'count' ever comes; so does one whose timeoutMs (0) runs out there,
// after a report of the split. The slices are cut after every step here (stepHooks), so that
// no split need last longer than a slice on a fast machine. (n = 31: no other test here splits
// it, so its split is not already made and kept.)
function everyStep(): void {
  beforeEach(() => { stepHooks.sliceMs = 0; });
  afterEach(() => { stepHooks.sliceMs = CHUNK_TARGET_MS; });
}

describe("the split before the count stops and reports", () => {
  everyStep();
  it("count(31): an abort from the split's first report, and a timeout during the split", async () => {
    const phases: string[] = [];
    const r = await abortFromProgress<CountProgress>((o) => count(31, { ...o, onProgress: (p) => { phases.push(p.phase); o.onProgress(p); } }), () => true);
    expectStoppedAtNextCheck(r);
    expect(phases).toEqual(["split"]);
    const seen: string[] = [];
    const timed = await withTimeout((timeoutMs) => count(31, { timeoutMs, progressIntervalMs: 0, onProgress: (p) => seen.push(p.phase) }), 0);
    expect(isTimeout(timed.error)).toBe(true);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((phase) => phase === "split")).toBe(true);
  });

  it("countParallel(16, { parts: 200000 }): an abort from the split's first report rejects before the split ends", async () => {
    const reports: ParallelProgress[] = [];
    const r = await abortFromProgress<ParallelProgress>((o) => countParallel(16, { workers: 2, parts: 200_000, ...o, onProgress: (p) => { reports.push(p); o.onProgress(p); } }), () => true);
    expectStoppedAtNextCheck(r);
    expect(reports).toHaveLength(1);
    expect(reports[0].phase).toBe("split");
    expect(reports[0].tasksDone).toBeLessThan(200_000); // fewer parts made than the split holds
  });
});

// A board of n = 1000 with 900 given queens (the construction's last 900 rows) and the
// construction's own squares blocked in the 100 free rows: its prefix split (count's 2402
// prefixes, solve's tasks) runs in 51 steps of one prefix each (25 to 45 ms).
async function givenBoard(): Promise<{ fixed: [number, number][]; blocked: [number, number][] }> {
  const { columns } = await solve(1000, { method: "construct" });
  const fixed: [number, number][] = [], blocked: [number, number][] = [];
  for (let r = 0; r < 1000; r++) (r >= 100 ? fixed : blocked).push([r, columns![r]]);
  return { fixed, blocked };
}

describe("the prefix split of a board with givens stops", () => {
  everyStep();
  it("count: an abort from the split's first report rejects before any prefix is counted", async () => {
    const givens = await givenBoard();
    const phases: string[] = [];
    const r = await abortFromProgress<CountProgress>((o) => count(1000, { ...givens, ...o, onProgress: (p) => { phases.push(p.phase); o.onProgress(p); } }), () => true);
    expectStoppedAtNextCheck(r);
    expect(phases).toEqual(["split"]);
  });

  it("countParallel: an abort from a report of the parts being made rejects before the split has made them all", async () => {
    // (Each part's digest hashes the board's lists: at n = 1000 with 143,602 blocked squares 64
    // parts took 4.5 s of one step before the parts were made a step each.)
    const givens = await givenBoard();
    const reports: ParallelProgress[] = [];
    const r = await abortFromProgress<ParallelProgress>(
      (o) => countParallel(1000, { ...givens, workers: 2, parts: 64, ...o, onProgress: (p) => { reports.push(p); o.onProgress(p); } }),
      (p) => p.phase === "split" && p.tasksDone > 0,
    );
    expectStoppedAtNextCheck(r);
    expect(reports.every((p) => p.phase === "split")).toBe(true);
    expect(reports.at(-1)!.tasksDone).toBeLessThan(64);
  });

  it("solve with workers: a timeout that runs out during the split answers 'timeout' with no task made", async () => {
    const givens = await givenBoard();
    // (0 ms: out at the split's first check; without the check the split's 2402 tasks go to the threads.)
    const r = await guarded("solve's split", solve(1000, { method: "complete", ...givens, workers: 2, timeoutMs: 0 }));
    expect(r.found).toBe(false);
    expect(r.reason).toBe("timeout");
    expect(r.tasks).toBe(0);
    expect(r.workers).toBe(0);
  });
});

describe("solveDistributed's task split stops", () => {
  everyStep();
  it("a timeout that runs out during the split answers 'timeout' with no task made, before Redis is asked anything", async () => {
    const givens = await givenBoard();
    // (No server at this address: the answer comes from the split's first check, before the queue's libraries or a connection.)
    const r = await guarded("solveDistributed's split", solveDistributed(1000, { ...givens, connection: "redis://127.0.0.1:9", unauthenticated: true, timeoutMs: 1 }));
    expect([r.found, r.reason, r.tasks, r.queue]).toEqual([false, "timeout", 0, ""]);
  });

  it("an abort during the split rejects with the signal's reason", async () => {
    const givens = await givenBoard();
    const controller = new AbortController();
    const job = solveDistributed(1000, { ...givens, connection: "redis://127.0.0.1:9", unauthenticated: true, signal: controller.signal });
    setImmediate(() => controller.abort(new Error("stop the split")));
    await expect(guarded("solveDistributed's split", job)).rejects.toThrow("stop the split");
  });
});

describe("crossCheck stops, inside a long case too", () => {
  it("crossCheck over 20,000 cases that each end in a fraction of a ms: abort", async () => {
    // solve(3) answers without a search, so no case lets the event loop run: the sweep must,
    // or the abort's timer waits for its end. Aborted past the sweep's setup.
    const sweep = (signal: AbortSignal) => crossCheck({ kernels: ["solve:backtrack"], sizes: Array<number>(20_000).fill(3), budgetMs: 600_000, signal });
    expect(isAbort(await abortFromTimer(sweep, 100))).toBe(true);
  });

  it("crossCheck over count(12) and solve(min-conflicts, 10^5 .. 10^7): abort lands inside a case", async () => {
    // Each case runs for a while (the TS engine's min-conflicts at 10^7 for seconds): the abort
    // lands inside one, and the signal is passed in.
    const sweep = (signal: AbortSignal) => crossCheck({
      kernels: ["count", "solve:min-conflicts"], sizes: [12, 100_000, 1_000_000, 10_000_000], seeds: [1], budgetMs: 60_000, signal,
    });
    for (const afterMs of [50, 600]) expect(isAbort(await abortFromTimer(sweep, afterMs))).toBe(true);
  });
});

describe("parallel counts stop at large n", () => {
  it("countParallel(32): an abort from a part's report, and from a timer during the split", async () => {
    expect(isAbort(await abortFromTimer((signal) => countParallel(32, { workers: 2, signal }), 100))).toBe(true);
    // n = 18 in many parts, each reported; aborted after the second. (n = 20's first report came
    // only after 6 s of two threads' counting; n = 18's after about 1 s, with 50 s of work left
    // that an abort which does not stop the threads would let run to the end.)
    const r = await abortFromProgress((o) => countParallel(18, { workers: 2, parts: 4096, ...o }));
    expect(r.aborted).toBe(true);
    expect(isAbort(r.error)).toBe(true);
  });

  it("a counting thread told { cancel } answers AbortError for that part and counts the next one", async () => {
    const worker = new Worker(workerSource, { eval: true, workerData: { wasm: await compileWasmModule() } }); // the pool's way: the thread holds no Wasm bytes
    try {
      const replies: { id: number; error?: string; result?: unknown }[] = [];
      const reply = (id: number) => new Promise<{ id: number; error?: string; result?: unknown }>((resolve) => {
        const seen = replies.find((r) => r.id === id);
        if (seen) return resolve(seen);
        const on = (m: { id: number; error?: string }) => {
          if (m.id !== id) return;
          worker.off("message", on);
          resolve(m);
        };
        worker.on("message", on);
      });
      worker.on("message", (m: { id: number }) => replies.push(m));
      const big = reply(7);
      worker.postMessage({ id: 7, part: derivePart(32, 256, 3), engine: "wasm" }); // years of work
      const next = reply(8);
      worker.postMessage({ id: 8, part: derivePart(10, 4, 1), engine: "wasm" }); // waits behind part 7
      await new Promise((r) => setTimeout(r, 500)); // the thread is counting part 7
      worker.postMessage({ cancel: 7 });
      const answer = await guarded("the cancelled part", big);
      expect(answer.id).toBe(7);
      expect(answer.error).toMatch(/^AbortError/);
      // The thread is free again: the part that waited behind is counted (a part of n = 10).
      const counted = await guarded("the next part", next);
      expect(counted.error).toBeUndefined();
      expect(counted.result).toBeDefined();
    } finally {
      await worker.terminate();
    }
  });
});
