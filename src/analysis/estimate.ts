// What a search costs, part 1: the size of the backtracking tree. `estimate` is
// Knuth's (1975) random-probe estimator (procedure `estimate`, text 5 in docs/references.md),
// `treeSize` the exact count by exhaustive search. The tree, in the package's node
// convention: the empty board and every consistent placement of rows 0..k-1, i.e.
// exactly the nodes that backtracking through all solutions visits, root included.
import type { EngineName } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { ChunkSizer, PACED_OPTION_NAMES, Pacer, now, type PacedOptions } from "../core/pacer.js";
import { checkInteger, checkOptions, checkSeed, optionalInteger } from "../core/validate.js";

/** Largest n for `estimate` (bitboard probes). */
export const ESTIMATE_MAX_N = 32;

/**
 * Largest n for `treeSize`. The tree grows about 7 times per extra row: n = 16 has
 * 1.1e9 nodes (about 5 s on Wasm), n = 17 8.0e9 (under a minute on Wasm, a few on the
 * TS engine); n = 18 would take several minutes on Wasm.
 */
export const TREE_SIZE_MAX_N = 17;

/** The 97.5% quantile of the standard normal: ci95 = mean +- Z95 * stderr. */
export const Z95 = 1.959963984540054;

/** Standard error of a mean from the sum and the sum of squares of `m` values (NaN when m < 2). */
export function standardError(sum: number, squares: number, m: number): number {
  if (m < 2) return NaN;
  const variance = Math.max(0, (squares - (sum * sum) / m) / (m - 1));
  return Math.sqrt(variance / m);
}

/** estimate's options: its own, and signal, timeoutMs, onProgress and progressIntervalMs (PacedOptions). */
export interface EstimateOptions extends PacedOptions<EstimateProgress> {
  /** Number of random probes (default 10000). */
  samples?: number;
  /** u32 seed of the generator (default 1), or 'random'. */
  seed?: number | "random";
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
}

export type EstimateProgress = {
  phase: "estimate";
  n: number;
  samplesDone: number;
  samples: number;
  /** The estimate from the samplesDone probes so far (what the result would say if it stopped here): watch it converge. */
  mean: number;
  /** Its standard error (NaN before two probes). */
  stderr: number;
  elapsedMs: number;
};

export type EstimateResult = {
  n: number;
  samples: number;
  seed: number;
  /** Mean over the probes of 1 + d1 + d1*d2 + ... (an unbiased estimate of the tree's nodes). */
  mean: number;
  /** Standard error of the mean: the probes' sample standard deviation / sqrt(samples) (NaN for 1 probe). */
  stderr: number;
  /** mean -+ 1.96 stderr (normal approximation; the estimates are heavy-tailed, so small samples can mislead). */
  ci95: [number, number];
  /** perLevel[k]: estimated nodes at depth k, k = 0..n (mean over the probes of d1*...*dk). */
  perLevel: number[];
  /** Standard error of each perLevel entry. */
  perLevelStderr: number[];
  engine: EngineName;
  ms: number;
};

const ESTIMATE_OPTIONS = ["samples", "seed", "engine", ...PACED_OPTION_NAMES] as const;

/**
 * Knuth's estimate of the number of nodes backtracking visits on an n x n board
 * (1 <= n <= 32): each probe walks from the empty board choosing a uniformly random
 * safe column per row and multiplies the numbers of safe columns met.
 * @example const { mean } = await estimate(8, { samples: 100000 }); // about 2057
 */
export async function estimate(n: number, options?: EstimateOptions): Promise<EstimateResult> {
  checkInteger("n", n, 1, ESTIMATE_MAX_N);
  const opts = checkOptions<EstimateOptions>("estimate", options, ESTIMATE_OPTIONS);
  const samples = optionalInteger("samples", opts.samples, 1, Number.MAX_SAFE_INTEGER, 10_000);
  const seed = checkSeed(opts.seed);
  const engine = pickEngine(opts.engine);
  const pacer = Pacer.from<EstimateProgress>(opts);
  pacer.throwIfAborted();

  const prober = engine.openProbes(n, seed);
  let done = 0;
  const progress = (): EstimateProgress => {
    const sums = prober.sums();
    return {
      phase: "estimate", n, samplesDone: done, samples,
      mean: done > 0 ? sums.total / done : NaN, stderr: standardError(sums.total, sums.totalSquares, done), elapsedMs: pacer.elapsed(),
    };
  };
  try {
    const sizer = new ChunkSizer(256);
    while (done < samples) {
      const chunk = Math.min(sizer.get(), samples - done);
      const t0 = now();
      prober.run(chunk);
      sizer.observe(now() - t0);
      done += chunk;
      if (done === samples) break;
      pacer.throwIfStopped(`estimate(${n})`);
      await pacer.between(progress);
    }
    const sums = prober.sums();
    pacer.finish(progress());
    const mean = sums.total / samples;
    const stderr = standardError(sums.total, sums.totalSquares, samples);
    return {
      n,
      samples,
      seed,
      mean,
      stderr,
      ci95: [mean - Z95 * stderr, mean + Z95 * stderr],
      perLevel: Array.from(sums.level, (sum) => sum / samples),
      perLevelStderr: Array.from(sums.level, (sum, k) => standardError(sum, sums.levelSquares[k], samples)),
      engine: engine.name,
      ms: pacer.elapsed(),
    };
  } finally {
    prober.close();
  }
}

/** treeSize's options: its own, and signal, timeoutMs, onProgress and progressIntervalMs (PacedOptions). */
export interface TreeSizeOptions extends PacedOptions<TreeSizeProgress> {
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
}

export type TreeSizeProgress = { phase: "tree"; n: number; tasksDone: number; tasksTotal: number; nodes: bigint; elapsedMs: number };

export type TreeSizeResult = {
  n: number;
  /** All nodes: the empty board and every consistent partial placement (the sum of perLevel). */
  total: bigint;
  /** perLevel[k]: consistent placements of rows 0..k-1, k = 0..n (perLevel[n] is the number of solutions). */
  perLevel: bigint[];
  engine: EngineName;
  ms: number;
};

const TREE_OPTIONS = ["engine", ...PACED_OPTION_NAMES] as const;

type TreeTask = { columns: number[]; weight: bigint };

/**
 * The tree split into subtrees for progress and abort: every consistent placement of
 * rows 0..d-1 whose row-0 queen is in the left half (weight 2: its mirror image has
 * a subtree of the same shape) or the middle column (weight 1). Depths below d are
 * counted here while listing them.
 */
function treeTasks(n: number): { tasks: TreeTask[]; shallow: bigint[] } {
  const depth = Math.min(n, n <= 8 ? 1 : n <= 12 ? 2 : 3);
  const shallow = new Array<bigint>(n + 1).fill(0n);
  shallow[0] = 1n; // the empty board
  const tasks: TreeTask[] = [];
  const columns: number[] = [];
  const visit = (row: number, weight: bigint): void => {
    if (row === depth) {
      tasks.push({ columns: columns.slice(), weight });
      return;
    }
    shallow[row] += row === 0 ? 0n : weight;
    const last = row === 0 ? Math.ceil(n / 2) : n;
    for (let c = 0; c < last; c++) {
      if (columns.some((other, r) => other === c || Math.abs(other - c) === row - r)) continue;
      columns.push(c);
      visit(row + 1, row === 0 ? (2 * c + 1 === n ? 1n : 2n) : weight);
      columns.pop();
    }
  };
  visit(0, 1n);
  return { tasks, shallow };
}

/**
 * The exact number of nodes of the backtracking tree, per depth, 1 <= n <= 17, by
 * exhaustive search (bitboards; the board's mirror symmetry halves the work).
 * @example (await treeSize(8)).total // 2057n
 */
export async function treeSize(n: number, options?: TreeSizeOptions): Promise<TreeSizeResult> {
  checkInteger("n", n, 1, TREE_SIZE_MAX_N);
  const opts = checkOptions<TreeSizeOptions>("treeSize", options, TREE_OPTIONS);
  const engine = pickEngine(opts.engine);
  const pacer = Pacer.from<TreeSizeProgress>(opts);
  pacer.throwIfAborted();

  const { tasks, shallow } = treeTasks(n);
  const perLevel = shallow.slice();
  let nodes = perLevel.reduce((a, b) => a + b, 0n);
  const progress = (done: number): TreeSizeProgress => ({
    phase: "tree", n, tasksDone: done, tasksTotal: tasks.length, nodes, elapsedMs: pacer.elapsed(),
  });
  const counter = engine.openTreeCounter(n);
  try {
    for (let i = 0; i < tasks.length; i++) {
      pacer.throwIfStopped(`treeSize(${n})`);
      const { columns, weight } = tasks[i];
      const counts = counter.subtree(columns);
      for (let k = 0; k <= n; k++) {
        perLevel[k] += weight * counts[k];
        nodes += weight * counts[k];
      }
      if (i + 1 < tasks.length) await pacer.between(() => progress(i + 1)); // the last is reported by finish()
    }
  } finally {
    counter.close();
  }
  pacer.finish(progress(tasks.length));
  return { n, total: nodes, perLevel, engine: engine.name, ms: pacer.elapsed() };
}
