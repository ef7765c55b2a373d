// npm run bench -- --gpu-model [--gpu-model-sizes 14-17] [--gpu-slots N]
// The SIMT model of gpu/count.wgsl (gpu/model/simt.ts) for the kernel as it is ('tuned') and
// as it was before the tuning ('baseline'), each over the task list its host makes, checked
// against the prefix counter on the Wasm engine (countByPrefixes: total, unique and nodes must be equal, or the bench
// fails). Prints, per n and kernel: the tasks, warp instructions per node, lane occupancy, the
// share of the warp instructions taking tasks and in the rotation check, the tail (share of
// the time after the last task was handed out), the makespan over the ideal, and a rough H200
// time; then the ratio of the two kernels' warp instructions per node. A model's figures, not
// a GPU's (what the model leaves out is in gpu/model/simt.ts's header).
//
// Then gpu/constellations.wgsl ('constellations', gpu/model/constellations.ts), the
// kernel that counts the split's constellation tasks (parts), over the starts its host makes
// from count(n)'s whole constellation split, checked against count(n) on the Wasm engine
// (total, unique and its nodes: the constellation counter's, about 15% fewer than the prefix
// counter's, so the two kernels' warp instructions a node are compared with that in mind; the
// ratio printed is of the warp instructions in all, the work of counting n).
// NQ_BENCH_GPU_MODEL_KERNELS=tuned,constellations picks kernels (default: all three).
//
// bench/run.mjs bundles this file with esbuild (it imports TypeScript from src/, the Wasm
// engine included).
import { simulate, type ModelResult } from "../gpu/model/simt.js";
import { countByPrefixes } from "../src/count/count.js";
import { baselineKernel, tunedKernel } from "../gpu/model/kernels.js";
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
  console.log(`\nSIMT model of gpu/count.wgsl (${slots} slots, warps of 32; a model's figures, not a GPU's)`);
  const rows: ModelRow[] = [];
  const ratios: Array<{ n: number; baseline?: number; tuned?: number; ratio?: number; constellationsPerNode?: number; constellationsOverTuned?: number }> = [];
  const picked = (process.env.NQ_BENCH_GPU_MODEL_KERNELS ?? "baseline,tuned,constellations").split(",");
  for (const n of sizes) {
    // the prefix counter: the search gpu/count.wgsl's tasks split; count(n) itself counts constellations (gpu/constellations.wgsl's search)
    const prefix = picked.includes("baseline") || picked.includes("tuned") ? countByPrefixes(n, "wasm") : undefined;
    const cons = picked.includes("constellations") ? await count(n, { engine: "wasm" }) : undefined;
    const byKernel: Record<string, ModelRow> = {};
    const kernels = [baselineKernel, tunedKernel(), constellationKernel()].filter((k) => picked.includes(k.name));
    for (const kernel of kernels) {
      const want = kernel.name === "constellations" ? cons! : prefix!;
      const t0 = performance.now();
      const r = simulate(n, kernel, { slots });
      if (BigInt(r.total) !== want.total || BigInt(r.unique) !== want.unique || BigInt(r.nodes) !== want.nodes) {
        throw new Error(`the model of the ${kernel.name} kernel at n = ${n}: total ${r.total}, unique ${r.unique}, nodes ${r.nodes}; count(${n}) on wasm: ${want.total}, ${want.unique}, ${want.nodes}`);
      }
      const out = row(r, performance.now() - t0);
      byKernel[kernel.name] = out;
      rows.push(out);
      console.log(
        `n=${n} ${kernel.name.padEnd(8)} depth ${r.depth} tasks ${String(r.tasks).padStart(8)}  warp instr/node ${r.warpInstructionsPerNode.toFixed(2).padStart(6)}` +
          `  occupancy ${r.laneOccupancy.toFixed(3)}  take ${pct(r.share.take).padStart(6)}  rotation ${pct(r.share.rotation).padStart(6)}` +
          `  tail ${pct(r.tail).padStart(6)}  makespan/ideal ${r.makespanOverIdeal.toFixed(3)}  H200 ~${out.h200Ms[0].toFixed(1)}-${out.h200Ms[1].toFixed(1)} ms` +
          `  (exact: total, unique, nodes = count(${n}); model ${(out.modelMs / 1000).toFixed(1)} s)`,
      );
      console.log(`      top blocks: ${out.topBlocks.map(([name, v]) => `${name} ${pct(v)}`).join(", ")}`);
    }
    const out: (typeof ratios)[number] = { n };
    if (byKernel.baseline && byKernel.tuned) {
      const baseline = byKernel.baseline.warpInstructionsPerNode, tuned = byKernel.tuned.warpInstructionsPerNode;
      Object.assign(out, { baseline, tuned, ratio: tuned / baseline });
      console.log(`n=${n} tuned/baseline warp instructions per node: ${(tuned / baseline).toFixed(3)} (${pct(1 - tuned / baseline)} fewer)`);
    }
    if (byKernel.constellations) {
      out.constellationsPerNode = byKernel.constellations.warpInstructionsPerNode;
      if (byKernel.tuned) {
        out.constellationsOverTuned = byKernel.constellations.warpInstructions / byKernel.tuned.warpInstructions;
        console.log(`n=${n} constellations/tuned warp instructions in all (counting n): ${out.constellationsOverTuned.toFixed(3)}; a node: ${(byKernel.constellations.warpInstructionsPerNode / byKernel.tuned.warpInstructionsPerNode).toFixed(3)}`);
      }
    }
    ratios.push(out);
  }
  return { slots, h200: H200, rows, ratios };
}
