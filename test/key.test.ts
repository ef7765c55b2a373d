// The key module (src/core/key.ts): HMAC-SHA-256 checked against RFC 4231 through an HMAC
// written here from SHA-256 alone, domains that keep one kind of MAC from passing as another,
// a canonical encoding that does not depend on key order, and where keys come from (given,
// a key file, NQUEENS_KEY, the local key made at first use with mode 0600). Every test that
// touches a key file works in its own temporary directory: the real ~/.config is never used.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/core/errors.js";
import { canonicalJson, explicitKey, localKey, localKeyPath, macEquals, macOf, macOfAsync } from "../src/core/key.js";
import { caught } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "nq-key-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** HMAC-SHA-256 by its definition (RFC 2104) from SHA-256 alone: independent of createHmac and WebCrypto. */
function hmacSha256(key: Uint8Array, message: Uint8Array): string {
  let k = Buffer.from(key);
  if (k.length > 64) k = createHash("sha256").update(k).digest();
  const block = Buffer.alloc(64);
  k.copy(block);
  const pad = (byte: number) => Buffer.from(block.map((b) => b ^ byte));
  const inner = createHash("sha256").update(pad(0x36)).update(message).digest();
  return createHash("sha256").update(pad(0x5c)).update(inner).digest("hex");
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe("HMAC-SHA-256", () => {
  it("the hand-written HMAC gives RFC 4231's test cases 1, 2 and 6 (so it can judge macOf)", () => {
    expect(hmacSha256(new Uint8Array(20).fill(0x0b), bytes("Hi There")))
      .toBe("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    expect(hmacSha256(bytes("Jefe"), bytes("what do ya want for nothing?")))
      .toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    expect(hmacSha256(new Uint8Array(131).fill(0xaa), bytes("Test Using Larger Than Block-Size Key - Hash Key First")))
      .toBe("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
  });

  it("macOf is HMAC-SHA-256 over the domain, a NUL and the canonical encoding; macOfAsync (WebCrypto) gives the same", async () => {
    const key = bytes("Jefe");
    const value = { n: 12, done: [{ part: 3, count8: 17n, nodes: 400 }], board: "abc" };
    const expected = hmacSha256(key, bytes(`nqueens-checkpoint-v1\0${canonicalJson(value)}`));
    expect(macOf(key, "nqueens-checkpoint-v1", value)).toBe(expected);
    expect(await macOfAsync(key, "nqueens-checkpoint-v1", value)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it("domains separate kinds: the same value under another domain, or another key, has another MAC; a domain with NUL is refused", () => {
    const key = bytes("k");
    const value = { part: 1, total: 5n };
    const a = macOf(key, "nqueens-checkpoint-v1", value);
    expect(macOf(key, "nqueens-queue-job-v1", value)).not.toBe(a);
    expect(macOf(bytes("k2"), "nqueens-checkpoint-v1", value)).not.toBe(a);
    expect(macOf(key, "nqueens-checkpoint-v1", { part: 1, total: 6n })).not.toBe(a);
    // the domain ends at the first NUL (a domain holds none; a string's NUL is escaped in the value)
    expect(macOf(key, "ab", "c")).not.toBe(macOf(key, "a", "bc"));
    expect(canonicalJson("\u0000")).toBe('"\\u0000"');
    expect(caught(() => macOf(key, "a\u0000b", 1)).code).toBe(ErrorCode.invalidArgument);
    expect(caught(() => macOf(key, "", 1)).code).toBe(ErrorCode.invalidArgument);
    expect(caught(() => macOf(new Uint8Array(0), "d", 1)).code).toBe(ErrorCode.key);
  });

  it("macEquals: true only for the same 64 lowercase hex digits", () => {
    const mac = macOf(bytes("k"), "d", 1);
    expect(macEquals(mac, mac)).toBe(true);
    expect(macEquals(`${mac.slice(0, 63)}${mac[63] === "0" ? "1" : "0"}`, mac)).toBe(false);
    expect(macEquals(mac.slice(0, 62), mac)).toBe(false);
    expect(macEquals(mac.toUpperCase(), mac)).toBe(false);
    expect(macEquals(undefined, mac)).toBe(false);
    expect(macEquals({ toString: () => mac }, mac)).toBe(false);
    expect(macEquals("", "")).toBe(false);
  });
});

describe("canonicalJson", () => {
  it("does not depend on key order, at any depth", () => {
    const a = { n: 8, board: { fixed: [[0, 1]], blocked: [] }, z: "x" };
    const b = { z: "x", board: { blocked: [], fixed: [[0, 1]] }, n: 8 };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(canonicalJson(a)).toBe('{"board":{"blocked":[],"fixed":[[0,1]]},"n":8,"z":"x"}');
    expect(macOf(bytes("k"), "d", a)).toBe(macOf(bytes("k"), "d", b));
  });

  it("a bigint is tagged: 5n, 5 and '5' encode (and MAC) differently", () => {
    expect(canonicalJson(5n)).toBe("5n");
    expect(canonicalJson(2n ** 70n)).toBe("1180591620717411303424n");
    const encodings = new Set([canonicalJson({ c: 5n }), canonicalJson({ c: 5 }), canonicalJson({ c: "5" }), canonicalJson({ c: "5n" })]);
    expect(encodings.size).toBe(4);
  });

  it("leaves undefined members out, writes typed arrays as arrays, refuses what has no one meaning", () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson(new Uint8Array([3, 4]))).toBe("[3,4]");
    for (const bad of [NaN, Infinity, () => 1, Symbol("s"), new Map(), new Set()]) {
      expect(caught(() => canonicalJson({ x: bad })).code, String(bad)).toBe(ErrorCode.invalidArgument);
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(caught(() => canonicalJson(cycle)).code).toBe(ErrorCode.invalidArgument);
    const shared = { v: 1 };
    expect(canonicalJson([shared, shared])).toBe('[{"v":1},{"v":1}]'); // repeated is not a cycle
  });

  it("reads each property once (a getter cannot answer twice within one encoding)", () => {
    let reads = 0;
    const value = { get count() { reads += 1; return reads; } };
    expect(canonicalJson(value)).toBe('{"count":1}');
    expect(reads).toBe(1);
  });
});

describe("where the key comes from", () => {
  it("key (string as UTF-8, or bytes copied), then keyFile, then NQUEENS_KEY, else undefined", () => {
    const file = join(dir, "given.key");
    writeFileSync(file, "from-file, 16 bytes or more\n", { mode: 0o600 });
    const env = { NQUEENS_KEY: "from-env" };
    expect(Buffer.from(explicitKey({ key: "é" }, env)!)).toEqual(Buffer.from("é", "utf8"));
    const raw = new Uint8Array([1, 2, 3]);
    const copy = explicitKey({ key: raw, keyFile: file }, env)!;
    raw[0] = 9;
    expect([...copy]).toEqual([1, 2, 3]);
    expect(Buffer.from(explicitKey({ keyFile: file }, env)!).toString()).toBe("from-file, 16 bytes or more");
    expect(Buffer.from(explicitKey({}, env)!).toString()).toBe("from-env");
    expect(Buffer.from(explicitKey(undefined, env)!).toString()).toBe("from-env");
    expect(explicitKey({}, { NQUEENS_KEY: "" })).toBeUndefined();
    expect(explicitKey(undefined, {})).toBeUndefined();
  });

  it("a key file's trailing newline (\\n or \\r\\n) is trimmed, nothing else", () => {
    const file = join(dir, "crlf.key");
    writeFileSync(file, " a secret of 16+ bytes \r\n", { mode: 0o600 });
    expect(Buffer.from(explicitKey({ keyFile: file }, {})!).toString()).toBe(" a secret of 16+ bytes ");
  });

  it("a key that cannot be had is NQ_KEY naming the file, never showing the key", () => {
    const secret = "s3cr3t-value-never-shown";
    const empty = join(dir, "empty.key");
    writeFileSync(empty, "\n");
    const big = join(dir, "big.key");
    writeFileSync(big, secret.repeat(200));
    const missing = join(dir, "missing.key");
    for (const path of [empty, big, missing, dir]) {
      const error = caught(() => explicitKey({ keyFile: path }, {}));
      expect(error.code, path).toBe(ErrorCode.key);
      expect((error as { param?: string }).param, path).toBe("keyFile"); // the caller's own file (the CLI: bad input, exit 2)
      expect(error.message).toContain(path);
      expect(error.message).not.toContain(secret);
    }
    expect(caught(() => explicitKey({ keyFile: missing }, {})).message).toBe(`key file ${missing} cannot be read (no such file)`);
    expect(caught(() => explicitKey({ key: "" }, {})).code).toBe(ErrorCode.key);
    expect(caught(() => explicitKey({ key: new Uint8Array(0) }, {})).code).toBe(ErrorCode.key);
    expect(caught(() => explicitKey({ key: 5 as unknown as string }, {})).code).toBe(ErrorCode.invalidArgument);
    expect(caught(() => explicitKey({ keyFile: "" }, {})).code).toBe(ErrorCode.invalidArgument);
  });
});

describe("a key file is checked as ssh checks its keys", () => {
  it("mode with group or other bits, fewer than 16 bytes, a directory others may write: NQ_KEY naming the file and the mend; 0600 and 0400 of 16 bytes pass", () => {
    const good = "sixteen bytes ok";
    const at = (name: string, text: string, mode: number, folder = dir): string => {
      const path = join(folder, name);
      writeFileSync(path, text, { mode });
      chmodSync(path, mode);
      return path;
    };
    expect(Buffer.from(explicitKey({ keyFile: at("ok.key", `${good}\n`, 0o600) }, {})!).toString()).toBe(good);
    expect(Buffer.from(explicitKey({ keyFile: at("ro.key", good, 0o400) }, {})!).toString()).toBe(good);
    const refusals: [string, RegExp][] = [
      [at("open.key", good, 0o644), /has mode 0644: others may read or change it; run chmod 600 /],
      [at("group.key", good, 0o640), /has mode 0640/],
      [at("short.key", "x\n", 0o600), /holds 1 bytes; a key file holds at least 16 \(make one: openssl rand -hex 32 > /],
    ];
    const shared = join(dir, "shared");
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777); // others may write here, and it is not sticky
    refusals.push([at("in-shared.key", good, 0o600, shared), /which others may write \(mode 0777\): they could replace the key; run chmod go-w /]);
    for (const [path, why] of refusals) {
      const error = caught(() => explicitKey({ keyFile: path }, {}));
      expect(error.code, path).toBe(ErrorCode.key);
      expect(error.message).toContain(path);
      expect(error.message).toMatch(why);
      expect(error.message).not.toContain(good);
    }
  });
});

describe("the local key", () => {
  it("lives at $XDG_CONFIG_HOME/nqueens/key, else $HOME/.config/nqueens/key (a relative XDG_CONFIG_HOME is ignored)", () => {
    expect(localKeyPath({ XDG_CONFIG_HOME: "/x/conf", HOME: "/h" })).toBe("/x/conf/nqueens/key");
    expect(localKeyPath({ HOME: "/h" })).toBe("/h/.config/nqueens/key");
    expect(localKeyPath({ XDG_CONFIG_HOME: "rel", HOME: "/h" })).toBe("/h/.config/nqueens/key");
  });

  it("is made at first use (32 random bytes as hex, file 0600, directory 0700), then read as it is", () => {
    const env = { XDG_CONFIG_HOME: join(dir, "xdg"), HOME: join(dir, "home-unused") };
    const first = localKey(env);
    expect(first.created).toBe(true);
    expect(first.path).toBe(join(dir, "xdg", "nqueens", "key"));
    expect(readFileSync(first.path, "utf8")).toMatch(/^[0-9a-f]{64}\n$/);
    expect(Buffer.from(first.key).toString()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "xdg", "nqueens")).mode & 0o777).toBe(0o700);
    const again = localKey(env);
    expect(again.created).toBe(false);
    expect(Buffer.from(again.key)).toEqual(Buffer.from(first.key));
    // another place, another key
    const other = localKey({ HOME: join(dir, "home2") });
    expect(other.path).toBe(join(dir, "home2", ".config", "nqueens", "key"));
    expect(Buffer.from(other.key)).not.toEqual(Buffer.from(first.key));
  });

  it("a local key others may read is refused (NQ_KEY naming it); one that cannot be made is NQ_KEY", () => {
    const xdg = join(dir, "open");
    mkdirSync(join(xdg, "nqueens"), { recursive: true });
    writeFileSync(join(xdg, "nqueens", "key"), "abc\n", { mode: 0o644 });
    chmodSync(join(xdg, "nqueens", "key"), 0o644);
    const error = caught(() => localKey({ XDG_CONFIG_HOME: xdg }));
    expect(error.code).toBe(ErrorCode.key);
    expect(error.message).toContain(join(xdg, "nqueens", "key"));
    expect(error.message).toContain("0644");
    // a file where its directory must be
    const blocked = join(dir, "blocked");
    writeFileSync(blocked, "not a directory");
    const unmade = caught(() => localKey({ XDG_CONFIG_HOME: blocked }));
    expect(unmade.code).toBe(ErrorCode.key);
    expect(unmade.message).toContain(join(blocked, "nqueens", "key"));
  });
});
