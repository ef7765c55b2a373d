// The Wasm engine's searches: every method of the registry's table (src/engine/registry.ts)
// through its kernel's <name>Init, <name>Run and <name>Stat (assembly/backtrack.ts and the
// rest; complete's count of solutions too), and the explicit construction, which streams
// its rows out in batches (openConstruct).
import { FOUND, type Search, type SearchMethod, type SearchParams, type SearchSplit, type SearchStatus } from "../contract.js";
import { METHODS, type SearchKernel } from "../registry.js";
import { loadConstraints } from "./constraints.js";
import { acquire, closer, offsets, outOfMemory, pooled } from "./loader.js";

export function openSearch(method: SearchMethod, n: number, params: SearchParams): Search {
  if (method === "construct") return openConstruct(n, params);
  const k = acquire();
  loadConstraints(k, params.constraints);
  const name: SearchKernel = METHODS[method].kernel;
  const init = k[`${name}Init`], run = k[`${name}Run`], stat = k[`${name}Stat`];
  const cols = init(n, params.seed, params.param, params.maxNodes, params.maxSteps, params.maxTries);
  if (cols === 0) throw outOfMemory(`method ${method} with n = ${n}`); // k is dropped, not pooled
  const { status, phase, stat: slot } = offsets();
  let last: SearchStatus | undefined;
  // min-conflicts' board, once found, is handed over as a view (columns below); complete's
  // enumeration runs on after FOUND, so its boards are always copied.
  let handedOver = method !== "min-conflicts";
  return {
    run: (workLimit: number) => (last = status[run(workLimit)]),
    work: () => stat(slot.work),
    stats: () => ({ nodes: stat(slot.nodes), tries: stat(slot.tries), steps: stat(slot.steps) }),
    state: () => ({ phase: phase[stat(slot.phase)] ?? "search", conflicts: stat(slot.conflicts) }),
    // The memory may have grown since init: take a new view over the current buffer. A
    // finished board in an instance too big for the pool (loader.ts) is handed over as
    // that view: nothing writes to it again (a kernel past FOUND changes nothing, and the
    // instance is never reused), and copying 4n bytes into fresh pages cost 400 MB of peak
    // memory and about 0.3 s at n = 10^8 (min-conflicts only). The view keeps the instance's memory alive while
    // the caller holds it (its buffer is that memory: byteOffset is not 0); a later call gets a copy.
    columns: () => {
      const view = new Int32Array(k.memory.buffer, cols, n);
      if (handedOver || last !== FOUND || pooled(k)) return view.slice();
      handedOver = true;
      return view;
    },
    ...(method === "complete" ? { solutions: () => BigInt.asUintN(64, k.completeSolutions()), split: () => readSplit(k.completeSplit(), new Int32Array(k.memory.buffer, k.completeSplitOut())) } : {}),
    close: closer(k),
  };
}

/** completeSplit's answer (m branches; the path's length, its squares, then the branches' at `out`) as the contract's SearchSplit. */
function readSplit(m: number, out: Int32Array): SearchSplit | null {
  if (m === 0) return null;
  const p = out[0];
  const square = (i: number): [number, number] => [out[1 + 2 * i], out[2 + 2 * i]];
  return { path: Array.from({ length: p }, (_, i) => square(i)), branches: Array.from({ length: m }, (_, i) => square(p + i)) };
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
