// Files the user names (a board, a checkpoint) read with a size cap: a device such as /dev/zero
// or /dev/full, a link to one, a FIFO or a huge file is refused once `maxBytes` are read,
// never read until memory or V8's string limit runs out. Node only: node:fs is imported when
// a file is read, so the browser bundle never meets it.
import { withCode, ErrorCode, type ErrorCodeValue } from "./errors.js";
import { importModule } from "./platform.js";

const NODE_FS = "node:fs/promises";

/** A system's code for a file that cannot be read, in words where it is a common one ("no such file"); else the code. */
export function errnoWords(code: string): string {
  return code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory" : code === "EACCES" ? "permission denied" : code;
}

/** Why a capped read failed: `tooLarge` (past the cap: the message says so), or the system's code (ENOENT, EISDIR, ...). */
export type ReadFailure = Error & { code: ErrorCodeValue; reason: string };

/**
 * The text of `path` (UTF-8), read in chunks and refused past `maxBytes`: an Error coded
 * NQ_IO whose `reason` is "tooLarge" or the system's code (ENOENT, EISDIR, EACCES...), and
 * whose message names the file. A character device or FIFO is read the same way (up to the cap).
 * @example const text = await readCapped("board.txt", 1 << 20);
 */
export async function readCapped(path: string, maxBytes: number): Promise<string> {
  const fs = await importModule<typeof import("node:fs/promises")>(NODE_FS);
  let handle: import("node:fs/promises").FileHandle | undefined;
  try {
    handle = await fs.open(path, "r");
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(Math.min(1 << 16, maxBytes + 1));
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) throw failure(path, "tooLarge", `${path} is larger than ${maxBytes} bytes (or has no end, as a device such as /dev/zero); not read`);
      chunks.push(Buffer.from(chunk.subarray(0, bytesRead)));
    }
    return Buffer.concat(chunks).toString("utf8");
  } catch (error) {
    if ((error as ReadFailure).reason !== undefined) throw error;
    const errno = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw failure(path, errno, `${path} cannot be read (${errno})`, error);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function failure(path: string, reason: string, message: string, cause?: unknown): ReadFailure {
  return Object.assign(withCode(new Error(message, cause === undefined ? undefined : { cause }), ErrorCode.io), { reason, path });
}
