// The body of a counting thread of the pool (src/workers/pool.ts): one module for Node's
// worker_threads and for browser Web Workers. It is bundled on its own
// (tsup.worker.config.ts) and embedded in the main bundle as source text, so starting a
// thread needs no file path or URL.
//
// Protocol (the pool is the other side):
//   { wasm }              first, in browsers: the pool's compiled WebAssembly.Module (in Node
//                         it comes as workerData.wasm); not sent where the pool has no WebAssembly
//   { id, part, engine }  count a part; answers { id, result } or { id, error }
//   { cancel: id }        stop that part, running or waiting here; answers { id, error: "AbortError: ..." }
// Parts are counted one at a time in arrival order (the pool may send one ahead, so the
// thread goes on to it without waiting for a round trip), in ~10 ms chunks with the event
// loop free between them, so a cancel acts within about one chunk (and the pool terminates a
// thread that does not answer a cancel in time anyway).
//
// A part, of either kind, is first checked to be exactly its split's part (the part protocol's
// checkAndCount, src/count/split.ts: its identity re-derived, its content and digest compared;
// a plain split's index is made once per n and number of preset rows). The thread's bundle holds no Wasm bytes
// (tsup.worker.config.ts): it instantiates the module its pool compiled, given as the
// thread starts, before its first part comes; without one, engine 'wasm' is refused here
// (NQ_ENGINE_UNAVAILABLE) and engine 'ts' counts as ever.
import type { EngineName } from "../engine/contract.js";
import { adoptWasmModule, compileWasm } from "../engine/wasm/index.js";
import { checkAndCount, type Part, type PartResult } from "../count/split.js";

export type WorkerRequest = { id: number; part: Part; engine: EngineName } | { cancel: number } | { wasm: WebAssembly.Module };
/** A thread's answer: the count, or the error's text and its code (NQ_*, kept across the thread boundary). */
export type WorkerResponse = { id: number; result?: PartResult; error?: string; code?: string };

type Port = { post(message: WorkerResponse): void; listen(handler: (message: WorkerRequest) => void): void };

declare const require: ((id: string) => unknown) | undefined;

function port(): Port {
  const scope = globalThis as unknown as {
    postMessage?: (m: unknown) => void;
    addEventListener?: (type: string, listener: (event: { data: unknown }) => void) => void;
    WorkerGlobalScope?: unknown;
  };
  if (scope.WorkerGlobalScope !== undefined && scope.postMessage && scope.addEventListener) {
    return {
      post: (m) => scope.postMessage!(m),
      listen: (handler) => scope.addEventListener!("message", (event) => handler(event.data as WorkerRequest)),
    };
  }
  // Node: the pool starts this code with new Worker(source, { eval: true }), where require exists.
  const { parentPort, workerData } = require!("node:worker_threads") as {
    parentPort: { postMessage(m: unknown): void; on(type: "message", handler: (m: WorkerRequest) => void): void };
    workerData: { wasm?: unknown } | null;
  };
  adoptModule(workerData?.wasm);
  return { post: (m) => parentPort.postMessage(m), listen: (handler) => parentPort.on("message", handler) };
}

/** The pool's compiled module (no compile, no tier-up here), and a first instance of it made now, while the pool deals the first parts. */
function adoptModule(module: unknown): void {
  if (module === undefined) return; // no WebAssembly where the pool is: parts come on 'ts'
  adoptWasmModule(module);
  compileWasm().catch(() => { /* a part on 'wasm' says what went wrong */ });
}

function yieldToEventLoop(): Promise<void> {
  if (typeof setImmediate === "function") return new Promise((resolve) => setImmediate(resolve));
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** An AbortError, as AbortSignal's reason is (a DOMException where there is one). */
function abortError(message: string): Error {
  return typeof DOMException === "function" ? new DOMException(message, "AbortError") : Object.assign(new Error(message), { name: "AbortError" });
}

/** Least time between two yields to the event loop (where a cancel gets in). */
const YIELD_MS = 10;

function describePart(part: Part): string {
  return typeof part === "object" && part !== null ? `${String(part.part)} of ${String(part.parts)} (n = ${String(part.n)})` : String(part);
}

type Job = { id: number; part: Part; engine: EngineName };
const waiting: Job[] = [];
const cancelled = new Set<number>();
let current: number | undefined;
let busy = false;

async function countJob({ id, part, engine }: Job): Promise<PartResult> {
  const stopped = (): Error => abortError(`counting part ${describePart(part)} was cancelled`);
  if (cancelled.has(id)) throw stopped();
  let lastYield = performance.now();
  // Checked first: exactly its split's part, of either kind.
  return checkAndCount(part, engine, async () => {
    if (performance.now() - lastYield < YIELD_MS) return;
    await yieldToEventLoop(); // a cancel gets in
    lastYield = performance.now();
    if (cancelled.has(id)) throw stopped();
  });
}

/** Counts the waiting parts one at a time, in arrival order. */
async function drain(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (let job = waiting.shift(); job; job = waiting.shift()) {
      current = job.id;
      try {
        channel.post({ id: job.id, result: await countJob(job) });
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        channel.post({
          id: job.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          ...(typeof code === "string" && code.startsWith("NQ_") ? { code } : {}),
        });
      } finally {
        cancelled.delete(job.id);
        current = undefined;
      }
    }
  } finally {
    busy = false;
  }
}

const channel = port();
channel.listen((request) => {
  if ("wasm" in request) return adoptModule(request.wasm);
  if ("cancel" in request) {
    const at = waiting.findIndex((job) => job.id === request.cancel);
    if (at >= 0) {
      const [job] = waiting.splice(at, 1); // not started: answered at once
      channel.post({ id: job.id, error: `AbortError: counting part ${describePart(job.part)} was cancelled` });
    } else if (current === request.cancel) {
      cancelled.add(request.cancel);
    }
    return;
  }
  waiting.push(request);
  void drain();
});
