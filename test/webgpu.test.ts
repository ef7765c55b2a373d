/// <reference types="@webgpu/types" />
// The WebGPU engine in Node: the `webgpu` package (Dawn) on whatever adapter it
// finds; on machines without a GPU that is SwiftShader's Vulkan driver from Debian's chromium
// (vitest.config.ts sets the environment, test/webgpu-env.ts). In CI (CI set) a missing
// adapter fails this file; elsewhere it is skipped with a message saying why.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import constellationsShader from "../gpu/constellations.wgsl";
import stackShader from "../gpu/stack.wgsl";
import { count, countGpu, ErrorCode } from "../src/index.js";
import { splitConstellations } from "../src/count/tasks.js";
import { countTask, splitCount } from "../src/count/split.js";
import { countPartWebGpu } from "../src/count/gpu-part.js";
import {
  acquireGpu, constellationStarts, countConstellationsWebGpu, createLoader, gpuInfo, kernelSource, releaseGpu, setGpuLoader, stackRows, sumResults, MAX_STARTS, PARAMS,
  type GpuCountProgress, type GpuCountTuning,
} from "../src/engine/webgpu/index.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { faultyLoader, watchDevice, type DeviceFaults } from "./webgpu-fault.js";
import { Pacer } from "../src/core/pacer.js";
import { DISPATCH_TARGET_MS, MAX_BUDGET } from "../src/engine/webgpu/dispatch.js";
import { crossCheck, defaultRunner, type Runner } from "../src/analysis/crosscheck.js";

async function probe(): Promise<boolean> {
  try {
    const info = await gpuInfo();
    console.info(`webgpu tests on: ${info.vendor} ${info.architecture} ${info.description} (fallback: ${info.fallback})`);
    return true;
  } catch (error) {
    const why = `WebGPU cannot start in Node here: ${(error as Error).message}`;
    if (process.env.CI) throw new Error(`${why}. CI must run these tests: install chromium (its SwiftShader Vulkan driver) and the devDependency webgpu`);
    console.warn(`webgpu tests skipped: ${why}`);
    return false;
  }
}

const haveGpu = await probe();

afterAll(async () => {
  setGpuLoader();
  await releaseGpu();
});

function codeOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => "resolved",
    (error: { code?: string; name?: string }) => error.code ?? error.name,
  );
}

describe("the host's side (src/engine/webgpu/dispatch.ts)", () => {
  it("the kernel's struct Params and the host's PARAMS agree word by word, and the kernel reads each one it needs", () => {
    for (const stack of ["private", "workgroup"] as const) {
      const source = kernelSource(stack);
      const body = /struct Params \{([\s\S]*?)\n\}/.exec(source)![1];
      const fields = [...body.matchAll(/^\s*(\w+): u32,/gm)].map((m) => m[1]);
      expect(fields.length).toBe(12); // 48 bytes, as the host's buffer
      expect(fields.filter((f) => !f.startsWith("_"))).toEqual([...PARAMS]);
      expect(fields.slice(PARAMS.length).every((f) => f.startsWith("_pad"))).toBe(true);
      // each one read, but n (the board's size, there for whoever reads the buffer: the kernel needs only its mask)
      for (const name of PARAMS) expect(source, name).toMatch(name === "n" ? /^\s*n: u32,/m : new RegExp(`\\bP\\.${name}\\b`));
    }
  });

  it("sumResults adds the slots' 96-bit counters exactly, far past 2^53", () => {
    const slots = 3;
    const words = new Uint32Array(12 * slots);
    const pick = [0xffffffff, 0, 1, 0x80000000, 0x12345678, 0xfffffffe];
    for (let i = 0; i < words.length; i++) words[i] = pick[(i * 7 + 3) % pick.length];
    const want = [0, 1, 2, 3].map((k) => {
      let sum = 0n;
      for (let slot = 0; slot < slots; slot++) {
        for (let j = 0; j < 3; j++) sum += BigInt(words[(3 * k + j) * slots + slot]) << BigInt(32 * j);
      }
      return sum;
    });
    const got = sumResults(words, slots);
    expect([got.count8, got.count4, got.count2, got.nodes]).toEqual(want);
    expect(got.nodes > 2n ** 64n).toBe(true);
  });
});

describe("the kernel's stack (gpu/stack.wgsl)", () => {
  it("is spliced into the kernel once, at its include line, with one layout kept; the kernel keeps no copy of its own", () => {
    const own = constellationsShader;
    expect(own.match(/^\/\/ @include stack\.wgsl$/gm)).toHaveLength(1);
    expect(own, "its own copy of the stack").not.toMatch(/^var<private> lid: u32;$|^fn rem\(/m);
    for (const stack of ["private", "workgroup"] as const) {
      const source = kernelSource(stack, 24);
      expect(source).not.toMatch(/^\/\/ @include/m);
      expect(source.match(/^var<private> lid: u32;$/gm), stack).toHaveLength(1);
      expect(source.match(/^fn rem\(k: u32\) -> u32/gm), stack).toHaveLength(1);
      expect(source.match(/^fn at\(k: u32\) -> u32/gm), `${stack}: one layout`).toHaveLength(1);
      expect(source).toMatch(/^const STACK_ROWS: u32 = 24u;$/m);
      expect(source).not.toMatch(/^\/\/ @(stack|end)\b/m);
    }
    expect(stackShader).toMatch(/^\/\/ @stack workgroup$/m);
    expect(stackShader).toMatch(/^\/\/ @stack private$/m);
  });
});

describe.skipIf(!haveGpu)("count(n, { engine: 'webgpu' }) in Node", () => {
  it("abort and timeoutMs take effect while the pipeline compiles (a fresh device and the workgroup stack: seconds on SwiftShader)", async () => {
    await releaseGpu();
    // A new device: no pipeline cached. What is asserted is that each count ends while the
    // compile is still on (before: when the compile ended). The workgroup stack's 16 rows (n =
    // 12's) compile for about 3 s of CPU on SwiftShader (7 s under load), 15 x the 200 ms
    // limit; it is the pipeline the workgroup-stack test below counts with, on this device.
    // (First in this block: the device it opens is the one the tests after it share.)
    const watch = watchDevice((await acquireGpu()).device);
    try {
      const controller = new AbortController();
      const arm = setInterval(() => { if (watch.compiles() > 0) { clearInterval(arm); controller.abort(); } }, 2); // once the compile has begun
      await expect(countGpu(12, { signal: controller.signal }, { stack: "workgroup" })).rejects.toMatchObject({ name: "AbortError" });
      clearInterval(arm);
      expect([watch.compiles(), watch.compiled()], "the count ended before the compile").toEqual([1, 0]);
      await expect(countGpu(12, { timeoutMs: 200 }, { stack: "workgroup" })).rejects.toMatchObject({ code: ErrorCode.timeout });
      expect([watch.compiles(), watch.compiled()], "the count ended before the compile").toEqual([1, 0]);
      // the pipeline went on compiling and is the next count's
      const r = await countGpu(10, {}, { stack: "workgroup" });
      expect([r.total, r.unique]).toEqual([A000170[10], A002562[10]]);
      expect([watch.compiles(), watch.compiled()]).toEqual([1, 1]);
    } finally {
      watch.restore();
    }
  });

  it("gives OEIS A000170 and A002562 for n = 1..12, and the result object of the other engines", async () => {
    for (let n = 1; n <= 12; n++) {
      const r = await count(n, { engine: "webgpu" });
      expect({ n: r.n, total: r.total, unique: r.unique, engine: r.engine }).toEqual({ n, total: A000170[n], unique: A002562[n], engine: "webgpu" });
      expect(typeof r.ms).toBe("number");
      expect(typeof r.nodes).toBe("bigint");
      expect(Object.keys(r).sort()).toEqual(["engine", "ms", "n", "nodes", "total", "unique"]);
    }
  });

  it("counts what count(n) counts on the CPU engines: total, unique and nodes identical to engine 'ts' (the constellation counter)", async () => {
    for (let n = 4; n <= 11; n++) {
      const [gpu, ts] = [await count(n, { engine: "webgpu" }), await count(n, { engine: "ts" })];
      expect({ total: gpu.total, unique: gpu.unique, nodes: gpu.nodes }, `n = ${n}`).toEqual({ total: ts.total, unique: ts.unique, nodes: ts.nodes });
    }
  });

  it("gives the same answer whatever the slots, the starts asked for and the first budget (resumed searches)", async () => {
    const ts = await count(11, { engine: "ts" });
    for (const tuning of [
      { slots: 64, minTasks: 1, initialBudget: 1 }, // no row placed on the host (each task a start), one step a dispatch at first
      { slots: 64, minTasks: 1e9, initialBudget: 16 }, // rows placed until no start has more than MIN_START_ROWS free rows below
      { slots: 1024, minTasks: 3000, initialBudget: 5, targetMs: 1 },
      { slots: 96, minTasks: 1000, initialBudget: 7, stack: "private" as const },
    ]) {
      const r = await countGpu(11, {}, tuning);
      expect({ total: r.total, unique: r.unique, nodes: r.nodes }, JSON.stringify(tuning)).toEqual({ total: ts.total, unique: ts.unique, nodes: ts.nodes });
    }
  });

  it("the start order changes nothing but the schedule: 'split' and 'largest-first' give the same total, unique and nodes", async () => {
    for (const n of [10, 12]) {
      const ts = await count(n, { engine: "ts" });
      for (const tuning of [{ order: "split" as const }, { order: "largest-first" as const }, { order: "largest-first" as const, slots: 64, minTasks: 1e9, initialBudget: 7 }]) {
        const r = await countGpu(n, {}, tuning);
        expect({ total: r.total, unique: r.unique, nodes: r.nodes }, JSON.stringify(tuning)).toEqual({ total: ts.total, unique: ts.unique, nodes: ts.nodes });
      }
    }
    // the same starts either way, in another order (split: as the host made them)
    const { tasks } = splitConstellations(12);
    const [split, largest] = [await constellationStarts(12, tasks, 2000, undefined, undefined, "split"), await constellationStarts(12, tasks, 2000)];
    expect(split.count).toBe(largest.count);
    const startsOf = (r: typeof split) => Array.from({ length: r.count }, (_, i) => Array.from(r.records.subarray(5 * i, 5 * i + 5)).join(",")).sort();
    expect(startsOf(split)).toEqual(startsOf(largest));
    expect(Array.from(split.records)).not.toEqual(Array.from(largest.records));
    await expect(countGpu(8, {}, { order: "biggest" as never })).rejects.toMatchObject({ code: ErrorCode.invalidArgument, message: expect.stringContaining("tuning.order") });
  });

  it("the workgroup-memory stack (the default on hardware adapters) gives the same answers, whole counts and parts", async () => {
    // (its pipeline, n <= 16's 16 rows, is the one the compile test above left on the shared device)
    for (const n of [5, 9, 11]) {
      const ts = await count(n, { engine: "ts" });
      for (const tuning of [{ stack: "workgroup" as const }, { stack: "workgroup" as const, slots: 64, initialBudget: 3, minTasks: 1 }]) {
        const r = await countGpu(n, {}, tuning);
        expect({ total: r.total, unique: r.unique, nodes: r.nodes }).toEqual({ total: ts.total, unique: ts.unique, nodes: ts.nodes });
      }
    }
    // Parts of splits (test/webgpu-parts.test.ts counts them under the other tunings): each the
    // CPU counter's part, field for field.
    for (const part of [...splitCount(12, { parts: 3 }), ...splitCount(11, { parts: 2 })]) {
      expect(await countPartWebGpu(part, { tuning: { stack: "workgroup", slots: 64, initialBudget: 4 } })).toEqual(countTask(part, { engine: "ts" }));
    }
  });

  it("stacks only as deep as the board (tuning.stackRows = n, the tightest fit) give the same answers; fewer rows than n are refused", async () => {
    expect([4, 16, 17, 19, 20, 21, 24, 25, 32].map(stackRows)).toEqual([16, 16, 20, 20, 20, 24, 24, 28, 32]);
    for (const stack of ["private", "workgroup"] as const) {
      const source = kernelSource(stack, 20);
      expect(source).toMatch(/^const STACK_ROWS: u32 = 20u;$/m);
      expect(source).toMatch(stack === "private" ? /var<private> remP: array<u32, STACK_ROWS>;/ : /var<workgroup> remAt: array<u32, STACK_ROWS \* WG>;/);
    }
    for (const [n, stack] of [[9, "private"], [13, "private"], [11, "workgroup"]] as const) {
      const ts = await count(n, { engine: "ts" });
      const r = await countGpu(n, {}, { stack, stackRows: n });
      expect({ total: r.total, unique: r.unique, nodes: r.nodes }, `n = ${n}, ${stack}`).toEqual({ total: ts.total, unique: ts.unique, nodes: ts.nodes });
    }
    for (const stackRows of [8, 33, 12.5]) {
      await expect(countGpu(9, {}, { stackRows })).rejects.toMatchObject({ code: ErrorCode.invalidArgument, message: expect.stringContaining("tuning.stackRows") });
    }
  }, 120_000);

  it("carries into the mid and hi words exactly (lo and mid words seeded just below 2^32)", async () => {
    const ts = await count(10, { engine: "ts" });
    for (const seedLo of [0xffffffff, 0xfffffff0, 0xffffff00]) {
      const r = await countGpu(10, {}, { seedLo, slots: 64 });
      expect({ total: r.total, unique: r.unique, nodes: r.nodes }).toEqual({ total: ts.total, unique: ts.unique, nodes: ts.nodes });
    }
  });

  it("reports progress: tasks done (rising to all), rate, ETA, and at the end the result's nodes", async () => {
    const reports: GpuCountProgress[] = [];
    const r = await count(12, { engine: "webgpu", progressIntervalMs: 0, onProgress: (p) => reports.push(p as GpuCountProgress) });
    expect(reports.length).toBeGreaterThan(1);
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i].tasksDone).toBeGreaterThanOrEqual(reports[i - 1].tasksDone);
      expect(reports[i].nodes >= reports[i - 1].nodes).toBe(true);
    }
    const last = reports.at(-1)!;
    expect(last).toMatchObject({ phase: "count", n: 12, tasksDone: last.tasksTotal, nodes: r.nodes });
    expect(last.tasksTotal).toBeGreaterThan(100);
    expect(last.tasksPerSecond).toBeGreaterThan(0);
    expect(last.etaMs).toBe(0);
    expect(last.budget).toBeGreaterThan(0);
  });

  it("refuses tuning.slots beyond the adapter's grid (maxComputeWorkgroupsPerDimension x 32) with a RangeError naming it", async () => {
    const { device } = await acquireGpu();
    const most = device.limits.maxComputeWorkgroupsPerDimension * 32;
    const error = await countGpu(10, { timeoutMs: 10_000 }, { slots: most + 1 }).then(() => undefined, (e: Error & { code?: string }) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toMatchObject({ code: ErrorCode.invalidArgument });
    expect(error!.message).toContain(`tuning.slots must be an integer from 1 to ${most}`);
    expect(error!.message).toContain(`got ${most + 1}`);
    await expect(countConstellationsWebGpu(10, splitConstellations(10).tasks, {}, { slots: 2 ** 22 })).rejects.toMatchObject({ code: ErrorCode.invalidArgument });
    const r = await countGpu(10, {}, { slots: most }); // the largest allowed (fewer are used: one per task at most)
    expect([r.total, r.unique]).toEqual([A000170[10], A002562[10]]);
  });

  it("rejects bad input with coded errors naming the parameter", async () => {
    for (const n of [0, 33, 8.5, -1, Number.NaN]) {
      await expect(count(n, { engine: "webgpu" })).rejects.toMatchObject({ code: ErrorCode.invalidArgument, message: expect.stringContaining("n") });
    }
    await expect(count(8, { engine: "gpu" as never })).rejects.toMatchObject({ code: ErrorCode.invalidArgument, message: expect.stringContaining("engine") });
    await expect(count(8, { engine: "webgpu", timeoutMs: -1 })).rejects.toMatchObject({ code: ErrorCode.invalidArgument, message: expect.stringContaining("timeoutMs") });
    await expect(count(8, { engine: "webgpu", onProgress: 3 as never })).rejects.toMatchObject({ code: ErrorCode.invalidArgument });
    await expect(count(8, { engine: "webgpu", cores: 2 } as never)).rejects.toMatchObject({ code: ErrorCode.invalidArgument });
  });

  it("aborts mid-count with no dispatch after the abort, and the next count is right", async () => {
    const watch = watchDevice((await acquireGpu()).device);
    const controller = new AbortController();
    let atAbort = -1;
    const started = count(12, {
      engine: "webgpu",
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (atAbort < 0 && p.phase !== "split" && p.tasksDone > 0) { // (split reports count tasks made)
          atAbort = watch.submits();
          controller.abort();
        }
      },
    });
    try {
      await expect(started).rejects.toMatchObject({ name: "AbortError" });
      expect(atAbort).toBeGreaterThan(0);
      expect(watch.submits() - atAbort).toBe(0); // the loop checks the signal before each dispatch
    } finally {
      watch.restore();
    }
    await expect(count(8, { engine: "webgpu", signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    const next = await count(11, { engine: "webgpu" });
    expect([next.total, next.unique]).toEqual([A000170[11], A002562[11]]);
  });

  it("abort and timeoutMs take effect while the host makes and orders the starts (n = 22, 2.6 million: a second or more of the host's work)", async () => {
    await acquireGpu(); // the device is open: what is timed is the host's work
    // The yardstick is the host's slices of that work (the stopper's pauses between them), not
    // wall-clock time: made in one go here, then counted until each count ends. An abort after
    // 50 ms, or a timeout of 100 ms, comes before 100 ms of the host's work however loaded the
    // machine (1.5 s of it in all, quiet), so a count that acts on it ends well before half the
    // slices; one that did not would end after all of them.
    const { tasks } = splitConstellations(22);
    let slices = 0;
    const made = await constellationStarts(22, tasks, MAX_STARTS, () => { slices++; });
    expect(made.count).toBeGreaterThan(2_000_000);
    expect(slices).toBeGreaterThan(20);
    const pauses = vi.spyOn(Pacer.prototype, "pause");
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await expect(countGpu(22, { signal: controller.signal }, { minTasks: MAX_STARTS })).rejects.toMatchObject({ name: "AbortError" });
      expect(pauses.mock.calls.length, `of ${slices} slices`).toBeLessThan(slices / 2); // before: after the whole of them
      pauses.mockClear();
      await expect(countGpu(22, { timeoutMs: 100 }, { minTasks: MAX_STARTS })).rejects.toMatchObject({ code: ErrorCode.timeout });
      expect(pauses.mock.calls.length, `of ${slices} slices`).toBeLessThan(slices / 2);
    } finally {
      pauses.mockRestore();
    }
    const r = await countGpu(9, {});
    expect([r.total, r.unique]).toEqual([A000170[9], A002562[9]]);
  });

  it("an abort from a timer (landing while a dispatch runs, not between two) takes effect within one dispatch; the next count is right", async () => {
    await count(9, { engine: "webgpu" }); // the pipeline is compiled: what is watched is the dispatches
    const watch = watchDevice((await acquireGpu()).device);
    const controller = new AbortController();
    let last: GpuCountProgress | undefined;
    let atAbort = -1, doneAtAbort = -1;
    const started = count(14, { engine: "webgpu", signal: controller.signal, progressIntervalMs: 0, onProgress: (p) => (last = p as GpuCountProgress) });
    const outcome = started.then(() => "resolved", (e: Error) => e.name);
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (!last || last.tasksDone === 0) return;
        clearInterval(poll);
        setTimeout(() => { // 17 ms after a poll: at no particular point of the dispatch loop
          atAbort = watch.submits();
          doneAtAbort = last!.tasksDone;
          controller.abort();
          resolve();
        }, 17);
      }, 5);
    });
    try {
      expect(await outcome).toBe("AbortError");
      expect(doneAtAbort).toBeGreaterThan(0);
      expect(doneAtAbort).toBeLessThan(last!.tasksTotal); // mid-count
      // The dispatch in flight was the last (an unbounded one here would run the whole count,
      // and the count resolve): none came after the abort, and the count ended short of its end.
      expect(watch.submits() - atAbort).toBe(0);
      expect(last!.tasksDone).toBeLessThan(last!.tasksTotal);
    } finally {
      watch.restore();
    }
    const next = await count(11, { engine: "webgpu" });
    expect([next.total, next.unique]).toEqual([A000170[11], A002562[11]]);
  });

  it("the adaptive budget follows each dispatch's time, from the default, a tiny and a huge first budget", async () => {
    const run = async (tuning: GpuCountTuning) => {
      const reports: GpuCountProgress[] = [];
      const r = await countGpu(13, { progressIntervalMs: 0, onProgress: (p) => reports.push(p as GpuCountProgress) }, tuning);
      expect([r.total, r.unique]).toEqual([A000170[13], A002562[13]]);
      return reports; // one a dispatch (progressIntervalMs 0; the last one from pacer.finish)
    };
    // The rule, checked dispatch by dispatch against the time each one took (what load changes
    // is the times, never whether the budget followed them): doubled after a dispatch under
    // half the target, cut after one over twice it to what would have taken the target (or
    // kept, where the host's own work outlasted the dispatch), else kept.
    const target = DISPATCH_TARGET_MS;
    const followsRule = (reports: GpuCountProgress[]): void => {
      for (let i = 0; i + 1 < reports.length; i++) {
        const { budget, dispatchMs } = reports[i];
        const next = reports[i + 1].budget;
        const why = `dispatch ${i}: budget ${budget}, ${dispatchMs.toFixed(1)} ms, then ${next}`;
        if (dispatchMs < target / 2) expect(next, why).toBe(Math.min(MAX_BUDGET, budget * 2));
        else if (dispatchMs > target * 2) expect([budget, Math.max(16, Math.floor((budget * target) / dispatchMs))], why).toContain(next);
        else expect(next, why).toBe(budget);
      }
    };
    const byDefault = await run({});
    expect(byDefault.length).toBeGreaterThan(5);
    followsRule(byDefault);
    // from 1 step a slot: doubled while short
    const tiny = await run({ initialBudget: 1 });
    expect(tiny[0].budget).toBe(1);
    followsRule(tiny);
    // from 4096 steps a slot (about half of n = 13 in one dispatch: hundreds of ms here): cut at
    // once to what would have taken the target, not halved dispatch after dispatch
    const huge = await run({ initialBudget: 4096 });
    expect(huge.length).toBeGreaterThan(3);
    expect(huge[0].budget).toBe(4096);
    expect(huge[0].dispatchMs).toBeGreaterThan(80); // the premise: a first dispatch over 4 x the target (load only lengthens it)
    expect(huge[1].budget).toBeLessThanOrEqual(Math.ceil((4096 * target) / huge[0].dispatchMs));
    followsRule(huge);
  });

  it("runs counts side by side on the shared device, each right", async () => {
    const rs = await Promise.all([10, 11, 9, 12].map((n) => count(n, { engine: "webgpu" })));
    expect(rs.map((r) => [r.n, r.total, r.unique])).toEqual([10, 11, 9, 12].map((n) => [n, A000170[n], A002562[n]]));
  });

  it("honours timeoutMs with NQ_TIMEOUT", async () => {
    await expect(count(12, { engine: "webgpu", timeoutMs: 30 })).rejects.toMatchObject({ code: ErrorCode.timeout });
    const next = await count(9, { engine: "webgpu", timeoutMs: 60_000 });
    expect(next.total).toBe(A000170[9]);
  });

  it("a device lost mid-count (destroyed) rejects with NQ_DEVICE_LOST, never a count; the next count gets a new device", async () => {
    const { device } = await acquireGpu();
    let destroyed = false;
    const outcome = await count(12, {
      engine: "webgpu",
      progressIntervalMs: 0,
      onProgress: () => {
        if (!destroyed) {
          destroyed = true;
          device.destroy();
        }
      },
    }).then(
      (r) => ({ resolved: r }),
      (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
    );
    expect(destroyed).toBe(true);
    expect(outcome).toMatchObject({ code: ErrorCode.deviceLost, message: expect.stringContaining("no count is reported") });
    const again = await acquireGpu();
    expect(again.device).not.toBe(device);
    const next = await count(10, { engine: "webgpu" });
    expect([next.total, next.unique]).toEqual([A000170[10], A002562[10]]);
  });

  it("the CLI: nqueens count N --engine webgpu prints the adapter and the count; with --workers the GPU is one of them; Ctrl-C stops it", async () => {
    const r = await runCli(["count", "10", "--engine", "webgpu", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ n: 10, total: "724", unique: "92", engine: "webgpu" });
    expect(r.stderr).toMatch(/^GPU: /);
    // Thread 0 the GPU, thread 1 a CPU thread: exact, with the CPU counter's nodes.
    const pooled = await runCli(["count", "11", "--engine", "webgpu", "--workers", "2", "--parts", "16", "--json"]);
    expect(pooled.code, pooled.stderr).toBe(0);
    const cpu = await count(11);
    const pooledResult = JSON.parse(pooled.stdout);
    expect(pooledResult).toMatchObject({ n: 11, total: String(A000170[11]), unique: String(A002562[11]), nodes: String(cpu.nodes), workers: 2, parts: 16 });
    expect(pooledResult.gpuParts).toBeGreaterThan(0); // the GPU took parts, not only the CPU thread
    expect(pooledResult.gpuParts).toBeLessThanOrEqual(16);
    expect(pooled.stderr).toMatch(/^GPU: /);
    const usage = await runCli(["count", "10", "--engine", "webgpu", "--workers", "2", "--blocked", "0:0"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("--engine webgpu counts plain boards only");
    const interrupted = await runCli(["count", "16", "--engine", "webgpu"], { killOnceHandled: 1000 }); // (a minute or more on SwiftShader; the Ctrl-C 1 s after its handler is set)
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain("interrupted");
  });

  it("crossCheck compares count on 'webgpu' with 'wasm' where there is an adapter, and reports a divergence", async () => {
    const report = await crossCheck({ kernels: ["count:webgpu"], sizes: [1, 4, 6, 8, 10, 11] });
    expect(report.ok).toBe(true);
    expect(report.kernels[0]).toMatchObject({ kernel: "count:webgpu", engines: ["webgpu", "wasm"], cases: 6, agree: 6 });
    const all = await crossCheck({ sizes: [8], seeds: [1], budgetMs: 20_000 });
    expect(all.kernels.map((k) => k.kernel)).toContain("count:webgpu");
    const wrong: Runner = async (kernel, input, engine, timeoutMs) => {
      const value = (await defaultRunner(kernel, input, engine, timeoutMs)) as { total: bigint };
      return engine === "webgpu" && input.n === 10 ? { ...value, total: value.total + 1n } : value;
    };
    const bad = await crossCheck({ kernels: ["count:webgpu"], sizes: [9, 10], runner: wrong });
    expect(bad.ok).toBe(false);
    expect(bad.kernels[0].divergence).toMatchObject({ field: "total", engines: ["webgpu", "wasm"], reproduce: ["nqueens count 10 --engine webgpu", "nqueens count 10 --engine wasm"] });
  });

  it("gpuInfo() names the adapter and says whether it is a software fallback", async () => {
    const info = await gpuInfo();
    expect(Object.keys(info).sort()).toEqual(["architecture", "description", "device", "fallback", "source", "vendor"]);
    expect(info.source).toBe("webgpu package");
    if (/swiftshader/i.test(`${info.architecture} ${info.description}`)) expect(info.fallback).toBe(true);
  });
});

describe.skipIf(!haveGpu)("faults injected into the device (test/webgpu-fault.ts)", () => {
  // One faulty device for the block (its pipeline compiled once, not once a test): each test
  // sets its own faults, and none are left for the next.
  let faults: DeviceFaults = {};
  const setFaults = (next: DeviceFaults): void => { faults = next; };
  beforeAll(async () => {
    await releaseGpu();
    setGpuLoader(faultyLoader(() => faults));
  });
  afterEach(() => setFaults({}));
  afterAll(async () => {
    await releaseGpu();
    setGpuLoader();
  });

  it("counts set up side by side pop their own error scopes: an invalid setup fails that count only", async () => {
    let bindGroups = 0;
    setFaults({
      // the second count's bind group lacks binding 0: a validation error in that count's scope
      createBindGroup: (real, d) => (++bindGroups === 2 ? real({ ...d, entries: [...d.entries].slice(1) }) : real(d)),
    });
    const settled = await Promise.allSettled([countGpu(9, { timeoutMs: 60_000 }), countGpu(10, { timeoutMs: 60_000 })]); // (a loaded machine's setup is slow)
    expect(bindGroups).toBe(2);
    // whichever count set up second (the two make their tasks concurrently) fails; the other is right
    const failed = settled.filter((r) => r.status === "rejected");
    expect(failed, JSON.stringify(settled.map((r) => r.status))).toHaveLength(1);
    expect(failed[0]).toMatchObject({ reason: { code: ErrorCode.kernelAbort, message: expect.stringContaining("setting up the count failed") } });
    settled.forEach((r, i) => {
      if (r.status === "fulfilled") expect([r.value.total, r.value.unique]).toEqual([A000170[9 + i], A002562[9 + i]]);
    });
  });

  it("a dispatch the GPU refuses as invalid rejects with NQ_KERNEL_ABORT at once, never spins to the time limit", async () => {
    let dispatches = 0;
    setFaults({
      // what a grid past maxComputeWorkgroupsPerDimension gets: Dawn refuses the whole command buffer
      dispatchWorkgroups: (real, x) => {
        dispatches++;
        real(x, 65536);
      },
    });
    // The mechanism: one dispatch, then the refusal itself (before: NQ_TIMEOUT after the whole time limit).
    const error = await countGpu(10, { timeoutMs: 60_000 }).then(() => undefined, (e: Error & { code?: string }) => e);
    expect(error).toMatchObject({ code: ErrorCode.kernelAbort, message: expect.stringMatching(/refused.*65536/s) });
    expect(dispatches).toBe(1);
  });

  it("counts dispatching side by side each get their own dispatch's errors: a refused dispatch fails that count only", async () => {
    let small = 0;
    setFaults({
      // the 64-slot count's (2 workgroups) 5th dispatch is refused, while the other dispatches on the same device
      dispatchWorkgroups: (real, x) => (x === 2 && ++small === 5 ? real(x, 65536) : real(x)),
    });
    // (the 64-slot count starts from the first budget of a fresh device, 64, whatever budget the
    // block's earlier counts left on the shared device: at most 64 x 64 steps a dispatch, so it is
    // still counting at its 5th)
    const [a, b] = await Promise.allSettled([
      countGpu(12, { timeoutMs: 30_000 }, { slots: 256 }),
      countGpu(11, { timeoutMs: 30_000 }, { slots: 64, initialBudget: 64 }),
    ]);
    expect(small).toBeGreaterThanOrEqual(5);
    expect(a).toMatchObject({ status: "fulfilled", value: { total: A000170[12], unique: A002562[12] } });
    expect(b).toMatchObject({ status: "rejected", reason: { code: ErrorCode.kernelAbort, message: expect.stringMatching(/refused dispatch 5\b/) } });
  });

  it("a GPU that silently drops the work (no task, no node moves) rejects with NQ_KERNEL_ABORT after a few dispatches", async () => {
    let submits = 0;
    setFaults({
      submit: (real, buffers) => {
        if (++submits <= 2) real(buffers); // two dispatches run, then nothing reaches the GPU
      },
    });
    // The guard, not the time limit, ends it: NQ_KERNEL_ABORT "no progress", not NQ_TIMEOUT.
    const error = await countGpu(11, { timeoutMs: 60_000 }, { initialBudget: 1 }).then(() => undefined, (e: Error & { code?: string }) => e);
    expect(error).toMatchObject({ code: ErrorCode.kernelAbort, message: expect.stringContaining("no progress") });
    expect(submits).toBeGreaterThanOrEqual(5); // the guard waits for a few dispatches with budget enough to show progress
  });
});

describe("without WebGPU", () => {
  afterAll(() => setGpuLoader());

  it("Node without the `webgpu` package: NQ_ENGINE_UNAVAILABLE saying `npm install webgpu`", async () => {
    setGpuLoader(createLoader(() => ({
      isNode: true,
      importPackage: () => Promise.reject(Object.assign(new Error("Cannot find package 'webgpu'"), { code: "ERR_MODULE_NOT_FOUND" })),
    })));
    await expect(count(8, { engine: "webgpu" })).rejects.toMatchObject({
      code: ErrorCode.engineUnavailable,
      message: expect.stringContaining("npm install webgpu"),
    });
    await expect(gpuInfo()).rejects.toMatchObject({ code: ErrorCode.engineUnavailable });
    // the CPU engines do not care
    expect((await count(8)).total).toBe(92n);
  });

  it("a browser without navigator.gpu: NQ_ENGINE_UNAVAILABLE saying so", async () => {
    setGpuLoader(createLoader(() => ({ navigator: {}, isNode: false, importPackage: () => Promise.reject(new Error("not in a browser")) })));
    await expect(count(8, { engine: "webgpu" })).rejects.toMatchObject({
      code: ErrorCode.engineUnavailable,
      message: expect.stringContaining("navigator.gpu is missing"),
    });
  });

  it("no adapter: NQ_ENGINE_UNAVAILABLE saying so, with how to get SwiftShader's", async () => {
    const gpu = { requestAdapter: async () => null } as unknown as GPU;
    setGpuLoader(createLoader(() => ({ isNode: true, importPackage: async () => ({ create: () => gpu }) })));
    const error = await count(8, { engine: "webgpu" }).catch((e: Error & { code?: string }) => e);
    expect(error).toMatchObject({ code: ErrorCode.engineUnavailable, message: expect.stringContaining("no adapter") });
    expect((error as Error).message).toContain("VK_ICD_FILENAMES");
    await expect(codeOf(gpuInfo())).resolves.toBe(ErrorCode.engineUnavailable);
  });

  it("crossCheck leaves the GPU out by default where there is no adapter", async () => {
    setGpuLoader(createLoader(() => ({ isNode: true, importPackage: () => Promise.reject(new Error("Cannot find package 'webgpu'")) })));
    const report = await crossCheck({ kernels: undefined, sizes: [6], seeds: [1], budgetMs: 2000 });
    expect(report.kernels.map((k) => k.kernel)).not.toContain("count:webgpu");
    expect(report.kernels.map((k) => k.kernel)).toContain("count");
  });

  it("a loader that throws while asking for the adapter: NQ_ENGINE_UNAVAILABLE", async () => {
    const gpu = { requestAdapter: async () => { throw new Error("driver exploded"); } } as unknown as GPU;
    setGpuLoader(async () => ({ gpu, source: "webgpu package" }));
    await expect(count(8, { engine: "webgpu" })).rejects.toMatchObject({ code: ErrorCode.engineUnavailable, message: expect.stringContaining("driver exploded") });
  });
});
