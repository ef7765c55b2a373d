// Worker identities: a worker's own key, issued from the cluster key for its name
// (`nqueens key --worker NAME`), MACs its results; the coordinator checks each result under
// the key of the worker it names, so no worker passes results as another's; with identities
// "required" a cluster-key result is refused; a revoked identity's parts are counted by the
// coordinator itself. Against a real redis-server of this file's own.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker as BullWorker, type Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTask, derivePart } from "../src/index.js";
import { countDistributed, identityText, readIdentity, startWorker } from "../src/distributed/index.js";
import { RESULT_DOMAIN, signed } from "../src/distributed/auth.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, killChildren, RedisServer, requireRedis, spawnCli, until, usePrivateRedis } from "./redis-harness.js";

requireRedis(haveRedisServer, {
  ci: "worker identity tests need redis-server (.ci/run installs it)",
  skipped: "test/worker-identity.test.ts skipped: no redis-server (apt-get install -y redis-server)",
});

const KEY = "the identity test's cluster key";
const cluster = new TextEncoder().encode(KEY);
const dir = mkdtempSync(join(tmpdir(), "nq-identity-"));
chmodSync(dir, 0o700);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: RedisServer;
let url = "";

/** The cluster key as a file (mode 0600), for the CLI's --key-file. */
const keyFile = join(dir, "cluster.key");
writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
/** The environment of the CLI's processes: no NQUEENS_KEY, so only the flags give keys. */
const { NQUEENS_KEY: _ambient, ...cliEnv } = process.env;

/** The identity `nqueens key --worker NAME` would issue, written to a file of mode 0600 and read back. */
function identityFile(name: string): string {
  const file = join(dir, `${name}.identity`);
  writeFileSync(file, identityText(cluster, name), { mode: 0o600 });
  return file;
}

describe("worker identities", () => {
  it("an identity file is one line the cluster key makes for a name, read back only from a private file", () => {
    const a = readIdentity(identityFile("alpha"));
    expect(a.name).toBe("alpha");
    expect(a.key.length).toBe(32);
    expect(readIdentity(identityFile("beta")).key).not.toEqual(a.key);
    expect(identityText(new TextEncoder().encode("another cluster key"), "alpha")).not.toBe(identityText(cluster, "alpha"));
    const open = join(dir, "open.identity");
    writeFileSync(open, identityText(cluster, "open"), { mode: 0o644 });
    chmodSync(open, 0o644);
    expect(() => readIdentity(open)).toThrow(expect.objectContaining({ code: "NQ_KEY", param: "identityFile", message: expect.stringContaining("chmod 600") }));
    expect(() => readIdentity(`${open}.missing`)).toThrow(expect.objectContaining({ code: "NQ_KEY", param: "identityFile", message: `identity file ${open}.missing cannot be read (no such file)` }));
    const junk = join(dir, "junk.identity");
    writeFileSync(junk, "not an identity, but long enough\n", { mode: 0o600 });
    expect(() => readIdentity(junk)).toThrow(/is not a worker identity/);
    expect(() => identityText(cluster, "two words")).toThrow(expect.objectContaining({ code: "NQ_INVALID_ARGUMENT", param: "name" }));
  });

  it("nqueens key --worker NAME writes the identity the cluster key makes for NAME, mode 0600; never over a file without --force; --out - to stdout, saying it is a secret", async () => {
    const out = join(dir, "cli-alpha.identity");
    const issued = await runCli(["key", "--worker", "alpha", "--key-file", keyFile, "--out", out], { env: cliEnv });
    expect(issued.code, issued.stderr).toBe(0);
    expect(issued.stdout).toMatch(new RegExp(`^wrote worker alpha's identity to ${out.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\(mode 0600\\)`));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readFileSync(out, "utf8")).toBe(identityText(cluster, "alpha"));
    expect(readIdentity(out)).toEqual(readIdentity(identityFile("alpha")));
    // Never over an existing file, unless --force (then the new identity, still 0600).
    const again = await runCli(["key", "--worker", "beta", "--key-file", keyFile, "--out", out], { env: cliEnv });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^nqueens: --out .*cli-alpha\.identity exists: add --force to overwrite it/);
    expect(readIdentity(out).name).toBe("alpha");
    chmodSync(out, 0o644);
    const forced = await runCli(["key", "--worker", "beta", "--key-file", keyFile, "--out", out, "--force"], { env: cliEnv });
    expect(forced.code, forced.stderr).toBe(0);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readIdentity(out).name).toBe("beta");
    // To stdout: the line, and a word on stderr that it is a secret; NQUEENS_KEY as the cluster key.
    const printed = await runCli(["key", "--worker", "gamma", "--out", "-"], { env: { ...cliEnv, NQUEENS_KEY: KEY } });
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toBe(identityText(cluster, "gamma"));
    expect(printed.stderr).toMatch(/^nqueens: this is worker gamma's identity, a secret: keep it in a file of mode 0600 on that worker only/);
  });

  it("nqueens key refuses, exit 2 with one line naming the flag: no cluster key, a name that is not one, no --worker", async () => {
    const none = join(dir, "none.identity");
    const [noKey, badName, noWorker] = await Promise.all([
      runCli(["key", "--worker", "alpha", "--out", none], { env: cliEnv }),
      runCli(["key", "--worker", "two words", "--key-file", keyFile, "--out", none], { env: cliEnv }),
      runCli(["key", "--key-file", keyFile, "--out", none], { env: cliEnv }),
    ]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/^nqueens: nqueens key issues an identity from the cluster key: give it with --key-file FILE or NQUEENS_KEY/);
    expect(badName.code).toBe(2);
    expect(badName.stderr).toBe('nqueens: --worker must be a name of 1 to 100 letters, digits or . _ @ : -, got "two words"\n');
    expect(noWorker.code).toBe(2);
    expect(noWorker.stderr).toMatch(/--worker <NAME>/);
    expect(existsSync(none)).toBe(false);
  });

  it("bad identity flags of worker and count: exit 2, one line naming the flag, before Redis is asked anything", async () => {
    const nowhere = "redis://127.0.0.1:1";
    const a = identityFile("a");
    const runs = await Promise.all([
      runCli(["worker", "--queue", nowhere, "--identity-file", a, "--name", "other"], { env: cliEnv }),
      runCli(["worker", "--queue", nowhere, "--identity-file", a, "--unauthenticated"], { env: cliEnv }),
      runCli(["count", "10", "--queue", nowhere, "--key-file", keyFile, "--identities", "sometimes"], { env: cliEnv }),
      runCli(["count", "10", "--queue", nowhere, "--key-file", keyFile, "--revoked", "a,two words"], { env: cliEnv }),
      runCli(["count", "10", "--identities", "required"], { env: cliEnv }),
      runCli(["count", "10", "--revoked", "a"], { env: cliEnv }),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(runs.map((r) => r.stderr.split("\n").filter(Boolean).length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(runs[0].stderr).toBe('nqueens: --name "other" is not this worker\'s identity (a): leave it out (the identity names the worker)\n');
    expect(runs[1].stderr).toMatch(/^nqueens: --unauthenticated runs the worker without a key: it does not go with --identity-file/);
    expect(runs[2].stderr).toMatch(/^nqueens: option '--identities <allowed\|required>' argument 'sometimes' is invalid\. Allowed choices are allowed, required\./);
    expect(runs[3].stderr).toBe('nqueens: --revoked must be a list of worker identities (names of 1 to 100 letters, digits or . _ @ : -), got "two words" in the list\n');
    expect(runs[4].stderr).toBe("nqueens: --identities applies to a count on Redis workers: add --queue URL\n");
    expect(runs[5].stderr).toBe("nqueens: --revoked applies to a count on Redis workers: add --queue URL\n");
  });
});

describe.skipIf(!haveRedisServer)("worker identities on the queue", () => {
  usePrivateRedis("nqueens-redis-identity-", (s) => ({ server, url } = s));

  it("identities required, replicas 2: two identities count every part, no part recounted here, exact", async () => {
    const a = await startWorker({ connection: url, concurrency: 1, queue: "ids", identityFile: identityFile("a") });
    const b = await startWorker({ connection: url, concurrency: 1, queue: "ids", identityFile: identityFile("b") });
    expect([a.name, b.name, a.authenticated]).toEqual(["a", "b", true]);
    try {
      const result = await countDistributed(10, { connection: url, parts: 8, queue: "ids", key: KEY, identities: "required", replicas: 2, audit: 0, pollMs: 50 });
      expect(result).toMatchObject({ total: BigInt(A000170[10]), unique: BigInt(A002562[10]), audited: 0, mismatches: 0, suspects: [] });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("a worker cannot pass its results as another identity's: signed with a's key but naming b, refused; the run stops NQ_TAMPERED", async () => {
    const aKey = readIdentity(identityFile("a")).key;
    const forger = new BullWorker("forged", async (job: Job<{ n: number; parts: number; index: number; run: string }>) => {
      const d = job.data;
      return signed(aKey, RESULT_DOMAIN, "forged", { ...countTask(derivePart(d.n, d.parts, d.index)), worker: "b", identity: true, run: d.run, job: job.id });
    }, { connection: { host: "127.0.0.1", port: server.port } });
    forger.on("error", () => {});
    try {
      await expect(countDistributed(10, { connection: url, parts: 4, queue: "forged", key: KEY, pollMs: 50, audit: 0 }))
        .rejects.toMatchObject({ code: "NQ_TAMPERED", message: expect.stringContaining("does not verify under the key of worker b") });
    } finally {
      await forger.close();
    }
  });

  it("identities required: a worker with only the cluster key has its results refused (NQ_TAMPERED, saying why)", async () => {
    const keyed = await startWorker({ connection: url, concurrency: 1, queue: "required", key: KEY, name: "keyed" });
    try {
      await expect(countDistributed(10, { connection: url, parts: 4, queue: "required", key: KEY, identities: "required", pollMs: 50 }))
        .rejects.toMatchObject({ code: "NQ_TAMPERED", message: expect.stringContaining("is not signed by a worker identity") });
    } finally {
      await keyed.close();
    }
  });

  it("a revoked identity's results are never taken: the coordinator counts its parts itself, exact", async () => {
    const a = await startWorker({ connection: url, concurrency: 1, queue: "revoked", identityFile: identityFile("a") });
    const notices: string[] = [];
    try {
      const result = await countDistributed(10, { connection: url, parts: 8, queue: "revoked", key: KEY, revoked: ["a"], audit: 0, pollMs: 50, onNotice: (m) => notices.push(m) });
      expect(result).toMatchObject({ total: BigInt(A000170[10]), unique: BigInt(A002562[10]), audited: 8 });
      expect(notices.filter((m) => /counted by revoked worker a; not added/.test(m)).length).toBe(8);
    } finally {
      await a.close();
    }
  });

  it("options are checked: a name that is not the identity's, identities without the cluster key, a revoked list of junk", async () => {
    await expect(startWorker({ connection: url, identityFile: identityFile("a"), name: "other" })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "name" });
    await expect(countDistributed(10, { connection: url, identities: "required" })).rejects.toMatchObject({ code: "NQ_KEY" });
    await expect(countDistributed(10, { connection: url, key: KEY, revoked: ["two words"] })).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "revoked" });
    await expect(countDistributed(10, { connection: url, key: KEY, identities: "sometimes" as never })).rejects.toMatchObject({ param: "identities" });
  });

  describe("through the CLI", () => {
    // Two `nqueens worker` processes (about 0.6 s of CPU each) serve both tests, on one queue:
    // Redis is flushed after each test, so each finds the queue empty, whichever comes first.
    beforeAll(async () => {
      await identityWorker("cli-a", "cli-ids");
      await identityWorker("cli-b", "cli-ids");
    });
    afterAll(killChildren);

    /** `nqueens worker` with the identity `nqueens key --worker NAME` issued, once it is ready. */
    async function identityWorker(name: string, queue: string) {
      const file = join(dir, `cli-${name}.identity`);
      rmSync(file, { force: true });
      const issued = await runCli(["key", "--worker", name, "--key-file", keyFile, "--out", file], { env: cliEnv });
      expect(issued.code, issued.stderr).toBe(0);
      const w = spawnCli(["worker", "--queue", url, "--queue-name", queue, "--concurrency", "1", "--identity-file", file], cliEnv);
      await until(`worker ${name} to start`, async () => w.stderr().includes("ready"));
      expect(w.stderr()).toContain(`identity ${name})`);
      expect(w.stderr()).not.toMatch(/not authenticated/);
      return w;
    }

    it("identities issued by nqueens key, two workers on them, a keyed count with --identities required and --replicas 2: exact", async () => {
      const run = await runCli(["count", "11", "--queue", url, "--queue-name", "cli-ids", "--parts", "8", "--key-file", keyFile, "--identities", "required", "--replicas", "2", "--audit", "0", "--json"], { env: cliEnv });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ n: 11, total: String(A000170[11]), unique: String(A002562[11]), authenticated: true, replicas: 2, audited: 0, mismatches: 0, suspects: [] });
    });

    it("--revoked: every part the revoked workers counted is counted again by the coordinator, and the total is exact", async () => {
      const run = await runCli(["count", "10", "--queue", url, "--queue-name", "cli-ids", "--parts", "8", "--key-file", keyFile, "--revoked", "cli-a,cli-b", "--audit", "0", "--json"], { env: cliEnv });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ total: String(A000170[10]), unique: String(A002562[10]), audited: 8 });
      expect(run.stderr.match(/was counted by revoked worker cli-[ab]; not added/g)).toHaveLength(8);
    });
  });
});
