// The SIMT model of the GPU kernel (gpu/model/simt.ts): its cost table is the WGSL's, and
// its twins of the kernel (today's and the one before the tuning) search exactly the tree
// the engines search: the model's total, unique and nodes equal count(n)'s on the Wasm engine
// and OEIS A000170 / A002562 (n = 8..11: well under a second each).
import { describe, expect, it } from "vitest";
import countWgsl from "../gpu/count.wgsl";
import constellationsWgsl from "../gpu/constellations.wgsl";
import stackPrelude from "../gpu/stack.wgsl";
import { count } from "../src/index.js";
import { countByPrefixes } from "../src/count/count.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { BASELINE_COSTS, CONSTELLATION_COSTS, KERNEL_COSTS, blockCosts, kernelBlocks, type CostTable } from "../gpu/model/costs.js";
import { defaultTasks, simulate } from "../gpu/model/simt.js";
import { baselineKernel, tunedKernel } from "../gpu/model/kernels.js";
import { constellationKernel, constellationTasks } from "../gpu/model/constellations.js";

/** A kernel as the host compiles it, both stack layouts kept: gpu/stack.wgsl spliced in at its include line (the stack accessors' costs are read from there). */
const withStack = (kernel: string): string => kernel.replace(/^\/\/ @include stack\.wgsl$/m, () => stackPrelude);
const shader = withStack(countWgsl);
const constellationShader = withStack(constellationsWgsl);

function tableText(table: CostTable): string {
  return `{\n${Object.entries(table).map(([name, { cost, hash }]) => `  ${JSON.stringify(name)}: { cost: ${cost}, hash: "${hash}" },`).join("\n")}\n}`;
}

describe("the GPU model's cost table", () => {
  it("is gpu/count.wgsl's: the same blocks, costs and text hashes (paste the table printed here when a block changed)", () => {
    const read = blockCosts(shader);
    expect(Object.keys(read).length).toBeGreaterThan(20);
    const differ = [...new Set([...Object.keys(read), ...Object.keys(KERNEL_COSTS)])].filter(
      (name) => read[name]?.cost !== KERNEL_COSTS[name]?.cost || read[name]?.hash !== KERNEL_COSTS[name]?.hash,
    );
    if (differ.length) {
      throw new Error(`gpu/count.wgsl's blocks ${differ.join(", ")} differ from KERNEL_COSTS in gpu/model/costs.ts; the table read from the WGSL now:\n${tableText(read)}`);
    }
  });

  it("is gpu/constellations.wgsl's too (CONSTELLATION_COSTS; paste the table printed here when a block changed)", () => {
    const read = blockCosts(constellationShader);
    expect(Object.keys(read).length).toBeGreaterThan(10);
    const differ = [...new Set([...Object.keys(read), ...Object.keys(CONSTELLATION_COSTS)])].filter(
      (name) => read[name]?.cost !== CONSTELLATION_COSTS[name]?.cost || read[name]?.hash !== CONSTELLATION_COSTS[name]?.hash,
    );
    if (differ.length) {
      throw new Error(`gpu/constellations.wgsl's blocks ${differ.join(", ")} differ from CONSTELLATION_COSTS in gpu/model/costs.ts; the table read from the WGSL now:\n${tableText(read)}`);
    }
    // the tables' reads (border, shift) are counted as what they are: an add and a load
    expect(read.place.cost).toBeGreaterThan(read.push.cost);
  });

  it("notices a changed block: one more operator in a block changes its cost and hash", () => {
    const changed = shader.replace("let bit = r & (0u - r);", "let bit = (r & (0u - r)) | 0u;");
    expect(changed).not.toBe(shader);
    const before = blockCosts(shader).place, after = blockCosts(changed).place;
    expect(after.cost).toBe(before.cost + 1);
    expect(after.hash).not.toBe(before.hash);
  });

  it("counts operators, accesses, branches and the stack accessors' bodies", () => {
    const wgsl = [
      "// @stack workgroup", "fn rem(k: u32) -> u32 { return remAt[k * WG + lid]; }", "// @end",
      "// @cost a", "  let x = rem(y) + P.n; // a comment: + - [ if", "  if (x == 0u) { break; }", "// @cost-end",
    ].join("\n");
    expect(kernelBlocks(wgsl).get("a")).toContain("rem(y)");
    // rem: *, +, [ (3); the + (1); if, ==, break (3); P.n free
    expect(blockCosts(wgsl).a.cost).toBe(7);
  });

  it("keeps the kernel before the tuning as the baseline, with blocks the tuned kernel dropped", () => {
    for (const gone of ["attacks.row", "open.row", "taskColumn", "pop"]) {
      expect(BASELINE_COSTS[gone]).toBeDefined();
      expect(KERNEL_COSTS[gone]).toBeUndefined();
    }
  });
});

describe("the GPU model's kernels", () => {
  const expected = new Map<number, { total: bigint; unique: bigint | null; nodes: bigint }>();
  // the prefix counter on Wasm: the search the GPU's tasks split (count(n) counts start constellations, with other nodes)
  const wasm = async (n: number) => expected.get(n) ?? expected.set(n, countByPrefixes(n, "wasm")).get(n)!;

  for (const kernel of [tunedKernel(), baselineKernel]) {
    it(`${kernel.name}: total, unique and nodes of count(n) on the Wasm engine, n = 8..11 (A000170, A002562), shallow and deep tasks`, async () => {
      for (let n = 8; n <= 11; n++) {
        // tasks of 3 or 4 rows (deep searches: back-ups over many rows) and the hardware default's (a row or two below each)
        const shallow = simulate(n, kernel, { slots: 64, tasks: defaultTasks(n, 64, 64), strict: true });
        expect(shallow.depth).toBeLessThanOrEqual(4);
        const r = simulate(n, kernel, { slots: 256, strict: true });
        expect([shallow.total, shallow.unique, shallow.nodes]).toEqual([r.total, r.unique, r.nodes]);
        const w = await wasm(n);
        expect(BigInt(r.total)).toBe(A000170[n]);
        expect(BigInt(r.unique)).toBe(A002562[n]);
        expect([BigInt(r.total), BigInt(r.unique), BigInt(r.nodes)]).toEqual([w.total, w.unique, w.nodes]);
        expect(r.laneOccupancy).toBeGreaterThan(0);
        expect(r.laneOccupancy).toBeLessThanOrEqual(1);
        expect(r.makespanOverIdeal).toBeGreaterThanOrEqual(1);
      }
    });
  }

  it("constellations: total, unique and nodes of count(n) on the Wasm engine (the constellation counter's nodes), n = 8..11, one start a task and many", async () => {
    const kernel = constellationKernel();
    for (let n = 8; n <= 11; n++) {
      const want = await count(n, { engine: "wasm" });
      for (const tasks of [constellationTasks(n, 64, 1), constellationTasks(n, 256)]) {
        const r = simulate(n, kernel, { slots: 256, tasks, strict: true });
        expect([BigInt(r.total), BigInt(r.unique), BigInt(r.nodes)]).toEqual([A000170[n], A002562[n], want.nodes]);
        expect(r.laneOccupancy).toBeGreaterThan(0);
        expect(r.laneOccupancy).toBeLessThanOrEqual(1);
        for (const [name] of r.byBlock) expect(CONSTELLATION_COSTS[name]).toBeDefined();
      }
      if (n >= 10) expect(constellationTasks(n, 256).depth).toBeGreaterThan(0); // (the host placed rows: few tasks for 256 slots)
    }
  });

  it("books every warp instruction to a block of the table, and its phases add up to all of them", () => {
    const r = simulate(10, tunedKernel(), { slots: 256, strict: true });
    const sum = r.byBlock.reduce((s, [, v]) => s + v, 0);
    expect(sum).toBeCloseTo(r.warpInstructions, 6);
    expect(Object.values(r.share).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
    for (const [name] of r.byBlock) expect(KERNEL_COSTS[name]).toBeDefined();
  });

  it("finds the tuned kernel cheaper per node than the baseline, with fewer iterations, on the same tasks", () => {
    const slots = 1024;
    const base = simulate(11, baselineKernel, { slots });
    const tuned = simulate(11, tunedKernel(), { slots, tasks: baselineKernel.tasksFor(11, slots) });
    expect(tuned.nodes).toBe(base.nodes);
    expect(tuned.warpInstructionsPerNode).toBeLessThan(base.warpInstructionsPerNode);
  });

  it("refuses a kernel that books a block the table lacks (strict)", () => {
    const kernel = tunedKernel();
    const broken = { ...kernel, make: undefined, iterate: (lane: never, sim: { hit(b: number): void }, b: Record<string, number>) => (sim.hit(b["no such block"]), false) };
    expect(() => simulate(8, broken as never, { slots: 32, strict: true })).toThrow(/no such block/);
  });
});
