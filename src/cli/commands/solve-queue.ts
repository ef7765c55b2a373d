// nqueens solve N --queue URL: the complete search's tasks on `nqueens worker` processes
// through Redis (solveDistributed), with the count's queue flags (--key-file, --audit,
// --replicas, --identities, --revoked, --unauthenticated, --queue-name).
import type { Command } from "commander";
import type { Square } from "../../board/constraints.js";
import { InterruptedError, UsageError } from "../errors.js";
import { interruptSignal, queueConnection } from "../options.js";
import { err, inline } from "../output.js";
import { duration, plural, progressBar } from "../progress.js";
import { NO_KEY_HINT } from "../../distributed/auth.js";
import type { DistributedSolveResult } from "../../distributed/solve-coordinator.js";

export type QueueSolveCliOptions = {
  queue?: string; queueName?: string; keyFile?: string; audit?: number; replicas?: number;
  identities?: "allowed" | "required"; revoked?: string[]; unauthenticated?: boolean; timeout?: number;
};

/** The queue's own flags, which apply only with --queue. */
export const QUEUE_SOLVE_FLAGS = ["queueName", "keyFile", "audit", "replicas", "identities", "revoked", "unauthenticated"] as const;

/** "queue-name" from "queueName": a flag as typed. */
const flag = (name: string): string => `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/**
 * The flags of solve that a queue run refuses (they belong to one thread's search), checked
 * before anything runs; and the queue's flags without --queue.
 */
export function checkQueueSolveFlags(command: Command, opts: QueueSolveCliOptions & { method: string; workers?: unknown; seed?: unknown; stopVegas?: unknown; maxNodes?: unknown; maxSteps?: unknown; maxTries?: unknown }, givens: boolean): void {
  if (opts.queue === undefined) {
    const given = QUEUE_SOLVE_FLAGS.find((name) => opts[name] !== undefined);
    if (given) throw new UsageError(`${flag(given)} applies to a solve on Redis workers: add --queue URL (with --method complete)`);
    return;
  }
  if (!(opts.method === "complete" || (opts.method === "auto" && givens))) {
    throw new UsageError(`--queue spreads the complete search over Redis workers: it takes --method complete (or auto on a board with givens), not --method ${opts.method}`);
  }
  const oneThread = (["workers", "seed", "stopVegas", "maxNodes", "maxSteps", "maxTries"] as const).find((name) => opts[name] !== undefined);
  if (oneThread) throw new UsageError(`${flag(oneThread)} does not apply with --queue: the workers search the tasks to their end, in passes of growing node budgets`);
  if (command.getOptionValueSource("engine") === "cli" && (command.opts() as { engine?: string }).engine !== "wasm") {
    throw new UsageError("--engine does not apply with --queue: the workers search on the Wasm engine");
  }
  if (opts.unauthenticated && opts.keyFile !== undefined) throw new UsageError("--unauthenticated runs the solve without a key: it does not go with --key-file");
}

/** The solve on the queue, with a progress bar (tasks decided, workers, nodes) and Ctrl-C leaving the run in Redis. */
export async function solveOnQueue(n: number, givens: { fixed?: Square[]; blocked?: Square[] }, opts: QueueSolveCliOptions): Promise<DistributedSolveResult> {
  const { solveDistributed } = await import("../../distributed/index.js");
  const interrupt = interruptSignal();
  const bar = await progressBar("solve");
  let started = false;
  let last = { tasksDone: 0, tasksTotal: 0 };
  const r = await solveDistributed(n, {
    connection: queueConnection(opts.queue!), queue: opts.queueName, fixed: givens.fixed, blocked: givens.blocked,
    ...(opts.keyFile !== undefined ? { keyFile: opts.keyFile } : {}), ...(opts.unauthenticated ? { unauthenticated: true } : {}),
    audit: opts.audit, replicas: opts.replicas, identities: opts.identities, revoked: opts.revoked, timeoutMs: opts.timeout, signal: interrupt,
    onProgress: (p) => {
      last = p;
      if (!bar || p.elapsedMs < 500) return;
      const figures = `${p.tasksDone}/${p.tasksTotal} tasks decided | pass ${p.pass} | ${plural(p.workers, "worker")} | ${plural(p.nodes, "node")} | `;
      const payload = { n, phase: "search on the queue", figures, elapsed: duration(p.elapsedMs), etaText: "" };
      if (!started) { bar.start(1, 0, payload); started = true; }
      bar.update(0, payload);
    },
    onNotice: (message) => { bar?.stop(); started = false; err(`nqueens: ${inline(message)}\n`); },
  }).catch((error: unknown) => {
    if (interrupt.aborted) throw new InterruptedError(`interrupted; the run stays in Redis (${last.tasksDone} of ${last.tasksTotal || "?"} tasks decided): run the same command again to resume`);
    throw error;
  }).finally(() => bar?.stop());
  if (!r.authenticated && r.tasks > 0) err(`nqueens: ${NO_KEY_HINT}\n`);
  return r;
}

/**
 * The queue's figures, after the board or the verdict: "queue Q, 13 tasks (2 decided before this
 * run), 4 passes, 2 workers; authenticated, 1 task searched again by the coordinator" ("6 of 13
 * tasks decided (2 before this run)" on a timeout; "found by worker W (the restarting search) in
 * task 3, " after the queue's name when found).
 */
export function queueText(r: DistributedSolveResult): string {
  if (r.tasks === 0) return r.reason === "timeout" ? "stopped before any task was queued, no queue" : "decided at the board's root by the coordinator, no queue";
  const tasks = r.decided < r.tasks ? `${r.decided} of ${plural(r.tasks, "task")} decided (${r.resumed} before this run)` : `${plural(r.tasks, "task")} (${r.resumed} decided before this run)`;
  const by = r.found ? `found by ${inline(r.foundBy)}${r.task >= 0 ? ` in task ${r.task}` : ""}, ` : "";
  return `queue ${inline(r.queue)}, ${by}${tasks}, ${plural(r.passes, "pass", "passes")}, ${plural(r.workers, "worker")}; ` +
    `${r.authenticated ? "authenticated" : "not authenticated (no key)"}, ${plural(r.audited, "task")} searched again by the coordinator${r.replicas > 1 ? `, ${r.replicas} replicas` : ""}`;
}

/** After a queue solve's timeout: whether any worker answered meanwhile (none on the queue: how to start one), and that the run stays in Redis to resume. */
export function queueTimeoutText(r: DistributedSolveResult): string {
  if (r.tasks === 0) return ""; // the time ran out while the board was being cut: nothing is in Redis yet
  const start = `start \`nqueens worker --queue URL${r.authenticated ? "` with this run's key (NQUEENS_KEY or --key-file FILE)" : " --unauthenticated`"}`;
  const idle = r.answers > 0 ? "" : r.workers === 0 ? `; no worker took a task (none is on the queue: ${start})` : `; no worker answered a task in this run (${plural(r.workers, "worker")} on the queue)`;
  return `${idle}; the run stays in Redis: run the same command again to resume`;
}
