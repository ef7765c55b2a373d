// The floor under any solver that returns n fresh columns from JavaScript: a new
// Int32Array(n) filled once (the first write to each page makes the kernel map it).
//   node bench/child-fill.mjs N   prints one JSON line { ms, maxRssMB }.
import { performance } from "node:perf_hooks";

const n = Number(process.argv[2]);
const t0 = performance.now();
const columns = new Int32Array(n).fill(-1);
const ms = performance.now() - t0;
console.log(JSON.stringify({ ms, check: columns[n - 1], maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) }));
