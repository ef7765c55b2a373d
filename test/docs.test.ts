// The docs stay true to the code: the generated API reference (docs/api, TypeDoc from the
// TSDoc comments) and the generated numbers of docs/analysis.md are what the current source
// and build produce, and every relative link in the Markdown leads to a file and heading
// that exist.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { verify } from "../src/index.js";
import { A000170, A002562 } from "./fixtures/oeis.js";

const root = resolve(import.meta.dirname, "..");
const node = process.execPath;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to '-'. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    // HTML anchors (TypeDoc puts one on each row of an interface's property table)
    if (!fenced) for (const a of line.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(a[1]!);
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = anchor(m[1]!.replace(/\\/g, ""));
    const k = seen.get(base) ?? 0;
    seen.set(base, k + 1);
    out.add(k === 0 ? base : `${base}-${k}`);
  }
  return out;
}

describe("docs", () => {
  const tmp = mkdtempSync(join(tmpdir(), "nq-docs-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("docs/api is the reference TypeDoc makes from the current source (npm run docs)", () => {
    const out = join(tmp, "api");
    const r = spawnSync(node, [join(root, "node_modules/typedoc/bin/typedoc"), "--out", out], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const fresh = walk(out).map((f) => relative(out, f)).sort();
    const committed = walk(join(root, "docs/api")).map((f) => relative(join(root, "docs/api"), f)).sort();
    expect(committed, "files of docs/api: run npm run docs and commit").toEqual(fresh);
    for (const f of fresh) {
      expect(readFileSync(join(root, "docs/api", f), "utf8"), `docs/api/${f} is out of date: run npm run docs`).toBe(readFileSync(join(out, f), "utf8"));
    }
    expect(fresh).toContain("nqueens-wasm.md");
    expect(readFileSync(join(out, "nqueens-wasm.md"), "utf8")).toMatch(/^### countParallel\(\)$/m);
  }, 300_000); // TypeDoc type-checks the whole project: about 15 s when quiet, 150 s measured at load 11

  it("docs/analysis.md's generated numbers are up to date (npm run docs:costs)", () => {
    const r = spawnSync(node, [join(root, "scripts/readme-costs.mjs"), "--check"], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
  }, 120_000);

  it("the README's example runs as shown (against the built package) and prints what its comments say", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const example = /```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(example).toMatch(/from "nqueens-wasm"/);
    // the TypeScript in it is only non-null assertions: drop them to run it as JavaScript
    const js = example.replace(/!\)/g, ")");
    const r = spawnSync(node, ["--input-type=module", "-e", js], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("min-conflicts true true");
    expect(lines[1]).toBe("10 75");
    const board = lines.slice(2, 10);
    expect(board).toHaveLength(8);
    // the constrained lines: the complete search keeps the given queen, and the count is
    // brute force's (every permutation of 12 columns avoiding (0, 0) and (3, 3), no two on a diagonal)
    expect(lines[10]).toBe(`complete 1 ${bruteForceBlocked(12, [[0, 0], [3, 3]])}n`);
    expect(lines).toHaveLength(11);
    const columns = board.map((row) => row.split(" ").indexOf("Q"));
    expect(verify(Int32Array.from(columns)).ok).toBe(true);
    // and the comment on count(12) is the published count (OEIS A000170, A002562)
    expect(example).toContain(`${A000170[12]}n solutions, ${A002562[12]}n unique`);
  }, 60_000);

  it("every relative link of the Markdown docs leads to a file and heading that exist", () => {
    const files = [
      "README.md", "CONTRIBUTING.md", "bench/README.md",
      ...walk(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => relative(root, f)),
    ];
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      let fenced = false;
      for (const line of readFileSync(join(root, file), "utf8").split("\n")) {
        if (line.startsWith("```")) fenced = !fenced;
        if (fenced) continue;
        for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          const link = m[1]!;
          if (/^[a-z]+:/i.test(link)) continue;
          const [path, hash] = link.split("#") as [string, string | undefined];
          const target = path ? resolve(root, dirname(file), path) : join(root, file);
          checked++;
          if (!existsSync(target)) broken.push(`${file}: ${link} (no such file)`);
          else if (hash && target.endsWith(".md") && !anchors(target).has(hash)) broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });
});

/** Solutions of the n-queens problem using none of the blocked squares, by plain backtracking over rows. */
function bruteForceBlocked(n: number, blocked: [number, number][]): number {
  const cols: number[] = [];
  const ok = (r: number, c: number): boolean =>
    !blocked.some(([br, bc]) => br === r && bc === c) && cols.every((q, i) => q !== c && Math.abs(q - c) !== r - i);
  const place = (r: number): number => {
    if (r === n) return 1;
    let found = 0;
    for (let c = 0; c < n; c++) if (ok(r, c)) { cols.push(c); found += place(r + 1); cols.pop(); }
    return found;
  };
  return place(0);
}
