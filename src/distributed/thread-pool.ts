// A small pool of counting threads for the queue worker (the embedded worker of countParallel).
import { Worker as ThreadWorker } from "node:worker_threads";
import workerSource from "../../build/worker-source.js";
import { splitCount, type CountPart, type PartCount } from "../count/parts.js";
import type { WorkerRequest, WorkerResponse } from "../workers/worker.js";

/** A small pool of counting threads (the embedded worker of countParallel). */
export class ThreadPool {
  private idle: ThreadWorker[] = [];
  private waiters: { resolve: (t: ThreadWorker) => void; reject: (e: Error) => void }[] = [];
  private all = new Set<ThreadWorker>();
  private nextId = 0;
  private closed = false;
  constructor(private readonly size: number) {}

  private spawn(): ThreadWorker {
    const thread = new ThreadWorker(workerSource, { eval: true });
    this.all.add(thread);
    return thread;
  }

  private acquire(): Promise<ThreadWorker> {
    if (this.closed) return Promise.reject(new Error("the counting threads are stopped"));
    const thread = this.idle.pop();
    if (thread) return Promise.resolve(thread);
    if (this.all.size < this.size) return Promise.resolve(this.spawn());
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private release(thread: ThreadWorker): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter.resolve(thread);
    else this.idle.push(thread);
  }

  async run(part: CountPart): Promise<PartCount> {
    const thread = await this.acquire();
    const id = this.nextId++;
    return new Promise<PartCount>((resolve, reject) => {
      const cleanup = (): void => { thread.off("message", onMessage); thread.off("error", onDeath); thread.off("exit", onDeath); };
      const onMessage = (m: WorkerResponse): void => {
        if (m.id !== id) return;
        cleanup();
        this.release(thread);
        if (m.error !== undefined) reject(new Error(m.error));
        else resolve(m.result! as PartCount); // the queue sends plain parts only
      };
      const onDeath = (reason: unknown): void => {
        cleanup();
        this.all.delete(thread);
        const waiter = this.closed ? undefined : this.waiters.shift();
        if (waiter) waiter.resolve(this.spawn());
        reject(new Error(`counting thread died: ${String(reason)}`));
      };
      thread.on("message", onMessage);
      thread.on("error", onDeath);
      thread.on("exit", onDeath);
      thread.postMessage({ id, part, engine: "wasm" } satisfies WorkerRequest);
    });
  }

  /** Starts every thread and has it count a tiny part, so the first real part waits for nothing. */
  warm(): void {
    const tiny = splitCount(6, { parts: 1 })[0];
    for (let i = this.all.size; i < this.size; i++) void this.run(tiny).catch(() => {});
  }

  /** Stops every thread at once: the parts they count, and those waiting for one, reject. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error("the counting threads are stopped"));
    await Promise.all([...this.all].map((t) => t.terminate()));
    this.all.clear();
    this.idle = [];
  }
}
