// Runs long work in bounded chunks on one thread: between chunks it checks the
// AbortSignal and the time limit, reports progress (after the first chunk, so a plot
// starts near the start, then at most every progressIntervalMs, 50 by default; the end is
// reported once, by finish) and lets the event loop run (so an abort from a button or a
// timer gets through).
import { optionalFunction, optionalInteger, optionalSignal } from "./validate.js";
import { monotonicMs } from "./platform.js";
import { afterMs } from "./timer.js";
import { timeoutError } from "./errors.js";

/** Default least time between two progress reports. */
export const PROGRESS_INTERVAL_MS = 50;
const YIELD_INTERVAL_MS = 25;
/** How long one chunk of kernel work should take. */
export const CHUNK_TARGET_MS = 10;

const now: () => number = monotonicMs;

/** Lets the event loop run (timers, I/O, an abort from a signal handler) before going on. */
export function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === "function") return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Why a Pacer says a run must stop (internal; what solve reports is `StopReason` of src/search/solve.ts). */
export type PacerStop = "timeout" | "aborted";

/** The option that stops a run from outside (see PacedOptions). */
export interface SignalOptions {
  /**
   * Stops the run between chunks of work (about 10 ms; a part of a parallel count); the
   * promise rejects with the signal's reason (an AbortError), unless solve already found a solution.
   */
  signal?: AbortSignal;
}

/** The options that stop a run: from outside, or after a time (see PacedOptions). */
export interface TimeoutOptions extends SignalOptions {
  /**
   * Milliseconds before the run stops: solve then answers found: false with reason 'timeout';
   * the others reject with a TimeoutError (code NQ_TIMEOUT).
   */
  timeoutMs?: number;
}

/** The options that report a run's progress (see PacedOptions). */
export interface ProgressOptions<P> {
  /**
   * Called after the first chunk of work (a run that ends within it gets only the last call),
   * then at most every `progressIntervalMs` (about 20 times a second by default), and once at the end.
   */
  onProgress?: (progress: P) => void;
  /**
   * Least time between two progress reports, 0 to 60000 ms (default 50). 0 reports after
   * every chunk of work, for dense plots: about 10 ms of a search, of probes or of tries; one
   * task of a count or subtree of a tree walk; one part of a parallel count.
   */
  progressIntervalMs?: number;
}

/**
 * The options every long-running function takes (count, solve, estimate, treeSize,
 * lasVegasStats, lasVegasTable; countParallel takes all but `timeoutMs`, countPart and
 * countConstrainedPartAsync `signal` and `timeoutMs`): each function's options type extends
 * these, so the four are written, and documented, once.
 */
export interface PacedOptions<P> extends TimeoutOptions, ProgressOptions<P> {}

/** The names of PacedOptions, for checkOptions. */
export const PACED_OPTION_NAMES = ["signal", "timeoutMs", "onProgress", "progressIntervalMs"] as const;

/**
 * The one rule for progress reports: the first is always sent (plots begin near the start),
 * then at most one every `intervalMs`; a final one is always sent and does not count against
 * the interval (lasVegasTable's next row is reported from its first chunk). Pacer reports
 * through it; so do the loops that are not paced chunks (countParallel's finished parts, the
 * queue coordinator's polls). The progress object is built only when it is sent.
 */
export class ProgressThrottle<P> {
  private last = -Infinity;

  constructor(
    private readonly onProgress: ((progress: P) => void) | undefined,
    private readonly intervalMs: number = PROGRESS_INTERVAL_MS,
    private readonly clock: () => number = now,
  ) {}

  /** Sends `progress()` if it is time, or always when `final`; true when it was sent. */
  report(progress: () => P, final = false): boolean {
    if (!this.onProgress) return false;
    if (!final) {
      const t = this.clock();
      if (t - this.last < this.intervalMs) return false;
      this.last = t;
    }
    this.onProgress(progress());
    return true;
  }
}

export class Pacer<P> {
  readonly start = now();
  private lastYield = this.start;
  private readonly progress: ProgressThrottle<P>;

  constructor(
    private readonly options: { signal?: AbortSignal; timeoutMs?: number; onProgress?: (progress: P) => void; progressIntervalMs?: number },
  ) {
    this.progress = new ProgressThrottle(options.onProgress, options.progressIntervalMs ?? PROGRESS_INTERVAL_MS);
  }

  /** A pacer from a caller's options, each checked (the message names the option, the value and the range). */
  static from<P>(opts: PacedOptions<P>): Pacer<P> {
    return new Pacer<P>({
      signal: optionalSignal(opts.signal),
      timeoutMs: optionalInteger("timeoutMs", opts.timeoutMs, 0, Number.MAX_SAFE_INTEGER, Infinity),
      onProgress: optionalFunction<(progress: P) => void>("onProgress", opts.onProgress),
      progressIntervalMs: optionalInteger("progressIntervalMs", opts.progressIntervalMs, 0, 60_000, PROGRESS_INTERVAL_MS),
    });
  }

  /** The time limit in ms (Infinity when none). */
  get timeoutMs(): number {
    return this.options.timeoutMs ?? Infinity;
  }

  elapsed(): number {
    return now() - this.start;
  }

  /** Why the work must stop now, if it must. */
  stopReason(): PacerStop | undefined {
    if (this.options.signal?.aborted) return "aborted";
    if (this.options.timeoutMs !== undefined && this.elapsed() >= this.options.timeoutMs) return "timeout";
    return undefined;
  }

  /**
   * Waits for `work` unless the signal aborts or the time limit passes first: resolves with
   * `{ value }`, or with `{ stop }` as soon as the run must stop (the work itself goes on,
   * and what it gives then is left unused). Rejects as `work` does. For a wait that no
   * chunk bounds (a GPU pipeline that compiles for seconds).
   */
  raceStop<T>(work: Promise<T>): Promise<{ value: T; stop?: undefined } | { stop: PacerStop }> {
    const early = this.stopReason();
    if (early) {
      work.catch(() => {});
      return Promise.resolve({ stop: early });
    }
    const { signal, timeoutMs } = this.options;
    return new Promise((resolve, reject) => {
      let cancelTimer: (() => void) | undefined;
      const done = (): void => {
        cancelTimer?.();
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = (): void => {
        done();
        resolve({ stop: "aborted" });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const left = (timeoutMs ?? Infinity) - this.elapsed();
      if (left !== Infinity) {
        cancelTimer = afterMs(Math.max(0, left), () => {
          done();
          resolve({ stop: "timeout" });
        });
      }
      work.then(
        (value) => {
          done();
          resolve({ value });
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
    });
  }

  /** Throws if the run must stop now: the signal's reason when aborted, else an NQ_TIMEOUT naming `what` (`"count(20)"`). */
  throwIfStopped(what: string): void {
    const stop = this.stopReason();
    if (stop === "aborted") this.throwIfAborted();
    if (stop === "timeout") throw timeoutError(what, this.timeoutMs);
  }

  /**
   * `steps` (a split before the work) in slices of about CHUNK_TARGET_MS: after each, `report`
   * as between() reports, then throwIfStopped(what), so the split stops and reports like the work.
   */
  paced<T>(steps: Steps<T>, what: string, report: () => P): Promise<T> {
    return runStepsPaced(steps, async () => {
      await this.between(report);
      this.throwIfStopped(what);
    });
  }

  /** Throws the signal's reason (an AbortError by default) if it is aborted. */
  throwIfAborted(): void {
    this.options.signal?.throwIfAborted();
  }

  /** Between chunks: report progress if it is time, and let the event loop run. */
  async between(progress: () => P): Promise<void> {
    this.progress.report(progress);
    if (now() - this.lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      this.lastYield = now();
    }
  }

  /** A progress report if it is time, without yielding: for a run whose work is on other threads (solve's tasks on the pool). */
  report(progress: () => P): void {
    this.progress.report(progress);
  }

  /** Between slices of work that reports no progress: let the event loop run, at most every YIELD_INTERVAL_MS. */
  async pause(): Promise<void> {
    if (now() - this.lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      this.lastYield = now();
    }
  }

  /** A final progress report (always sent, so a caller sees the end state). */
  finish(progress: P): void {
    this.progress.report(() => progress, true);
  }
}

/**
 * Work written as a generator that yields between bounded steps (a constellation walked, a
 * part made), each yield saying how far it got: run to its end at once (the synchronous form).
 */
export type Steps<T> = Generator<number, T, void>;
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * runStepsPaced where a stop is an answer, not an error: after each slice the event loop runs,
 * then `stopped()` is asked; `undefined` when it said stop (solve's split, whose time limit
 * answers 'timeout'). The caller throws an abort's reason itself.
 */
export function runStepsUntil<T>(steps: Steps<T>, stopped: () => unknown): Promise<T | undefined> {
  const stop = {}; // (thrown as a sentinel, never seen outside)
  return runStepsPaced(steps, async () => {
    await yieldToEventLoop();
    if (stopped()) throw stop;
  }).catch((error: unknown) => {
    if (error !== stop) throw error;
  }) as Promise<T | undefined>;
}

/** `f` of each item, a step each (the steps' figure: how many are done). */
export function* mapSteps<T, U>(items: readonly T[], f: (item: T) => U): Steps<U[]> {
  const out: U[] = [];
  for (const item of items) yield out.push(f(item));
  return out;
}

/** Test hook: the least time of runStepsPaced's slices (0: `between` after every step, so a test needs no split long enough). */
export const stepHooks = { sliceMs: CHUNK_TARGET_MS };

/**
 * The same work in slices of about CHUNK_TARGET_MS: after each, `between` is awaited with the
 * last figure yielded (it may throw to stop: an abort, a timeout), so a long set-up phase (a
 * split) stops and reports like the chunks of the work after it.
 */
export async function runStepsPaced<T>(steps: Steps<T>, between: (done: number) => Promise<void>): Promise<T> {
  let sliceStart = now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (now() - sliceStart >= stepHooks.sliceMs) {
      await between(next.value);
      sliceStart = now();
    }
  }
}

/**
 * Adapts a chunk's work budget so that one chunk takes about CHUNK_TARGET_MS. It starts
 * at one unit by default and doubles while chunks are short: a unit's cost is not known
 * in advance (a Las Vegas node at n = 10^6 scans a million columns), so a first chunk
 * of a thousand units could take seconds and delay an abort or a timeout. A chunk over
 * twice the target cuts the budget at once to what would have taken the target (not
 * just by half), so a run whose units grew dearer is back near the target after one chunk.
 * Units whose cost changes by a phase (min-conflicts: construction, repair) want one
 * sizer per phase (src/search/solve.ts).
 */
export class ChunkSizer {
  private size: number;
  constructor(initial = 1, private readonly max = 1e9) {
    this.size = initial;
  }
  get(): number {
    return this.size;
  }
  /**
   * Tell how long the last chunk took, and how many units it did (default `this.get()`):
   * a chunk that ended early (its job finished, or its phase changed) is judged by the time
   * its full budget would have taken.
   */
  observe(ms: number, done = this.size): void {
    if (!(done > 0)) return;
    const full = (ms * this.size) / done; // the time the whole budget would have taken
    if (full < CHUNK_TARGET_MS / 4) this.size = Math.min(this.max, this.size * 2);
    else if (full > CHUNK_TARGET_MS * 2) this.size = Math.max(1, Math.floor((this.size * CHUNK_TARGET_MS) / full));
  }
}

export { now };
