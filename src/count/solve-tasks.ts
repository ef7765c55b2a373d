// solve's tasks on threads (src/workers/solve-parallel.ts): a board cut into sub-boards, each
// searched by the complete search in its solving mode for a first solution, and a thread's
// answer checked. The cut is the complete search's own first choice where it can be had (its
// first real branch: the row, column or needed diagonal with the fewest squares after its filtering, past the
// levels with one square, a given queen's row or a line the filtering left one square; one task
// a square: the one search's tree cut where it first branches), else the prefix split of the
// lowest free rows (./constrained.ts, the constrained count's parts' split). Measured, one
// thread, Excluded Diagonals at n = 30, d = 33 and 34 (docs/solving.md): the root's branch found
// the solutions in 4.5 to 7.0M nodes, the prefix split at depth 2 in 7.0 to 42M. (A board with
// given queens branches first on their rows, one square each: the root's branch alone left it
// to the prefix split.)
import { EXHAUSTED, FOUND, RUNNING, type Engine, type EngineName, type Search, type SearchSplit } from "../engine/contract.js";
import { checkConstraints, satisfiesConstraints, type Constraints, type Square } from "../board/constraints.js";
import type { Board } from "../board/board.js";
import { ChunkSizer, now, runSteps, type Steps } from "../core/pacer.js";
import { ErrorCode, withCode } from "../core/errors.js";
import { describe, shown } from "../core/validate.js";
import { pickEngine } from "../engine/select.js";
import { CompleteSearch, NARROW_MAX_N } from "../engine/ts/complete.js";
import { verifyRepeats } from "../engine/ts/verify.js";
import { contentDigest } from "../core/digest.js";
import type { RestartsShare } from "../engine/ts/complete-wide.js";
import { RESTARTS_SHARE_MAX } from "../engine/ts/complete-portfolio.js";
import { CONSTRAINED_MAX_N, TASK_METHODS, constrainedPrefixSteps, openConstrainedSolve, prefixConstraints, type TaskMethod } from "./constrained.js";

/**
 * The version of the tasks' cut (the first real branch, past the lines with one square, else
 * the prefixes of SOLVE_TASKS; version 1 cut at the root's branch only where it had two squares
 * or more): a queue's solve run names it, so a worker with another cut refuses its jobs (by digest too).
 * Version 3: digests are SHA-256 (128 bits), no longer FNV-1a 64. Version 4: the first real
 * branch may be a diagonal every completion needs (its open squares), not only a row or column.
 * Version 5: a queue's run has the restarting search's jobs on the whole board beside its tasks
 * (src/distributed/solve-jobs.ts), which a worker of version 4 would take for tasks.
 */
export const SOLVE_TASKS_VERSION = 5;


/**
 * Where the board is cut at the lowest free rows' prefixes (no root branch to cut at, n > 64):
 * the least number of tasks, the prefixes at the shallowest depth with that many, one a task.
 */
export const SOLVE_TASKS = 64;
/** The nodes of a task's first pass on the queue. */
export const SOLVE_FIRST_BUDGET = 4096;
/** How many times more nodes each pass gives a task on the queue than the pass before. */
export const SOLVE_BUDGET_GROWTH = 4;

/** One task: the board's givens, and its sub-boards (each prefix's queens given too), searched in turn; task of tasks. */
export type SolveTask = { kind: "solve"; n: number; fixed: Square[]; blocked: Square[]; prefixes: Square[][]; task: number; tasks: number };

/**
 * What searching a task for a first solution found: a solution's columns (null: none), and the
 * nodes of its searches; `unfinished`: its budget ran out before the task was searched to the
 * end (columns null, and nothing proved).
 */
export type SolvedTask = { columns: number[] | null; nodes: number; unfinished?: true };

/** How a thread runs a task: the nodes it may use so far (a grant raises it), its budget, and what it does between chunks. */
export type SolveTaskControl = {
  /** The nodes the task may use in all, so far. */
  allowed(): number;
  /** The nodes this search of the task may take before it gives up unfinished (default: none, to the end). */
  budget?: number;
  /**
   * After each chunk, with the task's nodes so far (may throw to stop it); `waiting`: the task
   * has used all it may, and this resolves once allowed() has grown (or throws).
   */
  between(nodes: number, waiting: boolean): Promise<void>;
};

/**
 * The complete search's first real branch on a board of n <= 64 (after its filtering and
 * lookahead, past the levels with one square: CompleteSearch.firstBranch), as squares; null
 * where the search decides before it branches. Every solution of the board holds exactly one
 * of them (the filtering only removes squares no solution holds).
 */
function firstBranch(n: number, constraints: Constraints): Square[] | null {
  if (n > NARROW_MAX_N || constraints.conflict !== null) return null;
  const branch = new CompleteSearch(n, constraints.empty ? undefined : constraints, 0, Infinity).firstBranch();
  return branch && branch.squares;
}

/**
 * The tasks of a board: its first real branch, one square a task, where it has one (n <= 64);
 * else the prefixes of the lowest free rows at the shallowest depth with at least `asked` of
 * them, one a task (none at all: one task, the whole board).
 */
export function solveTasks(board: Board, asked: number): SolveTask[] {
  return runSteps(solveTaskSteps(board, asked));
}

/** solveTasks in steps: the prefix split's (0.5 s at n = 1000 with 900 given queens) a prefix a step. */
export function* solveTaskSteps(board: Board, asked: number): Steps<SolveTask[]> {
  const { n, constraints } = board;
  const branch = firstBranch(n, constraints);
  let prefixes = branch !== null ? branch.map((square) => [square]) : yield* constrainedPrefixSteps(constraints, asked);
  if (prefixes.length === 0) prefixes = [[]];
  const fixed = board.fixed as Square[], blocked = board.blocked as Square[];
  return prefixes.map((prefix, task) => ({ kind: "solve", n, fixed, blocked, prefixes: [prefix], task, tasks: prefixes.length }));
}

/**
 * The whole board as one task, task `task` (by default `tasks - 1`) of `tasks`: on threads, beside
 * the plain tasks of solveTasks, searched by the restarting search alone (one a share); on one
 * pool thread, the only task, searched by the portfolio (the one thread's search); on the queue,
 * the restarting search's jobs (restartsTask).
 */
export function wholeBoardTask(board: Pick<Board, "n" | "fixed" | "blocked">, tasks: number, task = tasks - 1): SolveTask {
  return { kind: "solve", n: board.n, fixed: board.fixed as Square[], blocked: board.blocked as Square[], prefixes: [[]], task, tasks };
}

/** Whether a board's columns hold one of the task's prefixes (every queen of it). */
export function holdsPrefix(task: SolveTask, columns: readonly number[]): boolean {
  return task.prefixes.some((prefix) => prefix.every(([r, c]) => columns[r] === c));
}

function mismatch(message: string): RangeError & { code: string } {
  return withCode(new RangeError(message), ErrorCode.partMismatch);
}

/** A task as a thread reads it: a board of n <= 1000 with valid givens, and lists of [row, col] squares; NQ_PART_MISMATCH otherwise. */
export function checkSolveTask(value: unknown): { task: SolveTask; constraints: Constraints } {
  const t = value as SolveTask;
  const label = `solve task ${describe(t?.task)} of ${describe(t?.tasks)}`;
  if (typeof value !== "object" || value === null || t.kind !== "solve") throw mismatch(`${label} is not one of solve's tasks`);
  try {
    if (!Number.isInteger(t.n) || t.n < 1 || t.n > CONSTRAINED_MAX_N) throw new Error(`n must be from 1 to ${CONSTRAINED_MAX_N}`);
    const constraints = checkConstraints(t.n, { fixed: t.fixed, blocked: t.blocked }, "a solve task");
    const isSquare = (q: unknown): boolean => Array.isArray(q) && q.length === 2 && q.every((x) => Number.isInteger(x) && x >= 0 && x < t.n);
    if (!Array.isArray(t.prefixes) || !t.prefixes.every((prefix) => Array.isArray(prefix) && prefix.every(isSquare))) {
      throw new Error(`its prefixes must be a list of lists of [row, col] pairs, got ${shown(t.prefixes)}`);
    }
    return { task: t, constraints };
  } catch (error) {
    throw mismatch(`${label} is not a valid task: ${(error as Error).message}`);
  }
}

/**
 * A task's search that can stop and go on: its sub-boards searched in turn for a first
 * solution, each by the complete search in its solving mode (its own root counted as a node),
 * in chunks of about 10 ms. Each run() is one slice: it never passes control.allowed() nodes,
 * gives up (unfinished) at control.budget nodes, and a later run() goes on from where the last
 * stopped, so a task searched slice by slice does the nodes of one search to its end. The
 * nodes run() answers (and reports) are the slice's own. close() frees the open search. (A pool
 * thread runs a task once, to its end or its budget: a queue job's pass; nothing is kept between.)
 */
export class TaskSearch {
  readonly task: SolveTask;
  private readonly constraints: Constraints;
  private readonly engine: Engine;
  private readonly sizer = new ChunkSizer();
  /** The sub-board being searched (task.prefixes' index), and its open search. */
  private at = 0;
  private search: Search | undefined;

  /** Checks the task first (checkSolveTask: NQ_PART_MISMATCH); `method`: how its sub-boards are searched (TaskMethod); `share`: the restarts' share. */
  constructor(value: unknown, engineName: EngineName | undefined, private readonly method: TaskMethod = "plain", private readonly share?: RestartsShare) {
    if (!TASK_METHODS.includes(method)) throw mismatch(`a solve task's method must be one of ${TASK_METHODS.join(", ")}, got ${shown(method)}`);
    if (share !== undefined && !(method === "restarts" && Number.isInteger(share.of) && Number.isInteger(share.turn) && share.of >= 1 && share.of <= RESTARTS_SHARE_MAX && share.turn >= 0 && share.turn < share.of)) {
      throw mismatch(`a solve task's share of the restarts must be { turn, of } with 0 <= turn < of <= ${RESTARTS_SHARE_MAX}, with method "restarts", got ${shown(share)}`);
    }
    const { task, constraints } = checkSolveTask(value);
    this.task = task;
    this.constraints = constraints;
    this.engine = pickEngine(engineName);
  }

  /** One slice of the task's search: a solution, none left (searched to its end), or unfinished at the budget. */
  async run(control: SolveTaskControl): Promise<SolvedTask> {
    const budget = control.budget ?? Infinity;
    let done = 0; // nodes of this slice in searches it finished
    let workFrom = this.search?.work() ?? 0, nodesFrom = this.search?.stats().nodes ?? 0; // the open search's, as the slice began
    const used = (): number => done + (this.search ? this.search.work() - workFrom : 0);
    const unfinished = (): SolvedTask => ({ columns: null, nodes: used(), unfinished: true });
    while (this.at < this.task.prefixes.length) {
      if (this.search === undefined) {
        const board = prefixConstraints(this.constraints, this.task.prefixes[this.at]);
        if (board.conflict !== null) {
          this.at++;
          continue;
        }
        if (used() >= budget) return unfinished();
        while (control.allowed() - used() < 1) await control.between(used(), true); // the search's root is its first node
        this.search = openConstrainedSolve(this.engine, this.task.n, board, this.method, this.share);
        workFrom = 0;
        nodesFrom = 0;
      }
      const search = this.search;
      for (;;) {
        const room = Math.min(control.allowed(), budget) - used();
        if (room < 1) {
          if (used() >= budget) return unfinished();
          await control.between(used(), true);
          continue;
        }
        const t0 = now();
        const status = search.run(search.work() + Math.min(this.sizer.get(), room));
        if (status === FOUND) return { columns: Array.from(search.columns()), nodes: done + search.stats().nodes - nodesFrom };
        if (status === EXHAUSTED) break;
        if (status !== RUNNING) throw new Error(`the complete search stopped with status ${status} while solving (a bug)`);
        this.sizer.observe(now() - t0);
        await control.between(used(), false);
      }
      done += search.stats().nodes - nodesFrom;
      this.close();
      this.at++;
    }
    return { columns: null, nodes: done };
  }

  /**
   * Gives away the untried branches at the shallowest open level of the open search
   * (Search.split), which it then skips: the prefixes of the sub-boards given away, each to be
   * searched as a task of its own (splitPrefixes). None where there is nothing to give: no open
   * search, one branch left, or a search that never splits (the portfolio, the restarts; n > 64).
   * Between chunks only (never inside a search's run).
   */
  split(): Square[][] {
    const got = this.search?.split?.() ?? null;
    return got === null ? [] : splitPrefixes(this.task.fixed, this.task.prefixes[this.at], got);
  }

  close(): void {
    this.search?.close();
    this.search = undefined;
  }
}

/**
 * The prefixes of the sub-boards a search's split gave away: the prefix of the sub-board it
 * searched, its path's queens but those given already (the board's, the prefix's), and one
 * branch's square.
 */
export function splitPrefixes(fixed: readonly Square[], prefix: readonly Square[], split: SearchSplit): Square[][] {
  const given = new Set([...fixed, ...prefix].map(([r]) => r));
  const base = [...prefix, ...split.path.filter(([r]) => !given.has(r))];
  return split.branches.map((square) => [...base, square]);
}

/** A task searched to its end (or its budget) in one slice: a thread's task where nothing is kept. */
export async function solveTaskChunked(value: unknown, engineName: EngineName | undefined, control: SolveTaskControl, method?: TaskMethod, share?: RestartsShare): Promise<SolvedTask> {
  const search = new TaskSearch(value, engineName, method, share);
  try {
    return await search.run(control);
  } finally {
    search.close();
  }
}

/**
 * Checks what a thread says it found in a task: nodes a count; columns null (unfinished or
 * not), or a board of n that keeps the task's givens and holds one of its prefixes (that no
 * two queens attack each other is the caller's check, verify). Returns a copy; NQ_PART_MISMATCH otherwise.
 */
export function checkSolvedTask(task: SolveTask, value: unknown, label = `the answer for solve task ${task.task} of ${task.tasks} (n = ${task.n})`): SolvedTask {
  if (typeof value !== "object" || value === null) throw mismatch(`${label} is ${describe(value)}, not a search's result`);
  const { nodes, columns: given, unfinished } = value as SolvedTask;
  if (!Number.isSafeInteger(nodes) || nodes < 0) throw mismatch(`${label} has nodes ${describe(nodes)}: not a count of a search`);
  if (unfinished !== undefined && (unfinished !== true || given !== null)) throw mismatch(`${label} has unfinished ${describe(unfinished)} with columns ${describe(given)}`);
  if (given === null) return { columns: null, nodes, ...(unfinished ? { unfinished } : {}) };
  if (!Array.isArray(given) || given.length !== task.n) throw mismatch(`${label} has columns ${describe(given)}, not a board of ${task.n}`);
  const columns: number[] = Array.from(given as unknown[], (c) => (Number.isInteger(c) && (c as number) >= 0 && (c as number) < task.n ? (c as number) : -1));
  const constraints = checkConstraints(task.n, { fixed: task.fixed, blocked: task.blocked }, "a solve task");
  if (columns.includes(-1) || !satisfiesConstraints(constraints, columns)) throw mismatch(`${label} breaks the board's given queens or blocked squares`);
  if (!holdsPrefix(task, columns)) throw mismatch(`${label} holds none of the task's prefixes`);
  return { columns, nodes };
}

/** A task's digest: the content digest (src/core/digest.ts) of its JSON (board, givens, prefixes, place): what a queue job names it by. */
export function taskDigest(task: SolveTask): string {
  const { n, fixed, blocked, prefixes, task: index, tasks } = task;
  return contentDigest(JSON.stringify({ v: SOLVE_TASKS_VERSION, n, fixed, blocked, prefixes, task: index, tasks }));
}

/**
 * What a worker elsewhere says it found in a task, checked on the board itself: checkSolvedTask
 * (nodes a count, the givens kept, one of the task's prefixes held) and, for a board, that no
 * two of its queens attack each other. Returns a copy; NQ_PART_MISMATCH otherwise.
 */
export function checkSolvedBoard(task: SolveTask, value: unknown, label?: string): SolvedTask {
  const checked = checkSolvedTask(task, value, label);
  if (checked.columns !== null && verifyRepeats(Int32Array.from(checked.columns)) !== 0) {
    throw mismatch(`${label ?? `the answer for solve task ${task.task} of ${task.tasks} (n = ${task.n})`} is not a solution: two of its queens attack each other`);
  }
  return checked;
}
