// A job as a worker takes it, whatever the run (internal): the run's record read from Redis
// and checked (its format; under a key its MAC), and the job's MAC and run and job ids, so a
// job someone else wrote is refused before anything of it is used. Shared by a count's parts
// and a solve's tasks (./queue-worker.ts, ./solve-worker.ts), as is the look that decides
// whether a worker joins a run at all (runAdmission).
import type { Redis } from "ioredis";
import { JOB_DOMAIN, RUN_DOMAIN, verifies } from "./auth.js";
import { metaKey, type RunMeta } from "./keys.js";

export type Intake = {
  client: Redis; name: string; jobId: string; data: { run?: unknown; job?: unknown };
  /** The record format the job's kind belongs to. */
  format: RunMeta["format"];
  key: Uint8Array | undefined; hasIdentity: boolean;
  /** Fails the job at once (no retry), saying why. */
  refuse: (why: string) => never;
};

/**
 * A job of a run this worker leaves alone for want of the right key (`why`, keyMismatch's):
 * not the job's fault, so it is handed back to the queue without using up one of its attempts
 * (for a worker with the run's key), and the worker leaves the run, saying why once.
 */
export class ForeignRun extends Error {
  constructor(readonly queue: string, readonly why: string) {
    super(`leaving run ${queue}: ${why}`);
    this.name = "ForeignRun";
  }
}

/**
 * Why a worker with this key (or none, or an identity alone) leaves the run whose record is
 * `meta` alone: undefined when it may work on it (the record is signed under its key, or
 * neither has one; a worker with an identity alone works on keyed runs).
 */
export function keyMismatch(meta: Partial<RunMeta>, name: string, key: Uint8Array | undefined, hasIdentity: boolean): string | undefined {
  if (!key && hasIdentity) return meta.mac === undefined ? "it was made without a key; a worker with an identity counts only keyed runs" : undefined;
  if (key) {
    if (meta.mac === undefined) return "it was made without a key; this worker counts only runs signed with its key";
    return verifies(key, RUN_DOMAIN, name, meta as RunMeta) ? undefined : "its record does not verify under this worker's key (another key, or changed in Redis)";
  }
  return meta.mac !== undefined ? "it was made under a key: start the worker with the same key (NQUEENS_KEY or --key-file FILE)" : undefined;
}

/** The run's record of queue `name` as Redis holds it (undefined: none, or not JSON of an object). */
async function readRecord(client: Redis, name: string): Promise<RunMeta | undefined> {
  const stored = await client.get(metaKey(name));
  try {
    const meta = stored === null ? undefined : JSON.parse(stored) as unknown;
    return typeof meta === "object" && meta !== null && !Array.isArray(meta) ? meta as RunMeta : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a worker joins the run on queue `name`: "join"; "later" when there is no run yet (no
 * record and no job waiting: a coordinator writes its record before its jobs, and tells the
 * workers on RUNS_CHANNEL once they are there), so a worker started before the coordinator
 * never takes a job of a run it may not work on; else why it leaves the run alone
 * (keyMismatch's). A queue that holds jobs but no record (no coordinator started a run there)
 * is joined: its jobs are refused, saying so (jobRecord).
 */
export async function runAdmission(client: Redis, name: string, key: Uint8Array | undefined, hasIdentity: boolean): Promise<"join" | "later" | { why: string }> {
  const meta = await readRecord(client, name);
  if (meta) {
    const why = keyMismatch(meta, name, key, hasIdentity);
    return why === undefined ? "join" : { why };
  }
  // BullMQ's keys under its default prefix (the queue's connections set none).
  const [[, wait], [, paused], [, prioritized], [, delayed]] = (await client.multi()
    .llen(`bull:${name}:wait`).llen(`bull:${name}:paused`).zcard(`bull:${name}:prioritized`).zcard(`bull:${name}:delayed`).exec()) as [Error | null, number][];
  return wait + paused + prioritized + delayed > 0 ? "join" : "later";
}

/**
 * The run's record for a job, checked: a record of this format must be there (refused
 * otherwise); a run this worker may not work on (keyMismatch) throws ForeignRun (the job is
 * handed back, not failed); under a key the job must verify, for this run and this job id
 * (refused otherwise).
 */
export async function jobRecord<M extends RunMeta>(i: Intake): Promise<M> {
  const meta = await readRecord(i.client, i.name);
  if (!meta || meta.format !== i.format) {
    if (meta && (meta.format === "nqueens-count-run" || meta.format === "nqueens-solve-run")) {
      return i.refuse(`it is a ${i.format === "nqueens-solve-run" ? "solve's task" : "count's part"}; the run on this queue is a ${meta.format === "nqueens-solve-run" ? "solve" : "count"}`);
    }
    return i.refuse("no coordinator started a run on this queue (no readable nqueens:meta record)");
  }
  const why = keyMismatch(meta, i.name, i.key, i.hasIdentity);
  if (why !== undefined) throw new ForeignRun(i.name, why);
  if (i.key && (!verifies(i.key, JOB_DOMAIN, i.name, i.data) || i.data.run !== meta.run || i.data.job !== i.jobId)) {
    i.refuse("it does not verify under this worker's key (changed in Redis, or written without the key)");
  }
  return meta as M;
}
