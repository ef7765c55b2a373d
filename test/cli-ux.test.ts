// A new user's first hour with the `nqueens` command: files read with a size cap, secrets
// never echoed, and the terminal's wording. Each case is one short run of the built CLI.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-run.js";
import { redact } from "../src/distributed/redact.js";
import { plural } from "../src/cli/progress.js";
import { A000170 } from "./fixtures/oeis.js";
import { isSolution } from "./helpers.js";
import { count, excludedDiagonalsBoard } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "nqueens-ux-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One line on stderr, nothing on stdout, exit 2: the CLI's answer to bad input. */
function refusedInOneLine(run: { code: number | null; stdout: string; stderr: string }): string {
  expect(run.stdout).toBe("");
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.code).toBe(2);
  return run.stderr;
}

describe("files the user names are read with a size cap", () => {
  it("--board /dev/zero, a link to it, and a JSON board nested 50,000 deep: one line naming the file, exit 2", async () => {
    const link = join(dir, "zero-link");
    symlinkSync("/dev/zero", link);
    const deep = join(dir, "deep.json");
    writeFileSync(deep, `{"n": ${"[".repeat(50_000)}${"]".repeat(50_000)}}`);
    const [zero, viaLink, nested] = await Promise.all([
      runCli(["count", "--board", "/dev/zero"], { killAfterMs: 20_000 }),
      runCli(["solve", "--board", link], { killAfterMs: 20_000 }),
      runCli(["count", "--board", deep], { killAfterMs: 20_000 }),
    ]);
    expect(refusedInOneLine(zero)).toMatch(/^nqueens: --board \/dev\/zero: cannot read the file \(over 64 MiB, or endless/);
    expect(refusedInOneLine(viaLink)).toContain(`--board ${link}: cannot read the file (over 64 MiB`);
    expect(refusedInOneLine(nested)).toMatch(/deep\.json \(JSON\): n must be an integer from 1 to 1000000, got an array/);
  });

  it("a checkpoint at /dev/full (endless zeros) is refused in one line naming it, exit 2", async () => {
    const run = await runCli(["count", "10", "--workers", "1", "--checkpoint", "/dev/full"], { killAfterMs: 20_000 });
    expect(refusedInOneLine(run)).toMatch(/^nqueens: checkpoint \/dev\/full is a character device, not a regular file/);
  });
});

describe("secrets in a --queue URL are never echoed", () => {
  const SECRET = "S3cretPW";
  it("a password in the user info, the ?query, the #fragment or the path is masked; a stray % is bad input (exit 2), not 'URI malformed'", async () => {
    const urls = [
      `redis://u:${SECRET}@h:1/0?password=${SECRET}`,
      `redis://u:${SECRET}@h:1/0#${SECRET}`,
      `redis://h:1/${SECRET}`,
      `redis://user:${SECRET.slice(0, 5)}%PW@h:1`,
    ];
    const runs = await Promise.all(urls.map((url) => runCli(["count", "8", "--queue", url, "--unauthenticated"], { killAfterMs: 20_000 })));
    for (const run of runs) {
      const line = refusedInOneLine(run);
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain("S3cre");
      expect(line).toMatch(/^nqueens: --queue/);
    }
    expect(runs[3].stderr).toContain("'%' that is not %XX");
  });

  it("redact hides the query, the fragment and a redis path that is not a database number; keeps host, port and /db", () => {
    expect(redact(`redis://u:${SECRET}@h:6379/0?password=${SECRET}#x`)).toBe("redis://u:***@h:6379/0?***");
    expect(redact(`see rediss://h:1/${SECRET} and redis://h:2/15`)).toBe("see rediss://h:1/*** and redis://h:2/15");
    expect(redact(`"redis://h:1#${SECRET}"`)).toBe(`"redis://h:1#***"`);
  });
});

/**
 * Runs the CLI in a real terminal (script(1) gives it a pty) and returns what the terminal got,
 * its bar frames split out. `interruptOn`: Ctrl-C (SIGINT to the CLI, whose pid its shell wrote
 * before exec) once the terminal's text matches it.
 */
function inTerminal(args: string, interruptOn?: RegExp): Promise<{ code: number | null; text: string; frames: (prefix: string) => string[] }> {
  return new Promise((resolve) => {
    const pidFile = join(dir, `cli-${Math.random().toString(36).slice(2)}.pid`);
    const command = `sh -c 'echo $$ > ${pidFile}; exec ${process.execPath} dist/cli.js ${args}'`;
    const child = spawn("script", ["-qfec", command, "/dev/null"], { stdio: ["ignore", "pipe", "pipe"] });
    let text = "", sent = false;
    const seen = (d: Buffer): void => {
      text += d;
      if (interruptOn && !sent && interruptOn.test(text)) {
        sent = true;
        process.kill(Number(readFileSync(pidFile, "utf8")), "SIGINT");
      }
    };
    child.stdout.on("data", seen);
    child.stderr.on("data", seen);
    child.on("close", (code) => resolve({
      code, text,
      // eslint-disable-next-line no-control-regex
      frames: (prefix) => text.replace(/\x1b\[1G/g, "\n").replace(/\x1b(\[[0-9;?]*[A-Za-z]|[78])/g, "").split(/\r|\n/).filter((l) => l.startsWith(prefix)),
    }));
  });
}

describe("the terminal", () => {
  it("solve's bar: its fields from the first frame (never the raw {n} | {phase} template), an ETA bound from --timeout; a hopeless method is said at once", async () => {
    // The bar starts at the first report past 500 ms, and a search cut by --timeout always sends
    // a last report (at or past the timeout), so any --timeout over 500 ms draws frames.
    const run = await inTerminal("solve 40 --method backtrack --timeout 1000");
    expect(run.code, run.text).toBe(0);
    expect(run.text).not.toMatch(/\{(n|phase|nodes|tries|steps|conflicts|etaText)\}/);
    const frames = run.frames("solve 40 |");
    expect(frames.length, run.text).toBeGreaterThan(0);
    // backtracking: nodes only (no tries, steps or conflicts: they do not apply to it)
    for (const frame of frames) expect(frame).toMatch(/^solve 40 \| search \| \d+ nodes \| \d+s \| at most \d+s left$/);
    expect(run.text.indexOf("--method backtrack is hopeless at n = 40")).toBeLessThan(run.text.indexOf("solve 40 |"));
    expect(run.text).toContain("use --method hybrid (or leave --method out: auto)");
  });

  it("a constrained count is split into many tasks, with an ETA from Knuth's estimate of its tree", async () => {
    // n = 15: about 1.6 s on Wasm on a quiet machine, so the bar draws several frames (n = 14 can end before the first)
    // 2080110: the same board's count as the library gives it, count(15, { blocked: [[0, 0], [5, 5]] }),
    // written here rather than counted again beside the CLI (1.6 s of CPU; the engines' agreement
    // is crossCheck's, and this test is about the bar)
    const run = await inTerminal("count 15 --blocked 0:0,5:5");
    expect(run.code, run.text).toBe(0);
    const frames = run.frames("count 15 |");
    expect(frames.length, run.text).toBeGreaterThan(0);
    const totals = new Set(frames.map((f) => /\/(\d+) tasks/.exec(f)?.[1]));
    expect(totals.size).toBe(1);
    expect(Number([...totals][0])).toBeGreaterThanOrEqual(256);
    expect(frames.every((f) => / \| ETA (\d+m )?\d+s$/.test(f)), frames.join("\n")).toBe(true); // from the first frame on
    expect(run.text).toContain("n = 15: 2080110 solutions with the given queens and blocked squares");
  });

  it("a plain count with no end in sight says its forecast at once, and its bar has an ETA before any task is done", async () => {
    // n = 24: a task takes about half an hour on one thread, so every frame is at 0 tasks done;
    // Ctrl-C once a frame with its ETA is drawn (the count's own exit, 130, through script -e)
    const run = await inTerminal("count 24", /count 24 \|[^\r\n]*ETA \d+y/);
    expect(run.code, run.text).toBe(130);
    const notice = /nqueens: count 24 is estimated at about ([\d.,]+) years on one thread \(a model: [^)]*\); the ETA follows this count's own rate once its first tasks finish\. Ctrl-C stops it/.exec(run.text);
    expect(notice, run.text).not.toBeNull();
    const years = Number(notice![1]!.replace(/,/g, ""));
    expect(years).toBeGreaterThan(0.1); // a year or so on one thread; never "0"
    expect(years).toBeLessThan(100);
    const frames = run.frames("count 24 |");
    expect(frames.length, run.text).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/^count 24 \|[^|]+\| 0% \| 0\/\d+ tasks \| \d+s elapsed \| ETA \d+y$/);
    expect(run.text.indexOf("count 24 is estimated")).toBeLessThan(run.text.indexOf("count 24 |"));
    expect(run.text).toContain("nqueens: interrupted");
    // A --timeout under the minute ends the count first: no forecast then (the forecast is said
    // before the count starts, so 10 ms of counting is as good a check as 300).
    const bounded = await runCli(["count", "24", "--timeout", "10"]);
    expect(bounded.stderr).toBe("nqueens: count(24) did not finish within --timeout 10 ms\n");
  });

  it("a constrained solve with no end in sight says Knuth's estimate of a proof, and its bar shows it", async () => {
    // n = 32, d = 34, seed 1: undecided after hours of one thread; the forecast starts a second in
    // (200 probes on a thread of its own, at most 3 s of it: about 1.5 s here), then the notice,
    // then frames with the estimate; Ctrl-C once such a frame is drawn.
    const board = join(dir, "frontier-32.json");
    writeFileSync(board, JSON.stringify({ n: 32, blocks: excludedDiagonalsBoard(32, 34, { seed: 1 }).blocked }));
    const run = await inTerminal(`solve --board ${board}`, /solve 32 \| search \| \d+ nodes \| a proof ~[\d.e+]+ nodes, ~/);
    expect(run.code, run.text).toBe(130);
    const notice = /nqueens: a proof that this board has no solution is estimated at about ([\d.e+]+) nodes \(Knuth's estimate of the complete search's tree, \d+ probes: a guide, often several times under\); at [\d.e+]+ a second here, about [^.]+\. A solution, where the board has one, can come sooner\. Ctrl-C stops it/.exec(run.text);
    expect(notice, run.text).not.toBeNull();
    expect(Number(notice![1])).toBeGreaterThan(1e8); // (about 10^10 with 200 probes: 5.0e+9 before the needed diagonals, times the portfolio's equal shares)
    const frames = run.frames("solve 32 |").filter((f) => f.includes("a proof"));
    expect(frames.length, run.text).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(new RegExp(`^solve 32 \\| search \\| \\d+ nodes \\| a proof ~${notice![1]!.replace(/[.+]/g, "\\$&")} nodes, ~[\\dhms ]+ \\| (\\d+m )?\\d+s$`));
    expect(frames.filter((f) => f.endsWith("| 0s")), "the solve's own elapsed time, not the bar's restarted one").toEqual([]);
    expect(run.text.indexOf("a proof that this board")).toBeLessThan(run.text.indexOf("a proof ~"));
  });

  it("a --seed that the method does not use is said, not dropped silently; a seeded method takes it without a word", async () => {
    const [unused, used] = await Promise.all([runCli(["solve", "12", "--seed", "3"]), runCli(["solve", "20", "--seed", "3", "--json"])]);
    expect(unused.code).toBe(0);
    expect(unused.stderr).toBe("nqueens: --seed 3 was not used: method backtrack has no randomness\n"); // auto picks backtracking at n = 12
    expect(used.stderr).toBe("");
    const r = JSON.parse(used.stdout) as { method: string; seed: number; columns: number[] };
    expect([r.method, r.seed]).toEqual(["hybrid", 3]);
    expect(isSolution(r.columns)).toBe(true);
  });

  it("a plain count that ends within a minute says no forecast", async () => {
    const run = await runCli(["count", "12"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
  });

  it("a constrained count forecast to take longer than a minute says its estimate at once", async () => {
    const t0 = Date.now();
    const run = await runCli(["count", "33", "--blocked", "0:0", "--timeout", "1500"], { killAfterMs: 20_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^nqueens: this count is estimated at about [\d.e+]+ queens placed \(Knuth's estimate of its search tree\); at [\d.e+]+ a second here, about [\d.e+,]+ years\. Ctrl-C stops it\n/);
    expect(run.stderr).toContain("did not finish within --timeout 1500 ms");
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  // (--timeout's line, in ms, is checked by the forecast's test above: count 24 --timeout 10.)
  it("wording: '1 solution', '1 queen placed'; --fixed 9:0 named as typed; --workers auto is one per core; all --jsonl, one solution a line", async () => {
    const [one, fixed, auto, jsonl, none] = await Promise.all([
      runCli(["count", "1"]),
      runCli(["count", "8", "--fixed", "9:0"]),
      runCli(["count", "9", "--workers", "auto"]),
      runCli(["all", "6", "--jsonl"]),
      runCli(["all", "3", "--jsonl"]),
    ]);
    expect(one.stdout).toBe("n = 1: 1 solution, 1 unique (up to rotation and reflection)\n" + one.stdout.split("\n")[1] + "\n");
    expect(one.stdout.split("\n")[1]).toMatch(/^1 queen placed, /);
    expect(refusedInOneLine(fixed)).toBe("nqueens: --fixed 9:0 is outside the 8 x 8 board: rows and columns run from 0 to 7 (0-based)\n");
    expect(auto.stdout).toContain(`${plural(availableParallelism(), "worker")}, `);
    expect(auto.stdout).toContain(`n = 9: ${A000170[9]} solutions`);
    const lines = jsonl.stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as number[]);
    expect(lines.length).toBe(Number(A000170[6]));
    expect(lines.every(isSolution)).toBe(true);
    expect(none.stdout).toBe("");
    expect(none.code).toBe(0);
  });
});

/** This machine's environment without the software Vulkan driver the test run points Dawn at. */
function withoutGpuDriver(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ["LD_LIBRARY_PATH", "VK_ICD_FILENAMES", "VK_DRIVER_FILES", "NQUEENS_DEBUG"]) delete env[key];
  return env;
}

describe("native noise", () => {
  it("count --engine webgpu and crosscheck keep stderr to the package's one-line messages where Dawn has no Vulkan (no C++ paths)", async () => {
    const run = (args: string[]) => runCli(args, { env: withoutGpuDriver() });
    const [count, cross] = await Promise.all([run(["count", "8", "--engine", "webgpu"]), run(["crosscheck", "--budget", "300"])]);
    for (const { stderr } of [count, cross]) {
      expect(stderr).not.toMatch(/\.cpp|Warning: |third_party/);
      for (const line of stderr.split("\n").filter(Boolean)) expect(line).toMatch(/^(nqueens: |GPU: |crosscheck )/);
    }
    // Either an adapter was found (a GPU line) or the one line that says none is.
    expect(count.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });
});

describe("flags mean one thing, and a repeated flag loses nothing", () => {
  const fourQueens = (text: string): number[][] => text.trim().split("\n\n").map((b) => b.split("\n").map((row) => row.split(" ").findIndex((c) => c === "Q" || c === "q"))); // q: a queen the search placed beside given ones

  it("a repeated --fixed or --blocked adds its squares: the board holds every given queen, and the count is the library's for both squares", async () => {
    const solved = await runCli(["solve", "8", "--fixed", "0:1", "--fixed", "1:3", "--json"]);
    expect(solved.code).toBe(0);
    const columns = JSON.parse(solved.stdout).columns as number[];
    expect(isSolution(columns)).toBe(true);
    expect([columns[0], columns[1]]).toEqual([1, 3]); // the first --fixed was dropped before
    const twice = await runCli(["count", "6", "--blocked", "0:1", "--blocked", "0:4", "--json"]);
    const once = await runCli(["count", "6", "--blocked", "0:1,0:4", "--json"]);
    expect(JSON.parse(twice.stdout).total).toBe(JSON.parse(once.stdout).total);
    expect(JSON.parse(once.stdout).total).toBe(String((await count(6, { blocked: [[0, 1], [0, 4]] })).total));
  });

  it("--board FILE given twice is refused naming the flag, never the earlier file silently dropped", async () => {
    const file = join(dir, "six.txt");
    writeFileSync(file, ". Q . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n");
    for (const command of ["all", "count", "solve"]) {
      expect(refusedInOneLine(await runCli([command, "--board", file, "--board", file]))).toMatch(/^nqueens: --board was given more than once/);
    }
  });

  it("N beside --board: one of another size is refused naming both; one that is no board size is named as n with its range", async () => {
    const file = join(dir, "six-n.txt");
    writeFileSync(file, ". Q . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .\n");
    expect(refusedInOneLine(await runCli(["count", "7", "--board", file])).trimEnd()).toBe(`nqueens: N = 7 but the board in ${file} is 6 x 6; give one or the other`);
    expect(refusedInOneLine(await runCli(["count", "abc", "--board", file])).trimEnd()).toBe('nqueens: n must be an integer from 1 to 32, got "abc"');
    expect(refusedInOneLine(await runCli(["solve", "1.5", "--board", file])).trimEnd()).toMatch(/^nqueens: n must be an integer from 1 to \d+, got 1\.5$/);
    const same = await runCli(["count", "6", "--board", file, "--json"]);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout).n).toBe(6);
  });

  it("--board reads a board file in every command; all and trace draw with --draw", async () => {
    const file = join(dir, "four.txt");
    writeFileSync(file, ". Q . .\n. . . .\n. . . .\n. . . .\n");
    const drawn = await runCli(["all", "--board", file, "--draw"]);
    expect(drawn.code).toBe(0);
    const boards = fourQueens(drawn.stdout.replace(/^.*solutions?.*$/gm, "").trim());
    expect(boards).toEqual([[1, 3, 0, 2]]); // of n = 4's two solutions, the one with a queen at (0, 1)
    const plain = await runCli(["all", "4", "--draw"]);
    expect(plain.code).toBe(0);
    expect(fourQueens(plain.stdout.replace(/^.*solutions?.*$/gm, "").trim()).sort()).toEqual([[1, 3, 0, 2], [2, 0, 3, 1]]);
    expect((await runCli(["all", "--board", "6"])).stderr).toMatch(/--board 6: cannot read the file/); // a file name, not a switch
    const traced = await runCli(["trace", "4", "--draw"]);
    expect(traced.stdout.trim().endsWith(". Q . .\n. . . Q\nQ . . .\n. . Q .")).toBe(true);
  });
});

describe("wording and figures: each line says what applies, in the CLI's words", () => {
  const last = (text: string): string => text.trimEnd().split("\n").at(-1)!;

  it("solve names only the figures its method has, and why it found nothing in the flag's words", async () => {
    const [three, backtrack, minConflicts, construct, lasVegas, capped, slow] = await Promise.all([
      runCli(["solve", "3"]),
      runCli(["solve", "8", "--method", "backtrack"]),
      runCli(["solve", "8", "--method", "min-conflicts"]),
      runCli(["solve", "8", "--method", "construct"]),
      runCli(["solve", "8", "--method", "las-vegas"]),
      runCli(["solve", "30", "--method", "backtrack", "--max-nodes", "100"]),
      runCli(["solve", "40", "--method", "backtrack", "--timeout", "200"]),
    ]);
    expect(three.stdout).toMatch(/^n = 3: no solution exists \(the 3 x 3 board has none\); \d+\.\d ms\n$/);
    expect(last(backtrack.stdout)).toMatch(/^method backtrack, engine ts: 114 nodes, \d+\.\d ms$/);
    expect(last(minConflicts.stdout)).toMatch(/^method min-conflicts, engine ts, seed 1: \d+ tr(y|ies), \d+ steps?, \d+\.\d ms$/);
    expect(last(construct.stdout)).toMatch(/^method construct, engine ts: \d+\.\d ms$/);
    expect(last(lasVegas.stdout)).toMatch(/^method las-vegas, engine ts, seed 1: \d+ nodes, \d+ tr(y|ies), \d+\.\d ms$/);
    expect(capped.stdout).toMatch(/^n = 30: no solution found within --max-nodes 100; 100 nodes, \d+\.\d ms\n$/);
    expect(slow.stdout).toMatch(/^n = 40: no solution found within --timeout 200 ms; \d+ nodes, \d+\.\d ms\n$/);
    for (const run of [three, backtrack, minConflicts, construct, lasVegas, capped, slow]) expect(run.stdout).not.toMatch(/\(no-solution\)|\(max-nodes\)|\(timeout\)|\b0 steps\b|\b0 nodes\b/);
  });

  it("count on workers names the checkpoint only when there is one, and a checkpoint that held every part names no engine or thread", async () => {
    const file = join(dir, "resumed.json");
    const plain = await runCli(["count", "10", "--workers", "2"]);
    expect(last(plain.stdout)).toMatch(/^6620 queens placed, \d+\.\d ms, engine wasm, 2 workers, \d+ parts$/);
    const first = await runCli(["count", "11", "--workers", "2", "--engine", "ts", "--checkpoint", file]);
    expect(last(first.stdout), first.stderr).toMatch(/^\d+ queens placed, \d+\.\d ms, engine ts, 2 workers, \d+ parts$/);
    // Run again with one thread (each thread more is one more start): a run that counts nothing
    // names no thread however many it was given, and the split does not depend on them.
    const again = await runCli(["count", "11", "--workers", "1", "--checkpoint", file]);
    expect(again.stdout).toContain("n = 11: 2680 solutions, 341 unique");
    expect(last(again.stdout)).toMatch(new RegExp(`^\\d+ queens placed, \\d+\\.\\d ms, \\d+ parts, all from the checkpoint ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(nothing left to count\\)$`));
    const json = JSON.parse((await runCli(["count", "11", "--workers", "1", "--checkpoint", file, "--json"])).stdout) as { workers: number; resumed: number; parts: number };
    expect(json.workers).toBe(0); // no thread counted in this run
    expect(json.resumed).toBe(json.parts);
  });

  it("--json: times to 0.1 ms and ratios to three figures (never 14 decimals); all --json says total as count --json does", async () => {
    const cross = await runCli(["crosscheck", "--kernels", "count", "solutions", "--budget", "5000", "--json"]);
    const report = JSON.parse(cross.stdout) as { kernels: Record<string, unknown>[] };
    expect(report.kernels.length).toBeGreaterThan(0);
    const decimals = (v: number): number => (String(v).split(".")[1] ?? "").length;
    for (const k of report.kernels) {
      for (const [key, v] of Object.entries(k)) {
        if (typeof v !== "number") continue;
        if (/Ms$/.test(key)) expect(decimals(v), `${key} ${v}`).toBeLessThanOrEqual(1);
        if (/Over/.test(key) && v !== 0) expect(String(v).replace(/^0\.0*|\./g, "").length, `${key} ${v}`).toBeLessThanOrEqual(3);
      }
    }
    const [counted, listed] = await Promise.all([runCli(["count", "6", "--json"]), runCli(["all", "6", "--json"])]);
    expect(JSON.parse(counted.stdout).total).toBe("4");
    expect(JSON.parse(listed.stdout)).toMatchObject({ n: 6, total: 4 });
  });

  it("a board size that is not a number is named as the API names it: n, lower case, with its range", async () => {
    const run = await runCli(["count", "abc"]);
    expect(run.stderr).toBe('nqueens: n must be an integer from 1 to 32, got "abc"\n');
    expect(run.code).toBe(2);
  });
});

describe("the GPU is --engine webgpu in every command", () => {
  it("worker --gpu, the old spelling, says it is deprecated and goes on as --engine webgpu; worker --engine takes wasm or webgpu only", async () => {
    // No adapter is reachable without the software driver's environment: both spellings are refused alike, before any connection.
    const run = (args: string[]) => runCli(args, { env: withoutGpuDriver() });
    const [old, current, wrong] = await Promise.all([
      run(["worker", "--queue", "redis://127.0.0.1:1", "--gpu", "--unauthenticated"]),
      run(["worker", "--queue", "redis://127.0.0.1:1", "--engine", "webgpu", "--unauthenticated"]),
      run(["worker", "--queue", "redis://127.0.0.1:1", "--engine", "ts"]),
    ]);
    expect(old.stderr.split("\n")[0]).toBe("nqueens worker: --gpu is deprecated: use --engine webgpu");
    expect(old.stderr.split("\n").slice(1).join("\n")).toBe(current.stderr);
    expect(old.code).toBe(current.code);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--engine.*'ts' is invalid\. Allowed choices are wasm, webgpu/);
  });
});
