// What the CLI prints is printable: text from Redis or a file (a worker's name, a failed job's
// reason, a run's record) may hold escape sequences that retitle the terminal, move the cursor
// or fake a line; the CLI writes them as \x1b, \u202e.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { printable } from "../src/cli/output.js";

describe("the CLI's output is printable", () => {
  it("escapes control characters, DEL, C1 and the bidirectional overrides; keeps newlines, tabs and all other text", () => {
    expect(printable("worker evil\x1b]0;PWNED\x07 done")).toBe("worker evil\\x1b]0;PWNED\\x07 done");
    expect(printable("a\rb\x00c\x7fd\x9be")).toBe("a\\x0db\\x00c\\x7fd\\x9be");
    expect(printable("name\u202eexe.txt \u2066x\u2069")).toBe("name\\u202eexe.txt \\u2066x\\u2069");
    const plain = "n = 8: 92 solutions, 12 unique\n\tQ . # q | ETA 3m 05s — é ü 漢字 🙂";
    expect(printable(plain)).toBe(plain);
  });

  it("every write of the CLI goes through out() or err() (src/cli/output.ts), but all's lists of numbers", () => {
    const dir = join(import.meta.dirname, "../src/cli");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts") && f !== "output.ts");
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(join(dir, file), "utf8");
      const writes = [...text.matchAll(/process\.(stdout|stderr)\.write\(([^\n]*)/g)];
      for (const [, stream, rest] of writes) {
        // all --json / --jsonl: digits, commas and brackets only, written raw for speed
        expect(file === "commands/all.ts" && stream === "stdout" && /columns\.join\(","\)|\{"n":\$\{n\}/.test(rest!), `${file}: process.${stream}.write(${rest}`).toBe(true);
      }
    }
  });
});
