// Looks at a run's jobs in Redis for the coordinator: those gone (their hash deleted), and those
// that one Redis command left where no worker takes or answers them.
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** Jobs read a pipeline at a time. */
const BATCH = 1000;

/** Most pending jobs the look for stuck jobs reads the lists for (it reads them whole). */
export const STUCK_CHECK_MAX = 10_000;

/** The ids of a BullMQ set (completed, failed), read in batches. */
export async function jobIdsIn(client: Redis, queue: Queue, set: "completed" | "failed"): Promise<string[]> {
  const key = queue.toKey(set);
  const out: string[] = [];
  for (let at = 0; ; at += 10 * BATCH) {
    const some = await client.zrange(key, String(at), String(at + 10 * BATCH - 1));
    out.push(...some);
    if (some.length < 10 * BATCH) return out;
  }
}

/** Which of `ids` have no job hash in Redis (pipelined EXISTS), and which do. */
export async function missingJobs(client: Redis, queue: Queue, ids: readonly string[]): Promise<{ gone: string[]; present: string[] }> {
  const gone: string[] = [], present: string[] = [];
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const pipeline = client.pipeline();
    for (const id of batch) pipeline.exists(queue.toKey(id));
    const answers = (await pipeline.exec()) ?? [];
    batch.forEach((id, j) => (answers[j]?.[1] === 0 ? gone : present).push(id));
  }
  return { gone, present };
}

/** A delayed job due this far from now either way was not delayed by the run (its delays are a second or less): it is stranded. */
export const DELAY_SLACK_MS = 60_000;

/**
 * Jobs whose hash is there but that no worker will take or answer: held in no list (LREM'd
 * from wait, ZREM'd from completed), completed with the result deleted (HDEL returnvalue),
 * in the failed set without the reason BullMQ writes on every failure (moved there by hand), or
 * delayed to a time the run never sets (ZADD to delayed: far ahead, or long past and not
 * promoted, which happens when no delay marker wakes the workers).
 * Read in one transaction, a snapshot (a job moving from wait to active is in one of them).
 * For runs with few jobs pending (STUCK_CHECK_MAX): the lists are read whole.
 */
export async function stuckJobs(client: Redis, queue: Queue, ids: readonly string[], now = Date.now()): Promise<Set<string>> {
  const key = (name: string): string => queue.toKey(name);
  const multi = client.multi().lrange(key("wait"), 0, -1).lrange(key("active"), 0, -1).lrange(key("paused"), 0, -1);
  for (const id of ids) multi.hexists(key(id), "returnvalue").zscore(key("completed"), id).zscore(key("failed"), id).zscore(key("delayed"), id).zscore(key("prioritized"), id).hexists(key(id), "failedReason");
  const answers = ((await multi.exec()) ?? []).map(([error, value]) => (error ? undefined : value));
  const inLists = new Set([...((answers[0] as string[] | undefined) ?? []), ...((answers[1] as string[] | undefined) ?? []), ...((answers[2] as string[] | undefined) ?? [])]);
  const stuck = new Set<string>();
  ids.forEach((id, j) => {
    const [hasResult, completed, failed, delayed, prioritized, hasReason] = answers.slice(3 + 6 * j, 9 + 6 * j);
    // BullMQ's delayed score is the due time in ms times 4096, plus a counter.
    const due = delayed === null || delayed === undefined ? undefined : Math.floor(Number(delayed) / 4096);
    const delayedHere = due !== undefined && Math.abs(due - now) <= DELAY_SLACK_MS;
    const listed = inLists.has(id) || delayedHere || [completed, failed, prioritized].some((v) => v !== null && v !== undefined);
    // Completed without its result, or failed without the reason BullMQ writes on every failure
    // (moved there by hand): no worker answers it and no coordinator reads it.
    const bare = (completed !== null && completed !== undefined && hasResult === 0) || (failed !== null && failed !== undefined && hasReason === 0);
    if (!listed || (bare && !inLists.has(id))) stuck.add(id);
  });
  return stuck;
}
