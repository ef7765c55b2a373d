// One pool of counting threads for countParallel (src/workers/parallel.ts) and the queue
// worker (src/distributed/queue-worker.ts): worker_threads in Node, Web Workers in browsers,
// all running src/workers/worker.ts (its protocol is written there), started from embedded
// source text (no file path or URL to resolve). The pool:
// - starts threads as parts come (or all at once: warm()), and keeps each for every part
//   after (its compiled kernels and optimised code stay warm; a fresh thread costs tens of ms);
// - deals parts in arrival order: to an idle thread first and, while at least one part per
//   thread is waiting, one more ahead to a busy thread (it starts it the moment the last one
//   ends, without waiting for a round trip); near the end a part waits for an idle thread;
// - cancels a part when its run's signal aborts: the run rejects at once with the signal's
//   reason, the thread is told ({ cancel }) and, if it does not answer within cancelGraceMs
//   (a long uninterruptible part), is terminated and replaced;
// - runs again, on a fresh thread, the parts of a thread that died (up to maxAttempts deaths
//   a part, and a bound on deaths without progress);
// - verifies every result against its part (checkPartCount) before handing it out: a count
//   that crossed a thread is never returned unchecked;
// - also searches solve's tasks for a first solution (solve(task): src/count/solve-tasks.ts,
//   for src/workers/solve-parallel.ts), passing on the task's reports of its nodes and the
//   caller's grants of more, and checks what a thread says it found (checkSolvedTask); none
//   waits behind another task; a thread idle while no part waits has a running task's search
//   asked for its untried top branches (share(); onSplit gets them as new tasks);
// - with gpu: thread 0 is the GPU (startGpuPoolWorker) until its device is lost; a CPU thread
//   then takes its place.
import type { EngineName } from "../engine/contract.js";
import { ErrorCode, invalid, withCode } from "../core/errors.js";
import { checkPartCount, type Part, type PartResult } from "../count/split.js";
import { checkSolvedTask, type SolveTask as Task, type SolvedTask } from "../count/solve-tasks.js";
import type { TaskMethod } from "../count/constrained.js";
import type { RestartsShare } from "../engine/ts/complete-wide.js";
import type { Square } from "../board/constraints.js";
import { startGpuPoolWorker } from "../count/gpu-part.js";
import type { WorkerResponse } from "./worker.js";
import { startThread, threadsDying, workerHooks, type Events, type PoolWorker } from "./thread-start.js";
import { AbortWatch } from "./abort-watch.js";

export { availableCores, workerHooks, type PoolWorker } from "./thread-start.js";

type Job = {
  /** A count's part, or (with `solve`) one of solve's tasks. */
  part: Part | Task;
  engine: EngineName;
  /** A solve task (else a count): the nodes it may use so far, its budget, where its reports go, how it is searched. */
  solve?: {
    allowed: number; budget: number; onReport(nodes: number, waiting: boolean): void; method?: TaskMethod; share?: RestartsShare;
    onSplit?(prefixes: Square[][]): void; barren?: boolean; // (barren: it had no branches to give when last asked)
  };
  resolve(result: PartResult | SolvedTask): void;
  reject(error: unknown): void;
  /** Threads that died holding this part. */
  deaths: number;
  /** Settled already (cancelled): the thread's answer is awaited only to free the thread. */
  settled: boolean;
  signal?: AbortSignal;
};

type Slot = {
  index: number;
  gpu: boolean;
  worker?: PoolWorker;
  /** Parts posted to the thread and not answered yet, by message id (at most two: one running, one next). */
  jobs: Map<number, Job>;
  dead: boolean;
  /** Set when a cancelled part is not answered within cancelGraceMs: the thread is then replaced. */
  cancelTimer?: ReturnType<typeof setTimeout>;
};

export type PoolOptions = {
  /** Threads, 1 to 256. */
  size: number;
  /** Engine of the parts run without one (default 'wasm'). */
  engine?: EngineName;
  /** Thread 0 is this machine's GPU (engine 'webgpu', plain parts only) until its device is lost. */
  gpu?: boolean;
  /** Threads that may die holding the same part before its run fails (default 3). */
  maxAttempts?: number;
  /** How long a thread may take to answer a cancel before it is terminated and replaced (default 1000 ms). */
  cancelGraceMs?: number;
};

export type RunOptions = {
  /** Engine for this part (default: the pool's). */
  engine?: EngineName;
  /** Cancels the part: the run rejects at once with the signal's reason. */
  signal?: AbortSignal;
};

export type SolveRunOptions = RunOptions & {
  /** The nodes the task may use in all until granted more (Infinity: no cap). */
  allowed: number;
  /** The nodes after which the task gives up, unfinished (default Infinity: searched to the end). */
  budget?: number;
  /** The task's nodes so far, now and then; `waiting`: it has used all it may and waits for a grant. */
  onReport(nodes: number, waiting: boolean): void;
  /** How the task's sub-boards are searched (TaskMethod, src/count/constrained.ts; default plain, the 64-bit search alone). */
  method?: TaskMethod;
  /** With method "restarts": this search's share of the rotating restarts (RestartsShare). */
  share?: RestartsShare;
  /** With it, the task's search may be asked (a thread idling) to give away its untried top branches: the prefixes of the sub-boards given away, which its search skips from then on and the caller must search as tasks of their own. */
  onSplit?(prefixes: Square[][]): void;
};

/** A solve task on the pool: its answer, and the grant of more nodes. */
export type SolveHandle = {
  /** Resolves with what the task found (checked against the task), or rejects as run does. */
  done: Promise<SolvedTask>;
  /** The task may use `allowed` nodes in all (more than before). */
  grant(allowed: number): void;
};

/** "counting part 3 of 64 (n = 16)", "searching solve task 2 of 13 (n = 30)": a job as errors name it. */
function describeJob(job: Job): string {
  const p = job.part as { part?: number; parts?: number; task?: number; tasks?: number; n: number };
  return job.solve ? `searching solve task ${p.task} of ${p.tasks} (n = ${p.n})` : `counting part ${p.part} of ${p.parts} (n = ${p.n})`;
}

/** The error runs reject with once the pool is closed. */
function stoppedError(): Error {
  return Object.assign(new Error("the counting threads are stopped"), { name: "AbortError" });
}

/**
 * A pool of up to `size` counting threads. run(part) resolves with the part's verified
 * count; any number of callers share the threads. close() stops every thread.
 */
export class WorkerPool {
  readonly size: number;
  private readonly engine: EngineName;
  private readonly maxAttempts: number;
  private readonly cancelGraceMs: number;
  private readonly queue: Job[] = [];
  private readonly slots: Slot[] = [];
  private readonly aborts = new AbortWatch<Job>((job, reason) => this.cancel(job, reason));
  private nextId = 0;
  private closed = false;
  private gpuLost: boolean;
  private deathsSinceProgress = 0;
  /** share()'s ask not answered yet (one at a time): the thread, the search's key there, and its task's job. */
  private asked: { slot: Slot; key: number; job: Job } | undefined;
  /** Threads started so far, replacements included. */
  started = 0;
  /** Parts the GPU (thread 0 with `gpu`) counted, each checked like a CPU thread's. */
  gpuParts = 0;

  constructor(options: PoolOptions) {
    const { size, engine = "wasm", gpu = false, maxAttempts = 3, cancelGraceMs = 1000 } = options;
    if (!Number.isInteger(size) || size < 1 || size > 256) throw invalid("size", ` must be an integer from 1 to 256, got ${String(size)}`);
    this.size = size;
    this.engine = engine;
    this.gpuLost = !gpu;
    this.maxAttempts = maxAttempts;
    this.cancelGraceMs = cancelGraceMs;
  }

  /** Threads alive now (started and not stopped). */
  get threads(): number {
    return this.slots.filter((s) => !s.dead).length;
  }

  /** Counts a part on a thread; resolves with its count once checked against the part (checkPartCount). */
  run(part: Part, options: RunOptions = {}): Promise<PartResult> {
    return this.enqueue(part, options) as Promise<PartResult>;
  }

  /**
   * Searches one of solve's tasks (solveTasks) for a first solution on a thread, within
   * `allowed` nodes until grant() gives more; done resolves once the answer is checked against
   * the task (checkSolvedTask); it ends unfinished at `budget` (its search closed: nothing is
   * kept on the thread). A thread that dies has the task run again from its start.
   */
  solve(task: Task, options: SolveRunOptions): SolveHandle {
    const solve = { allowed: options.allowed, budget: options.budget ?? Infinity, onReport: options.onReport, method: options.method, share: options.share, onSplit: options.onSplit };
    let job: Job | undefined;
    const done = this.enqueue(task, options, solve, (j) => (job = j)) as Promise<SolvedTask>;
    return {
      done,
      grant: (allowed) => {
        if (!job || job.settled || allowed <= solve.allowed) return;
        solve.allowed = allowed; // (a task dealt later, or run again, starts with it)
        for (const slot of this.slots) for (const [id, held] of slot.jobs) if (held === job) slot.worker?.post({ grant: id, allowed });
      },
    };
  }

  private enqueue(part: Part | Task, options: RunOptions, solve?: Job["solve"], made?: (job: Job) => void): Promise<PartResult | SolvedTask> {
    if (this.closed) return Promise.reject(stoppedError());
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    return new Promise<PartResult | SolvedTask>((resolve, reject) => {
      const job: Job = { part, engine: options.engine ?? this.engine, solve, resolve, reject, deaths: 0, settled: false, signal: options.signal };
      made?.(job);
      if (options.signal) this.aborts.add(options.signal, job);
      this.queue.push(job);
      this.pump();
    });
  }

  /**
   * Starts `threads` threads (default: all) now rather than as parts come: each starts and
   * compiles its kernels while the caller prepares the parts.
   */
  warm(threads = this.size): void {
    while (!this.closed && this.slots.length < Math.min(threads, this.size)) this.spawn();
  }

  /**
   * Stops every thread at once: the parts they count, and those waiting, reject with an
   * AbortError; resolves once the threads have exited. Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = stoppedError();
    for (const job of this.queue.splice(0)) this.settle(job, undefined, error);
    const exits: Promise<void>[] = [];
    for (const slot of this.slots.splice(0)) {
      for (const job of slot.jobs.values()) this.settle(job, undefined, error);
      exits.push(this.stop(slot));
    }
    await Promise.all(exits);
  }

  private async stop(slot: Slot): Promise<void> {
    slot.dead = true;
    if (this.asked?.slot === slot) this.asked = undefined; // (its answer never comes)
    slot.jobs.clear();
    clearTimeout(slot.cancelTimer);
    await Promise.resolve(slot.worker?.terminate()).catch(() => {});
  }

  private settle(job: Job, result: PartResult | SolvedTask | undefined, error?: unknown): void {
    if (job.settled) return;
    job.settled = true;
    if (job.signal) this.aborts.remove(job.signal, job);
    if (error !== undefined) job.reject(error);
    else job.resolve(result!);
  }

  private cancel(job: Job, reason: unknown): void {
    const waiting = this.queue.indexOf(job);
    if (waiting >= 0) this.queue.splice(waiting, 1);
    this.settle(job, undefined, reason);
    for (const slot of this.slots) {
      for (const [id, held] of slot.jobs) {
        if (held !== job) continue;
        slot.worker?.post({ cancel: id }); // answered within a chunk (~10 ms), which frees the thread
        slot.cancelTimer ??= setTimeout(() => this.replace(slot), this.cancelGraceMs);
      }
    }
  }

  /** A thread that did not answer a cancel in time: terminated; its parts not cancelled go back first in line. */
  private replace(slot: Slot): void {
    if (slot.dead || this.closed) return;
    const kept = [...slot.jobs.values()].filter((job) => !job.settled);
    void this.stop(slot);
    this.slots.splice(this.slots.indexOf(slot), 1);
    this.queue.unshift(...kept);
    this.pump();
  }

  /** Deals waiting parts (to idle threads first, one ahead to busy ones while the backlog lasts), then shares a solve task with an idle thread. */
  private pump(): void {
    this.deal();
    this.share();
  }

  private deal(): void {
    while (!this.closed && this.queue.length > 0) {
      const ready = this.slots.filter((s) => s.worker && !s.dead && s.cancelTimer === undefined);
      let slot = ready.find((s) => s.jobs.size === 0);
      if (!slot) {
        // Threads still starting take parts once ready: another starts only while more wait than they take.
        const starting = this.slots.filter((s) => s.worker === undefined).length;
        if (this.slots.length < this.size && this.queue.length > starting) {
          this.spawn();
          continue;
        }
        // One part ahead only while there is at least one more per thread: at the end of a
        // run a part waits for an idle thread instead of queueing behind a busy one
        // (never behind a solve task: its length is the task's, up to a whole search).
        if (this.queue.length >= this.size) slot = ready.find((r) => r.jobs.size === 1 && [...r.jobs.values()].every((j) => !j.solve));
      }
      if (!slot) return;
      const job = this.queue.shift()!;
      const id = this.nextId++;
      slot.jobs.set(id, job);
      if (job.solve) {
        slot.worker!.post({ id, solve: job.part as Task, engine: job.engine, allowed: job.solve.allowed, budget: job.solve.budget, method: job.solve.method, share: job.solve.share });
      } else {
        slot.worker!.post({ id, part: job.part as Part, engine: job.engine }); // (the GPU thread counts on the GPU whatever the engine)
      }
    }
  }

  /**
   * A thread idle and no part waiting: a solve task a busy thread searches is asked for its untried top branches; one
   * that had none, again only after its next report. One ask at a time.
   */
  private share(): void {
    if (this.closed || this.asked !== undefined || this.queue.length > 0) return;
    const ready = this.slots.filter((s) => s.worker && !s.dead && s.cancelTimer === undefined);
    if (!ready.some((s) => s.jobs.size === 0)) return;
    const askable = (job: Job): boolean => !job.settled && job.solve?.onSplit !== undefined && !job.solve.barren;
    let pick: { slot: Slot; key: number; job: Job } | undefined;
    for (const slot of ready) for (const [key, job] of slot.jobs) if (!pick && askable(job)) pick = { slot, key, job };
    if (!pick) return;
    this.asked = pick;
    pick.slot.worker!.post({ split: pick.key });
  }

  /** share()'s answer: to onSplit even if the task has ended since (its search skips them); each new task is checked as any. */
  private shared(slot: Slot, m: WorkerResponse): void {
    if (this.asked?.slot !== slot || this.asked.key !== m.id) return;
    const { job } = this.asked;
    this.asked = undefined;
    if (m.split!.length === 0) job.solve!.barren = true;
    else job.solve!.onSplit!(m.split!);
    this.pump();
  }

  private spawn(): void {
    let index = 0;
    while (this.slots.some((s) => s.index === index)) index++;
    // (the GPU takes plain parts only: countParallel refuses gpu with given queens or blocked squares)
    const gpu = index === 0 && !this.gpuLost;
    const slot: Slot = { index, gpu, jobs: new Map(), dead: false };
    this.slots.push(slot);
    this.started++;
    const events: Events = { message: (m) => this.answer(slot, m), died: (reason) => this.died(slot, reason) };
    const starting: Promise<PoolWorker> = gpu
      ? Promise.resolve(startGpuPoolWorker(events) as unknown as PoolWorker)
      : startThread(events);
    starting.then((worker) => {
      if (this.closed || slot.dead) return void worker.terminate();
      slot.worker = worker;
      workerHooks.onStart?.(worker, index);
      this.pump();
    }, (error: unknown) => this.died(slot, `it could not start: ${error instanceof Error ? error.message : String(error)}`));
  }

  private answer(slot: Slot, m: WorkerResponse): void {
    if (m.split !== undefined) return this.shared(slot, m);
    const job = slot.jobs.get(m.id);
    if (!job || slot.dead) return;
    if (m.result === undefined && m.error === undefined) { // a solve task's report: it goes on
      if (!job.settled && typeof m.nodes === "number") job.solve?.onReport(m.nodes, m.waiting === true);
      if (job.solve?.barren) {
        job.solve.barren = false; // its search has gone on: it may have branches to give now
        this.share();
      }
      return;
    }
    slot.jobs.delete(m.id);
    if (slot.cancelTimer !== undefined && ![...slot.jobs.values()].some((j) => j.settled)) {
      clearTimeout(slot.cancelTimer); // every cancelled part answered: the thread is free again
      slot.cancelTimer = undefined;
    }
    if (!job.settled) {
      if (m.error !== undefined) {
        const error = new Error(`${describeJob(job)} failed: ${m.error}`);
        this.settle(job, undefined, m.code === undefined ? error : Object.assign(error, { code: m.code })); // the thread's code (NQ_OUT_OF_MEMORY, ...) kept
      } else {
        try {
          // A thread's answer is verified before anyone keeps it.
          const result = job.solve ? checkSolvedTask(job.part as Task, m.result) : checkPartCount(job.part as Part, m.result);
          if (slot.gpu) this.gpuParts++; // (inside !job.settled: counted once a part)
          this.deathsSinceProgress = 0;
          this.settle(job, result);
        } catch (error) {
          this.settle(job, undefined, error);
        }
      }
    }
    this.pump();
  }

  private died(slot: Slot, reason: string): void {
    if (this.closed || slot.dead) return;
    if (slot.gpu) this.gpuLost = true; // a CPU thread takes the GPU's place
    const lost = [...slot.jobs.values()].filter((job) => !job.settled);
    void this.stop(slot);
    this.slots.splice(this.slots.indexOf(slot), 1);
    const tooMany = ++this.deathsSinceProgress > 2 * this.size + this.maxAttempts;
    for (const job of lost.reverse()) {
      // A lost GPU device is the GPU's failure, not the part's: it does not use up an attempt.
      if (!slot.gpu) job.deaths++;
      if (tooMany || job.deaths >= this.maxAttempts) {
        this.settle(job, undefined, threadsDying(`${describeJob(job)}: ${job.solve ? "solving" : "counting"} threads keep dying (last: ${reason})`, reason));
      } else {
        this.queue.unshift(job); // run it again first, on a fresh thread
      }
    }
    if (tooMany) {
      for (const job of this.queue.splice(0)) this.settle(job, undefined, threadsDying(`${describeJob(job)}: ${job.solve ? "solving" : "counting"} threads keep dying (last: ${reason})`, reason));
    }
    this.pump(); // a fresh thread takes the dead one's place when there is work for it
  }
}
