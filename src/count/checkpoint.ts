// countParallel's checkpoint file (Node): the run's identity and the verified results of its
// finished parts, under an HMAC-SHA-256 (src/core/key.ts) over the whole content, so that
// nobody without the key can change a count in it, drop or swap entries, or pass another
// run's file as this one's. Read only from a regular file (never blocking on a FIFO or reading
// a device), written only to a regular file (a device, FIFO or directory, or a link to one, is
// refused), atomically: a temporary file in the same directory, fsync, rename; no temporary
// file is left behind on any failure.
import { ErrorCode, ioError, withCode, type CodedError } from "../core/errors.js";
import { explicitKey, localKey, macEquals, macOf, type KeyInput } from "../core/key.js";
import { checkPartCount, type Part, type PartResult } from "./split.js";
import { SPLIT_VERSION } from "./parts.js";
import { importModule } from "../core/platform.js";
import { liveTemporary } from "../core/temporaries.js";
import type { Steps } from "../core/pacer.js";

/** The domain of a checkpoint's MAC: a MAC made for anything else never passes as one. */
export const CHECKPOINT_DOMAIN = "nqueens-checkpoint-v1";

/** The largest checkpoint read (a million parts at some 250 bytes an entry). */
const MAX_CHECKPOINT_BYTES = 512 * 1024 * 1024;

/**
 * The checkpoint file (JSON): the run's identity, the verified results of the finished parts,
 * and `mac`, the HMAC-SHA-256 under the key of every other field (canonicalJson of the object
 * without `mac`: format, splitVersion, n, parts, board, done, and anything else the file holds).
 */
export type Checkpoint = {
  format: "nqueens-count-checkpoint";
  splitVersion: number;
  n: number;
  parts: number;
  /** A constrained count's board (digest of its givens and split version); absent for the plain count. */
  board?: string;
  done: PartResult[];
  mac: string;
};

/** Test hook: called with the temporary file just before it is renamed over the checkpoint (a test throws here to prove nothing is left behind). */
export const checkpointHooks: { beforeRename?: (temporary: string) => void } = {};

/** Specifiers kept in variables so browser bundlers do not try to resolve Node built-ins. */
const NODE_FS = "node:fs/promises";
const NODE_PATH = "node:path";
const NODE_CRYPTO = "node:crypto";

async function fsp(): Promise<typeof import("node:fs/promises")> {
  return importModule<typeof import("node:fs/promises")>(NODE_FS);
}

/** The way out of a refused checkpoint, in the API's words (the CLI says it with its flags). */
export const CHECKPOINT_HINT = "delete it, or pass restart: true, to start over";

/** A refused checkpoint (unreadable, malformed, another run's): NQ_CHECKPOINT_CORRUPT, naming the file and how to start over. */
export function refused(path: string, why: string): CodedError<RangeError> {
  const detail = `checkpoint ${path} ${why}`;
  return Object.assign(withCode(new RangeError(`${detail}; it is not used: ${CHECKPOINT_HINT}`), ErrorCode.checkpointCorrupt),
    { param: "checkpoint", detail, hint: CHECKPOINT_HINT });
}

/** A checkpoint whose MAC does not verify: NQ_TAMPERED, naming the file; nothing of it is used. */
function tampered(path: string, why: string): CodedError {
  const detail = `checkpoint ${path} ${why}`;
  return Object.assign(withCode(new Error(`${detail}; nothing of it is used: ${CHECKPOINT_HINT}`), ErrorCode.tampered),
    { param: "checkpoint", detail, hint: CHECKPOINT_HINT });
}

/**
 * The key of a checkpoint: the explicit one (key, keyFile, NQUEENS_KEY), else the local key
 * ($XDG_CONFIG_HOME/nqueens/key, made at first use: `created` then names it, for the caller to say so once).
 */
export function checkpointKey(options: { key?: KeyInput; keyFile?: string }): { key: Uint8Array; created?: string } {
  const given = explicitKey(options);
  if (given) return { key: given };
  const local = localKey();
  return { key: local.key, ...(local.created ? { created: local.path } : {}) };
}

/** The MAC of a checkpoint's content (everything but `mac`). */
export function checkpointMac(key: Uint8Array, content: Omit<Checkpoint, "mac">): string {
  return macOf(key, CHECKPOINT_DOMAIN, content);
}

const KIND_NAMES: [string, (s: import("node:fs").Stats) => boolean][] = [
  ["a directory", (s) => s.isDirectory()], ["a character device", (s) => s.isCharacterDevice()], ["a block device", (s) => s.isBlockDevice()],
  ["a FIFO", (s) => s.isFIFO()], ["a socket", (s) => s.isSocket()],
];

function kindOf(stat: import("node:fs").Stats): string {
  return KIND_NAMES.find(([, is]) => is(stat))?.[0] ?? "not a regular file";
}

function notRegular(path: string, stat: import("node:fs").Stats, viaLink: boolean): Error & { code: string } {
  return withCode(
    new Error(`checkpoint ${path} is ${viaLink ? "a link to " : ""}${kindOf(stat)}, not a regular file: a checkpoint is read and written only as a regular file; give another path`),
    ErrorCode.io,
  );
}

/**
 * Where a checkpoint at `path` is written: `path` itself (also when it does not exist yet), or
 * the regular file a link there points to (the link is kept). Refuses (NQ_IO naming the path)
 * a path that is, or links to, a directory, device, FIFO or socket, and a dangling link.
 */
export async function checkpointTarget(path: string): Promise<string> {
  const fs = await fsp();
  let link: import("node:fs").Stats;
  try {
    link = await fs.lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return path;
    throw ioError(`checkpoint ${path} cannot be reached`, error);
  }
  if (!link.isSymbolicLink()) {
    if (!link.isFile()) throw notRegular(path, link, false);
    return path;
  }
  let real: string;
  try {
    real = await fs.realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw withCode(new Error(`checkpoint ${path} is a link to nothing (a dangling link): give another path, or remove the link`), ErrorCode.io);
    }
    throw ioError(`checkpoint ${path} cannot be reached`, error);
  }
  const stat = await fs.stat(real);
  if (!stat.isFile()) throw notRegular(path, stat, true);
  return real;
}

/**
 * Reads and verifies a checkpoint: a regular file (opened without blocking, so a FIFO is
 * refused, not waited on), JSON, its MAC under `key` over its whole content (NQ_TAMPERED),
 * then its run (n, parts, split version, board). A missing file is a fresh start (undefined).
 */
export async function readCheckpoint(path: string, key: Uint8Array, n: number, parts: number | undefined, board?: string): Promise<Checkpoint | undefined> {
  const fs = await fsp();
  const { constants } = fs;
  let text: string;
  let handle: import("node:fs/promises").FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw refused(path, `cannot be read (${code ?? (error as Error).message})`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegular(path, stat, false);
    if (stat.size > MAX_CHECKPOINT_BYTES) throw refused(path, `holds ${stat.size} bytes; a checkpoint holds at most ${MAX_CHECKPOINT_BYTES}`);
    text = await handle.readFile("utf8");
  } catch (error) {
    if ((error as { code?: unknown }).code === ErrorCode.io || (error as { code?: unknown }).code === ErrorCode.checkpointCorrupt) throw error;
    throw refused(path, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  } finally {
    await handle.close();
  }
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw refused(path, "is not a checkpoint file (not JSON)");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data) || data.format !== "nqueens-count-checkpoint") throw refused(path, "is not a count checkpoint");
  if (!("mac" in data)) {
    const old = "checksum" in data ? "was made by an older version of nqueens (an FNV checksum, no MAC under a key)" : "carries no MAC";
    throw tampered(path, `${old}: it cannot be trusted`);
  }
  const { mac, ...content } = data;
  if (!macEquals(mac, checkpointMac(key, content as Omit<Checkpoint, "mac">))) {
    throw tampered(path, "does not verify under the key (its content was changed or damaged, or it was made under another key)");
  }
  const checked = content as Omit<Checkpoint, "mac">;
  if (checked.splitVersion !== SPLIT_VERSION) {
    throw refused(path, `was made by task split version ${String(checked.splitVersion)}; this package uses version ${SPLIT_VERSION}`);
  }
  if (!Array.isArray(checked.done) || !checked.done.every((r) => typeof r === "object" && r !== null)) throw refused(path, "has no list of finished parts");
  if (checked.n !== n) throw refused(path, `belongs to n = ${String(checked.n)}, not n = ${n}`);
  if (parts !== undefined && checked.parts !== parts) throw refused(path, `has ${String(checked.parts)} parts, not ${parts}`);
  if (checked.board !== board) throw refused(path, "belongs to another board (given queens and blocked squares differ)");
  return { ...checked, mac: mac as string };
}

/**
 * The checkpoint's entries, each checked against its part as a thread's answer is (bounds
 * included); a bad or repeated one refuses the file. In steps, an entry a step (countParallel
 * runs them in slices: a checkpoint may hold a million entries).
 */
export function* verifiedEntries(path: string, data: Omit<Checkpoint, "mac">, parts: readonly Part[]): Steps<Map<number, PartResult>> {
  if (data.parts !== parts.length) throw refused(path, `has ${data.parts} parts; the split of n = ${data.n} it names has ${parts.length}`);
  const done = new Map<number, PartResult>();
  for (const [i, entry] of data.done.entries()) {
    const index = entry.part;
    const part = Number.isInteger(index) ? parts[index] : undefined;
    if (!part) throw refused(path, `entry ${i} names part ${JSON.stringify(index)}, not one of 0 .. ${parts.length - 1}`);
    if (done.has(index)) throw refused(path, `holds part ${index} twice`);
    try {
      done.set(index, checkPartCount(part, entry)); // a checkpoint entry is verified like a thread's answer
    } catch (error) {
      throw refused(path, `entry ${i}: ${(error as Error).message}`);
    }
    yield done.size;
  }
  return done;
}

/**
 * Writes a checkpoint atomically and only as a regular file: checkpointTarget (refusing a
 * device, FIFO, directory or a link to one), a fresh temporary file in the same directory
 * (exclusive create), fsync, rename over the target, fsync of the directory. On any failure
 * the temporary file is removed and NQ_IO names the path; the old checkpoint stays as it was.
 */
export async function writeCheckpoint(path: string, key: Uint8Array, content: Omit<Checkpoint, "mac">): Promise<void> {
  const fs = await fsp();
  const { dirname, basename, join } = await importModule<typeof import("node:path")>(NODE_PATH);
  const { randomBytes } = await importModule<typeof import("node:crypto")>(NODE_CRYPTO);
  const target = await checkpointTarget(path);
  const data: Checkpoint = { ...content, mac: checkpointMac(key, content) };
  const dir = dirname(target);
  const temporary = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let made = false;
  const done = liveTemporary(temporary); // a second Ctrl-C removes it before the process exits
  try {
    const handle = await fs.open(temporary, "wx", 0o644);
    made = true;
    try {
      await handle.writeFile(JSON.stringify(data));
      await handle.sync();
    } finally {
      await handle.close();
    }
    checkpointHooks.beforeRename?.(temporary);
    await fs.rename(temporary, target);
    made = false;
    done(); // in place: a second Ctrl-C from here on has nothing to remove
    try {
      const directory = await fs.open(dir, "r");
      try { await directory.sync(); } finally { await directory.close(); }
    } catch {
      // some systems cannot fsync a directory: the rename is still atomic
    }
  } catch (error) {
    if (made) await fs.rm(temporary, { force: true }).catch(() => undefined);
    throw ioError(`checkpoint ${path} could not be written`, error);
  } finally {
    done();
  }
}
