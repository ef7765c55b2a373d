// Checkpoints against someone who has read docs/counting.md: a checkpoint carries an HMAC
// under the key over its whole content, so raising a count and recomputing the old FNV
// checksum, changing, swapping or dropping fields, or a checkpoint made under another key, is
// refused (NQ_TAMPERED naming the file) and nothing of it is summed; one made with the key is
// still checked entry by entry. Checkpoints are read and written only as regular files (a
// device, a FIFO, a directory, a link to one: refused, left as they are), atomically, with no
// temporary file left behind. Every key lives in this test's temporary directory.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/core/errors.js";
import { macOf } from "../src/core/key.js";
import { countParallel } from "../src/workers/parallel.js";
import { CHECKPOINT_DOMAIN, checkpointHooks } from "../src/count/checkpoint.js";
import { removeLiveTemporaries } from "../src/core/temporaries.js";
import { A000170 } from "./fixtures/oeis.js";

const dir = mkdtempSync(join(tmpdir(), "nq-checkpoint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const KEY = "checkpoint-test-key";
const bytes = (text: string) => new TextEncoder().encode(text);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const rejection = async (promise: Promise<unknown>): Promise<Error & { code?: string }> =>
  promise.then(() => { throw new Error("expected a rejection"); }, (e: unknown) => e as Error & { code?: string });
const noTemporaries = (where: string) => expect(readdirSync(where).filter((f) => f.endsWith(".tmp"))).toEqual([]);

/** FNV-1a 64 of the UTF-8 bytes of `text` (16 hex digits), the checksum of old checkpoints: a one-line BigInt reading of its definition. */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(16).padStart(16, "0");
}

/** What the checkpoint of the package before keyed checkpoints held: an FNV-1a 64 of its fields in a fixed order. */
function oldChecksum(data: { format: string; splitVersion: number; n: number; parts: number; board?: string; done: Record<string, string | number>[] }): string {
  const plain = ["splitVersion", "n", "part", "parts", "digest", "count8", "count4", "count2", "nodes"];
  const constrained = ["kind", "splitVersion", "n", "part", "parts", "digest", "total", "nodes"];
  const done = data.done.map((r) => (r.kind === "constrained" ? constrained : plain).map((k) => r[k]));
  return fnv1a64(JSON.stringify([data.format, data.splitVersion, data.n, data.parts, ...(data.board === undefined ? [] : [data.board]), done]));
}

describe("a keyed checkpoint", () => {
  const n = 12, parts = 16;
  let good = "";
  const write = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it("holds an HMAC over its content; resuming from it is exact", async () => {
    const path = join(dir, "good.json");
    const result = await countParallel(n, { workers: 1, parts, checkpoint: path, key: KEY });
    expect(result.total).toBe(A000170[n]);
    good = readFileSync(path, "utf8");
    const data = JSON.parse(good);
    expect(data.mac).toMatch(/^[0-9a-f]{64}$/);
    expect(data.checksum).toBeUndefined();
    const { mac, ...content } = data;
    expect(mac).toBe(macOf(bytes(KEY), CHECKPOINT_DOMAIN, content)); // over every other field
    const again = await countParallel(n, { workers: 2, checkpoint: path, key: KEY });
    expect(again).toMatchObject({ total: A000170[n], resumed: parts });
    noTemporaries(dir);
  });

  it("a count raised by 1000 with the documented FNV checksum recomputed is refused, naming the file (n = 13 gave 81712)", async () => {
    const path = join(dir, "n13.json");
    await countParallel(13, { workers: 1, parts: 16, checkpoint: path, key: KEY });
    const data = JSON.parse(readFileSync(path, "utf8"));
    data.done[0].count8 = String(BigInt(data.done[0].count8) + 1000n);
    data.checksum = oldChecksum(data);
    for (const withMac of [true, false]) {
      const copy = clone(data);
      if (!withMac) delete copy.mac;
      const forged = write(`n13-${withMac}.json`, JSON.stringify(copy));
      const error = await rejection(countParallel(13, { workers: 1, checkpoint: forged, key: KEY }));
      expect(error.code).toBe(ErrorCode.tampered);
      expect(error.message).toContain(forged);
      expect(error.message).toMatch(withMac ? /does not verify under the key/ : /older version of nqueens/);
      expect(error.message).toMatch(/pass restart: true/);
      expect(readFileSync(forged, "utf8")).toBe(JSON.stringify(copy)); // left for the user to look at
    }
  });

  it("changed, swapped, dropped or added fields, or another file's MAC, are refused (NQ_TAMPERED), nothing summed", async () => {
    const data = JSON.parse(good);
    const other = JSON.parse(readFileSync(join(dir, "n13.json"), "utf8"));
    const tamper = (edit: (d: typeof data) => void): string => {
      const copy = clone(data);
      edit(copy);
      return JSON.stringify(copy);
    };
    const cases: [string, string][] = [
      ["raised", tamper((d) => { d.done[3].count8 = String(BigInt(d.done[3].count8) + 1n); })],
      ["lowered", tamper((d) => { d.done[3].nodes = String(BigInt(d.done[3].nodes) - 1n); })],
      ["swapped", tamper((d) => { [d.done[2].count8, d.done[5].count8] = [d.done[5].count8, d.done[2].count8]; })],
      ["reordered-entries", tamper((d) => { d.done.reverse(); })],
      ["dropped-entry", tamper((d) => { d.done.pop(); })],
      ["dropped-field", tamper((d) => { delete d.done[1].count4; })],
      ["added-field", tamper((d) => { d.note = "resume me"; })],
      ["split-version", tamper((d) => { d.splitVersion += 1; })],
      ["mac-of-another-file", tamper((d) => { d.mac = other.mac; })],
      ["mac-flipped", tamper((d) => { d.mac = `${d.mac[0] === "0" ? "1" : "0"}${d.mac.slice(1)}`; })],
      ["mac-upper", tamper((d) => { d.mac = d.mac.toUpperCase(); })],
      ["mac-number", tamper((d) => { d.mac = 7; })],
    ];
    for (const [name, text] of cases) {
      const path = write(`${name}.json`, text);
      const error = await rejection(countParallel(n, { workers: 1, checkpoint: path, key: KEY }));
      expect(error.code, name).toBe(ErrorCode.tampered);
      expect(error.message, name).toContain(path);
      expect(error.message, name).not.toContain(KEY);
      expect(readFileSync(path, "utf8")).toBe(text);
    }
  });

  it("a checkpoint made under another key is refused; under its own key it resumes", async () => {
    const path = write("other-key.json", good);
    const error = await rejection(countParallel(n, { workers: 1, checkpoint: path, key: "another key" }));
    expect(error.code).toBe(ErrorCode.tampered);
    expect(error.message).toMatch(/made under another key/);
    expect((await countParallel(n, { workers: 1, checkpoint: path, key: bytes(KEY) })).resumed).toBe(parts);
  });

  it("made with the key, a checkpoint's entries are still checked against their parts (NQ_CHECKPOINT_CORRUPT)", async () => {
    const data = JSON.parse(good);
    const signed = (edit: (d: typeof data) => void): string => {
      const copy = clone(data);
      edit(copy);
      delete copy.mac;
      return JSON.stringify({ ...copy, mac: macOf(bytes(KEY), CHECKPOINT_DOMAIN, copy) });
    };
    const cases: [string, RegExp][] = [
      [signed((d) => { d.done[3].count8 = "1" + "0".repeat(20); }), /entry 3: .*its prefixes hold at most/],
      [signed((d) => { d.done[3].count8 = "-7"; }), /entry 3: .*count8 "-7"/],
      [signed((d) => { d.done[4] = d.done[3]; }), /holds part 3 twice/],
      [signed((d) => { d.done[2].digest = d.done[1].digest; }), /entry 2: .*has digest/],
      [signed((d) => { d.done[2].part = 99; }), /entry 2 names part 99/],
      [signed((d) => { d.n = 11; }), /belongs to n = 11/],
    ];
    for (const [i, [text, why]] of cases.entries()) {
      const error = await rejection(countParallel(n, { workers: 1, checkpoint: write(`signed-${i}.json`, text), key: KEY }));
      expect(error.message).toMatch(why);
      expect(error.code).toBe(ErrorCode.checkpointCorrupt);
    }
  });

  it("restart: true discards a refused file, counts exactly and leaves one that verifies", async () => {
    const path = write("restart.json", JSON.stringify({ ...JSON.parse(good), mac: "0".repeat(64) }));
    const result = await countParallel(n, { workers: 1, parts, checkpoint: path, restart: true, key: KEY });
    expect(result).toMatchObject({ total: A000170[n], resumed: 0 });
    expect((await countParallel(n, { workers: 1, checkpoint: path, key: KEY })).resumed).toBe(parts);
  });

  it("a constrained checkpoint (n = 10, square 0:0 blocked; it gave 1660 or 659 for 660) is refused when changed", async () => {
    const path = join(dir, "constrained.json");
    const blocked: [number, number][] = [[0, 0]];
    const first = await countParallel(10, { workers: 1, parts: 8, blocked, checkpoint: path, key: KEY });
    expect(first.total).toBe(660n);
    const data = JSON.parse(readFileSync(path, "utf8"));
    for (const [name, edit] of [
      ["plus-1000", (d: typeof data) => { d.done[0].total = String(BigInt(d.done[0].total) + 1000n); d.done[0].nodes = String(BigInt(d.done[0].nodes) + 1000n); }],
      ["minus-1", (d: typeof data) => { d.done[0].total = String(BigInt(d.done[0].total) - 1n); }],
      ["board-dropped", (d: typeof data) => { delete d.board; }],
    ] as const) {
      const copy = clone(data);
      edit(copy);
      copy.checksum = oldChecksum(copy);
      const forged = write(`constrained-${name}.json`, JSON.stringify(copy));
      const error = await rejection(countParallel(10, { workers: 1, blocked, checkpoint: forged, key: KEY }));
      expect(error.code, name).toBe(ErrorCode.tampered);
    }
    expect((await countParallel(10, { workers: 1, blocked, checkpoint: path, key: KEY })).total).toBe(660n);
  });
});

describe("where the key comes from", () => {
  it("no key given: the local key in $XDG_CONFIG_HOME/nqueens/key, made once (0600); NQUEENS_KEY when set", async () => {
    const saved = { xdg: process.env.XDG_CONFIG_HOME, key: process.env.NQUEENS_KEY };
    const xdg = join(dir, "xdg");
    process.env.XDG_CONFIG_HOME = xdg;
    delete process.env.NQUEENS_KEY;
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const path = join(dir, "local.json");
      await countParallel(10, { workers: 1, parts: 8, checkpoint: path });
      const keyFile = join(xdg, "nqueens", "key");
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect((await countParallel(10, { workers: 1, checkpoint: path })).resumed).toBe(8);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.includes(keyFile))).toHaveLength(1); // said once, at creation
      // the same file under an explicit key, or under NQUEENS_KEY, does not verify
      expect((await rejection(countParallel(10, { workers: 1, checkpoint: path, key: KEY }))).code).toBe(ErrorCode.tampered);
      process.env.NQUEENS_KEY = "from the environment";
      expect((await rejection(countParallel(10, { workers: 1, checkpoint: path }))).code).toBe(ErrorCode.tampered);
      const envPath = join(dir, "env.json");
      await countParallel(10, { workers: 1, parts: 8, checkpoint: envPath });
      expect((await countParallel(10, { workers: 1, checkpoint: envPath, key: "from the environment" })).resumed).toBe(8);
    } finally {
      process.off("warning", onWarning);
      process.env.XDG_CONFIG_HOME = saved.xdg;
      if (saved.key === undefined) delete process.env.NQUEENS_KEY;
      else process.env.NQUEENS_KEY = saved.key;
    }
  });

  it("keyFile: read from the file; a missing one is NQ_KEY naming it, before any count", async () => {
    const keyFile = join(dir, "cluster.key");
    writeFileSync(keyFile, `${KEY}\n`, { mode: 0o600 });
    const path = join(dir, "keyfile.json");
    await countParallel(10, { workers: 1, parts: 8, checkpoint: path, keyFile });
    expect((await countParallel(10, { workers: 1, checkpoint: path, key: KEY })).resumed).toBe(8);
    const missing = join(dir, "no-such.key");
    const error = await rejection(countParallel(10, { workers: 1, checkpoint: join(dir, "never.json"), keyFile: missing }));
    expect(error.code).toBe(ErrorCode.key);
    expect(error.message).toContain(missing);
    expect(existsSync(join(dir, "never.json"))).toBe(false);
    expect((await rejection(countParallel(10, { workers: 1, key: KEY }))).code).toBe(ErrorCode.invalidArgument); // a key without a checkpoint
  });
});

describe("checkpoint paths", () => {
  const fifo = join(dir, "a-fifo");
  execFileSync("mkfifo", [fifo]);

  /** A character device of our own (a copy of /dev/null's numbers), so nothing of the system's is at stake. */
  const device = (() => {
    const path = join(dir, "a-device");
    const made = spawnSync("mknod", [path, "c", "1", "3"]);
    return made.status === 0 ? path : "/dev/null";
  })();

  it("a device, a FIFO, a directory, or a link to one is refused (NQ_IO naming the path) and left as it is, also with restart", async () => {
    const sub = join(dir, "a-directory");
    mkdirSync(sub);
    const linkToFifo = join(dir, "link-to-fifo");
    symlinkSync(fifo, linkToFifo);
    const linkToDevice = join(dir, "link-to-device");
    symlinkSync(device, linkToDevice);
    const dangling = join(dir, "dangling");
    symlinkSync(join(dir, "nothing-here"), dangling);
    const cases: [string, RegExp][] = [
      [device, /is a character device, not a regular file/],
      [fifo, /is a FIFO, not a regular file/],
      [sub, /is a directory, not a regular file/],
      [linkToFifo, /is a link to a FIFO/],
      [linkToDevice, /is a link to a character device/],
      [dangling, /a link to nothing/],
    ];
    for (const [path, why] of cases) {
      for (const restart of [false, true]) {
        const error = await rejection(countParallel(10, { workers: 1, parts: 8, checkpoint: path, restart, key: KEY }));
        expect(error.code, path).toBe(ErrorCode.io);
        expect(error.message, path).toMatch(why);
        expect(error.message).toContain(path);
      }
    }
    expect(statSync(device).isCharacterDevice()).toBe(true);
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);
    noTemporaries(dir);
  });

  it("a link to a regular file: the file is written through it, the link kept", async () => {
    const real = join(dir, "real.json");
    writeFileSync(real, "");
    const link = join(dir, "link.json");
    symlinkSync(real, link);
    await countParallel(10, { workers: 1, parts: 8, checkpoint: link, restart: true, key: KEY });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, "utf8")).mac).toMatch(/^[0-9a-f]{64}$/);
    expect((await countParallel(10, { workers: 1, checkpoint: link, key: KEY })).resumed).toBe(8);
  });

  /**
   * A checkpoint saved, then a save with `beforeRename` as the hook that fails (NQ_IO): the
   * directory holds only the checkpoint, as it was before. Returns the directory and the error.
   */
  async function failedRewrite(name: string, beforeRename: (temporary: string) => void): Promise<{ where: string; error: Error & { code?: string } }> {
    const where = join(dir, name);
    mkdirSync(where);
    const path = join(where, "c.json");
    await countParallel(10, { workers: 1, parts: 8, checkpoint: path, key: KEY });
    const before = readFileSync(path, "utf8");
    checkpointHooks.beforeRename = beforeRename;
    let error: Error & { code?: string };
    try {
      error = await rejection(countParallel(10, { workers: 1, parts: 8, checkpoint: path, restart: true, key: KEY }));
      expect(error.code).toBe(ErrorCode.io); // (after a real second Ctrl-C the process is gone by now)
    } finally {
      delete checkpointHooks.beforeRename;
    }
    expect(readdirSync(where)).toEqual(["c.json"]);
    expect(readFileSync(path, "utf8")).toBe(before);
    return { where, error };
  }

  it("a write that fails leaves no temporary file, and the checkpoint before it as it was", async () => {
    let seen = "";
    const { where, error } = await failedRewrite("failing", (temporary) => {
      seen = temporary;
      throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    });
    expect(error.message).toMatch(/could not be written \(ENOSPC\)/);
    expect(seen.startsWith(where)).toBe(true); // the temporary file was in the same directory
  });

  it("a process that must exit mid-save (a second Ctrl-C) finds the save's temporary file named, and removes it", async () => {
    let removed = -1;
    await failedRewrite("cut-short", (temporary) => {
      expect(existsSync(temporary)).toBe(true);
      removed = removeLiveTemporaries((p) => rmSync(p)); // what the CLI's second Ctrl-C does, synchronously
      expect(existsSync(temporary)).toBe(false);
    });
    expect(removed).toBe(1);
    expect(removeLiveTemporaries(() => { throw new Error("nothing should be left to remove"); })).toBe(0);
  });
});

describe("the CLI", () => {
  const cli = (args: string[], env: Record<string, string>) =>
    spawnSync(process.execPath, ["dist/cli.js", ...args], { encoding: "utf8", env: { ...process.env, NQUEENS_KEY: "", ...env }, timeout: 60_000 });

  it("says once on stderr that it made a key; --key-file and NQUEENS_KEY; a checkpoint under another key exits 2 naming --restart", () => {
    const xdg = join(dir, "cli-xdg");
    const path = join(dir, "cli.json");
    const first = cli(["count", "10", "--workers", "1", "--parts", "8", "--checkpoint", path], { XDG_CONFIG_HOME: xdg });
    expect(first.status).toBe(0);
    expect(first.stderr.match(/created a key for checkpoints at .*nqueens\/key/g)).toHaveLength(1);
    const second = cli(["count", "10", "--workers", "1", "--checkpoint", path], { XDG_CONFIG_HOME: xdg });
    expect(second.stdout).toMatch(/8 parts, all from the checkpoint/);
    expect(second.stderr).not.toMatch(/created a key/);
    const keyFile = join(dir, "cli.key");
    writeFileSync(keyFile, "another key, of 16 bytes or more\n", { mode: 0o600 });
    const refused = cli(["count", "10", "--workers", "1", "--checkpoint", path, "--key-file", keyFile], { XDG_CONFIG_HOME: xdg });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(new RegExp(`^nqueens: checkpoint ${path.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} does not verify under the key.*add --restart`));
    const env = cli(["count", "10", "--workers", "1", "--checkpoint", path], { XDG_CONFIG_HOME: xdg, NQUEENS_KEY: "another key, of 16 bytes or more" });
    expect(env.status).toBe(2);
    const restarted = cli(["count", "10", "--workers", "1", "--parts", "8", "--checkpoint", path, "--key-file", keyFile, "--restart"], { XDG_CONFIG_HOME: xdg });
    expect(restarted.stdout).toMatch(/^n = 10: 724 solutions/);
    expect(cli(["count", "10", "--workers", "1", "--checkpoint", path], { XDG_CONFIG_HOME: xdg, NQUEENS_KEY: "another key, of 16 bytes or more" }).stdout).toMatch(/8 parts, all from the checkpoint/);
    const missing = cli(["count", "10", "--workers", "1", "--checkpoint", path, "--key-file", join(dir, "none.key")], { XDG_CONFIG_HOME: xdg });
    expect(missing.status).toBe(2); // the user's file: bad input
    expect(missing.stderr).toMatch(/^nqueens: key file .*none\.key cannot be read \(no such file\)\n$/);
    const orphan = cli(["count", "10", "--key-file", keyFile], { XDG_CONFIG_HOME: xdg });
    expect(orphan.status).toBe(2);
  });

  it("a FIFO given as --checkpoint is bad input (exit 2, one line naming it), before any key is made or any part counted", () => {
    const xdg = join(dir, "cli-fifo-xdg");
    const fifo = join(dir, "cli-fifo");
    execFileSync("mkfifo", [fifo]);
    const run = cli(["count", "10", "--workers", "1", "--checkpoint", fifo], { XDG_CONFIG_HOME: xdg });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`nqueens: checkpoint ${fifo} is a FIFO, not a regular file: a checkpoint is read and written only as a regular file; give another path\n`);
    expect(existsSync(xdg)).toBe(false);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});

describe("the same call run again resumes its checkpoint", () => {
  it("parts asked past what the split can make (1000 at n = 8: 84), and a constrained board's default split: the second run takes every part from the file", async () => {
    const { count } = await import("../src/count/count.js");
    const cases: [string, number, Parameters<typeof countParallel>[1]][] = [
      ["resume-capped.json", 8, { parts: 1000 }],
      ["resume-constrained.json", 6, { blocked: [[0, 0]] }],
      ["resume-constrained-parts.json", 7, { blocked: [[0, 0], [3, 3]], parts: 500 }],
    ];
    for (const [name, n, options] of cases) {
      const { parts: _, ...board } = options as { parts?: number };
      const known = name === "resume-capped.json" ? A000170[8]! : (await count(n, { ...board, engine: "ts" })).total; // the reference engine, on one thread
      const checkpoint = join(dir, name);
      // One thread: the split, and so the match against the file, does not depend on the number
      // of threads (each thread more is one more start, about 0.1 s of CPU).
      const first = await countParallel(n, { ...options, workers: 1, checkpoint, key: KEY });
      const again = await countParallel(n, { ...options, workers: 1, checkpoint, key: KEY });
      expect(again.resumed, name).toBe(first.parts);
      expect(again.parts, name).toBe(first.parts);
      expect(again.total, name).toBe(first.total);
      expect(first.total, name).toBe(known);
    }
  });
});
