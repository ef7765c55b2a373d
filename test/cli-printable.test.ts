// What the CLI prints is printable: text from Redis or a file (a worker's name, a failed job's
// reason, a run's record) may hold escape sequences that retitle the terminal, move the cursor
// or fake a line; the CLI writes them as \x1b, \u202e.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inline, printable, toJson, writeWhole } from "../src/cli/output.js";

describe("the CLI's output is printable", () => {
  it("escapes control characters, DEL, C1 and the bidirectional overrides; keeps newlines, tabs and all other text", () => {
    expect(printable("worker evil\x1b]0;PWNED\x07 done")).toBe("worker evil\\x1b]0;PWNED\\x07 done");
    expect(printable("a\rb\x00c\x7fd\x9be")).toBe("a\\x0db\\x00c\\x7fd\\x9be");
    expect(printable("name\u202eexe.txt \u2066x\u2069")).toBe("name\\u202eexe.txt \\u2066x\\u2069");
    const plain = "n = 8: 92 solutions, 12 unique\n\tQ . # q | ETA 3m 05s — é ü 漢字 🙂";
    expect(printable(plain)).toBe(plain);
  });

  it("text from Redis inside a line (inline) cannot start a line of its own: newlines and line separators written as \\n and \\u2028, returns as \\x0d", () => {
    const name = "W\x1b]0;PWNED\x07\nnqueens: FAKE total 1\r\u2028x";
    expect(inline(name)).toBe("W\\x1b]0;PWNED\\x07\\nnqueens: FAKE total 1\\x0d\\u2028x");
    expect(inline(name)).not.toMatch(/[\n\r\u2028]/);
  });

  it("--json stays JSON: DEL, C1 and the bidirectional marks come out as \\u escapes (the same strings to a reader), so the printable filter has nothing to change", () => {
    const value = { queue: "q\x7fdel\x9bC1\nnqueens FAKE", suspects: ["a\u202eb", "\u2066c\u2069"], total: 14200n };
    const line = toJson(value);
    expect(printable(line)).toBe(line);
    expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(line)).toEqual({ ...value, total: "14200" });
  });

  it("every write of the CLI goes through out() or err() (src/cli/output.ts), but all's lists of numbers", () => {
    const dir = join(import.meta.dirname, "../src/cli");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && f !== "output.ts");
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(join(dir, file), "utf8");
      const writes = [...text.matchAll(/(?:process\.(stdout|stderr)|(stdout)\(\))\.write\(([^\n]*)/g)].map(([, raw, streamed, rest]) => [raw ?? streamed, rest] as const);
      for (const [stream, rest] of writes) {
        // all --json / --jsonl: digits, commas and brackets only, written raw for speed
        expect(file === "commands/all.ts" && stream === "stdout" && /columns\.join\(","\)|\{"n":\$\{n\}/.test(rest!), `${file}: process.${stream}.write(${rest}`).toBe(true);
      }
    }
  });
});

describe("stdout written straight to its descriptor (writeWhole)", () => {
  const bytes = Buffer.from("0 4 7 5 2 6 1 3\n");
  it("writes every byte though each write takes only part of them", () => {
    const written: Buffer[] = [];
    expect(writeWhole(bytes, (b) => { written.push(Buffer.from(b.subarray(0, 3))); return Math.min(3, b.length); })).toBeUndefined();
    expect(Buffer.concat(written).toString()).toBe(bytes.toString());
  });
  it("where the descriptor would block, returns exactly what was not written, for the stream to take", () => {
    let calls = 0;
    const rest = writeWhole(bytes, () => {
      if (calls++ === 0) return 5;
      throw Object.assign(new Error("would block"), { code: "EAGAIN" });
    });
    expect(rest?.toString()).toBe(bytes.subarray(5).toString());
  });
  it("any other failure goes to stdout's handler (EPIPE: the reader has gone; ENOSPC: a message)", () => {
    const failures: string[] = [];
    const rest = writeWhole(bytes, () => { throw Object.assign(new Error("no space"), { code: "ENOSPC" }); }, (e) => failures.push(e.code!));
    expect(rest).toBeUndefined();
    expect(failures).toEqual(["ENOSPC"]);
  });
});
