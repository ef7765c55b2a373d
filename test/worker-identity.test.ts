// Worker identities: a worker's own key, issued from the cluster key for its name
// (`nqueens key --worker NAME`), MACs its results; the coordinator checks each result under
// the key of the worker it names, so no worker passes results as another's; with identities
// "required" a cluster-key result is refused; a revoked identity's parts are counted by the
// coordinator itself. Against a real redis-server of this file's own.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker as BullWorker, type Job } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { countTask, derivePart } from "../src/index.js";
import { countDistributed, identityText, readIdentity, startWorker } from "../src/distributed/index.js";
import { RESULT_DOMAIN, signed } from "../src/distributed/auth.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { haveRedisServer, RedisServer, requireRedis, usePrivateRedis } from "./redis-harness.js";

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
    expect(() => readIdentity(open)).toThrow(expect.objectContaining({ code: "NQ_KEY", message: expect.stringContaining("chmod 600") }));
    const junk = join(dir, "junk.identity");
    writeFileSync(junk, "not an identity, but long enough\n", { mode: 0o600 });
    expect(() => readIdentity(junk)).toThrow(/is not a worker identity/);
    expect(() => identityText(cluster, "two words")).toThrow(expect.objectContaining({ code: "NQ_INVALID_ARGUMENT", param: "name" }));
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

  void runCli;
});
