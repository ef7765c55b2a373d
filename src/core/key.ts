// Stand-in for the key module (written against /work/key-interface.md until the `sec`
// branch's "Key module:" commit is merged; theirs replaces this file whole).
// A key: one secret per user or cluster (NQUEENS_KEY, --key-file, `key` in the API), and
// HMAC-SHA-256 over a canonical JSON encoding, a domain string MACed first.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { ErrorCode, withCode } from "./errors.js";

/** A secret: any string (UTF-8) or bytes. */
export type KeyInput = string | Uint8Array;
export interface KeyOptions { key?: KeyInput; keyFile?: string }

const MAX_KEY_FILE = 4096;

function keyError(message: string): Error {
  return withCode(new Error(message), ErrorCode.key);
}

function bytes(key: KeyInput, what: string): Uint8Array {
  const b = typeof key === "string" ? new TextEncoder().encode(key) : key instanceof Uint8Array ? key : undefined;
  if (b === undefined) throw keyError(`${what} must be a string or bytes`);
  if (b.length === 0) throw keyError(`${what} is empty`);
  return b;
}

/** The explicit key: options.key, else the file options.keyFile, else NQUEENS_KEY (non-empty), else undefined. Never logs the key. */
export function explicitKey(options?: KeyOptions, env: Record<string, string | undefined> = process.env): Uint8Array | undefined {
  if (options?.key !== undefined) return bytes(options.key, "key");
  if (options?.keyFile !== undefined) {
    const path = options.keyFile;
    let data: Buffer;
    try {
      data = readFileSync(path);
    } catch (error) {
      throw keyError(`cannot read the key file ${path} (${(error as { code?: string }).code ?? String(error)})`);
    }
    if (data.length > MAX_KEY_FILE) throw keyError(`the key file ${path} holds ${data.length} bytes, more than a key's ${MAX_KEY_FILE}`);
    let end = data.length;
    while (end > 0 && (data[end - 1] === 0x0a || data[end - 1] === 0x0d)) end--;
    if (end === 0) throw keyError(`the key file ${path} is empty`);
    return new Uint8Array(data.subarray(0, end));
  }
  const value = env.NQUEENS_KEY;
  return value ? new TextEncoder().encode(value) : undefined;
}

/** The local default key at $XDG_CONFIG_HOME/nqueens/key, created at first use (32 random bytes, hex, mode 0600). */
export function localKey(env: Record<string, string | undefined> = process.env): { key: Uint8Array; path: string; created: boolean } {
  const dir = join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "nqueens");
  const path = join(dir, "key");
  try {
    return { key: explicitKey({ keyFile: path }, {})!, path, created: false };
  } catch { /* made below */ }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(path, randomBytes(32).toString("hex") + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(path, 0o600);
  return { key: explicitKey({ keyFile: path }, {})!, path, created: true };
}

/** Deterministic JSON: object keys sorted, bigint as its decimal string tagged, no undefined. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === "number" || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "bigint") return JSON.stringify({ $bigint: value.toString() });
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.keys(value as object).sort().filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    return `{${entries.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return "null";
}

/** HMAC-SHA-256 over domain, then canonicalJson(value), lowercase hex. */
export function macOf(key: Uint8Array, domain: string, value: unknown): string {
  return createHmac("sha256", key).update(domain).update("\0").update(canonicalJson(value)).digest("hex");
}

/** Constant-time comparison of two hex MACs (false on any length/shape mismatch). */
export function macEquals(a: unknown, b: string): boolean {
  if (typeof a !== "string" || !/^[0-9a-f]{64}$/.test(a) || !/^[0-9a-f]{64}$/.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}

/** Browser-safe async form (WebCrypto), same output as macOf. */
export async function macOfAsync(key: Uint8Array, domain: string, value: unknown): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const k = await subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const data = new TextEncoder().encode(`${domain}\0${canonicalJson(value)}`);
  return [...new Uint8Array(await subtle.sign("HMAC", k, data))].map((b) => b.toString(16).padStart(2, "0")).join("");
}
