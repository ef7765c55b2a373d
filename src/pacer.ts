// Runs long work in bounded chunks on one thread: between chunks it checks the
// AbortSignal and the time limit, reports progress at most 20 times a second and
// lets the event loop run (so an abort from a button or a timer gets through).

const PROGRESS_INTERVAL_MS = 50;
const YIELD_INTERVAL_MS = 25;
/** How long one chunk of kernel work should take. */
export const CHUNK_TARGET_MS = 10;

const now: () => number = typeof performance !== "undefined" ? () => performance.now() : () => Date.now();

function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === "function") return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export type StopReason = "timeout" | "aborted";

export class Pacer<P> {
  readonly start = now();
  private lastProgress = this.start;
  private lastYield = this.start;

  constructor(
    private readonly options: { signal?: AbortSignal; timeoutMs?: number; onProgress?: (progress: P) => void },
  ) {}

  elapsed(): number {
    return now() - this.start;
  }

  /** Why the work must stop now, if it must. */
  stopReason(): StopReason | undefined {
    if (this.options.signal?.aborted) return "aborted";
    if (this.options.timeoutMs !== undefined && this.elapsed() >= this.options.timeoutMs) return "timeout";
    return undefined;
  }

  /** Throws the signal's reason (an AbortError by default) if it is aborted. */
  throwIfAborted(): void {
    this.options.signal?.throwIfAborted();
  }

  /** Between chunks: report progress if it is time, and let the event loop run. */
  async between(progress: () => P): Promise<void> {
    const t = now();
    if (this.options.onProgress && t - this.lastProgress >= PROGRESS_INTERVAL_MS) {
      this.lastProgress = t;
      this.options.onProgress(progress());
    }
    if (t - this.lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      this.lastYield = now();
    }
  }

  /** A final progress report (always sent, so a caller sees the end state). */
  finish(progress: P): void {
    this.options.onProgress?.(progress);
  }
}

/** Adapts a chunk's work budget so that one chunk takes about CHUNK_TARGET_MS. */
export class ChunkSizer {
  private size: number;
  constructor(initial = 1000, private readonly max = 1e9) {
    this.size = initial;
  }
  get(): number {
    return this.size;
  }
  /** Tell how long the last chunk of `this.get()` units took. */
  observe(ms: number): void {
    if (ms < CHUNK_TARGET_MS / 4) this.size = Math.min(this.max, this.size * 2);
    else if (ms > CHUNK_TARGET_MS * 2) this.size = Math.max(1, Math.floor(this.size / 2));
  }
}

export { now };
