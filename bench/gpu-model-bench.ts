// npm run bench -- --gpu-model [--gpu-model-sizes 14-17] [--gpu-slots N]
// The SIMT model of gpu/count.wgsl (bench/gpu-model.ts) for the kernel as it is ('tuned') and
// as it was before the tuning ('baseline'), each over the task list its host makes, checked
// against the prefix counter on the Wasm engine (countByPrefixes: total, unique and nodes must be equal, or the bench
// fails). Prints, per n and kernel: the tasks, warp instructions per node, lane occupancy, the
// share of the warp instructions taking tasks and in the rotation check, the tail (share of
// the time after the last task was handed out), the makespan over the ideal, and a rough H200
// time; then the ratio of the two kernels' warp instructions per node. A model's figures, not
// a GPU's (what the model leaves out is in bench/gpu-model.ts's header).
//
// bench/run.mjs bundles this file with esbuild (it imports TypeScript from src/, the Wasm
// engine included).
import { simulate, type ModelResult } from "./gpu-model.js";
import { countByPrefixes } from "../src/count/count.js";
import { baselineKernel, tunedKernel } from "./gpu-model-kernels.js";


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
  const ratios: Array<{ n: number; baseline: number; tuned: number; ratio: number }> = [];
  for (const n of sizes) {
    const want = countByPrefixes(n, "wasm"); // the prefix counter: the search the GPU's tasks split (count(n) itself counts constellations)
    const byKernel: Record<string, ModelRow> = {};
    for (const kernel of [baselineKernel, tunedKernel()]) {
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
    const baseline = byKernel.baseline.warpInstructionsPerNode, tuned = byKernel.tuned.warpInstructionsPerNode;
    ratios.push({ n, baseline, tuned, ratio: tuned / baseline });
    console.log(`n=${n} tuned/baseline warp instructions per node: ${(tuned / baseline).toFixed(3)} (${pct(1 - tuned / baseline)} fewer)`);
  }
  return { slots, h200: H200, rows, ratios };
}
