// Counting at the frontier: single-thread count on Wasm against count.c at n = 15..17,
// and countParallel with 1 and 2 workers at n = 16 and 17 (speedup; target >= 1.8x on
// 2 free cores). Issue target for the kernel: wasm_ms <= c_ms / 1.5 at n = 16 and 17.
import { count, countParallel } from "../dist/index.js";
import { buildRef, median, printTable, round, runBinaryBoth, time } from "./lib.mjs";

export async function benchParallel({ sizes = [15, 16, 17] } = {}) {
  const binary = buildRef("count");
  const single = [];
  for (const n of sizes) {
    const repeats = n >= 17 ? 3 : 5;
    // interleave wasm and C so load changes hit both alike
    const wasmTimes = [], cTimes = [];
    for (let i = 0; i < repeats; i++) {
      globalThis.gc?.();
      wasmTimes.push((await time(() => count(n), 1)).ms);
      if (binary) {
        const r = await runBinaryBoth(binary, [String(n)]);
        cTimes.push(Number(/time=([\d.]+)/.exec(r.stderr)[1]) * 1000);
      }
    }
    const wasmMs = median(wasmTimes), cMs = binary ? median(cTimes) : undefined;
    single.push({ n, wasm_ms: round(wasmMs, 1), c_ms: round(cMs, 1), wasm_over_c: cMs ? round(wasmMs / cMs) : undefined, c_over_wasm: cMs ? round(cMs / wasmMs, 2) : undefined });
  }
  printTable("count, one thread: wasm vs count.c (gcc -O3 -march=native), medians, interleaved (target c_over_wasm >= 1.5 at 16, 17)", single);

  const parallel = [];
  for (const n of [16, 17]) {
    const one = await time(() => countParallel(n, { workers: 1 }), n >= 17 ? 1 : 3);
    const two = await time(() => countParallel(n, { workers: 2 }), n >= 17 ? 1 : 3);
    parallel.push({ n, one_worker_ms: round(one.ms, 0), two_workers_ms: round(two.ms, 0), speedup: round(one.ms / two.ms, 2) });
  }
  printTable("countParallel: 1 vs 2 workers (target speedup >= 1.8 on 2 free cores)", parallel);
  return { c_available: Boolean(binary), single, parallel };
}
