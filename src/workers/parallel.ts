// countParallel(n): the parts of splitCount(n) counted on worker threads (Node) or
// Web Workers (browsers), with progress, abort, a worker that dies having its part
// rerun on a fresh worker, and an optional checkpoint file (Node) to resume from.
// The threads are the shared counting pool (src/workers/pool.ts): it keeps each thread
// warm across parts, deals the parts, re-runs a dead thread's part and verifies every result.
import { engineCan, type CountEngineName } from "../engine/contract.js";
import { COUNT_MAX_N, count, type CountResult } from "../count/count.js";
import { pickEngine, threadsEngine } from "../engine/select.js";
import { ErrorCode, ioError, rangeError, invalid, withCode } from "../core/errors.js";
import type { KeyInput } from "../core/key.js";
import { checkpointKey, checkpointTarget, readCheckpoint, verifiedEntries, writeCheckpoint, type Checkpoint } from "../count/checkpoint.js";
import { gpuInfo } from "../engine/webgpu/device.js";
import { PROGRESS_INTERVAL_MS, ProgressThrottle, now, runStepsPaced, yieldToEventLoop, type ProgressOptions, type SignalOptions } from "../core/pacer.js";
import { SPLIT_VERSION, defaultParts } from "../count/parts.js";
import { WorkerPool, availableCores } from "./pool.js";
import { splitBoardPaced, type Part, type PartResult } from "../count/split.js";
import { checkInteger, checkOptions, describe, optionalFunction, optionalInteger, optionalSignal } from "../core/validate.js";
import type { Square } from "../board/constraints.js";
import { boardOf } from "../board/board.js";
import { CONSTRAINED_MAX_N } from "../count/constrained.js";
import { isNode } from "../core/platform.js";


export type ParallelProgress = {
  /**
   * 'split' while the parts are made, and a checkpoint's entries checked, when that takes more
   * than a slice of about 10 ms: tasksDone of tasksTotal are the parts made (then the entries
   * checked) so far, 0 of 0 while the split's tasks are walked; then 'count'.
   */
  phase: "split" | "count";
  n: number;
  tasksDone: number;
  tasksTotal: number;
  /** Parts taken from the checkpoint rather than counted in this run. */
  tasksResumed: number;
  workers: number;
  elapsedMs: number;
  /** Parts counted per second in this run (undefined until a part is done). */
  rate?: number;
  /** Estimated time left, from that rate (undefined until a part is done). */
  etaMs?: number;
};

/** countParallel's options: its own, and signal, onProgress and progressIntervalMs (SignalOptions, ProgressOptions: no timeoutMs). */
export interface ParallelOptions extends SignalOptions, ProgressOptions<ParallelProgress> {
  /** Worker threads (default: the cores available). */
  workers?: number;
  /** How many parts to split into (default: splitCount's). */
  parts?: number;
  /**
   * Engine the threads count with (default 'wasm'), or 'webgpu': worker 0 is this machine's GPU
   * (gpu/constellations.wgsl, docs/gpu.md), counting parts one at a time beside the CPU threads
   * (on 'wasm'), with the same counts and nodes as a CPU thread; if its device is lost, its part
   * is counted again and a CPU thread takes its place. 'webgpu' counts plain boards only and
   * rejects with NQ_ENGINE_UNAVAILABLE where WebGPU has no adapter.
   */
  engine?: CountEngineName;
  /** Node only: a file recording finished parts, so an interrupted count resumes (every entry is verified first). */
  checkpoint?: string;
  /** With `checkpoint`: ignore what the file holds (even a refused file) and start over, overwriting it. */
  restart?: boolean;
  /**
   * With `checkpoint`: the key its HMAC is made and checked under (a string or bytes). Default:
   * `keyFile`, else the NQUEENS_KEY environment variable, else the local key
   * ($XDG_CONFIG_HOME/nqueens/key, made at first use, mode 0600; docs/counting.md#checkpoints).
   */
  key?: KeyInput;
  /** With `checkpoint`: a file holding the key (its bytes, a trailing newline trimmed). */
  keyFile?: string;
  /** @deprecated The GPU among the threads: use `engine: 'webgpu'` (`gpu: true` still works, with the CPU threads on `engine`). */
  gpu?: boolean;
  /** Queens given in advance, [row, col] pairs, 0-based (then n <= 1000, `unique` null). */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
}

export type ParallelResult = CountResult & {
  /** Threads that counted in this run (the GPU among them with engine 'webgpu'); 0 when the checkpoint held every part. */
  workers: number;
  /** Parts of the split (those from a checkpoint included). */
  parts: number;
  /** Parts taken from the checkpoint, not counted in this run. */
  resumed: number;
  /** With engine 'webgpu': how many of the parts counted in this run the GPU counted (the CPU threads the rest). */
  gpuParts?: number;
};

/** Test hook (the pool's): called with each worker as it starts, with its place in the pool. */
export { workerHooks, type PoolWorker } from "./pool.js";


/**
 * Counts the solutions of the n-queens problem on several workers (1 <= n <= 32).
 * @example const { total } = await countParallel(16, { workers: 2 }); // 14772512n
 */
export async function countParallel(n: number, options?: ParallelOptions): Promise<ParallelResult> {
  const opts = checkOptions<ParallelOptions>("countParallel", options, ["workers", "parts", "engine", "signal", "onProgress", "progressIntervalMs", "checkpoint", "restart", "key", "keyFile", "gpu", "fixed", "blocked"]);
  const threads = threadsEngine("countParallel", opts.engine, opts.gpu);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "countParallel", plain: [1, COUNT_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  if (threads.gpu && !board.plain && !engineCan("webgpu", "constrained")) throw invalid("engine", " 'webgpu' counts plain boards only: count given queens or blocked squares on the CPU threads (engine 'wasm')");
  // The board's identity in the checkpoint: the digest of its normalised givens (the queue's record uses the same).
  const boardId = board.plain ? undefined : board.digest;
  const workers = opts.workers === undefined ? await availableCores() : checkInteger("workers", opts.workers, 1, 256);
  if (opts.parts !== undefined) checkInteger("parts", opts.parts, 1, 1_000_000);
  const engine = pickEngine(threads.engine).name;
  // What the result says counted: 'webgpu' when asked for so (the GPU among 'wasm' threads).
  const reported: CountEngineName = opts.engine === "webgpu" ? "webgpu" : engine;
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: ParallelProgress) => void>("onProgress", opts.onProgress);
  const progressIntervalMs = optionalInteger("progressIntervalMs", opts.progressIntervalMs, 0, 60_000, PROGRESS_INTERVAL_MS);
  const checkpoint = await checkpointOption(opts);
  signal?.throwIfAborted();
  if (threads.gpu) await gpuInfo(); // NQ_ENGINE_UNAVAILABLE, saying what is missing
  const start = now();
  if (n <= 3 && board.plain) {
    const small = await count(n, { engine });
    onProgress?.({ phase: "count", n, tasksDone: 0, tasksTotal: 0, tasksResumed: 0, workers: 0, elapsedMs: now() - start });
    return { ...small, engine: reported, workers: 0, parts: 0, resumed: 0 };
  }

  // The threads start now, while the parts are made and the checkpoint read (a fresh thread takes tens of ms).
  const pool = new WorkerPool({ size: workers, engine, gpu: threads.gpu });
  pool.warm(Math.min(workers, opts.parts ?? (board.plain ? defaultParts(n) : 64)));
  try {
    return await countOnPool(pool);
  } finally {
    await pool.close();
  }

  async function countOnPool(pool: WorkerPool): Promise<ParallelResult> {
    // The split (the walks, a digest a part: 35 s for 835,600 parts of n = 16) and the checkpoint's
    // entries, in slices that stop at an abort and report, like the parts counted after them.
    const progress = new ProgressThrottle(onProgress, progressIntervalMs);
    let total = 0;
    const between = async (made: number): Promise<void> => {
      progress.report(() => ({ phase: "split", n, tasksDone: made, tasksTotal: total, tasksResumed: 0, workers: 0, elapsedMs: now() - start }));
      await yieldToEventLoop();
      signal?.throwIfAborted();
    };
    const split = (asked: number | undefined) => splitBoardPaced(board, asked, between);
    // The split this call asks for. It may hold fewer parts than `parts` asks (a board with fewer
    // prefixes), and a constrained split's depth follows the number asked: so the same call run
    // again is matched against this split, never re-split from the number the checkpoint holds.
    const fresh = await split(opts.parts);
    const saved = checkpoint && !opts.restart ? await readCheckpoint(checkpoint.path, checkpoint.key, n, opts.parts === undefined ? undefined : fresh.count, boardId) : undefined;
    const chosen = !saved || saved.parts === fresh.count ? fresh : await split(saved.parts);
    total = chosen.count;
    const parts: Part[] = await chosen.allPaced(between);
    const done: Map<number, PartResult> = saved ? await runStepsPaced(verifiedEntries(checkpoint!.path, saved, parts), between) : new Map<number, PartResult>();
    const resumed = done.size;
    // The sums as the parts come (each result checked against its part, by the pool or by the
    // checkpoint's read, before it is in `done`), so the end adds nothing up again: a pass that
    // re-derived and re-checked 835,600 parts blocked the event loop for seconds.
    const sums: bigint[] = new Array<bigint>(chosen.fields).fill(0n);
    const add = (result: PartResult): void => chosen.countsOf(result).forEach((v, i) => { sums[i] += v; });
    for (const result of done.values()) add(result);
    const queue: Part[] = parts.filter((p) => !done.has(p.part));
    // The threads that count in this run: none when the checkpoint already holds every part.
    const poolSize = Math.min(workers, queue.length);

    let lastSave = 0;
    const save = async (force: boolean): Promise<void> => {
      if (!checkpoint || (!force && now() - lastSave < 1000)) return;
      lastSave = now();
      const content: Omit<Checkpoint, "mac"> = {
        format: "nqueens-count-checkpoint", splitVersion: SPLIT_VERSION, n, parts: parts.length, ...(boardId ? { board: boardId } : {}), done: [...done.values()],
      };
      // One write at a time: two renames racing could leave the older content last.
      const write = saving.then(() => writeCheckpoint(checkpoint.path, checkpoint.key, content));
      saving = write.catch(() => undefined);
      await write;
    };
    let saving: Promise<void> = Promise.resolve();
    const report = (final: boolean): void => {
      progress.report(() => {
        const elapsedMs = now() - start;
        const countedHere = done.size - resumed;
        const left = parts.length - done.size;
        return {
          phase: "count", n, tasksDone: done.size, tasksTotal: parts.length, tasksResumed: resumed, workers: poolSize, elapsedMs,
          rate: countedHere > 0 ? countedHere / (elapsedMs / 1000) : undefined,
          etaMs: countedHere > 0 ? (elapsedMs / countedHere) * left : undefined,
        };
      }, final);
    };

    try {
      if (queue.length > 0) {
        await feedPool(pool, queue, poolSize, signal, (part, result) => {
          if (done.has(part.part)) return save(false); // a part answers once (the pool's contract): never added twice
          done.set(part.part, result); // verified against its part by the pool (checkPartCount) before it got here
          add(result);
          if (done.size < parts.length) report(false); // the last is reported once, at the end
          return save(false);
        }, () => save(true));
      }
      await save(true);
    } catch (error) {
      // Stopped (an abort, a timeout, a failure): the last report says how far it got, so a
      // caller that says what the checkpoint holds says it exactly (reports are throttled).
      if (checkpoint) report(true);
      throw error;
    } finally {
      // No write outlives the count: every save in flight (one a failure started too) settles
      // first, its temporary file removed on failure, before countParallel answers or rejects.
      for (let pending = saving; ; pending = saving) {
        await pending;
        if (pending === saving) break;
      }
    }
    report(true);
    if (done.size !== parts.length) {
      throw withCode(new RangeError(`${done.size} of ${parts.length} parts counted`), ErrorCode.partsIncomplete); // (the pool answers every part once)
    }
    const merged = chosen.totalOf(sums);
    return { ...merged, ms: now() - start, engine: reported, workers: poolSize, parts: parts.length, resumed, ...(threads.gpu ? { gpuParts: pool.gpuParts } : {}) };
  }
}

/**
 * The checkpoint option checked, its key had and its path looked at, before any thread starts:
 * a key that cannot be had, or a path that is a device, FIFO or directory, is refused at once.
 */
async function checkpointOption(opts: ParallelOptions): Promise<{ path: string; key: Uint8Array } | undefined> {
  if (opts.checkpoint !== undefined && (typeof opts.checkpoint !== "string" || opts.checkpoint === "")) {
    throw typeof opts.checkpoint === "string" ? invalid("checkpoint", ` must be a file path, got ""`) : invalid("checkpoint", ` must be a file path, got ${describe(opts.checkpoint)}`, TypeError);
  }
  if (opts.checkpoint !== undefined && !isNode) throw rangeError("checkpoint files need Node (there is no file system here)");
  if (opts.restart !== undefined && typeof opts.restart !== "boolean") throw invalid("restart", ` must be true or false, got ${describe(opts.restart)}`, TypeError);
  if ((opts.key !== undefined || opts.keyFile !== undefined) && opts.checkpoint === undefined) {
    throw rangeError("key and keyFile apply to a checkpoint: give checkpoint too");
  }
  if (opts.checkpoint === undefined) return undefined;
  await checkpointTarget(opts.checkpoint);
  const { key, created } = checkpointKey({ key: opts.key, keyFile: opts.keyFile });
  if (created) process.emitWarning(`created a key for checkpoints at ${created} (mode 0600); keep it to resume them`, { code: "NQUEENS_KEY_CREATED" });
  return { path: opts.checkpoint, key };
}

/**
 * Counts `queue` on the pool, a few parts at a time (it holds two a thread at most), handing
 * each result to `took` (which may reject: that fails the run). The first failure, or the
 * caller's abort, cancels the parts in hand, waits for `last` (the final save), then rejects.
 */
function feedPool(
  pool: WorkerPool, queue: readonly Part[], poolSize: number, signal: AbortSignal | undefined,
  took: (part: Part, result: PartResult) => Promise<void>, last: () => Promise<void>,
): Promise<void> {
  const stop = new AbortController();
  return new Promise<void>((resolve, reject) => {
    let failed = false;
    let next = 0;
    let inHand = 0;
    const fail = (error: unknown): void => {
      if (failed) return;
      failed = true;
      stop.abort(error);
      last().then(() => reject(error), () => reject(error));
    };
    const onAbort = (): void => fail(signal!.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) return onAbort(); // (while the parts were made)
    const feed = (): void => {
      while (!failed && inHand < 2 * poolSize + 1 && next < queue.length) {
        const part = queue[next++];
        inHand++;
        pool.run(part, { signal: stop.signal }).then((result) => {
          inHand--;
          if (failed) return;
          took(part, result).catch(fail);
          if (next === queue.length && inHand === 0) {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          } else feed();
        }).catch(fail);
      }
    };
    feed();
  });
}
