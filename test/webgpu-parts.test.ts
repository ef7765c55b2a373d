// Constellation parts counted on the GPU (gpu/constellations.wgsl, src/engine/webgpu/constellations.ts):
// every part of several splits gives what the CPU constellation counter gives, field for
// field (count8, count4, count2 and nodes), under any tuning (few or many starts, the host
// placing rows or not, resumed searches, seeded counters whose carries run; the workgroup
// stack's parts in test/webgpu.test.ts, on the pipeline compiled there), at
// the board's edge (n = 32 masks), and abort stops it at once. Needs a WebGPU adapter
// (SwiftShader in Node, see test/webgpu-env.ts); in CI a missing one fails the file.
import { afterAll, describe, expect, it } from "vitest";
import { derivePart } from "../src/count/parts.js";
import { countTask, mergeCounts, splitCount } from "../src/count/split.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import {
  PARAMS, acquireGpu, constellationCounts, constellationStarts, countConstellationsWebGpu, countTurns, gpuInfo, kernelSource, minStartsFor, releaseGpu,
  type ConstellationStarts,
} from "../src/engine/webgpu/index.js";
import { countPartWebGpu } from "../src/count/gpu-part.js";
import type { ConstellationTask } from "../src/engine/contract.js";
import { A000170, A002562 } from "./fixtures/oeis.js";

const haveGpu = await gpuInfo().then(() => true, (error: Error) => {
  if (process.env.CI) throw new Error(`WebGPU cannot start in Node here (${error.message}); CI must run the GPU part tests`);
  console.warn(`webgpu part tests skipped: ${error.message}`);
  return false;
});

afterAll(() => releaseGpu());

/** Whether `cols` (one column per row) is an n-queens solution: checked square by square. */
function isSolution(cols: number[]): boolean {
  for (let a = 0; a < cols.length; a++) for (let b = 0; b < a; b++) {
    if (cols[a] === cols[b] || Math.abs(cols[a] - cols[b]) === a - b) return false;
  }
  return true;
}

describe.skipIf(!haveGpu)("constellation parts on the GPU", () => {
  it("every part of several splits is the CPU counter's part, field for field; the merged counts are OEIS's", async () => {
    let symmetricSeen = { count4: 0n, count2: 0n };
    for (const [n, parts] of [[4, 1], [5, 1], [6, 2], [7, 3], [8, 3], [9, 4], [10, 7], [11, 5], [12, 13], [13, 6]] as const) {
      const split = splitCount(n, { parts });
      const counted = [];
      for (const part of split) {
        const gpu = await countPartWebGpu(part);
        expect(gpu, `n = ${n}, part ${part.part} of ${parts}`).toEqual(countTask(part, { engine: "wasm" }));
        counted.push(gpu);
      }
      const merged = mergeCounts(counted, { n, parts });
      expect([merged.total, merged.unique]).toEqual([A000170[n], A002562[n]]);
      for (const c of counted) symmetricSeen = { count4: symmetricSeen.count4 + BigInt(c.count4), count2: symmetricSeen.count2 + BigInt(c.count2) };
    }
    // (the classes of 4 and 2 images, told from the symmetric constellations, were exercised)
    expect(symmetricSeen.count4).toBeGreaterThan(0n);
    expect(symmetricSeen.count2).toBeGreaterThan(0n);
  });

  // (The workgroup stack counts these parts in test/webgpu.test.ts, where its pipeline, seconds
  // of SwiftShader's compiling, is compiled for its own tests already.)
  it("the same under any tuning: many or few starts, tiny budgets (resumed searches), 32 slots, seeded carries", async () => {
    const parts = [...splitCount(12, { parts: 3 }), ...splitCount(11, { parts: 2 })];
    const cpu = parts.map((p) => countTask(p, { engine: "ts" }));
    const tunings = [
      { minTasks: 1 }, // no row placed on the host: every task is one start
      { minTasks: 100_000 }, // rows placed until no start has more than MIN_START_ROWS free rows below
      { slots: 32, initialBudget: 1, targetMs: 1000 }, // a step or two a dispatch at first: saved and resumed
      { seedLo: 0xfffffff0, slots: 32 }, // every slot's lo and mid words start just below 2^32
    ];
    for (const tuning of tunings) {
      for (const [i, part] of parts.entries()) {
        expect(await countPartWebGpu(part, { tuning }), JSON.stringify(tuning)).toEqual(cpu[i]);
      }
    }
  });

  it("the host places rows (and counts their nodes) when there are few tasks, and none when there are many", async () => {
    const [part] = splitCount(12, { parts: 1 });
    const none = await constellationStarts(12, part.prefixes, 1);
    const deep = await constellationStarts(12, part.prefixes, 50_000);
    expect(none.rowsPlaced).toBe(0);
    expect(none.hostNodes).toBe(0n);
    expect(deep.rowsPlaced).toBeGreaterThan(0);
    expect(deep.count).toBeGreaterThan(none.count);
    expect(deep.hostNodes).toBeGreaterThan(0n);
    // (the starts' words: the first free row and the class fit the kernel's packing)
    for (let s = 0; s < deep.count; s++) {
      const rows = deep.records[5 * s + 1];
      expect(rows & 255).toBeLessThanOrEqual(rows >>> 16);
      expect((rows >> 8) & 255).toBeLessThanOrEqual(2);
    }
  });

  it("a part gets starts in proportion to its share of the board: a small part costs the host little", async () => {
    expect(minStartsFor(65536, false)).toBe(8 * 65536);
    expect(minStartsFor(65536, false, 1 / 256)).toBe(2048);
    expect(minStartsFor(256, true, 1 / 4096)).toBe(32); // (at least a workgroup's)
    const part = derivePart(17, 256, 1); // about 5.7 million nodes
    const few = await constellationStarts(17, part.prefixes, minStartsFor(65536, false, 1 / 256));
    const many = await constellationStarts(17, part.prefixes, minStartsFor(65536, false));
    expect(few.count).toBeGreaterThanOrEqual(2048);
    expect(few.count).toBeLessThan(50_000);
    expect(many.count).toBeGreaterThan(10 * few.count);
    expect(few.rowsPlaced).toBeLessThan(many.rowsPlaced);
  });

  it("agrees with both CPU engines at the board's edge (n = 32 masks), on tasks cut from a real solution", async () => {
    const n = 32;
    // the explicit construction for n mod 6 = 2: 2, 4, ..., 32, then 3, 1, 7, 9, ..., 31, 5 (1-based)
    const oneBased = [...Array.from({ length: 16 }, (_, i) => 2 * i + 2), 3, 1, ...Array.from({ length: 13 }, (_, i) => 2 * i + 7), 5];
    const columns = oneBased.map((c) => c - 1);
    expect(isSolution(columns)).toBe(true);
    const tasks: ConstellationTask[] = [];
    for (const s of [columns, columns.slice().reverse(), columns.map((c) => n - 1 - c)]) {
      const k = s.indexOf(0), l = s.indexOf(n - 1);
      const free = s.filter((_, r) => r > 0 && r < n - 1 && r !== k && r !== l);
      for (const left of [1, 2, 4, 7, 9]) tasks.push({ i: s[0], j: s[n - 1], k, l, rows: free.slice(0, free.length - left) });
    }
    const t = tsEngine.openConstellationCounter(n), w = wasmEngine.openConstellationCounter(n);
    const cpu = { count8: 0n, count4: 0n, count2: 0n, nodes: 0n };
    for (const task of tasks) {
      const r = t.countTask(task);
      expect(r).toEqual(w.countTask(task));
      for (const key of ["count8", "count4", "count2", "nodes"] as const) cpu[key] += r[key];
    }
    t.close(); w.close();
    expect(cpu.count8).toBeGreaterThanOrEqual(15n);
    for (const minTasks of [1, 1000]) {
      expect(await countConstellationsWebGpu(n, tasks, {}, { minTasks, slots: 32 })).toEqual(cpu);
    }
  });

  it("leaves the symmetric tasks' turn-symmetric searches for later (the count runs them while the GPU counts), and refuses counts without them", async () => {
    const [part] = splitCount(12, { parts: 1 });
    const starts = await constellationStarts(12, part.prefixes, 1000);
    expect(starts.turnsLeft.length).toBeGreaterThan(0);
    expect([starts.half1, starts.half2, starts.quarter2]).toEqual([0n, 0n, 0n]);
    const zero = { count8: 0n, count4: 0n, count2: 0n, nodes: 0n };
    expect(() => constellationCounts(starts, zero)).toThrow(expect.objectContaining({ code: "NQ_KERNEL_ABORT", message: expect.stringContaining("not counted yet") }));
    let calls = 0;
    await countTurns(starts, () => { calls++; });
    expect(calls).toBeGreaterThan(1); // (one search a slice)
    expect(starts.turnsLeft).toEqual([]);
    expect(starts.half1 + starts.half2).toBeGreaterThan(0n);
  });

  it("refuses solution sums that cannot be classes of 8, 4 and 2 (a wrong kernel's), never reporting them", () => {
    const starts = { n: 8, count: 0, records: new Uint32Array(0), hostNodes: 0n, hostSolutions: [0n, 0n, 0n], half1: 2n, half2: 4n, quarter2: 2n, turnsLeft: [], rowsPlaced: 0 } satisfies ConstellationStarts;
    expect(constellationCounts(starts, { count8: 5n, count4: 4n, count2: 8n, nodes: 9n })).toEqual({ count8: 5n + 1n + 1n, count4: 2n + 1n, count2: 2n, nodes: 9n });
    for (const wrong of [{ count4: 3n, count2: 8n }, { count4: 4n, count2: 6n }, { count4: 0n, count2: 8n }]) {
      expect(() => constellationCounts(starts, { count8: 5n, nodes: 9n, ...wrong })).toThrow(expect.objectContaining({ code: "NQ_KERNEL_ABORT" }));
    }
  });

  it("the kernel's struct Params is the host's, word for word", () => {
    const text = kernelSource("private", 32);
    const fields = /struct Params \{([\s\S]*?)\}/.exec(text)![1].split("\n").map((l) => /^\s*(\w+):/.exec(l)?.[1]).filter((f): f is string => !!f && !f.startsWith("_pad"));
    expect(fields).toEqual([...PARAMS]);
    expect(kernelSource("workgroup", 20)).toMatch(/const STACK_ROWS: u32 = 20u;/);
  });

  it("abort stops a part within a dispatch (and the next part is right); an aborted signal rejects at once", async () => {
    const [big] = splitCount(14, { parts: 1 }); // about 150 dispatches on SwiftShader
    // The abort comes while the third dispatch runs (from inside its submit), and no dispatch
    // may be submitted after it: the count stops at the end of the dispatch in flight, rather
    // than after some time, which a loaded machine could stretch.
    const queue = (await acquireGpu()).device.queue;
    const submit = queue.submit;
    const controller = new AbortController();
    let submits = 0, afterAbort = 0;
    Object.defineProperty(queue, "submit", {
      configurable: true,
      value: (buffers: GPUCommandBuffer[]) => {
        if (controller.signal.aborted) afterAbort++;
        submit.call(queue, buffers);
        if (++submits === 3) controller.abort();
      },
    });
    try {
      await expect(countPartWebGpu(big, { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
    } finally {
      delete (queue as { submit?: unknown }).submit;
    }
    expect([submits, afterAbort]).toEqual([3, 0]);
    const [small] = splitCount(9, { parts: 2 });
    expect(await countPartWebGpu(small)).toEqual(countTask(small));
    await expect(countPartWebGpu(small, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
    await expect(countPartWebGpu({ ...small, digest: "0".repeat(16) })).rejects.toMatchObject({ code: "NQ_PART_MISMATCH" });
  });
});
