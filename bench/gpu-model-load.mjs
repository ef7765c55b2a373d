// Loads bench/gpu-model-bench.ts (TypeScript importing src/ and gpu/constellations.wgsl) for bench/run.mjs and
// scripts/gpu-device-check.sh: bundled once with esbuild (tsup's own dependency) into
// node_modules/.cache/, then imported.
import { mkdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export async function loadGpuModel() {
  const { build } = await import("esbuild");
  const root = fileURLToPath(new URL("..", import.meta.url));
  const outfile = `${root}node_modules/.cache/nqueens-gpu-model.mjs`;
  mkdirSync(`${root}node_modules/.cache`, { recursive: true });
  await build({
    entryPoints: [`${root}bench/gpu-model-bench.ts`], bundle: true, platform: "node", target: "node20", format: "esm",
    loader: { ".wasm": "binary", ".wgsl": "text" }, outfile, logLevel: "warning",
  });
  return import(`${pathToFileURL(outfile).href}?${Date.now()}`);
}
