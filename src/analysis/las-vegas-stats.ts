// What a search costs, part 2: one try of the 'hybrid' method (stopVegas random
// rows, then backtracking over the rest; Brassard & Bratley's table, as text 1 in docs/references.md retells it).
// For a try: p = P(it succeeds), s = E(nodes | success), e = E(nodes | failure), and
// t = s + (1 - p) e / p, the expected nodes until the first success when failed
// tries are repeated (by Wald's identity t = E(nodes of one try) / p). A try's nodes
// are counted as solve(n, { method: 'hybrid' }) counts them: its empty board plus
// every queen placed, random or by the backtracking.
// Two ways: Monte Carlo over seeded tries (the kernel makes the tries and adds up
// their nodes), or exactly, by walking every random choice with its probability.
// The exact walk is split here, in shared TS, into subtrees (the placements of the
// first random rows, with their probabilities) so a long walk reports progress and
// can be stopped; the kernels walk each subtree, which is all of the work.
import type { Engine, EngineName, ExactSums } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { invalid } from "../core/errors.js";
import { standardError } from "./estimate.js";
import { checkSeed } from "../core/validate.js";
import { ChunkSizer, PACED_OPTION_NAMES, Pacer, now, type PacedOptions } from "../core/pacer.js";
import { TREE_MAX_N, defaultStopVegas } from "../search/solve.js";
import { checkInteger, checkOptions, describe, optionalFunction, optionalInteger, optionalSignal } from "../core/validate.js";

/**
 * Largest n for `exact: true`. The walk visits every node of the tree down to depth
 * stopVegas and backtracks below each: at most about the whole tree (27 million
 * nodes at n = 14) per stopVegas, so a table of n = 14 takes seconds on Wasm; n = 16
 * would be 40 times more.
 */
export const LAS_VEGAS_EXACT_MAX_N = 14;

/** Tries made when `trials` is not given. */
export const DEFAULT_TRIALS = 10_000;

/** lasVegasStats's options: its own, and signal, timeoutMs, onProgress and progressIntervalMs (PacedOptions). */
export interface LasVegasStatsOptions extends PacedOptions<LasVegasProgress> {
  /** Rows placed at random before backtracking, 0..n (default as solve: 8, or n - 15 when n > 15, capped to n). */
  stopVegas?: number;
  /** Monte Carlo: the number of tries (default 10000). */
  trials?: number;
  /** Monte Carlo: u32 seed of the generator (default 1), or 'random'. */
  seed?: number | "random";
  /** Compute the numbers exactly instead (1 <= n <= 14; takes no trials or seed). */
  exact?: boolean;
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
}

export type LasVegasTableOptions = Omit<LasVegasStatsOptions, "stopVegas">;

export type LasVegasProgress = {
  /** 'trials' (Monte Carlo) or 'exact'. */
  phase: "trials" | "exact";
  n: number;
  stopVegas: number;
  /** Tries made (trials), or subtrees walked (exact), for this stopVegas. */
  done: number;
  total: number;
  /** For a table: the rows (stopVegas values) finished, of n + 1; for one stopVegas 0 of 1. */
  rowsDone: number;
  rowsTotal: number;
  elapsedMs: number;
};

export type LasVegasStats = {
  n: number;
  stopVegas: number;
  exact: boolean;
  /** Monte Carlo: tries made; null when exact. */
  trials: number | null;
  /** Monte Carlo: the seed; null when exact. */
  seed: number | null;
  /** Probability that one try succeeds. */
  p: number;
  /** Mean nodes of a successful try (NaN if none succeeds). */
  s: number;
  /** Mean nodes of a failed try (NaN if none fails). */
  e: number;
  /** Expected nodes until a success, s + (1 - p) e / p (s when p = 1, Infinity when p = 0). */
  t: number;
  /**
   * Standard errors (all 0 when exact; NaN where undefined). p: sqrt(p (1 - p) / trials);
   * s, e: sample standard deviation / sqrt(count) over the successful or failed tries; t:
   * delta method for the ratio t = mean(x) / mean(y) (x a try's nodes, y 1 if it
   * succeeded): sqrt(sum (x_i - t y_i)^2 / (trials (trials - 1))) / p.
   */
  stderr: { p: number; s: number; e: number; t: number };
  /** Monte Carlo: the successful tries; null when exact. */
  successes: number | null;
  engine: EngineName;
  ms: number;
};

export type LasVegasTable = {
  n: number;
  exact: boolean;
  trials: number | null;
  seed: number | null;
  /** One row per stopVegas = 0..n (each as lasVegasStats gives it, Monte Carlo rows all from `seed`). */
  rows: LasVegasStats[];
  /** The stopVegas with the smallest t (the first, on ties). */
  best: number;
  engine: EngineName;
  ms: number;
};

type Mode = { exact: true } | { exact: false; trials: number; seed: number };

type Run = {
  engine: Engine;
  n: number;
  mode: Mode;
  pacer: Pacer<LasVegasProgress>;
  rowsTotal: number;
};

const STATS_OPTIONS = ["stopVegas", "trials", "seed", "exact", "engine", ...PACED_OPTION_NAMES] as const;
const TABLE_OPTIONS = STATS_OPTIONS.filter((name) => name !== "stopVegas");

/** The checks both functions share (after n): exact and its limit, trials, seed, and the pacing options. */
function prepare(n: number, opts: Partial<LasVegasStatsOptions>): Omit<Run, "rowsTotal"> {
  if (opts.exact !== undefined && typeof opts.exact !== "boolean") {
    throw invalid("exact", ` must be true or false, got ${describe(opts.exact)}`, TypeError);
  }
  const exact = opts.exact === true;
  let mode: Mode;
  if (exact) {
    if (n > LAS_VEGAS_EXACT_MAX_N) {
      throw invalid(
        "n", ` must be an integer from 1 to ${LAS_VEGAS_EXACT_MAX_N} when exact is true (the exact walk visits the whole tree), got ${n}`,
      );
    }
    for (const name of ["trials", "seed"] as const) {
      if (opts[name] !== undefined) throw invalid(name, " does not apply when exact is true (the exact walk draws nothing)");
    }
    mode = { exact: true };
  } else {
    const trials = optionalInteger("trials", opts.trials, 1, Number.MAX_SAFE_INTEGER, DEFAULT_TRIALS);
    mode = { exact: false, trials, seed: checkSeed(opts.seed) };
  }
  const engine = pickEngine(opts.engine);
  const pacer = Pacer.from<LasVegasProgress>(opts);
  pacer.throwIfAborted();
  return { engine, n, mode, pacer };
}

/** Stop now if asked to: abort (rejects with the signal's reason) or timeout (TimeoutError). */
function checkStop(run: Run, what: string): void {
  run.pacer.throwIfStopped(what);
}

/** p, s, e, t from the probability (or frequency) of success and failure and the nodes summed per outcome. */
function finish(success: number, failure: number, successNodes: number, failureNodes: number) {
  const total = success + failure;
  const p = success / total;
  const q = failure / total; // 1 - p, without the rounding of a subtraction
  const s = success > 0 ? successNodes / success : NaN;
  const e = failure > 0 ? failureNodes / failure : NaN;
  const t = success === 0 ? Infinity : failure === 0 ? s : s + (q * e) / p;
  return { p, s, e, t };
}

async function monteCarlo(run: Run, stopVegas: number, rowsDone: number, trials: number, seed: number): Promise<LasVegasStats> {
  const { engine, n, pacer } = run;
  const start = now();
  // With stopVegas = 0 a try draws nothing: it is plain backtracking, the same every time,
  // so one try stands for all of them (n = 20: 10,000 tries took 100 s, one takes 10 ms).
  const repeat = stopVegas === 0 ? trials : 1;
  const runner = engine.openLasVegasTrials(n, seed, stopVegas, trials / repeat);
  const progress = (): LasVegasProgress => ({
    phase: "trials", n, stopVegas, done: runner.sums().tries * repeat, total: trials, rowsDone, rowsTotal: run.rowsTotal, elapsedMs: pacer.elapsed(),
  });
  try {
    const sizer = new ChunkSizer();
    for (;;) {
      const t0 = now();
      const finished = runner.run(runner.work() + sizer.get());
      sizer.observe(now() - t0);
      if (finished) break;
      checkStop(run, `lasVegasStats(${n}, stopVegas ${stopVegas})`);
      await pacer.between(progress);
    }
    pacer.finish(progress());
    const sums = runner.sums(); // the tries actually made: all of them, or the one that stands for all
    const tries = sums.tries * repeat;
    const successes = sums.successes * repeat;
    const failures = tries - successes;
    // Ratios from the tries made: the same whatever the scale, with no rounding from it.
    const { p, s, e, t } = finish(sums.successes, sums.tries - sums.successes, sums.successNodes, sums.failureNodes);
    let stderr: LasVegasStats["stderr"];
    if (repeat > 1) {
      // Identical tries: no spread at all (undefined, as below, where fewer than two are counted).
      stderr = { p: 0, s: successes >= 2 ? 0 : NaN, e: failures >= 2 ? 0 : NaN, t: successes > 0 ? 0 : NaN };
    } else {
      let seT = NaN;
      if (successes > 0 && tries >= 2) {
        // sum over tries of (x - t y)^2: failed tries give x^2, successful ones (x - t)^2.
        const spread = sums.failureSquares + sums.successSquares - 2 * t * sums.successNodes + t * t * successes;
        seT = Math.sqrt(Math.max(0, spread) / (tries * (tries - 1))) / p;
      }
      stderr = {
        p: Math.sqrt((p * (1 - p)) / tries),
        s: standardError(sums.successNodes, sums.successSquares, successes),
        e: standardError(sums.failureNodes, sums.failureSquares, failures),
        t: seT,
      };
    }
    return {
      n, stopVegas, exact: false, trials, seed, p, s, e, t,
      stderr,
      successes,
      engine: engine.name,
      ms: now() - start,
    };
  } finally {
    runner.close();
  }
}

type ExactTask = { columns: number[]; weight: number };

/**
 * The exact walk split into subtrees: every placement of the first min(stopVegas, 2)
 * random rows, in depth-first order with columns increasing, with its probability
 * (the product of 1/d over its rows). A random row with no safe column before that
 * depth ends its tries there (failed, 1 + row nodes): `dead` adds those up.
 */
function exactTasks(n: number, stopVegas: number): { tasks: ExactTask[]; dead: ExactSums } {
  const depth = Math.min(stopVegas, 2);
  const tasks: ExactTask[] = [];
  const dead: ExactSums = { success: 0, failure: 0, successNodes: 0, failureNodes: 0 };
  const columns: number[] = [];
  const safe = (row: number): number[] => {
    const list: number[] = [];
    for (let c = 0; c < n; c++) {
      if (!columns.some((other, r) => other === c || Math.abs(other - c) === row - r)) list.push(c);
    }
    return list;
  };
  const visit = (row: number, weight: number): void => {
    if (row === depth) {
      tasks.push({ columns: columns.slice(), weight });
      return;
    }
    const list = safe(row);
    if (list.length === 0) {
      dead.failure += weight;
      dead.failureNodes += weight * (1 + row);
      return;
    }
    const branch = weight / list.length;
    for (const c of list) {
      columns.push(c);
      visit(row + 1, branch);
      columns.pop();
    }
  };
  visit(0, 1);
  return { tasks, dead };
}

async function exactStats(run: Run, stopVegas: number, rowsDone: number): Promise<LasVegasStats> {
  const { engine, n, pacer } = run;
  const start = now();
  const { tasks, dead } = exactTasks(n, stopVegas);
  // Subtree sums weighted by their probability, added in task order; dead ends first
  // (there are none unless n <= 3, where no subtree reaches depth 2).
  let success = dead.success, failure = dead.failure, successNodes = dead.successNodes, failureNodes = dead.failureNodes;
  const progress = (done: number): LasVegasProgress => ({
    phase: "exact", n, stopVegas, done, total: tasks.length, rowsDone, rowsTotal: run.rowsTotal, elapsedMs: pacer.elapsed(),
  });
  const walker = engine.openLasVegasExact(n, stopVegas);
  try {
    for (let i = 0; i < tasks.length; i++) {
      checkStop(run, `lasVegasStats(${n}, stopVegas ${stopVegas}, exact)`);
      const { columns, weight } = tasks[i];
      const sub = walker.walk(columns);
      success += weight * sub.success;
      failure += weight * sub.failure;
      successNodes += weight * sub.successNodes;
      failureNodes += weight * sub.failureNodes;
      if (i + 1 < tasks.length) await pacer.between(() => progress(i + 1)); // the last is reported by finish()
    }
  } finally {
    walker.close();
  }
  pacer.finish(progress(tasks.length));
  return {
    n, stopVegas, exact: true, trials: null, seed: null,
    ...finish(success, failure, successNodes, failureNodes),
    stderr: { p: 0, s: 0, e: 0, t: 0 },
    successes: null,
    engine: engine.name,
    ms: now() - start,
  };
}

function statsFor(run: Run, stopVegas: number, rowsDone: number): Promise<LasVegasStats> {
  return run.mode.exact
    ? exactStats(run, stopVegas, rowsDone)
    : monteCarlo(run, stopVegas, rowsDone, run.mode.trials, run.mode.seed);
}

/**
 * What one try of solve(n, { method: 'hybrid', stopVegas }) costs: p, s, e, t, by
 * Monte Carlo over `trials` seeded tries (try i is the solver's try i for the same
 * seed), or exactly with `exact: true` (1 <= n <= 14).
 * @example await lasVegasStats(8, { stopVegas: 3, exact: true }) // p 0.4931..., t 29.0...
 */
export async function lasVegasStats(n: number, options?: LasVegasStatsOptions): Promise<LasVegasStats> {
  checkInteger("n", n, 1, TREE_MAX_N);
  const opts = checkOptions<LasVegasStatsOptions>("lasVegasStats", options, STATS_OPTIONS);
  const prepared = prepare(n, opts);
  const stopVegas = optionalInteger("stopVegas", opts.stopVegas, 0, n, defaultStopVegas(n));
  const run: Run = { ...prepared, rowsTotal: 1 };
  return statsFor(run, stopVegas, 0);
}

/**
 * lasVegasStats for every stopVegas from 0 to n, and the one with the smallest t.
 * @example (await lasVegasTable(8, { exact: true })).best // 2
 */
export async function lasVegasTable(n: number, options?: LasVegasTableOptions): Promise<LasVegasTable> {
  checkInteger("n", n, 1, TREE_MAX_N);
  const opts = checkOptions<LasVegasTableOptions>("lasVegasTable", options, TABLE_OPTIONS);
  const prepared = prepare(n, opts);
  const run: Run = { ...prepared, rowsTotal: n + 1 };
  const rows: LasVegasStats[] = [];
  for (let stopVegas = 0; stopVegas <= n; stopVegas++) rows.push(await statsFor(run, stopVegas, stopVegas));
  let best = 0;
  for (const row of rows) if (row.t < rows[best].t) best = row.stopVegas;
  const { mode } = run;
  return {
    n,
    exact: mode.exact,
    trials: mode.exact ? null : mode.trials,
    seed: mode.exact ? null : mode.seed,
    rows,
    best,
    engine: run.engine.name,
    ms: run.pacer.elapsed(),
  };
}
