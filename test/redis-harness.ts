// The harness the Redis-backed test files share (test/distributed*.test.ts,
// test/webgpu-queue.test.ts): whether redis-server is here (in CI its absence fails the file,
// elsewhere the file warns and skips), waiting on a condition, a free port, a private
// redis-server on it (a temporary directory, no persistence; stopped, restarted, removed),
// `nqueens` processes on dist/cli.cjs (the bin) killed after each test, and a BullMQ queue opened for
// one look. What differs between the files (messages, timeouts, clients) stays in them.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue, type ConnectionOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import { afterAll, afterEach, beforeAll } from "vitest";

/** Whether redis-server is installed. */
export const haveRedisServer = spawnSync("redis-server", ["--version"]).status === 0;

/**
 * Without Redis (`usable` false): in CI throws `messages.ci` (the file fails), elsewhere
 * warns `messages.skipped` (the file skips its Redis tests). Returns `usable`.
 */
export function requireRedis(usable: boolean, messages: { ci: string; skipped: string }): boolean {
  if (!usable && process.env.CI) throw new Error(messages.ci);
  if (!usable) console.warn(messages.skipped);
  return usable;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` every 25 ms until it gives a truthy value; throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** A coordinator's notice that no worker is on its run (yet, or any more): said too when a worker is slow to join. */
export const NO_WORKER_NOTICE = /^queue \S+: no worker on it (yet|any more): /;

/** A coordinator's notices but those that say no worker is on the run: what a test that starts its worker around the run looks at. */
export const withoutNoWorker = (notices: readonly string[]): string[] => notices.filter((m) => !NO_WORKER_NOTICE.test(m));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** True when `client` answers PING (false while the server is down or starting). */
export const pong = async (client: Redis) => (await client.ping().catch(() => "")) === "PONG";

/** An ioredis client that gives up a command after one retry and ignores connection errors (a server starting, stopped). */
export function quietClient(url: string, options: RedisOptions = {}): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: 1, ...options });
  client.on("error", () => {});
  return client;
}

/** A private redis-server: 127.0.0.1 on a free port, a temporary directory, no persistence. */
export class RedisServer {
  /** The running redis-server; undefined before `spawn` and after `stop`. */
  child: ChildProcess | undefined;

  private constructor(readonly port: number, readonly dir: string) {}

  /** Takes a free port, then a fresh directory named from `prefix`; starts nothing. */
  static async create(prefix: string): Promise<RedisServer> {
    const port = await freePort();
    return new RedisServer(port, mkdtempSync(join(tmpdir(), prefix)));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts redis-server on the port, empty (no save, no append-only file); does not wait for it. */
  spawn(): ChildProcess {
    this.child = spawn("redis-server", ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    return this.child;
  }

  /** Starts redis-server, empty, and waits (10 s at most) until a client of its own gets PONG. */
  async start(): Promise<void> {
    this.spawn();
    const probe = quietClient(this.url, { lazyConnect: true, retryStrategy: () => 50 });
    try {
      await until("Redis to answer", () => pong(probe), 10_000);
    } finally {
      probe.disconnect();
    }
  }

  /** Kills redis-server with `signal` and waits for it to exit (nothing if it is not running). */
  async stop(signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill(signal);
    await exited;
  }

  /** Removes the directory. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** `stop(signal)`, then `remove()`. */
  async dispose(signal?: NodeJS.Signals): Promise<void> {
    await this.stop(signal);
    this.remove();
  }
}

export type Proc = { child: ChildProcess; stderr: () => string; stdout: () => string; exited: Promise<number | null> };
const children: Proc[] = [];

/** Starts `nqueens ...args` (dist/cli.cjs, the bin) in the background; `killChildren` ends it after the test. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = process.env): Proc {
  const child = spawn(process.execPath, ["dist/cli.cjs", ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  let err = "", out = "";
  child.stderr!.on("data", (d) => (err += d));
  child.stdout!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const proc = { child, stderr: () => err, stdout: () => out, exited };
  children.push(proc);
  return proc;
}

/** SIGKILLs every process `spawnCli` started that is still running, and waits until each has closed. */
export async function killChildren(): Promise<void> {
  for (const p of children.splice(0)) {
    if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGKILL");
    await p.exited;
  }
}

/**
 * `withQueue(name, use)`: opens the BullMQ queue `name` on `connection()` (read when called),
 * gives it to `use` (the jobs of a queue, read straight from Redis), and closes it.
 */
export function withQueueOn(connection: () => ConnectionOptions) {
  return async function withQueue<T>(name: string, use: (queue: Queue) => Promise<T>): Promise<T> {
    const queue = new Queue(name, { connection: connection() });
    try {
      return await use(queue);
    } finally {
      await queue.close();
    }
  };
}

/**
 * A private redis-server for the tests of one describe block (call it inside the block): made
 * and started before them, flushed after each, removed after them. `use` receives the server,
 * its URL and a quiet client once it runs, for the file's own variables.
 */
export function usePrivateRedis(prefix: string, use: (s: { server: RedisServer; url: string; redis: Redis }) => void): void {
  let server: RedisServer | undefined;
  let redis: Redis | undefined;
  beforeAll(async () => {
    server = await RedisServer.create(prefix);
    await server.start();
    redis = quietClient(server.url);
    use({ server, url: server.url, redis });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.dispose();
  });
  afterEach(async () => {
    await redis?.flushdb();
  });
}
