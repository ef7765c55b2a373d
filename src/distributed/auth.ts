// The queue's MACs (internal): the run record, every job and every result carry an
// HMAC-SHA-256 under the cluster key (src/core/key.ts), each kind under its own domain so a
// MAC of one kind never passes as another. Each MAC covers the queue's name and the run's
// random id too, so nothing signed for one run (or an earlier run of the same name) passes
// in another. A run without a key is refused unless asked for (`unauthenticated: true`): then
// nothing is signed and the run says `authenticated: false`.
import { explicitKey, macEquals, macOf, type KeyInput } from "../core/key.js";
import { ErrorCode, invalid, withCode, type CodedError } from "../core/errors.js";
import { describe } from "../core/validate.js";

export const RUN_DOMAIN = "nqueens-queue-run-v1";
export const JOB_DOMAIN = "nqueens-queue-job-v1";
export const RESULT_DOMAIN = "nqueens-queue-result-v1";

/** The one line the CLI prints when a queue run has no key. */
export const NO_KEY_HINT =
  "the queue is not authenticated: anyone who can write to this Redis can change the answer; set NQUEENS_KEY or --key-file FILE (the same key on the coordinator and every worker)";

/** The way out of a run refused for want of a key, in the API's words (the CLI says it with its flags). */
export const KEY_HINT =
  "give the cluster key (key or keyFile, or the environment variable NQUEENS_KEY; the same key on the coordinator and every worker), or pass unauthenticated: true to run without one";

/** The way out of a keyed run met without its key, in the API's words (the CLI says it with its flags). */
export const SAME_KEY_HINT = "give the key it was made under (key or keyFile, or the environment variable NQUEENS_KEY)";

/**
 * A run made under a key, met by a coordinator without one (`unauthenticated`): NQ_KEY with
 * `param` "key", the reason (`detail`: its results, or a solve's answers, are checked under the
 * key) and the way out (`hint`, SAME_KEY_HINT) as fields, as keyMissing's.
 */
export function keyedRunWithoutKey(queue: string, solve: boolean): CodedError {
  const detail = `queue ${queue}: the run was made under a key, and its ${solve ? "answers" : "results"} are checked under it`;
  return Object.assign(withCode(new Error(`${detail}; ${SAME_KEY_HINT}`), ErrorCode.key), { param: "key", detail, hint: SAME_KEY_HINT });
}

/**
 * A queue run without a key that was not asked for: NQ_KEY with `param` "key", the reason
 * (`detail`) and the way out (`hint`) as fields, so the CLI can say the way out with its flags.
 */
export function keyMissing(): CodedError {
  const detail = "no cluster key: a queue run without one is not authenticated, and anyone who can write to its Redis can change the answer";
  return Object.assign(withCode(new Error(`${detail}; ${KEY_HINT}`), ErrorCode.key), { param: "key", detail, hint: KEY_HINT });
}

/**
 * Whether a queue run goes without a key, as its options choose. `given` names the option that
 * gave a key or a worker's identity (key, keyFile, identity, identityFile), `keyed` whether the
 * run has one (from NQUEENS_KEY too). `unauthenticated: true` is refused beside a given one
 * (NQ_INVALID_ARGUMENT); without a key or identity, only `unauthenticated: true` lets the run go
 * (NQ_KEY, keyMissing, otherwise).
 */
export function keylessChoice(unauthenticated: unknown, given: string | undefined, keyed: boolean): boolean {
  if (unauthenticated !== undefined && typeof unauthenticated !== "boolean") {
    throw invalid("unauthenticated", ` must be true (run without a key) or false, got ${describe(unauthenticated)}`, TypeError);
  }
  if (unauthenticated === true) {
    if (given !== undefined) throw invalid("unauthenticated", ` asks for a run without a key, but one is given (${given}): leave one of the two out`);
    return true;
  }
  if (!keyed) throw keyMissing();
  return false;
}

/**
 * The key of the queue's options: `key`, else `keyFile`, else NQUEENS_KEY; undefined without
 * one, and for a run asked to go without one (`unauthenticated: true` overrides NQUEENS_KEY).
 */
export function queueKey(options: { key?: KeyInput; keyFile?: string; unauthenticated?: unknown }): Uint8Array | undefined {
  if (options.unauthenticated === true && options.key === undefined && options.keyFile === undefined) return undefined;
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

// ---- worker identities -----------------------------------------------------------------

/** The domain of a worker's identity key: made from the cluster key and the worker's name. */
export const IDENTITY_DOMAIN = "nqueens-worker-identity-v1";

/** A worker's name as an identity: letters, digits and . _ @ : -, 1 to 100 of them. */
export const IDENTITY_NAME = /^[A-Za-z0-9._@:-]{1,100}$/;

const IDENTITY_LINE = /^nqueens-worker-identity v1 ([A-Za-z0-9._@:-]{1,100}) ([0-9a-f]{64})$/;

/** A worker's identity: its name and the key its results are MACed under. */
export type WorkerIdentity = { name: string; key: Uint8Array };

const identityKeys = new WeakMap<Uint8Array, Map<string, Uint8Array>>();

/**
 * The key of worker `name` under the cluster key, what `nqueens key --worker NAME` issues: an
 * HMAC of the name under the cluster key, so the coordinator can check any worker's results
 * without a list of keys, and a worker holding its own key can make no other worker's.
 */
export function identityKey(cluster: Uint8Array, name: string): Uint8Array {
  let known = identityKeys.get(cluster);
  if (known === undefined) identityKeys.set(cluster, (known = new Map()));
  let key = known.get(name);
  if (key === undefined) {
    key = new Uint8Array(macOf(cluster, IDENTITY_DOMAIN, { worker: name }).match(/../g)!.map((h) => parseInt(h, 16)));
    if (known.size < 10_000) known.set(name, key);
  }
  return key;
}

/** The text of an identity file: one line, `nqueens-worker-identity v1 NAME HEX`. */
export function identityText(cluster: KeyInput, name: string): string {
  const key = explicitKey({ key: cluster });
  if (typeof name !== "string" || !IDENTITY_NAME.test(name)) {
    throw invalid("name", ` must be 1 to 100 letters, digits or . _ @ : -, got ${describe(name)}`, TypeError);
  }
  const hex = [...identityKey(key!, name)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `nqueens-worker-identity v1 ${name} ${hex}\n`;
}

/**
 * A worker's identity from its file (checked as a key file is: owner, mode 0600 or 0400, its
 * directory; NQ_KEY otherwise), which `nqueens key --worker NAME` wrote.
 */
export function readIdentity(path: string): WorkerIdentity {
  if (typeof path !== "string" || path === "") throw invalid("path", ` must be the path of an identity file, got ${describe(path)}`, TypeError);
  let bytes: Uint8Array;
  try {
    bytes = queueKey({ keyFile: path })!;
  } catch (error) {
    // Read as a key file is (owner, mode, directory), and said as what it is.
    const e = error as Error & { code?: string };
    if (e.code === ErrorCode.key && e.message.startsWith("key file ")) {
      e.message = `identity file ${e.message.slice("key file ".length)}`;
      (e as { param?: string }).param = "identityFile"; // (the CLI's --identity-file: bad input, as a key file is)
    }
    throw e;
  }
  const m = IDENTITY_LINE.exec(new TextDecoder().decode(bytes).trim());
  if (!m) throw keyNeeded(`identity file ${path} is not a worker identity (one line "nqueens-worker-identity v1 NAME KEY", as \`nqueens key --worker NAME\` writes it)`);
  return { name: m[1]!, key: new Uint8Array(m[2]!.match(/../g)!.map((h) => parseInt(h, 16))) };
}

/** A worker's identity option: `identity` ({ name, key } as readIdentity gives it), else `identityFile`, else none. */
export function workerIdentity(opts: { identity?: unknown; identityFile?: unknown }): WorkerIdentity | undefined {
  if (opts.identity !== undefined) {
    const { name, key } = opts.identity as Partial<WorkerIdentity>;
    if (typeof name !== "string" || !IDENTITY_NAME.test(name) || !(key instanceof Uint8Array) || key.length !== 32) {
      throw invalid("identity", " must be { name, key } as readIdentity gives it (a name of 1 to 100 letters, digits or . _ @ : -, and 32 key bytes)", TypeError);
    }
    return { name, key };
  }
  if (opts.identityFile !== undefined) {
    if (typeof opts.identityFile !== "string" || opts.identityFile === "") throw invalid("identityFile", ` must be a file path, got ${describe(opts.identityFile)}`);
    return readIdentity(opts.identityFile);
  }
  return undefined;
}

/** What a coordinator takes a result under: its key, the identities it takes, the revoked ones, and the run and job the result must be for. */
export type SealCheck = {
  key: Uint8Array | undefined; identities: "allowed" | "required"; revoked: ReadonlySet<string>;
  queue: string; runId: string; job: string;
  /** The result in messages: "the result for part 3 of 16 (n = 12)". */
  what: string;
};

/**
 * A worker's result checked as the coordinator takes it, whatever the run: under a key its MAC
 * (under the worker's own identity key when it is marked so, and only so with identities
 * "required") and its run and job ids (NQ_TAMPERED saying why otherwise). Returns the worker's
 * name as the result gives it (at most 200 characters; "(unnamed)") and, under a key, whether
 * it is a revoked identity's.
 */
export function checkSeal(value: unknown, s: SealCheck): { worker: string; revoked: boolean } {
  const v = (typeof value === "object" && value !== null ? value : {}) as { run?: unknown; job?: unknown; worker?: unknown; identity?: unknown };
  let revoked = false;
  if (s.key) {
    const own = v.identity === true && typeof v.worker === "string" && IDENTITY_NAME.test(v.worker);
    if (s.identities === "required" && !own) {
      throw tampered(`${s.what} is not signed by a worker identity (the run takes only results under a worker's own key: nqueens key --worker NAME)`);
    }
    if (!(verifies(own ? identityKey(s.key, v.worker as string) : s.key, RESULT_DOMAIN, s.queue, value) && v.run === s.runId && v.job === s.job)) {
      throw tampered(`${s.what} does not verify under ${own ? `the key of worker ${v.worker as string}` : "the key"} (changed in Redis, or written without the key)`);
    }
    revoked = own && s.revoked.has(v.worker as string);
  }
  const named = v.worker;
  return { worker: typeof named === "string" && named.length > 0 ? named.slice(0, 200) : "(unnamed)", revoked };
}
