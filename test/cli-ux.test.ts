// A new user's first hour with the `nqueens` command: files read with a size cap, secrets
// never echoed, and the terminal's wording. Each case is one short run of the built CLI.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./cli-run.js";
import { redact } from "../src/distributed/redact.js";

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
    expect(refusedInOneLine(nested)).toMatch(/deep\.json \(JSON\): n must be an integer from 1 to 100000, got an array/);
  });

  it("a checkpoint at /dev/full (endless zeros) is refused in one line naming it, exit 2", async () => {
    const run = await runCli(["count", "10", "--workers", "1", "--checkpoint", "/dev/full"], { killAfterMs: 20_000 });
    expect(refusedInOneLine(run)).toMatch(/^nqueens: checkpoint \/dev\/full is over 64 MiB .*endless/);
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
    const runs = await Promise.all(urls.map((url) => runCli(["count", "8", "--queue", url], { killAfterMs: 20_000 })));
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
