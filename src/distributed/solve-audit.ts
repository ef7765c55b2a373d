// The audit of a solve on the queue (internal): the coordinator searches again, itself, a
// sample of the workers' "no solution here" answers, each task to its end. A "found" needs no
// audit (it is checked on the board itself); a "none" can only be checked by searching again.
// As the count's audit (./auditor.ts) does, it takes each "none" with probability `fraction`
// (AuditSampler, drawn from node:crypto, so no worker can foresee which), and once every task
// is in, one more of each worker's (drawn the same way) not searched yet, so every worker is
// checked. It also searches the tasks the coordinator must decide itself (a revoked worker's,
// a replica's confirmation no other worker took). A solution found where a worker said "none"
// stops the run (the state's `found` decides what that means).
import { randomInt } from "node:crypto";
import { solveTaskChunked, type SolveTask } from "../count/solve-tasks.js";
import { AuditSampler } from "./audit.js";

export type SolveAuditSetup = {
  tasks: readonly SolveTask[]; fraction: number; signal: AbortSignal | undefined;
  /** The coordinator's own search of task t found this solution (may throw: the run's verdict). */
  found: (task: number, columns: number[]) => Promise<void>;
  /** The coordinator's own search of task t found none. */
  none: (task: number) => void;
  /** Told, once a search of its own has run this long and again after each such stretch, which task the coordinator searches (the run waits on it, not on the workers). */
  notice: (message: string) => void;
  stallNoticeMs: number;
  /** The queue's name and the run's tasks, as the notice names them. */
  name: string;
};

/** A uniform draw in [0, 1) from node:crypto: the score that makes each worker's pick at the end a random one of its answers. */
/** A task's audit: not searched (0), searched and found none, searched and found a solution. */
const NONE = 1, FOUND = 2;

const draw = (): number => randomInt(2 ** 30) / 2 ** 30;

export class SolveAudit {
  /** Tasks the coordinator searched itself. */
  audited = 0;
  /** Nodes of those searches. */
  nodes = 0;
  onDone: () => void = () => {};
  /** Each task's audit (0, NONE, FOUND). */
  private readonly checked: Uint8Array;
  private readonly waiting: number[] = [];
  private searching: Promise<void> | undefined;
  private error: unknown;
  private readonly sampler: AuditSampler;
  private toppedUp = false;
  private readonly stopper = new AbortController();

  constructor(private readonly s: SolveAuditSetup) {
    this.checked = new Uint8Array(s.tasks.length);
    this.sampler = new AuditSampler(s.fraction);
  }

  /** The audit's failure (a worker found lying, or the search could not be made), thrown where the run goes on. */
  rethrow(): void {
    if (this.error) throw this.error;
  }

  /** Worker w answered "none" for task t (accepted): drawn for the sample, and a candidate for its worker's pick at the end. */
  accepted(t: number, w: number): void {
    if (this.s.fraction > 0 && this.sampler.offer(w, t, draw())) this.queue(t);
  }

  /** Task t is searched by the coordinator (once, whatever asks for it; asked again, its answer is given again). */
  queue(t: number): void {
    this.waiting.push(t);
    this.search();
  }

  /** Searches what waits, unless a search is running; a task queued while the last one ended (after its loop saw none waiting) starts it again. */
  private search(): void {
    if (this.searching) return;
    this.searching = this.searchAll().catch((e) => { this.error = e; }).finally(() => {
      this.searching = undefined;
      if (this.waiting.length > 0 && !this.error) this.search();
      this.onDone();
    });
  }

  private async searchAll(): Promise<void> {
    while (this.waiting.length > 0) {
      const t = this.waiting.shift()!;
      // Searched already (it was drawn for the sample before it had to be settled): its answer
      // stands, "none" (a solution would have ended the run), and is given again, so a task
      // asked for twice is decided, never left waiting.
      if (this.checked[t]) {
        if (this.checked[t] === NONE) this.s.none(t);
        continue;
      }
      const stop = this.stopper.signal, outer = this.s.signal;
      const started = performance.now();
      let said = started;
      // On this thread, in chunks of about 10 ms, the coordinator's poll loop running between them.
      const answer = await solveTaskChunked(this.s.tasks[t], "wasm", {
        allowed: () => Infinity,
        between: async (nodes) => {
          const at = performance.now();
          if (at - said >= this.s.stallNoticeMs) {
            said = at;
            this.s.notice(`queue ${this.s.name}: the coordinator is searching task ${t} of ${this.s.tasks.length} itself (the audit, or a task no trusted worker answered) for ${Math.round((at - started) / 1000)} s, ${nodes} nodes so far: the run waits on that search; Ctrl-C stops waiting, and the same command resumes`);
          }
          await new Promise((resolve) => setImmediate(resolve));
          if (stop.aborted) throw stop.reason;
          outer?.throwIfAborted();
        },
      });
      this.audited++;
      this.nodes += answer.nodes;
      this.checked[t] = answer.columns !== null ? FOUND : NONE;
      if (answer.columns !== null) await this.s.found(t, answer.columns);
      else this.s.none(t);
    }
  }

  /** Once every task is in: each worker's pick not searched yet is; true when the audit is done too. */
  finish(): boolean {
    this.rethrow();
    if (!this.toppedUp && this.s.fraction > 0) {
      this.toppedUp = true;
      for (const t of this.sampler.leastPlausible()) if (!this.checked[t]) this.queue(t);
    }
    if (this.searching) return false;
    this.rethrow();
    return true;
  }

  /** Stops a search in progress (the run is over). */
  close(): void {
    this.stopper.abort(Object.assign(new Error("the run is over"), { name: "AbortError" }));
  }
}
