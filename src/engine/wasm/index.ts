// The Wasm engine: the AssemblyScript kernels of assembly/, embedded in the bundle
// as bytes, compiled once, and instantiated (through @assemblyscript/loader) for a job
// (a count, an enumeration, a search) so jobs never share state; small instances are
// pooled for the next job. Results are copied out of Wasm memory before they are returned.
import { instantiateSync, type ASUtil } from "@assemblyscript/loader";
import wasmBytes from "../../../build/release.wasm";
import { PHASES, RUNNING, codingOutOfMemory } from "../contract.js";
import type { Constraints } from "../../board/constraints.js";
import type {
  CountTask, Counter, Engine, LasVegasExactWalker, LasVegasTrials, Prober, Search, SearchMethod, SearchParams,
  SearchStatus, SolutionStream, TreeCounter,
} from "../contract.js";
import { METHODS, type SearchKernel } from "../registry.js";
import { ErrorCode, codeOutOfMemory, withCode } from "../../core/errors.js";

/** The kernels' exports (see assembly/index.ts). A type alias, as the loader's generic needs. */
export type KernelExports = {
  memory: WebAssembly.Memory;
  // The memory layout of the kernels' blocks (immutable globals; read once, see `layout`).
  TREE_SIZE_COLUMNS: WebAssembly.Global;
  LAS_VEGAS_EXACT_COLUMNS: WebAssembly.Global;
  LAS_VEGAS_EXACT_SUMS: WebAssembly.Global;
  allocate(bytes: number): number;
  resetMemory(): void;
  randomSequence(seed: number, bound: number, out: number, count: number): void;
  countInit(n: number): number;
  countStart(kind: number, bound1: number, depth: number): void;
  countRun(budget: number): number;
  countResult(which: number): bigint;
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
 * Compile the embedded module ahead of time and pool a first instance (optional; the first
 * job does both otherwise, and pays the loader's one-off cost of about 1 ms then).
 */
export async function compileWasm(): Promise<void> {
  if (compiled) return;
  const module = await WebAssembly.compile(wasmBytes); // compile off the main thread's critical path
  compiled ??= module;
  if (pool.length === 0) {
    try {
      release(newInstance());
    } catch (error) {
      throw codeOutOfMemory(error, "a first Wasm instance of the kernels (init)");
    }
  }
}

/**
 * The compiled module, compiled here if it is not yet: the pool hands it to its threads
 * (a WebAssembly.Module crosses threads without compiling again, and V8 shares its code,
 * optimised tiers included), so a fresh thread counts at once at full speed.
 */
export function wasmModule(): WebAssembly.Module {
  compiled ??= new WebAssembly.Module(wasmBytes);
  return compiled;
}

/** A thread takes the module its pool compiled (see wasmModule); anything else is ignored. */
export function adoptWasmModule(module: unknown): void {
  if (!compiled && typeof WebAssembly === "object" && module instanceof WebAssembly.Module) compiled = module;
}

/** Offsets inside the kernels' blocks, as the module exports them (the same for every instance). */
type Layout = { treeSizeColumns: number; lasVegasExactColumns: number; lasVegasExactSums: number };
let layout: Layout | undefined;

function readLayout(k: KernelExports): Layout {
  return {
    treeSizeColumns: k.TREE_SIZE_COLUMNS.value as number,
    lasVegasExactColumns: k.LAS_VEGAS_EXACT_COLUMNS.value as number,
    lasVegasExactSums: k.LAS_VEGAS_EXACT_SUMS.value as number,
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
  if (!compiled) compiled = new WebAssembly.Module(wasmBytes);
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
  const start = (task: CountTask): void => {
    const view = new Uint32Array(k.memory.buffer, prefix, 32);
    for (let y = 0; y < task.rows.length; y++) view[y] = 2 ** task.rows[y];
    k.countStart(task.kind, task.bound1, task.rows.length);
  };
  const result = () => ({ count8: k.countResult(0), count4: k.countResult(1), count2: k.countResult(2), nodes: k.countResult(3) });
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

// Stat slots of assembly/status.ts.
const STAT_WORK = 0, STAT_NODES = 1, STAT_TRIES = 2, STAT_STEPS = 3, STAT_CONFLICTS = 4, STAT_PHASE = 5;

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
  return {
    run: (workLimit: number) => run(workLimit) as SearchStatus,
    work: () => stat(STAT_WORK),
    stats: () => ({ nodes: stat(STAT_NODES), tries: stat(STAT_TRIES), steps: stat(STAT_STEPS) }),
    state: () => ({ phase: PHASES[stat(STAT_PHASE)] ?? "search", conflicts: stat(STAT_CONFLICTS) }),
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
  let window = 0; // where the kernel writes each batch of rows
  let cols = new Int32Array(0);
  let handedOver = false; // `cols` belongs to the caller of `columns`
  const start = () => {
    window = k.constructInit(n, params.seed, params.param, params.maxNodes, params.maxSteps, params.maxTries);
    if (window === 0) throw outOfMemory(`method construct with n = ${n}`); // k is dropped, not pooled
    cols = new Int32Array(n); // 4n bytes of JS memory: a failure is coded at the engine's boundary (codingOutOfMemory)
    handedOver = false;
  };
  const work = () => k.constructStat(STAT_WORK);
  const run = (workLimit: number): SearchStatus => {
    for (;;) {
      const first = work();
      const status = k.constructRun(workLimit) as SearchStatus;
      const last = work();
      // The memory cannot have grown since init (the kernel allocates only there).
      cols.set(new Int32Array(k.memory.buffer, window, last - first), first);
      if (status !== RUNNING || last === first) return status; // done, or workLimit reached
    }
  };
  start();
  return {
    run,
    work,
    stats: () => ({ nodes: 0, tries: k.constructStat(STAT_TRIES), steps: 0 }),
    state: () => ({ phase: PHASES[k.constructStat(STAT_PHASE)] ?? "search", conflicts: k.constructStat(STAT_CONFLICTS) }),
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
  let probes = 0;
  return {
    run: (count: number) => {
      probes = k.estimateRun(count);
    },
    sums: () => {
      // Layout of assembly/estimate.ts: depth sums 0..n, the total, then their squares.
      const view = new Float64Array(k.memory.buffer, sums, 2 * (n + 2));
      return {
        probes,
        level: view.slice(0, n + 1),
        levelSquares: view.slice(n + 2, 2 * n + 3),
        total: view[n + 1],
        totalSquares: view[2 * n + 3],
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

// Stat slots of assembly/las-vegas-stats.ts.
const TRIAL_TRIES = 0, TRIAL_SUCCESSES = 1, TRIAL_SUCCESS_NODES = 2, TRIAL_SUCCESS_SQUARES = 3;
const TRIAL_FAILURE_NODES = 4, TRIAL_FAILURE_SQUARES = 5, TRIAL_WORK = 6;

function openLasVegasTrials(n: number, seed: number, stopVegas: number, trials: number): LasVegasTrials {
  const k = acquire();
  if (k.lasVegasTrialsInit(n, seed, stopVegas, trials) === 0) throw outOfMemory(`las-vegas tries with n = ${n}`);
  const stat = k.lasVegasTrialsStat;
  return {
    run: (workLimit: number) => k.lasVegasTrialsRun(workLimit) === 1,
    work: () => stat(TRIAL_WORK),
    sums: () => ({
      tries: stat(TRIAL_TRIES),
      successes: stat(TRIAL_SUCCESSES),
      successNodes: stat(TRIAL_SUCCESS_NODES),
      successSquares: stat(TRIAL_SUCCESS_SQUARES),
      failureNodes: stat(TRIAL_FAILURE_NODES),
      failureSquares: stat(TRIAL_FAILURE_SQUARES),
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
  openSolutions,
  openSearch,
  verifyRepeats,
  randomSequence,
  openProbes,
  openTreeCounter,
  openLasVegasTrials,
  openLasVegasExact,
});
