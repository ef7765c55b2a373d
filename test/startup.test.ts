// What keeps a short `nqueens` command quick to start, held as mechanisms, not timed (the
// figures are `npm run bench -- --only startup`): a command loads only what it needs (no
// Node built-in of the threads, the queue, the terminal's bars or the keys for solve 8 and
// --version), the Wasm kernels are compiled at most once and only when a Wasm kernel runs
// (solve 8 and count 8 run on the TS engine by default: none), and the V8 code cache
// (src/cli/launch.ts) is written once, used after, refused safely when bad, and never needed:
// an unwritable directory or none at all changes nothing the user sees.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const dir = mkdtempSync(join(tmpdir(), "nqueens-startup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A preload that reports, at exit, the Node built-ins loaded and how often WebAssembly compiled a module. */
const probe = join(dir, "probe.cjs");
writeFileSync(probe, `
let compiles = 0;
const { Module, compile } = WebAssembly;
WebAssembly.Module = new Proxy(Module, { construct(target, args, newTarget) { compiles++; return Reflect.construct(target, args, newTarget); } });
WebAssembly.compile = (...args) => { compiles++; return compile(...args); };
process.on("exit", () => require("node:fs").writeFileSync(process.env.NQ_PROBE_OUT, JSON.stringify({ compiles, modules: process.moduleLoadList })));
`);

function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["dist/cli.js", ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function probed(args: string[]): { stdout: string; compiles: number; builtins: string[] } {
  const out = join(dir, "probe.json");
  const r = spawnSync(process.execPath, ["-r", probe, "dist/cli.js", ...args], { encoding: "utf8", env: { ...process.env, NQ_PROBE_OUT: out, NQUEENS_CODE_CACHE: join(dir, "probe-cache") } });
  expect(r.status, r.stderr).toBe(0);
  const { compiles, modules } = JSON.parse(readFileSync(out, "utf8")) as { compiles: number; modules: string[] };
  return { stdout: r.stdout, compiles, builtins: modules.filter((m) => m.startsWith("NativeModule ")).map((m) => m.slice("NativeModule ".length)) };
}

/**
 * Built-ins that only threads, the queue, keys, bars or a spawned executable need (net is not
 * one: a piped stdout is a socket), and perf_hooks (reading `performance` loads it: the
 * package's clock in Node is process.hrtime, core/platform.ts).
 */
const NOT_FOR_SHORT_COMMANDS = ["worker_threads", "child_process", "crypto", "readline", "dgram", "perf_hooks"];

describe("a short command loads only what it needs", () => {
  it("the `nqueens` bin (dist/cli.cjs) starts without Node's ES module loader, and `node dist/cli.js` runs the same program", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ nqueens: "./dist/cli.cjs" });
    const out = join(dir, "loaded.json");
    const list = join(dir, "list.cjs");
    writeFileSync(list, `process.on("exit", () => require("node:fs").writeFileSync(process.env.NQ_LIST_OUT, JSON.stringify(process.moduleLoadList)));\n`);
    const run = (entry: string): { stdout: string; loader: boolean } => {
      const r = spawnSync(process.execPath, ["-r", list, entry, "solve", "8"], { encoding: "utf8", env: { ...process.env, NQ_LIST_OUT: out } });
      expect(r.status, r.stderr).toBe(0);
      return { stdout: r.stdout, loader: (JSON.parse(readFileSync(out, "utf8")) as string[]).includes("NativeModule internal/modules/esm/loader") };
    };
    const bin = run("dist/cli.cjs"), esm = run("dist/cli.js");
    expect(bin.loader).toBe(false);
    expect(esm.loader).toBe(true); // the check can see the loader where it is used
    expect(bin.stdout).toMatch(/method backtrack, engine ts: 114 nodes/);
    const untimed = (text: string): string => text.replace(/[\d.]+ ms/g, "T ms");
    expect(untimed(esm.stdout)).toBe(untimed(bin.stdout));
  });

  it("solve 8: no built-in of the threads, the queue, the keys or the bars; no kernel compiled on its default engine (ts), once with --engine wasm", () => {
    const runs = [["ts", "without the code cache"], ["ts", "with it"], ["wasm", "asked for"]] as const;
    for (const [engine, run] of runs) {
      const { stdout, compiles, builtins } = probed(["solve", "8", ...(run === "asked for" ? ["--engine", "wasm"] : [])]);
      expect(stdout, `run ${run}`).toMatch(new RegExp(`method backtrack, engine ${engine}: 114 nodes`));
      expect(compiles, `run ${run}`).toBe(engine === "wasm" ? 1 : 0);
      expect(builtins.filter((m) => NOT_FOR_SHORT_COMMANDS.includes(m)), `run ${run}`).toEqual([]);
      // stdout and stderr are pipes here: its lines go straight to the descriptor, and no bar is
      // asked of stderr, so neither stream (nor Node's stream modules) is built
      expect(builtins.filter((m) => ["internal/streams/writable", "internal/streams/readable", "net", "tty"].includes(m)), `run ${run}`).toEqual([]);
    }
  });

  it("--version compiles no kernel and loads none of them either; bare, it is answered without the program", () => {
    const { version } = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const { stdout, compiles, builtins } = probed([flag]);
      expect(stdout, flag).toBe(`${version}\n`);
      expect(compiles, flag).toBe(0);
      expect(builtins.filter((m) => NOT_FOR_SHORT_COMMANDS.includes(m)), flag).toEqual([]);
      expect(builtins, flag).not.toContain("vm"); // the launcher compiles the program with vm.Script: not for this
    }
  });

  it("count 10 on one thread compiles the kernels once and starts no thread; count 8 (on ts by default) compiles none", () => {
    const { stdout, compiles, builtins } = probed(["count", "10"]);
    expect(stdout).toContain("724 solutions, 92 unique");
    expect(compiles).toBe(1);
    expect(builtins).not.toContain("worker_threads");
    const small = probed(["count", "8"]);
    expect(small.stdout).toMatch(/92 solutions, 12 unique[^]*engine ts/);
    expect(small.compiles).toBe(0);
  });

  it("--help still lists every command (all are registered for it)", () => {
    const r = cli(["--help"]);
    expect(r.status).toBe(0);
    for (const name of ["count", "all", "solve", "trace", "estimate", "tree", "lv-stats", "crosscheck", "worker", "runs", "key"]) {
      expect(r.stdout).toMatch(new RegExp(`^  ${name}\\b`, "m"));
    }
  });
});

describe("the code cache", () => {
  const board = cli(["solve", "8"], { NQUEENS_CODE_CACHE: "0" }).stdout;

  it("is written once, after the first run, and used as it is after that", () => {
    const cache = join(dir, "cache");
    expect(cli(["solve", "8"], { NQUEENS_CODE_CACHE: cache }).stdout.split("\n").slice(0, 8)).toEqual(board.split("\n").slice(0, 8));
    const files = readdirSync(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^cli-\d+\.\d+\.\d+[^-]*-\d+-\d+-v\d+\.\d+\.\d+-[a-z0-9]+-solve\.v8cache$/);
    const first = statSync(join(cache, files[0]!));
    expect(first.mode & 0o777).toBe(0o600);
    expect(statSync(cache).mode & 0o777).toBe(0o700);
    const again = cli(["solve", "8"], { NQUEENS_CODE_CACHE: cache });
    expect(again.status).toBe(0);
    expect(again.stdout.split("\n").slice(0, 8)).toEqual(board.split("\n").slice(0, 8));
    expect(statSync(join(cache, files[0]!)).mtimeMs).toBe(first.mtimeMs); // read, not written again
    expect(readdirSync(cache)).toEqual(files);
  });

  it("a cache V8 refuses (garbage) changes nothing the user sees, and is written again", () => {
    const cache = join(dir, "bad");
    cli(["solve", "8"], { NQUEENS_CODE_CACHE: cache });
    const [file] = readdirSync(cache);
    writeFileSync(join(cache, file!), Buffer.alloc(4096, 0x5a));
    const r = cli(["solve", "8"], { NQUEENS_CODE_CACHE: cache });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout.split("\n").slice(0, 8)).toEqual(board.split("\n").slice(0, 8));
    expect(readFileSync(join(cache, file!))[0]).not.toBe(0x5a);
  });

  it("a directory that cannot be made, and no cache at all, change nothing the user sees", () => {
    const blocked = join(dir, "a-file");
    writeFileSync(blocked, "not a directory");
    const envs: Record<string, string>[] = [{ NQUEENS_CODE_CACHE: join(blocked, "cache") }, { NQUEENS_CODE_CACHE: "0" }, { NQUEENS_CODE_CACHE: "", HOME: "", XDG_CACHE_HOME: "" }];
    for (const env of envs) {
      const r = cli(["solve", "8"], env);
      expect(r.status, JSON.stringify(env)).toBe(0);
      expect(r.stderr, JSON.stringify(env)).toBe("");
      expect(r.stdout.split("\n").slice(0, 8)).toEqual(board.split("\n").slice(0, 8));
    }
  });

  it("the program is ASCII only (the launcher reads it as latin1)", () => {
    expect(readFileSync("dist/cli-main.cjs").every((byte) => byte < 0x80)).toBe(true);
  });
});
