// The body of a counting worker: one module for Node's worker_threads and for browser
// Web Workers. It is bundled on its own (tsup.worker.config.ts) and embedded in the main
// bundle as source text, so starting a worker needs no file path or URL.
// Protocol: receives { id, part, engine }, answers { id, result } or { id, error }; the part is
// counted in ~10 ms chunks (countPart) with the event loop free between them, so
// { cancel: id } stops it within about 100 ms (answered { id, error: "AbortError: ..." }).
import type { EngineName } from "../engine/contract.js";
import { countPart, type CountPart, type PartCount } from "../count/parts.js";
import { countConstrainedPartAsync, type ConstrainedPart, type ConstrainedPartCount } from "../count/constrained.js";

export type WorkerRequest = { id: number; part: CountPart | ConstrainedPart; engine: EngineName } | { cancel: number };
export type WorkerResponse = { id: number; result?: PartCount | ConstrainedPartCount; error?: string };

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
  // Node: the main thread starts this code with new Worker(source, { eval: true }), where require exists.
  const { parentPort } = require!("node:worker_threads") as {
    parentPort: { postMessage(m: unknown): void; on(type: "message", handler: (m: WorkerRequest) => void): void };
  };
  return { post: (m) => parentPort.postMessage(m), listen: (handler) => parentPort.on("message", handler) };
}

const channel = port();
const running = new Map<number, AbortController>();
channel.listen((request) => {
  if ("cancel" in request) {
    running.get(request.cancel)?.abort();
    return;
  }
  const { id, part, engine } = request;
  const controller = new AbortController();
  running.set(id, controller);
  // A plain part or a constrained board's part (issue 15), both in chunks, so a cancel acts between them.
  const counting: Promise<PartCount | ConstrainedPartCount> = "kind" in part && part.kind === "constrained"
    ? countConstrainedPartAsync(part, { engine, signal: controller.signal })
    : countPart(part as CountPart, { engine, signal: controller.signal });
  counting.then(
    (result) => channel.post({ id, result }),
    (error: unknown) => channel.post({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
  ).finally(() => running.delete(id));
});
