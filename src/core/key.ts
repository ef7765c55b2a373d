// The key: one secret per user or per cluster, and the HMACs made with it. A checkpoint file,
// a queue's job, result and run record carry an HMAC-SHA-256 under the key over a canonical
// encoding of their content, so that nobody without the key can change a count in them and
// have it pass. node:crypto in Node (sync), WebCrypto in browsers (macOfAsync); no dependency.
// The Node built-ins are reached through core/platform.ts (builtinModule), so this module stays
// importable (and its pure parts usable) in a browser bundle.
import { ErrorCode, rangeError, typeError, withCode, invalid } from "./errors.js";
import { builtinModule } from "./platform.js";
import { describe } from "./validate.js";
import { errnoWords } from "./read-file.js";

/** A secret: any string (UTF-8) or bytes. */
export type KeyInput = string | Uint8Array;

/** Where a key may come from: given (`key`), or read from a file (`keyFile`). */
export interface KeyOptions {
  /** The key itself: a string (its UTF-8 bytes) or bytes; never empty. */
  key?: KeyInput;
  /** A file holding the key (its bytes, a trailing newline trimmed; 1 byte to 4 KiB). */
  keyFile?: string;
}

/** The longest key file read (a key is a secret, not a document). */
export const KEY_FILE_MAX_BYTES = 4096;

/** A key that cannot be read or is empty: NQ_KEY. The message names where it came from, never the key. */
export function keyError(message: string, cause?: unknown): Error & { code: string } {
  return withCode(new Error(message, cause === undefined ? undefined : { cause }), ErrorCode.key);
}

/** A MAC that does not verify: NQ_TAMPERED, naming what failed (never the key). */
export function tamperedError(message: string): Error & { code: string } {
  return withCode(new Error(message), ErrorCode.tampered);
}

type Env = Record<string, string | undefined>;

function processEnv(): Env {
  return typeof process !== "undefined" && process.env ? process.env : {};
}

/** A Node built-in, synchronously, without an import a browser bundler would try to resolve. */
function builtin<T>(name: string, what: string): T {
  const mod = builtinModule<T>(name);
  if (mod === undefined) {
    throw withCode(
      new Error(`${what} needs Node 20.16 or later (process.getBuiltinModule); in a browser use macOfAsync`),
      ErrorCode.engineUnavailable,
    );
  }
  return mod;
}

const encoder = new TextEncoder();

function keyBytes(input: unknown, what: string): Uint8Array {
  let bytes: Uint8Array;
  if (typeof input === "string") bytes = encoder.encode(input);
  else if (input instanceof Uint8Array) bytes = new Uint8Array(input); // a copy: the caller's array may change later
  else throw invalid(what, ` must be a string or a Uint8Array, got ${input === null ? "null" : typeof input}`, TypeError);
  if (bytes.length === 0) throw keyError(`${what} is empty; a key must hold at least one byte`);
  return bytes;
}

/** A key file's bytes with one trailing newline (\n or \r\n) trimmed; NQ_KEY naming the path when it cannot be one. */
function readKeyFile(path: string, what: string): Uint8Array {
  const fs = builtin<typeof import("node:fs")>("node:fs", what);
  let raw: Uint8Array;
  try {
    const stat = fs.statSync(path);
    if (!stat.isFile()) throw keyError(`${what} ${path} is not a regular file`);
    if (stat.size > KEY_FILE_MAX_BYTES) throw keyError(`${what} ${path} holds ${stat.size} bytes; a key file holds ${KEY_FILE_MIN_BYTES} to ${KEY_FILE_MAX_BYTES}`);
    checkKeyFileAccess(fs, path, what, stat);
    raw = fs.readFileSync(path);
  } catch (error) {
    if ((error as { code?: unknown }).code === ErrorCode.key) throw error;
    const errno = (error as { code?: unknown }).code;
    throw keyError(`${what} ${path} cannot be read (${typeof errno === "string" ? errnoWords(errno) : (error as Error).message})`, error);
  }
  if (raw.length > KEY_FILE_MAX_BYTES) throw keyError(`${what} ${path} holds ${raw.length} bytes; a key file holds 1 to ${KEY_FILE_MAX_BYTES}`);
  let end = raw.length;
  if (end > 0 && raw[end - 1] === 0x0a) end -= 1;
  if (end > 0 && raw[end - 1] === 0x0d) end -= 1;
  if (end === 0) throw keyError(`${what} ${path} is empty; a key must hold at least one byte`);
  if (end < KEY_FILE_MIN_BYTES) {
    throw keyError(`${what} ${path} holds ${end} bytes; a key file holds at least ${KEY_FILE_MIN_BYTES} (make one: openssl rand -hex 32 > ${path})`);
  }
  return new Uint8Array(raw.subarray(0, end));
}

/** The fewest bytes a key file may hold: 128 bits (the local key holds 64 hex digits, 256 bits). */
export const KEY_FILE_MIN_BYTES = 16;

/**
 * A key file is checked as ssh checks a private key (POSIX only): owned by this user (or root),
 * no group or other permission bits, in a directory others cannot write (else they could swap
 * the file). NQ_KEY naming the path and the way to mend it.
 */
function checkKeyFileAccess(fs: typeof import("node:fs"), path: string, what: string, stat: import("node:fs").Stats): void {
  if (process.platform === "win32" || typeof process.getuid !== "function") return;
  const uid = process.getuid();
  if (stat.uid !== uid && stat.uid !== 0) throw keyError(`${what} ${path} is owned by uid ${stat.uid}, not by this user (uid ${uid}) or root; a key file is its owner's`);
  if ((stat.mode & 0o077) !== 0) {
    throw keyError(`${what} ${path} has mode ${(stat.mode & 0o777).toString(8).padStart(4, "0")}: others may read or change it; run chmod 600 ${path}`);
  }
  const dir = builtin<typeof import("node:path")>("node:path", what).dirname(fs.realpathSync(path));
  const dirStat = fs.statSync(dir);
  // A directory others may write (and not sticky, as /tmp is) lets them replace the file.
  if ((dirStat.mode & 0o022) !== 0 && (dirStat.mode & 0o1000) === 0) {
    throw keyError(`${what} ${path} is in ${dir}, which others may write (mode ${(dirStat.mode & 0o777).toString(8).padStart(4, "0")}): they could replace the key; run chmod go-w ${dir}`);
  }
  if (dirStat.uid !== uid && dirStat.uid !== 0 && (dirStat.mode & 0o1000) === 0) {
    throw keyError(`${what} ${path} is in ${dir}, owned by uid ${dirStat.uid}, not by this user or root: its owner could replace the key`);
  }
}

/**
 * The explicit key: `options.key`, else the file `options.keyFile` (its bytes, a trailing
 * newline trimmed; a missing, unreadable, empty or over-4-KiB file is NQ_KEY naming the path),
 * else the `NQUEENS_KEY` environment variable (when not empty), else undefined. Never logs the key.
 * @example const key = explicitKey({ keyFile: "/etc/nqueens/key" }); // Uint8Array
 */
export function explicitKey(options?: KeyOptions, env: Env = processEnv()): Uint8Array | undefined {
  if (options?.key !== undefined) return keyBytes(options.key, "key");
  if (options?.keyFile !== undefined) {
    if (typeof options.keyFile !== "string" || options.keyFile === "") {
      throw invalid("keyFile", ` must be a file path, got ${describe(options.keyFile)}`);
    }
    try {
      return readKeyFile(options.keyFile, "key file");
    } catch (error) {
      // The caller's own file: bad input (the CLI's exit 2), where a local key that cannot be read is this machine's failure.
      throw Object.assign(error as Error, { param: "keyFile" });
    }
  }
  const fromEnv = env.NQUEENS_KEY;
  if (typeof fromEnv === "string" && fromEnv !== "") return encoder.encode(fromEnv);
  return undefined;
}

/** Where the local default key lives: $XDG_CONFIG_HOME/nqueens/key (an absolute XDG_CONFIG_HOME), else ~/.config/nqueens/key. */
export function localKeyPath(env: Env = processEnv()): string {
  const path = builtin<typeof import("node:path")>("node:path", "the local key");
  const xdg = env.XDG_CONFIG_HOME;
  // The XDG base directory spec: a relative XDG_CONFIG_HOME is invalid and ignored.
  let base: string;
  if (typeof xdg === "string" && xdg !== "" && path.isAbsolute(xdg)) base = xdg;
  else {
    const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : builtin<typeof import("node:os")>("node:os", "the local key").homedir();
    base = path.join(home, ".config");
  }
  return path.join(base, "nqueens", "key");
}

/**
 * The local default key at $XDG_CONFIG_HOME/nqueens/key (default ~/.config/nqueens/key),
 * created at first use with 32 random bytes (as 64 hex digits), mode 0600, its directory 0700;
 * `created` tells the caller to say so once on stderr. A key file others may read or write
 * (group or other bits set) is refused with NQ_KEY. Node only.
 * @example const { key, path, created } = localKey(); if (created) console.error(`nqueens: created a key at ${path}`);
 */
export function localKey(env: Env = processEnv()): { key: Uint8Array; path: string; created: boolean } {
  const fs = builtin<typeof import("node:fs")>("node:fs", "the local key");
  const nodePath = builtin<typeof import("node:path")>("node:path", "the local key");
  const crypto = builtin<typeof import("node:crypto")>("node:crypto", "the local key");
  const path = localKeyPath(env);
  const read = (): Uint8Array => {
    if (process.platform !== "win32") {
      let mode: number;
      try {
        mode = fs.statSync(path).mode;
      } catch (error) {
        throw keyError(`local key ${path} cannot be read (${(error as { code?: string }).code ?? (error as Error).message})`, error);
      }
      if ((mode & 0o077) !== 0) {
        throw keyError(`local key ${path} has mode ${(mode & 0o777).toString(8).padStart(4, "0")}: others may read or change it; run chmod 600 ${path}, or make a new key`);
      } // (its owner, length and directory: readKeyFile, as for any key file)
    }
    return readKeyFile(path, "local key");
  };
  if (fs.existsSync(path)) return { key: read(), path, created: false };
  const dir = nodePath.dirname(path);
  const temporary = `${path}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  let created = false;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(temporary, `${crypto.randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
    try {
      fs.linkSync(temporary, path); // atomic and never over an existing key (another process may have made one meanwhile)
      created = true;
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
  } catch (error) {
    throw keyError(`local key ${path} cannot be created (${(error as { code?: string }).code ?? (error as Error).message}); give a key (NQUEENS_KEY, --key-file)`, error);
  } finally {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // not made, or gone already
    }
  }
  return { key: read(), path, created };
}

/**
 * Deterministic JSON: object keys sorted (code-unit order), undefined members left out (in an
 * array, null as JSON.stringify writes it), a bigint as its decimal digits followed by `n`
 * (never confused with a number or a string), typed arrays as arrays of numbers. Refuses what
 * has no one meaning: NaN and the infinities, functions, symbols, Maps, Sets, cycles.
 * Each property is read once (a getter or a Proxy cannot give two answers to one encoding).
 * @example canonicalJson({ b: 1n, a: [1, "x"] }); // '{"a":[1,"x"],"b":1n}'
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const encode = (v: unknown, where: string): string | undefined => {
    switch (typeof v) {
      case "undefined":
        return undefined;
      case "string":
        return JSON.stringify(v);
      case "boolean":
        return v ? "true" : "false";
      case "bigint":
        return `${v.toString(10)}n`;
      case "number":
        if (!Number.isFinite(v)) throw rangeError(`canonicalJson: ${where} is ${v}, which has no JSON form`);
        return JSON.stringify(v);
      case "function":
      case "symbol":
        throw typeError(`canonicalJson: ${where} is a ${typeof v}`);
    }
    if (v === null) return "null";
    const object = v as object;
    if (seen.has(object)) throw typeError(`canonicalJson: ${where} refers back to itself`);
    if (object instanceof Map || object instanceof Set) throw typeError(`canonicalJson: ${where} is a ${object instanceof Map ? "Map" : "Set"}`);
    seen.add(object);
    try {
      if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
        return `[${Array.from(object as unknown as ArrayLike<number | bigint>, (x, i) => encode(x, `${where}[${i}]`)).join(",")}]`;
      }
      if (Array.isArray(object)) {
        const items: string[] = [];
        const length = object.length;
        for (let i = 0; i < length; i++) items.push(encode(object[i], `${where}[${i}]`) ?? "null");
        return `[${items.join(",")}]`;
      }
      const toJSON = (object as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") return encode(toJSON.call(object), where);
      const members: string[] = [];
      for (const key of Object.keys(object).sort()) {
        const encoded = encode((object as Record<string, unknown>)[key], `${where}.${key}`);
        if (encoded !== undefined) members.push(`${JSON.stringify(key)}:${encoded}`);
      }
      return `{${members.join(",")}}`;
    } finally {
      seen.delete(object);
    }
  };
  return encode(value, "value") ?? "null";
}

function checkDomain(domain: unknown): string {
  if (typeof domain !== "string" || domain === "" || domain.includes("\0")) {
    throw invalid("domain", ` must be a non-empty string without NUL, got ${JSON.stringify(domain)}`);
  }
  return domain;
}

/** The bytes MACed: the domain, a NUL, then the canonical encoding of the value. */
function macMessage(domain: string, value: unknown): Uint8Array {
  return encoder.encode(`${checkDomain(domain)}\0${canonicalJson(value)}`);
}

function checkKey(key: unknown): Uint8Array {
  if (!(key instanceof Uint8Array)) throw invalid("key", ` must be a Uint8Array, got ${key === null ? "null" : typeof key}`, TypeError);
  if (key.length === 0) throw keyError("key is empty; a key must hold at least one byte");
  return key;
}

function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/**
 * HMAC-SHA-256 (node:crypto) under `key` over the `domain` string, a NUL, and canonicalJson(value),
 * as 64 lowercase hex digits. The domain ("nqueens-checkpoint-v1", "nqueens-queue-job-v1", ...)
 * keeps a MAC of one kind from ever passing as another.
 * @example macOf(key, "nqueens-checkpoint-v1", { n: 8 }); // "3f1c..." (64 hex digits)
 */
export function macOf(key: Uint8Array, domain: string, value: unknown): string {
  const crypto = builtin<typeof import("node:crypto")>("node:crypto", "macOf");
  return crypto.createHmac("sha256", checkKey(key)).update(macMessage(domain, value)).digest("hex");
}

/** The same MAC as macOf through WebCrypto (crypto.subtle): for browsers, and anywhere async suits. */
export async function macOfAsync(key: Uint8Array, domain: string, value: unknown): Promise<string> {
  const subtle = (globalThis as { crypto?: Crypto }).crypto?.subtle;
  if (subtle === undefined) {
    throw withCode(new Error("macOfAsync needs WebCrypto (crypto.subtle: a secure context in browsers)"), ErrorCode.engineUnavailable);
  }
  const message = macMessage(domain, value);
  const cryptoKey = await subtle.importKey("raw", new Uint8Array(checkKey(key)), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(new Uint8Array(await subtle.sign("HMAC", cryptoKey, new Uint8Array(message))));
}

const MAC_SHAPE = /^[0-9a-f]{64}$/;

/** Constant-time comparison of two hex MACs: false on anything that is not 64 lowercase hex digits, or on any difference. */
export function macEquals(a: unknown, b: string): boolean {
  if (typeof a !== "string" || typeof b !== "string" || !MAC_SHAPE.test(a) || !MAC_SHAPE.test(b)) return false;
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
