// The docs say what is true: queue names as the package makes them, plurals as the CLI prints
// them, and no tracker numbers anywhere a reader of the package meets (a reader has no tracker:
// the code and the docs name the concept instead).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queueName } from "../src/distributed/index.js";

const root = join(import.meta.dirname, "..");
const text = (file: string): string => readFileSync(join(root, file), "utf8");

/** Every file under `dir` (relative to the root), but generated and installed ones. */
function walk(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (["node_modules", "dist", "build", "results", "api"].includes(name)) return [];
    return statSync(join(root, path)).isDirectory() ? walk(path) : /\.(ts|mjs|js|md|sh|html|css)$/.test(name) ? [path] : [];
  });
}

describe("the docs say what is true", () => {
  it("no tracker numbers in the code, the tests, the docs, the benchmarks, the scripts or the demo", () => {
    const tracker = new RegExp(["\\bissues?", "#?\\d+"].join(" "), "i");
    const files = [...["src", "test", "docs", "bench", "scripts", "demo", "assembly"].flatMap(walk), "README.md", "CONTRIBUTING.md"];
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) => text(f).split("\n").map((line, i) => tracker.test(line) ? `${f}:${i + 1}: ${line.trim()}` : "").filter(Boolean));
    expect(hits).toEqual([]);
  });

  it("the README says how to start the demo, and every `npm run` it names is a script of package.json", () => {
    const readme = text("README.md");
    expect(readme).toMatch(/^npm run demo\b/m);
    const scripts = Object.keys((JSON.parse(text("package.json")) as { scripts: Record<string, string> }).scripts);
    const named = [...readme.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    for (const name of named) expect(scripts, `npm run ${name}`).toContain(name);
  });

  it("docs/distributed.md names queues as queueName makes them", () => {
    const names = [...text("docs/distributed.md").matchAll(/nqueens-count-n(\d+)-p(\d+)-v\d+/g)];
    expect(names.length).toBeGreaterThan(2);
    for (const [name, n, parts] of names) expect(name).toBe(queueName(Number(n), Number(parts)));
  });

  it("the CLI's words in the docs agree in number: '1 try', never '1 tries'", () => {
    const wrong = /\b1 (tries|solutions|queens placed|nodes|steps|parts|workers|conflicts)\b/;
    for (const f of ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)]) {
      expect(text(f).split("\n").filter((l) => wrong.test(l)), f).toEqual([]);
    }
  });
});
