// A queue's claim for a run, the coordinator's first step on Redis: the record the queue holds
// must be this run's (the same count, board and split) and verify under the key; a queue
// without a record must hold no jobs. Gives the run's id, the record's or a fresh one.
import type { Queue } from "bullmq";
import { ErrorCode, rangeError, withCode } from "../core/errors.js";
import { metaKey, type CountRunMeta, type RunMeta } from "./keys.js";
import { RUN_DOMAIN, keyedRunWithoutKey, tampered, verifies } from "./auth.js";

/**
 * The queue's claim for this run: a record there must be this run's (another count or board is
 * NQ_QUEUE_MISMATCH) and verify under the key (NQ_TAMPERED; a keyed run without a key,
 * NQ_KEY); a queue without a record must hold no jobs. Its messages say "count" or "solve" as
 * the run asked for (`want`) is. Returns the run's id: the record's, or a
 * fresh one.
 */
export async function claimQueue(stored: string | null, queue: Queue, name: string, key: Uint8Array | undefined, want: RunMeta, same: (meta: RunMeta) => boolean): Promise<string> {
  const solve = want.format === "nqueens-solve-run";
  if (stored === null) {
    const counts = await queue.getJobCounts();
    const jobs = Object.values(counts).reduce((a, b) => a + b, 0);
    if (jobs > 0) {
      throw withCode(rangeError(`queue ${name} holds ${jobs} jobs that are not an nqueens ${solve ? "solve" : "count"}: use another queue name`), ErrorCode.queueMismatch);
    }
    return randomId();
  }
  let meta: RunMeta | undefined;
  try { meta = JSON.parse(stored) as RunMeta; } catch { /* refused below */ }
  if (!meta || !same(meta)) {
    throw withCode(rangeError(
      `queue ${name} holds another ${meta?.format === "nqueens-solve-run" ? "run" : "count"} (${meta ? runText(meta) : "unreadable"}), ` +
      `not ${runText(want)}: use another queue name or remove that run`,
    ), ErrorCode.queueMismatch);
  }
  if (key && !verifies(key, RUN_DOMAIN, name, meta)) {
    throw tampered(
      `queue ${name}: the run's record (${metaKey(name)}) does not verify under this key: ${meta.mac === undefined ? "the run was made without a key" : "it was changed in Redis, or made under another key"}; ` +
      `nothing of it is used: remove the run with \`nqueens runs --remove ${name}\` and ${solve ? "solve" : "count"} again`,
    );
  }
  if (!key && meta.mac !== undefined) {
    throw keyedRunWithoutKey(name, solve);
  }
  return typeof meta.run === "string" && /^[0-9a-f]{16,64}$/.test(meta.run) ? meta.run : randomId();
}

/** 16 random bytes, hex: a run's identity in its MACs. */
function randomId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What a run is, in messages: n, parts, split version and, for a constrained board, its digest; a solve's n, board and tasks. */
function runText(meta: RunMeta): string {
  const board = meta.board === undefined ? "" : typeof meta.board === "object" && meta.board !== null ? `, board ${String(meta.board.digest)}` : ", an unreadable board";
  if (meta.format === "nqueens-solve-run") return `a solve of n = ${meta.n}${board}, ${meta.tasks} tasks, tasks version ${meta.tasksVersion}`;
  const perJob = meta.perJob === undefined || meta.perJob === 1 ? "" : `, ${String(meta.perJob)} parts a job`;
  return `n = ${meta.n}, ${meta.parts} parts${perJob}, split version ${meta.splitVersion}${board}`;
}

/** The same board (or both plain): digest, depth and lists, field by field. */
export function sameBoard(a: CountRunMeta["board"], b: CountRunMeta["board"]): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof a !== "object" || a === null) return false;
  return a.digest === b.digest && a.n === b.n && a.depth === b.depth && JSON.stringify(a.fixed) === JSON.stringify(b.fixed) && JSON.stringify(a.blocked) === JSON.stringify(b.blocked);
}
