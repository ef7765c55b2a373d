// The Wasm engine's counters: the prefix counter (assembly/count.ts), the constellation
// counter (assembly/constellations.ts) and the enumeration of solutions (assembly/solutions.ts),
// each on an instance of its own from the loader's pool.
import type { ConstellationTask, CountTask, Counter, SolutionStream } from "../contract.js";
import { acquire, allocate, closer, offsets } from "./loader.js";

export function openCounter(n: number): Counter {
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

export function openConstellationCounter(n: number): Counter<ConstellationTask> {
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

export function openSolutions(n: number): SolutionStream {
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
