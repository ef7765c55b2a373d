// A job as a worker takes it, whatever the run (internal): the run's record read from Redis
// and checked (its format; under a key its MAC), and the job's MAC and run and job ids, so a
// job someone else wrote is refused before anything of it is used. Shared by a count's parts
// and a solve's tasks (./queue-worker.ts, ./solve-worker.ts).
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
 * The run's record for a job, checked: a record of this format must be there (refused
 * otherwise); under a key it must verify (else retried: the coordinator writes its record back
 * within a poll) and the job must verify, for this run and this job id (refused otherwise); a
 * keyed run is retried by a worker without a key or identity (another worker takes it).
 */
export async function jobRecord<M extends RunMeta>(i: Intake): Promise<M> {
  const stored = await i.client.get(metaKey(i.name));
  let meta: RunMeta | undefined;
  try { meta = stored === null ? undefined : JSON.parse(stored) as RunMeta; } catch { /* refused below */ }
  if (!meta || meta.format !== i.format) {
    if (meta && typeof meta === "object" && (meta.format === "nqueens-count-run" || meta.format === "nqueens-solve-run")) {
      return i.refuse(`it is a ${i.format === "nqueens-solve-run" ? "solve's task" : "count's part"}; the run on this queue is a ${meta.format === "nqueens-solve-run" ? "solve" : "count"}`);
    }
    return i.refuse("no coordinator started a run on this queue (no readable nqueens:meta record)");
  }
  if (i.key) {
    // Retried, not refused: the coordinator writes its record back within a poll.
    if (!verifies(i.key, RUN_DOMAIN, i.name, meta)) throw new Error(`job ${i.jobId} of queue ${i.name}: the run's record is not signed by this worker's key (changed in Redis, or made under another key)`);
    if (!verifies(i.key, JOB_DOMAIN, i.name, i.data) || i.data.run !== meta.run || i.data.job !== i.jobId) {
      i.refuse("it does not verify under this worker's key (changed in Redis, or written without the key)");
    }
  } else if (meta.mac !== undefined && !i.hasIdentity) {
    throw new Error(`job ${i.jobId} of queue ${i.name}: the run was made under a key; this worker has none (NQUEENS_KEY, --key-file)`);
  }
  return meta as M;
}
