// Parts on the GPU: countParallel({ gpu: true }) (the GPU as one worker of the pool) and the
// queue worker (`nqueens worker --queue URL --gpu`, startWorker({ gpu: true })). Parts counted
// with the WebGPU engine give the exact total; a device lost while a part is counted sends that
// part to the CPU (never a count from the lost device). Needs a WebGPU adapter (SwiftShader in
// Node, see test/webgpu-env.ts) and, for the queue, Redis (redis-server, started here on a
// free port); in CI a missing one fails the file.
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countDistributed, startWorker, type WorkerEvent } from "../src/distributed/index.js";
import { splitCount } from "../src/count/parts.js";
import { countParallel, workerHooks } from "../src/count/parallel.js";
import { count } from "../src/index.js";
import { countTask } from "../src/count/parts.js";
import { acquireGpu, countPartWebGpu, gpuInfo, releaseGpu } from "../src/engine/webgpu/index.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { haveRedisServer, quietClient, RedisServer, requireRedis, sleep } from "./redis-harness.js";

const haveGpu = await gpuInfo().then(() => true, (error: Error) => {
  if (process.env.CI) throw new Error(`WebGPU cannot start in Node here (${error.message}); CI must run the GPU queue tests`);
  console.warn(`webgpu queue tests skipped: ${error.message}`);
  return false;
});
const haveRedis = requireRedis(haveRedisServer, {
  ci: "the GPU queue tests need redis-server (.ci/run installs it)",
  skipped: "webgpu queue tests skipped: no redis-server",
});

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
  server?.child?.kill();
  server?.remove();
  await releaseGpu();
});

describe.skipIf(!haveGpu)("countParallel({ gpu: true }): the GPU as one worker of the pool", () => {
  it("counts exactly with the GPU beside CPU threads", async () => {
    const starts: number[] = [];
    workerHooks.onStart = (_w, index) => starts.push(index);
    try {
      const r = await countParallel(11, { gpu: true, workers: 2, parts: 32 });
      expect([r.total, r.unique, r.nodes]).toEqual([A000170[11], A002562[11], (await count(11, { engine: "ts" })).nodes]);
      expect(starts.sort()).toEqual([0, 1]);
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
      const r = await countParallel(12, {
        gpu: true, workers: 2, parts: 64, progressIntervalMs: 0,
        onProgress: (p) => {
          if (!destroyed && p.tasksDone >= 2) {
            destroyed = true;
            void acquireGpu().then((g) => g.device.destroy());
          }
        },
      });
      expect([r.total, r.unique]).toEqual([A000170[12], A002562[12]]);
      expect(destroyed).toBe(true);
      expect(starts.filter((i) => i === 0).length).toBe(2); // the GPU, then the CPU thread in its place
    } finally {
      workerHooks.onStart = undefined;
    }
  });

  it("rejects where WebGPU has no adapter, and a gpu that is not a boolean", async () => {
    const { setGpuLoader, createLoader } = await import("../src/engine/webgpu/index.js");
    setGpuLoader(createLoader(() => ({ isNode: true, importPackage: () => Promise.reject(new Error("Cannot find package 'webgpu'")) })));
    try {
      await expect(countParallel(9, { gpu: true })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE" });
    } finally {
      setGpuLoader();
    }
    await expect(countParallel(9, { gpu: 1 as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });
});

describe.skipIf(!haveRedis || !haveGpu)("queue parts on the GPU", () => {
  it("a part counted on the GPU is the part counted on the CPU, field for field", async () => {
    for (const part of splitCount(11, { parts: 5 })) {
      expect(await countPartWebGpu(part)).toEqual(countTask(part, { engine: "ts" }));
    }
  });

  it("startWorker({ gpu: true }) counts a run exactly", async () => {
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ connection: url, gpu: true, queue: "gpu-11", pollMs: 50, onEvent: (e) => events.push(e) });
    try {
      const r = await countDistributed(11, { connection: url, queue: "gpu-11", parts: 6 });
      expect([r.total, r.unique]).toEqual([A000170[11], A002562[11]]);
      expect(events.filter((e) => e.type === "counted")).toHaveLength(6);
      expect(events.filter((e) => e.type === "error")).toEqual([]);
    } finally {
      await worker.close();
    }
  });

  it("a device lost mid-part: the part is counted again on the CPU, the total is exact", async () => {
    await countPartWebGpu(splitCount(8, { parts: 1 })[0]); // pipeline compiled: the part below starts at once
    const events: WorkerEvent[] = [];
    const worker = await startWorker({ connection: url, gpu: true, queue: "gpu-13", pollMs: 50, onEvent: (e) => events.push(e) });
    try {
      // n = 13: seconds on a software GPU, so the device is lost mid-part (n = 12 could end within the 150 ms)
      const run = countDistributed(13, { connection: url, queue: "gpu-13", parts: 1 });
      const redis = new Redis(url);
      for (let i = 0; i < 400 && (await redis.llen("bull:gpu-13:active")) === 0; i++) await sleep(10);
      redis.disconnect();
      await sleep(150);
      (await acquireGpu()).device.destroy();
      const r = await run;
      expect([r.total, r.unique]).toEqual([A000170[13], A002562[13]]);
      const fallbacks = events.filter((e) => e.type === "error" && /device was lost.*counting it on the CPU/.test(e.message));
      expect(fallbacks, JSON.stringify(events)).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });

  it("without an adapter, startWorker({ gpu: true }) rejects with NQ_ENGINE_UNAVAILABLE; gpu must be a boolean", async () => {
    const { setGpuLoader, createLoader } = await import("../src/engine/webgpu/index.js");
    setGpuLoader(createLoader(() => ({ isNode: true, importPackage: () => Promise.reject(new Error("Cannot find package 'webgpu'")) })));
    try {
      await expect(startWorker({ connection: url, gpu: true })).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE", message: expect.stringContaining("npm install webgpu") });
    } finally {
      setGpuLoader();
    }
    await expect(startWorker({ connection: url, gpu: "yes" as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });
});
