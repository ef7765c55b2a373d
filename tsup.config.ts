import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";
// @ts-expect-error: a plain .mjs script without types
import { wgslCompact } from "./scripts/wgsl-compact.mjs";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// Where the bundles go: dist/, or (npm pack's build aside, scripts/pack.mjs) NQ_OUT_DIR.
const outDir = process.env.NQ_OUT_DIR ?? "dist";

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
    entry: { cli: "src/cli/index.ts" },
    format: ["esm"],
    sourcemap: true,
    outDir,
    target: "node20",
    platform: "node",
    loader: { ".wasm": "binary", ".wgsl": "text" },
    // The CLI's own libraries are bundled in, so installing the package pulls none of them;
    // cli-progress is CommonJS and requires Node built-ins, hence a real `require` in the ESM
    // banner. The queue's libraries (bullmq, ioredis) stay external: optional peers, loaded
    // only by `--queue`, `worker` and `runs`.
    noExternal: ["commander", "cli-progress"],
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as __nqCreateRequire } from "node:module";\nconst require = __nqCreateRequire(import.meta.url);' },
    define: { __NQ_VERSION__: JSON.stringify(version) }, // nqueens --version
  },
]);
