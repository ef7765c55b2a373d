// The CLI as a careful user meets it: every error one line in the CLI's words (flag names,
// `nqueens:` prefix), exit 2 for bad input and 1 for runtime failures, files checked before
// the work, an answer never lost to a failed write, and the rough edges a first user met.
import { spawn } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { runCli } from "./cli-run.js";
import { isSolution } from "./helpers.js";
import { describeFailure } from "../src/cli/errors.js";
import { closest } from "../src/cli/options.js";
import { BAR_FORMATS, BAR_OWN_FIELDS, etaText, plural } from "../src/cli/progress.js";
import { ErrorCode, invalid, timeoutError, withCode } from "../src/core/errors.js";
import { refused } from "../src/count/checkpoint.js";

const dir = mkdtempSync(join(tmpdir(), "nqueens-cli-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One line on stderr, `nqueens: ...`, no stack trace, nothing on stdout. */
function oneLine(run: { stderr: string; stdout?: string }): string {
  const lines = run.stderr.split("\n").filter((l) => l !== "");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^nqueens: /);
  expect(run.stderr).not.toMatch(/\n\s+at /);
  return lines[0];
}

describe("nqueens CLI errors", () => {
  const badInput: [string[], RegExp][] = [
    // --timeout checked as the flag, never Node's message about a "delay"
    [["count", "8", "--workers", "2", "--timeout", "-1"], /--timeout must be an integer >= 0 \(milliseconds\), got -1/],
    [["count", "8", "--timeout", "-1"], /--timeout must be an integer >= 0 \(milliseconds\), got -1/],
    [["solve", "8", "--timeout", "1.5"], /--timeout must be an integer >= 0, got 1\.5/],
    // numbers in decimal only: 0x10 is not 16
    [["count", "0x10"], /n must be a decimal number \(no 0x, 0b or 0o prefix\), got "0x10"/],
    [["count", "0b101"], /n must be a decimal number/],
    // text that is no number: the API's range, the text as typed
    [["count", " 8"], /^nqueens: n must be an integer from 1 to 32, got " 8"$/],
    // a --workers that is no number still names the range
    [["solve", "8", "--workers", "abc"], /--workers must be an integer from 1 to 256 or "auto", got "abc"/],
    [["count", "8", "--workers", "two"], /--workers must be an integer from 1 to 256 or "auto", got "two"/],
    [["all", "8", "--limit", "0"], /--limit must be an integer >= 1 \(leave it out to list every solution\), got 0/],
    [["all", "8", "--limit", "-1"], /--limit must be an integer >= 1 \(leave it out to list every solution\), got -1/],
    [["all", "8", "--limit", "1.5"], /--limit must be an integer >= 1 \(leave it out to list every solution\), got 1\.5/],
    // --parts and --checkpoint belong to a count on workers: refused, not a silent switch
    [["count", "10", "--parts", "4"], /--parts applies to a count on workers: add --workers W/],
    [["count", "10", "--checkpoint", "x.json"], /--checkpoint applies to a count on workers: add --workers W/],
    // --restart starts a checkpoint over: nothing to start over without one
    [["count", "10", "--restart"], /^nqueens: --restart starts a checkpointed count over: it applies with --workers W --checkpoint FILE$/],
    [["count", "10", "--workers", "1", "--restart"], /^nqueens: --restart starts a checkpointed count over: it applies with --workers W --checkpoint FILE$/],
    [["count", "8", "--queue", "redis://127.0.0.1:1", "--restart"], /^nqueens: --restart starts a checkpointed count over/],
    // "did you mean"
    [["solve", "8", "--method", "hill-climbing"], /Allowed choices are .*\. Did you mean hill-climb\?/],
    [["solve", "8", "--method", "minconflicts"], /Did you mean min-conflicts\?/],
    [["count", "8", "--engine", "wsam"], /Did you mean wasm\?/],
    [["trace", "8", "--method", "backtrak"], /Did you mean backtrack\?/],
    [["crosscheck", "--kernels", "solve:backtrak"], /unknown kernel "solve:backtrak"\. Allowed choices are .*Did you mean solve:backtrack\?/],
    // a password in a queue URL is never printed
    [["count", "8", "--queue", "redis://u:secret@[::1"], /--queue must be a redis:\/\/ URL such as redis:\/\/127\.0\.0\.1:6379, got "redis:\/\/u:\*\*\*@\[::1"/],
    [["count", "8", "--queue", "redis://127.0.0.1:6379/abc"], /--queue's database must be a number such as \/0 after the port, got another path \(not shown, as it may be a password\) in "redis:\/\/127\.0\.0\.1:6379\/\*\*\*"/],
    [["worker", "--queue", "redis://127.0.0.1:1", "--grace", "-1"], /^nqueens: --grace must be an integer from 0 to 3600000, got -1$/],
    [["worker", "--queue", "redis://127.0.0.1:1", "--concurrency", "0"], /^nqueens: --concurrency must be an integer from 1 to 256, got 0$/],
    [["runs", "--queue", "http://u:secret@host"], /--queue must be a redis:\/\/ or rediss:\/\/ URL, got "http:\/\/u:\*\*\*@host"/],
    // files checked before the work starts
    [["solve", "8", "--out", "/nonexistent-dir/x.txt"], /--out \/nonexistent-dir\/x\.txt: the directory \/nonexistent-dir does not exist/],
    [["solve", "8", "--out", tmpdir()], /--out .* is a directory; give a file name in it/],
    [["count", "10", "--workers", "1", "--checkpoint", "/nonexistent-dir/c.json"], /--checkpoint \/nonexistent-dir\/c\.json: the directory \/nonexistent-dir does not exist/],
    [["count", "10", "--workers", "1", "--checkpoint", tmpdir()], /--checkpoint .* is a directory/],
  ];
  // Every number flag (and n) given text that is no number: the range as the API says it (or the CLI, where it checks the
  // flag itself), and the text as typed. The list is checked against every number("...") parser in src/cli.
  const notNumbers: [string, string[], string][] = [
    ["n", ["count", "abc"], "an integer from 1 to 32"],
    ["--limit", ["all", "8", "--limit", "abc"], "an integer >= 1 (leave it out to list every solution)"],
    ["--timeout", ["count", "8", "--timeout", "abc"], "an integer >= 0 (milliseconds)"],
    ["--parts", ["count", "10", "--workers", "2", "--parts", "abc"], "an integer from 1 to 1000000"],
    ["--audit", ["count", "12", "--queue", "redis://127.0.0.1:1", "--unauthenticated", "--audit", "abc"], "a fraction from 0 to 1"],
    ["--replicas", ["solve", "30", "--blocked", "0:0", "--queue", "redis://127.0.0.1:1", "--unauthenticated", "--replicas", "abc"], "an integer from 1 to 2"],
    ["--parts-per-job", ["count", "12", "--queue", "redis://127.0.0.1:1", "--unauthenticated", "--parts-per-job", "abc"], "an integer from 1 to 4096"],
    ["--budget", ["crosscheck", "--budget", "abc"], "an integer >= 1"],
    ["--samples", ["estimate", "8", "--samples", "abc"], "an integer >= 1"],
    ["--trials", ["lv-stats", "8", "--trials", "abc"], "an integer >= 1"],
    ["--stop-vegas", ["solve", "20", "--method", "hybrid", "--stop-vegas", "abc"], "an integer from 0 to 20"],
    ["--max-nodes", ["solve", "8", "--max-nodes", "abc"], "an integer >= 1"],
    ["--max-steps", ["solve", "8", "--max-steps", "abc"], "an integer >= 1"],
    ["--max-tries", ["solve", "8", "--max-tries", "abc"], "an integer >= 1"],
    ["--seed", ["solve", "8", "--seed", "abc"], "an integer from 0 to 4294967295"],
    ["--max-events", ["trace", "8", "--max-events", "abc"], "an integer >= 1"],
    ["--concurrency", ["worker", "--queue", "redis://127.0.0.1:1", "--concurrency", "abc"], "an integer from 1 to 256"],
    ["--prefetch", ["worker", "--queue", "redis://127.0.0.1:1", "--prefetch", "abc"], "an integer from 0 to 256"],
    ["--lock-duration", ["worker", "--queue", "redis://127.0.0.1:1", "--lock-duration", "abc"], "an integer from 100 to 3600000"],
    ["--stalled-interval", ["worker", "--queue", "redis://127.0.0.1:1", "--stalled-interval", "abc"], "an integer from 100 to 3600000"],
    ["--grace", ["worker", "--queue", "redis://127.0.0.1:1", "--grace", "abc"], "an integer from 0 to 3600000"],
    ["--workers", ["solve", "8", "--workers", "abc"], 'an integer from 1 to 256 or "auto"'],
  ];
  it.each(notNumbers)("%s given text that is no number names its range and the text: one line, exit 2", async (flag, args, range) => {
    const run = await runCli(args);
    expect(run.code, run.stderr).toBe(2);
    expect(oneLine(run)).toBe(`nqueens: ${flag} must be ${range}, got "abc"`);
    expect(run.stdout).toBe("");
  });
  it("that list holds every number flag of the CLI", () => {
    const parsers = new Set<string>();
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else for (const m of readFileSync(path, "utf8").matchAll(/\bnumber\("([^"]+)"/g)) parsers.add(m[1]);
      }
    };
    walk(fileURLToPath(new URL("../src/cli", import.meta.url)));
    expect(parsers.size).toBeGreaterThan(15);
    expect(new Set(notNumbers.map(([flag]) => flag))).toEqual(parsers);
  });

  it.each(badInput)("bad input %j: one line, exit 2", async (args, message) => {
    const run = await runCli(args);
    expect(run.code, run.stderr).toBe(2);
    expect(oneLine(run)).toMatch(message);
    expect(run.stderr).not.toMatch(/delay|secret|timeoutMs|\n.*\n/);
    expect(run.stdout).toBe("");
  });

  it("an --out in a directory that cannot be written is refused before the search", async () => {
    // Run as an unprivileged user when the tests run as root (root may write anywhere). That
    // user may not be able to read this checkout (a clone in a private temporary directory),
    // so it runs a world-readable copy of dist/ (the CLI needs nothing else to solve).
    const root = mkdtempSync(join(tmpdir(), "nqueens-locked-"));
    chmodSync(root, 0o755);
    cpSync("dist", join(root, "dist"), { recursive: true });
    const locked = join(root, "locked");
    mkdirSync(locked, { mode: 0o555 });
    chmodSync(locked, 0o555);
    try {
      const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const child = spawn(process.execPath, [join(root, "dist", "cli.js"), "solve", "8", "--out", join(locked, "x.txt")], { stdio: ["ignore", "pipe", "pipe"], cwd: root, ...asUser });
      let stderr = "";
      child.stderr!.on("data", (d) => (stderr += d));
      expect(await new Promise((resolve) => child.on("close", resolve))).toBe(2);
      expect(oneLine({ stderr })).toBe(`nqueens: --out ${join(locked, "x.txt")}: the directory ${locked} cannot be written (no permission)`);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("a write that fails after the search (/dev/full) keeps the solution elsewhere and says where, exit 1", async () => {
    const run = await runCli(["solve", "200", "--method", "construct", "--out", "/dev/full"]);
    expect(run.code).toBe(1);
    const line = oneLine(run);
    const where = /^nqueens: could not write \/dev\/full \(ENOSPC\); the solution is kept in (\S+)$/.exec(line);
    expect(where, line).not.toBeNull();
    const columns = readFileSync(where![1], "utf8").trim().split("\n").map(Number);
    rmSync(where![1]);
    expect(columns).toHaveLength(200);
    expect(isSolution(columns)).toBe(true);
    expect(run.stdout).toMatch(new RegExp(`^200 columns written to ${where![1]}\nmethod construct, engine wasm: [\\d.]+ ms\n$`));
  });

  it("stdout that cannot be written (> /dev/full) is one line and exit 1, not a stack trace", async () => {
    const child = spawn(process.execPath, ["dist/cli.js", "count", "8"], { stdio: ["ignore", openSync("/dev/full", "w"), "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(oneLine({ stderr })).toBe("nqueens: cannot write to stdout (ENOSPC)");
  });

  it("Ctrl-C during a count with --checkpoint says the parts are saved, where, and how to resume; the resumed count is exact", async () => {
    const file = join(dir, "interrupted.json");
    // Ctrl-C once the checkpoint holds a part, so mid-count with the CLI's handler surely set.
    // n = 15 (0.3 s of CPU on one worker, 64 parts of 5 ms) leaves the 50-ms poll a margin:
    // the Ctrl-C comes with 2 to 7 of its 64 parts saved, on a quiet machine and at load 10
    // alike (the count and the poll slow down together). A machine so loaded that the count
    // still ends first (exit 0: the interrupt came too late, not the bug) runs it again at
    // n = 17 (8 s), the size this test once took.
    let n = 15, run = await runCli(["count", "15", "--workers", "1", "--parts", "64", "--checkpoint", file], { killWhen: () => existsSync(file) });
    if (run.code === 0) {
      n = 17;
      rmSync(file, { force: true }); // n = 15's finished checkpoint: not this count's
      run = await runCli(["count", "17", "--workers", "1", "--parts", "64", "--checkpoint", file], { killWhen: () => existsSync(file) });
    }
    expect(run.code).toBe(130);
    const line = oneLine(run);
    const saved = new RegExp(`^nqueens: interrupted; (\\d+) of (\\d+|\\?) parts are saved in the checkpoint ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: run the same command again to resume$`).exec(line);
    expect(saved, line).not.toBeNull();
    const resumed = await runCli(["count", String(n), "--workers", "2", "--parts", "64", "--checkpoint", file, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: String(A000170[n]), unique: String(A002562[n]), parts: 64 });
    // The message says what the checkpoint holds: exactly (progress reports are throttled, so the last one seen can be behind).
    expect(JSON.parse(resumed.stdout).resumed).toBe(Number(saved![1]));
  });

  it("--timeout running out on a count on workers says so in the CLI's words and where the parts are, exit 1", async () => {
    const file = join(dir, "timed-out.json");
    // n = 17 takes 8 s: a --timeout well short of it cuts the count mid-way (400 ms: a thread's
    // start and a part or two of 125 ms saved), as a longer one did.
    const run = await runCli(["count", "17", "--workers", "1", "--parts", "64", "--checkpoint", file, "--timeout", "400"]);
    expect(run.code).toBe(1);
    const escaped = file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    expect(oneLine(run)).toMatch(new RegExp(`^nqueens: count 17 did not finish within --timeout 400 ms; \\d+ of (64|\\?) parts are saved in the checkpoint ${escaped}: run the same command again to resume$`));
  });

  it("--timeout fires however much the count allocates: 20,000 parts (a timeout signal that garbage collection could take never fired, and the count ran to its end)", async () => {
    const file = join(dir, "timed-out-many.json");
    const run = await runCli(["count", "16", "--workers", "1", "--parts", "20000", "--checkpoint", file, "--timeout", "800"]);
    expect(run.stdout).toBe("");
    expect(run.code).toBe(1);
    expect(oneLine(run)).toMatch(/^nqueens: count 16 did not finish within --timeout 800 ms; \d+ of (20000|\?) parts are saved in the checkpoint /);
  });

  it("a refused checkpoint names --restart as the way to start over; --restart counts afresh, exactly, and overwrites the file", async () => {
    const file = join(dir, "corrupt.json");
    writeFileSync(file, '{"format": "nqueens-checkpoint", "this is": "not a checkpoint"}');
    const refused = await runCli(["count", "10", "--workers", "1", "--parts", "8", "--checkpoint", file]);
    expect(refused.code).toBe(2);
    expect(oneLine(refused)).toMatch(new RegExp(`^nqueens: checkpoint ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} .*; it is not used: add --restart to count from the start and overwrite it, or give another --checkpoint$`));
    expect(refused.stderr).not.toMatch(/restart: true/);
    const restarted = await runCli(["count", "10", "--workers", "1", "--parts", "8", "--checkpoint", file, "--restart", "--json"]);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(JSON.parse(restarted.stdout)).toMatchObject({ total: String(A000170[10]), unique: String(A002562[10]), parts: 8, resumed: 0 });
    // The file now holds this run: the same command without --restart resumes every part from it.
    const resumed = await runCli(["count", "10", "--workers", "1", "--parts", "8", "--checkpoint", file, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: String(A000170[10]), parts: 8, resumed: 8 });
    // --restart over a valid checkpoint ignores it too.
    const again = await runCli(["count", "10", "--workers", "1", "--parts", "8", "--checkpoint", file, "--restart", "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ total: String(A000170[10]), resumed: 0 });
  });

  it("count prints plurals: 1 worker, 1 part", async () => {
    const run = await runCli(["count", "8", "--workers", "1", "--parts", "1"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/, 1 worker, 1 part\n$/);
  });

  it("a missing optional queue package (bullmq) is one line naming what to install, exit 1", async () => {
    // The package is hidden by a preloaded resolution hook, as if it were not installed (the
    // CLI requires the queue's packages: src/cli/launch.ts).
    const hook = join(dir, "hide-bullmq.cjs");
    writeFileSync(hook, `const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (request === "bullmq") { const e = new Error("Cannot find module 'bullmq'"); e.code = "MODULE_NOT_FOUND"; throw e; }
  return resolve.call(this, request, ...rest);
};
`);
    const child = spawn(process.execPath, ["-r", hook, "dist/cli.js", "count", "8", "--queue", "redis://127.0.0.1:1", "--unauthenticated"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "", stdout = "";
    child.stderr!.on("data", (d) => (stderr += d));
    child.stdout!.on("data", (d) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    expect(oneLine({ stderr })).toBe("nqueens: the Redis queue needs the optional package bullmq: npm install bullmq ioredis");
    expect(stdout).toBe("");
    // The rest of the CLI works without it.
    const plain = spawn(process.execPath, ["-r", hook, "dist/cli.js", "count", "8"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    plain.stdout!.on("data", (d) => (out += d));
    expect(await new Promise((resolve) => plain.on("close", resolve))).toBe(0);
    expect(out).toContain("92 solutions, 12 unique");
  });
});

describe("the CLI's error table branches on codes, not classes", () => {
  it("bad input (NQ_INVALID_ARGUMENT, NQ_QUEUE_MISMATCH) exits 2, in flag names", () => {
    const bad = invalid("timeoutMs", " must be an integer >= 0, got -1");
    expect(describeFailure(bad)).toEqual({ line: "nqueens: --timeout must be an integer >= 0, got -1", exitCode: 2 });
    expect(describeFailure(withCode(new RangeError("queue q holds another count (n = 8, 8 parts)"), ErrorCode.queueMismatch)))
      .toEqual({ line: "nqueens: queue q holds another count (n = 8, 8 parts)", exitCode: 2 });
  });

  it("a checkpoint that fails its checks is bad input (exit 2) and says how to start over", () => {
    expect(describeFailure(withCode(new RangeError("checkpoint c.json: its checksum does not match its content"), ErrorCode.checkpointCorrupt)))
      .toEqual({ line: "nqueens: checkpoint c.json: its checksum does not match its content; it is not used: add --restart to count from the start and overwrite it, or give another --checkpoint", exitCode: 2 });
    // The API's own words for the way out (restart: true, its hint) become the flag's.
    expect(describeFailure(refused("c.json", "is for n = 9, not 10")))
      .toEqual({ line: "nqueens: checkpoint c.json is for n = 9, not 10; it is not used: add --restart to count from the start and overwrite it, or give another --checkpoint", exitCode: 2 });
  });

  it("runtime failures exit 1, whatever their class: out of memory, a part mismatch (a RangeError), a lost queue", () => {
    expect(describeFailure(new RangeError("Array buffer allocation failed"))).toEqual({ line: "nqueens: out of memory: Array buffer allocation failed", exitCode: 1 });
    expect(describeFailure(withCode(new RangeError("Wasm memory could not grow"), ErrorCode.outOfMemory)).exitCode).toBe(1);
    expect(describeFailure(withCode(new RangeError("the result for part 3 of 16 (n = 12) has count8 ..."), ErrorCode.partMismatch)).exitCode).toBe(1);
    expect(describeFailure(withCode(new Error("queue q: lost"), ErrorCode.queueLost)).exitCode).toBe(1);
    expect(describeFailure(withCode(new Error("needs bullmq"), ErrorCode.missingDependency)).exitCode).toBe(1);
    // an uncoded TypeError is a fault of the program, not of the input
    expect(describeFailure(new TypeError("x is not a function")).exitCode).toBe(1);
  });

  it("every line is one line, credentials redacted", () => {
    const { line } = describeFailure(withCode(new Error("cannot reach redis://bob:hunter2@h:1\n(refused)"), ErrorCode.queueUnreachable));
    expect(line).toBe("nqueens: cannot reach redis://bob:***@h:1; (refused)");
  });

  it("the flag comes from the error's param, whatever its message says", () => {
    // A message worded otherwise (or naming another option in its text) still gets the flag of its param.
    const reworded = invalid("workers", " should be at least 1 (parts and timeoutMs are fine), got 0");
    expect(describeFailure(reworded).line).toBe("nqueens: --workers should be at least 1 (parts and timeoutMs are fine), got 0");
    const connection = invalid("connection", "'s database must be a number, got /x");
    expect(describeFailure(connection).line).toBe("nqueens: --queue's database must be a number, got /x");
    // A parameter the CLI has no flag for (n is an argument) keeps the API's name.
    expect(describeFailure(invalid("n", " must be an integer from 1 to 32, got 40")).line).toBe("nqueens: n must be an integer from 1 to 32, got 40");
    // Without a param, an option's name in the text is left alone: nothing is guessed from words.
    expect(describeFailure(withCode(new RangeError("timeoutMs must be an integer >= 0, got -1"), ErrorCode.invalidArgument)).line)
      .toBe("nqueens: timeoutMs must be an integer >= 0, got -1");
    expect(describeFailure(withCode(new RangeError("results hold 3 of 16 parts"), ErrorCode.invalidArgument)).line).toBe("nqueens: results hold 3 of 16 parts");
  });

  it("a timeout is said from its fields: the operation, the flag and the milliseconds", () => {
    expect(describeFailure(timeoutError("count(20)", 500))).toEqual({ line: "nqueens: count(20) did not finish within --timeout 500 ms", exitCode: 1 });
    const reworded = Object.assign(timeoutError("count(20)", 500), { message: "ran out of time" });
    expect(describeFailure(reworded).line).toBe("nqueens: count(20) did not finish within --timeout 500 ms");
  });

  it("a refused checkpoint's way out comes from its hint and detail, not from its message's tail", () => {
    // The message reworded: the CLI's line still holds the reason and the CLI's own way out.
    const corrupt = Object.assign(refused("c.json", "is for n = 9, not 10"), { message: "checkpoint c.json: refused (see the docs)" });
    expect(describeFailure(corrupt)).toEqual({ line: "nqueens: checkpoint c.json is for n = 9, not 10; it is not used: add --restart to count from the start and overwrite it, or give another --checkpoint", exitCode: 2 });
    const tampered = withCode(Object.assign(new Error("checkpoint c.json does not verify; nothing of it is used: delete it, or pass restart: true, to start over"),
      { param: "checkpoint", detail: "checkpoint c.json does not verify", hint: "delete it, or pass restart: true, to start over" }), ErrorCode.tampered);
    expect(describeFailure(tampered)).toEqual({ line: "nqueens: checkpoint c.json does not verify; nothing of it is used: add --restart to count from the start and overwrite it, or give the key it was made under (--key-file, NQUEENS_KEY)", exitCode: 2 });
    // A tampered queue record (not a checkpoint) is a runtime failure, said as it is.
    expect(describeFailure(withCode(new Error("checkpoint-like words in a queue's job do not verify"), ErrorCode.tampered)).exitCode).toBe(1);
  });
});

describe("the CLI's small helpers", () => {
  it("did you mean: close spellings and prefixes, nothing for a wild guess", () => {
    const methods = ["backtrack", "las-vegas", "hybrid", "min-conflicts", "hill-climb", "construct", "auto"];
    expect(closest("hill-climbing", methods)).toBe("hill-climb");
    expect(closest("hillclimb", methods)).toBe("hill-climb");
    expect(closest("lasvegas", methods)).toBe("las-vegas");
    expect(closest("hybird", methods)).toBe("hybrid");
    expect(closest("quantum", methods)).toBeUndefined();
  });

  it("progress text: plurals, and no ETA until one part is done", () => {
    expect(plural(1, "worker")).toBe("1 worker");
    expect(plural(2, "worker")).toBe("2 workers");
    expect(plural(1, "try")).toBe("1 try");
    expect(plural(0, "try")).toBe("0 tries");
    expect(plural(1n, "node")).toBe("1 node");
    expect(etaText(0, 64, 900)).toBe("");
    expect(etaText(5, 5, 900, undefined, 5)).toBe(""); // all resumed: nothing measured in this run
    expect(etaText(16, 64, 4000)).toBe(" | ETA 12s");
    expect(etaText(1, 64, 5000, 3_723_000)).toBe(" | ETA 1h 02m");
  });

  it("progress bars: no field of ours is one cli-progress fills itself (its own {eta} once overwrote ours: 'elapsed0')", () => {
    const meant = new Set(["bar", "percentage", "total", "value", "duration_formatted"]); // cli-progress's, used as it means them
    for (const [kind, format] of Object.entries(BAR_FORMATS)) {
      const fields = [...format.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (kind !== "crosscheck" && kind !== "solve") expect(fields, kind).toContain("etaText"); // (those two have no known end)
      for (const field of fields) {
        if (!meant.has(field)) expect(BAR_OWN_FIELDS as readonly string[], `${kind}: {${field}}`).not.toContain(field);
      }
    }
  });

  it("progress bars: every command that draws one names each field of ours in its source (a field left out is drawn as its raw {name})", () => {
    const own = new Set<string>(BAR_OWN_FIELDS);
    const commands = join("src", "cli", "commands");
    for (const file of readdirSync(commands)) {
      const text = readFileSync(join(commands, file), "utf8");
      for (const [, kind] of text.matchAll(/progressBar\("(\w+)"\)/g)) {
        const format = BAR_FORMATS[kind as keyof typeof BAR_FORMATS];
        for (const [, field] of format.matchAll(/\{(\w+)\}/g)) {
          if (!own.has(field)) expect(new RegExp(`[{,\\s]${field}[:,\\s}]`).test(text), `${file}: the ${kind} bar's {${field}}`).toBe(true);
        }
      }
    }
  });

  it("progress bars in a terminal: the unit, elapsed time and '| ETA ...' (etaText), never cli-progress's bare number", async () => {
    // A real terminal (script(1) gives the CLI a pty), as a user sees the bar; about 2 s of counting.
    const run = await new Promise<{ code: number | null; text: string }>((resolve) => {
      const child = spawn("script", ["-qfec", `${process.execPath} dist/cli.js count 16`, "/dev/null"], { stdio: ["ignore", "pipe", "pipe"] });
      let text = "";
      child.stdout.on("data", (d) => (text += d));
      child.stderr.on("data", (d) => (text += d));
      child.on("close", (code) => resolve({ code, text }));
    });
    expect(run.code, run.text).toBe(0);
    // eslint-disable-next-line no-control-regex
    const frames = run.text.replace(/\x1b\[1G/g, "\n").replace(/\x1b(\[[0-9;?]*[A-Za-z]|[78])/g, "").split(/\r|\n/).filter((l) => l.startsWith("count 16 |"));
    expect(frames.length, run.text).toBeGreaterThan(0);
    for (const frame of frames) {
      expect(frame).toMatch(/^count 16 \|[^|]+\| \d+% \| (\d+)\/\d+ tasks \| \d+s elapsed( \| ETA (\d+h )?(\d+m )?\d+s)?$/);
    }
    expect(frames.some((f) => f.includes("| ETA ")), frames.join("\n")).toBe(true);
    expect(run.text).toContain("n = 16: 14772512 solutions, 1846955 unique");
  });
});
