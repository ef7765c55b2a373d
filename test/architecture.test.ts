// The architecture as CONTRIBUTING.md writes it down: no import cycle among the files of src/
// and assembly/ or among the folders of src/; each folder of src/ imports only the folders its
// row of the layer table names; the design map names every folder and file of src/ and
// assembly/, and nothing else there; and no file of assembly/, src/, demo/ or bench/ is over
// 450 lines, but the exceptions listed below.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const text = (file: string): string => readFileSync(join(root, file), "utf8");

/** Every file and folder under `dir` (paths relative to the root, posix), folders ending in '/'. */
function tree(dir: string, skip: (path: string) => boolean = () => false): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (skip(path)) return [];
    return statSync(join(root, path)).isDirectory() ? [`${path}/`, ...tree(path, skip)] : [path];
  });
}

const sources = ["src", "assembly"].flatMap((d) => tree(d)).filter((f) => /\.(ts|mts|js|mjs)$/.test(f) && !f.endsWith(".d.ts"));
const sourceSet = new Set(sources);

/**
 * The files of src/ and assembly/ a file imports: static imports, `export ... from`, `import type`,
 * and `import("...")` with a literal, as ../shared/tools/import-cycles.mjs reads them.
 */
function importsOf(file: string): string[] {
  const code = text(file).replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const out = new Set<string>();
  for (const m of code.matchAll(/(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = m[1] ?? m[2]!;
    if (!spec.startsWith(".")) continue;
    const base = posix.normalize(posix.join(posix.dirname(file), spec));
    const target = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, `${base}/index.ts`].find((c) => sourceSet.has(c));
    if (target && target !== file) out.add(target);
  }
  return [...out];
}

const edges = new Map(sources.map((f) => [f, importsOf(f)]));

/** The strongly connected components of more than one node (Tarjan): the import cycles. */
function cycles(nodes: readonly string[], next: (v: string) => readonly string[]): string[][] {
  let i = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], on = new Set<string>(), found: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, i); low.set(v, i); i++; stack.push(v); on.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) { strong(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); c.push(w); } while (w !== v);
      if (c.length > 1) found.push(c);
    }
  };
  for (const v of nodes) if (!index.has(v)) strong(v);
  return found;
}

/** The folder of src/ a file is in (src/cli/commands/x.ts: cli), "index.ts" for src/index.ts, null for other files. */
function layerOf(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] !== "src") return null;
  if (parts.length > 2) return parts[1]!;
  return parts[1] === "index.ts" ? "index.ts" : null;
}

/** A section of CONTRIBUTING.md, from its heading to the next. */
function section(heading: string): string {
  const doc = text("CONTRIBUTING.md");
  const start = doc.indexOf(`\n## ${heading}\n`);
  expect(start, `CONTRIBUTING.md has a section "## ${heading}"`).toBeGreaterThan(-1);
  const end = doc.indexOf("\n## ", start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

/** CONTRIBUTING.md's layer table: each folder of src/ and the folders it may import. */
function layerTable(): Map<string, Set<string>> {
  const rows = new Map<string, Set<string>>();
  for (const line of section("Layers").split("\n")) {
    const m = /^\|\s*([a-z][\w-]*)\s*\|\s*([^|]*?)\s*\|$/.exec(line);
    if (!m || m[1] === "Folder") continue;
    rows.set(m[1]!, new Set(m[2] === "-" ? [] : m[2]!.split(",").map((s) => s.trim())));
  }
  return rows;
}

/** CONTRIBUTING.md's design map: the folders (ending in '/') and files it names, each with its description. */
function designMap(): { path: string; description: string }[] {
  const block = /```\n([\s\S]*?)```/.exec(section("Design map"));
  expect(block, "the design map is a fenced block").not.toBeNull();
  const entries: { path: string; description: string }[] = [];
  let folder = "";
  for (const line of block![1]!.split("\n")) {
    const dir = /^(\S+\/)\s+(\S.*)$/.exec(line);
    const file = /^ {2}(\S+)\s+(\S.*)$/.exec(line);
    if (dir) {
      folder = dir[1]!;
      entries.push({ path: folder, description: dir[2]! });
    } else if (file) {
      expect(file[1], `a file line of the map, under ${folder}`).not.toContain("/");
      entries.push({ path: folder + file[1], description: file[2]! });
    } else {
      expect(line === "" || /^ {3,}\S/.test(line), `a line of the design map is a folder, a file or a continuation: ${JSON.stringify(line)}`).toBe(true);
    }
  }
  return entries;
}

/** Files allowed over the line limit, each with the reason it is not split today. */
const LONG_FILES: Record<string, string> = {};
const MAX_LINES = 450;

describe("the architecture CONTRIBUTING.md writes down", () => {
  it("reads the imports it checks (a known import of each kind is found)", () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(edges.get("src/count/count.ts")).toContain("src/engine/select.ts"); // import
    expect(edges.get("src/count/count.ts")).toContain("src/engine/count-types.ts"); // import type, export type ... from
    expect(edges.get("src/index.ts")).toContain("src/workers/parallel.ts"); // export { ... } from
    expect(edges.get("assembly/index.ts")!.length).toBeGreaterThan(10); // the kernels' own imports
    // and the cycle finder finds a planted cycle
    const planted = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]]);
    expect(cycles([...planted.keys()], (v) => planted.get(v) ?? [])).toEqual([["c", "b", "a"]]);
  });

  it("no file of src/ or assembly/ imports itself round a cycle, and no folder of src/ does", () => {
    expect(cycles(sources, (v) => edges.get(v)!).map((c) => c.join(" <-> "))).toEqual([]);
    const folderEdges = new Map<string, Set<string>>();
    for (const [file, targets] of edges) {
      const from = layerOf(file);
      if (from === null || from === "index.ts") continue;
      for (const target of targets) {
        const to = layerOf(target);
        if (to !== null && to !== "index.ts" && to !== from) folderEdges.set(from, (folderEdges.get(from) ?? new Set()).add(to));
      }
    }
    expect(cycles([...folderEdges.keys()], (v) => [...(folderEdges.get(v) ?? [])]).map((c) => c.join(" <-> "))).toEqual([]);
  });

  it("the shared cycle tool, where this checkout has it, finds no cycle either", () => {
    const tool = resolve(root, "..", "shared", "tools", "import-cycles.mjs");
    // (A fresh clone has no ../shared: the test above is the same check, made here.)
    if (!existsSync(tool)) return;
    const run = spawnSync(process.execPath, [tool, root], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("file cycles 0, folder cycles 0");
    expect(lines.slice(0, -1)).toEqual([]);
  });

  it("each folder of src/ imports only the folders its row of the layer table names, and only cli/ imports src/index.ts", () => {
    const table = layerTable();
    const folders = readdirSync(join(root, "src")).filter((name) => statSync(join(root, "src", name)).isDirectory());
    expect(folders.length).toBeGreaterThan(5);
    // every folder has its row, every row its folder, every name in a row is a folder (or index.ts)
    expect([...table.keys()].sort()).toEqual([...folders].sort());
    for (const [folder, allowed] of table) {
      for (const name of allowed) expect(name === "index.ts" || folders.includes(name), `${folder}'s row names ${name}`).toBe(true);
    }
    const wrong: string[] = [];
    for (const [file, targets] of edges) {
      const from = layerOf(file);
      if (from === null || from === "index.ts") continue;
      for (const target of targets) {
        const to = layerOf(target);
        if (to === null || to === from) continue;
        if (!table.get(from)!.has(to)) wrong.push(`${file} -> ${target} (${from} may import: ${[...table.get(from)!].join(", ") || "nothing"})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("the design map names every folder and file of src/ and assembly/, each once with a description, and nothing that is not there", () => {
    const map = designMap();
    const named = map.map((e) => e.path);
    expect(named.filter((p, i) => named.indexOf(p) !== i), "named twice").toEqual([]);
    for (const e of map) expect(e.description.length, e.path).toBeGreaterThan(2);
    const actual = ["src/", "assembly/", ...tree("src"), ...tree("assembly")];
    const mapped = named.filter((p) => p.startsWith("src/") || p.startsWith("assembly/"));
    expect(actual.filter((p) => !mapped.includes(p)), "missing from the map").toEqual([]);
    expect(mapped.filter((p) => !actual.includes(p)), "in the map, not in the tree").toEqual([]);
    // the other folders it names are there too
    for (const p of named.filter((p) => !mapped.includes(p))) expect(existsSync(join(root, p)), p).toBe(true);
  });

  it(`no file of assembly/, src/, demo/ or bench/ is over ${MAX_LINES} lines, but the listed exceptions`, () => {
    // bench/results/ holds the bench's JSON records: data, not rooms of code.
    const files = ["assembly", "src", "demo", "bench"]
      .flatMap((d) => tree(d, (p) => p === "bench/results" || /\/(node_modules|dist)$/.test(p)))
      .filter((p) => !p.endsWith("/"));
    expect(files.length).toBeGreaterThan(150);
    const lines = (f: string): number => text(f).split("\n").length - (text(f).endsWith("\n") ? 1 : 0);
    const long = files.filter((f) => lines(f) > MAX_LINES && !(f in LONG_FILES)).map((f) => `${f}: ${lines(f)} lines`);
    expect(long).toEqual([]);
    // an exception that is no longer needed (or no longer there) is taken off the list
    for (const f of Object.keys(LONG_FILES)) expect(existsSync(join(root, f)) && lines(f) > MAX_LINES, `${f} is still an exception`).toBe(true);
  });

  it("only core/platform.ts asks what the platform is or reaches a module by a dynamic import", () => {
    // The three ways a file once reached Node: process.getBuiltinModule, import() of a variable, isNode checks of its own.
    const platformish = /\?\.getBuiltinModule|\bimport\(\s*\/\*|process\.versions|typeof process !== "undefined" && process\.versions/;
    const offenders = sources.filter((f) => f.startsWith("src/") && f !== "src/core/platform.ts" && platformish.test(text(f)));
    expect(offenders).toEqual([]);
    expect(platformish.test(text("src/core/platform.ts"))).toBe(true); // (the pattern finds what it looks for)
  });

  it("only count/split.ts tells the two kinds of part apart: the pool, the thread, the checkpoint and the queue do not", () => {
    const kindTest = /kind\s*===\s*"constrained"|"kind" in part|Constrained(Part|PartCount)\b.*\|/;
    const consumers = ["src/workers/pool.ts", "src/workers/worker.ts", "src/workers/parallel.ts", "src/count/checkpoint.ts", "src/distributed/coordinator.ts", "src/distributed/run-state.ts", "src/distributed/queue-worker.ts"];
    expect(consumers.filter((f) => kindTest.test(text(f)))).toEqual([]);
    expect(kindTest.test(text("src/count/split.ts"))).toBe(true);
  });
});
