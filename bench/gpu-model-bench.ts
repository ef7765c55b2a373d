// npm run bench -- --gpu-model [--gpu-model-sizes 14-17] [--gpu-slots N]
// The SIMT model (gpu/model/simt.ts) of the GPU kernel count(n, { engine: 'webgpu' }) and the
// parts count on, gpu/constellations.wgsl ('constellations', gpu/model/constellations.ts),
// over the starts its host makes from count(n)'s constellation split, checked against count(n)
// on the Wasm engine (total, unique and nodes must be equal, or the bench fails); beside it
// the prefix kernel count() ran before ('prefix', gpu/model/prefix.ts: gpu/count.wgsl's twin,
// frozen with the file's removal, over the prefix tasks its host made), checked against the
// prefix counter on the Wasm engine (countByPrefixes). Prints, per n and kernel: the tasks,
// warp instructions per node, lane occupancy, the share of the warp instructions taking tasks
// (and, for the prefix kernel, in the rotation check), the tail (share of the time after the
// last task was handed out), the makespan over the ideal, and a rough H200 time; then the two
// kernels' ratio: of the warp instructions a node, and in all (the work of counting n: the
// constellation search has about 15% fewer nodes than the prefix search). A model's figures,
// not a GPU's (what the model leaves out is in gpu/model/simt.ts's header).
// NQ_BENCH_GPU_MODEL_KERNELS=constellations picks kernels (default: prefix,constellations);
// NQ_BENCH_GPU_MODEL_STARTS=4,8,16 also runs the constellation kernel with so many starts a
// slot asked of the host (the launch parameter count() tunes), and
// NQ_BENCH_GPU_MODEL_ORDER=split with the starts in the host's order.
//
// bench/run.mjs bundles this file with esbuild (it imports TypeScript from src/, the Wasm
// engine included).
import { simulate, type ModelResult } from "../gpu/model/simt.js";
import { countByPrefixes } from "../src/count/count.js";
import { prefixKernel } from "../gpu/model/prefix.js";
import { constellationKernel } from "../gpu/model/constellations.js";
import { count } from "../src/index.js";


/**
 * A rough H200 figure from the model: 132 SMs x 4 warp schedulers at 1.98 GHz, each issuing
 * `efficiency` warp instructions a cycle (0.35 to 0.7: latency the resident warps do not hide),
 * the warps' instructions spread over the schedulers and stretched by the model's makespan over
 * the ideal (the tail). The memory system, the dispatch boundaries and the host are left out.
 */
export const H200 = { schedulers: 132 * 4, hz: 1.98e9, efficiency: [0.35, 0.7] as const };

export function h200Ms(warpInstructions: number, makespanOverIdeal: number, efficiency: number): number {
  return ((warpInstructions / H200.schedulers) * makespanOverIdeal) / (H200.hz * efficiency) * 1000;
}

export type ModelRow = Omit<ModelResult, "byBlock"> & { h200Ms: [number, number]; modelMs: number; topBlocks: Array<[string, number]> };

function row(r: ModelResult, ms: number): ModelRow {
  const { byBlock, ...rest } = r;
  return {
    ...rest,
    h200Ms: [h200Ms(r.warpInstructions, r.makespanOverIdeal, H200.efficiency[1]), h200Ms(r.warpInstructions, r.makespanOverIdeal, H200.efficiency[0])],
    modelMs: Math.round(ms),
    topBlocks: byBlock.slice(0, 8).map(([name, v]) => [name, +(v / r.warpInstructions).toFixed(4)]),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export async function benchGpuModel({ sizes = [14, 15, 16, 17], slots = 65536 }: { sizes?: number[]; slots?: number }) {
  console.log(`\nSIMT model of the GPU kernel (${slots} slots, warps of 32; a model's figures, not a GPU's)`);
  const rows: ModelRow[] = [];
  const ratios: Array<{ n: number; prefixPerNode?: number; constellationsPerNode?: number; perNode?: number; inAll?: number }> = [];
  const picked = (process.env.NQ_BENCH_GPU_MODEL_KERNELS ?? "prefix,constellations").split(",");
  const perSlot = (process.env.NQ_BENCH_GPU_MODEL_STARTS ?? "").split(",").filter(Boolean).map(Number);
  const order = process.env.NQ_BENCH_GPU_MODEL_ORDER === "split" ? "split" as const : undefined;
  const kernels = [
    ...(picked.includes("prefix") ? [prefixKernel()] : []),
    ...(picked.includes("constellations") ? [constellationKernel({ order })] : []),
    ...perSlot.map((k) => constellationKernel({ name: `constellations, ${k} starts a slot`, minStarts: (_n, s) => k * s, order })),
  ];
  for (const n of sizes) {
    // the prefix counter: the search the former prefix kernel's tasks split; count(n) counts constellations (gpu/constellations.wgsl's search)
    const prefix = kernels.some((k) => k.name === "prefix") ? countByPrefixes(n, "wasm") : undefined;
    const cons = kernels.some((k) => k.name !== "prefix") ? await count(n, { engine: "wasm" }) : undefined;
    const byKernel: Record<string, ModelRow> = {};
    for (const kernel of kernels) {
      const want = kernel.name === "prefix" ? prefix! : cons!;
      const t0 = performance.now();
      const r = simulate(n, kernel, { slots });
      if (BigInt(r.total) !== want.total || BigInt(r.unique) !== want.unique || BigInt(r.nodes) !== want.nodes) {
        throw new Error(`the model of the ${kernel.name} kernel at n = ${n}: total ${r.total}, unique ${r.unique}, nodes ${r.nodes}; count(${n}) on wasm: ${want.total}, ${want.unique}, ${want.nodes}`);
      }
      const out = row(r, performance.now() - t0);
      byKernel[kernel.name] = out;
      rows.push(out);
      console.log(
        `n=${n} ${kernel.name.padEnd(14)} depth ${r.depth} tasks ${String(r.tasks).padStart(8)}  warp instr/node ${r.warpInstructionsPerNode.toFixed(2).padStart(6)}` +
          `  occupancy ${r.laneOccupancy.toFixed(3)}  take ${pct(r.share.take).padStart(6)}  rotation ${pct(r.share.rotation).padStart(6)}` +
          `  tail ${pct(r.tail).padStart(6)}  makespan/ideal ${r.makespanOverIdeal.toFixed(3)}  H200 ~${out.h200Ms[0].toFixed(1)}-${out.h200Ms[1].toFixed(1)} ms` +
          `  (exact: total, unique, nodes = count(${n}); model ${(out.modelMs / 1000).toFixed(1)} s)`,
      );
      console.log(`      top blocks: ${out.topBlocks.map(([name, v]) => `${name} ${pct(v)}`).join(", ")}`);
    }
    const out: (typeof ratios)[number] = { n };
    const before = byKernel.prefix, after = byKernel.constellations;
    if (before) out.prefixPerNode = before.warpInstructionsPerNode;
    if (after) out.constellationsPerNode = after.warpInstructionsPerNode;
    if (before && after) {
      out.perNode = after.warpInstructionsPerNode / before.warpInstructionsPerNode;
      out.inAll = after.warpInstructions / before.warpInstructions;
      console.log(`n=${n} count on the GPU, constellations/prefix: warp instructions a node ${out.perNode.toFixed(3)} (${before.warpInstructionsPerNode.toFixed(2)} -> ${after.warpInstructionsPerNode.toFixed(2)}), in all ${out.inAll.toFixed(3)}`);
    }
    ratios.push(out);
  }
  return { slots, h200: H200, rows, ratios };
}
