// countParallel(n): the parts of splitCount(n) counted on worker threads (Node) or
// Web Workers (browsers), with progress, abort, a worker that dies having its part
// rerun on a fresh worker, and an optional checkpoint file (Node) to resume from.
// The threads are the shared counting pool (src/workers/pool.ts): it keeps each thread
// warm across parts, deals the parts, re-runs a dead thread's part and verifies every result.
import type { EngineName } from "../engine/contract.js";
import { COUNT_MAX_N, count, type CountResult } from "./count.js";
import { pickEngine } from "../engine/select.js";
import { ErrorCode, ioError, rangeError, typeError, withCode } from "../core/errors.js";
import { fnv1a64 } from "../core/digest.js";
import { readCapped, type ReadFailure } from "../core/read-file.js";

/** The most a checkpoint file may hold: a split has at most 131,072 parts, whose entries take about 200 bytes each. */
const CHECKPOINT_MAX_BYTES = 64 << 20;
import { gpuInfo } from "../engine/webgpu/device.js";
import { PROGRESS_INTERVAL_MS, ProgressThrottle, now, type ProgressOptions, type SignalOptions } from "../core/pacer.js";
import { SPLIT_VERSION, defaultParts, mergeCounts, splitCount, type CountPart, type PartCount } from "./parts.js";
import { WorkerPool, availableCores, checkPartResult } from "../workers/pool.js";
import { checkInteger, checkOptions, describe, optionalFunction, optionalInteger, optionalSignal } from "../core/validate.js";
import { checkConstraints, type Square } from "../board/constraints.js";
import {
  CONSTRAINED_MAX_N, constrainedBoard, mergeConstrainedCounts, splitConstrainedCount,
  type ConstrainedPart, type ConstrainedPartCount,
} from "./constrained.js";

/** A part of a plain or of a constrained count (src/count/constrained.ts), and its result. */
type AnyPart = CountPart | ConstrainedPart;
type AnyCount = PartCount | ConstrainedPartCount;

export type ParallelProgress = {
  phase: "count";
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
  /** Engine the workers count with (default 'wasm'). */
  engine?: EngineName;
  /** Node only: a file recording finished parts, so an interrupted count resumes (every entry is verified first). */
  checkpoint?: string;
  /** With `checkpoint`: ignore what the file holds (even a refused file) and start over, overwriting it. */
  restart?: boolean;
  /**
   * Worker 0 is this machine's GPU (engine 'webgpu', docs/gpu.md), counting parts one at a
   * time beside the CPU threads; if its device is lost, its part is counted again and a CPU
   * thread takes its place. Rejects with NQ_ENGINE_UNAVAILABLE where WebGPU has no adapter.
   */
  gpu?: boolean;
  /** Queens given in advance, [row, col] pairs, 0-based (then n <= 64, `unique` null). */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
}

export type ParallelResult = CountResult & { workers: number; parts: number; resumed: number };

/** Test hook (the pool's): called with each worker as it starts, with its place in the pool. */
export { workerHooks, type PoolWorker } from "../workers/pool.js";

const isNode = typeof process !== "undefined" && process.versions?.node !== undefined;

/** Specifier kept in a variable so browser bundlers do not try to resolve a Node built-in. */
const NODE_FS = "node:fs/promises";

/**
 * The checkpoint file (JSON): the run's identity, the verified results of the finished parts,
 * and `checksum`, the FNV-1a 64 of checkpointText (its other fields in a fixed order).
 */
type Checkpoint = {
  format: "nqueens-count-checkpoint";
  splitVersion: number;
  n: number;
  parts: number;
  /** A constrained count's board (digest of its givens and split version); absent for the plain count. */
  board?: string;
  done: AnyCount[];
  checksum: string;
};

const RESULT_KEYS = ["splitVersion", "n", "part", "parts", "digest", "count8", "count4", "count2", "nodes"] as const;
const CONSTRAINED_RESULT_KEYS = ["kind", "splitVersion", "n", "part", "parts", "digest", "total", "nodes"] as const;

/** What the checksum covers: format, splitVersion, n, parts, the board if any, and every entry's fields, in a fixed order. */
function checkpointText(data: Omit<Checkpoint, "checksum">): string {
  const done = data.done.map((r) =>
    "kind" in r && r.kind === "constrained"
      ? CONSTRAINED_RESULT_KEYS.map((key) => r[key])
      : RESULT_KEYS.map((key) => (r as PartCount)[key]));
  return JSON.stringify([data.format, data.splitVersion, data.n, data.parts, ...(data.board === undefined ? [] : [data.board]), done]);
}

function refused(path: string, why: string): RangeError & { code: string } {
  return withCode(
    new RangeError(`checkpoint ${path} ${why}; it is not used: delete it, or pass restart: true, to start over`),
    ErrorCode.checkpointCorrupt,
  );
}

/**
 * Reads and verifies a checkpoint: its checksum, its run (n, parts, split version), and every
 * entry against its re-derived part (checkPartCount), one entry per part at most. Anything else
 * is refused with NQ_CHECKPOINT_CORRUPT; a missing file is a fresh start.
 */
async function readCheckpoint(path: string, n: number, parts: number | undefined, board?: string): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readCapped(path, CHECKPOINT_MAX_BYTES); // (a device such as /dev/full never ends)
  } catch (error) {
    const code = (error as ReadFailure).reason;
    if (code === "ENOENT") return undefined;
    throw refused(path, code === "tooLarge" ? `is over ${CHECKPOINT_MAX_BYTES >> 20} MiB (no checkpoint is), or endless as a device such as /dev/full is` : `cannot be read (${code})`);
  }
  let data: Checkpoint;
  try {
    data = JSON.parse(text) as Checkpoint;
  } catch {
    throw refused(path, "is not a checkpoint file (not JSON)");
  }
  if (typeof data !== "object" || data === null || data.format !== "nqueens-count-checkpoint") throw refused(path, "is not a count checkpoint");
  if (data.splitVersion !== SPLIT_VERSION) {
    throw refused(path, `was made by task split version ${data.splitVersion}; this package uses version ${SPLIT_VERSION}`);
  }
  if (!Array.isArray(data.done) || !data.done.every((r) => typeof r === "object" && r !== null)) throw refused(path, "has no list of finished parts");
  if (typeof data.checksum !== "string" || fnv1a64(checkpointText(data)) !== data.checksum) {
    throw refused(path, `fails its checksum (${typeof data.checksum === "string" ? "the content was changed or damaged" : "none"})`);
  }
  if (data.n !== n) throw refused(path, `belongs to n = ${data.n}, not n = ${n}`);
  if (parts !== undefined && data.parts !== parts) throw refused(path, `has ${data.parts} parts, not ${parts}`);
  if (data.board !== board) throw refused(path, "belongs to another board (given queens and blocked squares differ)");
  return data;
}

/** The checkpoint's entries, each checked against its part; a bad or repeated one refuses the file. */
function verifiedEntries(path: string, data: Checkpoint, parts: readonly AnyPart[]): Map<number, AnyCount> {
  if (data.parts !== parts.length) throw refused(path, `has ${data.parts} parts; the split of n = ${data.n} it names has ${parts.length}`);
  const done = new Map<number, AnyCount>();
  for (const [i, entry] of data.done.entries()) {
    const part = parts[entry.part];
    if (!Number.isInteger(entry.part) || !part) throw refused(path, `entry ${i} names part ${JSON.stringify(entry.part)}, not one of 0 .. ${parts.length - 1}`);
    if (done.has(entry.part)) throw refused(path, `holds part ${entry.part} twice`);
    try {
      done.set(entry.part, checkPartResult(part, entry)); // a checkpoint entry is verified like a thread's answer
    } catch (error) {
      throw refused(path, `entry ${i}: ${(error as Error).message}`);
    }
  }
  return done;
}

/** Writes the checkpoint atomically: a temporary file, then a rename over the old one. */
async function writeCheckpoint(path: string, data: Checkpoint): Promise<void> {
  const fs = (await import(/* @vite-ignore */ NODE_FS)) as typeof import("node:fs/promises");
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await fs.writeFile(temporary, JSON.stringify(data));
    await fs.rename(temporary, path);
  } catch (error) {
    throw ioError(`checkpoint ${path} could not be written`, error);
  }
}

/**
 * Counts the solutions of the n-queens problem on several workers (1 <= n <= 32).
 * @example const { total } = await countParallel(16, { workers: 2 }); // 14772512n
 */
export async function countParallel(n: number, options?: ParallelOptions): Promise<ParallelResult> {
  const opts = checkOptions<ParallelOptions>("countParallel", options, ["workers", "parts", "engine", "signal", "onProgress", "progressIntervalMs", "checkpoint", "restart", "gpu", "fixed", "blocked"]);
  if (opts.gpu !== undefined && typeof opts.gpu !== "boolean") throw typeError(`gpu must be true or false, got ${describe(opts.gpu)}`);
  const givens = opts.fixed !== undefined || opts.blocked !== undefined;
  checkInteger("n", n, 1, givens ? CONSTRAINED_MAX_N : COUNT_MAX_N);
  const constraints = checkConstraints(n, givens ? { fixed: opts.fixed, blocked: opts.blocked } : undefined, "countParallel");
  if (constraints.empty) checkInteger("n", n, 1, COUNT_MAX_N);
  if (opts.gpu && !constraints.empty) throw rangeError("gpu: the GPU counts plain boards only; count given queens or blocked squares on the CPU threads (gpu: false)");
  // The board's identity in the checkpoint: the digest of its normalised givens (the queue's record uses the same).
  const board = constraints.empty ? undefined : constrainedBoard(constraints).digest;
  const workers = opts.workers === undefined ? await availableCores() : checkInteger("workers", opts.workers, 1, 256);
  if (opts.parts !== undefined) checkInteger("parts", opts.parts, 1, 1_000_000);
  const engine = pickEngine(opts.engine).name;
  const signal = optionalSignal(opts.signal);
  const onProgress = optionalFunction<(p: ParallelProgress) => void>("onProgress", opts.onProgress);
  const progressIntervalMs = optionalInteger("progressIntervalMs", opts.progressIntervalMs, 0, 60_000, PROGRESS_INTERVAL_MS);
  if (opts.checkpoint !== undefined && (typeof opts.checkpoint !== "string" || opts.checkpoint === "")) {
    throw rangeError(`checkpoint must be a file path, got ${JSON.stringify(opts.checkpoint)}`);
  }
  if (opts.checkpoint !== undefined && !isNode) throw rangeError("checkpoint files need Node (there is no file system here)");
  if (opts.restart !== undefined && typeof opts.restart !== "boolean") throw typeError(`restart must be true or false, got ${describe(opts.restart)}`);
  signal?.throwIfAborted();
  if (opts.gpu) await gpuInfo(); // NQ_ENGINE_UNAVAILABLE, saying what is missing
  const start = now();
  if (n <= 3 && constraints.empty) {
    const small = await count(n, { engine });
    onProgress?.({ phase: "count", n, tasksDone: 0, tasksTotal: 0, tasksResumed: 0, workers: 0, elapsedMs: now() - start });
    return { ...small, workers: 0, parts: 0, resumed: 0 };
  }

  // The threads start now, while the parts are made and the checkpoint read (a fresh thread takes tens of ms).
  const pool = new WorkerPool({ size: workers, engine, gpu: opts.gpu === true });
  pool.warm(Math.min(workers, opts.parts ?? (constraints.empty ? defaultParts(n) : 64)));
  try {
    return await countOnPool(pool);
  } finally {
    await pool.close();
  }

  async function countOnPool(pool: WorkerPool): Promise<ParallelResult> {
    const saved = opts.checkpoint && !opts.restart ? await readCheckpoint(opts.checkpoint, n, opts.parts, board) : undefined;
    const parts: AnyPart[] = constraints.empty
      ? splitCount(n, { parts: saved?.parts ?? opts.parts })
      : splitConstrainedCount(n, constraints, saved?.parts ?? opts.parts ?? 64);
    const done: Map<number, AnyCount> = saved ? verifiedEntries(opts.checkpoint!, saved, parts) : new Map<number, AnyCount>();
    const resumed = done.size;
    const queue: AnyPart[] = parts.filter((p) => !done.has(p.part));
    const poolSize = Math.max(1, Math.min(workers, queue.length));

    let lastSave = 0;
    const save = async (force: boolean): Promise<void> => {
      if (!opts.checkpoint || (!force && now() - lastSave < 1000)) return;
      lastSave = now();
      const content: Omit<Checkpoint, "checksum"> = {
        format: "nqueens-count-checkpoint", splitVersion: SPLIT_VERSION, n, parts: parts.length, ...(board ? { board } : {}), done: [...done.values()],
      };
      // One write at a time: two writes overlapping on the same temporary file lose a rename.
      const write = saving.then(() => writeCheckpoint(opts.checkpoint!, { ...content, checksum: fnv1a64(checkpointText(content)) }));
      saving = write.catch(() => undefined);
      await write;
    };
    let saving: Promise<void> = Promise.resolve();
    const progress = new ProgressThrottle(onProgress, progressIntervalMs);
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

    if (queue.length > 0) {
      const stop = new AbortController(); // the first failure, or the caller's abort, cancels the parts in hand
      await new Promise<void>((resolve, reject) => {
        let failed = false;
        let next = 0;
        let inHand = 0;
        const fail = (error: unknown): void => {
          if (failed) return;
          failed = true;
          stop.abort(error);
          save(true).then(() => reject(error), () => reject(error));
        };
        const onAbort = (): void => fail(signal!.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
        if (signal?.aborted) return onAbort(); // (while the parts were made)
        // Parts go to the pool a few at a time (it holds two a thread at most), not all at once.
        const feed = (): void => {
          while (!failed && inHand < 2 * poolSize + 1 && next < queue.length) {
            const part = queue[next++];
            inHand++;
            pool.run(part, { signal: stop.signal }).then((result) => {
              inHand--;
              if (failed) return;
              done.set(part.part, result); // verified against its part by the pool (checkPartResult) before it got here
              if (done.size < parts.length) report(false); // the last is reported once, at the end
              save(false).catch(fail);
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
    await save(true);
    report(true);
    if (!constraints.empty) {
      const { total, nodes } = mergeConstrainedCounts(parts.map((p) => done.get(p.part) as ConstrainedPartCount), parts as ConstrainedPart[]);
      return { n, total, unique: null, nodes, ms: now() - start, engine, workers: poolSize, parts: parts.length, resumed };
    }
    const merged = mergeCounts(parts.map((p) => done.get(p.part) as PartCount), { n, parts: parts.length });
    return { ...merged, ms: now() - start, engine, workers: poolSize, parts: parts.length, resumed };
  }
}
