// Parts on the GPU: countParallel({ engine: 'webgpu' }) (the GPU as one worker of the pool) and the
// queue worker (`nqueens worker --queue URL --engine webgpu`, startWorker({ engine: 'webgpu' })). Parts are
// start constellations, counted on the GPU by gpu/constellations.wgsl node for node as the
// CPU counts them (test/webgpu-parts.test.ts); a device lost while a part is counted sends
// that part to the CPU (never a count from the lost device), and the total stays exact.
// Needs a WebGPU adapter (SwiftShader in Node, see test/webgpu-env.ts) and, for the queue,
// Redis (redis-server, started here on a free port); in CI a missing one fails the file.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countDistributed, startWorker, type WorkerEvent } from "../src/distributed/index.js";
import { splitCount } from "../src/count/split.js";
import { countParallel, workerHooks } from "../src/workers/parallel.js";
import { count } from "../src/index.js";
import { acquireGpu, gpuInfo, releaseGpu, setGpuLoader, createLoader } from "../src/engine/webgpu/index.js";
import { countPartWebGpu } from "../src/count/gpu-part.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { watchDevice } from "./webgpu-fault.js";
import { haveRedisServer, killChildren, quietClient, RedisServer, requireRedis, sleep, spawnCli, until } from "./redis-harness.js";

const haveGpu = await gpuInfo().then(() => true, (error: Error) => {
  if (process.env.CI) throw new Error(`WebGPU cannot start in Node here (${error.message}); CI must run the GPU queue tests`);
  console.warn(`webgpu queue tests skipped: ${error.message}`);
  return false;
});
const haveRedis = requireRedis(haveRedisServer, {
  ci: "the GPU queue tests need redis-server (.ci/run installs it)",
  skipped: "webgpu queue tests skipped: no redis-server",
});

const noPackage = () => createLoader(() => ({ isNode: true, importPackage: () => Promise.reject(new Error("Cannot find package 'webgpu'")) }));

let url = "";
let server: RedisServer | undefined;

beforeAll(async () => {
  if (!haveRedis || !haveGpu) return;
  server = await RedisServer.create("nq-gpu-redis-");
  server.spawn();
  url = server.url;
  const probe = quietClient(url, { lazyConnect: true, retryStrategy: () => 50 }); // errors ignored: refused until redis-server listens
  for (let i = 0; i < 100; i++) {
    if (await probe.connect().then(() => true, () => false)) break;
    await sleep(50);
  }
  await probe.flushall();
  probe.disconnect();
});

afterAll(async () => {
  await killChildren();
  await server?.dispose();
  await releaseGpu();
});

describe("the GPU among the threads is engine 'webgpu' everywhere; gpu: true, the old spelling, still works, said deprecated once", () => {
  it("gpu: true reaches the GPU as engine 'webgpu' does (here: refused alike without the package), with one DeprecationWarning per function", async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => { if (w.name === "DeprecationWarning") warnings.push(w); };
    process.on("warning", onWarning);
    setGpuLoader(noPackage());
    try {
      for (let i = 0; i < 2; i++) {
        await expect(countParallel(9, { gpu: true })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE", message: expect.stringContaining("npm install webgpu") });
        await expect(startWorker({ unauthenticated: true, connection: "redis://127.0.0.1:1", gpu: true })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE" });
      }
      await expect(countParallel(9, { engine: "webgpu" })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE" });
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    } finally {
      setGpuLoader();
      process.off("warning", onWarning);
    }
    expect(warnings.map((w) => w.message)).toEqual([
      "countParallel's option gpu: true is deprecated; use engine: 'webgpu' (the GPU among the threads)",
      "startWorker's option gpu: true is deprecated; use engine: 'webgpu' (the GPU among the threads)",
    ]);
  });

  it("engine 'webgpu' with gpu: false, a startWorker engine that is not 'wasm' or 'webgpu', and a gpu that is not a boolean are refused, naming the option", async () => {
    await expect(countParallel(9, { engine: "webgpu", gpu: false })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", message: expect.stringContaining("leave gpu out"), param: "gpu" });
    await expect(startWorker({ unauthenticated: true, connection: "redis://127.0.0.1:1", engine: "ts" as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", message: expect.stringMatching(/^engine must be one of "wasm", "webgpu", got/) });
    await expect(countParallel(9, { gpu: "yes" as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", message: expect.stringContaining("gpu must be true or false") });
    // the plain CPU engines are as before
    expect((await countParallel(8, { engine: "ts", workers: 1 })).engine).toBe("ts");
  });
});

describe.skipIf(!haveGpu)("countParallel({ engine: 'webgpu' }): the GPU as one worker of the pool", () => {
  // (First: setGpuLoader() drops the shared device, so a loader swapped after the tests below
  // had compiled their pipeline on it would have the next test compile it again.)
  it("rejects where WebGPU has no adapter (before any thread starts), and a gpu that is not a boolean", async () => {
    setGpuLoader(noPackage());
    const starts: number[] = [];
    workerHooks.onStart = (_w, index) => starts.push(index);
    try {
      await expect(countParallel(9, { engine: "webgpu" })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE", message: expect.stringContaining("npm install webgpu") });
    } finally {
      setGpuLoader();
      workerHooks.onStart = undefined;
    }
    expect(starts).toEqual([]);
    await expect(countParallel(9, { gpu: 1 as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
    // the GPU counts plain boards only
    await expect(countParallel(9, { engine: "webgpu", blocked: [[0, 0]] })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });

  it("counts exactly with the GPU beside a CPU thread: total, unique and the CPU's nodes", async () => {
    const starts: number[] = [];
    workerHooks.onStart = (_w, index) => starts.push(index);
    try {
      const r = await countParallel(11, { engine: "webgpu", workers: 2, parts: 32 });
      expect([r.total, r.unique, r.nodes]).toEqual([A000170[11], A002562[11], (await count(11, { engine: "ts" })).nodes]);
      expect(r.engine).toBe("webgpu");
      expect(starts.sort()).toEqual([0, 1]);
      expect(r.gpuParts).toBeGreaterThan(0);
      expect(r.gpuParts).toBeLessThanOrEqual(32);
      const cpuOnly = await countParallel(9, { workers: 1, parts: 4 });
      expect(cpuOnly.gpuParts).toBeUndefined();
    } finally {
      workerHooks.onStart = undefined;
    }
  });

  it("a device lost mid-count: the GPU's part is counted again, a CPU thread takes its place, the total is exact", async () => {
    await countPartWebGpu(splitCount(8, { parts: 1 })[0]); // compiled and warm
    const starts: number[] = [];
    workerHooks.onStart = (_w, index) => starts.push(index);
    let destroyed = false;
    try {
      const r = await countParallel(13, {
        engine: "webgpu", workers: 2, parts: 64, progressIntervalMs: 0,
        onProgress: (p) => {
          if (!destroyed && p.phase === "count" && p.tasksDone >= 2) { // (split reports count parts made)
            destroyed = true;
            void acquireGpu().then((g) => g.device.destroy());
          }
        },
      });
      expect([r.total, r.unique, r.nodes]).toEqual([A000170[13], A002562[13], (await count(13)).nodes]);
      expect(destroyed).toBe(true);
      expect(starts.filter((i) => i === 0).length).toBe(2); // the GPU, then the CPU thread in its place
    } finally {
      workerHooks.onStart = undefined;
    }
  });

  it("abort stops the GPU's part within a dispatch: countParallel rejects, with no dispatch after the abort", async () => {
    await countPartWebGpu(splitCount(8, { parts: 1 })[0]); // compiled and warm
    const watch = watchDevice((await acquireGpu()).device);
    try {
      const controller = new AbortController();
      let atAbort = -1;
      // The abort comes from a timer armed at the third dispatch: it lands while one runs or
      // between two, at no particular point of the loop, and load cannot move it off the part.
      const submits = watch.submits;
      const arm = setInterval(() => {
        if (submits() < 3) return;
        clearInterval(arm);
        setTimeout(() => { atAbort = submits(); controller.abort(); }, 7);
      }, 2);
      const run = countParallel(14, {
        engine: "webgpu", workers: 1, parts: 1, signal: controller.signal, progressIntervalMs: 0, // the GPU alone, on one part of about 2 s (about 100 dispatches)
      });
      await expect(run).rejects.toMatchObject({ name: "AbortError" });
      clearInterval(arm);
      expect(atAbort, "the abort came mid-part").toBeGreaterThanOrEqual(3);
      // countParallel rejects at once, whatever the GPU does: the dispatch in flight at the
      // abort is the GPU's last (the loop checks the signal before each). A loop that went on
      // would dispatch every few tens of ms (seconds of its part left): a while later, none came.
      await sleep(500);
      expect(submits() - atAbort).toBe(0);
    } finally {
      watch.restore();
    }
  });
});

describe.skipIf(!haveRedis || !haveGpu)("queue parts on the GPU", () => {
  it("startWorker({ engine: 'webgpu' }) counts a run exactly, nodes included", async () => {
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ unauthenticated: true, connection: url, engine: "webgpu", queue: "gpu-11", pollMs: 50, onEvent: (e) => events.push(e) });
    try {
      const r = await countDistributed(11, { unauthenticated: true, connection: url, queue: "gpu-11", parts: 6 });
      expect([r.total, r.unique, r.nodes]).toEqual([A000170[11], A002562[11], (await count(11)).nodes]);
      expect(events.filter((e) => e.type === "counted")).toHaveLength(6);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
    } finally {
      await worker.close();
    }
  });

  it("an honest GPU worker passes the audit and replicas: its parts, nodes included, are a CPU thread's", async () => {
    const events: WorkerEvent[] = [];
    const gpuWorker = await startWorker({ unauthenticated: true, connection: url, engine: "webgpu", queue: "gpu-audit", pollMs: 50, name: "gpu", onEvent: (e) => events.push(e) });
    const cpuWorker = await startWorker({ unauthenticated: true, connection: url, concurrency: 1, queue: "gpu-audit", pollMs: 50, name: "cpu" });
    try {
      // every part counted by both workers (replicas 2) and by the coordinator (audit 1)
      const r = await countDistributed(12, { unauthenticated: true, connection: url, queue: "gpu-audit", parts: 8, replicas: 2, audit: 1 });
      expect([r.total, r.unique, r.nodes]).toEqual([A000170[12], A002562[12], (await count(12)).nodes]);
      expect([r.mismatches, r.suspects, r.audited]).toEqual([0, [], 8]);
      expect(events.filter((e) => e.type === "counted").length).toBeGreaterThan(0);
    } finally {
      await Promise.all([gpuWorker.close(), cpuWorker.close()]);
    }
  });

  it("a device lost mid-part: the part is counted again on the CPU, the total is exact", async () => {
    await countPartWebGpu(splitCount(8, { parts: 1 })[0]); // pipeline compiled: the part below starts at once
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ unauthenticated: true, connection: url, engine: "webgpu", queue: "gpu-14", pollMs: 50, onEvent: (e) => events.push(e) });
    try {
      // n = 14 in one part: about 2 s on a software GPU, so the device is lost mid-part
      const run = countDistributed(14, { unauthenticated: true, connection: url, queue: "gpu-14", parts: 1 });
      const redis = new Redis(url);
      for (let i = 0; i < 400 && (await redis.llen("bull:gpu-14:active")) === 0; i++) await sleep(10);
      redis.disconnect();
      await sleep(150);
      (await acquireGpu()).device.destroy();
      const r = await run;
      expect([r.total, r.unique, r.nodes]).toEqual([A000170[14], A002562[14], (await count(14)).nodes]);
      const fallbacks = events.filter((e) => e.type === "error" && /device was lost.*counting it on the CPU/.test(e.message));
      expect(fallbacks, JSON.stringify(events)).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });

  it("without an adapter, startWorker({ engine: 'webgpu' }) rejects with NQ_ENGINE_UNAVAILABLE before it connects; gpu must be a boolean", async () => {
    setGpuLoader(noPackage());
    try {
      await expect(startWorker({ unauthenticated: true, connection: "redis://127.0.0.1:1", engine: "webgpu" })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE", message: expect.stringContaining("npm install webgpu") });
    } finally {
      setGpuLoader();
    }
    await expect(startWorker({ unauthenticated: true, connection: url, gpu: "yes" as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });

  it("nqueens worker --engine webgpu names the adapter and counts a run's parts on it", async () => {
    const w = spawnCli(["worker", "--queue", url, "--engine", "webgpu", "--unauthenticated"]);
    await until("the worker to start", async () => w.stderr().includes("ready"));
    const r = await countDistributed(10, { unauthenticated: true, connection: url, queue: "gpu-cli", parts: 4 });
    expect([r.total, r.unique, r.nodes]).toEqual([A000170[10], A002562[10], (await count(10)).nodes]);
    w.child.kill("SIGTERM");
    expect(await w.exited).toBe(0);
    expect(w.stderr()).toMatch(/counting on the GPU: /);
    expect(w.stderr()).not.toMatch(/counting it on the CPU/);
  });
});
