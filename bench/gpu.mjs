// npm run bench -- --gpu [--gpu-sizes 8-13] [--gpu-slots N] [--gpu-stack workgroup|private] [--gpu-wasm-max N] [--gpu-repeats N]
// count(n) on the GPU (engine 'webgpu', src/engine/webgpu/) against the Wasm counter on one
// thread of the same machine, in the same run. Prints the adapter first: on SwiftShader (a
// CPU implementation of WebGPU, what machines without a GPU get) the figures say what the
// fixed and per-dispatch costs are, not what a GPU does. For n above --gpu-wasm-max the Wasm
// time is estimated from the Wasm node rate measured at the largest n it ran (marked "est").
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { count, countGpu, gpuInfo, releaseGpu } from "../dist/index.js";
import { median, printTable, round, time } from "./lib.mjs";

const SWIFTSHADER_ICD = "/usr/lib/chromium/vk_swiftshader_icd.json";

/**
 * Without an adapter, on a machine where Debian's chromium ships SwiftShader's Vulkan driver,
 * runs this process again with that driver (the loader reads LD_LIBRARY_PATH only at start)
 * and exits with its status; otherwise returns.
 */
export async function relaunchForSoftwareGpu() {
  const ok = await gpuInfo().then(() => true, () => false);
  if (ok || process.env.NQ_BENCH_RELAUNCHED || process.env.VK_ICD_FILENAMES || process.env.VK_DRIVER_FILES || !existsSync(SWIFTSHADER_ICD)) return;
  await releaseGpu();
  console.log(`no WebGPU adapter: running again on SwiftShader (VK_ICD_FILENAMES=${SWIFTSHADER_ICD})`);
  const env = {
    ...process.env,
    NQ_BENCH_RELAUNCHED: "1",
    VK_ICD_FILENAMES: SWIFTSHADER_ICD,
    LD_LIBRARY_PATH: ["/usr/lib/chromium", process.env.LD_LIBRARY_PATH].filter(Boolean).join(":"),
    XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR || "/tmp",
  };
  const r = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], { stdio: "inherit", env });
  process.exit(r.status ?? 1);
}

/** "8-13" or "16,18,20" to a list of n. */
export function parseSizes(text) {
  return text.split(",").flatMap((part) => {
    const [a, b] = part.split("-").map(Number);
    if (!Number.isInteger(a) || (b !== undefined && !Number.isInteger(b))) throw new Error(`--gpu-sizes: bad range ${part}`);
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}

export async function benchGpu({ sizes, slots, stack, wasmMaxN, repeats } = {}) {
  const info = await gpuInfo();
  console.log(`\nadapter: ${info.vendor} / ${info.architecture} / ${info.device} / ${info.description}` +
    ` (${info.fallback ? "software fallback: correctness and overheads only, not GPU speed" : "hardware"}; via ${info.source})`);
  sizes ??= info.fallback ? [8, 9, 10, 11, 12] : [14, 15, 16, 17, 18, 19, 20];
  wasmMaxN ??= info.fallback ? 16 : 17;
  repeats ??= info.fallback ? 3 : 3;
  const tuning = { ...(slots ? { slots } : {}), ...(stack ? { stack } : {}) };

  await countGpu(sizes[0], {}, tuning); // warm-up: shader compile, device, buffers
  const fixed = await time(() => countGpu(5, {}, tuning), 5); // a count that is all fixed cost
  const rows = [];
  let wasmNodesPerMs;
  for (const n of sizes) {
    let reports = [];
    const gpu = await time(() => {
      reports = [];
      return countGpu(n, { progressIntervalMs: 0, onProgress: (p) => reports.push(p) }, tuning);
    }, n >= 18 ? 1 : repeats);
    let wasmMs, estimated = false;
    if (n <= wasmMaxN) {
      const wasm = await time(() => count(n, { engine: "wasm" }), n >= 16 ? 1 : repeats);
      if (wasm.result.total !== gpu.result.total || wasm.result.unique !== gpu.result.unique || wasm.result.nodes !== gpu.result.nodes) {
        throw new Error(`webgpu and wasm disagree at n = ${n}`);
      }
      wasmMs = wasm.ms;
      wasmNodesPerMs = Number(wasm.result.nodes) / wasm.ms;
    } else if (wasmNodesPerMs) {
      wasmMs = Number(gpu.result.nodes) / wasmNodesPerMs;
      estimated = true;
    }
    const dispatchMs = reports.map((p) => p.dispatchMs).filter((x) => x !== undefined);
    const total = Number(gpu.result.total);
    rows.push({
      n,
      total,
      nodes: Number(gpu.result.nodes),
      gpu_ms: round(gpu.ms, 1),
      gpu_solutions_per_s: Math.round(total / (gpu.ms / 1000)),
      gpu_nodes_per_s: Math.round(Number(gpu.result.nodes) / (gpu.ms / 1000)),
      wasm_1_thread_ms: round(wasmMs, 1),
      wasm_estimated: estimated || undefined,
      wasm_over_gpu: wasmMs ? round(wasmMs / gpu.ms) : undefined,
      tasks: reports.at(-1)?.tasksTotal,
      dispatches: reports.length,
      dispatch_ms_median: round(median(dispatchMs), 1),
      dispatch_ms_max: round(Math.max(...dispatchMs), 1),
      last_budget: reports.at(-1)?.budget,
    });
  }
  await releaseGpu();
  printTable(
    `count(n) on the GPU (${info.architecture || info.vendor}) vs Wasm on one thread: median ms, solutions/s, wasm/gpu (higher = GPU faster); ` +
      `fixed cost of a count (n = 5): ${round(fixed.ms, 2)} ms`,
    rows,
  );
  return { adapter: info, slots: slots ?? "default", stack: stack ?? "default", fixed_count_ms: round(fixed.ms, 2), rows };
}
