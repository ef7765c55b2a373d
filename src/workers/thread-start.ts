// Starting one thread of the pool (src/workers/pool.ts): a worker_thread in Node, a Web Worker in
// browsers, both running src/workers/worker.ts from embedded source text, with this thread's
// compiled Wasm module handed over (the thread's bundle holds no Wasm bytes). Also the cores a
// pool may use, and the hook tests use to see (and kill) threads as they start.
import { compileWasmModule } from "../engine/wasm/index.js";
import { hasWebAssembly } from "../engine/select.js";
import workerSource from "../../build/worker-source.js";
import type { WorkerRequest, WorkerResponse } from "./worker.js";
import { importModule, isNode } from "../core/platform.js";
import { ErrorCode, withCode } from "../core/errors.js";

/** A thread of the pool, whichever kind of platform (or the GPU) it runs on. */
export type PoolWorker = {
  post(message: WorkerRequest): void;
  /** The pool's own stop: no death is reported; settles once the thread has exited. */
  terminate(): Promise<void> | void;
  /** An unexpected death, as when the thread crashes (for tests): reported like one. */
  kill(): void;
};

/** Test hook: called with each thread as it starts, with its place in the pool (tests kill one to prove its part is re-run). */
export const workerHooks: { onStart?: (worker: PoolWorker, index: number) => void } = {};


/** Specifiers kept in variables so browser bundlers do not try to resolve Node built-ins. */
const NODE_WORKER_THREADS = "node:worker_threads";
const NODE_OS = "node:os";

/** The cores this process may use (Node), or the browser's hardwareConcurrency. */
export async function availableCores(): Promise<number> {
  if (isNode) {
    const os = await importModule<typeof import("node:os")>(NODE_OS);
    return os.availableParallelism?.() ?? os.cpus().length;
  }
  return (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 2;
}

export type Events = { message(m: WorkerResponse): void; died(reason: string): void };

/** Node flags a thread must not inherit: they make the eval'd body a module, or another program. */
const HOST_ONLY = /^--(input-type|eval|print|import|require|loader|experimental-loader)\b|^-[epr]$/;
/** Flags a thread refused (ERR_WORKER_INVALID_EXEC_ARGV: V8 and process-wide ones such as --expose-gc), left out from then on. */
const refusedFlags = new Set<string>();

/**
 * This thread's compiled Wasm module, for the threads to share: their bundle holds no Wasm
 * bytes of its own (src/workers/worker.ts). Undefined where there is no WebAssembly: the
 * threads then count on 'ts' (the engine countParallel picks there).
 */
async function sharedModule(): Promise<WebAssembly.Module | undefined> {
  if (!hasWebAssembly()) return undefined;
  try {
    return await compileWasmModule();
  } catch {
    return undefined;
  }
}

export async function startThread(events: Events): Promise<PoolWorker> {
  const wasm = await sharedModule(); // compiled once, by the first thread's start
  if (isNode) {
    const { Worker } = await importModule<typeof import("node:worker_threads")>(NODE_WORKER_THREADS);
    // execArgv: not the host's own flags (under `node --input-type=module -e` the eval'd body
    // would be read as a module, without `require`), nor those a thread refuses (--expose-gc,
    // --max-old-space-size: Node throws ERR_WORKER_INVALID_EXEC_ARGV when given them).
    const create = (): InstanceType<typeof Worker> => {
      const flags = process.execArgv.filter((flag) => !HOST_ONLY.test(flag) && !refusedFlags.has(flag));
      // Inheriting (no execArgv) drops refused flags quietly; only an edited list needs passing.
      return new Worker(workerSource, {
        eval: true, workerData: { wasm },
        ...(flags.length === process.execArgv.length ? {} : { execArgv: flags }),
      });
    };
    let worker: InstanceType<typeof Worker>;
    try {
      worker = create();
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
      const named = /flags: (.*)$/.exec((error as Error).message)?.[1]?.split(", ");
      for (const flag of named ?? process.execArgv) refusedFlags.add(flag);
      worker = create();
    }
    let ended = false;
    worker.on("message", (m: WorkerResponse) => events.message(m));
    worker.on("error", (e) => { if (!ended) { ended = true; events.died(String(e)); } });
    worker.on("exit", (code) => { if (!ended) { ended = true; events.died(`exit code ${code}`); } });
    return {
      post: (m) => worker.postMessage(m),
      terminate: async () => { ended = true; await worker.terminate(); },
      kill: () => void worker.terminate(), // the exit event reports it
    };
  }
  const url = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
  const worker = new Worker(url);
  URL.revokeObjectURL(url);
  if (wasm) worker.postMessage({ wasm } satisfies WorkerRequest); // first: before any part
  let ended = false;
  worker.addEventListener("message", (e: MessageEvent<WorkerResponse>) => events.message(e.data));
  // A worker the page may not start (a Content-Security-Policy without blob: workers) gives an error event without a message.
  worker.addEventListener("error", (e) => { if (!ended) { ended = true; events.died(e.message || "it could not start (no reason given: a Content-Security-Policy that forbids blob: workers?)"); } });
  return {
    post: (m) => worker.postMessage(m),
    terminate: () => { ended = true; worker.terminate(); },
    kill: () => { worker.terminate(); if (!ended) { ended = true; events.died("killed"); } },
  };
}

/** Threads that keep dying, coded: out of memory (Node's ERR_WORKER_OUT_OF_MEMORY) as such, else NQ_THREAD_FAILED. */
export function threadsDying(message: string, reason: string): Error {
  return withCode(new Error(message), /ERR_WORKER_OUT_OF_MEMORY/.test(reason) ? ErrorCode.outOfMemory : ErrorCode.threadFailed);
}
