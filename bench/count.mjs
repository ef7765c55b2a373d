// count(n) on both engines and the C yardstick ../shared/refs/count.c (mirror
// halving, gcc -O3 -march=native), in the same run, Wasm and C interleaved run by run so a
// change in the machine's load falls on both. Targets (docs/counting.md): the constellation
// counter on Wasm at most 0.40 of count.c's time at n = 16 and 17 (wasm_over_c <= 0.40).
// NQ_BENCH_COUNT_SIZES=16,17 picks the sizes; the TS engine is left out from n = 17.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { count } from "../dist/index.js";
import { buildRef, median, printTable, round, runBinaryBoth, time } from "./lib.mjs";

const DEFAULT_SIZES = process.env.NQ_BENCH_COUNT_SIZES
  ? process.env.NQ_BENCH_COUNT_SIZES.split(",").map(Number)
  : [12, 13, 14, 15, 16, 17];

export async function benchCount({ sizes = DEFAULT_SIZES } = {}) {
  const binary = buildRef("count");
  const rows = [];
  const loadBefore = loadavg()[0];
  for (const n of sizes) {
    const repeats = n <= 14 ? 5 : 3;
    await count(n); // warm-up
    const wasmTimes = [], cTimes = [];
    let wasmResult;
    for (let i = 0; i < repeats; i++) {
      globalThis.gc?.();
      const t0 = performance.now();
      wasmResult = await count(n, { engine: "wasm" });
      wasmTimes.push(performance.now() - t0);
      if (!binary) continue;
      const r = await runBinaryBoth(binary, [String(n)]);
      const match = /time=([\d.]+)/.exec(r.stderr);
      if (r.status !== 0 || !match) throw new Error(`count.c failed at n = ${n}: ${r.stderr}`);
      if (r.stdout.trim() !== String(wasmResult.total)) throw new Error(`count.c and wasm disagree at n = ${n}`);
      cTimes.push(Number(match[1]) * 1000);
    }
    const wasm = { ms: median(wasmTimes), result: wasmResult };
    const cMs = binary ? median(cTimes) : undefined;
    const ts = n >= 17 ? undefined : await time(() => count(n, { engine: "ts" }), n >= 16 ? 1 : repeats);
    const total = Number(wasm.result.total);
    rows.push({
      n,
      total,
      nodes: Number(wasm.result.nodes),
      wasm_ms: round(wasm.ms, 2),
      ts_ms: ts ? round(ts.ms, 2) : undefined,
      c_ms: round(cMs, 2),
      wasm_solutions_per_s: Math.round(total / (wasm.ms / 1000)),
      ts_solutions_per_s: ts ? Math.round(total / (ts.ms / 1000)) : undefined,
      ts_over_wasm: ts ? round(ts.ms / wasm.ms) : undefined,
      wasm_over_c: cMs ? round(wasm.ms / cMs) : undefined,
    });
  }
  const load = { before: round(loadBefore, 2), after: round(loadavg()[0], 2) };
  printTable(`count(n), the constellation counter: median ms (C: the program's own timer; Wasm and C interleaved), solutions/s, ratios (target: wasm/C <= 0.40 at n = 16, 17); load average ${load.before} -> ${load.after}`, rows);
  return { c_available: Boolean(binary), load, rows };
}
