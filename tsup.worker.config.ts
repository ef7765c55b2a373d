import { dirname, join } from "node:path";
import { defineConfig } from "tsup";

// The counting worker as one self-contained script, built before the library so
// scripts/embed-worker.mjs can embed its text in the main bundle. It holds no Wasm bytes:
// the pool hands each thread the module it compiled (src/workers/pool.ts), so the .wasm
// import of the Wasm engine is replaced by nothing here and the bytes ship once per entry.
// Nor does it hold the reference engine's kernels that no thread runs: src/engine/thread-ts.ts
// (counters, complete search, verify) takes the place of src/engine/ts/index.ts.
export default defineConfig({
  entry: { worker: "src/workers/worker.ts" },
  outDir: "build",
  format: ["iife"],
  platform: "neutral",
  target: "es2022",
  minify: true,
  loader: { ".wgsl": "text" },
  external: ["node:worker_threads"],
  esbuildPlugins: [
    {
      name: "thread-reference-engine",
      setup(build) {
        build.onResolve({ filter: /^\.\/ts\/index\.js$/ }, (args) =>
          args.importer.endsWith("/src/engine/select.ts") ? { path: join(dirname(args.importer), "thread-ts.ts") } : undefined);
      },
    },
    {
      name: "no-wasm-bytes",
      setup(build) {
        build.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: args.path, namespace: "no-wasm-bytes" }));
        build.onLoad({ filter: /.*/, namespace: "no-wasm-bytes" }, () => ({ contents: "export default undefined;", loader: "js" }));
      },
    },
  ],
});
