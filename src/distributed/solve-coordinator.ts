// The coordinator of a solve on the queue: solveDistributed(n, { fixed, blocked }) decides a
// board by the complete search, as solve(n, { method: 'complete', workers }) does on threads,
// with the tasks of src/count/solve-tasks.ts (the search's root branch, one square a task)
// spread over the workers of the count's queue (startWorker, `nqueens worker`) and the count's
// machinery: the record and jobs MACed under the cluster key, the run's id, worker identities,
// the audit, replicas, and a run resumed after a stop (./drive.ts, ./queue-run.ts). Its own
// parts: the tasks' jobs and passes (./solve-jobs.ts), the answers' checks (./solve-state.ts),
// the audit of "none" answers (./solve-audit.ts). Beside the tasks, as on threads, the whole board
// is searched by the restarting search alone, in passes of its own (its solution ends the run; its
// "none" is no verdict). The root is searched here first: a board its root decides is answered
// without Redis.
import type { KeyInput } from "../core/key.js";
import type { Square } from "../board/constraints.js";
import { satisfiesConstraints } from "../board/constraints.js";
import { boardOf, type Board } from "../board/board.js";
import { COMPLETE_MAX_N } from "../engine/registry.js";
import { EXHAUSTED, FOUND } from "../engine/contract.js";
import { ErrorCode, withCode } from "../core/errors.js";
import { afterMs } from "../core/timer.js";
import { checkInteger, checkOptions, optionalFunction, optionalSignal } from "../core/validate.js";
import { SOLVE_TASKS, solveTaskSteps, taskDigest, type SolveTask } from "../count/solve-tasks.js";
import { searchRoot } from "../engine/root-probe.js";
import { mapSteps, runStepsUntil, type Steps } from "../core/pacer.js";
import { verifyRepeats } from "../engine/ts/verify.js";
import { connect, redisOptions, type Connection } from "./redis.js";
import { queueLibraries } from "./deps.js";
import { redact } from "./redact.js";
import { keylessChoice } from "./auth.js";
import { DEFAULT_AUDIT, checkQueueName, keyOptions, timings } from "./coordinator.js";
import { driveRun } from "./drive.js";
import type { RunMeta, SolveRunMeta } from "./keys.js";
import { SOLVE_FORMAT, SOLVE_TASKS_VERSION, recordedBoard, solveQueueName } from "./solve-jobs.js";
import { SolveRunState } from "./solve-state.js";

export type SolveDistributedOptions = {
  /** Redis: a URL such as redis://user:password@host:6379 (rediss:// for TLS) or ioredis options. */
  connection: Connection;
  /** Queens given in advance, [row, col] pairs, 0-based. */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based (an Excluded Diagonals board's, say). */
  blocked?: readonly Square[];
  /** Queue name (default solveQueueName: n, the board's digest, its tasks); a queue that holds another run is refused. */
  queue?: string;
  /** The cluster key, as countDistributed's (default: the file `keyFile`, else NQUEENS_KEY); without one the run is refused (NQ_KEY) unless `unauthenticated`. */
  key?: KeyInput;
  keyFile?: string;
  /** true: run without a key, as asked (`authenticated: false`: anyone who can write to Redis can change the answer). */
  unauthenticated?: boolean;
  /**
   * The share of the workers' "no solution here" answers the coordinator searches again itself,
   * to the task's end, drawn at random, 0 to 1 (default 0.03; besides, one of each worker's at
   * the end; 0: no audit). A solution found where a worker said none stops the run, NQ_AUDIT_MISMATCH naming it.
   */
  audit?: number;
  /** 1 (default) or 2: with 2 a task's "none" stands once two different workers said it. */
  replicas?: number;
  /** As countDistributed's: "required" takes only answers under worker identities. */
  identities?: "allowed" | "required";
  /** Worker identities whose answers are never taken: the coordinator searches their tasks itself. */
  revoked?: readonly string[];
  /** Stops waiting (the jobs stay queued; run again to resume); rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Stops waiting after this long and answers `found: false`, reason 'timeout' (the run stays in Redis; run again to resume). */
  timeoutMs?: number;
  /** Called as the coordinator sees tasks decided, at most every 200 ms, and once at the end. */
  onProgress?: (progress: DistributedSolveProgress) => void;
  /** Told of faults the coordinator survives (an answer refused, the run put back), that no worker is on the run (as countDistributed's), and why it waits. */
  onNotice?: (message: string) => void;
  connectTimeoutMs?: number;
  pollMs?: number;
  lostAfterMs?: number;
  stallNoticeMs?: number;
};

export type DistributedSolveProgress = {
  phase: "search"; n: number;
  /** Tasks decided "none" so far (those of an earlier run of this command included), of all the tasks. */
  tasksDone: number; tasksTotal: number; tasksResumed: number;
  /** Nodes of every answer read so far (repeated passes included). */
  nodes: number;
  /** The highest pass enqueued (each gives a task SOLVE_BUDGET_GROWTH times the nodes of the one before). */
  pass: number;
  /** Workers connected to the queue, as Redis sees them. */
  workers: number;
  elapsedMs: number;
};

/** What every answer of solveDistributed holds. */
export type DistributedSolveBase = {
  n: number; method: "complete"; engine: "wasm"; seed: null;
  /** Nodes of every answer taken (repeated passes included), the root's, and the audit's own searches. */
  nodes: number; tries: 1; steps: 0; ms: number;
  /** The tasks the board was cut into (0: its root decided it here, without Redis). */
  tasks: number;
  /** Tasks decided before this call (a run resumed). */
  resumed: number;
  /**
   * Tasks decided by the end, those before this call included: every task once the board is
   * decided (a solution, or none); fewer when the time ran out (reason 'timeout').
   */
  decided: number;
  /** Answers the workers gave that this call read (every pass's, "unfinished" ones included): 0 when no worker took a task meanwhile. */
  answers: number;
  queue: string;
  /** Whether jobs and answers were MACed under a key. */
  authenticated: boolean;
  /** Tasks the coordinator searched itself (the audit, and tasks no other worker would take). */
  audited: number;
  replicas: number;
  /** Workers connected to the queue when it ended (on a timeout, at the coordinator's last look). */
  workers: number;
  /** Passes the tasks took (the highest enqueued, plus one). */
  passes: number;
};

/** What solveDistributed answers; `found` narrows it, as solve's does. */
export type DistributedSolveResult = DistributedSolveBase & (
  | {
    found: true; columns: Int32Array; reason?: undefined; conflict?: undefined;
    /** The task holding the solution (whoever found it: a task's search, the restarting search, the audit); -1 where the root or a stored record answered. */
    task: number;
    /** Who found it: "worker W", "worker W (the restarting search)", the coordinator's own search, or an earlier run's record. */
    foundBy: string;
  }
  | { found: false; columns: null; reason: "no-solution" | "timeout" | "conflict"; conflict?: { reason: string; squares: Square[] } }
);

/**
 * Decides a board by the complete search over a BullMQ queue that workers (startWorker,
 * `nqueens worker`) take its tasks from: the first solution found (checked on the board) ends
 * the run, every task searched to its end proves there is none. Run again after a stop, it
 * resumes (the tasks decided are not searched again).
 * @example const r = await solveDistributed(32, { connection: "redis://127.0.0.1:6379", blocked, keyFile: "cluster.key" }); // r.found
 */
// About 110 lines: the options, the answers given at once (givens in conflict, n = 2 or 3, a
// board its root decides), then ./drive.ts drives the run with the solve's state.
export async function solveDistributed(n: number, options: SolveDistributedOptions): Promise<DistributedSolveResult> {
  const opts = checkOptions<SolveDistributedOptions>("solveDistributed", options, [
    "connection", "fixed", "blocked", "queue", "key", "keyFile", "unauthenticated", "audit", "replicas", "identities", "revoked", "signal", "timeoutMs", "onProgress", "onNotice", "connectTimeoutMs", "pollMs", "lostAfterMs", "stallNoticeMs",
  ]);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "solveDistributed", plain: [1, COMPLETE_MAX_N], givens: [1, COMPLETE_MAX_N] });
  const redis = redisOptions(opts.connection as Connection);
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: DistributedSolveProgress) => void>("onProgress", opts.onProgress);
  const onNotice = optionalFunction<(message: string) => void>("onNotice", opts.onNotice);
  const notice = (message: string): void => onNotice?.(redact(message));
  const { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs, audit, replicas } = timings(opts);
  // 0, as solve on threads takes it: the answer 'timeout' once the board is cut, before any task is queued.
  const timeoutMs = opts.timeoutMs === undefined ? undefined : checkInteger("timeoutMs", opts.timeoutMs, 0, Number.MAX_SAFE_INTEGER);
  const { key, identities, revoked } = keyOptions(opts);
  checkQueueName(opts.queue);
  keylessChoice(opts.unauthenticated, opts.key !== undefined ? "key" : opts.keyFile !== undefined ? "keyFile" : undefined, key !== undefined); // NQ_KEY without a key, unless asked for
  signal?.throwIfAborted();
  const start = performance.now();
  const base = { n, method: "complete" as const, engine: "wasm" as const, seed: null, tries: 1 as const, steps: 0 as const, authenticated: key !== undefined, replicas };
  const none = { found: false as const, columns: null, tasks: 0, resumed: 0, decided: 0, answers: 0, audited: 0, workers: 0, passes: 0 };

  // Answered at once, as solve answers them: givens in conflict, n = 2 or 3, a board its root decides.
  const constraints = board.constraints;
  if (constraints.conflict !== null) {
    const { reason, squares } = constraints.conflict;
    return { ...base, ...none, nodes: 0, ms: performance.now() - start, queue: "", reason: "conflict", conflict: { reason, squares } };
  }
  if (n === 2 || n === 3) return { ...base, ...none, nodes: 0, ms: performance.now() - start, queue: "", reason: "no-solution" };
  const root = searchRoot(n, constraints, "wasm");
  if (root.status === FOUND || root.status === EXHAUSTED) {
    const at = { ...base, tasks: 0, resumed: 0, decided: 0, answers: 0, audited: 0, workers: 0, passes: 0, nodes: root.nodes, ms: performance.now() - start, queue: "" };
    return root.columns ? { ...at, found: true, columns: root.columns, task: -1, foundBy: "the coordinator (the root)" } : { ...at, found: false, columns: null, reason: "no-solution" };
  }

  // The tasks and their digests (a prefix, a digest a step: seconds on a large board) in slices
  // that check the signal and the time limit.
  const split = await runStepsUntil(taskSteps(board), () => signal?.aborted || (timeoutMs !== undefined && performance.now() - start >= timeoutMs));
  signal?.throwIfAborted();
  /** The answer to a time limit that came before the run was made in Redis (the cut, or connecting): nothing queued. */
  const unqueued = (): DistributedSolveResult => ({ ...base, ...none, nodes: root.nodes, ms: performance.now() - start, queue: "", reason: "timeout" });
  // (the time limit checked again here, so a limit already spent, 0 say, never races a refused connection)
  if (!split || (timeoutMs !== undefined && performance.now() - start >= timeoutMs)) return unqueued();
  const { tasks, digests } = split;
  const name = opts.queue ?? solveQueueName(n, board.digest, tasks.length);
  const record: SolveRunMeta = { format: SOLVE_FORMAT, n, tasks: tasks.length, tasksVersion: SOLVE_TASKS_VERSION, board: recordedBoard(board) };
  const same = (meta: RunMeta): boolean => meta.format === SOLVE_FORMAT && meta.n === n && meta.tasks === tasks.length && meta.tasksVersion === SOLVE_TASKS_VERSION &&
    typeof meta.board === "object" && meta.board !== null && meta.board.digest === board.digest && JSON.stringify([meta.board.fixed, meta.board.blocked]) === JSON.stringify([record.board.fixed, record.board.blocked]);

  // The wait: the caller's signal, and timeoutMs (then the answer says 'timeout').
  const waiting = new AbortController();
  const onAbort = (): void => waiting.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  const stopTimer = timeoutMs === undefined ? undefined : afterMs(timeoutMs, () => waiting.abort(timeUp));
  await queueLibraries(); // NQ_MISSING_DEPENDENCY before anything else
  let state: SolveRunState | undefined;
  /** The tasks resumed and the workers on the queue, as the drive last saw them (what a timeout reports). */
  const seen = { resumed: 0, workers: 0 };
  /** The figures of the run so far: nodes (the root's, every answer's, the audit's), tasks audited, passes, answers read in this call. */
  const figuresOf = (run: SolveRunState | undefined) => ({
    audited: run?.audit.audited ?? 0, passes: (run?.maxPass ?? 0) + 1, nodes: root.nodes + (run?.nodes ?? 0) + (run?.audit.nodes ?? 0), answers: run?.answersHere ?? 0,
  });
  const checks = { audit, replicas, identities };
  try {
    const client = await connect(redis, connectTimeoutMs, waiting.signal);
    const driven = await driveRun({
      name, redis, client, start, key, record, same, timing: { connectTimeoutMs, pollMs, lostAfterMs, stallNoticeMs }, replicas, signal: waiting.signal, notice, unit: "task", units: tasks.length, seen,
      makeRun: ({ runId, queue }) => (state = new SolveRunState({ name, client, queue, notice, stallNoticeMs, n, tasks, digests, board: board.digest, runId, key, audit, replicas, identities, revoked, signal: waiting.signal })),
      answered: (meta) => meta.format === SOLVE_FORMAT && meta.found !== undefined,
      onProgress: onProgress && ((p) => onProgress({
        phase: "search", n, tasksDone: state?.found ? tasks.length : p.done, tasksTotal: tasks.length, tasksResumed: p.resumed,
        nodes: figuresOf(state).nodes, pass: state?.maxPass ?? 0, workers: p.workers, elapsedMs: p.elapsedMs,
      })),
      // A "no solution" also keeps the checks it was reached under and whose answers it took, so a later call that asks for more does not take it as it stands.
      answer: (run) => ({
        found: run.found !== undefined, nodes: figuresOf(run).nodes,
        ...(run.found ? { columns: run.found.columns } : { checks, noneBy: run.noneWorkers() }),
      }),
      // Decided (a solution, or every task none): the jobs still waiting (the restarting search's pass, the tasks' others) are
      // removed, and the workers, told the run is over, stop the tasks in hand.
      conclude: async (queue) => { await queue.drain(true); },
    });
    const at = { ...base, tasks: tasks.length, resumed: driven.resumed, decided: tasks.length, queue: name, workers: driven.workers, ms: performance.now() - start };
    if (driven.stored) return storedAnswer(driven.stored as SolveRunMeta, at, board.constraints, { ...checks, revoked });
    const run = driven.run;
    const figures = figuresOf(run);
    if (!run.found) return { ...at, ...figures, found: false, columns: null, reason: "no-solution" };
    const columns = Int32Array.from(run.found.columns);
    // Checked once more against the whole board before it is returned: no two queens attack, every given kept.
    if (verifyRepeats(columns) !== 0 || !satisfiesConstraints(board.constraints, columns)) throw new Error("solveDistributed: a task's solution is not a solution of the given board (a bug)");
    return { ...at, ...figures, found: true, columns, task: run.found.task, foundBy: run.found.by };
  } catch (error) {
    // The time ran out: the answer says so, unless the error is a verdict or a failure of its own (coded), which stands.
    if (waiting.signal.reason !== timeUp || signal?.aborted || (error as { code?: unknown } | null)?.code !== undefined) throw error;
    if (state === undefined) return unqueued();
    return {
      ...base, ...figuresOf(state), found: false, columns: null, reason: "timeout", tasks: tasks.length, resumed: seen.resumed, decided: state.decided, queue: name, workers: seen.workers, ms: performance.now() - start,
    };
  } finally {
    stopTimer?.();
    signal?.removeEventListener("abort", onAbort);
    state?.close();
  }
}

/** The board's tasks and their digests, a prefix or a digest a step. */
function* taskSteps(board: Board): Steps<{ tasks: SolveTask[]; digests: string[] }> {
  const tasks = yield* solveTaskSteps(board, SOLVE_TASKS);
  return { tasks, digests: yield* mapSteps(tasks, taskDigest) };
}

/** The reason the wait is aborted with when timeoutMs runs out. */
const timeUp = Object.assign(new Error("timeoutMs ran out"), { name: "TimeoutError" });

/** The checks a call asks for, against which a stored "no solution" is weighed. */
type Checks = { audit: number; replicas: number; identities: "allowed" | "required"; revoked: ReadonlySet<string> };

/**
 * Why a stored "no solution" was reached under weaker checks than `asked` (undefined: it
 * stands): answers of a worker now revoked, a smaller audit, fewer replicas, or answers taken
 * without identities where they are now required. A record from before verdicts kept their
 * checks stands only where the call asks for nothing past the defaults.
 */
function weakerChecks(meta: SolveRunMeta, asked: Checks): string | undefined {
  const c = meta.checks, noneBy = Array.isArray(meta.noneBy) ? meta.noneBy.filter((w): w is string => typeof w === "string") : undefined;
  if (typeof c !== "object" || c === null || noneBy === undefined) {
    const more = asked.revoked.size > 0 || asked.audit > DEFAULT_AUDIT || asked.replicas > 1 || asked.identities === "required";
    return more ? "reached by an earlier version, whose record does not say under which checks" : undefined;
  }
  const revoked = noneBy.filter((w) => asked.revoked.has(w));
  if (revoked.length > 0) return `reached taking "none" answers of ${revoked.join(", ")}, now revoked`;
  if (!(c.audit >= asked.audit)) return `reached with audit ${String(c.audit)}, where this call asks for ${asked.audit}`;
  if (!(c.replicas >= asked.replicas)) return `reached with replicas ${String(c.replicas)}, where this call asks for ${asked.replicas}`;
  if (asked.identities === "required" && c.identities !== "required") return "reached taking answers without worker identities, which this call requires";
  return undefined;
}

/** A run answered before: its record's verdict (a solution checked on the board once more: a keyless record is anyone's; a "no solution" weighed against the checks asked for now). */
function storedAnswer(meta: SolveRunMeta, at: Omit<DistributedSolveBase, "audited" | "passes" | "nodes" | "answers">, constraints: Parameters<typeof satisfiesConstraints>[0], asked: Checks): DistributedSolveResult {
  const figures = { audited: 0, passes: 0, answers: 0, nodes: Number.isSafeInteger(meta.nodes) ? meta.nodes! : 0 };
  if (!meta.found) {
    const weaker = weakerChecks(meta, asked);
    if (weaker !== undefined) {
      throw withCode(new RangeError(`queue ${at.queue}: its record answers "no solution", ${weaker}; not taken: remove the run with \`nqueens runs --remove ${at.queue}\` and solve again, so its tasks are searched under these checks`), ErrorCode.queueMismatch);
    }
    return { ...at, ...figures, found: false, columns: null, reason: "no-solution" };
  }
  const columns = Array.isArray(meta.columns) && meta.columns.length === at.n && meta.columns.every((c) => Number.isInteger(c) && c >= 0 && c < at.n) ? Int32Array.from(meta.columns) : undefined;
  if (!columns || verifyRepeats(columns) !== 0 || !satisfiesConstraints(constraints, columns)) {
    throw withCode(new RangeError(`queue ${at.queue}: the run's record says a solution was found, but what it holds is not a solution of this board (remove the run with \`nqueens runs --remove ${at.queue}\` and solve again)`), ErrorCode.partMismatch);
  }
  return { ...at, ...figures, found: true, columns, task: -1, foundBy: "an earlier run (its record)" };
}
