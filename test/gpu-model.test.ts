// The SIMT model of the GPU kernel (gpu/model/simt.ts): its cost table is the WGSL's, and
// its twin of the kernel (gpu/constellations.wgsl's) and of the former prefix kernel (frozen,
// gpu/model/prefix.ts: the bench's reference for count() before it moved) search exactly the
// trees the engines search: the model's total, unique and nodes equal count(n)'s (and the
// prefix counter's) on the Wasm engine and OEIS A000170 / A002562 (n = 8..11: well under a
// second each).
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import constellationsWgsl from "../gpu/constellations.wgsl";
import stackPrelude from "../gpu/stack.wgsl";
import { count } from "../src/index.js";
import { countByPrefixes } from "../src/count/count.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { CONSTELLATION_COSTS, blockCosts, kernelBlocks, type CostTable } from "../gpu/model/costs.js";
import { simulate } from "../gpu/model/simt.js";
import { PREFIX_COSTS, prefixKernel, prefixTasks } from "../gpu/model/prefix.js";
import { constellationKernel, constellationTasks } from "../gpu/model/constellations.js";

/** The kernel as the host compiles it, both stack layouts kept: gpu/stack.wgsl spliced in at its include line (the stack accessors' costs are read from there). */
const withStack = (kernel: string): string => kernel.replace(/^\/\/ @include stack\.wgsl$/m, () => stackPrelude);
const constellationShader = withStack(constellationsWgsl);

function tableText(table: CostTable): string {
  return `{\n${Object.entries(table).map(([name, { cost, hash }]) => `  ${JSON.stringify(name)}: { cost: ${cost}, hash: "${hash}" },`).join("\n")}\n}`;
}

describe("the GPU model's cost table", () => {
  it("is gpu/constellations.wgsl's: the same blocks, costs and text hashes (CONSTELLATION_COSTS; paste the table printed here when a block changed)", () => {
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
    const changed = constellationShader.replace("let bit = r & (0u - r);", "let bit = (r & (0u - r)) | 0u;");
    expect(changed).not.toBe(constellationShader);
    const before = blockCosts(constellationShader).place, after = blockCosts(changed).place;
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

  it("gpu/ holds one kernel; the former prefix kernel's costs stay frozen in the model (PREFIX_COSTS), blocks of no WGSL now", () => {
    expect(readdirSync("gpu").filter((f) => f.endsWith(".wgsl")).sort()).toEqual(["constellations.wgsl", "stack.wgsl"]);
    for (const gone of ["sym90.inner", "candidates.bound2", "queenAt.prefix"]) {
      expect(PREFIX_COSTS[gone]).toBeDefined();
      expect(CONSTELLATION_COSTS[gone]).toBeUndefined();
    }
  });
});

describe("the GPU model's kernels", () => {
  it("constellations: total, unique and nodes of count(n) on the Wasm engine (the constellation counter's nodes), n = 8..11, one start a task and many, either order", async () => {
    for (const kernel of [constellationKernel(), constellationKernel({ order: "split" })]) {
      for (let n = 8; n <= 11; n++) {
        const want = await count(n, { engine: "wasm" });
        for (const tasks of [constellationTasks(n, 64, 1), constellationTasks(n, 256)]) {
          const r = simulate(n, kernel, { slots: 256, tasks, strict: true });
          expect([BigInt(r.total), BigInt(r.unique), BigInt(r.nodes)]).toEqual([A000170[n], A002562[n], want.nodes]);
          expect(r.laneOccupancy).toBeGreaterThan(0);
          expect(r.laneOccupancy).toBeLessThanOrEqual(1);
          expect(r.makespanOverIdeal).toBeGreaterThanOrEqual(1);
          for (const [name] of r.byBlock) expect(CONSTELLATION_COSTS[name]).toBeDefined();
        }
        const own = simulate(n, kernel, { slots: 256, strict: true }); // (the kernel's own starts, in its order)
        expect([BigInt(own.total), BigInt(own.unique), BigInt(own.nodes)]).toEqual([A000170[n], A002562[n], want.nodes]);
        if (n >= 10) expect(constellationTasks(n, 256).depth).toBeGreaterThan(0); // (the host placed rows: few tasks for 256 slots)
      }
    }
  });

  it("the frozen prefix kernel: total, unique and nodes of the prefix counter on the Wasm engine, n = 8..11, shallow and deep tasks", () => {
    const kernel = prefixKernel();
    for (let n = 8; n <= 11; n++) {
      // tasks of 3 or 4 rows (deep searches: back-ups over many rows) and the hardware default's (a row or two below each)
      const shallow = simulate(n, kernel, { slots: 64, tasks: prefixTasks(n, 64, 64), strict: true });
      expect(shallow.depth).toBeLessThanOrEqual(4);
      const r = simulate(n, kernel, { slots: 256, strict: true });
      expect([shallow.total, shallow.unique, shallow.nodes]).toEqual([r.total, r.unique, r.nodes]);
      const w = countByPrefixes(n, "wasm");
      expect([BigInt(r.total), BigInt(r.unique), BigInt(r.nodes)]).toEqual([A000170[n], A002562[n], w.nodes]);
      for (const [name] of r.byBlock) expect(PREFIX_COSTS[name]).toBeDefined();
    }
  });

  it("books every warp instruction to a block of the table, and its phases add up to all of them", () => {
    const r = simulate(10, constellationKernel(), { slots: 256, strict: true });
    const sum = r.byBlock.reduce((s, [, v]) => s + v, 0);
    expect(sum).toBeCloseTo(r.warpInstructions, 6);
    expect(Object.values(r.share).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
    for (const [name] of r.byBlock) expect(CONSTELLATION_COSTS[name]).toBeDefined();
  });

  it("finds count's kernel now (constellations) cheaper than the prefix kernel it replaced: fewer warp instructions a node and in all", async () => {
    const slots = 1024;
    const before = simulate(12, prefixKernel(), { slots });
    const after = simulate(12, constellationKernel(), { slots });
    expect(BigInt(after.nodes)).toBe((await count(12, { engine: "wasm" })).nodes);
    expect(after.nodes).toBeLessThan(before.nodes); // (the constellation search's tree is the smaller)
    expect(after.warpInstructionsPerNode).toBeLessThan(before.warpInstructionsPerNode);
    expect(after.warpInstructions).toBeLessThan(before.warpInstructions);
  });

  it("refuses a kernel that books a block the table lacks (strict)", () => {
    const kernel = constellationKernel();
    const broken = { ...kernel, iterate: (lane: never, sim: { hit(b: number): void }, b: Record<string, number>) => (sim.hit(b["no such block"]), false) };
    expect(() => simulate(8, broken as never, { slots: 32, strict: true })).toThrow(/no such block/);
  });
});
