// One solve as its coordinator follows it (internal): its tasks' jobs (./queue-run.ts reads what
// finished or failed, as for a count), each answer verified (MAC, identity, the task it names)
// before it is believed: a "found" is checked on the board itself (no two queens attack, the
// givens kept, the task's square held), an "unfinished" gets the task's next pass, a "none"
// decides the task (with replicas 2, once a second worker says so too) and goes to the audit
// (./solve-audit.ts). The first solution found ends the run; a "none" shown false ends it too
// (NQ_AUDIT_MISMATCH, naming the worker). Every task decided "none" is the proof. Beside the
// tasks, the restarting search's passes on the whole board (unit T, after the tasks): only its
// "found" is taken (checked on the board, and against the "none" answers of the task holding it);
// its "none", or its job failed for good, only ends its passes.
import { ErrorCode, rephrased, withCode } from "../core/errors.js";
import { checkSolvedBoard, holdsPrefix, taskDigest, type SolveTask, type SolvedTask } from "../count/solve-tasks.js";
import { JOB_DOMAIN, RUN_DOMAIN, checkSeal, signed, verifies } from "./auth.js";
import { distrustKey } from "./keys.js";
import { QueueRun, type QueueRunSetup } from "./queue-run.js";
import { jobIdsIn } from "./job-checks.js";
import { SolveAudit } from "./solve-audit.js";
import { LAST_PASS, confirmJobId, passBudget, passJobId, restartsBudget, restartsJobId, restartsPassOf, restartsTask, slotOfJobId, type SolveAnswer, type SolveJob } from "./solve-jobs.js";

/** A task's state: nothing decided; decided "none"; one "none" in (replicas 2: a second is asked for); searched by the coordinator itself. */
const PENDING = 0, DECIDED = 1, ONE_NONE = 2, SETTLING = 3;
/** Extra confirmations a task may get when one worker gave both its "none"s (then the coordinator searches it). */
const MAX_EXTRA_JOBS = 2;

type Setup = QueueRunSetup & {
  n: number; tasks: readonly SolveTask[]; digests: readonly string[]; board: string; runId: string;
  key: Uint8Array | undefined; audit: number; replicas: number;
  identities: "allowed" | "required"; revoked: ReadonlySet<string>;
  signal: AbortSignal | undefined;
};

/** The solution the run found: in which task (the one holding it, when the restarting search found it), by whom. */
export type Found = { task: number; columns: number[]; by: string };

export class SolveRunState extends QueueRun {
  protected readonly unitName = "task";
  protected readonly jobName = "task";
  readonly audit: SolveAudit;
  /** Tasks decided "none" (every one: the proof). */
  decided = 0;
  /** Answers read (a pass unfinished included): what moves while a long pass is searched. */
  answers = 0;
  /** Answers read when the run started being watched (those of an earlier call); undefined before. */
  private answersBefore: number | undefined;
  /** Nodes of every answer read, repeated passes included. */
  nodes = 0;
  /** The highest pass of a task enqueued so far. */
  maxPass = 0;
  /** The restarting search's latest pass; -1 once its passes ended (its "none", or its job failed for good). */
  restartsPass = 0;
  found: Found | undefined;
  /** Workers by index, as their answers name them. */
  readonly names: string[] = [];

  private readonly T: number;
  /** The restarting search's task (the whole board, unit T) and its digest. */
  private readonly restarts: SolveTask;
  private readonly restartsDigest: string;
  /** The passes the restarting search had when its passes ended (its jobs stay in Redis). */
  private restartsJobs = 0;
  private readonly state: Uint8Array;
  /** The pass of each task's latest search job. */
  private readonly pass: Int32Array;
  /** Each task's latest confirmation (0: `-r1`, k: `-xK`), -1 before one. */
  private readonly confirm: Int32Array;
  /** The worker of each task's first "none" (replicas 2). */
  private readonly firstNone: Int32Array;
  /** The workers that answered "none" for a task. */
  private readonly noneBy = new Map<number, Set<number>>();
  private readonly readIds = new Set<string>();
  private readonly retried = new Set<number>();
  private readonly byName = new Map<string, number>();
  /** Workers caught answering "none" where a task holds a solution, in this run or an earlier one of it (read from Redis once). */
  private distrusted: Set<string> | undefined;

  constructor(private readonly s: Setup) {
    super(s);
    this.T = s.tasks.length;
    this.restarts = restartsTask(s.tasks);
    this.restartsDigest = taskDigest(this.restarts);
    this.state = new Uint8Array(this.T);
    this.pass = new Int32Array(this.T);
    this.confirm = new Int32Array(this.T).fill(-1);
    this.firstNone = new Int32Array(this.T).fill(-1);
    this.audit = new SolveAudit({
      tasks: s.tasks, fraction: s.audit, signal: s.signal, notice: s.notice, stallNoticeMs: s.stallNoticeMs, name: s.name,
      found: (t, columns) => this.foundIn(t, columns, "the coordinator's own search (the audit)"),
      none: (t) => { if (this.state[t] === SETTLING) this.decide(t); },
    });
    this.audit.onDone = () => this.onWake();
  }

  get accepted(): number { return this.decided; }
  get activity(): number { return this.answers + this.audit.audited; }
  /** Answers read since the run started being watched (those of workers in this call, not of an earlier one's). */
  get answersHere(): number { return this.answersBefore === undefined ? 0 : this.answers - this.answersBefore; }

  override watching(): void {
    super.watching();
    this.answersBefore = this.answers;
  }

  async finished(): Promise<boolean> {
    this.audit.rethrow();
    if (this.found) return true;
    if (this.decided < this.T) return false;
    // Every task "none": the answers seen but not read yet in this round first (a round reads
    // those seen when it began), so a solution of the restarting search that came meanwhile
    // (a liar unmasked) is not dropped by the proof.
    await this.readSeen();
    this.audit.rethrow();
    return this.found !== undefined || this.audit.finish();
  }

  /** The run is over: a search of the audit in progress stops. */
  close(): void {
    this.audit.close();
  }

  /** The workers whose "none" answers were taken (a "no solution" record keeps them). */
  noneWorkers(): string[] {
    const workers = new Set<number>();
    for (const by of this.noneBy.values()) for (const w of by) workers.add(w);
    return [...workers].map((w) => this.names[w]).sort();
  }

  private worker(name: string): number {
    let i = this.byName.get(name);
    if (i === undefined) { i = this.names.length; this.names.push(name); this.byName.set(name, i); }
    return i;
  }

  // ---- jobs ----------------------------------------------------------------------------

  protected jobData(id: string, t: number): SolveJob {
    const { n, board, runId, key, name } = this.s;
    if (t === this.T) {
      const body = { kind: "solve", n, board, tasks: this.T, index: t, digest: this.restartsDigest, budget: restartsBudget(restartsPassOf(id)!, this.T - this.decided), method: "restarts", run: runId, job: id };
      return signed(key, JOB_DOMAIN, name, body as SolveJob);
    }
    const slot = slotOfJobId(id, this.T)!;
    const first = this.firstNone[t];
    const not = slot.slot !== "p" && first >= 0 ? [this.names[first]] : undefined;
    return signed(key, JOB_DOMAIN, name, {
      kind: "solve", n, board, tasks: this.T, index: t, digest: this.s.digests[t], budget: slot.slot === "p" ? passBudget(slot.k) : null,
      run: runId, job: id, ...(not ? { not } : {}),
    } as SolveJob);
  }



  /** Each undecided task's latest job (its pass, or its confirmation), and the restarting search's latest pass, idempotent. */
  async enqueueAll(): Promise<void> {
    this.distrusted ??= await this.readDistrusted();
    // The restarting search's pass first, as its threads are started first on threads.
    const jobs: { id: string; unit: number }[] = this.restartsPass >= 0 ? [{ id: restartsJobId(this.restartsPass), unit: this.T }] : [];
    for (let t = 0; t < this.T; t++) {
      if (this.state[t] === PENDING) jobs.push({ id: passJobId(t, this.pass[t]), unit: t });
      else if (this.state[t] === ONE_NONE) jobs.push({ id: confirmJobId(t, this.confirm[t]), unit: t });
    }
    this.countJobs();
    await this.add(jobs);
  }

  /** Every job the run has made: each task's passes and confirmations so far, and the restarting search's passes. */
  private countJobs(): void {
    let jobs = this.restartsPass >= 0 ? this.restartsPass + 1 : this.restartsJobs;
    for (let t = 0; t < this.T; t++) jobs += this.pass[t] + 1 + (this.confirm[t] + 1);
    this.ownJobs = jobs;
  }

  private async next(id: string, t: number): Promise<void> {
    this.countJobs();
    await this.add([{ id, unit: t }]);
  }

  protected unitOf(id: string): number | undefined { return restartsPassOf(id) !== undefined ? this.T : slotOfJobId(id, this.T)?.task; }
  protected isRead(id: string): boolean { return this.readIds.has(id); }
  protected markRead(id: string): void { this.readIds.add(id); }
  protected clearRead(id: string): boolean { return this.readIds.delete(id); }
  protected settled(t: number): boolean { return this.found !== undefined || (t === this.T ? this.restartsPass < 0 : this.state[t] === DECIDED); }

  /** The restarting search's job failed for good: no verdict needs it, so its passes end (said once), and the run goes on. */
  protected spare(t: number, why: string): boolean {
    if (t !== this.T) return false;
    this.endRestarts(true); // (the failed job is removed)
    this.s.notice(`queue ${this.s.name}: the restarting search's job failed: ${why}; its passes end (the tasks decide the board without it)`);
    return true;
  }

  /**
   * The restarting search's passes end. Its latest pass, when that is not the one answered
   * (`answered`; true: the latest, gone already), is taken out of the queue if it still waits
   * (a run resumed may have queued it before reading the answer that ends them), so no worker
   * spends its time on it.
   */
  private endRestarts(answered: number | true): void {
    if (this.restartsPass < 0) return;
    const latest = this.restartsPass;
    this.restartsJobs = answered === true || answered < latest ? latest : latest + 1;
    if (answered !== true && answered < latest) void this.q.queue.remove(restartsJobId(latest)).catch(() => 0);
    this.restartsPass = -1;
    this.countJobs();
  }

  /**
   * Jobs go by pass (BullMQ priorities, FIFO within one): pass k's restarting search first
   * (2k + 1), then the tasks' pass k (2k + 2; a task's confirmation as its last pass). So a
   * worker that frees up takes the restarting search's next pass before the tasks' next ones but
   * never before their pass now: with two workers it gets about one, as on two threads, and on
   * one worker the turns alternate pass by pass, about as the portfolio's on one thread (its
   * pass has the open tasks' budget together, so it never outweighs them; FIFO alone
   * put its pass k behind every task's pass k already queued: n = 36, d = 33, seed 2, minFree 4,
   * which the restarting search finds in 21.4M nodes, was found by a task after 121M nodes on two
   * workers, 82 s).
   */
  protected priorityOf(id: string, t: number): number {
    if (t === this.T) return 2 * restartsPassOf(id)! + 1;
    const slot = slotOfJobId(id, this.T)!;
    return 2 * (slot.slot === "p" ? slot.k : this.pass[t]) + 2;
  }

  protected beforeRound(): void { this.audit.rethrow(); }

  protected pendingIds(): string[] {
    const ids: string[] = this.restartsPass >= 0 && this.found === undefined ? [restartsJobId(this.restartsPass)] : [];
    for (let t = 0; t < this.T; t++) {
      if (this.state[t] === PENDING) ids.push(passJobId(t, this.pass[t]));
      else if (this.state[t] === ONE_NONE) ids.push(confirmJobId(t, this.confirm[t]));
    }
    return ids;
  }

  // ---- answers -------------------------------------------------------------------------

  /** Verifies the answer stored for job `id` of task t and takes it in, or refuses it (searched again once, then the run stops). */
  protected async result(id: string, t: number, text: string): Promise<void> {
    const { n, key, name, runId } = this.s;
    const restarts = t === this.T;
    const slot = restarts ? { slot: "restarts" as const, k: restartsPassOf(id)! } : slotOfJobId(id, this.T)!;
    /** The node budget the job had (null: none, it searches to its end). */
    /** Whether the job had a node budget (the restarting search's always has one; a confirmation, or the tasks' last pass, none). */
    const budgeted = restarts || (slot.slot === "p" && passBudget(slot.k) !== null);
    const what = restarts ? `the restarting search's answer (n = ${n})` : `the answer for task ${t} of ${this.T} (n = ${n})`;
    let value: unknown = text;
    try { value = JSON.parse(text); } catch { /* refused by the checks */ }
    let answer: SolvedTask, worker: number, revoked: boolean, holder = t;
    let from = "";
    try {
      const seal = checkSeal(value, { key, identities: this.s.identities, revoked: this.s.revoked, queue: name, runId, job: id, what });
      from = ` (from worker ${seal.worker})`;
      const v = value as Partial<SolveAnswer>;
      if (v.kind !== "solve" || v.task !== t || v.tasks !== this.T || v.digest !== (restarts ? this.restartsDigest : this.s.digests[t])) {
        throw withCode(new RangeError(`${what} is not an answer for that ${restarts ? "search" : "task"} (its kind, task, tasks or digest differ)`), ErrorCode.partMismatch);
      }
      // A "found" is believed only once checked on the board: no two queens attack, every given kept, the task's square held.
      answer = checkSolvedBoard(restarts ? this.restarts : this.s.tasks[t], value, what);
      // A budget that ran out where the job had none (a confirmation, or the last pass, which searches to the end) is not an answer.
      if (answer.unfinished && !budgeted) throw withCode(new RangeError(`${what} says its budget ran out, but its job had none`), ErrorCode.partMismatch);
      // The restarting search's solution lies in one task (every solution holds one task's prefix): the one whose "none" answers it refutes.
      if (restarts && answer.columns !== null) holder = this.holderOf(answer.columns, what);
      worker = this.worker(seal.worker);
      revoked = seal.revoked;
    } catch (error) {
      const e = error as Error & { code?: string };
      if (this.settled(t) || this.state[t] === SETTLING) return; // nothing of it is needed
      if (this.retried.has(t)) {
        throw rephrased(e, `queue ${name}: ${e.message}${from}, again after searching it afresh (refused; remove the run with \`nqueens runs --remove ${name}\` and look at who writes to this Redis)`);
      }
      this.retried.add(t);
      this.s.notice(`queue ${name}: ${e.message}${from}; not taken: ${restarts ? "the restarting search's pass searched again" : `searching task ${t} again`}`);
      await this.rewrite(id, t);
      return;
    }
    this.answers++;
    this.nodes += answer.nodes;
    const distrusted = this.distrusted?.has(this.names[worker]);
    if (restarts) return this.restartsAnswer(slot.k, answer, this.names[worker], revoked || distrusted === true, holder);
    if (this.found || this.state[t] === DECIDED || this.state[t] === SETTLING) return;
    if (revoked || distrusted) {
      // A revoked identity's answer, or a worker's caught lying in this run, is never taken: the coordinator searches the task itself.
      this.state[t] = SETTLING;
      this.s.notice(`queue ${name}: task ${t} was searched by ${revoked ? "revoked" : "distrusted"} worker ${this.names[worker]}${distrusted ? " (caught answering \"none\" where a task holds a solution)" : ""}; not taken: the coordinator searches it itself`);
      this.audit.queue(t);
      return;
    }
    if (answer.columns !== null) return this.foundIn(t, answer.columns, `worker ${this.names[worker]}`);
    if (answer.unfinished) {
      // Its pass's budget ran out: the next pass, with SOLVE_BUDGET_GROWTH times more, behind the jobs of its pass or less waiting.
      const next = slot.k + 1;
      if (this.state[t] === PENDING && next > this.pass[t]) {
        this.pass[t] = next;
        this.maxPass = Math.max(this.maxPass, next);
        await this.next(passJobId(t, next), t);
      }
      return;
    }
    await this.none(t, worker);
  }

  /** The task whose prefix a solution holds; a solution that holds none is refused (NQ_PART_MISMATCH). */
  private holderOf(columns: readonly number[], what: string): number {
    const t = this.s.tasks.findIndex((task) => holdsPrefix(task, columns));
    if (t < 0) throw withCode(new RangeError(`${what} holds none of the tasks' squares, so it is no solution of the board's search`), ErrorCode.partMismatch);
    return t;
  }

  /**
   * The restarting search's pass k answered: its solution (in task `holder`) ends the run as a
   * task's would; "unfinished" queues its next pass; "none" ends its passes (no verdict: the tasks
   * decide), as does an answer of a revoked or distrusted worker (never taken, and nobody else
   * searches the whole board).
   */
  private async restartsAnswer(k: number, answer: SolvedTask, worker: string, untrusted: boolean, holder: number): Promise<void> {
    if (this.found || this.restartsPass < 0) return;
    if (untrusted) {
      this.s.notice(`queue ${this.s.name}: the restarting search's pass ${k} was searched by revoked or distrusted worker ${worker}; not taken: its passes end (the tasks decide the board)`);
      return this.endRestarts(k);
    }
    if (answer.columns !== null) return this.foundIn(holder, answer.columns, `worker ${worker} (the restarting search)`);
    // (its last pass, unfinished too, ends them: no pass follows it)
    if (!answer.unfinished || k + 1 > LAST_PASS) return this.endRestarts(k);
    if (k + 1 > this.restartsPass) {
      this.restartsPass = k + 1;
      await this.next(restartsJobId(k + 1), this.T);
    }
  }

  /** Worker w answered that task t holds no solution. */
  private async none(t: number, w: number): Promise<void> {
    let by = this.noneBy.get(t);
    if (by === undefined) this.noneBy.set(t, (by = new Set()));
    by.add(w);
    this.audit.accepted(t, w);
    if (this.s.replicas === 1) return this.decide(t);
    if (this.state[t] === PENDING) {
      // Replicas 2: a second worker searches it to its end, not this one.
      this.state[t] = ONE_NONE;
      this.firstNone[t] = w;
      this.confirm[t] = 0;
      return this.next(confirmJobId(t, 0), t);
    }
    if (w !== this.firstNone[t]) return this.decide(t);
    // The same worker said "none" twice: once more by another, at most MAX_EXTRA_JOBS times a
    // task; past that (a worker that ignores the exclusion, or only one worker there) the
    // coordinator searches it itself, so the jobs stay bounded.
    const k = this.confirm[t] + 1;
    if (k > MAX_EXTRA_JOBS) {
      this.state[t] = SETTLING;
      this.s.notice(`queue ${this.s.name}: task ${t} was searched again by the same worker ${this.names[w]} ${k} times (no other worker took it): the coordinator searches it itself`);
      this.audit.queue(t);
      return;
    }
    this.confirm[t] = k;
    await this.next(confirmJobId(t, k), t);
  }

  private decide(t: number): void {
    if (this.state[t] === DECIDED) return;
    this.state[t] = DECIDED;
    this.decided++;
  }

  /**
   * A solution of task t, checked on the board, found by `by`: the run's answer, unless a worker
   * answered "none" for that same task. Then that worker lied (or is broken): its answers are
   * removed from Redis (so the same command searches their tasks again) and the run stops,
   * NQ_AUDIT_MISMATCH naming it.
   */
  private async foundIn(t: number, columns: number[], by: string): Promise<void> {
    const liars = [...(this.noneBy.get(t) ?? [])].map((w) => this.names[w]);
    if (liars.length === 0) {
      this.found ??= { task: t, columns, by };
      this.onWake();
      return;
    }
    const who = liars.join(", ");
    await this.distrust(liars);
    const jobs = await this.removeAnswersOf(new Set(liars));
    throw Object.assign(withCode(new Error(
      `queue ${this.s.name}: worker${liars.length > 1 ? "s" : ""} ${who} answered that task ${t} of ${this.T} (n = ${this.s.n}) holds no solution, but ${by} found one there ` +
      `(checked on the board): no answer of ${who} can be trusted; the run is stopped and ${liars.length > 1 ? "their" : "its"} ${jobs} answers in Redis removed ` +
      `(stop that worker, then run the same command again: its tasks are searched afresh, and any answer of it still in Redis is not taken)`,
    ), ErrorCode.auditMismatch), { workers: liars, task: t, columns });
  }

  /** Every answer in Redis that names one of `workers` (read or not yet), removed: the same command searches their tasks afresh. Returns how many. */
  private async removeAnswersOf(workers: ReadonlySet<string>): Promise<number> {
    const { client, queue } = this.q;
    const ids = (await jobIdsIn(client, queue, "completed")).filter((id) => this.unitOf(id) !== undefined);
    const pipeline = client.pipeline();
    for (const id of ids) pipeline.hget(queue.toKey(id), "returnvalue");
    const answers = (await pipeline.exec()) ?? [];
    let removed = 0;
    for (const [j, id] of ids.entries()) {
      let worker: unknown;
      try { worker = (JSON.parse(String(answers[j]?.[1])) as { worker?: unknown }).worker; } catch { continue; }
      if (typeof worker === "string" && workers.has(worker.slice(0, 200)) && await queue.remove(id).then(() => true, () => false)) removed++;
    }
    return removed;
  }

  /** The run's distrusted workers as Redis holds them (under a key, only a list whose MAC verifies for this run). */
  private async readDistrusted(): Promise<Set<string>> {
    const text = await this.q.client.get(distrustKey(this.q.name));
    let list: { run?: unknown; workers?: unknown } | undefined;
    try { list = text === null ? undefined : JSON.parse(text) as typeof list; } catch { /* none */ }
    const ok = list !== undefined && list.run === this.s.runId && Array.isArray(list.workers) && (!this.s.key || verifies(this.s.key, RUN_DOMAIN, this.q.name, list));
    return new Set(ok ? (list!.workers as unknown[]).filter((w): w is string => typeof w === "string") : []);
  }

  /** `workers` distrusted from now on in this run (a later coordinator of it reads the list), MACed with the run's id. */
  private async distrust(workers: readonly string[]): Promise<void> {
    const all = new Set([...(this.distrusted ?? []), ...workers]);
    this.distrusted = all;
    const list = signed(this.s.key, RUN_DOMAIN, this.q.name, { format: "nqueens-distrusted", run: this.s.runId, workers: [...all] });
    await this.q.client.set(distrustKey(this.q.name), JSON.stringify(list)).catch(() => {});
  }
}
