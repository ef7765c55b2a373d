// The shell scripts that run where the suite cannot run them (the GPU device check runs only on
// a device machine, in a session's few minutes of device time) parse: bash -n on each, and
// `node --check` on each JavaScript block they hand to `node -e '...'` (an apostrophe in such a
// block ends bash's quoting: the device check once failed that way, unseen here).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const scripts = [...readdirSync(join(root, "scripts")).filter((f) => f.endsWith(".sh")).map((f) => join("scripts", f)), ".ci/run"];

describe("shell scripts parse", () => {
  it.each(scripts)("%s: bash -n, and node --check on its node -e blocks", (script) => {
    const path = join(root, script);
    execFileSync("bash", ["-n", path], { stdio: "pipe" }); // throws, with bash's message, on a syntax error
    const text = readFileSync(path, "utf8");
    const blocks = [...text.matchAll(/ -e '\n([\s\S]*?)\n'/g)].map((m) => m[1]);
    for (const block of blocks) expect(block, `${script}: a node -e block holds an apostrophe, which ends its quoting`).not.toMatch(/'/);
    const dir = mkdtempSync(join(tmpdir(), "nq-script-"));
    try {
      blocks.forEach((block, i) => {
        const file = join(dir, `block-${i}.mjs`);
        writeFileSync(file, block);
        execFileSync(process.execPath, ["--check", file], { stdio: "pipe" });
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (script.endsWith("gpu-device-check.sh")) expect(blocks.length).toBeGreaterThan(5);
  });
});
