// Redis connections for the queue: URL parsing, connecting with a bounded wait, reading a
// failed command as a lost connection, and the coordinator's waits on Redis during a run
// (bounded by lostAfterMs and stopped by the run's signal).
import type { ConnectionOptions } from "bullmq";
import type { Redis } from "ioredis";
import { ErrorCode, withCode, invalid } from "../core/errors.js";
import { LONGEST_TIMER_MS } from "../core/timer.js";
import { queueLibraries } from "./deps.js";
import { describeTarget, redact } from "./redact.js";

/**
 * ioredis connection options, as this package reads them. Declared here rather than
 * imported from ioredis, so that a TypeScript app that uses the queue's types without
 * ioredis installed still compiles; any other ioredis option is passed through as given.
 */
export interface RedisConnectionOptions {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  db?: number;
  /** TLS options (`{}` for the defaults), as for Node's `tls.connect`. */
  tls?: object;
  /** Any other ioredis option, passed through. */
  [option: string]: unknown;
}

/** Where Redis is: a URL (`redis://[user:password@]host:port[/db]`, `rediss://` for TLS) or ioredis options. */
export type Connection = string | RedisConnectionOptions;

/**
 * ioredis options from a URL or options object. A URL that cannot be read, a database
 * index that is not a decimal integer: RangeError NQ_INVALID_ARGUMENT, the URL redacted
 * (no password is ever echoed).
 */
export function redisOptions(connection: Connection): RedisConnectionOptions {
  if (typeof connection !== "string") {
    if (typeof connection !== "object" || connection === null) throw invalid("connection", ` must be a redis:// URL or ioredis options, got ${describeTarget(connection)}`);
    return { ...connection };
  }
  let url: URL;
  try {
    url = new URL(connection);
  } catch {
    throw invalid("connection", ` must be a redis:// URL such as redis://127.0.0.1:6379, got ${describeTarget(connection)}`);
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") {
    throw invalid("connection", ` must be a redis:// or rediss:// URL, got ${describeTarget(connection)}`);
  }
  const db = url.pathname.replace(/^\//, "");
  if (db !== "" && !/^\d{1,9}$/.test(db)) {
    throw invalid("connection", `'s database must be a number such as /0 after the port, got another path (not shown, as it may be a password) in ${describeTarget(connection)}`);
  }
  if (url.search || url.hash) throw invalid("connection", ` must be a redis:// URL without ?query or #fragment, got ${describeTarget(connection)}`);
  return {
    host: url.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1",
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeUserInfo(url.username, connection) } : {}),
    ...(url.password ? { password: decodeUserInfo(url.password, connection) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  };
}

/** A user name or password of a URL, %-decoded; a stray '%' (not %XX) is bad input, the URL redacted. */
function decodeUserInfo(text: string, connection: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw invalid("connection", `'s user name or password has a '%' that is not %XX (write a '%' as %25), in ${describeTarget(connection)}`);
  }
}

/** ioredis options as BullMQ's connection option (BullMQ's own type is looser than ioredis's). */
export const bull = (options: RedisConnectionOptions): ConnectionOptions => options as unknown as ConnectionOptions;

export function describeConnection(options: RedisConnectionOptions): string {
  return `${options.host ?? "127.0.0.1"}:${options.port ?? 6379}`;
}

/**
 * Connects and pings within `timeoutMs`, without ioredis's endless retries, so a wrong
 * address is a clear error at once rather than a hang. Returns a client for small
 * commands (a few retries, then an error). An abort of `signal` ends the wait at once,
 * rejecting with its reason (the probe closed).
 */
export async function connect(options: RedisConnectionOptions, timeoutMs: number, signal?: AbortSignal): Promise<Redis> {
  signal?.throwIfAborted();
  const { ioredis: { Redis } } = await within(queueLibraries(), LONGEST_TIMER_MS, "loading the queue's packages", signal);
  const { db, ...server } = options;
  const probe = new Redis({
    ...server, lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false,
    retryStrategy: () => null,
    disconnectTimeout: 100, // else a refused socket keeps the process alive 2 s after the error
  });
  let cause: Error | undefined;
  probe.on("error", (e: Error) => { cause ??= e; }); // reported below
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      probe.connect().then(() => probe.ping()),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs); }),
      new Promise((_, reject) => {
        onAbort = () => reject(signal!.reason);
        signal?.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
  } catch (error) {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    if (signal?.aborted) { probe.disconnect(); throw signal.reason; }
    // A server that took the connection but never answered (a stopped process) leaves the
    // socket open: closed here, or it keeps the process alive after the error.
    probe.disconnect();
    throw withCode(
      new Error(redact(`cannot reach Redis at ${describeConnection(options)} (${(cause ?? error as Error)?.message ?? String(error)}); is redis-server running there?`)),
      ErrorCode.queueUnreachable,
    );
  }
  try {
    // The database, chosen apart: ioredis would retry a refused SELECT for ever.
    if (db !== undefined && db !== 0) await within(probe.select(db), timeoutMs, "select", signal);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    const why = error instanceof Error ? error.message : String(error);
    if (/DB index is out of range|invalid DB index/i.test(why)) {
      throw invalid("connection", `'s database ${db} does not exist on Redis at ${describeConnection(options)} (${redact(why)}); use one from /0 to the server's 'databases' - 1`);
    }
    throw withCode(new Error(redact(`cannot use database ${db} of Redis at ${describeConnection(options)}: ${why}`)), ErrorCode.queueUnreachable);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    probe.disconnect();
  }
  const client = new Redis({ ...options, connectTimeout: timeoutMs, maxRetriesPerRequest: 3 });
  client.on("error", () => {}); // commands fail with the error themselves
  return client;
}

/** Reads a Redis command's failure as "the connection is gone" (`then`: what the caller can do, appended). */
export function lost(options: RedisConnectionOptions, error: unknown, then?: string): Error {
  if (error instanceof Error && (error as { code?: string }).code?.startsWith("NQ_")) return error;
  return withCode(
    new Error(redact(`lost Redis at ${describeConnection(options)}: ${error instanceof Error ? error.message : String(error)}${then ? `; ${then}` : ""}`)),
    ErrorCode.queueUnreachable,
  );
}

/** ioredis's words for a connection that is gone: its retries given up (maxRetriesPerRequest), a socket refused, reset or closed. */
const GONE = /max retries per request|Connection is closed|Stream isn't writeable|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN/i;

/**
 * A long-running client's failed command in plain words (a worker's): a connection that is
 * gone names the Redis address, never ioredis's "Reached the max retries per request limit";
 * any other failure is said as it is.
 */
export function failureText(options: RedisConnectionOptions, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!GONE.test(message)) return message;
  const why = /max retries per request/i.test(message) ? "no answer" : message;
  return redact(`lost Redis at ${describeConnection(options)} (${why}): it stopped, restarts or is out of reach; trying again until it answers`);
}

/** What a coordinator's lost Redis says the user can do. */
export const RESUME_HINT = "run the same command again to resume once Redis answers";

/** A promise that rejects when `promise` has not settled within `ms`, or with `signal`'s reason as soon as it aborts. */
export function within<T>(promise: Promise<T>, ms: number, what: string, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
      if (!signal) return;
      onAbort = () => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    }),
  ]).finally(() => { clearTimeout(timer); if (onAbort) signal?.removeEventListener("abort", onAbort); });
}

/** A coordinator's wait on Redis: `wait(what, attempt)`, see redisWaits. */
export type RedisWait = <T>(what: string, attempt: () => Promise<T>) => Promise<T>;

/**
 * The coordinator's waits on Redis during a run, one helper for every step outside its poll
 * round (the claim, the record, enqueueing, putting the run back, the end). `wait(what,
 * attempt)` resolves as `attempt()` does, unless:
 * - the run's signal aborts: it rejects with the signal's reason at once (a timeout, Ctrl-C);
 * - Redis answers nothing for `lostAfterMs`: NQ_QUEUE_UNREACHABLE naming the host and saying
 *   that the same command resumes. While an attempt is pending, `ping` asks Redis every tick
 *   (one at a time), so a long step (thousands of jobs enqueued) takes what it needs while Redis
 *   answers, and a stopped Redis is found within lostAfterMs whatever the step waits on;
 * - the attempt fails: a coded error (a verdict on the run) is thrown as it is; any other
 *   failure (a refused connection, a restart) is tried again after `retryMs`, and is the same
 *   NQ_QUEUE_UNREACHABLE once attempts have failed for lostAfterMs.
 * An attempt must be safe to make again, and to abandon midway (its commands may still land
 * after the wait gave up): each caller says why its own is.
 */
export function redisWaits(options: RedisConnectionOptions, ping: () => Promise<unknown>, timing: { lostAfterMs: number; retryMs: number }, signal: AbortSignal | undefined): RedisWait {
  const { lostAfterMs, retryMs } = timing;
  const tickMs = Math.max(25, Math.min(250, lostAfterMs / 4));
  return <T>(what: string, attempt: () => Promise<T>): Promise<T> => new Promise<T>((resolve, reject) => {
    let over = false, pinging = false;
    let unheard: number | undefined; // when the first ping since Redis last answered one was sent
    let failingSince: number | undefined; // when the first failed attempt failed
    let why: unknown; // the last failure, for the message
    let retry: NodeJS.Timeout | undefined;
    const end = (settle: () => void): void => {
      if (over) return;
      over = true;
      clearInterval(tick);
      clearTimeout(retry);
      signal?.removeEventListener("abort", onAbort);
      settle();
    };
    const onAbort = (): void => end(() => reject(signal!.reason));
    const giveUp = (): void => end(() => reject(lost(options, why ?? new Error(`${what}: no answer within ${lostAfterMs} ms`), RESUME_HINT)));
    const once = (): void => {
      Promise.resolve().then(attempt).then((value) => end(() => resolve(value)), (error: unknown) => {
        if (over) return;
        if ((error as { code?: string } | undefined)?.code?.startsWith("NQ_")) { end(() => reject(error)); return; }
        why = error;
        failingSince ??= performance.now();
        if (performance.now() - failingSince >= lostAfterMs) giveUp();
        else retry = setTimeout(once, retryMs);
      });
    };
    const tick = setInterval(() => {
      // Silent for lostAfterMs: looked at again after the poll phase, so that an answer already
      // in a socket (the event loop was busy) is read first.
      if (unheard !== undefined && performance.now() - unheard >= lostAfterMs) {
        setImmediate(() => { if (unheard !== undefined && performance.now() - unheard >= lostAfterMs) giveUp(); });
      }
      if (pinging || over) return;
      pinging = true;
      unheard ??= performance.now();
      ping().then(() => { unheard = undefined; }, (error: unknown) => { why = error; }).finally(() => { pinging = false; });
    }, tickMs);
    if (signal?.aborted) { onAbort(); return; }
    signal?.addEventListener("abort", onAbort, { once: true });
    once();
  });
}

export const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void { clearTimeout(timer); signal?.removeEventListener("abort", done); resolve(); }
    signal?.addEventListener("abort", done, { once: true });
  });
