// The `nqueens` command, run as a user runs it: a fresh Node process on dist/cli.cjs (the bin).
import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { count, excludedDiagonalsBoard, formatBoard, solve } from "../src/index.js";
import { writeColumns } from "../src/cli/commands/solve.js";
import { TS_ENGINE_MAX_N, defaultEngine } from "../src/cli/options.js";
import { runCli } from "./cli-run.js";
import { isSolution, isSolutionLarge } from "./helpers.js";

describe("nqueens CLI", () => {
  it("count prints totals and --json gives bigints as decimal strings", async () => {
    const text = await runCli(["count", "10"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("724 solutions, 92 unique");
    const json = await runCli(["count", "12", "--json", "--engine", "ts"]);
    expect(json.code).toBe(0);
    const result = JSON.parse(json.stdout);
    expect(result).toMatchObject({ n: 12, total: String(A000170[12]), unique: String(A002562[12]), engine: "ts" });
    expect(typeof result.nodes).toBe("string");
    expect(Math.round(result.ms * 10) / 10).toBe(result.ms); // times to 0.1 ms, not 93.55982300000001
    // --engine does not apply to a count on queue workers (they count on Wasm): said, not ignored
    const queued = await runCli(["count", "10", "--queue", "redis://127.0.0.1:1", "--engine", "ts"]);
    expect(queued.code).toBe(2);
    expect(queued.stderr).toMatch(/--engine ts does not apply with --queue/);
  });

  it("all lists solutions, honours --limit, and --json is one object", async () => {
    const text = await runCli(["all", "6"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(isSolution(line.split(" ").map(Number))).toBe(true);
    const json = JSON.parse((await runCli(["all", "8", "--limit", "5", "--json"])).stdout);
    expect(json.total).toBe(5); // the same name as count --json's
    expect(json.count).toBeUndefined();
    expect(json.solutions).toHaveLength(5);
    for (const s of json.solutions) expect(isSolution(s)).toBe(true);
    const none = await runCli(["all", "3"]);
    expect(none).toMatchObject({ code: 0, stdout: "n = 3: no solution\n" });
  });

  it("solve draws a board, and exits 0 when no solution exists", async () => {
    const board = await runCli(["solve", "4"]);
    expect(board.code).toBe(0);
    expect(board.stdout).toContain(". Q . .\n. . . Q\nQ . . .\n. . Q .");
    const json = JSON.parse((await runCli(["solve", "8", "--json"])).stdout);
    expect(json).toMatchObject({ n: 8, method: "backtrack", found: true, nodes: 114, columns: [0, 4, 7, 5, 2, 6, 1, 3] });
    const none = await runCli(["solve", "3", "--json"]);
    expect(none.code).toBe(0);
    expect(JSON.parse(none.stdout)).toMatchObject({ found: false, reason: "no-solution" });
  });

  it("without --engine, solve and count run a plain board up to TS_ENGINE_MAX_N on the TS engine and the rest on Wasm, with Wasm's answers; --engine wasm is honoured", async () => {
    const { solve: tiny, count: tinyCount } = TS_ENGINE_MAX_N;
    const json = async (args: string[]) => {
      const run = await runCli([...args, "--json"]);
      expect(run.code, `${args.join(" ")}: ${run.stderr}`).toBe(0);
      return JSON.parse(run.stdout) as { engine: string; n: number; columns: number[]; nodes: number | string; tries: number; steps: number; total: string; unique: string };
    };
    // The largest board on each side of the rule: the default method (backtracking there) and a
    // seeded local search (tries, steps); past it, the default method; a board with a given queen
    // (the complete search) and an explicit --engine wasm stay on Wasm however small.
    const [auto, local, past, given, explicit] = await Promise.all([
      json(["solve", String(tiny)]),
      json(["solve", String(tiny), "--method", "min-conflicts", "--seed", "5"]),
      json(["solve", String(tiny + 1)]),
      json(["solve", "8", "--fixed", "0:1"]),
      json(["solve", String(tiny), "--engine", "wasm"]),
    ]);
    expect([auto, local, past, given, explicit].map((r) => r.engine)).toEqual(["ts", "ts", "wasm", "wasm", "wasm"]);
    for (const r of [auto, local, past, given, explicit]) expect(isSolution(r.columns), JSON.stringify(r)).toBe(true);
    expect(given.columns[0]).toBe(1);
    const figures = (r: { columns: ArrayLike<number> | null; nodes: number | string; tries: number; steps: number }) => ({ columns: Array.from(r.columns ?? []), nodes: r.nodes, tries: r.tries, steps: r.steps });
    expect(figures(auto)).toEqual(figures(explicit));
    expect(figures(local)).toEqual(figures(await solve(tiny, { method: "min-conflicts", seed: 5, engine: "wasm" })));
    // count: the same on each side of its own rule (its nodes Wasm's), and a count on worker threads stays on Wasm.
    const [small, bigger, threads] = await Promise.all([
      json(["count", String(tinyCount)]),
      json(["count", String(tinyCount + 1)]),
      json(["count", String(tinyCount), "--workers", "1"]),
    ]);
    expect([small, bigger, threads].map((r) => r.engine)).toEqual(["ts", "wasm", "wasm"]);
    for (const r of [small, bigger, threads]) {
      expect([r.total, r.unique], `count ${r.n} on ${r.engine}`).toEqual([String(A000170[r.n]), String(A002562[r.n])]);
    }
    expect(small.nodes).toBe(String((await count(tinyCount, { engine: "wasm" })).nodes));
    // The rule's other exclusions, as the commands ask it.
    expect(defaultEngine("solve", tiny, { givens: false, queue: "redis://127.0.0.1:6379" })).toBe("wasm");
    expect(defaultEngine("solve", tiny, { givens: false, workers: "auto" })).toBe("wasm");
    expect(defaultEngine("count", tinyCount, { givens: true })).toBe("wasm");
    expect([0, 2.5, Number.NaN].map((n) => defaultEngine("solve", n, { givens: false }))).toEqual(["wasm", "wasm", "wasm"]);
  });

  it("solve --out writes the columns one per line; --json then omits them", async () => {
    const { mkdtempSync, readFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const file = join(mkdtempSync(join(tmpdir(), "nqueens-cli-")), "cols.txt");
    const run = await runCli(["solve", "5000", "--method", "construct", "--out", file, "--json"]);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ n: 5000, method: "construct", found: true, out: file });
    expect(json.columns).toBeUndefined();
    const columns = readFileSync(file, "utf8").trim().split("\n").map(Number);
    expect(columns).toHaveLength(5000);
    expect(isSolutionLarge(columns)).toBe(true);
  });

  it("writeColumns writes exactly what join would, across its buffer's edges and at every digit count", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "nqueens-cols-"));
    const edges = [0, 1, 9, 10, 99, 100, 999_999, 1_000_000, 2_147_483_647, -1, -2_147_483_648];
    // 300,000 values of up to 7 digits: about 2.3 MB, so the 1 MiB buffer is flushed twice mid-file.
    const many = Int32Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 1_000_003);
    for (const columns of [new Int32Array(0), Int32Array.from(edges), many]) {
      const file = join(dir, `cols-${columns.length}.txt`);
      writeColumns(file, columns);
      expect(readFileSync(file, "utf8")).toBe(columns.length ? `${Array.from(columns).join("\n")}\n` : "");
    }
  });

  it("solve takes the randomized methods' options and gives the API's answer", async () => {
    const run = await runCli(["solve", "30", "--method", "hybrid", "--stop-vegas", "10", "--seed", "7", "--json"]);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    const api = await solve(30, { method: "hybrid", stopVegas: 10, seed: 7 });
    expect(json).toMatchObject({ method: "hybrid", seed: 7, nodes: api.nodes, tries: api.tries, columns: Array.from(api.columns!) });
    const capped = JSON.parse((await runCli(["solve", "200", "--method", "las-vegas", "--max-tries", "3", "--json"])).stdout);
    expect(capped).toMatchObject({ found: false, reason: "max-tries", tries: 3 });
  });

  it("Ctrl-C stops a long solve with exit code 130", async () => {
    // Backtracking at n = 40 runs for hours; the Ctrl-C comes 300 ms after the CLI sets its handler,
    // whatever the load (a fixed 700 ms, under load 9, once came before Node had loaded the CLI:
    // killed, no 130), not after a fixed 3 s of counting.
    const run = await runCli(["solve", "40", "--method", "backtrack"], { killOnceHandled: 300 });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });

  it("Ctrl-C stops `all` on a board with givens while its search is far from any solution, with exit code 130", async () => {
    // An Excluded Diagonals board with no solution (n = 30, d = 36, seed 4: tens of millions of
    // nodes to prove it): `all` lists nothing for minutes, all of it inside the search for the first
    // solution. Before the search ran in chunks, the signal was only looked at between solutions.
    const dir = mkdtempSync(join(tmpdir(), "nqueens-all-int-"));
    try {
      const file = join(dir, "ed30.json");
      writeFileSync(file, formatBoard({ n: 30, fixed: [], blocked: excludedDiagonalsBoard(30, 36, { seed: 4 }).blocked }, "json"));
      const run = await runCli(["all", "--board", file], { killOnceHandled: 300 });
      expect(run.code).toBe(130);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("interrupted");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const badInput: [string[], RegExp][] = [
    [["count", "0"], /n must be an integer from 1 to 32, got 0/],
    [["count", "-1"], /n must be an integer from 1 to 32, got -1/],
    [["count", "1.5"], /n must be an integer from 1 to 32, got 1\.5/],
    [["count", "NaN"], /n must be an integer from 1 to 32, got NaN/],
    [["count", "Infinity"], /n must be an integer from 1 to 32, got Infinity/],
    [["count", "eight"], /n must be an integer from 1 to 32, got "eight"/],
    [["count", "33"], /n must be an integer from 1 to 32, got 33/],
    [["count", "8", "--engine", "gpu"], /Allowed choices are wasm, ts/],
    [["all", "8", "--limit", "x"], /--limit must be an integer >= 1 \(leave it out to list every solution\), got "x"/],
    [["solve", "8", "--method", "magic"], /Allowed choices are/],
    [["solve", "8", "--seed", "-3"], /seed must be an integer from 0 to 4294967295, got -3/],
    [["solve", "8", "--max-nodes", "0"], /--max-nodes must be an integer >= 1, got 0/],
    [["count"], /N is missing: give the board size, or --board FILE/],
    [["solve", "8", "--method", "hybrid", "--stop-vegas", "9"], /--stop-vegas must be an integer from 0 to 8, got 9/],
    [["solve", "8", "--method", "backtrack", "--max-steps", "5"], /--max-steps does not apply to method "backtrack"/],
    [["frobnicate"], /unknown command 'frobnicate'/],
  ];
  it.each(badInput)("bad input %j exits 2 with a one-line message", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).toBe("");
  });

  it("trace tells a search step by step and ends on solve's answer", async () => {
    // Las Vegas, n = 6: the text, one line per event, and the JSON Lines of the same trace.
    const text = await runCli(["trace", "6", "--method", "las-vegas", "--seed", "5"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    const json = await runCli(["trace", "6", "--method", "las-vegas", "--seed", "5", "--json"]);
    const events = json.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(lines).toHaveLength(events.length);
    const api = await solve(6, { method: "las-vegas", seed: 5 });
    expect(api.tries).toBeGreaterThan(1); // this seed fails some tries, so the failures below are really checked
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: "solution", columns: Array.from(api.columns!), nodes: api.nodes, tries: api.tries });
    expect(isSolution(last.columns)).toBe(true);
    expect(lines.at(-1)).toBe(`solution: ${Array.from(api.columns!).join(" ")} (nodes ${api.nodes}, tries ${api.tries})`);
    // Every failed try is said, and followed by a new one.
    const failed = lines.filter((line) => / no safe column: the try fails/.test(line)).length;
    expect(failed).toBe(api.tries - 1);
    expect(lines.filter((line) => /^try \d+: an empty board/.test(line))).toHaveLength(api.tries - 1);
    // Each placement line names the row and column of its event.
    events.forEach((e, i) => {
      if (e.kind === "place") expect(lines[i]).toMatch(new RegExp(`^row ${e.row}: queen at column ${e.column}, drawn at random from the safe columns ${e.safe.join(" ")} `));
    });

    // Hill climbing with --moves: only the swaps taken, each lowering h; the last is solve's board.
    const moves = await runCli(["trace", "8", "--method", "hill-climb", "--seed", "2", "--moves", "--json"]);
    const swaps = moves.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const climb = await solve(8, { method: "hill-climb", seed: 2 });
    expect(swaps.filter((e) => e.kind === "evaluate")).toHaveLength(climb.steps);
    for (const e of swaps) if (e.kind === "evaluate") expect(e.taken && e.delta < 0).toBe(true);
    expect(swaps.at(-1)).toMatchObject({ kind: "solution", columns: Array.from(climb.columns!), steps: climb.steps, tries: climb.tries });

    // --draw draws the partial board after each event: n = 4 backtracking ends on 1 3 0 2.
    const board = await runCli(["trace", "4", "--draw"]);
    expect(board.stdout.trim().endsWith(". Q . .\n. . . Q\nQ . . .\n. . Q .")).toBe(true);
    expect(board.stdout).toMatch(/row 2: no safe column left; back to row 1/);

    const bad = await runCli(["trace", "40"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/n must be an integer from 1 to 32, got 40/);
    const wrong = await runCli(["trace", "8", "--method", "min-conflicts"]);
    expect(wrong.code).toBe(2);
  });

  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const run = await runCli([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(version);
    }
  });

  it("--help works on every command, and says which engine solve and count run without --engine", async () => {
    for (const args of [["--help"], ["count", "--help"], ["all", "--help"], ["solve", "--help"], ["trace", "--help"]]) {
      const run = await runCli(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Usage: nqueens/);
      const command = args[0] === "solve" || args[0] === "count" ? args[0] : undefined;
      if (command) expect(run.stdout.replace(/\s+/g, " ")).toContain(`(default: "wasm"; "ts" for a plain board up to n = ${TS_ENGINE_MAX_N[command]} on one thread, where compiling the Wasm costs more than the search)`);
    }
  });

  it("count --help says --parts also sets a queue run's parts, and its default there", async () => {
    const run = await runCli(["count", "--help"]);
    const help = run.stdout.replace(/\s+/g, " ");
    expect(help).toContain("--parts <P> with --workers or --queue: how many parts to split the count into (default: splitCount's; with --queue fewer from N = 11 to 17, 32 at N = 16, see defaultQueueParts; with givens 64, --queue at most 4096)");
  });

  it("Ctrl-C stops a long count with exit code 130", async () => {
    // count 20 says its forecast (hours) at once, after setting its Ctrl-C handler: the Ctrl-C comes then.
    const run = await runCli(["count", "20"], { killOn: /count 20 is estimated at about/ });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });

  // runCli (test/cli-run.ts) kills its process when the test ends first (a timeout, a failed
  // assertion before the await): here a test that leaves one running, and the next looks.
  let left: Promise<unknown> | undefined;
  it("a test that ends while its nqueens process runs (count 31 takes years) ...", () => {
    left = runCli(["count", "31", "--workers", "1"]);
  });
  it("... leaves no process behind: runCli killed it when that test ended", async () => {
    const run = (await left) as { signal: string | null };
    expect(run.signal).toBe("SIGKILL");
    // This process's children, read from /proc (Linux; no ps needed): none runs count 31.
    const children = readdirSync("/proc").filter((pid) => /^\d+$/.test(pid)).flatMap((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === process.pid ? [readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")] : [];
      } catch { return []; } // gone meanwhile
    });
    expect(children.filter((args) => / dist\/cli\.c?js count 31/.test(args))).toEqual([]);
  });
});
