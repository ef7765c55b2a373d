// The body of a counting thread of the pool (src/workers/pool.ts): one module for Node's
// worker_threads and for browser Web Workers. It is bundled on its own
// (tsup.worker.config.ts) and embedded in the main bundle as source text, so starting a
// thread needs no file path or URL.
//
// Protocol (the pool is the other side):
//   { wasm }              first, in browsers: the pool's compiled WebAssembly.Module (in Node
//                         it comes as workerData.wasm); not sent where the pool has no WebAssembly
//   { id, part, engine }  count a part; answers { id, result } or { id, error }
//   { id, solve, engine, allowed, budget, method?, share? }
//                         search one of solve's tasks (src/count/solve-tasks.ts) for a
//                         first solution (by `method`, TaskMethod: plain when left out), using at most `allowed` nodes; reports
//                         { id, nodes } now and then, and { id, nodes, waiting: true } when it has
//                         used them all (it then waits for a grant); answers { id, result:
//                         { columns, nodes } } (columns null: none in the task; with unfinished:
//                         true, `budget` nodes ran out first) or { id, error }
//   { grant: id, allowed } that solve task may use `allowed` nodes in all (more than before)
//   { split: id }         the solve task's search of that id (running here) gives away
//                         the untried branches at the shallowest open level of its stack (TaskSearch.split)
//                         and skips them from now on; answers { id, split: prefixes } (the sub-boards given
//                         away, each a task's prefix; none: nothing to give, or no such search here)
//   { cancel: id }        stop that part, running or waiting here; answers { id, error: "AbortError: ..." }
// Parts are counted (or searched) one at a time in arrival order (the pool may send one ahead,
// so the thread goes on to it without waiting for a round trip), in ~10 ms chunks with the event
// loop free between them, so a cancel acts within about one chunk (and the pool terminates a
// thread that does not answer a cancel in time anyway).
//
// A part, of either kind, is first checked to be exactly its split's part (the part protocol's
// checkAndCount, src/count/split.ts: its identity re-derived, its content and digest compared;
// a plain split's index is made once per n and number of preset rows). A solve task is first
// checked to be a board with valid givens and lists of squares (checkSolveTask). The thread's
// bundle holds no Wasm bytes (tsup.worker.config.ts): it instantiates the module its pool compiled, given as the
// thread starts, before its first part comes; without one, engine 'wasm' is refused here
// (NQ_ENGINE_UNAVAILABLE) and engine 'ts' counts as ever.
import type { EngineName } from "../engine/contract.js";
import { adoptWasmModule, compileWasm } from "../engine/wasm/index.js";
import { checkAndCount, type Part, type PartResult } from "../count/split.js";
import { TaskSearch, type SolveTask, type SolvedTask } from "../count/solve-tasks.js";
import type { Square } from "../board/constraints.js";
import type { TaskMethod } from "../count/constrained.js";
import type { RestartsShare } from "../engine/ts/complete-wide.js";

export type WorkerRequest =
  | { id: number; part: Part; engine: EngineName }
  | { id: number; solve: SolveTask; engine: EngineName; allowed: number; budget: number; method?: TaskMethod; share?: RestartsShare }
  | { grant: number; allowed: number }
  | { split: number }
  | { cancel: number }
  | { wasm: WebAssembly.Module };
/**
 * A thread's answer: the count (or a solve task's result), or the error's text and its code
 * (NQ_*, kept across the thread boundary); with neither, a solve task's report of its nodes so far.
 */
export type WorkerResponse = { id: number; result?: PartResult | SolvedTask; error?: string; code?: string; nodes?: number; waiting?: boolean; split?: Square[][] };

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
/** Least time between two reports of a solve task's nodes (a task at its allowance reports at once). */
const REPORT_MS = 50;

/** "part 3 of 64 (n = 16)", or for a solve job "solve task 2 of 13 (n = 30)". */
function describePart(part: Part | SolveTask, solve = false): string {
  if (typeof part !== "object" || part === null) return String(part);
  const p = part as { part?: number; parts?: number; task?: number; tasks?: number; n: number };
  return solve ? `solve task ${String(p.task)} of ${String(p.tasks)} (n = ${String(p.n)})` : `part ${String(p.part)} of ${String(p.parts)} (n = ${String(p.n)})`;
}

type Job = { id: number; part: Part | SolveTask; engine: EngineName; solve: boolean; budget?: number; method?: TaskMethod; share?: RestartsShare };
const waiting: Job[] = [];
const cancelled = new Set<number>();
/** The nodes each solve task here may use in all (raised by grants). */
const allowance = new Map<number, number>();
/** The wake-up of the solve task waiting for a grant (a grant or a cancel calls it). */
let wake: (() => void) | undefined;
let current: number | undefined;
/** The solve task's search running now (between its chunks while a message is handled). */
let running: TaskSearch | undefined;
let busy = false;

async function countJob({ id, part, engine }: Job): Promise<PartResult> {
  const stopped = (): Error => abortError(`counting ${describePart(part)} was cancelled`);
  if (cancelled.has(id)) throw stopped();
  let lastYield = performance.now();
  // Checked first: exactly its split's part, of either kind.
  return checkAndCount(part as Part, engine, async () => {
    if (performance.now() - lastYield < YIELD_MS) return;
    await yieldToEventLoop(); // a cancel gets in
    lastYield = performance.now();
    if (cancelled.has(id)) throw stopped();
  });
}

async function solveJob({ id, part, engine, budget, method, share }: Job): Promise<SolvedTask> {
  const stopped = (): Error => abortError(`searching ${describePart(part, true)} was cancelled`);
  if (cancelled.has(id)) throw stopped();
  let lastYield = performance.now(), lastReport = lastYield;
  // The search checks the task first: a board and its sub-boards as a task holds them.
  const search = new TaskSearch(part, engine, method, share);
  running = search;
  try {
    return await search.run({
      allowed: () => allowance.get(id) ?? 0,
      budget,
      between: async (nodes, atAllowance) => {
        const t = performance.now();
        if (atAllowance || t - lastReport >= REPORT_MS) {
          channel.post({ id, nodes, ...(atAllowance ? { waiting: true } : {}) });
          lastReport = t;
        }
        if (atAllowance) {
          await new Promise<void>((resolve) => (wake = resolve)); // a grant or a cancel
          wake = undefined;
        } else if (t - lastYield >= YIELD_MS) {
          await yieldToEventLoop(); // a cancel gets in
          lastYield = performance.now();
        }
        if (cancelled.has(id)) throw stopped();
      },
    });
  } finally {
    running = undefined;
    search.close();
  }
}

/** Counts (or searches) the waiting parts one at a time, in arrival order. */
async function drain(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (let job = waiting.shift(); job; job = waiting.shift()) {
      current = job.id;
      try {
        channel.post({ id: job.id, result: await (job.solve ? solveJob(job) : countJob(job)) });
      } catch (error) {
        const code = (error as { code?: unknown })?.code;
        channel.post({
          id: job.id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          ...(typeof code === "string" && code.startsWith("NQ_") ? { code } : {}),
        });
      } finally {
        cancelled.delete(job.id);
        allowance.delete(job.id);
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
      allowance.delete(job.id);
      channel.post({ id: job.id, error: `AbortError: ${job.solve ? "searching" : "counting"} ${describePart(job.part, job.solve)} was cancelled` });
    } else if (current === request.cancel) {
      cancelled.add(request.cancel);
      wake?.();
    }
    return;
  }
  if ("split" in request) {
    // (a message is handled between two chunks of the running search, never inside one)
    const search = current === request.split ? running : undefined;
    channel.post({ id: request.split, split: search?.split() ?? [] });
    return;
  }
  if ("grant" in request) {
    if (allowance.has(request.grant)) allowance.set(request.grant, Math.max(allowance.get(request.grant)!, request.allowed));
    if (current === request.grant) wake?.();
    return;
  }
  if ("solve" in request) {
    allowance.set(request.id, request.allowed);
    waiting.push({ id: request.id, part: request.solve, engine: request.engine, solve: true, budget: request.budget, method: request.method, share: request.share });
  } else {
    waiting.push({ ...request, solve: false });
  }
  void drain();
});
