#!/usr/bin/env bash
# The WebGPU counter on the GPU device machine, in one short run. Not run yet: the
# session that wrote it had no device. Two steps:
#
#   here (project root):   scripts/gpu-device-check.sh prepare
#       builds dist/ and ../shared/gpu/device-kit.sh's .device-kit/ (node, the webgpu package,
#       Vulkan loader debs; about 46 MB, git-excluded)
#   there (device tool):   run  command: "bash scripts/gpu-device-check.sh run"
#                               carry:   [".device-kit", "dist"]   timeout_s: 480
#       (the device time is 15 minutes a session, starts included: 480 s leaves room for a short rerun;
#       give the machine back after)
#
# On the device it: prints the adapter; checks n = 8..13 on both stack layouts against OEIS;
# counts parts on the GPU (gpu/constellations.wgsl, the one kernel: the path of countParallel({ engine: 'webgpu' })
# and `nqueens worker --engine webgpu`: n = 8..13 checked against the CPU, n = 17 and 18 timed in 1 and
# 64 parts beside count --engine webgpu, gpu-parts.json);
# sweeps slots x stack at n = 17 (each checked); runs `bench --gpu` for n = 16..20 with the
# fastest setting (Wasm on one thread measured to n = 16, estimated beyond from its node rate),
# with the SIMT model's prediction beside each measured time (bench/gpu-model-bench.ts);
# times the start order ('split' against the default 'largest-first') at n = 17 and 18;
# checks every total against OEIS A000170; last, the CPU pool's scaling on the host's cores
# (countParallel(17) with 1, 2, 4, 8, 16 workers against count(17) on the main thread,
# beside the split's schedule bound; about 40 s); and solve's complete search on 1 to 16 threads
# against this thread on three Excluded Diagonals boards (what is left of the time, at most 150 s).
# Everything it prints and the bench JSON land
# in $OUT (gpu-device-check.log, gpu-parts.json, gpu-bench-h200.json, gpu-model-vs-measured.json, gpu-sweep.json, gpu-order.json,
# cpu-scaling.json, solve-scaling.json); copy
# the JSON to bench/results/.
set -euo pipefail
mode=${1:-}
root=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
cd "$root"

if [ "$mode" = prepare ]; then
  npm run build
  # the SIMT model's figures the run prints beside its own (minutes at n = 17; skipped when a
  # model result exists already: delete bench/results/gpu-model-*.json to make it again)
  ls bench/results/gpu-model-*.json >/dev/null 2>&1 || node --expose-gc bench/run.mjs --gpu-model --gpu-model-sizes 14-17 --out "bench/results/gpu-model-$(date -u +%Y-%m-%dT%H-%M-%S).json"
  ../shared/gpu/device-kit.sh 0.6.2
  echo "ready: device run with carry [\".device-kit\", \"dist\"] and command: bash scripts/gpu-device-check.sh run"
  exit 0
fi
if [ "$mode" != run ]; then
  echo "usage: $0 prepare (here) | run (on the device machine)" >&2
  exit 2
fi

# Every step's own cap is cut to what is left of DEADLINE_S (default 460 s, under the run's 480),
# so the whole script ends in time and writes what it has; later steps are skipped when none is left.
deadline=${DEADLINE_S:-460}
cap() { local left=$((deadline - SECONDS)); if [ "$left" -lt 5 ]; then echo 1; elif [ "$left" -lt "$1" ]; then echo "$left"; else echo "$1"; fi; }
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
exec > >(tee "$out/gpu-device-check.log") 2>&1
# shellcheck disable=SC1091
source .device-kit/setup.sh
node --version
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>/dev/null || true

# 1. adapter, and n = 8..13 on both stacks against OEIS (a few seconds)
timeout "$(cap 120)" node --input-type=module -e '
import { countGpu, gpuInfo, releaseGpu } from "./dist/index.js";
const A = [1n,1n,0n,0n,2n,10n,4n,40n,92n,352n,724n,2680n,14200n,73712n];
console.log("adapter", JSON.stringify(await gpuInfo()));
for (const stack of ["workgroup", "private"]) {
  for (let n = 8; n <= 13; n++) {
    const r = await countGpu(n, {}, { stack });
    if (r.total !== A[n]) { console.log("WRONG", stack, n, r.total); process.exit(1); }
  }
  console.log("stack", stack, "n = 8..13 right");
}
await releaseGpu();
' || echo "step 1 failed (no adapter, or a WRONG count above): the GPU steps below will fail too; the CPU scaling still runs"

# 1b. parts on the GPU (gpu/constellations.wgsl: the split's constellation tasks, as
# countParallel({ engine: 'webgpu' }) and `nqueens worker --engine webgpu` count them): n = 8..13 in 7 parts on
# the GPU alone against count(n) on the CPU (total, unique and nodes), then n = 17 and 18 (or
# PART_TIMED) counted as parts on the GPU alone (countParallel with workers: 1, the GPU slot),
# in 1 part (the whole split) and in 64, beside count(n, { engine: "webgpu" }) (the same
# kernel on the whole board's tasks, with the starts a whole count makes), every total against OEIS
OUT_DIR="$out" PART_TIMED="${PART_TIMED:-17,18}" timeout "$(cap 120)" node --input-type=module -e '
import { writeFileSync } from "node:fs";
import { count, countGpu, countParallel, releaseGpu } from "./dist/index.js";
const A = { 11: 2680n, 12: 14200n, 13: 73712n, 14: 365596n, 15: 2279184n, 16: 14772512n, 17: 95815104n, 18: 666090624n, 19: 4968057848n, 20: 39029188884n };
for (let n = 8; n <= 13; n++) {
  const gpu = await countParallel(n, { engine: "webgpu", workers: 1, parts: 7 }), cpu = await count(n);
  if (gpu.total !== cpu.total || gpu.unique !== cpu.unique || gpu.nodes !== cpu.nodes) { console.log("WRONG parts", n, gpu, cpu); process.exit(1); }
}
console.log("n = 8..13 in 7 parts on the GPU alone: total, unique and nodes of count(n) on the CPU");
const rows = [];
for (const n of process.env.PART_TIMED.split(",").map(Number)) {
  await countGpu(12); // (the pipeline compiled before anything is timed)
  await countParallel(12, { engine: "webgpu", workers: 1, parts: 1 });
  for (const [way, run] of [["count(n)", () => countGpu(n)], ["parts: 1", () => countParallel(n, { engine: "webgpu", workers: 1, parts: 1 })], ["parts: 64", () => countParallel(n, { engine: "webgpu", workers: 1, parts: 64 })]]) {
    const t0 = performance.now();
    const r = await run();
    const ms = Math.round((performance.now() - t0) * 10) / 10;
    if (r.total !== A[n]) { console.log("WRONG", n, way, r.total); process.exit(1); }
    rows.push({ n, way, ms, nodes: String(r.nodes) });
    console.log(JSON.stringify(rows.at(-1)));
  }
}
writeFileSync(process.env.OUT_DIR + "/gpu-parts.json", JSON.stringify(rows, null, 2));
await releaseGpu();
' || echo "parts on the GPU failed (a WRONG line above) or ran out of time"

rm -f /tmp/gpu-best # (a warm machine may hold an earlier run's)
# 2. slots x stack at n = 17 (95815104 solutions); the fastest goes to the bench
OUT_DIR="$out" timeout "$(cap 150)" node --input-type=module -e '
import { writeFileSync } from "node:fs";
import { countGpu, releaseGpu } from "./dist/index.js";
const rows = [];
for (const stack of ["workgroup", "private"]) {
  for (const slots of [16384, 32768, 65536, 131072, 262144]) {
    const times = [];
    let dispatches = 0;
    for (let i = 0; i < 2; i++) {
      let d = 0;
      const t0 = performance.now();
      const r = await countGpu(17, { progressIntervalMs: 0, onProgress: () => d++ }, { stack, slots });
      times.push(performance.now() - t0);
      dispatches = d;
      if (r.total !== 95815104n) { console.log("WRONG at n = 17", stack, slots, r.total); process.exit(1); }
    }
    rows.push({ stack, slots, ms: Math.min(...times), dispatches });
    console.log(JSON.stringify(rows.at(-1)));
  }
}
rows.sort((a, b) => a.ms - b.ms);
writeFileSync(process.env.OUT_DIR + "/gpu-sweep.json", JSON.stringify(rows, null, 2));
writeFileSync("/tmp/gpu-best", `${rows[0].stack} ${rows[0].slots}`);
console.log("fastest", JSON.stringify(rows[0]));
await releaseGpu();
' || echo "sweep failed or ran out of time: the bench uses the defaults"
best=$(cat /tmp/gpu-best 2>/dev/null || echo "workgroup 65536")
stack=${best% *}
slots=${best#* }
echo "bench with stack=$stack slots=$slots"

# 3. the bench (bench/gpu.mjs, called directly: bench/run.mjs also loads the queue bench, whose
# bullmq is not on the device), n = 16..20, every total checked against OEIS A000170
OUT_DIR="$out" STACK="$stack" SLOTS="$slots" timeout "$(cap 240)" node --expose-gc --input-type=module -e '
import { writeFileSync } from "node:fs";
import os from "node:os";
import { benchGpu } from "./bench/gpu.mjs";
const A = { 16: 14772512, 17: 95815104, 18: 666090624, 19: 4968057848, 20: 39029188884 };
const gpu = await benchGpu({ sizes: [16, 17, 18, 19, 20], wasmMaxN: 16, repeats: 3, stack: process.env.STACK, slots: Number(process.env.SLOTS) });
const results = { date: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length, sections: { gpu } };
writeFileSync(process.env.OUT_DIR + "/gpu-bench-h200.json", JSON.stringify(results, null, 2) + "\n");
for (const r of gpu.rows) if (r.total !== A[r.n]) { console.log("WRONG total at n =", r.n, r.total); process.exit(1); }
console.log("all totals match OEIS A000170:", gpu.rows.map((r) => `n=${r.n} ${r.gpu_ms} ms`).join(", "));
' || echo "the bench failed (see a WRONG line above) or ran out of time"

# 3a. the SIMT model's prediction beside what the bench measured (bench/gpu-model-bench.ts, run
# here by `prepare`: bench/results/gpu-model-*.json, the newest): per n, the model's warp
# instructions (its own at that n, else its per-node figure at the largest n it ran times the
# nodes the GPU counted) spread over the H200's schedulers at the model's issue efficiencies
OUT_DIR="$out" timeout "$(cap 20)" node --input-type=module -e '
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
const files = readdirSync("bench/results").filter((f) => /^gpu-model-.*\.json$/.test(f)).sort();
if (!files.length) { console.log("no bench/results/gpu-model-*.json: run scripts/gpu-device-check.sh prepare"); process.exit(0); }
const byN = new Map(); // the constellation kernel rows (what count runs), from the newest file where several have an n
let model;
for (const file of files) {
  model = JSON.parse(readFileSync("bench/results/" + file, "utf8")).sections["gpu-model"];
  for (const r of model.rows) if (r.kernel === "constellations") byN.set(r.n, r);
}
const file = files.join(", ");
const bench = JSON.parse(readFileSync(process.env.OUT_DIR + "/gpu-bench-h200.json", "utf8")).sections.gpu;
const tuned = [...byN.values()].sort((a, b) => a.n - b.n);
const top = tuned.at(-1);
const { schedulers, hz, efficiency } = model.h200;
const rows = bench.rows.map((b) => {
  const own = tuned.find((r) => r.n === b.n);
  const instr = own ? own.warpInstructions : top.warpInstructionsPerNode * b.nodes;
  const stretch = own ? own.makespanOverIdeal : 1;
  const ms = (e) => Math.round((instr / schedulers) * stretch / (hz * e) * 1e4) / 10;
  return { n: b.n, measured_ms: b.gpu_ms, model_ms_fast: ms(efficiency[1]), model_ms_slow: ms(efficiency[0]),
    measured_over_model_fast: Math.round((b.gpu_ms / ms(efficiency[1])) * 100) / 100, model_from: own ? `n = ${b.n}` : `per node at n = ${top.n}` };
});
console.log(`the model (${file}, ${model.slots} slots) beside the bench (${bench.slots} slots, ${bench.stack} stack):`);
console.table(rows);
writeFileSync(process.env.OUT_DIR + "/gpu-model-vs-measured.json", JSON.stringify(rows, null, 2));
' || echo "the model comparison failed"

# 3b. the start order (docs/gpu.md: largest first is the default; its gain was only modelled)
# and the depth of the stacks (stackRows: the default 20 rows at n = 17 against 32; both
# pipelines are compiled before anything is timed):
# n = 17 and 18 with the fastest setting, 'split' against 'largest-first', each checked
STACK="$stack" SLOTS="$slots" OUT_DIR="$out" timeout "$(cap 60)" node --input-type=module -e '
import { writeFileSync } from "node:fs";
import { countGpu, releaseGpu } from "./dist/index.js";
const A = { 17: 95815104n, 18: 666090624n };
const rows = [];
// the device opened and the pipelines the timed runs use compiled (n = 17, 18: 20 rows; and 32): not timed
for (const stackRows of [20, 32]) await countGpu(12, {}, { stack: process.env.STACK, stackRows });
for (const n of [17, 18]) {
  for (const order of ["split", "largest-first", "split", "largest-first"]) {
    const t0 = performance.now();
    const r = await countGpu(n, {}, { stack: process.env.STACK, slots: Number(process.env.SLOTS), order });
    const ms = performance.now() - t0;
    if (r.total !== A[n]) { console.log("WRONG", n, order, r.total); process.exit(1); }
    rows.push({ n, order, ms: Math.round(ms * 10) / 10 });
    console.log(JSON.stringify(rows.at(-1)));
  }
}
// the depth of the stacks: the default (20 rows at n = 17) against the full 32 rows
for (const stackRows of [32, undefined, 32, undefined]) {
  const t0 = performance.now();
  const r = await countGpu(17, {}, { stack: process.env.STACK, slots: Number(process.env.SLOTS), stackRows });
  const ms = performance.now() - t0;
  if (r.total !== A[17]) { console.log("WRONG", 17, stackRows, r.total); process.exit(1); }
  rows.push({ n: 17, stackRows: stackRows ?? "default (20)", ms: Math.round(ms * 10) / 10 });
  console.log(JSON.stringify(rows.at(-1)));
}
writeFileSync(process.env.OUT_DIR + "/gpu-order.json", JSON.stringify(rows, null, 2));
await releaseGpu();
' || echo "order comparison failed or ran out of time"

# 4. the CPU pool's scaling on this host's cores, bounded so it cannot eat the GPU's time
OUT_DIR="$out" timeout "$(cap 120)" node --expose-gc --input-type=module -e '
import { writeFileSync } from "node:fs";
import os from "node:os";
import { benchScaling } from "./bench/parallel.mjs";
const scaling = await benchScaling({ n: 17 });
if (scaling.total !== "95815104") { console.log("WRONG total at n = 17", scaling.total); process.exit(1); }
writeFileSync(process.env.OUT_DIR + "/cpu-scaling.json", JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length, sections: { scaling } }, null, 2) + "\n");
' || echo "the scaling run failed or ran out of time"

# 5. solve on the host's cores: the complete search on 1, 2, 4, 8 and 16 threads against this
# thread, on Excluded Diagonals boards one thread takes seconds on (n = 30, d = 36, seed 4 and n = 30,
# d = 33, seed 2, minFree 4: decided by the 64-bit search's tasks; n = 36, d = 33, seed 2, minFree 4:
# found by the restarting search, whose restarts half the threads share), each verdict checked
OUT_DIR="$out" timeout "$(cap 150)" node --input-type=module -e '
import { writeFileSync } from "node:fs";
import os from "node:os";
import { excludedDiagonalsBoard, solve, verify } from "./dist/index.js";
const rows = [];
for (const [n, d, seed, minFree] of [[30, 36, 4, 1], [30, 33, 2, 4], [36, 33, 2, 4]]) {
  const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
  const verdicts = new Set(); // the decided verdicts of every run on this board: one at most
  for (const workers of [undefined, 16, 8, 4, 2, 1]) {
    const t0 = performance.now();
    const r = await solve(n, { method: "complete", blocked, timeoutMs: 60000, ...(workers ? { workers } : {}) });
    const ms = performance.now() - t0;
    if (r.found && !verify(r.columns).ok) { console.log("WRONG: not a solution", n, d, seed, workers); process.exit(1); }
    const v = r.reason === "timeout" ? "undecided" : String(r.found);
    if (v !== "undecided") verdicts.add(v);
    if (verdicts.size > 1) { console.log("WRONG: verdicts differ", n, d, seed, workers); process.exit(1); }
    rows.push({ n, d, seed, minFree, workers: workers ?? "this thread", verdict: v, ms: Math.round(ms), nodes: r.nodes });
    console.log(JSON.stringify(rows.at(-1)));
    writeFileSync(process.env.OUT_DIR + "/solve-scaling.json", JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu: os.cpus()[0]?.model, cores: os.cpus().length, rows }, null, 2) + "\n");
  }
}
' || echo "the solve scaling run failed or ran out of time"

sleep 1 # (lets tee write the log out before the run ends)
