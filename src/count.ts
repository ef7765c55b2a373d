// count(n): every solution and every solution up to symmetry, by the full-symmetry
// counter over tasks (src/count-split.ts), in chunks that honour signal/timeout/progress.
import type { EngineName } from "./engine.js";
import { pickEngine } from "./engines.js";
import { splitTasks } from "./count-split.js";
import { timeoutError } from "./errors.js";
import { Pacer } from "./pacer.js";
import { checkInteger, checkOptions, optionalFunction, optionalInteger, optionalSignal } from "./validate.js";

export const COUNT_MAX_N = 32;

export type CountProgress = {
  phase: "count";
  n: number;
  tasksDone: number;
  tasksTotal: number;
  nodes: bigint;
  elapsedMs: number;
};

export type CountOptions = {
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
  /** Stops the count; the promise rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
  /** Rejects with a TimeoutError (code NQ_TIMEOUT) after this many milliseconds. */
  timeoutMs?: number;
  /** Called at most about 20 times a second, and once at the end. */
  onProgress?: (progress: CountProgress) => void;
};

export type CountResult = {
  n: number;
  /** All solutions (OEIS A000170). */
  total: bigint;
  /** Solutions distinct under the 8 rotations and reflections (OEIS A002562). */
  unique: bigint;
  /** Queens placed by the search. */
  nodes: bigint;
  ms: number;
  engine: EngineName;
};

const OPTION_NAMES = ["engine", "signal", "timeoutMs", "onProgress"] as const;

/** Boards too small for the symmetry counter, answered directly: n = 1 has one queen, 2 and 3 none. */
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
  checkInteger("n", n, 1, COUNT_MAX_N);
  const opts = checkOptions<CountOptions>("count", options, OPTION_NAMES);
  const engine = pickEngine(opts.engine);
  const timeoutMs = optionalInteger("timeoutMs", opts.timeoutMs, 0, Number.MAX_SAFE_INTEGER, Infinity);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: CountProgress) => void>("onProgress", opts.onProgress);
  const pacer = new Pacer<CountProgress>({ signal, timeoutMs, onProgress });
  pacer.throwIfAborted();

  const small = smallBoard(n);
  if (small) {
    return { n, ...small, ms: pacer.elapsed(), engine: engine.name };
  }
  const { tasks, prefixNodes } = splitTasks(n);
  const counter = engine.openCounter(n);
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = prefixNodes;
  const progress = (done: number): CountProgress => ({
    phase: "count", n, tasksDone: done, tasksTotal: tasks.length, nodes, elapsedMs: pacer.elapsed(),
  });
  try {
    for (let i = 0; i < tasks.length; i++) {
      const stop = pacer.stopReason();
      if (stop === "aborted") pacer.throwIfAborted();
      if (stop === "timeout") throw timeoutError(`count(${n})`, timeoutMs);
      const r = counter.countTask(tasks[i]);
      count8 += r.count8;
      count4 += r.count4;
      count2 += r.count2;
      nodes += r.nodes;
      await pacer.between(() => progress(i + 1));
    }
  } finally {
    counter.close();
  }
  pacer.finish(progress(tasks.length));
  return {
    n,
    total: 8n * count8 + 4n * count4 + 2n * count2,
    unique: count8 + count4 + count2,
    nodes,
    ms: pacer.elapsed(),
    engine: engine.name,
  };
}
