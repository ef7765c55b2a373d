// startWorker() is the long-running worker: it finds the runs to work on in a Redis set,
// told at once of new and finished runs by a Redis PUBLISH on RUNS_CHANNEL (the set is
// polled too, slowly, in case a message is missed), or is given one queue, and counts each
// part (plain, or of a constrained board) on the Wasm engine in a worker thread (the same embedded worker as
// countParallel), `concurrency` parts at once; a solve's jobs (solveDistributed) go to the same
// threads (./solve-worker.ts). A worker killed mid-part loses its lock;
// another worker's stalled-job check puts the part back on the queue. close() (SIGTERM/SIGINT
// in the CLI) finishes the parts in hand first.
import { availableParallelism, hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Worker as QueueWorker, Job } from "bullmq";
import type { CountPart, PartCount } from "../count/parts.js";
import { gpuCounts, partsOfIdentity, type Part, type PartResult } from "../count/split.js";
import { checkChoice, checkInteger, checkOptions, describe, optionalFunction } from "../core/validate.js";
import { threadsEngine } from "../engine/select.js";
import { ErrorCode, invalid } from "../core/errors.js";
import { countPartWebGpu } from "../count/gpu-part.js";
import { gpuInfo } from "../engine/webgpu/device.js";
import { bull, connect, failureText, redisOptions, within, type Connection } from "./redis.js";
import {
  ACTIVE_RUNS_KEY, CONSTRAINED_QUEUE_MAX_PARTS, QUEUE_NAME, RUNS_CHANNEL, countedKey, metaKey, type ConstrainedPartJob, type CountRunMeta, type PartJob, type RunMeta,
} from "./keys.js";
import { WorkerPool } from "../workers/pool.js";
import { queueLibraries } from "./deps.js";
import { redact } from "./redact.js";
import type { KeyInput } from "../core/key.js";
import { RESULT_DOMAIN, keylessChoice, queueKey, signed, workerIdentity, type WorkerIdentity } from "./auth.js";
import { workerKey } from "./plan.js";
import { ForeignRun, jobRecord, runAdmission } from "./intake.js";
import { isSolveJob, solveJobs, type SolveEvent } from "./solve-worker.js";

export type WorkerEvent =
  | { type: "joined"; queue: string }
  /**
   * The run is no longer listed in `nqueens:runs`: `finished` (a coordinator stored its
   * total), `removed` (removeRun, `nqueens runs --remove`) or `unlisted` (taken out of the
   * set by hand; its parts stay).
   */
  | { type: "left"; queue: string; reason: "finished" | "removed" | "unlisted" }
  | { type: "counted"; queue: string; part: number; ms: number }
  /** A solve's task answered (solveDistributed): found, none, or unfinished within its pass's budget. */
  | SolveEvent
  | { type: "error"; queue?: string; message: string };

export type WorkerOptions = {
  /** Redis: a URL such as redis://127.0.0.1:6379 or ioredis options. */
  connection: Connection;
  /** Parts counted at once, each on its own thread (default: the cores available). */
  concurrency?: number;
  /**
   * Parts taken ahead of the threads (default 1): a thread that finishes a part starts the
   * next at once instead of waiting for a Redis round trip.
   */
  prefetch?: number;
  /** Work on this queue only (default: every unfinished run, found in Redis). */
  queue?: string;
  /** BullMQ lock of a part in hand, renewed every half of it (default 30000 ms). */
  lockDuration?: number;
  /** How often to look for parts whose worker died (default 30000 ms). */
  stalledInterval?: number;
  /** How often to look for new and finished runs besides the coordinators' notices (default 5000 ms). */
  pollMs?: number;
  /**
   * close() without force: how long the parts in hand may take to finish before they are
   * handed back to the queue instead (default 1000 ms), so a stop never waits on a long part.
   */
  graceMs?: number;
  connectTimeoutMs?: number;
  onEvent?: (event: WorkerEvent) => void;
  /**
   * 'wasm' (default): the parts are counted on CPU threads. 'webgpu': on this machine's GPU
   * (gpu/constellations.wgsl, docs/gpu.md), one at a time (concurrency defaults to 1), with the
   * same counts and nodes as a CPU thread's. A part whose device is lost is counted again on the
   * CPU threads, as are the parts of a constrained board's run (the GPU counts plain boards
   * only); without an adapter startWorker rejects with NQ_ENGINE_UNAVAILABLE before it connects.
   */
  engine?: "wasm" | "webgpu";
  /** @deprecated Use `engine: 'webgpu'` (`gpu: true` still works). */
  gpu?: boolean;
  /**
   * The cluster key (default: the file `keyFile`, else NQUEENS_KEY): the worker counts only
   * runs whose record verifies under it, refuses a job whose MAC does not, and MACs its
   * results. Without a key (and without an identity) startWorker refuses (NQ_KEY), unless
   * `unauthenticated` is true: then it counts only runs made without one.
   */
  key?: KeyInput;
  keyFile?: string;
  /** true: a worker without a key or identity, as asked (NQUEENS_KEY left unused): it counts only runs made without a key; refused beside key, keyFile or an identity. */
  unauthenticated?: boolean;
  /** This worker's name in results and audit reports (default: host name, pid and 4 random hex digits; with an identity, its name). */
  name?: string;
  /**
   * This worker's own identity (name and key, from `nqueens key --worker NAME`, derived from the
   * cluster key): its results are MACed under its own key, so no other worker can pass results
   * as this one's, and replicas and audits tell it apart by identity. With an identity and no
   * cluster key, the worker counts keyed runs without checking their jobs' MACs (it cannot: a
   * forged job can waste its time, never change a total, which the coordinator checks).
   */
  identity?: WorkerIdentity;
  /** A file holding the identity (what `nqueens key --worker NAME --out FILE` writes; checked as a key file). */
  identityFile?: string;
};

export type DistributedWorker = {
  /** Parts this worker finished counting. */
  readonly counted: number;
  /** Solve jobs this worker answered (found, none, or unfinished within a pass's budget). */
  readonly searched: number;
  /** Its name in results (and in a coordinator's `suspects`). */
  readonly name: string;
  /** Whether it has a key (counts only runs signed with it, and signs its results). */
  readonly authenticated: boolean;
  /**
   * Stops taking parts and finishes the parts in hand, handing back to the queue those not
   * finished within graceMs; with force, stops counting at once and hands them back (or,
   * Redis being gone, leaves them to the stalled-job check).
   */
  close(force?: boolean): Promise<void>;
};

/**
 * A long-running counting worker: takes parts from the queues of unfinished runs (or one
 * queue) and stores each part's count as its job's return value.
 * @example const worker = await startWorker({ connection: "redis://127.0.0.1:6379", keyFile: "cluster.key", concurrency: 2 });
 */
// About 280 lines, as one closure: the worker's connections, its BullMQ workers by queue, its
// thread pool and GPU turn, and what it has counted are shared by its steps (join a run,
// re-derive a job's part, count it, leave a finished run, close), each a named inner function;
// the parts' protocol and the checks they use live elsewhere (src/count/split.ts, ./auth.ts).
export async function startWorker(options: WorkerOptions): Promise<DistributedWorker> {
  const opts = checkOptions<WorkerOptions>("startWorker", options, ["connection", "concurrency", "prefetch", "queue", "lockDuration", "stalledInterval", "pollMs", "connectTimeoutMs", "onEvent", "graceMs", "engine", "gpu", "key", "keyFile", "name", "identity", "identityFile", "unauthenticated"]);
  if (opts.engine !== undefined) checkChoice("engine", opts.engine, ["wasm", "webgpu"] as const);
  const { gpu } = threadsEngine("startWorker", opts.engine, opts.gpu);
  const redis = redisOptions(opts.connection as Connection);
  const concurrency = opts.concurrency === undefined ? (gpu ? 1 : availableParallelism()) : checkInteger("concurrency", opts.concurrency, 1, 256);
  const prefetch = opts.prefetch === undefined ? 1 : checkInteger("prefetch", opts.prefetch, 0, 256);
  const lockDuration = opts.lockDuration === undefined ? 30_000 : checkInteger("lockDuration", opts.lockDuration, 100, 3_600_000);
  const stalledInterval = opts.stalledInterval === undefined ? 30_000 : checkInteger("stalledInterval", opts.stalledInterval, 100, 3_600_000);
  const pollMs = opts.pollMs === undefined ? 5000 : checkInteger("pollMs", opts.pollMs, 10, 60_000);
  const connectTimeoutMs = opts.connectTimeoutMs === undefined ? 3000 : checkInteger("connectTimeoutMs", opts.connectTimeoutMs, 1, 600_000);
  const graceMs = opts.graceMs === undefined ? 1000 : checkInteger("graceMs", opts.graceMs, 0, 3_600_000);
  const given = optionalFunction<(e: WorkerEvent) => void>("onEvent", opts.onEvent) ?? (() => {});
  const onEvent = (e: WorkerEvent): void => given(e.type === "error" ? { ...e, message: redact(e.message) } : e);
  const key = queueKey(opts);
  const identity = workerIdentity(opts);
  if (identity && opts.name !== undefined && opts.name !== identity.name) throw invalid("name", ` ${JSON.stringify(opts.name)} is not this worker's identity (${identity.name}): leave it out (the identity names the worker)`);
  if (opts.name !== undefined && (typeof opts.name !== "string" || !/^[\w.:@-]{1,100}$/.test(opts.name))) {
    throw invalid("name", ` must be 1 to 100 letters, digits, '_', '.', ':', '@' or '-', got ${describe(opts.name)}`, TypeError);
  }
  const workerName = identity?.name ?? opts.name ?? `${hostname()}-${process.pid}-${randomBytes(2).toString("hex")}`;
  const keyGiven = (["key", "keyFile", "identity", "identityFile"] as const).find((option) => opts[option] !== undefined);
  keylessChoice(opts.unauthenticated, keyGiven, key !== undefined || identity !== undefined); // NQ_KEY without a key or identity, unless asked for

  const { bullmq: { Worker: QueueWorker, WaitingError, UnrecoverableError, DelayedError }, ioredis: { Redis } } = await queueLibraries();

  if (gpu) await gpuInfo(); // NQ_ENGINE_UNAVAILABLE, saying what is missing, before anything starts
  const stopGpu = new AbortController();
  let gpuTurn: Promise<unknown> = Promise.resolve(); // parts take turns on the GPU
  const onGpu = (part: CountPart): Promise<PartCount> => {
    const turn = gpuTurn.then(() => countPartWebGpu(part, { signal: stopGpu.signal }));
    gpuTurn = turn.catch(() => {});
    return turn;
  };
  const client = await connect(redis, connectTimeoutMs);
  const pool = new WorkerPool({ size: concurrency });
  const workers = new Map<string, QueueWorker>();
  /** Parts counted (or being counted) here, per queue: a replica's second count goes to another worker. */
  const countedHere = new Map<string, Set<number>>();
  /** Runs this worker leaves alone for want of the right key (said once each). */
  const keyRefused = new Map<string, string>();
  /** Names in nqueens:runs that no run can have, said once each. */
  const badNames = new Set<string>();
  /** Says once (a run, a reason) why this worker leaves run `name` alone. */
  const refusedRun = (name: string, why: string, message: string): void => {
    if (keyRefused.get(name) !== why) { keyRefused.set(name, why); onEvent({ type: "error", queue: name, message }); }
  };
  /**
   * Whether this worker may join the run `name`: its record is signed under this worker's key,
   * or both have none; no record yet (and no job): looked at again later (runAdmission).
   */
  const mayJoin = async (name: string): Promise<boolean> => {
    const admission = await runAdmission(client, name, key, identity !== undefined);
    if (admission === "join") keyRefused.delete(name);
    else if (admission !== "later") refusedRun(name, admission.why, `not joining run ${name}: ${admission.why}`);
    return admission === "join";
  };
  let counted = 0;
  let closing = false;
  let forced = false;
  const inHand = new Set<Promise<unknown>>(); // parts being counted or handed back, for close(true) to wait on
  const track = <T>(promise: Promise<T>): Promise<T> => {
    const settled = promise.then(() => {}, () => {}).finally(() => inHand.delete(settled));
    inHand.add(settled);
    return promise;
  };

  const join = (name: string): void => {
    const left = (): boolean => workers.get(name) !== worker; // this worker left the run (or left it and joined it afresh)
    const worker = new QueueWorker(name, (job: Job<unknown>, token?: string) => track<unknown>(isSolveJob(job) ? solver.run(name, job, token, left) : countPart(name, job, token)), {
      connection: bull(redis), concurrency: concurrency + prefetch, lockDuration, stalledInterval, maxStalledCount: 3,
    });
    worker.on("error", (e) => onEvent({ type: "error", queue: name, message: failureText(redis, e) }));
    workers.set(name, worker);
    onEvent({ type: "joined", queue: name });
  };

  /**
   * The parts a job names (one, or a run's job of several consecutive ones), re-derived from
   * its identity (n, parts, index, count, split version) and
   * checked against its digest and the run's record: a job written by someone else cannot
   * change what is counted. A constrained board's part is re-derived from the board the run's
   * record holds (its lists must give its digest) and the job's depth, parts and index, which
   * must be the run's; its prefixes are never read from Redis. Anything else fails the job at
   * once (no retries), saying why.
   */
  const partsOfJob = async (name: string, job: Job<unknown>): Promise<Part[]> => {
    const refuse = (why: string): never => {
      throw new UnrecoverableError(`refused job ${job.id ?? "?"} of queue ${name}: ${why}`);
    };
    const data = job.data as Partial<PartJob & ConstrainedPartJob> | null;
    if (typeof data !== "object" || data === null || Array.isArray(data)) return refuse(`its data is ${describe(data)}, not a part's identity`);
    for (const key of ["n", "parts", "index", "splitVersion"] as const) {
      if (!Number.isSafeInteger(data[key])) refuse(`its ${key} is ${describe(data[key])}, not an integer`);
    }
    if (typeof data.digest !== "string") refuse(`its digest is ${describe(data.digest)}, not a string`);
    const meta = await jobRecord<CountRunMeta>({ client, name, jobId: String(job.id ?? "?"), data, format: "nqueens-count-run", key, hasIdentity: identity !== undefined, refuse });
    return partsOfIdentity(data, meta, CONSTRAINED_QUEUE_MAX_PARTS, refuse);
  };

  const onThread = (part: Part): Promise<PartResult> => pool.run(part); // checked against its part

  // A solve's tasks (./solve-worker.ts): searched on the same threads, stopped when their run is decided.
  const solver = solveJobs({
    client, key, identity, workerName, pool, errors: { UnrecoverableError, DelayedError, WaitingError },
    onSearched: (e) => onEvent(e), onRefused: (queue, message) => onEvent({ type: "error", queue, message }), forced: () => forced,
    onForeign: (queue, why) => leaveForeign(queue, why),
  });

  /** A job's parts counted in turn (one, or a run's job of several): its result is the one part's, or `results`, one a part. */
  const countPart = async (name: string, job: Job<unknown>, token?: string): Promise<object> => {
    const t0 = performance.now();
    let parts: Part[];
    try {
      parts = await partsOfJob(name, job);
    } catch (error) {
      if (error instanceof UnrecoverableError) onEvent({ type: "error", queue: name, message: error.message });
      if (!(error instanceof ForeignRun)) throw error;
      // Not this worker's run (another key, or none): left, and the part handed back, its attempts unused.
      leaveForeign(name, error.why);
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // A replica's second count, or a count asked of another worker: not this worker's to do
    // when it counted (or counts) the part already, or is named in `not`. Put off for another worker.
    const seal = job.data as { run?: string; job?: unknown; not?: unknown };
    const mine = countedHere.get(name) ?? new Set<number>();
    countedHere.set(name, mine);
    const secondCount = typeof seal.job === "string" && /-(r1|x\d+)$/.test(seal.job);
    if ((Array.isArray(seal.not) && seal.not.includes(workerName)) || (secondCount && mine.has(parts[0].part))) {
      await job.moveToDelayed(Date.now() + 250, token);
      throw new DelayedError();
    }
    mine.add(parts[0].part);
    const results: PartResult[] = [];
    for (const part of parts) results.push(await countOne(name, part, job, token));
    const counts = client.pipeline();
    for (const result of results) counts.hincrby(countedKey(name), String(result.part), 1);
    await counts.exec();
    counted += results.length;
    const ms = performance.now() - t0;
    for (const result of results) onEvent({ type: "counted", queue: name, part: result.part, ms: ms / results.length });
    // Who counted it, for which run and job: MACed with the counts under the key.
    const body = (job.data as { count?: unknown }).count === undefined ? results[0] : { results };
    return signed(identity?.key ?? key, RESULT_DOMAIN, name, { ...body, worker: workerName, ...(identity ? { identity: true } : {}), ...(typeof seal.run === "string" ? { run: seal.run } : {}), job: job.id ?? "" });
  };

  const countOne = async (name: string, part: Part, job: Job<unknown>, token: string | undefined): Promise<PartResult> => {
    let result: PartResult;
    try {
      // The GPU counts plain parts only: a constrained board's part goes to the CPU threads.
      if (!gpu || !gpuCounts(part)) result = await onThread(part);
      else {
        try {
          result = await onGpu(part as CountPart);
        } catch (error) {
          // A lost device never gives a count: the part is counted again here, on the CPU.
          if ((error as { code?: string })?.code !== ErrorCode.deviceLost || forced) throw error;
          onEvent({ type: "error", queue: name, message: `part ${part.part}: ${(error as Error).message}; counting it on the CPU instead` });
          result = await onThread(part);
        }
      }
    } catch (error) {
      // Stopped at once (close(true)): hand the part back to the queue, without using up
      // one of its attempts, for another worker to take now rather than after its lock.
      if (!forced) throw error;
      await job.moveToWait(token);
      throw new WaitingError();
    }
    return result;
  };

  /** A run found not to be this worker's as it took one of its jobs (its record made or rewritten under another key): left, saying why once. */
  const leaveForeign = (name: string, why: string): void => {
    refusedRun(name, why, `leaving run ${name}: ${why}`);
    if (workers.has(name)) void leave(name, true);
  };

  const leave = async (name: string, foreign = false): Promise<void> => {
    const worker = workers.get(name);
    workers.delete(name);
    countedHere.delete(name);
    // A solve's tasks in hand stop now, rather than being searched to their end: failed for
    // good when the run's record holds a verdict, else (taken out of nqueens:runs, removed, not
    // this worker's) handed back, their attempts unused: the run waits for a worker, not fails.
    if (foreign || !await solver.checkDecided(name)) solver.stop(name, false);
    // Bounded, the forced close too: a run that vanished with Redis (restarted empty) may leave
    // a part in hand that can never be stored, and BullMQ's close then never ends; waiting for
    // it would stop this worker from looking for runs (the look is one at a time).
    if (worker) await within(worker.close(), connectTimeoutMs, "leave").catch(() => within(worker.close(true), connectTimeoutMs, "leave").catch(() => {}));
    if (foreign) return; // said why (leaveForeign)
    const stored = await client.get(metaKey(name)).catch(() => undefined);
    let total: unknown;
    try {
      const meta = stored ? JSON.parse(stored) as RunMeta : undefined;
      total = meta?.format === "nqueens-solve-run" ? meta.found : meta?.total; // a count's total, a solve's verdict
    } catch { /* unlisted */ }
    onEvent({ type: "left", queue: name, reason: total !== undefined ? "finished" : stored === null ? "removed" : "unlisted" });
  };

  // One look at a time; a notice during a look makes another look right after it.
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  // Redis's run_id changes when the server restarts: the queue workers of before may hold
  // parts that no longer exist and may not take new ones (BullMQ does not always recover
  // from that), so they are dropped and the runs joined afresh.
  let serverRun: string | undefined;
  const restarted = async (): Promise<boolean> => {
    const id = /run_id:(\w+)/.exec(await client.info("server"))?.[1];
    const changed = serverRun !== undefined && id !== undefined && id !== serverRun;
    serverRun = id ?? serverRun;
    return changed;
  };
  const look = async (): Promise<void> => {
    try {
      // Seen by coordinators choosing a run's default parts; gone within a minute of a stop.
      if (!closing) await client.set(workerKey(workerName), String(concurrency), "EX", Math.max(60, Math.ceil((3 * pollMs) / 1000)));
      if (await restarted() && !closing) {
        onEvent({ type: "error", message: "Redis restarted: the parts in hand are dropped (their runs put them back) and the runs joined afresh" });
        for (const [name, worker] of [...workers]) {
          workers.delete(name);
          void worker.close(true).catch(() => {});
        }
      }
      const listed = opts.queue ? [opts.queue] : await client.smembers(ACTIVE_RUNS_KEY);
      // A name BullMQ cannot open was written by someone else: said once, never joined.
      const names: string[] = [];
      for (const name of listed) {
        if (QUEUE_NAME.test(name)) names.push(name);
        else if (!badNames.has(name)) {
          badNames.add(name);
          onEvent({ type: "error", message: `nqueens:runs lists ${JSON.stringify(name)}, which is not a queue name a run can have: ignored` });
        }
      }
      if (closing) return;
      for (const name of names) if (!workers.has(name) && await mayJoin(name) && !closing && !workers.has(name)) join(name);
      for (const name of [...workers.keys()]) if (!names.includes(name)) await leave(name);
      for (const name of workers.keys()) await solver.checkDecided(name); // a run still listed (a worker on one queue) but decided
    } catch (error) {
      if (!closing) onEvent({ type: "error", message: failureText(redis, error) });
    }
  };
  const discover = (): Promise<void> => {
    if (closing) return Promise.resolve();
    if (looking) { lookAgain = true; return looking; }
    clearTimeout(timer);
    looking = look().finally(() => {
      looking = undefined;
      if (closing) return;
      if (lookAgain) { lookAgain = false; void discover(); } else timer = setTimeout(() => void discover(), pollMs);
    });
    return looking;
  };

  // Coordinators PUBLISH on RUNS_CHANNEL when a run starts or finishes: look at once (a worker
  // on one queue, when it is that queue's run: a solve decided stops its tasks in hand).
  const subscriber = new Redis({ ...redis, connectTimeout: connectTimeoutMs });
  subscriber.on("error", () => {}); // it reconnects and resubscribes by itself; the poll covers the gap
  subscriber.on("message", (_channel: string, message: string) => { if (!opts.queue || message === opts.queue) void discover(); });
  await within(subscriber.subscribe(RUNS_CHANNEL), connectTimeoutMs, "subscribe").catch((error) => {
    onEvent({ type: "error", message: `no notices of new runs, looking every ${pollMs} ms instead: ${error instanceof Error ? error.message : String(error)}` });
  });
  pool.warm(); // threads started and the Wasm compiled before the first part comes (each compiles as it starts)
  await discover();

  return {
    get counted() { return counted; },
    get searched() { return solver.searched; },
    name: workerName,
    authenticated: key !== undefined || identity !== undefined,
    async close(force = false) {
      const first = !closing;
      closing = true;
      clearTimeout(timer);
      subscriber.disconnect();
      const queueWorkers = [...workers.values()];
      if (force) {
        // Stop counting now; the parts in hand go back to the queue (see the processor).
        // Every queue worker must stop taking parts first: a worker still fetching takes a
        // handed-back part again at once (BullMQ fetches the next job after a WaitingError)
        // and a forced BullMQ close drops it, still active and locked, for lockDuration; a
        // forced close also skips storing a part finished just before it. A paused worker
        // takes nothing more, still stores what it finishes, and its pause() (which waits
        // for its parts in hand) ends once they are completed or back in wait. A graceful
        // close already under way ends the same way.
        forced = true;
        stopGpu.abort();
        const stopped = queueWorkers.map((w) => (first ? w.pause() : w.close()).catch(() => {}));
        await pool.close();
        await within(Promise.all([...stopped, ...inHand]), connectTimeoutMs, "hand back").catch(() => {});
      } else {
        // Graceful: take no more parts, let those in hand finish for up to graceMs, then hand
        // the rest back as a forced stop does (a part at a large n may take hours).
        const closed = Promise.all(queueWorkers.map((w) => w.close().catch(() => {})));
        let timer: NodeJS.Timeout | undefined;
        const inTime = await Promise.race([
          closed.then(() => true),
          new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), graceMs); }),
        ]);
        clearTimeout(timer);
        if (!inTime) {
          forced = true;
          stopGpu.abort();
          await pool.close();
          await within(Promise.all([closed, ...inHand]), connectTimeoutMs, "hand back").catch(() => {});
        }
      }
      await Promise.all(queueWorkers.map((w) => w.close(force)));
      workers.clear();
      await pool.close();
      // A look in flight (it joins nothing once closing) ends before its client goes, else
      // its command fails and reports an error after the worker said it was stopping.
      await within(looking ?? Promise.resolve(), connectTimeoutMs, "look").catch(() => {});
      await within(client.del(workerKey(workerName)), 1000, "unregister").catch(() => {});
      client.disconnect();
    },
  };
}
