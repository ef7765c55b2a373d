// The queue's MACs (internal): the run record, every job and every result carry an
// HMAC-SHA-256 under the cluster key (src/core/key.ts), each kind under its own domain so a
// MAC of one kind never passes as another. Each MAC covers the queue's name and the run's
// random id too, so nothing signed for one run (or an earlier run of the same name) passes
// in another. Without a key nothing is signed and the run says `authenticated: false`.
import { explicitKey, macEquals, macOf, type KeyInput } from "../core/key.js";
import { ErrorCode, withCode } from "../core/errors.js";

export const RUN_DOMAIN = "nqueens-queue-run-v1";
export const JOB_DOMAIN = "nqueens-queue-job-v1";
export const RESULT_DOMAIN = "nqueens-queue-result-v1";

/** The one line the CLI prints when a queue run has no key. */
export const NO_KEY_HINT =
  "the queue is not authenticated: anyone who can write to this Redis can change the answer; set NQUEENS_KEY or --key-file FILE (the same key on the coordinator and every worker)";

/** The key of the queue's options: `key`, else `keyFile`, else NQUEENS_KEY; undefined without one. */
export function queueKey(options: { key?: KeyInput; keyFile?: string }): Uint8Array | undefined {
  return explicitKey({ key: options.key, keyFile: options.keyFile });
}

/** `value` without its `mac` field (what the MAC covers, with the queue's name). */
function body(queue: string, value: Record<string, unknown>): Record<string, unknown> {
  const { mac: _mac, ...rest } = value;
  return { queue, ...rest };
}

/** `value` with its MAC under `key` (unchanged without a key). */
export function signed<T extends object>(key: Uint8Array | undefined, domain: string, queue: string, value: T): T & { mac?: string } {
  if (!key) return value;
  return { ...value, mac: macOf(key, domain, body(queue, value as Record<string, unknown>)) };
}

/** Whether `value` carries a MAC that verifies under `key`. */
export function verifies(key: Uint8Array, domain: string, queue: string, value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.mac !== "string") return false;
  let expected: string;
  try {
    expected = macOf(key, domain, body(queue, v));
  } catch {
    return false; // not encodable: not what was signed
  }
  return macEquals(v.mac, expected);
}

export function tampered(message: string): Error & { code: string } {
  return withCode(new Error(message), ErrorCode.tampered);
}

export function keyNeeded(message: string): Error & { code: string } {
  return withCode(new Error(message), ErrorCode.key);
}
