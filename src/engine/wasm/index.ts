// The Wasm engine: the AssemblyScript kernels of assembly/, embedded in the bundle as
// bytes (not in the counting threads' bundle: a thread is given the module its pool
// compiled, see adoptWasmModule), compiled once, and instantiated (through
// @assemblyscript/loader) for a job (a count, an enumeration, a search) so jobs never
// share state; small instances are pooled for the next job. Results are copied out of
// Wasm memory before they are returned.
import { instantiateSync, type ASUtil } from "@assemblyscript/loader";
import embeddedBytes from "../../../build/release.wasm";
import { EXHAUSTED, FOUND, MAX_NODES, MAX_STEPS, MAX_TRIES, RUNNING, codingOutOfMemory, type SearchPhase } from "../contract.js";
import type { Constraints } from "../../board/constraints.js";
import type {
  ConstellationTask, CountTask, Counter, Engine, LasVegasExactWalker, LasVegasTrials, Prober, Search, SearchMethod, SearchParams,
  SearchStatus, SolutionStream, TreeCounter,
} from "../contract.js";
import { METHODS, type SearchKernel } from "../registry.js";
import { ErrorCode, codeOutOfMemory, engineUnavailable, withCode } from "../../core/errors.js";

/**
 * The module's exported globals (assembly/index.ts): the memory layout of the kernels' blocks,
 * the slots of their Stat and Result exports, the status and phase codes. Immutable, the same
 * for every instance: read once per module (readLayout), never copied here as numbers.
 */
export const LAYOUT_GLOBALS = [
  "RUNNING", "FOUND", "EXHAUSTED", "MAX_NODES", "MAX_STEPS", "MAX_TRIES",
  "STAT_WORK", "STAT_NODES", "STAT_TRIES", "STAT_STEPS", "STAT_CONFLICTS", "STAT_PHASE",
  "PHASE_SEARCH", "PHASE_CONSTRUCT", "PHASE_REPAIR",
  "COUNT_RESULT_COUNT8", "COUNT_RESULT_COUNT4", "COUNT_RESULT_COUNT2", "COUNT_RESULT_NODES",
  "ESTIMATE_TOTAL", "ESTIMATE_SQUARES", "TREE_SIZE_COLUMNS",
  "LAS_VEGAS_TRIALS_TRIES", "LAS_VEGAS_TRIALS_SUCCESSES", "LAS_VEGAS_TRIALS_SUCCESS_NODES", "LAS_VEGAS_TRIALS_SUCCESS_SQUARES",
  "LAS_VEGAS_TRIALS_FAILURE_NODES", "LAS_VEGAS_TRIALS_FAILURE_SQUARES", "LAS_VEGAS_TRIALS_WORK",
  "LAS_VEGAS_EXACT_COLUMNS", "LAS_VEGAS_EXACT_SUMS",
] as const;
export type LayoutGlobal = (typeof LAYOUT_GLOBALS)[number];

/** The kernels' exports (see assembly/index.ts). A type alias, as the loader's generic needs. */
export type KernelExports = {
  memory: WebAssembly.Memory;
} & {
  [G in LayoutGlobal]: WebAssembly.Global;
} & {
  allocate(bytes: number): number;
  resetMemory(): void;
  randomSequence(seed: number, bound: number, out: number, count: number): void;
  countInit(n: number): number;
  countStart(kind: number, bound1: number, depth: number): void;
  countRun(budget: number): number;
  countResult(which: number): bigint;
  consInit(n: number): number;
  consStart(): void;
  consRun(budget: number): number;
  consResult(which: number): bigint;
  solutionsInit(n: number): void;
  solutionsNext(out: number, max: number): number;
  solutionsNodes(): bigint;
} & {
  // Every search kernel exports <name>Init, <name>Run and <name>Stat (see assembly/backtrack.ts).
  [K in `${SearchKernel}Init`]: (n: number, seed: number, param: number, maxNodes: number, maxSteps: number, maxTries: number) => number;
} & {
  [K in `${SearchKernel}Run`]: (workLimit: number) => number;
} & {
  [K in `${SearchKernel}Stat`]: (slot: number) => number;
} & {
  verifyInput(n: number): number;
  verifyRepeats(n: number): number;
  estimateInit(n: number, seed: number): number;
  estimateRun(count: number): number;
  treeSizeInit(n: number): number;
  treeSizeTask(depth: number): void;
  lasVegasTrialsInit(n: number, seed: number, stopVegas: number, trials: number): number;
  lasVegasTrialsRun(workLimit: number): number;
  lasVegasTrialsStat(slot: number): number;
  lasVegasExactInit(n: number, stopVegas: number): number;
  lasVegasExactTask(depth: number): void;
  constraintsInput(n: number, blockedCount: number): number;
  constraintsClear(): void;
  completeSolutions(): bigint;
};

let compiled: WebAssembly.Module | undefined;

/**
 * The kernels' bytes; absent from the counting threads' bundle (tsup.worker.config.ts
 * replaces the .wasm import with nothing), where the module comes from the pool instead.
 */
function wasmBytes(): Uint8Array<ArrayBuffer> {
  const bytes = embeddedBytes as Uint8Array<ArrayBuffer> | undefined;
  if (bytes === undefined) {
    throw engineUnavailable("engine 'wasm' is not available in this counting thread: it was given no compiled module (WebAssembly was not available where the pool started it); use engine 'ts'");
  }
  return bytes;
}

/** The compiled module, compiled off the critical path (asynchronously, as browsers prefer) if it is not yet. */
export async function compileWasmModule(): Promise<WebAssembly.Module> {
  if (!compiled) {
    const module = await WebAssembly.compile(wasmBytes());
    compiled ??= module;
  }
  return compiled;
}

/**
 * Compile the embedded module ahead of time and pool a first instance (optional; the first
 * job does both otherwise, and pays the loader's one-off cost of about 1 ms then).
 */
export async function compileWasm(): Promise<void> {
  await compileWasmModule();
  if (pool.length === 0) {
    try {
      release(newInstance());
    } catch (error) {
      throw codeOutOfMemory(error, "a first Wasm instance of the kernels (init)");
    }
  }
}

/**
 * A counting thread takes the module its pool compiled (compileWasmModule; a
 * WebAssembly.Module crosses threads without compiling again, and V8 shares its code,
 * optimised tiers included, so a fresh thread counts at once at full speed). Anything
 * else is ignored.
 */
export function adoptWasmModule(module: unknown): void {
  if (!compiled && typeof WebAssembly === "object" && module instanceof WebAssembly.Module) compiled = module;
}

/** The module's layout and codes (LAYOUT_GLOBALS), by use; the same for every instance. */
type Layout = {
  /** A kernel's search status to the contract's (src/engine/contract.ts), mapped by name. */
  status: readonly SearchStatus[];
  /** The kernels' own RUNNING (what constructRun returns while rows are left). */
  running: number;
  /** A kernel's phase code to its name. */
  phase: readonly SearchPhase[];
  /** Slots of a search's <name>Stat. */
  stat: { work: number; nodes: number; tries: number; steps: number; conflicts: number; phase: number };
  /** Selectors of countResult. */
  countResult: { count8: number; count4: number; count2: number; nodes: number };
  /** Byte offsets in estimate's sums block: the total's sum, and where the squares start. */
  estimate: { total: number; squares: number };
  treeSizeColumns: number;
  /** Slots of lasVegasTrialsStat. */
  trials: { tries: number; successes: number; successNodes: number; successSquares: number; failureNodes: number; failureSquares: number; work: number };
  lasVegasExactColumns: number;
  lasVegasExactSums: number;
};
let layout: Layout | undefined;

function readLayout(k: KernelExports): Layout {
  const g = (name: LayoutGlobal): number => k[name].value as number;
  const status: SearchStatus[] = [];
  status[g("RUNNING")] = RUNNING;
  status[g("FOUND")] = FOUND;
  status[g("EXHAUSTED")] = EXHAUSTED;
  status[g("MAX_NODES")] = MAX_NODES;
  status[g("MAX_STEPS")] = MAX_STEPS;
  status[g("MAX_TRIES")] = MAX_TRIES;
  const phase: SearchPhase[] = [];
  phase[g("PHASE_SEARCH")] = "search";
  phase[g("PHASE_CONSTRUCT")] = "construct";
  phase[g("PHASE_REPAIR")] = "repair";
  return {
    status,
    running: g("RUNNING"),
    phase,
    stat: {
      work: g("STAT_WORK"), nodes: g("STAT_NODES"), tries: g("STAT_TRIES"), steps: g("STAT_STEPS"),
      conflicts: g("STAT_CONFLICTS"), phase: g("STAT_PHASE"),
    },
    countResult: {
      count8: g("COUNT_RESULT_COUNT8"), count4: g("COUNT_RESULT_COUNT4"), count2: g("COUNT_RESULT_COUNT2"), nodes: g("COUNT_RESULT_NODES"),
    },
    estimate: { total: g("ESTIMATE_TOTAL"), squares: g("ESTIMATE_SQUARES") },
    treeSizeColumns: g("TREE_SIZE_COLUMNS"),
    trials: {
      tries: g("LAS_VEGAS_TRIALS_TRIES"), successes: g("LAS_VEGAS_TRIALS_SUCCESSES"),
      successNodes: g("LAS_VEGAS_TRIALS_SUCCESS_NODES"), successSquares: g("LAS_VEGAS_TRIALS_SUCCESS_SQUARES"),
      failureNodes: g("LAS_VEGAS_TRIALS_FAILURE_NODES"), failureSquares: g("LAS_VEGAS_TRIALS_FAILURE_SQUARES"),
      work: g("LAS_VEGAS_TRIALS_WORK"),
    },
    lasVegasExactColumns: g("LAS_VEGAS_EXACT_COLUMNS"),
    lasVegasExactSums: g("LAS_VEGAS_EXACT_SUMS"),
  };
}

/** The error a kernel's `abort` (a failed assert in assembly/) becomes: its message, file and line, coded. */
export function kernelAbort(message: string, file: string, line: number, column: number): Error & { code: string } {
  const error = withCode(new Error(`kernel abort: ${message} (${file}:${line}:${column})`), ErrorCode.kernelAbort);
  error.name = "KernelAbortError";
  return error;
}

/**
 * A fresh instance of the kernels, instantiated through @assemblyscript/loader: it
 * provides the `abort` import, whose message and file the loader's __getString reads
 * out of Wasm memory, so a kernel abort arrives as a coded JS error with file and line.
 * Jobs call the raw exports (numbers in, numbers out: bigint for i64), not the loader's
 * demangled wrappers, so its cost is one-off per instance and stays off the hot loops;
 * the pool below keeps even that off most jobs.
 */
export function newInstance(): KernelExports {
  if (!compiled) compiled = new WebAssembly.Module(wasmBytes());
  let util: ASUtil | undefined;
  const imports = {
    env: {
      abort(message: number, file: number, line: number, column: number): never {
        const text = (ptr: number) => (util && ptr ? util.__getString(ptr) : "?");
        throw kernelAbort(text(message), text(file), line, column);
      },
    },
  };
  // Memory for an instance that cannot be had is coded by the caller: the engine's boundary
  // (codingOutOfMemory) names the job, compileWasm the warm-up.
  const loaded = instantiateSync<KernelExports>(compiled, imports);
  util = loaded.exports;
  const k = loaded.instance.exports as unknown as KernelExports;
  layout ??= readLayout(k);
  return k;
}

/** The layout, read from the first instance made. */
function offsets(): Layout {
  if (!layout) newInstance();
  return layout!;
}

// Finished jobs hand small instances back for the next job (instantiating costs
// about 0.1 ms, a large part of a small solve); memory cannot shrink, so an
// instance whose memory grew past POOL_MAX_BYTES is dropped and freed by the GC.
const POOL_MAX_BYTES = 16 << 20;
const POOL_SIZE = 4;
const pool: KernelExports[] = [];

/** An instance for one job: from the pool, or new. Every kernel's Init resets its own state. */
function acquire(): KernelExports {
  const k = pool.pop() ?? newInstance();
  k.resetMemory();
  k.constraintsClear(); // a pooled instance may still hold an earlier job's constraints (now freed memory)
  return k;
}

function release(k: KernelExports): void {
  if (pool.length < POOL_SIZE && k.memory.buffer.byteLength <= POOL_MAX_BYTES) pool.push(k);
}

/** A close function that hands `k` back to the pool once, however often it is called. */
function closer(k: KernelExports): () => void {
  let open = true;
  return () => {
    if (open) {
      open = false;
      release(k);
    }
  };
}

/** Thrown when a kernel's allocation fails: Wasm memory cannot grow that far (code ErrorCode.outOfMemory). */
export function outOfMemory(what: string): RangeError & { code: string } {
  return withCode(new RangeError(`out of Wasm memory for ${what} (at most 4 GiB)`), ErrorCode.outOfMemory);
}

/**
 * `bytes` of zeroed kernel memory, or outOfMemory. The kernel's allocate takes a u32, so
 * 4 GiB or more is refused here (passed on, the size would wrap around to a small one).
 */
function allocate(k: KernelExports, bytes: number, what: string): number {
  const ptr = bytes < 2 ** 32 ? k.allocate(bytes) : 0;
  if (ptr === 0) throw outOfMemory(what);
  return ptr;
}

function openCounter(n: number): Counter {
  const k = acquire();
  const prefix = k.countInit(n);
  const at = offsets().countResult;
  const start = (task: CountTask): void => {
    const view = new Uint32Array(k.memory.buffer, prefix, 32);
    for (let y = 0; y < task.rows.length; y++) view[y] = 2 ** task.rows[y];
    k.countStart(task.kind, task.bound1, task.rows.length);
  };
  const result = () => ({ count8: k.countResult(at.count8), count4: k.countResult(at.count4), count2: k.countResult(at.count2), nodes: k.countResult(at.nodes) });
  return {
    countTask(task: CountTask) {
      start(task);
      while (!k.countRun(0xffffffff));
      return result();
    },
    start,
    run: (workLimit: number) => k.countRun(Math.max(1, Math.min(workLimit, 0xffffffff))) === 1,
    result,
    close: closer(k),
  };
}

function openConstellationCounter(n: number): Counter<ConstellationTask> {
  const k = acquire();
  const buffer = k.consInit(n);
  const at = offsets().countResult;
  const start = (task: ConstellationTask): void => {
    const view = new Uint32Array(k.memory.buffer, buffer, 37);
    view.set([task.i, task.j, task.k, task.l, task.rows.length, ...task.rows]);
    k.consStart();
  };
  const result = () => ({ count8: k.consResult(at.count8), count4: k.consResult(at.count4), count2: k.consResult(at.count2), nodes: k.consResult(at.nodes) });
  return {
    countTask(task: ConstellationTask) {
      start(task);
      while (!k.consRun(0xffffffff));
      return result();
    },
    start,
    run: (workLimit: number) => k.consRun(Math.max(1, Math.min(workLimit, 0xffffffff))) === 1,
    result,
    close: closer(k),
  };
}

function openSolutions(n: number): SolutionStream {
  const k = acquire();
  const perChunk = 256;
  const out = allocate(k, perChunk * n * 4, `enumerating n = ${n}`);
  k.solutionsInit(n);
  return {
    next(max: number) {
      const got = k.solutionsNext(out, Math.min(max, perChunk));
      const view = new Int32Array(k.memory.buffer, out, got * n);
      const solutions: Int32Array[] = [];
      for (let i = 0; i < got; i++) solutions.push(view.slice(i * n, (i + 1) * n));
      return solutions;
    },
    nodes: () => Number(k.solutionsNodes()),
    close: closer(k),
  };
}

/**
 * Hands a job's constraints to the kernels (assembly/constraints.ts), or clears those of
 * an earlier job of this instance. Call after acquire() and before the kernel's Init.
 */
export function loadConstraints(k: KernelExports, constraints: Constraints | undefined): void {
  if (constraints === undefined || constraints.empty) {
    k.constraintsClear();
    return;
  }
  const { n, fixedColumn, blockedStart, blockedCols } = constraints;
  const at = k.constraintsInput(n, blockedCols.length);
  if (at === 0) throw outOfMemory(`the constraints of n = ${n}`);
  const view = new Int32Array(k.memory.buffer, at, 2 * n + 1 + blockedCols.length);
  view.set(fixedColumn, 0);
  view.set(blockedStart, n);
  view.set(blockedCols, 2 * n + 1);
}

function openSearch(method: SearchMethod, n: number, params: SearchParams): Search {
  if (method === "construct") return openConstruct(n, params);
  const k = acquire();
  loadConstraints(k, params.constraints);
  const name: SearchKernel = METHODS[method].kernel;
  const init = k[`${name}Init`], run = k[`${name}Run`], stat = k[`${name}Stat`];
  const cols = init(n, params.seed, params.param, params.maxNodes, params.maxSteps, params.maxTries);
  if (cols === 0) throw outOfMemory(`method ${method} with n = ${n}`); // k is dropped, not pooled
  const { status, phase, stat: slot } = offsets();
  return {
    run: (workLimit: number) => status[run(workLimit)],
    work: () => stat(slot.work),
    stats: () => ({ nodes: stat(slot.nodes), tries: stat(slot.tries), steps: stat(slot.steps) }),
    state: () => ({ phase: phase[stat(slot.phase)] ?? "search", conflicts: stat(slot.conflicts) }),
    // The memory may have grown since init: take a new view over the current buffer.
    columns: () => new Int32Array(k.memory.buffer, cols, n).slice(),
    ...(method === "complete" ? { solutions: () => BigInt.asUintN(64, k.completeSolutions()) } : {}),
    close: closer(k),
  };
}

/**
 * The explicit construction (assembly/construct.ts): the kernel writes the rows up to
 * 65,536 at a time into a small window of its memory and each batch is copied
 * straight into the result, so the 4n bytes of the answer are touched once, in the
 * caller's array, and the instance stays small enough to go back to the pool. At
 * n = 10^8, writing all rows in Wasm memory and copying them out at the end took
 * 800 MB (two arrays of fresh pages) and about three times as long.
 */
function openConstruct(n: number, params: SearchParams): Search {
  const k = acquire();
  const { status: statusOf, running, phase, stat: slot } = offsets();
  let window = 0; // where the kernel writes each batch of rows
  let cols = new Int32Array(0);
  let handedOver = false; // `cols` belongs to the caller of `columns`
  const start = () => {
    window = k.constructInit(n, params.seed, params.param, params.maxNodes, params.maxSteps, params.maxTries);
    if (window === 0) throw outOfMemory(`method construct with n = ${n}`); // k is dropped, not pooled
    cols = new Int32Array(n); // 4n bytes of JS memory: a failure is coded at the engine's boundary (codingOutOfMemory)
    handedOver = false;
  };
  const work = () => k.constructStat(slot.work);
  const run = (workLimit: number): SearchStatus => {
    for (;;) {
      const first = work();
      const status = k.constructRun(workLimit);
      const last = work();
      // The memory cannot have grown since init (the kernel allocates only there).
      cols.set(new Int32Array(k.memory.buffer, window, last - first), first);
      if (status !== running || last === first) return statusOf[status]; // done, or workLimit reached
    }
  };
  start();
  return {
    run,
    work,
    stats: () => ({ nodes: 0, tries: k.constructStat(slot.tries), steps: 0 }),
    state: () => ({ phase: phase[k.constructStat(slot.phase)] ?? "search", conflicts: k.constructStat(slot.conflicts) }),
    columns() {
      if (handedOver) {
        // A second call after the hand-over (solve makes none): write a new array.
        k.resetMemory();
        start();
        run(n);
      }
      if (work() < n) return cols.slice(); // a board in progress: a copy
      // Every row is written and nothing writes to `cols` again: hand the array
      // itself over instead of copying 4n bytes.
      handedOver = true;
      return cols;
    },
    close: closer(k),
  };
}

// Small checks reuse one instance; a large one gets its own, so its memory is freed after.
const SHARED_VERIFY_LIMIT = 1 << 16;
let sharedVerifier: KernelExports | undefined;

function verifyRepeats(columns: Int32Array): number {
  const n = columns.length;
  const k = n <= SHARED_VERIFY_LIMIT ? (sharedVerifier ??= newInstance()) : newInstance();
  const ptr = k.verifyInput(n);
  if (ptr === 0) throw outOfMemory(`verifying ${n} queens`);
  new Int32Array(k.memory.buffer, ptr, n).set(columns);
  return k.verifyRepeats(n);
}

function randomSequence(seed: number, bound: number, count: number): Uint32Array {
  const k = acquire();
  const out = allocate(k, count * 4, `${count} random draws`);
  k.randomSequence(seed, bound, out, count);
  const draws = new Uint32Array(k.memory.buffer, out, count).slice();
  release(k);
  return draws;
}

function openProbes(n: number, seed: number): Prober {
  const k = acquire();
  const sums = k.estimateInit(n, seed);
  if (sums === 0) throw outOfMemory(`estimating n = ${n}`);
  const { total, squares } = offsets().estimate;
  let probes = 0;
  return {
    run: (count: number) => {
      probes = k.estimateRun(count);
    },
    sums: () => {
      // assembly/estimate.ts's block: depth sums 0..n from byte 0, the total at `total`, then their squares from `squares`.
      const { buffer } = k.memory;
      return {
        probes,
        level: new Float64Array(buffer, sums, n + 1).slice(),
        levelSquares: new Float64Array(buffer, sums + squares, n + 1).slice(),
        total: new Float64Array(buffer, sums + total, 1)[0],
        totalSquares: new Float64Array(buffer, sums + squares + total, 1)[0],
      };
    },
    close: closer(k),
  };
}

function openTreeCounter(n: number): TreeCounter {
  const k = acquire();
  const block = k.treeSizeInit(n);
  if (block === 0) throw outOfMemory(`the tree of n = ${n}`);
  const at = offsets().treeSizeColumns;
  return {
    subtree(columns: readonly number[]) {
      // Layout of assembly/tree-size.ts: u64[33] levels, i32[32] columns at TREE_SIZE_COLUMNS.
      new Int32Array(k.memory.buffer, block + at, 32).set(columns);
      k.treeSizeTask(columns.length);
      return Array.from(new BigUint64Array(k.memory.buffer, block, n + 1));
    },
    close: closer(k),
  };
}

function openLasVegasTrials(n: number, seed: number, stopVegas: number, trials: number): LasVegasTrials {
  const k = acquire();
  if (k.lasVegasTrialsInit(n, seed, stopVegas, trials) === 0) throw outOfMemory(`las-vegas tries with n = ${n}`);
  const stat = k.lasVegasTrialsStat;
  const slot = offsets().trials;
  return {
    run: (workLimit: number) => k.lasVegasTrialsRun(workLimit) === 1,
    work: () => stat(slot.work),
    sums: () => ({
      tries: stat(slot.tries),
      successes: stat(slot.successes),
      successNodes: stat(slot.successNodes),
      successSquares: stat(slot.successSquares),
      failureNodes: stat(slot.failureNodes),
      failureSquares: stat(slot.failureSquares),
    }),
    close: closer(k),
  };
}

function openLasVegasExact(n: number, stopVegas: number): LasVegasExactWalker {
  const k = acquire();
  const block = k.lasVegasExactInit(n, stopVegas);
  if (block === 0) throw outOfMemory(`the exact las-vegas walk with n = ${n}`);
  const { lasVegasExactColumns, lasVegasExactSums } = offsets();
  return {
    walk(columns: readonly number[]) {
      // Layout of assembly/las-vegas-stats.ts: i32[32] columns, f64[4] sums, at the offsets it exports.
      new Int32Array(k.memory.buffer, block + lasVegasExactColumns, 32).set(columns);
      k.lasVegasExactTask(columns.length);
      const [success, failure, successNodes, failureNodes] = new Float64Array(k.memory.buffer, block + lasVegasExactSums, 4);
      return { success, failure, successNodes, failureNodes };
    },
    close: closer(k),
  };
}

/** The Wasm engine; an allocation that fails in it is NQ_OUT_OF_MEMORY (codingOutOfMemory). */
export const wasmEngine: Engine = codingOutOfMemory({
  name: "wasm",
  openCounter,
  openConstellationCounter,
  openSolutions,
  openSearch,
  verifyRepeats,
  randomSequence,
  openProbes,
  openTreeCounter,
  openLasVegasTrials,
  openLasVegasExact,
});
