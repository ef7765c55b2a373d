// A worker's solve jobs (internal; startWorker in ./queue-worker.ts takes them beside a count's
// parts): each job's task is re-derived from the run's record and checked (./solve-jobs.ts),
// searched on one of the worker's pool threads by the complete search within the job's node
// budget (src/count/solve-tasks.ts), and answered "found" with the board, "none" with the
// nodes, or "unfinished" (its budget ran out), MACed as a count's result is. A run decided
// elsewhere (a solution found: the coordinator writes it into the run's record and tells the
// workers) stops its tasks in hand within a chunk of the search, about 10 ms, and fails their
// jobs for good; a worker that leaves a run undecided (taken out of nqueens:runs, or not its
// key's) hands its tasks in hand back to the queue instead, without using up their attempts.
import type { Job } from "bullmq";
import type { Redis } from "ioredis";
import type { SolvedTask } from "../count/solve-tasks.js";
import type { WorkerPool } from "../workers/pool.js";
import { describe } from "../core/validate.js";
import { RESULT_DOMAIN, RUN_DOMAIN, signed, verifies, type WorkerIdentity } from "./auth.js";
import { metaKey, type SolveRunMeta } from "./keys.js";
import { ForeignRun, jobRecord } from "./intake.js";
import { DECIDED_ALREADY, DECIDED_MEANWHILE, SOLVE_FORMAT, slotOfJobId, taskOfJob, type SolveAnswer, type SolveJob } from "./solve-jobs.js";

/** What a worker says of a solve job it answered; `restarts`: the job was the restarting search's pass on the whole board (`task` is then the number of tasks). */
export type SolveEvent = { type: "searched"; queue: string; task: number; restarts?: true; answer: "found" | "none" | "unfinished"; nodes: number; ms: number };

type Bullmq = typeof import("bullmq");

export type SolveWorkerSetup = {
  client: Redis; key: Uint8Array | undefined; identity: WorkerIdentity | undefined; workerName: string;
  pool: WorkerPool;
  onSearched: (event: SolveEvent) => void;
  onRefused: (queue: string, message: string) => void;
  /** A job of a run this worker may not work on (ForeignRun's why): the worker leaves the run, saying why once; the job is handed back. */
  onForeign: (queue: string, why: string) => void;
  /** Whether the worker was stopped at once (close(true)): a task in hand goes back to the queue. */
  forced: () => boolean;
  errors: Pick<Bullmq, "UnrecoverableError" | "DelayedError" | "WaitingError">;
};

/** Whether a job is a solve's task (else a count's part): by its data's kind (the run's record then says whether it is one). */
export function isSolveJob(job: Job<unknown>): boolean {
  const data = job.data as { kind?: unknown } | null;
  return typeof data === "object" && data !== null && data.kind === "solve";
}

/** Why a run's tasks in hand stop: it was decided (their jobs fail for good), or this worker left it undecided (handed back). */
class Stopped extends Error {
  /** `found`: the verdict, when decided (a solution, or none). */
  constructor(readonly decided: boolean, readonly found?: boolean) {
    super(decided ? "the run is decided" : "this worker left the run");
  }
}

export function solveJobs(s: SolveWorkerSetup): {
  /** Searches a job's task; `left` says whether the worker left the run meanwhile (the job is then handed back, unsearched). */
  run(name: string, job: Job<unknown>, token?: string, left?: () => boolean): Promise<SolveAnswer>;
  /**
   * Stops the tasks in hand of run `name`: `decided` (its record holds a verdict) fails their
   * jobs for good, saying so; else (the worker leaves a run still undecided) they are handed back.
   */
  stop(name: string, decided: boolean): void;
  /** Reads run `name`'s record: when it holds a verdict (under a key, one its MAC covers), stops its tasks in hand as decided; whether it did. */
  checkDecided(name: string): Promise<boolean>;
  readonly searched: number;
} {
  const { UnrecoverableError, DelayedError, WaitingError } = s.errors;
  /** Per run: aborted when the run is decided or left, which stops its tasks in hand. */
  const stops = new Map<string, AbortController>();
  /** Per run: tasks this worker answered "none" (a replica's confirmation goes to another worker). */
  const noneHere = new Map<string, Set<number>>();
  let searched = 0;

  const stop = (name: string, decided: boolean, found?: boolean): void => {
    stops.get(name)?.abort(new Stopped(decided, found));
    stops.delete(name);
    noneHere.delete(name);
  };

  const run = async (name: string, job: Job<unknown>, token?: string, left?: () => boolean): Promise<SolveAnswer> => {
    const id = String(job.id ?? "?");
    const refuse = (why: string): never => {
      throw new UnrecoverableError(`refused job ${id} of queue ${name}: ${why}`);
    };
    const t0 = performance.now();
    const data = job.data as Partial<SolveJob> & { not?: unknown };
    let task, budget, restarts;
    try {
      if (typeof data !== "object" || data === null || Array.isArray(data)) refuse(`its data is ${describe(data)}, not a task's identity`);
      const meta = await jobRecord<SolveRunMeta>({ client: s.client, name, jobId: id, data, format: SOLVE_FORMAT, key: s.key, hasIdentity: s.identity !== undefined, refuse });
      // Decided already (a job taken just before the coordinator removed the waiting ones): given up, quietly.
      if (meta.found !== undefined) throw new UnrecoverableError(`job ${id} of queue ${name}: ${DECIDED_ALREADY} (${meta.found ? "a solution was found" : "it has no solution"}): not searched`);
      ({ task, budget, restarts } = taskOfJob(data, meta, refuse));
    } catch (error) {
      if (error instanceof UnrecoverableError && error.message.startsWith("refused ")) s.onRefused(name, error.message);
      if (!(error instanceof ForeignRun)) throw error;
      // Not this worker's run (another key, or none): left, and the job handed back for a worker with its key.
      s.onForeign(name, error.why);
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // A confirmation of a "none" (a replica's) is not this worker's when it said that "none",
    // nor a job that names it in `not`: put off for another worker.
    const mine = noneHere.get(name) ?? new Set<number>();
    noneHere.set(name, mine);
    const confirming = !restarts && slotOfJobId(id, task.tasks)?.slot !== "p";
    if ((Array.isArray(data.not) && data.not.includes(s.workerName)) || (confirming && mine.has(task.task))) {
      await job.moveToDelayed(Date.now() + 250, token);
      throw new DelayedError();
    }
    // Left while the run's record was read: handed back (a leave after this stops it below).
    if (left?.()) {
      await job.moveToWait(token);
      throw new WaitingError();
    }
    let stopper = stops.get(name);
    if (stopper === undefined) stops.set(name, (stopper = new AbortController()));
    const signal = stopper.signal;
    let answer: SolvedTask;
    try {
      // The restarting search's job: the whole board by that search alone (as on threads).
      answer = await s.pool.solve(task, { allowed: Infinity, budget: budget ?? Infinity, signal, onReport: () => {}, ...(restarts ? { method: "restarts" as const } : {}) }).done;
    } catch (error) {
      // Stopped at once (close(true)), or the worker left the run undecided: the task goes back
      // to the queue, without using up one of its attempts, for a worker on the run to take now
      // rather than after its lock (the run waits for one, and says so, when none is on it).
      const reason: unknown = signal.aborted ? signal.reason : undefined;
      if (s.forced() || (reason instanceof Stopped && !reason.decided)) {
        await job.moveToWait(token);
        throw new WaitingError();
      }
      // Decided meanwhile: the search is given up for good (the coordinator no longer wants it).
      if (reason instanceof Stopped) {
        const how = reason.found === false ? "the tasks proved it has no solution" : "a solution was found elsewhere";
        throw new UnrecoverableError(`job ${id} of queue ${name}: ${DECIDED_MEANWHILE} (${how}): ${restarts ? "the restarting search" : `task ${task.task}`} no longer searched`);
      }
      throw error;
    }
    if (answer.columns === null && !answer.unfinished && !restarts) mine.add(task.task);
    searched++;
    s.onSearched({ type: "searched", queue: name, task: task.task, ...(restarts ? { restarts: true as const } : {}), answer: answer.columns ? "found" : answer.unfinished ? "unfinished" : "none", nodes: answer.nodes, ms: performance.now() - t0 });
    // Who searched it, for which run and job: MACed with the answer under the key (or the identity's).
    const value: SolveAnswer = {
      kind: "solve", task: task.task, tasks: task.tasks, digest: data.digest!, columns: answer.columns, nodes: answer.nodes, ...(answer.unfinished ? { unfinished: true as const } : {}),
      worker: s.workerName, ...(s.identity ? { identity: true as const } : {}), ...(typeof data.run === "string" ? { run: data.run } : {}), job: id,
    };
    return signed(s.identity?.key ?? s.key, RESULT_DOMAIN, name, value);
  };

  const checkDecided = async (name: string): Promise<boolean> => {
    if (!stops.has(name)) return false; // nothing in hand
    const stored = await s.client.get(metaKey(name)).catch(() => null);
    let meta: Partial<SolveRunMeta> | undefined;
    try { meta = stored === null ? undefined : JSON.parse(stored) as Partial<SolveRunMeta>; } catch { /* not decided */ }
    // Under a key only a verdict the record's MAC covers (a forged one would only stop tasks
    // here: the coordinator, which writes its record back, decides the run).
    const decided = meta?.format === SOLVE_FORMAT && meta.found !== undefined && (!s.key || verifies(s.key, RUN_DOMAIN, name, meta));
    if (decided) stop(name, true, meta!.found === true);
    return decided;
  };

  return { run, stop, checkDecided, get searched() { return searched; } };
}
