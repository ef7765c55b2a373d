// crossCheck's case table (the runner is ./crosscheck.ts): for each kernel, the cases of a
// sweep, how one case runs on one engine through the public functions (every solution
// verified by a check of its own, not the engines' verify kernel), the two engines compared,
// and the `nqueens` command that reproduces a case.
import type { CountEngineName, EngineName } from "../engine/contract.js";
import { count } from "../count/count.js";
import { estimate } from "./estimate.js";
import { lasVegasStats } from "./las-vegas-stats.js";
import { solutions } from "../count/solutions.js";
import { solve } from "../search/solve.js";
import { CROSS_CHECK_KERNELS, CROSS_CHECK_SIZES, METHODS, SEARCH_METHODS } from "../engine/registry.js";
import { Pacer } from "../core/pacer.js";
import { squaresText } from "../board/board.js";
import type { Square } from "../board/constraints.js";

/** One input of a kernel: the arguments of the public call, minus the engine. */
export type CrossCheckCase = { n: number; options: Record<string, unknown> };

type Kernel = {
  /** The cases of a sweep. */
  cases(sweep: Sweep): CrossCheckCase[];
  /** Runs the public function on one engine (the signal passed on, so that an abort stops a case within it). */
  run(input: CrossCheckCase, engine: EngineName, timeoutMs: number, signal?: AbortSignal): Promise<unknown>;
  /** The two engines compared (default 'wasm' and 'ts'). */
  engines?: readonly [CountEngineName, CountEngineName];
  /** The `nqueens` command that reproduces a case. */
  command(input: CrossCheckCase): string;
};

export type Sweep = { sizes: number[]; seeds: number[]; thorough: boolean };

const flag = (name: string, value: unknown): string => (value === undefined ? "" : ` --${name} ${value}`);

/** Rows checked between two looks at the signal: at 10^7 rows the random reads of the sets take about 1 s, so in slices. */
const CHECK_SLICE = 1 << 16;

/**
 * columns form a solution: n distinct columns, no shared diagonal (plain O(n) sets), checked in
 * slices that let the event loop run and an abort through (a board of 10^7 queens takes a second).
 */
async function independentlyValid(columns: ArrayLike<number>, signal?: AbortSignal): Promise<boolean> {
  const n = columns.length;
  const cols = new Uint8Array(n), sums = new Uint8Array(2 * n), diffs = new Uint8Array(2 * n);
  const pacer = new Pacer<undefined>({ signal });
  for (let from = 0; from < n; from += CHECK_SLICE) {
    if (from > 0) {
      await pacer.pause();
      signal?.throwIfAborted();
    }
    for (let r = from, end = Math.min(n, from + CHECK_SLICE); r < end; r++) {
      const c = columns[r];
      if (!Number.isInteger(c) || c < 0 || c >= n || cols[c] || sums[r + c] || diffs[r - c + n]) return false;
      cols[c] = sums[r + c] = diffs[r - c + n] = 1;
    }
  }
  return true;
}

/**
 * A seeded constrained board for the sweep: about a quarter of the squares
 * blocked, and one given queen (which may stand on a block or be attacked: such boards are
 * valid instances with no completion, and the engines must agree on that too).
 */
export function sweepBoard(n: number, seed: number): { fixed: [number, number][]; blocked: [number, number][] } {
  let x = (Math.imul(n, 0x9e3779b1) ^ Math.imul(seed, 0x85ebca6b)) >>> 0;
  const next = (): number => {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return x / 4294967296;
  };
  const blocked: [number, number][] = [];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (next() < 0.25) blocked.push([r, c]);
  return { fixed: [[Math.floor(next() * n), Math.floor(next() * n)]], blocked };
}

/** The constrained board's flags for the CLI. */
const givenFlags = (options: Record<string, unknown>): string => {
  return ` --fixed ${squaresText(options.fixed as Square[])} --blocked ${squaresText(options.blocked as Square[])}`;
};

/** A found board keeps every given queen and uses no blocked square. */
function honoursGivens(columns: ArrayLike<number>, options: Record<string, unknown>): boolean {
  return (options.fixed as [number, number][]).every(([r, c]) => columns[r] === c) &&
    (options.blocked as [number, number][]).every(([r, c]) => columns[r] !== c);
}

/** The sizes of a sweep a kernel of the registry's CROSS_CHECK_SIZES keeps. */
const within = (sizes: number[], kernel: keyof typeof CROSS_CHECK_SIZES): number[] =>
  sizes.filter((n) => n >= CROSS_CHECK_SIZES[kernel].minN && n <= CROSS_CHECK_SIZES[kernel].maxN);

export const KERNELS: Record<string, Kernel> = {
  count: {
    cases: ({ sizes }) => within(sizes, "count").map((n) => ({ n, options: {} })),
    run: ({ n }, engine, timeoutMs, signal) => count(n, { engine, timeoutMs, signal }),
    command: ({ n }) => `nqueens count ${n}`,
  },
  // count on the GPU against count on the Wasm engine: the same constellation search, so the
  // same total, unique and nodes (run by default where WebGPU has an adapter).
  "count:webgpu": {
    engines: ["webgpu", "wasm"],
    cases: ({ sizes }) => sizes.filter((n) => n <= 12).map((n) => ({ n, options: {} })),
    run: async ({ n }, engine, timeoutMs, signal) => {
      const { total, unique, nodes } = await count(n, { engine: engine as CountEngineName, timeoutMs, signal });
      return { n, total, unique, nodes };
    },
    command: ({ n }) => `nqueens count ${n}`,
  },
  solutions: {
    cases: ({ sizes }) => within(sizes, "solutions").map((n) => ({ n, options: {} })),
    run: async ({ n }, engine, _timeoutMs, signal) => {
      const all: Int32Array[] = [];
      for (const board of solutions(n, { engine })) {
        all.push(board);
        if ((all.length & 1023) === 0) signal?.throwIfAborted(); // (n <= 12: at most 14,200 boards)
      }
      for (const board of all) if (!(await independentlyValid(board, signal))) throw new Error("an enumerated board is not a solution");
      return all;
    },
    command: ({ n }) => `nqueens all ${n}`,
  },
  ...Object.fromEntries(
    SEARCH_METHODS.map((method): [string, Kernel] => [
      `solve:${method}`,
      {
        cases: ({ sizes, seeds }) => {
          // sizes each method handles in milliseconds (the registry's crossCheckMaxN)
          const usable = sizes.filter((n) => n <= METHODS[method].crossCheckMaxN);
          return METHODS[method].seeded
            ? usable.flatMap((n) => seeds.map((seed) => ({ n, options: { method, seed } })))
            : usable.map((n) => ({ n, options: { method } }));
        },
        run: async ({ n, options }, engine, timeoutMs, signal) => {
          const result = await solve(n, { ...options, engine, timeoutMs, signal });
          if (result.reason === "timeout") throw new Error(`timed out after ${timeoutMs} ms`);
          if (result.found && !(await independentlyValid(result.columns!, signal))) throw new Error("the columns found are not a solution");
          return result;
        },
        command: ({ n, options }) => `nqueens solve ${n} --method ${method}${flag("seed", options.seed)} --json`,
      },
    ]),
  ),
  // Constrained boards: the complete search and the constrained count.
  "solve:constrained": {
    cases: ({ sizes, seeds }) => sizes.filter((n) => n >= 4 && n <= 64).flatMap((n) => seeds.map((seed) => ({ n, options: { method: "complete", ...sweepBoard(n, seed) } }))),
    run: async ({ n, options }, engine, timeoutMs, signal) => {
      const result = await solve(n, { ...options, engine, timeoutMs, signal });
      if (result.reason === "timeout") throw new Error(`timed out after ${timeoutMs} ms`);
      if (result.found && !((await independentlyValid(result.columns!, signal)) && honoursGivens(result.columns!, options))) {
        throw new Error("the columns found are not a solution of the constrained board");
      }
      return result;
    },
    command: ({ n, options }) => `nqueens solve ${n} --method complete${givenFlags(options)} --json`,
  },
  "count:constrained": {
    cases: ({ sizes, seeds }) => sizes.filter((n) => n >= 4 && n <= 12).flatMap((n) => seeds.map((seed) => ({ n, options: sweepBoard(n, seed) }))),
    run: ({ n, options }, engine, timeoutMs, signal) => count(n, { ...options, engine, timeoutMs, signal }),
    command: ({ n, options }) => `nqueens count ${n}${givenFlags(options)} --json`,
  },
  estimate: {
    cases: ({ sizes, seeds, thorough }) =>
      within(sizes, "estimate").flatMap((n) => seeds.map((seed) => ({ n, options: { seed, samples: thorough ? 2000 : 200 } }))),
    run: ({ n, options }, engine, timeoutMs, signal) => estimate(n, { ...options, engine, timeoutMs, signal }),
    command: ({ n, options }) => `nqueens estimate ${n}${flag("samples", options.samples)}${flag("seed", options.seed)} --json`,
  },
  lasVegasStats: {
    cases: ({ sizes, seeds, thorough }) =>
      within(sizes, "lasVegasStats").flatMap((n) =>
        seeds.map((seed) => ({ n, options: { seed, stopVegas: Math.min(n, 3 + (seed % n)), trials: thorough ? 2000 : 200 } })),
      ),
    run: ({ n, options }, engine, timeoutMs, signal) => lasVegasStats(n, { ...options, engine, timeoutMs, signal }),
    command: ({ n, options }) =>
      `nqueens lv-stats ${n}${flag("stop-vegas", options.stopVegas)}${flag("trials", options.trials)}${flag("seed", options.seed)} --json`,
  },
};

/** The kernels crossCheck knows, in the registry's order (CROSS_CHECK_KERNELS). */
export const KERNEL_NAMES: string[] = [...CROSS_CHECK_KERNELS];
