// nqueens key --worker NAME: issues a worker's identity (its own key, made from the cluster key
// and its name) as the one-line file `nqueens worker --identity-file FILE` reads. The operator
// holds the cluster key; each worker machine gets only its identity.
import { closeSync, existsSync, fsyncSync, linkSync, openSync, realpathSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { IDENTITY_NAME, identityText, queueKey, readIdentity } from "../../distributed/auth.js";
import { RuntimeError, UsageError } from "../errors.js";
import { checkWritableFile } from "../options.js";
import { err, out } from "../output.js";

type KeyCliOptions = { worker: string; out?: string; force?: boolean; keyFile?: string };

export function keyCommand(program: Command): void {
  program
    .command("key")
    .description("issue a worker's identity from the cluster key (--key-file FILE or NQUEENS_KEY): its own key, for `nqueens worker --identity-file FILE`")
    .requiredOption("--worker <NAME>", "the worker's name (1 to 100 letters, digits or . _ @ : -); its results carry it, proven")
    .option("--out <FILE>", "write the identity to FILE, mode 0600 (default: NAME.identity here); - writes it to stdout")
    .option("--force", "overwrite FILE when it exists")
    .option("--key-file <FILE>", "the cluster key (default: NQUEENS_KEY)")
    .action((opts: KeyCliOptions) => {
      const name = opts.worker;
      if (!IDENTITY_NAME.test(name)) throw new UsageError(`--worker must be a name of 1 to 100 letters, digits or . _ @ : -, got ${JSON.stringify(name)}`);
      const cluster = queueKey({ keyFile: opts.keyFile });
      if (cluster === undefined) {
        throw new UsageError("nqueens key issues an identity from the cluster key: give it with --key-file FILE or NQUEENS_KEY (on the operator's machine; workers hold only their identities)");
      }
      const text = identityText(cluster, name);
      if (opts.out === "-") {
        out(text.trimEnd()); // the one line, its newline as every line of the CLI's
        err(`nqueens: this is worker ${name}'s identity, a secret: keep it in a file of mode 0600 on that worker only (nqueens worker --identity-file FILE)\n`);
        return;
      }
      const path = opts.out ?? `${name}.identity`;
      checkWritableFile("--out", path);
      if (opts.keyFile !== undefined && existsSync(path) && realpathSync(path) === realpathSync(opts.keyFile)) {
        throw new UsageError(`--out ${path} is the cluster key's file (--key-file): give the identity a file of its own`);
      }
      if (existsSync(path) && !opts.force) throw new UsageError(`--out ${path} exists: add --force to overwrite it, or give another file`);
      writePrivate(path, text, opts.force === true);
      // A worker reads it as a key file (owner, mode, directory): say now if it would refuse it.
      try {
        readIdentity(path);
      } catch (error) {
        throw new RuntimeError(`wrote ${path}, but a worker would refuse it: ${(error as Error).message}`);
      }
      out(`wrote worker ${name}'s identity to ${path} (mode 0600): copy it to that worker only, and start it with nqueens worker --queue URL --identity-file FILE`);
    });
}

/**
 * `text` written to `path` with mode 0600, whole or not at all: a temporary file beside it is
 * written and synced, then linked in (never over a file made meanwhile) or, with `force`,
 * renamed over the old one.
 */
function writePrivate(path: string, text: string, force: boolean): void {
  const temporary = join(dirname(resolve(path)), `.${process.pid}.${randomBytes(6).toString("hex")}.identity.tmp`);
  try {
    const fd = openSync(temporary, "wx", 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (force) renameSync(temporary, path);
    else linkSync(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") throw new UsageError(`--out ${path} exists: add --force to overwrite it, or give another file`);
    throw new RuntimeError(`--out ${path} cannot be written (${code ?? (error as Error).message})`);
  } finally {
    try {
      unlinkSync(temporary);
    } catch {
      // renamed, or never made
    }
  }
}
