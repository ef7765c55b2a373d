// solve(n, { workers }): the complete search spread over the thread pool. The board (plain or
// with givens) is cut into tasks (src/count/solve-tasks.ts): at the complete search's own first
// real branch (its row or column with the fewest squares, past the lines with one square; one
// square a task), or where that cannot be had (n > 64) at the constrained split's prefixes of
// the lowest free rows; each task's sub-board is searched by the complete search on a pool
// thread (src/workers/pool.ts, solve), in slices: a task's first slice may take
// SOLVE_FIRST_BUDGET nodes, and a task not finished by then goes to the back of the line, its
// search kept on its thread, for a next slice of twice as many (so no thread sinks into one hard
// sub-board while another holds a solution near its top). A slice goes on where the last stopped
// (its thread keeps the open search), so a task searched in slices does the nodes of one search
// to its end (a task kept by a busy thread waits for it: taken afresh by an idle one it would
// repeat its slices, which cost more than it saved). A thread left idle while the tasks wait on
// another has a held search give away the untried branches at the top of its stack (pool.ts
// share, TaskSearch.split): each becomes a task of its own (its prefix: the path's queens and
// the branch's square), and the held search skips them, so no subtree is searched twice or lost
// (n = 30, d = 36 seed 4: 27.06M nodes as without, the two threads busy to the end; not under
// maxNodes, whose portfolio tasks never split). With two threads or more, one more task
// comes first: the whole board searched as one thread searches it (the portfolio: the 64-bit
// search and the wide path's restarts in turns) for its first SOLVE_PORTFOLIO_NODES nodes, in
// one slice on its thread, so that a board the one thread decides early is decided as early
// (n = 30, d = 33 seed 1: its solution at 2.6M nodes, where 13 tasks in turn took 14.7M), and a
// board without a solution pays at most those nodes more; then its search is dropped. Its end is a
// proof as well. The first solution found stops the rest (the pool is closed: every thread
// ends); every plain task searched to its end proves there is none. A found board is checked
// by the pool against its task and here against the whole board (verify, and the givens) before
// it is returned. maxNodes is shared out: a task may use only the nodes granted to it, and asks for
// more when it has used them, so the threads' nodes never add up to more than the cap. The root
// is searched on this thread first (its first node or two): a board its root decides (the
// bounds prove many boards without a completion there) is answered without a thread.
// This file's solve is the package's: without `workers` it is search/solve.ts's, on this thread.
import {
  answerAtOnce, planSolve, solvePlanned, type SolveOptions, type SolvePlan, type SolveProgress, type SolveResult,
} from "../search/solve.js";
import { verify } from "../search/verify.js";
import { satisfiesConstraints } from "../board/constraints.js";
import {
  SOLVE_BUDGET_GROWTH, SOLVE_FIRST_BUDGET, SOLVE_TASKS, searchRoot, solveTaskSteps, wholeBoardTask, type SolveTask,
} from "../count/solve-tasks.js";
import { EXHAUSTED, FOUND, type SearchStatus } from "../engine/contract.js";
import { WorkerPool, availableCores, type ResumeToken, type SolveHandle } from "./pool.js";
import { runStepsUntil } from "../core/pacer.js";
import type { Square } from "../board/constraints.js";

// The tasks asked for and the passes' budgets are the queue's too (src/distributed/solve-jobs.ts):
// defined beside the tasks, so the queue's entry does not bundle this file.
export { SOLVE_TASKS, SOLVE_FIRST_BUDGET, SOLVE_BUDGET_GROWTH };
/** How many times more nodes each slice of a task gets on threads than its slice before (a slice goes on where the last stopped). */
export const SOLVE_SLICE_GROWTH = 2;
/**
 * The nodes of the whole board's search (the one-thread portfolio) beside the plain tasks on two
 * threads or more, in one slice: what the measured boards it finds sooner than the slices took
 * (2.6M at n = 30, d = 33 seed 1), with room; on a board without a solution they are spent in vain.
 */
export const SOLVE_PORTFOLIO_NODES = 2 ** 22;

/** What the tasks together came to: a solution, none (every task exhausted), the node cap used up (or the time limit, in the split). */
type Outcome = { columns: ArrayLike<number> } | { columns: null; reason: "no-solution" | "max-nodes" | "timeout" };

/** The whole board's complete search on this thread, to its root's verdict: its first node or two (never past the cap). */
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
  // The tasks (a prefix split: 0.5 s at n = 1000 with 900 given queens) in slices that stop at an abort or the time limit.
  const parts = await runStepsUntil(solveTaskSteps(board, SOLVE_TASKS), () => pacer.stopReason());
  pacer.throwIfAborted();
  if (!parts) return rootOnly({ columns: null, reason: "timeout" });
  // With two threads or more, one more task: the whole board searched as one thread searches it, for its first nodes.
  const whole = asked >= 2 ? wholeBoardTask(board, parts.length + 1) : undefined;
  const size = Math.min(asked, parts.length + (whole ? 1 : 0));
  const pool = new WorkerPool({ size, engine: plan.engine.name });
  pool.warm();

  /** Nodes granted at a time to a run that has used its own (with a finite cap). */
  const slice = Math.max(256, Math.ceil(cap / (8 * size)));
  /** One slice of a task's search on a thread: its nodes as last reported (final once done), and its grant. */
  type Run = { nodes: number; allowed: number; handle?: SolveHandle };
  let total = root.nodes, tasksDone = 0, pass = 0, open = parts.length, made = parts.length + (whole ? 1 : 0);
  let committed = root.nodes; // the cap's nodes granted or used: the root's, the runs' grants, the finished runs' nodes
  const wanting: Run[] = [];
  const progress = (): SolveProgress => ({
    phase: "search", conflicts: -1, method, n, nodes: total, tries: 1, steps: 0, elapsedMs: pacer.elapsed(),
    tasksDone, tasksTotal: tasksDone + open, workers: size, pass,
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
  // A task's slice k may take FIRST_BUDGET * GROWTH^k nodes; one that runs out goes on in slice k + 1, behind the tasks
  // waiting. The whole board's portfolio has one slice of SOLVE_PORTFOLIO_NODES, its thread's alone.
  const start = (task: SolveTask, k: number, resume?: ResumeToken): void => {
    const run: Run = { nodes: 0, allowed: cap === Infinity ? Infinity : 0 };
    const portfolio = task === whole;
    run.handle = pool.solve(task, {
      allowed: run.allowed,
      budget: portfolio ? SOLVE_PORTFOLIO_NODES : SOLVE_FIRST_BUDGET * SOLVE_SLICE_GROWTH ** k,
      exact: portfolio || cap !== Infinity, // the portfolio; and maxNodes is exact: the tasks' searches keep node limits at every node
      ...(resume === undefined ? {} : { resume }),
      // A thread idling while this task's search is held: its untried top branches become tasks (the portfolio never splits).
      ...(portfolio || cap !== Infinity ? {} : { onSplit: (prefixes: Square[][]) => {
        open += prefixes.length;
        for (const prefix of prefixes) start({ ...task, prefixes: [prefix], task: made++, tasks: made }, 0);
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
      if (portfolio) {
        if (result.unfinished) {
          pool.release(result.resume!); // its nodes are spent: the thread takes the tasks no thread keeps
        } else { // the whole board searched to its end: every task is proved with it
          tasksDone += open;
          open = 0;
          return settle({ columns: null, reason: "no-solution" });
        }
      } else if (result.unfinished) {
        pass = Math.max(pass, k + 1);
        start(task, k + 1, result.resume); // behind every task waiting
      } else {
        tasksDone++;
        if (--open === 0) return settle({ columns: null, reason: "no-solution" });
      }
      report();
      serve();
    }, fail);
  };
  if (whole) start(whole, 0); // first: the first thread takes it
  for (const task of parts) start(task, 0);

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
