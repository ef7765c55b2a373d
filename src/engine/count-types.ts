// What count() takes and gives (src/count/count.ts): its options, progress reports and
// result, here below count/ because the GPU engine (webgpu/) takes and gives them too.
import type { CountEngineName } from "./contract.js";
import type { Square } from "../board/constraints.js";
import type { PacedOptions } from "../core/pacer.js";

export type CountProgress = {
  /** 'split' while the board is cut into tasks, when that takes more than a slice of about 10 ms (tasksDone and tasksTotal 0: the tasks are not known yet), then 'count'. */
  phase: "split" | "count";
  n: number;
  tasksDone: number;
  tasksTotal: number;
  nodes: bigint;
  elapsedMs: number;
};

/** count's options: signal, timeoutMs, onProgress and progressIntervalMs (PacedOptions), and its own. */
export interface CountOptions extends PacedOptions<CountProgress> {
  /** 'wasm' (default), 'ts', or 'webgpu' (the GPU: docs/gpu.md). */
  engine?: CountEngineName;
  /** Queens given in advance, [row, col] pairs, 0-based (then n <= 1000 and `unique` is null). */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
}

export type CountResult = {
  n: number;
  /** All solutions (OEIS A000170). */
  total: bigint;
  /** Solutions distinct under the 8 rotations and reflections (OEIS A002562); null with given queens or blocked squares (they break the symmetry). */
  unique: bigint | null;
  /** Queens placed on the free rows of the constellations (their border queens and the symmetry classing are not counted; docs/counting.md). */
  nodes: bigint;
  ms: number;
  engine: CountEngineName;
};

/**
 * The count and the count up to symmetry from the classes' counts: a solution whose class has 8
 * members (no symmetry), 4 (symmetric under a half turn) or 2 (under a quarter turn). Every
 * counter adds its classes up with this one rule.
 */
export function symmetricTotal(count8: bigint, count4: bigint, count2: bigint): { total: bigint; unique: bigint } {
  return { total: 8n * count8 + 4n * count4 + 2n * count2, unique: count8 + count4 + count2 };
}
