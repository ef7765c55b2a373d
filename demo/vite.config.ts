// The demo as a user's app would build it: `import ... from "nqueens-wasm"` resolves, through
// the package's own exports map ("." -> import -> default), to the built dist/index.js.
// (Vite does not resolve a package's self-reference, so the alias spells out that lookup.)
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const pkgRoot = resolve(here, "..");
const pkg = JSON.parse(readFileSync(resolve(pkgRoot, "package.json"), "utf8"));
const entry = resolve(pkgRoot, pkg.exports["."].import.default);

export default defineConfig({
  root: here,
  base: "./", // works from any static host and any sub-folder
  resolve: { alias: { "nqueens-wasm": entry } },
  server: { host: "127.0.0.1", fs: { allow: [pkgRoot] } },
  preview: { host: "127.0.0.1" },
  worker: { format: "es" },
  build: {
    outDir: resolve(here, "dist"),
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      input: { main: resolve(here, "index.html"), crosscheck: resolve(here, "crosscheck.html") },
    },
  },
});
