// A solve on the queue, as its coordinator and its workers both read it (internal): the
// queue's name, the tasks a run's record names (re-derived from its board alone, as a count's
// parts are), a job's id and data, a result, and the node budgets of the passes.
//
// Budgets: a task is searched in passes, as on threads (src/workers/solve-parallel.ts): its
// job of pass k (`task-I-pK`) may take SOLVE_FIRST_BUDGET * SOLVE_BUDGET_GROWTH^k nodes; a job
// that runs out answers "unfinished" and the coordinator enqueues pass k + 1, behind every job
// of pass k or less already waiting. A job is the unit a queue can hand back, lose, retry, audit and resume, so
// the passes are jobs, not a loop inside one worker: no worker sinks into one hard sub-board
// while a solution waits near the top of another task behind it in the queue, a coordinator
// that restarts finds every pass answered so far in Redis (a task decided is never searched
// again, an unfinished one goes on from its next pass), and the repeats cost what they cost
// on threads (at most about a third more nodes than the last pass's). A job costs the queue a
// few ms, under a pass's own time past the first passes. A replica's second search
// (`task-I-r1`) and a further one (`task-I-xK`) have no budget: they confirm a "none", so
// they search the task to its end.
//
// Beside the tasks, the whole board is searched by the restarting search alone (as on threads,
// where half the threads run it): its jobs `restarts-pK`, in passes too, each from the search's
// start (it keeps nothing between jobs), pass k with as many nodes as the tasks still open would
// take in their pass k together (restartsBudget). Jobs go by pass (BullMQ priorities: the
// restarting search's pass k, then the tasks' pass k; see SolveRunState.priorityOf). Its
// "found" is checked on the board and ends the run like a task's (and unmasks a worker that
// answered "none" for the task holding it); its "none" is no verdict (only the tasks' are, and
// the audit recounts those): it ends its passes, nothing more.
import type { Board } from "../board/board.js";
import { boardOf } from "../board/board.js";
import type { Square } from "../board/constraints.js";
import { CONSTRAINED_MAX_N } from "../count/constrained.js";
import { SOLVE_BUDGET_GROWTH, SOLVE_FIRST_BUDGET, SOLVE_TASKS, SOLVE_TASKS_VERSION, solveTasks, taskDigest, wholeBoardTask, type SolveTask } from "../count/solve-tasks.js";
import { checkInteger, describe } from "../core/validate.js";
import { invalid } from "../core/errors.js";
import type { JobSeal, SolveRunMeta } from "./keys.js";

export { SOLVE_TASKS_VERSION };

/** A solve run's record format. */
export const SOLVE_FORMAT = "nqueens-solve-run";

/** The queue a solve of this board uses by default: n, the board's digest, its tasks and their cut's version, so two boards never share one. */
export function solveQueueName(n: number, digest: string, tasks: number): string {
  checkInteger("n", n, 1, CONSTRAINED_MAX_N);
  if (typeof digest !== "string" || !/^[0-9a-f]{32}$/.test(digest)) throw invalid("board", ` must be a board's digest (32 hex digits), got ${describe(digest)}`, TypeError);
  return `nqueens-solve-n${n}-b${digest}-t${tasks}-sv${SOLVE_TASKS_VERSION}`;
}

/** The budget of pass k: SOLVE_FIRST_BUDGET * SOLVE_BUDGET_GROWTH^k nodes (null, none, once past 2^53). */
export function passBudget(pass: number): number | null {
  const budget = SOLVE_FIRST_BUDGET * SOLVE_BUDGET_GROWTH ** pass;
  return budget <= Number.MAX_SAFE_INTEGER ? budget : null;
}

/** The last pass a task can have: the first whose budget is none (it searches the task to its end, so no pass follows it). */
export const LAST_PASS = (() => {
  let k = 0;
  while (passBudget(k) !== null) k++;
  return k;
})();

/** A solve job's data: only its task's identity (the worker re-derives the task from the run's record), its budget, and the seal; `method` "restarts": the restarting search's job (index `tasks`, the whole board). */
export type SolveJob = { kind: "solve"; n: number; board: string; tasks: number; index: number; digest: string; budget: number | null; method?: "restarts" } & JobSeal;

/** What a worker answers: a solution's columns ("found"), or none with the nodes searched; `unfinished` when its budget ran out first. */
export type SolveAnswer = {
  kind: "solve"; task: number; tasks: number; digest: string; columns: number[] | null; nodes: number; unfinished?: true;
  worker: string; identity?: true; run?: string; job: string; mac?: string;
};

/** How a worker's reason for giving up a job of a decided run begins (its job then fails for good, which is no failure of the run). */
export const DECIDED_ALREADY = "the run is decided already", DECIDED_MEANWHILE = "the run was decided meanwhile";
const GIVEN_UP = new RegExp(`^job \\S+ of queue \\S+: (${DECIDED_ALREADY}|${DECIDED_MEANWHILE}) \\(`);

/** Whether a failed job's reason says its worker gave it up because the run was decided (listRuns counts it as no failure). */
export const givenUpAsDecided = (reason: unknown): boolean => typeof reason === "string" && GIVEN_UP.test(reason);

/** A job's slot: a pass of the search (`pK`), a replica's confirmation (`r1`), or a further one (`xK`). */
export type SolveSlot = { task: number; pass?: number; slot: "p" | "r1" | "x"; k: number };

export const passJobId = (task: number, pass: number): string => `task-${task}-p${pass}`;
export const confirmJobId = (task: number, k: number): string => (k === 0 ? `task-${task}-r1` : `task-${task}-x${k}`);

/** The restarting search's job of pass k. */
export const restartsJobId = (pass: number): string => `restarts-p${pass}`;

/** The pass of a restarting search's job id (undefined: no such job, a pass past LAST_PASS included). */
export function restartsPassOf(id: string): number | undefined {
  const m = /^restarts-p(0|[1-9]\d?)$/.exec(id);
  return m && Number(m[1]) <= LAST_PASS ? Number(m[1]) : undefined;
}

/**
 * The budget of the restarting search's pass k while `open` tasks are undecided: what their
 * pass k takes together (at least one task's), at most 2^53 - 1: never none, so its passes never
 * run to their end ahead of the tasks (the last pass ends them, unfinished or not).
 */
export function restartsBudget(pass: number, open: number): number {
  const budget = passBudget(pass) ?? Number.MAX_SAFE_INTEGER;
  return Math.min(Number.MAX_SAFE_INTEGER, budget * Math.max(1, open));
}

/** The restarting search's task in a run of these tasks: the whole board (their givens, no prefix), numbered after them (index `tasks`). */
export function restartsTask(tasks: readonly SolveTask[]): SolveTask {
  return wholeBoardTask(tasks[0]!, tasks.length, tasks.length);
}

/** The slot of job id `id` in a run of `tasks` tasks (undefined: not one of its jobs, a pass past LAST_PASS included). */
export function slotOfJobId(id: string, tasks: number): SolveSlot | undefined {
  const m = /^task-(0|[1-9]\d{0,6})-(p(0|[1-9]\d?)|r1|x([1-9]\d{0,3}))$/.exec(id);
  if (!m) return undefined;
  const task = Number(m[1]);
  if (task >= tasks) return undefined;
  if (m[3] !== undefined) {
    const pass = Number(m[3]);
    return pass > LAST_PASS ? undefined : { task, pass, slot: "p", k: pass }; // (no run enqueues a pass past the last)
  }
  return m[2] === "r1" ? { task, slot: "r1", k: 0 } : { task, slot: "x", k: Number(m[4]) };
}

/** A board as a solve's record holds it: n, its normal-form givens, its digest. */
export function recordedBoard(board: Board): SolveRunMeta["board"] {
  return { n: board.n, fixed: board.fixed.map(([r, c]) => [r, c]), blocked: board.blocked.map(([r, c]) => [r, c]), digest: board.digest };
}

/** Tasks derived per record (a worker takes many jobs of one run; the root's branch costs a search's root each time). */
const derived = new Map<string, SolveTask[]>();

/**
 * The tasks of the board a solve's record holds, re-derived from its lists alone (which must
 * give its digest), in the cut of this version: a worker reads nothing else of a task from
 * Redis. Throws an Error saying why the record names no such board.
 */
export function recordedTasks(meta: Partial<SolveRunMeta>): SolveTask[] {
  const b = meta.board;
  if (typeof b !== "object" || b === null || typeof b.digest !== "string" || b.n !== meta.n) throw new Error("the run's record holds no readable board");
  const cacheKey = JSON.stringify([b.n, b.fixed, b.blocked, b.digest]);
  let tasks = derived.get(cacheKey);
  if (tasks === undefined) {
    const board = boardOf(b.n, { fixed: b.fixed as Square[], blocked: b.blocked as Square[] }, { caller: "the run's board", plain: [1, CONSTRAINED_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
    if (board.digest !== b.digest) throw new Error(`the run's board has digest ${board.digest}, not the ${describe(b.digest)} its record says`);
    tasks = solveTasks(board, SOLVE_TASKS);
    if (derived.size >= 16) derived.clear();
    derived.set(cacheKey, tasks);
  }
  return tasks;
}

/**
 * The task a job names in the run its record describes, re-derived and checked against the
 * job's identity (board digest, tasks, index, the task's digest) and its budget. `refuse` says
 * why it names none (the worker fails the job at once).
 */
export function taskOfJob(data: Partial<SolveJob>, meta: SolveRunMeta, refuse: (why: string) => never): { task: SolveTask; budget: number | null; restarts: boolean } {
  for (const key of ["n", "tasks", "index"] as const) if (!Number.isSafeInteger(data[key])) refuse(`its ${key} is ${describe(data[key])}, not an integer`);
  if (typeof data.digest !== "string" || typeof data.board !== "string") refuse("its digest or board is not a digest");
  if (data.budget !== null && !(Number.isSafeInteger(data.budget) && (data.budget as number) >= 1)) refuse(`its budget is ${describe(data.budget)}, not a number of nodes (or null: to the end)`);
  if (meta.tasksVersion !== SOLVE_TASKS_VERSION) refuse(`the run's tasks are cut by version ${describe(meta.tasksVersion)}, not this worker's (${SOLVE_TASKS_VERSION})`);
  if (data.n !== meta.n || data.board !== meta.board?.digest || data.tasks !== meta.tasks) {
    refuse(`it is a task of n = ${data.n}, board ${data.board}, ${data.tasks} tasks; the run is n = ${meta.n}, board ${String(meta.board?.digest)}, ${meta.tasks} tasks`);
  }
  let tasks: SolveTask[];
  try {
    tasks = recordedTasks(meta);
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  if (tasks.length !== meta.tasks) refuse(`the run's board has ${tasks.length} tasks in this worker's cut, not the ${meta.tasks} its record says`);
  if (data.method !== undefined && data.method !== "restarts") refuse(`its method is ${describe(data.method)}, not "restarts" (or none: a task)`);
  const restarts = data.method === "restarts";
  if (restarts && data.index !== tasks.length) refuse(`it is the restarting search's job, whose index is ${tasks.length} (the number of tasks), not ${data.index}`);
  const task = restarts ? restartsTask(tasks) : tasks[data.index!];
  if (task === undefined) return refuse(`its index ${data.index} is not a task of ${tasks.length}`);
  if (taskDigest(task) !== data.digest) refuse(`its digest ${describe(data.digest)} is not that of ${restarts ? "the restarting search's whole board" : `task ${data.index} of ${tasks.length}`} (n = ${data.n})`);
  return { task, budget: data.budget ?? null, restarts };
}
