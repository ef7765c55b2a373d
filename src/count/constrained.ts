// Counting and enumerating the solutions of a constrained board: given
// queens and blocked squares, n <= 1000, by the complete search (assembly/complete.ts)
// in its counting mode (2) and its enumerating mode (1). The board's symmetry is
// broken by the constraints, so only the total is counted (count's `unique` is null).
//
// The split (count's tasks, and the parts of ./constrained-parts.ts): the lowest rows
// without a given queen are placed in every consistent way (the prefixes); each prefix is
// the same board with those queens given too, and the prefixes partition the solutions.
import { RUNNING, EXHAUSTED, type Engine, type Search } from "../engine/contract.js";
import { checkConstraints, constraintLists, isBlockedSquare, queenLines, type Constraints, type Square } from "../board/constraints.js";
import { ChunkSizer, Pacer, now, runSteps, yieldToEventLoop, type Steps } from "../core/pacer.js";
import { rangeError, invalid } from "../core/errors.js";
import { COMPLETE_PLAIN, COMPLETE_ROTATE, COMPLETE_WIDE, restartsShareParam } from "../engine/ts/complete.js";
import type { RestartsShare } from "../engine/ts/complete-wide.js";

/** Largest n of a constrained count or enumeration (the complete search's, COMPLETE_MAX_N). */
export const CONSTRAINED_MAX_N = 1000;

const MODE_SOLVE = 0;
const MODE_ENUMERATE = 1;
const MODE_COUNT = 2;

function openMode(engine: Engine, n: number, constraints: Constraints, mode: number): Search {
  return engine.openSearch("complete", n, {
    seed: 0, param: mode, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity,
    ...(constraints.empty ? {} : { constraints }),
  });
}

/** The complete search in its counting mode on a constrained board (a part's prefix, say). */
export function openConstrainedCount(engine: Engine, n: number, constraints: Constraints): Search {
  return openMode(engine, n, constraints, MODE_COUNT);
}

/**
 * How a solve task's sub-boards are searched (openConstrainedSolve): "plain", the 64-bit search
 * alone (COMPLETE_PLAIN), without the whole board's portfolio: a task is a subtree of one
 * search, and the portfolio's turns of its restarting search, started afresh in every task,
 * cost the tasks 1.5 times the one search's nodes on n = 30, d = 36 seed 4 (46.8M against
 * 31.2M), where the 64-bit search alone, task by task, does exactly its own one search's nodes;
 * "portfolio", solve's portfolio (the one thread's search), whose node limits are exact at every
 * node (the 64-bit search alone may pass one by its lookahead's step, up to n^2 nodes), for a
 * solve under a node cap and for one pool thread; "restarts", the portfolio's other search alone,
 * the wide path's restarting search with its restarts rotating through the root's first
 * branches (COMPLETE_WIDE | COMPLETE_ROTATE), beside the plain tasks on threads.
 */
export type TaskMethod = (typeof TASK_METHODS)[number];

/** The TaskMethods, for checks. */
export const TASK_METHODS = ["plain", "portfolio", "restarts"] as const;

/**
 * The complete search in its solving mode (a first solution) on a constrained board, a solve
 * task's sub-board, searched as `method` says; `share`: with "restarts", this search's share of
 * the rotating restarts (several threads dividing them: RestartsShare).
 */
export function openConstrainedSolve(engine: Engine, n: number, constraints: Constraints, method: TaskMethod = "plain", share?: RestartsShare): Search {
  const param = method === "plain" ? COMPLETE_PLAIN : method === "restarts" ? COMPLETE_WIDE | COMPLETE_ROTATE | (share ? restartsShareParam(share) : 0) : 0;
  return openMode(engine, n, constraints, MODE_SOLVE | param);
}

/** How many tasks count() splits a constrained board into (the prefixes of the shallowest split with this many), for its progress and ETA. */
export const CONSTRAINED_COUNT_TASKS = 256;

/** The smallest n count() splits (n = 12 with a blocked corner: 0.2 s in one search). */
export const CONSTRAINED_SPLIT_FROM_N = 13;

/**
 * Every solution of a constrained board counted, in chunks that honour the pacer (abort,
 * timeout, progress): the board split into tasks (the prefixes of splitConstrainedCount's
 * split, about CONSTRAINED_COUNT_TASKS of them: they partition the solutions), each counted
 * by the complete search, so that progress says how many are done and an ETA follows.
 */
export async function countConstrained(
  n: number, constraints: Constraints, engine: Engine, pacer: Pacer<{ nodes: bigint }> | Pacer<never>,
  progress: (nodes: bigint, tasksDone: number, tasksTotal: number, phase?: "split") => unknown,
): Promise<{ total: bigint; nodes: bigint; tasks: number }> {
  if (constraints.conflict !== null) return { total: 0n, nodes: 0n, tasks: 0 };
  const what = `count(${n}) with constraints`;
  const checkStop = (): void => pacer.throwIfStopped(what);
  // (Below CONSTRAINED_SPLIT_FROM_N a count takes well under a second: one task, no split to pay for.)
  // The split in slices that stop and report (0.5 s at n = 1000 with 143,602 blocked squares).
  const prefixes = n < CONSTRAINED_SPLIT_FROM_N ? [[]]
    : await (pacer as Pacer<unknown>).paced(constrainedPrefixSteps(constraints, CONSTRAINED_COUNT_TASKS), what, () => progress(0n, 0, 0, "split"));
  const sizer = new ChunkSizer(); // shared by the tasks: they are alike
  let total = 0n, nodes = 0n;
  for (const [done, prefix] of prefixes.entries()) {
    checkStop(); // (a prefix's board is checked afresh: 0.3 s there)
    const board = prefixConstraints(constraints, prefix);
    if (board.conflict !== null) continue;
    const search = openMode(engine, n, board, MODE_COUNT);
    try {
      for (;;) {
        const t0 = now();
        const status = search.run(search.work() + sizer.get());
        if (status === EXHAUSTED) break; // (a search that ended early says nothing of how long a full chunk takes)
        sizer.observe(now() - t0);
        if (status !== RUNNING) throw new Error(`the complete search stopped with status ${status} while counting (a bug)`);
        checkStop();
        await (pacer as Pacer<unknown>).between(() => progress(nodes + BigInt(search.stats().nodes), done, prefixes.length));
      }
      total += search.solutions!();
      nodes += BigInt(search.stats().nodes);
    } finally {
      search.close();
    }
    checkStop();
    if (done + 1 < prefixes.length) await (pacer as Pacer<unknown>).between(() => progress(nodes, done + 1, prefixes.length));
  }
  return { total, nodes, tasks: prefixes.length };
}

/** The same count in one synchronous call (a part's prefixes; no pacing). */
export function countConstrainedNow(n: number, constraints: Constraints, engine: Engine): { total: bigint; nodes: bigint } {
  if (constraints.conflict !== null) return { total: 0n, nodes: 0n };
  const search = openMode(engine, n, constraints, MODE_COUNT);
  try {
    const status = search.run(Infinity);
    if (status !== EXHAUSTED) throw new Error(`the complete search stopped with status ${status} while counting (a bug)`);
    return { total: search.solutions!(), nodes: BigInt(search.stats().nodes) };
  } finally {
    search.close();
  }
}

/**
 * A stream of the constrained board's solutions in the complete search's order (the
 * fewest-squares row first: not lexicographic). Each solution's columns are a fresh array.
 */
export function openConstrainedSolutions(n: number, constraints: Constraints, engine: Engine): { next(): Int32Array | null; close(): void } {
  if (constraints.conflict !== null) return { next: () => null, close() {} };
  const search = openMode(engine, n, constraints, MODE_ENUMERATE);
  let open = true;
  return {
    next() {
      if (!open) return null;
      const status = search.run(Infinity);
      if (status === EXHAUSTED) {
        open = false;
        search.close();
        return null;
      }
      return search.columns();
    },
    close() {
      if (open) search.close();
      open = false;
    },
  };
}

/**
 * The same stream, searched in chunks of about 10 ms (a board may hold no solution for hours
 * of search): between chunks the event loop runs and an aborted `signal` throws its reason.
 * Closed when the loop over it ends, however it ends.
 */
export async function* constrainedSolutionsPaced(n: number, constraints: Constraints, engine: Engine, signal?: AbortSignal): AsyncGenerator<Int32Array> {
  if (constraints.conflict !== null) return;
  const search = openMode(engine, n, constraints, MODE_ENUMERATE);
  const sizer = new ChunkSizer();
  try {
    for (;;) {
      signal?.throwIfAborted();
      const t0 = now();
      const status = search.run(search.work() + sizer.get());
      if (status === EXHAUSTED) return;
      if (status === RUNNING) {
        sizer.observe(now() - t0);
        await yieldToEventLoop();
      } else yield search.columns();
    }
  } finally {
    search.close();
  }
}

/**
 * Version of the constrained split (prefix rows, order, dealing) and of what a part's search
 * reports (its nodes, which the audit and replicas compare): bump when either changes. 2: the
 * per-colour bounds (complete search) cut the parts' trees on boards where the diagonal bounds pay.
 * 3: digests are SHA-256 (128 bits), no longer FNV-1a 64 (src/core/digest.ts).
 */
export const CONSTRAINED_SPLIT_VERSION = 3;

/** The rows without a given queen, lowest first (the rows a split places). */
function freeRows(constraints: Constraints): number[] {
  const rows: number[] = [];
  for (let r = 0; r < constraints.n; r++) if (constraints.fixedColumn[r] < 0) rows.push(r);
  return rows;
}

/** The deepest split: at most this many free rows are placed in prefixes. */
export const CONSTRAINED_MAX_DEPTH = 6;

/**
 * The prefixes of depth `depth`: the lowest `depth` rows without a given queen, placed in every
 * way consistent with each other, the given queens and the blocked squares (lexicographic).
 */
export function prefixesAt(constraints: Constraints, depth: number, limit = Infinity): Square[][] {
  return runSteps(prefixSteps(constraints, depth, limit));
}

/** prefixesAt in steps: a prefix extended by a row a step (1 to 2 ms at n = 1000 with 900 given queens). */
function* prefixSteps(constraints: Constraints, depth: number, limit = Infinity): Steps<Square[][]> {
  const { n } = constraints;
  if (constraints.conflict !== null) return [];
  const rows = freeRows(constraints);
  const attacks = (a: Square, b: Square): boolean => a[0] === b[0] || a[1] === b[1] || Math.abs(a[0] - b[0]) === Math.abs(a[1] - b[1]);
  let prefixes: Square[][] = [[]];
  for (let k = 0; k < depth && k < rows.length; k++) {
    const r = rows[k];
    // The row's squares neither blocked nor attacked by a given queen, once a row (a set of every
    // blocked square, and the given queens tried at every square of every prefix, took 0.45 s
    // at n = 1000 with 143,602 blocked squares, and 50 ms a prefix with 900 given queens).
    const open = new Uint8Array(n);
    for (let c = 0; c < n; c++) open[c] = isBlockedSquare(constraints, r, c) ? 0 : 1;
    for (let q = 0; q < n; q++) {
      const c = constraints.fixedColumn[q], d = Math.abs(q - r);
      if (c < 0) continue;
      open[c] = 0;
      if (c - d >= 0) open[c - d] = 0;
      if (c + d < n) open[c + d] = 0;
    }
    const next: Square[][] = [];
    for (const prefix of prefixes) {
      for (let c = 0; c < n; c++) {
        const square: Square = [r, c];
        if (!open[c] || prefix.some((p) => attacks(p, square))) continue;
        next.push([...prefix, square]);
        if (next.length > limit) throw rangeError(`the split places more than ${limit} prefixes in its first ${k + 1} free rows`);
      }
      yield 0;
    }
    prefixes = next;
  }
  return prefixes;
}

/** The shallowest depth (at most CONSTRAINED_MAX_DEPTH and the free rows) with at least `want` prefixes, and its prefixes, in steps. */
export function* depthSteps(constraints: Constraints, want: number): Steps<[number, Square[][]]> {
  const most = Math.min(CONSTRAINED_MAX_DEPTH, freeRows(constraints).length);
  for (let depth = 0; depth < most; depth++) {
    const prefixes = yield* prefixSteps(constraints, depth);
    if (prefixes.length >= want) return [depth, prefixes];
  }
  return [most, yield* prefixSteps(constraints, most)];
}

/** The prefixes of the shallowest split with at least `want` of them (see depthSteps). */
export function constrainedPrefixes(constraints: Constraints, want: number): Square[][] {
  return runSteps(constrainedPrefixSteps(constraints, want));
}

/** constrainedPrefixes in steps (count's and solve's split, paced). */
export function* constrainedPrefixSteps(constraints: Constraints, want: number): Steps<Square[][]> {
  return (yield* depthSteps(constraints, want))[1];
}

/**
 * The board of one prefix: the constraints with the prefix's queens given too. A prefix of the
 * split (each queen in range, on an open square, attacking no given queen nor another) is added
 * in O(n) on the board's own blocked squares (checking the whole lists again took 0.15 s a prefix
 * at n = 1000 with 143,602 blocked squares); any other is checked as givens are.
 */
export function prefixConstraints(constraints: Constraints, prefix: readonly Square[]): Constraints {
  if (prefix.length === 0) return constraints;
  const { n, fixedColumn } = constraints, lines = new Set<number>(), fixed = fixedColumn.slice();
  const take = (r: number, c: number): boolean => queenLines(n, r, c).every((line) => !lines.has(line) && lines.add(line));
  fixedColumn.forEach((c, r) => c < 0 || take(r, c));
  const open = ([r, c]: Square): boolean => [r, c].every((v) => Number.isInteger(v) && v >= 0 && v < n) && !isBlockedSquare(constraints, r, c) && take(r, (fixed[r] = c));
  if (constraints.conflict === null && prefix.every(open)) return { ...constraints, fixedColumn: fixed, empty: false };
  const lists = constraintLists(constraints);
  return checkConstraints(n, { fixed: [...lists.fixed, ...prefix], blocked: lists.blocked }, "a count part");
}

/** Refuses n outside the complete search's range for a constrained count. */
export function checkConstrainedN(n: number, what: string): void {
  if (n > CONSTRAINED_MAX_N) {
    throw invalid("n", ` must be an integer from 1 to ${CONSTRAINED_MAX_N} for ${what} with given queens or blocked squares, got ${n}`);
  }
}
