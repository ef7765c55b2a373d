import { defineConfig } from "tsup";

// The counting worker as one self-contained script (Wasm bytes included), built before
// the library so scripts/embed-worker.mjs can embed its text in the main bundle.
export default defineConfig({
  entry: { worker: "src/workers/worker.ts" },
  outDir: "build",
  format: ["iife"],
  platform: "neutral",
  target: "es2022",
  minify: true,
  loader: { ".wasm": "binary", ".wgsl": "text" },
  external: ["node:worker_threads"],
});
