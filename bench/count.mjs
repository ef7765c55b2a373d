// count(n) on both engines and the C yardstick ../shared/refs/count.c (mirror
// halving, gcc -O3 -march=native), in the same run. Issue target: Wasm within
// 1.25x of the C counter at n = 15 and 16 (wasm/C <= 1.25).
import { count } from "../dist/index.js";
import { buildRef, median, printTable, round, runBinaryBoth, time } from "./lib.mjs";

export async function benchCount({ sizes = [12, 13, 14, 15, 16] } = {}) {
  const binary = buildRef("count");
  const rows = [];
  for (const n of sizes) {
    const repeats = n <= 14 ? 5 : 3;
    await count(n); // warm-up
    const wasm = await time(() => count(n, { engine: "wasm" }), repeats);
    const ts = await time(() => count(n, { engine: "ts" }), n >= 16 ? 1 : repeats);
    let cMs;
    if (binary) {
      const times = [];
      for (let i = 0; i < repeats; i++) {
        const r = await runBinaryBoth(binary, [String(n)]);
        const match = /time=([\d.]+)/.exec(r.stderr);
        if (r.status !== 0 || !match) throw new Error(`count.c failed at n = ${n}: ${r.stderr}`);
        if (r.stdout.trim() !== String(wasm.result.total)) throw new Error(`count.c and wasm disagree at n = ${n}`);
        times.push(Number(match[1]) * 1000);
      }
      cMs = median(times);
    }
    const total = Number(wasm.result.total);
    rows.push({
      n,
      total,
      wasm_ms: round(wasm.ms, 2),
      ts_ms: round(ts.ms, 2),
      c_ms: round(cMs, 2),
      wasm_solutions_per_s: Math.round(total / (wasm.ms / 1000)),
      ts_solutions_per_s: Math.round(total / (ts.ms / 1000)),
      ts_over_wasm: round(ts.ms / wasm.ms),
      wasm_over_c: cMs ? round(wasm.ms / cMs) : undefined,
    });
  }
  printTable("count(n): median ms (C: the program's own timer), solutions/s, ratios (issue targets: wasm/C <= 1.25 at n = 15, 16; <= 0.67 at 16, 17 for the full-symmetry counter)", rows);
  return { c_available: Boolean(binary), rows };
}
