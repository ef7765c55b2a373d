// solve(n, { workers }): the complete search spread over the thread pool, as the one thread's
// portfolio is two searches taking turns (src/engine/ts/complete-portfolio.ts: the 64-bit search,
// and the wide path's restarting search): on two threads or more each has threads of its own.
// Half the threads (restartsThreads: one of two, at most 16) search the whole board by the
// restarting search alone (restarts rotating through the root's first branches, as in the
// portfolio), each its share of the restarts (turn t of m: the restarts numbered t, t + m, ...,
// each the one search's restart of that number), to the end; the others take the 64-bit search's
// tree cut into tasks (src/count/solve-tasks.ts): at the complete search's own first real branch
// (its row, column or needed diagonal with the fewest squares, past the lines with one square;
// one square a task), or where that cannot be had (n > 64) at the constrained split's prefixes
// of the lowest free rows. Each task is searched by the 64-bit search alone on a pool thread
// (src/workers/pool.ts, solve) to its end, the tasks in the cut's order, so the tasks walk the
// one search's tree in its own order. So whichever of the portfolio's searches decides a board,
// it has a whole thread where the one thread gave it a turn: measured on two threads against
// one (2 cores), 0.40 to 0.54 of the time where that search decided it (n = 36, d = 33, seed 2,
// minFree 4, found by the restarting search: 48.6 s to 24.1 s; n = 30, d = 36, seed 4, proved by
// the 64-bit search: 10.2 to 5.5 s; n = 30, d = 33, seed 1: 3.1 to 1.3 s). (Before, the whole
// board's portfolio ran beside the tasks for its first 2^22 nodes and was then dropped, the
// tasks took turns in slices of growing budgets: the boards the restarting search finds were
// left undecided, the 64-bit search's finds took its slices' detours, and a proof took as long
// as on one pool thread.) A thread idle while every task is taken has a running task's search
// give away the untried branches at the top of its stack (pool.ts share, TaskSearch.split):
// each becomes a task of its own (its prefix: the path's queens and the branch's square), and
// the search skips them, so no subtree is searched twice or lost. On one pool thread (workers
// 1) the whole board is one task, searched by the portfolio: the one thread's search, off the
// caller's thread. The first solution found stops the rest (the pool is closed: every thread
// ends); every task searched to its end, or the restarting search's end, proves there is none.
// A found board is checked by the pool against its task and here against the whole board
// (verify, and the givens) before it is returned. maxNodes is shared out: a task may use only
// the nodes granted to it, and asks for more when it has used them, so the threads' nodes never
// add up to more than the cap (under a cap the tasks are searched by the portfolio, whose node
// limits are exact at every node, and never split). The root is searched on this thread first
// (searchRoot's probe, about 1,024 nodes of the plain tasks' search; under a cap the portfolio's
// first node or two): a board it decides (the bounds and the lookahead prove many boards
// without a completion there) is answered without a thread.
// This file's solve is the package's: without `workers` it is search/solve.ts's, on this thread.
import {
  answerAtOnce, planSolve, solvePlanned, type SolveOptions, type SolvePlan, type SolveProgress, type SolveResult,
} from "../search/solve.js";
import { verify } from "../search/verify.js";
import { satisfiesConstraints } from "../board/constraints.js";
import { SOLVE_TASKS, solveTaskSteps, wholeBoardTask, type SolveTask } from "../count/solve-tasks.js";
import { searchRoot } from "../engine/root-probe.js";
import { restartsThreads } from "../engine/ts/complete-portfolio.js";
import type { RestartsShare } from "../engine/ts/complete-wide.js";
import type { TaskMethod } from "../count/constrained.js";
import { EXHAUSTED, FOUND, type SearchStatus } from "../engine/contract.js";
import { WorkerPool, availableCores, type SolveHandle } from "./pool.js";
import { runStepsUntil } from "../core/pacer.js";
import type { Square } from "../board/constraints.js";

// The tasks asked for are the queue's too (src/distributed/solve-jobs.ts): defined beside the
// tasks, so the queue's entry does not bundle this file.
export { SOLVE_TASKS };
/** What the tasks together came to: a solution, none (every task exhausted), the node cap used up (or the time limit, in the split). */
type Outcome = { columns: ArrayLike<number> } | { columns: null; reason: "no-solution" | "max-nodes" | "timeout" };

/** The whole board's complete search on this thread, to its root's verdict: searchRoot's probe (never past the cap). */
function rootOf(plan: SolvePlan): { status: SearchStatus; nodes: number; columns: Int32Array | null } {
  return searchRoot(plan.n, plan.constraints, plan.engine.name, plan.caps.maxNodes);
}

/**
 * Finds one solution of the n-queens problem; with `workers`, by the complete search on that
 * many worker threads (the board's prefix split searched task by task; the first solution
 * found stops the rest).
 * @example const { columns } = await solve(8); // Int32Array [0, 4, 7, 5, 2, 6, 1, 3]
 * @example const r = await solve(30, { method: "complete", blocked, workers: 2 }); // r.found: the one thread's verdict
 */
export async function solve(n: number, options?: SolveOptions): Promise<SolveResult> {
  const plan = planSolve(n, options);
  return plan.workers === undefined ? solvePlanned(plan) : solveOnPool(plan);
}

/** A plan with `workers` run on the pool: the complete search's tasks, the first solution found, or every task exhausted. */
export async function solveOnPool(plan: SolvePlan): Promise<SolveResult> {
  const { board, method, n, caps, pacer, base } = plan;
  const asked = plan.workers === "auto" ? await availableCores() : plan.workers!;
  pacer.throwIfAborted();
  const early = answerAtOnce(plan);
  if (early) return { ...early, workers: 0, tasks: 0 }; // (the shape of every answer with workers: decided here, no thread)
  const cap = caps.maxNodes;
  const answer = (end: Outcome, stats: { nodes: number; workers: number; tasks: number }): SolveResult => {
    const figures = { ...stats, tries: 1, steps: 0 };
    if (end.columns === null) return { ...base, found: false, columns: null, ...figures, ms: pacer.elapsed(), reason: end.reason };
    const found = Int32Array.from(end.columns);
    // Checked against the whole board before it is returned: no two queens attack, every given kept.
    if (!verify(found, { engine: plan.engine.name }).ok || !satisfiesConstraints(board.constraints, found)) {
      throw new Error(`a solve task returned a board that is not a solution of the given board (a bug)`);
    }
    return { ...base, found: true, columns: found, ...figures, ms: pacer.elapsed() };
  };
  const root = rootOf(plan);
  const rootOnly = (end: Outcome): SolveResult => {
    pacer.finish({ phase: "search", conflicts: -1, method, n, nodes: root.nodes, tries: 1, steps: 0, elapsedMs: pacer.elapsed(), tasksDone: 0, tasksTotal: 0, workers: 0 });
    return answer(end, { nodes: root.nodes, workers: 0, tasks: 0 });
  };
  if (root.status === FOUND || root.status === EXHAUSTED || root.nodes >= cap) {
    return rootOnly(root.columns !== null ? { columns: root.columns } : { columns: null, reason: root.status === EXHAUSTED ? "no-solution" : "max-nodes" });
  }
  // One pool thread: the one thread's search (the portfolio) on it, the whole board one task. Two or more: the tasks
  // (a prefix split: 0.5 s at n = 1000 with 900 given queens, in slices that stop at an abort or the time limit), and
  // beside them the whole board searched by the restarting search alone on half the threads (restartsThreads: each its
  // share of the restarts), each on a thread of its own to the end.
  const single = asked === 1;
  const parts = single ? [wholeBoardTask(board, 1)] : await runStepsUntil(solveTaskSteps(board, SOLVE_TASKS), () => pacer.stopReason());
  pacer.throwIfAborted();
  if (!parts) return rootOnly({ columns: null, reason: "timeout" });
  const sharers = restartsThreads(asked);
  // The plain tasks' search: the 64-bit search alone; the portfolio where node limits must be exact (a cap), or on one thread.
  const searchBy: TaskMethod = single || cap !== Infinity ? "portfolio" : "plain";
  const size = Math.min(asked, parts.length + sharers);
  const pool = new WorkerPool({ size, engine: plan.engine.name });
  pool.warm();

  /** Nodes granted at a time to a run that has used its own (with a finite cap). */
  const slice = Math.max(256, Math.ceil(cap / (8 * size)));
  /** A task's search on a thread: its nodes as last reported (final once done), and its grant. */
  type Run = { nodes: number; allowed: number; handle?: SolveHandle };
  let total = root.nodes, tasksDone = 0, open = parts.length, made = parts.length + sharers;
  let committed = root.nodes; // the cap's nodes granted or used: the root's, the runs' grants, the finished runs' nodes
  const wanting: Run[] = [];
  const progress = (): SolveProgress => ({
    phase: "search", conflicts: -1, method, n, nodes: total, tries: 1, steps: 0, elapsedMs: pacer.elapsed(),
    tasksDone, tasksTotal: tasksDone + open, workers: size,
  });

  let settle!: (outcome: Outcome) => void, fail!: (error: unknown) => void;
  const outcome = new Promise<Outcome>((resolve, reject) => { settle = resolve; fail = reject; });
  // (a caller's onProgress that throws fails the solve, as on one thread, not the pool's message handler)
  const report = (): void => {
    try {
      pacer.report(progress);
    } catch (error) {
      fail(error);
    }
  };
  const took = (run: Run, nodes: number): void => {
    total += nodes - run.nodes;
    run.nodes = nodes;
  };
  // Grants to the runs waiting for nodes while the cap has some left; once every node is used, the cap has stopped the search.
  const serve = (): void => {
    while (wanting.length > 0 && committed < cap) {
      const run = wanting.shift()!;
      const more = Math.min(slice, cap - committed);
      run.allowed += more;
      committed += more;
      run.handle!.grant(run.allowed);
    }
    if (wanting.length > 0 && total >= cap) settle({ columns: null, reason: "max-nodes" });
  };
  // Each task is searched to its end (or a solution) on one thread, the tasks in the cut's order (the one search's);
  // with `share`, the whole board by the restarting search, that share of its restarts.
  const start = (task: SolveTask, share?: RestartsShare): void => {
    const run: Run = { nodes: 0, allowed: cap === Infinity ? Infinity : 0 };
    const whole = share !== undefined;
    run.handle = pool.solve(task, {
      allowed: run.allowed,
      ...(whole ? { method: "restarts", share } : { method: searchBy }),
      // A thread idling while every task is taken: a plain task's untried top branches become tasks of their own.
      ...(whole || searchBy !== "plain" ? {} : { onSplit: (prefixes: Square[][]) => {
        open += prefixes.length;
        for (const prefix of prefixes) start({ ...task, prefixes: [prefix], task: made++, tasks: made });
      } }),
      onReport: (nodes, waiting) => {
        took(run, nodes);
        report();
        if (waiting) {
          wanting.push(run);
          serve();
        }
      },
    });
    run.handle.done.then((result) => {
      took(run, result.nodes);
      if (cap !== Infinity) {
        committed -= run.allowed - result.nodes; // what it did not use goes back
        run.allowed = result.nodes;
      }
      if (result.columns !== null) return settle({ columns: result.columns });
      if (result.unfinished) throw new Error(`solve task ${task.task} of ${task.tasks} ended unfinished without a budget (a bug)`);
      if (whole) { // the whole board searched to its end: every task is proved with it
        tasksDone += open;
        open = 0;
        return settle({ columns: null, reason: "no-solution" });
      }
      tasksDone++;
      if (--open === 0) return settle({ columns: null, reason: "no-solution" });
      report();
      serve();
    }).catch(fail);
  };
  // First, so the first threads take them: the restarting search's shares, the whole board each.
  for (let turn = 0; turn < sharers; turn++) start(wholeBoardTask(board, parts.length + sharers, parts.length + turn), { turn, of: sharers });
  for (const task of parts) start(task);

  try {
    const race = await pacer.raceStop(outcome);
    if (race.stop === "aborted") pacer.throwIfAborted();
    pacer.finish(progress());
    const stats = { nodes: total, workers: size, tasks: made };
    if (race.stop !== undefined) return { ...base, found: false, columns: null, ...stats, tries: 1, steps: 0, ms: pacer.elapsed(), reason: "timeout" };
    return answer(race.value, stats);
  } finally {
    await pool.close(); // every thread ends: the tasks still searching stop with them
  }
}
