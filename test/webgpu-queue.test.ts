// Parts on the GPU: countParallel({ gpu: true }) and the queue worker's gpu option
// (`nqueens worker --gpu`, startWorker({ gpu: true })). The split's parts are start
// constellations (split version 3), which the GPU kernel does not count: both refuse at
// once, with NQ_ENGINE_UNAVAILABLE and a message that says what counts on the GPU instead,
// before any thread, device or Redis connection is opened. The GPU counts whole boards
// (test/webgpu.test.ts).
import { describe, expect, it } from "vitest";
import { startWorker } from "../src/distributed/index.js";
import { splitCount } from "../src/count/parts.js";
import { countParallel } from "../src/count/parallel.js";
import { countPartWebGpu } from "../src/engine/webgpu/index.js";
import { runCli } from "./cli-run.js";

const refusal = { code: "NQ_ENGINE_UNAVAILABLE", message: expect.stringMatching(/start constellations.*count parts on CPU threads/) };

describe("parts are not counted on the GPU (the GPU counts whole boards)", () => {
  it("countParallel({ gpu: true }) rejects at once, naming what counts on the GPU; gpu must be a boolean", async () => {
    await expect(countParallel(11, { gpu: true, workers: 2 })).rejects.toMatchObject(refusal);
    await expect(countParallel(11, { gpu: true })).rejects.toMatchObject({ message: expect.stringContaining("engine: 'webgpu'") });
    await expect(countParallel(9, { gpu: 1 as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
    // with givens the older, more specific refusal stands
    await expect(countParallel(9, { gpu: true, blocked: [[0, 0]] })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });

  it("startWorker({ gpu: true }) rejects before it connects (no Redis at this address); gpu must be a boolean", async () => {
    await expect(startWorker({ connection: "redis://127.0.0.1:1", gpu: true })).rejects.toMatchObject(refusal);
    await expect(startWorker({ connection: "redis://127.0.0.1:1", gpu: "yes" as never })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT" });
  });

  it("countPartWebGpu refuses a part of the constellation split", async () => {
    await expect(countPartWebGpu(splitCount(10, { parts: 4 })[1])).rejects.toMatchObject({ code: "NQ_ENGINE_UNAVAILABLE" });
  });

  it("nqueens worker --gpu says so in one line and exits non-zero", async () => {
    const r = await runCli(["worker", "--queue", "redis://127.0.0.1:1", "--gpu"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/start constellations/);
  });
});
