// The `nqueens` command's entry (dist/cli.js): it runs the program (index.ts, bundled as
// CommonJS in dist/cli-main.cjs) through a V8 code cache, so a fresh process neither parses
// nor compiles again what an earlier run of the same build compiled. Node 20 has no compile
// cache of its own (module.enableCompileCache is Node 22) and none for ES modules, hence the
// program as one CommonJS script compiled by vm.Script with cachedData.
//
// The cache: one file per build and command under $XDG_CACHE_HOME/nqueens (an absolute
// XDG_CACHE_HOME), else ~/.cache/nqueens; NQUEENS_CODE_CACHE=0 turns it off, an absolute
// NQUEENS_CODE_CACHE names another directory. Its name holds the package version, the
// program file's size and modification time, Node's version and the architecture, so a new
// build, a new Node or an edited file never meets an old cache (and V8 refuses a cache made
// by another V8 or other flags: then it is written again). Written once, after the first run
// that had none (at exit, to a temporary file renamed into place, so a reader never sees half
// of one); caches not written for 30 days are removed then. A directory that cannot be written, a file that cannot be read or a cache V8
// refuses only costs the compile the cache would have saved. Nothing else imports this file.
//
// It is built as CommonJS (dist/cli.cjs, the package's `bin`): a CommonJS entry starts without
// Node's ES module loader, which costs a fresh process about 6 ms of CPU (an empty .mjs against
// an empty .cjs) and reads the entry through fs/promises. `node dist/cli.js` (./launch-esm.ts)
// requires it.
const { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } = require("node:fs") as typeof import("node:fs");
const { dirname, isAbsolute, join } = require("node:path") as typeof import("node:path");

/** The package's version, put in by tsup at build time (tsup.config.ts). */
declare const __NQ_VERSION__: string;

/** The commands (their names as typed); any other first word shares one cache, "other". */
const COMMAND_NAMES = ["count", "all", "solve", "trace", "estimate", "tree", "lv-stats", "crosscheck", "worker", "runs", "key"];

const programFile = join(__dirname, "cli-main.cjs");

/** Where caches go, or undefined for none (turned off, or no home to put them in). */
function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const chosen = env.NQUEENS_CODE_CACHE;
  if (chosen === "0" || chosen === "off") return undefined;
  if (chosen !== undefined && isAbsolute(chosen)) return chosen;
  const xdg = env.XDG_CACHE_HOME; // (a relative one is invalid and ignored, as the XDG spec says)
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, "nqueens");
  const home = env.HOME ?? env.USERPROFILE;
  return home !== undefined && isAbsolute(home) ? join(home, ".cache", "nqueens") : undefined;
}

/** The cache's file name for this build, Node and command: `cli-<version>-<size>-<mtime>-<node>-<arch>-<command>.v8cache`. */
function cacheName(size: number, mtimeMs: number): string {
  const first = process.argv.slice(2).find((arg) => !arg.startsWith("-"));
  const command = first !== undefined && COMMAND_NAMES.includes(first) ? first : "other";
  return `cli-${__NQ_VERSION__}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}-${command}.v8cache`;
}

/** The file's bytes, or undefined where it cannot be read. */
function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/** A cache not written for this long is removed when another is written (a build or Node no longer used). */
const STALE_MS = 30 * 86_400_000;

/** Writes the cache atomically (a temporary file renamed) and removes stale ones; any failure is ignored. */
function writeCache(dir: string, name: string, data: Buffer): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temporary = join(dir, `${name}.${process.pid}.tmp`);
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, join(dir, name));
    for (const other of readdirSync(dir)) {
      const path = join(dir, other);
      if (/^cli-.*\.v8cache$/.test(other) && Date.now() - statSync(path).mtimeMs > STALE_MS) unlinkSync(path);
    }
  } catch { /* the next run compiles again */ }
}

// A bare --version is answered here: the program (read, deserialised, run) is not needed for it.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  try {
    writeSync(1, `${__NQ_VERSION__}\n`); // (ASCII: the same bytes on every console)
  } catch { /* a reader that has gone: nothing more to say */ }
  process.exit(0);
}

const { Script } = require("node:vm") as typeof import("node:vm");
const fd = openSync(programFile, "r");
const { size, mtimeMs } = fstatSync(fd);
// ASCII only (esbuild escapes the rest; test/startup.test.ts checks), so latin1 reads it as
// UTF-8 would, without the decoding.
const source = readFileSync(fd, "latin1");
closeSync(fd);

const dir = cacheDir(process.env);
const cacheFile = cacheName(size, mtimeMs);
const cachedData = dir === undefined ? undefined : readOptional(join(dir, cacheFile));
// The file is the program inside its CommonJS wrapper, built so (tsup.config.ts): compiled as it
// was read, with no copy of half a megabyte into a wrapped string first. The wrapper's last
// parameter, __nqImport, is import() as from this module (the program's own import() calls are
// built to call it, since a vm.Script has no module loader of its own).
const script = new Script(source, {
  filename: programFile,
  ...(cachedData === undefined ? {} : { cachedData }),
});
if (dir !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
  // After the run, so the cache holds what it compiled, not only the top level.
  process.once("exit", () => writeCache(dir, cacheFile, script.createCachedData()));
}
const program = { exports: {} };
// The queue's packages (bullmq, ioredis; both ship CommonJS) are required rather than imported:
// through the ES module loader, bullmq's 170 ES modules cost a queue command's process about
// 0.1 s of CPU more (0.30 s against 0.20 s, Node 20), in every `worker`, `runs` and --queue run.
const REQUIRED = new Set(["bullmq", "ioredis"]);
const nqImport = (specifier: string): Promise<unknown> =>
  REQUIRED.has(specifier) ? new Promise((resolve) => resolve(require(specifier))) : import(specifier);
(script.runInThisContext() as (...args: unknown[]) => void).call(program.exports, program.exports, require, program, programFile, dirname(programFile), nqImport);

// A module to TypeScript (its names are its own, not globals'); esbuild's CommonJS output has
// no exports for it.
export {};
