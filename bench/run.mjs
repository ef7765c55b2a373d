// npm run bench [-- --only count,las-vegas,min-conflicts,abort,construct,analysis,parallel,queue] [-- --big]
// [-- --queue redis://HOST:PORT]: prints tables and saves them as JSON under bench/results/.
// The queue section (counting over BullMQ against countParallel) needs Redis, so it runs
// only when --queue gives its address. Timings are medians; ratios compare runs made in this
// same process, since the machines are shared and noisy. --big adds min-conflicts at
// n = 10^8 on wasm (about 0.55 GB); --mc-sizes 1e7,1e8 and --mc-seeds 1,2 choose its rows. The loader section compares against an earlier build and
// runs only with NQ_BENCH_BASELINE=/path/to/earlier/dist/index.js. --gpu runs only the WebGPU
// section (bench/gpu.mjs: --gpu-sizes 8-13, --gpu-slots N, --gpu-stack workgroup|private,
// --gpu-wasm-max N, --gpu-repeats N). --constrained runs only the Blocked
// n-Queens sweep (bench/constrained.mjs; minutes: --boards B sets the boards per m, default 5; --quick a small sweep),
// boards past n = 64 and Excluded Diagonals at n = 30, beside CaDiCaL where `cadical` is installed;
// --only frontier: Excluded Diagonals on the published family (bench/frontier.mjs: n = 30..36, d = 0.8n..1.2n,
// minFree 1 and 4, beside CaDiCaL; hours: --frontier-n 30,32 --min-free 4 --boards B --timeout-ms T narrow it,
// --quick n = 30, minFree 4, 3 d, 2 boards, 10 s); --only frontier-hard: the boards found hard, kept as fixed cases.
// --only solve-workers: solve's complete search on 1 and 2 threads against this thread, Excluded Diagonals at n = 30
// and the frontier's hard boards (bench/solve-workers.mjs; minutes: --boards B takes the first B boards, --quick the first
// one, --solve-boards n/d/seed/minFree,... boards of your choice, --timeout-ms T a run's limit, 60 s by default).
// --only startup: a fresh CLI process's CPU time against `node -e 0` (bench/startup.mjs;
// NQ_BENCH_BASELINE_CLI=/path/to/other/dist/cli.js adds an earlier build, NQ_BENCH_STARTUP_REPEATS=30).
// --only queue-solve: solveDistributed on 2 local workers against one thread, Excluded Diagonals at n = 32
// (bench/queue-solve.mjs; its own redis-server unless --queue; minutes: --boards B takes the first B boards, --quick the first one,
// --solve-boards n/d/seed/minFree,... boards of your choice, --timeout-ms T a run's limit, 120 s by default).
// --only liar: a keyed liar against the default audit (bench/liar.mjs: --liar-trials T, --liar-sizes 12/32,14/64).
// --gpu-model runs only the SIMT model of the GPU kernel (bench/gpu-model-bench.ts: --gpu-model-sizes 14-17, --gpu-slots N).
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { benchCount } from "./count.mjs";
import { benchConstruct, benchLoader, benchMinConflicts, benchLasVegas } from "./solve.mjs";
import { benchAnalysis } from "./analysis.mjs";
import { benchParallel } from "./parallel.mjs";
import { benchQueue } from "./queue.mjs";
import { benchQueueScale } from "./queue-scale.mjs";
import { benchQueueCost } from "./queue-cost.mjs";
import { benchGpu, parseSizes, relaunchForSoftwareGpu } from "./gpu.mjs";
import { benchConstrained } from "./constrained.mjs";
import { benchAbort } from "./abort.mjs";
import { benchLiar } from "./liar.mjs";
import { SOLVE_WORKERS_BOARDS, SOLVE_WORKERS_HARD, benchSolveWorkers } from "./solve-workers.mjs";
import { QUEUE_SOLVE_BOARDS, benchQueueSolve } from "./queue-solve.mjs";
import { benchStartup } from "./startup.mjs";
import { benchFrontierHard, benchFrontierSweep } from "./frontier.mjs";

const { values } = parseArgs({
  options: {
    only: { type: "string" }, out: { type: "string" }, big: { type: "boolean", default: false },
    queue: { type: "string" }, "queue-repeats": { type: "string" },
    gpu: { type: "boolean", default: false }, "gpu-sizes": { type: "string" }, "gpu-slots": { type: "string" },
    "gpu-wasm-max": { type: "string" }, "gpu-repeats": { type: "string" }, "gpu-stack": { type: "string" },
    constrained: { type: "boolean", default: false }, boards: { type: "string" }, "frontier-n": { type: "string" }, "min-free": { type: "string" }, "timeout-ms": { type: "string" }, quick: { type: "boolean", default: false }, cadical: { type: "boolean", default: false },
    "queue-scale": { type: "boolean", default: false }, "queue-scale-keyless": { type: "boolean", default: false }, "queue-scale-sizes": { type: "string" }, "queue-scale-n": { type: "string" },
    "gpu-model": { type: "boolean", default: false }, "gpu-model-sizes": { type: "string" },
    "liar-trials": { type: "string" }, "liar-sizes": { type: "string" },
    "mc-sizes": { type: "string" }, "mc-seeds": { type: "string" }, "solve-boards": { type: "string" },
  },
});
/** --solve-boards: Excluded Diagonals boards as n/d/seed/minFree (minFree 1 when left out), comma-separated, or a clear error. */
function parseSolveBoards(text) {
  return text.split(",").map((item) => {
    const board = item.split("/").map(Number);
    if (board.length < 3 || board.length > 4 || !board.every((x) => Number.isInteger(x) && x >= 1)) {
      throw new Error(`--solve-boards takes boards as n/d/seed or n/d/seed/minFree, comma-separated (30/36/4,36/33/2/4), got ${JSON.stringify(item)}`);
    }
    return board;
  });
}

/** A comma-separated list of positive integers (1e8 allowed), or a clear error naming the option. */
function numberList(option, text) {
  const list = text.split(",").map((s) => Number(s.trim()));
  for (const x of list) if (!Number.isInteger(x) || x < 1) throw new RangeError(`${option} must be a comma-separated list of positive integers (1e8 allowed), got ${JSON.stringify(text)}`);
  return list;
}

const sections = {
  count: () => benchCount(),
  "las-vegas": () => benchLasVegas(),
  // --mc-sizes 1e7,1e8 and --mc-seeds 1,2 pick the min-conflicts rows (bench/solve.mjs): 10^8 beside minconf.c.
  "min-conflicts": () => benchMinConflicts({
    big: values.big,
    ...(values["mc-sizes"] ? { sizes: numberList("--mc-sizes", values["mc-sizes"]) } : {}),
    ...(values["mc-seeds"] ? { seeds: numberList("--mc-seeds", values["mc-seeds"]) } : {}),
  }),
  // How soon an abort or a time limit stops each long job (bench/abort.mjs; about 2 minutes).
  abort: () => benchAbort(),
  construct: () => benchConstruct(),
  loader: () => benchLoader(),
  analysis: () => benchAnalysis(),
  // A fresh `nqueens solve 8` (count 10, --version) against `node -e 0`: whole-process CPU (bench/startup.mjs).
  startup: () => benchStartup(),
  parallel: () => benchParallel(),
  gpu: () => benchGpu({
    sizes: values["gpu-sizes"] ? parseSizes(values["gpu-sizes"]) : undefined,
    slots: values["gpu-slots"] ? Number(values["gpu-slots"]) : undefined,
    wasmMaxN: values["gpu-wasm-max"] ? Number(values["gpu-wasm-max"]) : undefined,
    repeats: values["gpu-repeats"] ? Number(values["gpu-repeats"]) : undefined,
    stack: values["gpu-stack"],
  }),
  constrained: () => benchConstrained({
    ...(values.boards ? { boards: Number(values.boards) } : {}),
    ...(values.quick ? {
      sweep: [{ n: 28, ms: [575, 600] }, { n: 48, ms: [1950, 2000] }], timeoutMs: 10_000, tsTimeoutMs: 10_000, backtrackCap: 1e7, cadicalTimeoutMs: 10_000,
      wideOptions: { classes: [{ n: 100, kind: "blocked", sizes: [8800] }, { n: 200, kind: "completion", sizes: [50] }], boards: 3, timeoutMs: 10_000 },
      frontierOptions: { ds: [20, 28], boards: 3, timeoutMs: 10_000 },
    } : {}),
  }),
  // The published instance family (bench/frontier.mjs): n = 30..36, d = 0.8n..1.2n, minFree 1 and 4, 5 boards a size,
  // 60 s a board, beside CaDiCaL (hours in all: --frontier-n 30,32 --min-free 4 --boards 3 --timeout-ms 20000 narrow it).
  frontier: () => benchFrontierSweep({
    ...(values["frontier-n"] ? { ns: values["frontier-n"].split(",").map(Number) } : {}),
    ...(values["min-free"] ? { minFrees: values["min-free"].split(",").map(Number) } : {}),
    ...(values.boards ? { seeds: Number(values.boards) } : {}),
    ...(values["timeout-ms"] ? { timeoutMs: Number(values["timeout-ms"]), cadicalTimeoutMs: Number(values["timeout-ms"]) } : {}),
    ...(values.quick ? { ns: [30], minFrees: [4], steps: 3, seeds: 2, timeoutMs: 10_000, cadicalTimeoutMs: 10_000 } : {}),
  }),
  // The boards the frontier found hard (FRONTIER_HARD), each on one thread beside CaDiCaL.
  "frontier-hard": () => benchFrontierHard({
    ...(values["timeout-ms"] ? { timeoutMs: Number(values["timeout-ms"]), cadicalTimeoutMs: Number(values["timeout-ms"]) } : {}),
  }),
  // solve on worker threads against one thread (bench/solve-workers.mjs; not in the default run: minutes).
  "solve-workers": () => benchSolveWorkers({
    ...(values.quick ? { boards: SOLVE_WORKERS_BOARDS.slice(0, 1) } : values["solve-boards"] ? { boards: parseSolveBoards(values["solve-boards"]) }
      : values.boards ? { boards: [...SOLVE_WORKERS_BOARDS, ...SOLVE_WORKERS_HARD].slice(0, Number(values.boards)) } : {}),
    ...(values["timeout-ms"] ? { timeoutMs: Number(values["timeout-ms"]) } : {}),
  }),
  // solveDistributed over 2 local workers against one thread (bench/queue-solve.mjs; not in the default run: minutes).
  "queue-solve": () => benchQueueSolve({
    url: values.queue, ...(values.quick ? { boards: QUEUE_SOLVE_BOARDS.slice(0, 1) } : values["solve-boards"] ? { boards: parseSolveBoards(values["solve-boards"]) }
      : values.boards ? { boards: QUEUE_SOLVE_BOARDS.slice(0, Number(values.boards)) } : {}),
    ...(values["timeout-ms"] ? { timeoutMs: Number(values["timeout-ms"]) } : {}),
  }),
  "gpu-model": async () => {
    const { loadGpuModel } = await import("./gpu-model-load.mjs");
    const { benchGpuModel } = await loadGpuModel();
    const { count } = await import("../dist/index.js");
    return benchGpuModel({ sizes: values["gpu-model-sizes"] ? parseSizes(values["gpu-model-sizes"]) : undefined, slots: values["gpu-slots"] ? Number(values["gpu-slots"]) : undefined });
  },
  queue: () => benchQueue({ url: values.queue, repeats: values["queue-repeats"] ? Number(values["queue-repeats"]) : undefined }),
  // With --queue: the cost of the cluster key's MACs and of the audit (bench/queue-cost.mjs).
  "queue-cost": () => benchQueueCost({ url: values.queue, repeats: values["queue-repeats"] ? Number(values["queue-repeats"]) : undefined }),
  // A keyed liar against the default audit (bench/liar.mjs; its own redis-server unless --queue; a few minutes).
  liar: () => benchLiar({ url: values.queue, ...(values["liar-trials"] ? { trials: Number(values["liar-trials"]) } : {}), ...(values["liar-sizes"] ? { configs: values["liar-sizes"].split(",").map((s) => s.split("/").map(Number)) } : {}) }),
  // --queue-scale: the queue at 10^3..10^5 parts (bench/queue-scale.mjs; its own redis-server unless --queue).
  "queue-scale": () => benchQueueScale({ url: values.queue, ...(values["queue-scale-sizes"] ? { sizes: values["queue-scale-sizes"].split(",").map(Number) } : {}), ...(values["queue-scale-n"] ? { n: Number(values["queue-scale-n"]) } : {}), keyed: !values["queue-scale-keyless"] }),
};
// --gpu and --constrained run only their own section; the default run leaves out those two,
// the queue (without --queue) and the loader (without NQ_BENCH_BASELINE).
const chosen = values.only ? values.only.split(",").map((name) => (name === "seed-001" ? "las-vegas" : name)) : values["gpu-model"] ? ["gpu-model"] : values.gpu ? ["gpu"] : values.constrained ? ["constrained"] : values["queue-scale"] ? ["queue-scale"]
  : Object.keys(sections).filter((name) => ((name !== "queue" && name !== "queue-cost") || values.queue) && (name !== "loader" || process.env.NQ_BENCH_BASELINE) && !["gpu", "gpu-model", "constrained", "frontier", "frontier-hard", "queue-scale", "liar", "solve-workers", "queue-solve"].includes(name));
if (chosen.includes("gpu")) await relaunchForSoftwareGpu();
if (chosen.includes("queue") && !values.queue) throw new Error("the queue section needs Redis: npm run bench -- --only queue --queue redis://127.0.0.1:6379");
if (values["queue-repeats"] && !(Number(values["queue-repeats"]) >= 3)) throw new Error("--queue-repeats must be a number >= 3");
for (const name of chosen) if (!sections[name]) throw new Error(`unknown section ${name}; known: ${Object.keys(sections).join(", ")}`);

const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: os.cpus()[0]?.model,
  cores: os.cpus().length,
  sections: {},
};
for (const name of chosen) results.sections[name] = await sections[name]();

mkdirSync(new URL("results/", import.meta.url), { recursive: true });
const file = values.out ?? new URL(`results/${results.date.slice(0, 19).replace(/:/g, "-")}.json`, import.meta.url).pathname;
writeFileSync(file, JSON.stringify(results, null, 2) + "\n");
console.log(`\nsaved ${file}`);
