import { defineConfig } from "tsup";

// The counting worker as one self-contained script, built before the library so
// scripts/embed-worker.mjs can embed its text in the main bundle. It holds no Wasm bytes:
// the pool hands each thread the module it compiled (src/workers/pool.ts), so the .wasm
// import of the Wasm engine is replaced by nothing here and the bytes ship once per entry.
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
      name: "no-wasm-bytes",
      setup(build) {
        build.onResolve({ filter: /\.wasm$/ }, (args) => ({ path: args.path, namespace: "no-wasm-bytes" }));
        build.onLoad({ filter: /.*/, namespace: "no-wasm-bytes" }, () => ({ contents: "export default undefined;", loader: "js" }));
      },
    },
  ],
});
