import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

// ESM + CJS + .d.ts for the library, and the CLI; the Wasm bytes are embedded
// (binary loader), so the bundle needs no fs, fetch or import.meta.url.
export default defineConfig([
  {
    entry: { index: "src/index.ts", distributed: "src/distributed/index.ts" },
    format: ["esm", "cjs"],
    splitting: false, // each entry self-contained: dist/index.js stays one file for browsers
    dts: true,
    sourcemap: true,
    clean: true,
    target: "es2022",
    loader: { ".wasm": "binary", ".wgsl": "text" },
  },
  {
    entry: { cli: "src/cli/index.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    platform: "node",
    loader: { ".wasm": "binary", ".wgsl": "text" },
    banner: { js: "#!/usr/bin/env node" },
    define: { __NQ_VERSION__: JSON.stringify(version) }, // nqueens --version
  },
]);
