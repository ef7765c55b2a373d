// count(n): every solution and every solution up to symmetry, by the start-constellation
// counter, one task per constellation class (src/count/tasks.ts), in chunks of about 10 ms
// (the counter is resumable, so a task may be long) that honour signal/timeout/progress at
// every n; with engine 'webgpu', the same tasks on the GPU (countGpu: with explicit tuning).
// The prefix counter (openCounter, src/engine/prefix-split.ts) stays as the reference the
// tests check it against.
import type { ConstellationTask, CountEngineName } from "../engine/contract.js";
import { symmetricTotal, type CountOptions, type CountProgress, type CountResult } from "../engine/count-types.js";
import { checkGpuTuning, webgpuEngine, type GpuCountTuning } from "../engine/webgpu/index.js";
import { engineCan } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { splitConstellationSteps, splitConstellations } from "./tasks.js";
import { splitTasks } from "../engine/prefix-split.js";
import { rangeError } from "../core/errors.js";
import { ChunkSizer, now, PACED_OPTION_NAMES, Pacer } from "../core/pacer.js";
import { checkInteger, checkOptions } from "../core/validate.js";
import { boardOf } from "../board/board.js";
import { CONSTRAINED_MAX_N, countConstrained } from "./constrained.js";

export const COUNT_MAX_N = 32;

export type { CountOptions, CountProgress, CountResult } from "../engine/count-types.js";

const OPTION_NAMES = ["engine", "fixed", "blocked", ...PACED_OPTION_NAMES] as const;

/** Boards too small for the constellation counter, answered directly: n = 1 has one queen, 2 and 3 none. */
function smallBoard(n: number): { total: bigint; unique: bigint; nodes: bigint } | undefined {
  if (n === 1) return { total: 1n, unique: 1n, nodes: 1n };
  if (n <= 3) return { total: 0n, unique: 0n, nodes: 0n };
  return undefined;
}

/**
 * Counts the solutions of the n-queens problem, 1 <= n <= 32.
 * @example const { total, unique } = await count(8); // 92n, 12n
 */
export async function count(n: number, options?: CountOptions): Promise<CountResult> {
  const opts = checkOptions<CountOptions>("count", options, OPTION_NAMES);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "count", plain: [1, COUNT_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  if (opts.engine === "webgpu") {
    if (!board.plain && !engineCan("webgpu", "constrained")) throw rangeError(`engine "webgpu" counts plain boards only: count given queens or blocked squares with engine "wasm" or "ts"`);
    const { fixed: _fixed, blocked: _blocked, ...plain } = opts; // empty lists: the plain count
    return webgpuEngine.count(n, gpuTasks(n), plain);
  }
  const engine = pickEngine(opts.engine);
  const pacer = Pacer.from<CountProgress>(opts);
  pacer.throwIfAborted();
  if (!board.plain) {
    // Constrained board (src/count/constrained.ts): complete searches over its split's prefixes, total only.
    const report = (nodes: bigint, tasksDone = 0, tasksTotal = 1, phase: "split" | "count" = "count"): CountProgress => ({ phase, n, tasksDone, tasksTotal, nodes, elapsedMs: pacer.elapsed() });
    const { total, nodes, tasks } = await countConstrained(n, board.constraints, engine, pacer, report);
    pacer.finish(report(nodes, tasks, tasks));
    return { n, total, unique: null, nodes, ms: pacer.elapsed(), engine: engine.name };
  }

  const small = smallBoard(n);
  if (small) {
    pacer.finish({ phase: "count", n, tasksDone: 0, tasksTotal: 0, nodes: small.nodes, elapsedMs: pacer.elapsed() });
    return { n, ...small, ms: pacer.elapsed(), engine: engine.name };
  }
  const checkStop = (): void => pacer.throwIfStopped(`count(${n})`);
  // The split (the constellations: about 450 ms at n = 32) in slices that stop and report like the count's chunks.
  const { tasks, prefixNodes } = await pacer.paced(splitConstellationSteps(n), `count(${n})`,
    () => ({ phase: "split", n, tasksDone: 0, tasksTotal: 0, nodes: 0n, elapsedMs: pacer.elapsed() }));
  const counter = engine.openConstellationCounter(n);
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = prefixNodes;
  const progress = (done: number): CountProgress => ({
    phase: "count", n, tasksDone: done, tasksTotal: tasks.length, nodes, elapsedMs: pacer.elapsed(),
  });
  const sizer = new ChunkSizer(20_000);
  try {
    for (let i = 0; i < tasks.length; i++) {
      checkStop();
      counter.start(tasks[i]);
      for (;;) {
        const t = now();
        const done = counter.run(sizer.get());
        if (done) break; // (a task that ended early says nothing of how long a full chunk takes)
        sizer.observe(now() - t);
        await pacer.between(() => progress(i));
        checkStop();
      }
      const r = counter.result();
      count8 += r.count8;
      count4 += r.count4;
      count2 += r.count2;
      nodes += r.nodes;
      if (i + 1 < tasks.length) await pacer.between(() => progress(i + 1)); // the last is reported by finish()
    }
  } finally {
    counter.close();
  }
  pacer.finish(progress(tasks.length));
  return {
    n,
    ...symmetricTotal(count8, count4, count2),
    nodes,
    ms: pacer.elapsed(),
    engine: engine.name,
  };
}

/**
 * count(n, { engine: 'webgpu' }) with explicit tuning, for benchmarks on a given GPU (docs/gpu.md).
 * @example const r = await countGpu(18, {}, { slots: 131072 }); // r.engine === 'webgpu'
 */
export function countGpu(n: number, options?: Omit<CountOptions, "engine">, tuning?: GpuCountTuning): Promise<CountResult> {
  try {
    checkInteger("n", n, 1, COUNT_MAX_N);
    const opts = checkOptions<CountOptions>("countGpu", options, PACED_OPTION_NAMES);
    const checked = checkGpuTuning(n, tuning);
    return webgpuEngine.count(n, gpuTasks(n), opts, checked);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The board's constellation tasks for the GPU: count()'s own (none for n <= 3, answered directly). */
function gpuTasks(n: number): ConstellationTask[] {
  return n >= 4 ? splitConstellations(n).tasks : [];
}

/**
 * The prefix counter's count of n (4 <= n <= 32), in one synchronous pass: takaken's
 * full-symmetry search over src/engine/prefix-split.ts's tasks (its nodes are that tree's,
 * not the constellation counter's). Internal: the reference for the tests and for the GPU
 * model's frozen twin of the former prefix kernel (gpu/model/); long beyond n = 15.
 */
export function countByPrefixes(n: number, engineName?: CountEngineName): { n: number; total: bigint; unique: bigint; nodes: bigint } {
  const engine = pickEngine(engineName === "webgpu" ? "wasm" : engineName);
  const { tasks, prefixNodes } = splitTasks(n);
  const counter = engine.openCounter(n);
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = prefixNodes;
  try {
    for (const task of tasks) {
      const r = counter.countTask(task);
      count8 += r.count8; count4 += r.count4; count2 += r.count2; nodes += r.nodes;
    }
  } finally {
    counter.close();
  }
  return { n, ...symmetricTotal(count8, count4, count2), nodes };
}
