// What a coordinator says and decides about a run that waits or is already there: that no
// worker is on it, why no part has finished for a while (and what would end the wait), and
// which run of n in Redis a default split resumes.
import type { Redis } from "ioredis";
import { SPLIT_VERSION } from "../count/parts.js";
import { RUN_DOMAIN, verifies } from "./auth.js";
import { metaKey, type CountRunMeta } from "./keys.js";

/** How to start a worker that joins the run: with its key, or (a run without one) --unauthenticated. */
function startOne(keyed: boolean): string {
  return `start one (nqueens worker --queue URL${keyed ? " with this run's key: NQUEENS_KEY or --key-file FILE" : " --unauthenticated"})`;
}

/** Under a key: why a worker that is running may still not be on the run. */
const OTHER_KEY = "a worker without this run's key does not join it (it says so on its own stderr)";

/**
 * Said as soon as a run has no worker on it (none started, or none with its key), and again
 * when the workers it had are all gone: `before` says whether workers were on it before.
 */
export function noWorkerText(name: string, q: { before: boolean; keyed: boolean }): string {
  return `queue ${name}: no worker on it ${q.before ? "any more" : "yet"}: ${startOne(q.keyed)}${q.keyed ? `; ${OTHER_KEY}` : ""}; the run waits for one`;
}

/** Why a run with no part finished for a while may be waiting, and what would end the wait. */
export function stallText(name: string, forMs: number, q: { workers: number; active: number; waiting: number; done: number; parts: number; replicas: number; keyed: boolean; unit?: string; listed?: boolean }): string {
  const unit = q.unit ?? "part";
  const why: string[] = [];
  // Taken out of the run list by hand: the workers leave it alone (a pause) until it is listed again.
  if (q.listed === false) why.push(`it is not listed in nqueens:runs (taken out by hand), so workers leave it alone: list it again with redis-cli SADD nqueens:runs ${name}`);
  else if (q.workers === 0) why.push(`no worker is on it: ${startOne(q.keyed)}`);
  else if (q.replicas > 1 && q.workers < 2) why.push(`with replicas 2 each ${unit} is ${unit === "part" ? "counted" : "searched"} by two different workers, and one worker is on it: start another`);
  if (q.keyed) why.push(OTHER_KEY);
  if (q.active > 0) why.push(`${q.active} ${unit}${q.active === 1 ? " is" : "s are"} being ${unit === "part" ? "counted" : "searched"} (a long ${unit} takes a while)`);
  return `queue ${name}: no ${unit} finished for ${Math.round(forMs / 1000)} s (${q.done} of ${q.parts} done, ${q.active} in hand, ${q.waiting} waiting, ${q.workers} worker${q.workers === 1 ? "" : "s"} on it): ${why.join("; ") || "the workers may be slow or stopped"}; Ctrl-C stops waiting, and the same command resumes`;
}

/**
 * The parts of the run of n (plain, this split version) already in Redis under its default name:
 * an unfinished one first, else a finished one. Under a key only a record that verifies counts
 * (an unsigned or forged one, say of 99999999999 parts, must not steer the split), and only a
 * number of parts a queue run takes.
 */
export async function runToResume(client: Redis, n: number, runKey: Uint8Array | undefined): Promise<number | undefined> {
  const prefix = metaKey(`nqueens-count-n${n}-p`);
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", `${prefix}*-v${SPLIT_VERSION}`, "COUNT", 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== "0");
  let finished: number | undefined;
  for (const key of keys.sort()) {
    const parts = Number(/-p(\d+)-v\d+$/.exec(key)?.[1]);
    let meta: CountRunMeta | undefined;
    try { meta = JSON.parse((await client.get(key)) ?? "null") as CountRunMeta; } catch { continue; }
    if (!meta || meta.format !== "nqueens-count-run" || meta.n !== n || meta.parts !== parts || meta.board !== undefined) continue;
    const name = key.slice(metaKey("").length);
    if (!Number.isSafeInteger(parts) || parts < 1 || parts > 1_000_000) continue; // the most a queue run takes (parts' own check)
    if (runKey && !verifies(runKey, RUN_DOMAIN, name, meta)) continue;
    if (meta.total === undefined) return parts;
    finished ??= parts;
  }
  return finished;
}

