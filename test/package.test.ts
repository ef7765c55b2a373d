// The published package, as `npm pack` makes it: publint and @arethetypeswrong/cli find no
// problem in any resolution mode, the tarball holds what it should, the library's own
// dependencies are exactly what its bundles import, and installing it into an empty project
// pulls in nothing else while the library and the CLI work from there (the Redis queue, whose
// libraries are optional peers, is refused there in one line that says what to install).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, posix, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs build script, no types
import { packedManifest } from "../scripts/pack-manifest.mjs";

const root = resolve(import.meta.dirname, "..");
const node = process.execPath;
const bin = (name: string, script: string) => join(root, "node_modules", name, script);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
  version: string;
  repository?: unknown;
  homepage?: string;
  bugs?: unknown;
  keywords?: string[];
};

let dir: string;
let tarball: string;
let files: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "nq-pack-"));
  // --ignore-scripts: pack the dist/ that `npm test` just built instead of building again.
  const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: root, encoding: "utf8" });
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  tarball = join(dir, info!.filename);
  files = info!.files.map((f) => f.path).sort();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bare module names a bundle imports or requires (not relative paths, not Node built-ins). */
function bareImports(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const names = new Set<string>();
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"']+)["']/g)) {
    const spec = m[1]!;
    if (spec.startsWith(".") || spec.startsWith("node:") || builtinModules.includes(spec.split("/")[0]!)) continue;
    names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
  }
  return [...names].sort();
}

describe("the packed package", () => {
  it("publint finds nothing, not even a suggestion", () => {
    const r = spawnSync(node, [bin("publint", "src/cli.js"), "run", tarball, "--strict", "--level", "suggestion"], { encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain("All good!");
  });

  it("@arethetypeswrong/cli finds no problem for any entry point in any resolution mode", () => {
    const r = spawnSync(node, [bin("@arethetypeswrong/cli", "dist/index.js"), tarball, "--format", "json"], { encoding: "utf8", maxBuffer: 64 << 20 });
    const report = JSON.parse(r.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, unknown> }> }; problems: unknown };
    expect(report.analysis.problems).toEqual([]);
    expect(Object.keys(report.analysis.entrypoints).sort()).toEqual([".", "./distributed", "./package.json"]);
    for (const entry of Object.values(report.analysis.entrypoints)) {
      expect(Object.keys(entry.resolutions).sort()).toEqual(["bundler", "node10", "node16-cjs", "node16-esm"]);
    }
    expect(r.status, r.stderr).toBe(0);
  });

  it("holds the bundles, their types, the node10 stub for nqueens-wasm/distributed, README, LICENSE and the guides; no sources or tests", () => {
    for (const f of ["LICENSE", "README.md", "package.json", "dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts",
      "dist/distributed.js", "dist/distributed.cjs", "dist/distributed.d.ts", "dist/distributed.d.cts", "dist/cli.js", "dist/cli.cjs", "dist/cli-main.cjs",
      "dist/cli-forecast.cjs", "distributed/package.json", "docs/counting.md", "docs/api/nqueens-wasm.md"]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => /^(src|test|assembly|bench|demo|scripts|build|node_modules)\//.test(f) && f !== "bench/README.md")).toEqual([]);
    // Source maps stay home (they were 3.5 of 5.9 MB unpacked, and point at sources not packed), and so do the
    // guides' screenshots (418 kB): the registry's page shows them from the repository (package.json "repository").
    expect(files.filter((f) => f.endsWith(".map") || f.endsWith(".png"))).toEqual([]);
  });

  it("names its repository, homepage, issue tracker and keywords, so the registry's page resolves the README's relative links and images", () => {
    expect(pkg.repository).toMatchObject({ type: "git", url: expect.stringMatching(/^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/) });
    const repo = (pkg.repository as { url: string }).url.replace(/^git\+/, "").replace(/\.git$/, "");
    expect(pkg.homepage).toBe(`${repo}#readme`);
    expect(pkg.bugs).toEqual({ url: `${repo}/issues` });
    expect(pkg.keywords).toEqual(expect.arrayContaining(["n-queens", "webassembly"]));
  });

  it("every relative link of its Markdown (README, CONTRIBUTING, the guides) leads to a file in the tarball", () => {
    const dead: string[] = [];
    for (const f of files.filter((name) => name.endsWith(".md"))) {
      for (const m of readFileSync(join(root, f), "utf8").matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(m[1]!)) continue; // https:, mailto:
        if (m[1]!.endsWith(".png")) continue; // screenshots are not packed: the registry's page takes them from the repository
        const target = posix.normalize(posix.join(posix.dirname(f), m[1]!)).replace(/\/$/, "");
        if (!files.includes(target) && !files.some((p) => p.startsWith(`${target}/`))) dead.push(`${f} -> ${m[1]}`);
      }
    }
    expect(dead).toEqual([]);
    expect(readFileSync(join(root, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the nqueens-wasm authors\n/);
  });

  it("depends on exactly what its bundles import: never the CLI's libraries or the queue's, which are optional peers, nor the GPU engine's (optional peer webgpu)", () => {
    const queue = ["bullmq", "ioredis"];
    const cliChunks = ["dist/cli.js", "dist/cli.cjs", "dist/cli-main.cjs", "dist/cli-forecast.cjs", ...readdirSync(join(root, "dist")).filter((f) => /^chunk-.*\.js$/.test(f)).map((f) => `dist/${f}`)];
    const needed = new Set([...bareImports("dist/index.js"), ...bareImports("dist/index.cjs"), ...cliChunks.flatMap(bareImports)]);
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual([...needed].sort());
    for (const name of [...queue, "commander", "cli-progress"]) expect(needed.has(name), name).toBe(false); // bundled in, or loaded lazily
    for (const f of ["dist/distributed.js", "dist/distributed.cjs"]) {
      expect(bareImports(f).filter((name) => !needed.has(name)).every((name) => queue.includes(name)), f).toBe(true);
    }
    expect(bareImports("dist/distributed.js")).toEqual(expect.arrayContaining(queue));
    expect(needed.has("webgpu")).toBe(false); // imported only at run time by engine 'webgpu' in Node (docs/gpu.md)
    const peers = [...queue, "webgpu"];
    expect(Object.keys(pkg.peerDependencies ?? {}).sort()).toEqual(peers);
    for (const name of peers) {
      expect(pkg.peerDependenciesMeta?.[name]?.optional).toBe(true);
      expect(pkg.peerDependencies![name]).toMatch(/^\^\d/);
      expect(pkg.devDependencies?.[name], `${name} in devDependencies for the tests`).toBe(pkg.peerDependencies![name]);
    }
  });

  it("installs into an empty project alone (no other package), and the library and the CLI run from there", () => {
    const app = join(dir, "app");
    execFileSync("mkdir", ["-p", app]);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true, type: "module" }));
    // --offline: the package needs nothing from the registry.
    // The manifest as npm pack's prepack writes it (scripts/pack.mjs; this tarball was packed with
    // --ignore-scripts): installed with scripts allowed, npm says nothing of install scripts.
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts).toMatchObject({
      prepare: "npm run build", prepack: "node scripts/pack.mjs prepack", postpack: "node scripts/pack.mjs postpack",
    });
    const unpacked = join(dir, "unpacked");
    execFileSync("mkdir", ["-p", unpacked]);
    execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
    const manifest = join(unpacked, "package", "package.json");
    writeFileSync(manifest, packedManifest(readFileSync(manifest, "utf8")));
    const silentTarball = join(dir, "silent.tgz");
    execFileSync("tar", ["-czf", silentTarball, "-C", unpacked, "package"]);
    const install = spawnSync("npm", ["install", silentTarball, "--offline", "--no-audit", "--no-fund"], { cwd: app, encoding: "utf8" });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stdout + install.stderr).not.toMatch(/install-scripts|prepare|npm warn/i);
    const installed = readdirSync(join(app, "node_modules")).filter((f) => !f.startsWith("."));
    expect(installed).toEqual(["nqueens-wasm"]);
    const lock = JSON.parse(readFileSync(join(app, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).sort()).toEqual(["", "node_modules/nqueens-wasm"]);

    const esm = execFileSync(node, ["--input-type=module", "-e",
      'import { count, solve, verify } from "nqueens-wasm"; const c = await count(10); const s = await solve(8); console.log(JSON.stringify({ total: String(c.total), ok: verify(s.columns).ok }));'],
      { cwd: app, encoding: "utf8" });
    expect(JSON.parse(esm)).toEqual({ total: "724", ok: true });
    const cjs = execFileSync(node, ["-e", 'require("nqueens-wasm").count(6).then((c) => console.log(String(c.total)))'], { cwd: app, encoding: "utf8" });
    expect(cjs.trim()).toBe("4");

    const cli = (...args: string[]) => spawnSync(join(app, "node_modules/.bin/nqueens"), args, { cwd: app, encoding: "utf8" });
    const counted = cli("count", "8", "--json");
    expect(counted.status, counted.stderr).toBe(0);
    expect(JSON.parse(counted.stdout)).toMatchObject({ n: 8, total: "92", unique: "12" });
    const version = cli("--version");
    expect(version.stdout.trim()).toBe(pkg.version);

    // Nor the GPU engine's optional peer webgpu: a GPU count says so, in one short line that
    // names the package to install, whatever the machine's drivers (the cause is the package).
    const gpu = cli("count", "10", "--engine", "webgpu");
    expect(gpu.status).toBe(1);
    expect(gpu.stdout).toBe("");
    expect(gpu.stderr).toMatch(/^nqueens: engine 'webgpu' in Node needs the optional package webgpu \(Dawn\), which is not installed: npm install webgpu; or use engine 'wasm'\n$/);

    // The light install has no bullmq or ioredis (optional peers): the queue is refused in one
    // line naming both, coded NQ_MISSING_DEPENDENCY, before any connection (port 1 has no Redis).
    const queued = cli("count", "8", "--queue", "redis://127.0.0.1:1", "--unauthenticated");
    expect(queued.status, queued.stderr).toBe(1);
    expect(queued.stdout).toBe("");
    const lines = queued.stderr.split("\n").filter((l) => l !== "" && !/ExperimentalWarning|--trace-warnings/.test(l));
    expect(lines, queued.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^nqueens: .*\bbullmq\b.*\bioredis\b.*npm install bullmq ioredis/);
    expect(queued.stderr).not.toMatch(/\n\s+at |ECONNREFUSED|ERR_MODULE_NOT_FOUND/);
    const refusal = (code: string, input: string[] = []) => JSON.parse(execFileSync(node, [...input, "-e", code], { cwd: app, encoding: "utf8" })) as Record<string, string>;
    const report = "({ name: e.name, code: e.code, message: e.message })";
    const fromEsm = refusal(`const { countDistributed } = await import("nqueens-wasm/distributed");
      const e = await countDistributed(8, { connection: "redis://127.0.0.1:1", unauthenticated: true }).then(() => ({}), (e) => e);
      console.log(JSON.stringify(${report}));`, ["--input-type=module"]);
    const fromCjs = refusal(`require("nqueens-wasm/distributed").countDistributed(8, { connection: "redis://127.0.0.1:1", unauthenticated: true })
      .then(() => console.log("{}"), (e) => console.log(JSON.stringify(${report})));`);
    for (const e of [fromEsm, fromCjs]) {
      expect(e.code).toBe("NQ_MISSING_DEPENDENCY");
      expect(e.message).not.toContain("\n");
      expect(e.message).toMatch(/\bbullmq\b.*\bioredis\b.*npm install bullmq ioredis/);
    }

    // A TypeScript app of this light install type-checks against both entries, the queue's
    // included, without skipLibCheck: the declarations import nothing from bullmq or ioredis.
    // (skipDefaultLibCheck leaves out only TypeScript's own lib files, a third of the time:
    // the package's declarations and @types/node are still checked.)
    writeFileSync(join(app, "app.ts"), [
      'import { countDistributed, type Connection } from "nqueens-wasm/distributed";',
      'import { count } from "nqueens-wasm";',
      'const connection: Connection = { host: "127.0.0.1", port: 6379, password: "secret", lazyConnect: true };',
      "export const both = async (): Promise<bigint> => (await countDistributed(8, { connection })).total + (await count(8)).total;",
    ].join("\n"));
    const typed = spawnSync(node, [bin("typescript", "bin/tsc"), "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext",
      "--target", "es2022", "--typeRoots", join(root, "node_modules/@types"), "--types", "node", "--skipDefaultLibCheck", "app.ts"], { cwd: app, encoding: "utf8" });
    expect(typed.stdout + typed.stderr, "tsc on an app without ioredis").toBe("");
    expect(typed.status).toBe(0);
  }, 120_000);
});
