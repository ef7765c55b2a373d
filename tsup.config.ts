import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { defineConfig } from "tsup";
// @ts-expect-error: a plain .mjs script without types
import { wgslCompact } from "./scripts/wgsl-compact.mjs";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// Where the bundles go: dist/, or (npm pack's build aside, scripts/pack.mjs) NQ_OUT_DIR.
const outDir = process.env.NQ_OUT_DIR ?? "dist";

// commander requires node:child_process when it loads, for a command run as an executable of
// its own (this CLI has none), which is 3 ms of a short command's start-up: the CLI's bundle
// requires it at its first use instead.
const commanderLazyChildProcess = {
  name: "commander-lazy-child-process",
  setup(build: { onLoad: (options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: "js" }>) => void }) {
    build.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!text.includes(eager)) throw new Error(`${path}: no "${eager}" to make lazy (a new commander?)`);
      const lazy = "let childProcessModule; const childProcess = { spawn: (...args) => (childProcessModule ??= require('node:child_process')).spawn(...args) };";
      return { contents: text.replace(eager, lazy), loader: "js" };
    });
  },
};

// The CLI's program runs as a script compiled by vm.Script (src/cli/launch.ts), where import()
// would need vm's experimental loader option (a warning on stderr, and lost with a code
// cache): its import() calls (the queue's optional packages, Node built-ins and webgpu through
// core/platform.ts) call the launcher's import() instead, handed in as __nqImport.
const launcherImport = {
  name: "launcher-import",
  setup(build: { onLoad: (options: { filter: RegExp }, load: (args: { path: string }) => Promise<{ contents: string; loader: "ts" }>) => void }) {
    build.onLoad({ filter: /src[\\/](core[\\/]platform|distributed[\\/]deps)\.ts$/ }, async ({ path }) => {
      const text = await readFile(path, "utf8");
      const calls = /(?<!typeof )\bimport\(/g; // not a type's typeof import("...")
      if (!calls.test(text)) throw new Error(`${path}: no import() to hand to the launcher`);
      return { contents: text.replace(calls, "__nqImport("), loader: "ts" };
    });
  },
};

// The CLI program's wrapper (see its build below): its parameters are what the launcher hands in.
const PROGRAM_WRAPPER_START = "(function (exports, require, module, __filename, __dirname, __nqImport) {";
const PROGRAM_WRAPPER_END = "})";

// ESM + CJS + .d.ts for the library, and the CLI; the Wasm bytes are embedded
// (binary loader), so the bundle needs no fs, fetch or import.meta.url. The library's
// entries are minified (test/bundle-size.test.ts holds each under its budget; the source
// maps, for development, are not packed) and embed the WGSL kernels compacted
// (scripts/wgsl-compact.mjs).
export default defineConfig([
  {
    entry: { index: "src/index.ts", distributed: "src/distributed/index.ts" },
    format: ["esm", "cjs"],
    splitting: false, // each entry self-contained: dist/index.js stays one file for browsers
    dts: true,
    sourcemap: true, // for development and the tests; not packed (package.json "files")
    clean: true,
    outDir,
    target: "es2022",
    minify: true,
    loader: { ".wasm": "binary" },
    esbuildPlugins: [wgslCompact],
    // The AssemblyScript loader (no dependencies, 5 KB) is bundled: dist/index.js stays one file.
    noExternal: ["@assemblyscript/loader"],
  },
  {
    // The program of the CLI, as one CommonJS script (each command's module initialised only
    // when it runs), which dist/cli.js compiles through a V8 code cache (src/cli/launch.ts).
    entry: { "cli-main": "src/cli/index.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    sourcemap: true,
    outDir,
    target: "node20",
    platform: "node",
    loader: { ".wasm": "binary", ".wgsl": "text" },
    // The CLI's own libraries are bundled in, so installing the package pulls none of them.
    // The queue's libraries (bullmq, ioredis) stay external: optional peers, loaded only by
    // `--queue`, `worker` and `runs`, with import().
    noExternal: ["commander", "cli-progress"],
    esbuildPlugins: [commanderLazyChildProcess, launcherImport],
    // Minified (and ASCII only, esbuild's default: the launcher reads it as latin1): half the
    // bytes to read, and to parse where there is no code cache yet.
    minify: true,
    // The file is one function expression, the CommonJS wrapper with the launcher's
    // __nqImport (src/cli/launch.ts): the launcher compiles the file's own text, where wrapping
    // it at run time made V8 copy half a megabyte into a new string first (about 4 ms).
    banner: { js: PROGRAM_WRAPPER_START },
    footer: { js: PROGRAM_WRAPPER_END },
    define: { __NQ_VERSION__: JSON.stringify(version) }, // nqueens --version
  },
  {
    // The forecast of a constrained solve's proof, on a worker thread of the CLI's own
    // (src/cli/forecast-thread.ts, started by src/cli/forecast.ts from the CLI's directory).
    entry: { "cli-forecast": "src/cli/forecast-thread.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    outDir,
    target: "node20",
    platform: "node",
    minify: true,
  },
  {
    // The `nqueens` command (package.json "bin"): CommonJS, so a fresh process starts without
    // Node's ES module loader (src/cli/launch.ts).
    entry: { cli: "src/cli/launch.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    outDir,
    target: "node20",
    platform: "node",
    banner: { js: "#!/usr/bin/env node" },
    define: { __NQ_VERSION__: JSON.stringify(version) }, // the code cache's name
  },
  {
    // `node dist/cli.js`: requires dist/cli.cjs (src/cli/launch-esm.ts).
    entry: { cli: "src/cli/launch-esm.ts" },
    format: ["esm"],
    outDir,
    target: "node20",
    platform: "node",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
