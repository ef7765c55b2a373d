// The `nqueens` command, run as a user runs it: a fresh Node process on dist/cli.js.
import { describe, expect, it } from "vitest";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { solve } from "../src/index.js";
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
  });

  it("all lists solutions, honours --limit, and --json is one object", async () => {
    const text = await runCli(["all", "6"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) expect(isSolution(line.split(" ").map(Number))).toBe(true);
    const json = JSON.parse((await runCli(["all", "8", "--limit", "5", "--json"])).stdout);
    expect(json.count).toBe(5);
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
    const run = await runCli(["solve", "40", "--method", "backtrack"], { killAfterMs: 700 });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });

  const badInput: [string[], RegExp][] = [
    [["count", "0"], /n must be an integer from 1 to 32, got 0/],
    [["count", "-1"], /n must be an integer from 1 to 32, got -1/],
    [["count", "1.5"], /n must be an integer from 1 to 32, got 1\.5/],
    [["count", "NaN"], /n must be an integer from 1 to 32, got NaN/],
    [["count", "Infinity"], /n must be an integer from 1 to 32, got Infinity/],
    [["count", "eight"], /N must be a number, got "eight"/],
    [["count", "33"], /n must be an integer from 1 to 32, got 33/],
    [["count", "8", "--engine", "gpu"], /Allowed choices are wasm, ts/],
    [["all", "8", "--limit", "x"], /--limit must be a number, got "x"/],
    [["solve", "8", "--method", "magic"], /Allowed choices are/],
    [["solve", "8", "--seed", "-3"], /seed must be an integer from 0 to 4294967295, got -3/],
    [["solve", "8", "--max-nodes", "0"], /maxNodes must be an integer >= 1, got 0/],
    [["count"], /missing required argument 'N'/],
    [["solve", "8", "--method", "hybrid", "--stop-vegas", "9"], /stopVegas must be an integer from 0 to 8, got 9/],
    [["solve", "8", "--method", "backtrack", "--max-steps", "5"], /maxSteps does not apply to method "backtrack"/],
    [["frobnicate"], /unknown command 'frobnicate'/],
  ];
  it.each(badInput)("bad input %j exits 2 with a one-line message", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stdout).toBe("");
  });

  it("--help works on every command", async () => {
    for (const args of [["--help"], ["count", "--help"], ["all", "--help"], ["solve", "--help"]]) {
      const run = await runCli(args);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Usage: nqueens/);
    }
  });

  it("Ctrl-C stops a long count with exit code 130", async () => {
    const run = await runCli(["count", "20"], { killAfterMs: 700 });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });
});
