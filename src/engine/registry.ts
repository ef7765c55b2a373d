// The kernel registry: what each single-solution method is, in one table that every
// consumer reads: the engines (kernel names), solve (n range, caps, seeding,
// stopVegas, auto's rule), trace (which methods it can follow), crossCheck (the sizes
// it sweeps), the CLI (method choices and help) and the demo. Adding a method is
// adding a row here, its kernel in assembly/<file>.ts and its twin in src/engine/ts/<file>.ts
// (the TypeScript engine's table is typed by this one, so a missing twin fails the typecheck).
import { MIN_CONFLICTS_MAX_N } from "./ts/min-conflicts-params.js";
import { invalid } from "../core/errors.js";
import { checkInteger, describe } from "../core/validate.js";

/** The caps a method can take (exact on both engines). */
export type Limit = "maxNodes" | "maxSteps" | "maxTries";
export const LIMITS = ["maxNodes", "maxSteps", "maxTries"] as const satisfies readonly Limit[];

/** Largest n for the array-based tree searches (memory is a few bytes per row). */
export const TREE_MAX_N = 1_000_000;

/** Largest n for hill climbing (each scan of all swaps is O(n^2)). */
export const HILL_CLIMB_MAX_N = 100_000;

/** Largest n for the explicit construction (4-byte columns: 2 GB at the cap). */
export const CONSTRUCT_MAX_N = 500_000_000;

/**
 * Largest n min-conflicts takes by its index arithmetic (diagonal indices up to 2n - 2
 * in an i32). Memory narrows it further: 5 bytes per queen (2-bit diagonal counters from
 * n = 2^22) must fit in Wasm's 4 GiB, so n <= MIN_CONFLICTS_MAX_N (858,947,576), checked by
 * solve before anything is allocated.
 */
export const MIN_CONFLICTS_INDEX_MAX_N = 2 ** 30;

/** Largest n of the complete search (64-bit masks up to 64, the wide path's words and trail past it). */
export const COMPLETE_MAX_N = 1000;

/** What a method is. */
export type MethodSpec = {
  /** Its name in words, for menus ("hybrid (Las Vegas + backtracking)"). */
  title: string;
  /** One line for help texts. */
  summary: string;
  /** Export prefix of its Wasm kernel: `<kernel>Init`, `<kernel>Run`, `<kernel>Stat` (assembly/index.ts). */
  kernel: string;
  /** Its files: assembly/<file>.ts and the twin src/engine/ts/<file>.ts. */
  file: string;
  /** Largest n it accepts (memory or a documented practical limit); the smallest is 1. */
  maxN: number;
  /** The caps it takes (options of solve, exact on both engines). */
  limits: readonly Limit[];
  /** Whether it draws random numbers (and so reports its seed). */
  seeded: boolean;
  /**
   * Whether it takes `stopVegas` (0..n random rows, default defaultStopVegas(n)), passed
   * to the kernel as its parameter; the kernel parameter is 0 otherwise.
   */
  stopVegas: boolean;
  /** A local search: it counts steps (swaps) and reports the conflicts left, not nodes. */
  local: boolean;
  /** Whether trace() can follow it step by step (src/search/trace.ts). */
  traceable: boolean;
  /** Largest n crossCheck sweeps it at (what both engines answer in milliseconds). */
  crossCheckMaxN: number;
  /**
   * Constrained boards (given queens, blocked squares): whether the method
   * takes `fixed`/`blocked` (docs/constrained.md). Only the construction does not.
   */
  constraints: boolean;
};

export const METHODS = {
  backtrack: {
    title: "backtracking",
    summary: "depth-first backtracking, columns in increasing order (deterministic)",
    kernel: "backtrack", file: "backtrack",
    maxN: TREE_MAX_N, limits: ["maxNodes"], seeded: false, stopVegas: false, local: false, traceable: true,
    crossCheckMaxN: 24, constraints: true,
  },
  // Same arrays as backtrack (a few bytes per row); large n is a matter of patience, not memory.
  // Pure Las Vegas at n = 1000 practically never succeeds: crossCheck stops at 100.
  "las-vegas": {
    title: "Las Vegas",
    summary: "every row a random safe column; a dead end restarts",
    kernel: "lasVegas", file: "las-vegas",
    maxN: TREE_MAX_N, limits: ["maxNodes", "maxTries"], seeded: true, stopVegas: false, local: false, traceable: true,
    crossCheckMaxN: 100, constraints: true,
  },
  hybrid: {
    title: "hybrid (Las Vegas + backtracking)",
    summary: "stopVegas random rows, then backtracking over the rest",
    kernel: "hybrid", file: "hybrid",
    maxN: TREE_MAX_N, limits: ["maxNodes", "maxTries"], seeded: true, stopVegas: true, local: false, traceable: true,
    crossCheckMaxN: 200, constraints: true,
  },
  // O(n^2) swap evaluations per scan: n up to about 10^4 takes 1.5 s on Wasm; 10^5 still
  // ends in minutes (about 4 on Wasm), so that is the cap.
  "hill-climb": {
    title: "hill climbing",
    summary: "swaps that lower the diagonal conflicts of a random permutation; restarts at a local minimum",
    kernel: "hillClimb", file: "hill-climb",
    maxN: HILL_CLIMB_MAX_N, limits: ["maxSteps", "maxTries"], seeded: true, stopVegas: false, local: true, traceable: true,
    crossCheckMaxN: 200, constraints: true,
  },
  // 4 bytes per queen, in the caller's array only (the Wasm kernel writes through a 256 KB window).
  construct: {
    title: "explicit construction",
    summary: "the explicit construction (Hoffman, Loessi & Moore), O(n), no search",
    kernel: "construct", file: "construct",
    maxN: CONSTRUCT_MAX_N, limits: [], seeded: false, stopVegas: false, local: false, traceable: false,
    crossCheckMaxN: Infinity, constraints: false,
  },
  // 8 bytes per queen below 2^22, 5 from there; n = 10^8 in 0.55 GB. The checked maximum is the documented one, MIN_CONFLICTS_MAX_N
  // (what Wasm memory holds), not the looser index bound MIN_CONFLICTS_INDEX_MAX_N.
  "min-conflicts": {
    title: "min-conflicts",
    summary: "greedy start, then min-conflicts repair (Sosic & Gu's QS4), for very large n",
    kernel: "minConflicts", file: "min-conflicts",
    maxN: MIN_CONFLICTS_MAX_N, limits: ["maxSteps", "maxTries"], seeded: true, stopVegas: false, local: true, traceable: false,
    crossCheckMaxN: Infinity, constraints: true,
  },
  // Constrained boards: decides every instance, a row's open columns in one 64-bit mask.
  complete: {
    title: "complete search",
    summary: "bitboards, most constrained row or column first, early failure: decides constrained boards (n <= 1000)",
    kernel: "complete", file: "complete",
    maxN: COMPLETE_MAX_N, limits: ["maxNodes"], seeded: false, stopVegas: false, local: false, traceable: false,
    crossCheckMaxN: 64, constraints: true,
  },
} as const satisfies Record<string, MethodSpec>;

/** The single-solution search methods; each has one kernel file in assembly/ and its twin in src/engine/ts/. */
export type SearchMethod = keyof typeof METHODS;
export const SEARCH_METHODS = Object.keys(METHODS) as SearchMethod[];

/** The export prefix of a method's Wasm kernel. */
export type SearchKernel = (typeof METHODS)[SearchMethod]["kernel"];

/** Every method `solve` takes: the search methods, and 'auto', which picks one of them by n. */
export type Method = SearchMethod | "auto";
export const METHOD_NAMES: readonly Method[] = ["auto", ...SEARCH_METHODS];

/** The method used when none is given. */
export const DEFAULT_METHOD: Method = "auto";

/** Largest n 'auto' takes: that of the method it picks for large n (memory included); COMPLETE_MAX_N on a constrained board. */
export const AUTO_MAX_N = MIN_CONFLICTS_MAX_N;

/**
 * 'auto''s thresholds: backtracking for n <= 12 (it finds the first solution in a few
 * hundred nodes), hybrid with the default stopVegas for 13 <= n < 50, and min-conflicts
 * from n = 50 on (under a millisecond at n = 1000; hybrid takes hundreds there).
 * From `npm run bench -- --only las-vegas` and a sweep of solve() medians.
 */
export const AUTO_RULE = { backtrackMaxN: 12, hybridBelowN: 50 } as const;

/** What 'auto' runs for n (see AUTO_RULE); on a constrained board (given queens, blocked squares), the complete search. */
export function autoMethod(n: number, constrained = false): SearchMethod {
  checkInteger("n", n, 1, Number.MAX_SAFE_INTEGER);
  if (typeof constrained !== "boolean") throw invalid("constrained", ` must be true or false, got ${describe(constrained)}`, TypeError);
  if (constrained) return "complete";
  return n <= AUTO_RULE.backtrackMaxN ? "backtrack" : n < AUTO_RULE.hybridBelowN ? "hybrid" : "min-conflicts";
}

/** The default number of random rows of 'hybrid': 8, or n - 15 when n > 15, capped to n (the choice of Wang Xiaodong's textbook code; docs/references.md). */
export function defaultStopVegas(n: number): number {
  checkInteger("n", n, 1, Number.MAX_SAFE_INTEGER);
  return Math.min(n, n > 15 ? n - 15 : 8);
}

/** The methods that take stopVegas, as error messages name them: 'method "hybrid"'. */
export const STOP_VEGAS_METHODS = SEARCH_METHODS.filter((m) => METHODS[m].stopVegas);
export const stopVegasMethodsText = `method ${STOP_VEGAS_METHODS.map((m) => JSON.stringify(m)).join(" or ")}`;

/** The methods trace() can follow (traceable in the table). */
export type TraceMethod = { [M in SearchMethod]: (typeof METHODS)[M]["traceable"] extends true ? M : never }[SearchMethod];
export const TRACE_METHODS = SEARCH_METHODS.filter((m) => METHODS[m].traceable) as TraceMethod[];

/** The method a trace follows when none is given. */
export const DEFAULT_TRACE_METHOD: TraceMethod = "backtrack";

/**
 * crossCheck's other kernels (the methods' sizes are crossCheckMaxN above): the range
 * of n each is swept at. Listed in the order crossCheck runs them, around the methods.
 */
export const CROSS_CHECK_SIZES = {
  count: { minN: 1, maxN: 12 },
  solutions: { minN: 1, maxN: 9 },
  estimate: { minN: 4, maxN: 32 },
  lasVegasStats: { minN: 4, maxN: 20 },
} as const satisfies Record<string, { minN: number; maxN: number }>;

/**
 * The kernel names crossCheck knows, in its order: count, count on the GPU against Wasm
 * ('count:webgpu', run by default only where WebGPU has an adapter), solutions, one per
 * method ('solve:<method>'), the constrained boards ('solve:constrained' with the complete
 * search, 'count:constrained'), estimate, lasVegasStats.
 */
export const CROSS_CHECK_KERNELS: readonly string[] = [
  "count", "count:webgpu", "solutions", ...SEARCH_METHODS.map((m) => `solve:${m}`), "solve:constrained", "count:constrained",
  "estimate", "lasVegasStats",
];
