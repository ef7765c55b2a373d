// Redis closed to strangers, as docs/distributed.md's quick start sets it up: a real
// redis-server with a password (--requirepass), with an ACL user (the default user off), and
// speaking only TLS (--tls-port, certificates made here by openssl). The queue counts exactly
// through each; a wrong password or no TLS is a coded error that never shows the password.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countDistributed, startWorker } from "../src/distributed/index.js";
import { A000170 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { freePort, haveRedisServer, killChildren, requireRedis, spawnCli, until } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "Redis auth tests need redis-server (.ci/run installs it)",
  skipped: "test/redis-auth.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});
const haveOpenssl = spawnSync("openssl", ["version"]).status === 0;

const PASSWORD = "s3cret-pass:with@odd/chars";
const ACL_PASSWORD = "acl-pass-8f2e";
let dir = "";
const servers: ChildProcess[] = [];

/** Starts redis-server with `args` on a fresh port and waits until `probe` (a client of its own) answers. */
async function redisServer(args: string[], probe: (port: number) => Redis): Promise<number> {
  const port = await freePort();
  const child = spawn("redis-server", [...args.map((a) => a.replace("{port}", String(port))), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no"], { stdio: "ignore" });
  servers.push(child);
  const client = probe(port);
  client.on("error", () => {});
  try {
    await until("redis-server to answer", async () => (await client.ping().catch(() => "")) === "PONG", 10_000);
  } finally {
    client.disconnect();
  }
  return port;
}

/** A CA and a server certificate for 127.0.0.1, made by openssl in `dir` (P-256 keys: made in milliseconds, where RSA 2048 took ~0.4 s of CPU). */
function certificates(): { ca: string; cert: string; key: string } {
  const run = (args: string[]) => {
    const r = spawnSync("openssl", args, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`openssl ${args[0]}: ${r.stderr}`);
  };
  run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=nqueens test CA"]);
  run(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"]);
  spawnSync("sh", ["-c", "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > ext.cnf"], { cwd: dir });
  run(["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "ext.cnf"]);
  return { ca: join(dir, "ca.pem"), cert: join(dir, "server.pem"), key: join(dir, "server.key") };
}

describe.skipIf(!haveRedisServer)("Redis with a password, an ACL user, TLS", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "nqueens-redis-auth-"));
  });

  afterAll(async () => {
    for (const child of servers) if (child.exitCode === null) { const exited = new Promise((r) => child.once("exit", r)); child.kill("SIGKILL"); await exited; }
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(killChildren);

  it("--requirepass: the queue counts through redis://:PASSWORD@host; a wrong or missing password is NQ_QUEUE_UNREACHABLE and never shows the password", async () => {
    const port = await redisServer(["--port", "{port}", "--requirepass", PASSWORD], (p) => new Redis({ port: p, password: PASSWORD, lazyConnect: false, maxRetriesPerRequest: 1 }));
    const url = `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
    const worker = await startWorker({ unauthenticated: true, connection: url, concurrency: 1 });
    try {
      expect(await countDistributed(10, { unauthenticated: true, connection: url, parts: 8, pollMs: 50 })).toMatchObject({ total: BigInt(A000170[10]) });
    } finally {
      await worker.close();
    }
    for (const bad of [`redis://:wrong-${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`, `redis://127.0.0.1:${port}`]) {
      const error = await countDistributed(10, { unauthenticated: true, connection: bad, parts: 8 }).then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "NQ_QUEUE_UNREACHABLE" });
      expect((error as Error).message).toMatch(/WRONGPASS|NOAUTH|invalid password|Authentication required/i);
      expect((error as Error).message).not.toContain(PASSWORD);
      expect((error as Error).message).not.toContain(encodeURIComponent(PASSWORD));
    }
    // The CLI with the wrong password (in its URL, encoded, odd characters and all). The missing
    // one is left to the library above: in the CLI it is the same refusal (NQ_QUEUE_UNREACHABLE,
    // exit 1) with no password to hide, and the next test's `runs` without one meets it.
    const cli = await runCli(["count", "10", "--queue", `redis://:wrong-${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`, "--unauthenticated"]);
    expect(cli.code).toBe(1);
    expect(cli.stderr + cli.stdout).not.toContain("s3cret");
  });

  it("the password from NQUEENS_REDIS_PASSWORD, kept out of the URL (and so out of `ps`): runs, count and worker reach Redis with it; a password given twice is refused", async () => {
    const port = await redisServer(["--port", "{port}", "--requirepass", PASSWORD], (p) => new Redis({ port: p, password: PASSWORD, lazyConnect: false, maxRetriesPerRequest: 1 }));
    const url = `redis://127.0.0.1:${port}`;
    const env = { ...process.env, NQUEENS_REDIS_PASSWORD: PASSWORD };
    const listed = await runCli(["runs", "--queue", url], { env });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe("no runs\n");
    const without = await runCli(["runs", "--queue", url]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/NOAUTH|Authentication required|WRONGPASS/i);
    const w = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--unauthenticated"], env);
    await until("the worker to start", async () => w.stderr().includes("ready"));
    const counted = await runCli(["count", "10", "--queue", url, "--parts", "8", "--json", "--unauthenticated"], { env });
    expect(counted.code, counted.stderr).toBe(0);
    expect(JSON.parse(counted.stdout)).toMatchObject({ total: String(A000170[10]) });
    expect(w.stderr() + counted.stderr + listed.stderr).not.toContain(PASSWORD);
    const twice = await runCli(["runs", "--queue", `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`], { env });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain("give the password once");
    expect(twice.stderr).not.toContain(PASSWORD);
  });

  it("an ACL user (the default user off): the queue counts through redis://nq:PASSWORD@host, the CLI's workers too; another user's password is refused", async () => {
    const port = await redisServer(
      ["--port", "{port}", "--user", "default", "off", "--user", "nq", "on", `>${ACL_PASSWORD}`, "~*", "&*", "+@all"],
      (p) => new Redis({ port: p, username: "nq", password: ACL_PASSWORD, maxRetriesPerRequest: 1 }),
    );
    const url = `redis://nq:${ACL_PASSWORD}@127.0.0.1:${port}`;
    const w = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--unauthenticated"]);
    await until("the worker to start", async () => w.stderr().includes("ready"));
    const cli = await runCli(["count", "11", "--queue", url, "--parts", "8", "--json", "--unauthenticated"]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ total: String(A000170[11]) });
    expect(w.stderr() + cli.stderr).not.toContain(ACL_PASSWORD);
    const refused = await runCli(["count", "11", "--queue", `redis://nq:not-${ACL_PASSWORD}@127.0.0.1:${port}`, "--unauthenticated"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^nqueens: cannot reach Redis at 127\.0\.0\.1:\d+ \(WRONGPASS/);
    expect(refused.stderr).not.toContain(ACL_PASSWORD);
  }, 30_000);

  it.skipIf(!haveOpenssl)("TLS only (--tls-port, --port 0): the queue counts through rediss:// (the CA given as ioredis options, or to the CLI by NODE_EXTRA_CA_CERTS); plain redis:// to it is refused", async () => {
    const tls = certificates();
    const port = await redisServer(
      ["--port", "0", "--tls-port", "{port}", "--tls-cert-file", tls.cert, "--tls-key-file", tls.key, "--tls-ca-cert-file", tls.ca, "--tls-auth-clients", "no", "--requirepass", PASSWORD],
      (p) => new Redis({ port: p, password: PASSWORD, tls: { ca: readFileSync(tls.ca) }, maxRetriesPerRequest: 1 }),
    );
    const options = { host: "127.0.0.1", port, password: PASSWORD, tls: { ca: readFileSync(tls.ca) } };
    const worker = await startWorker({ unauthenticated: true, connection: options, concurrency: 1 });
    try {
      expect(await countDistributed(10, { unauthenticated: true, connection: options, parts: 8, pollMs: 50 })).toMatchObject({ total: BigInt(A000170[10]) });
    } finally {
      await worker.close();
    }
    // The CLI: rediss:// with the CA trusted through NODE_EXTRA_CA_CERTS (set for the processes it starts).
    const url = `rediss://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
    process.env.NODE_EXTRA_CA_CERTS = tls.ca;
    try {
      const w = spawnCli(["worker", "--queue", url, "--concurrency", "1", "--unauthenticated"]);
      await until("the worker to start", async () => w.stderr().includes("ready"));
      const cli = await runCli(["count", "11", "--queue", url, "--parts", "8", "--json", "--unauthenticated"]);
      expect(cli.code, cli.stderr).toBe(0);
      expect(JSON.parse(cli.stdout)).toMatchObject({ total: String(A000170[11]) });
    } finally {
      delete process.env.NODE_EXTRA_CA_CERTS;
    }
    // Without the CA the certificate is not trusted; without TLS the server does not answer: both refused, no password shown.
    const untrusted = await runCli(["count", "10", "--queue", url, "--unauthenticated"]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/^nqueens: cannot reach Redis at 127\.0\.0\.1:\d+ \(.*(certificate|self.signed)/im);
    const plain = await runCli(["count", "10", "--queue", `redis://:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`, "--unauthenticated"]);
    expect(plain.code).toBe(1);
    expect(plain.stderr + untrusted.stderr).not.toContain("s3cret");
  }, 40_000);
});
