// The CLI and bundle tests run the built package: say so plainly if it is missing. When the
// run ends, the directory its files shared (NQ_TEST_SHARED, vitest.config.ts) goes.
import { existsSync, rmSync } from "node:fs";

export default function setup(): () => void {
  for (const file of ["dist/index.js", "dist/index.cjs", "dist/cli.js", "build/release.wasm"]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (npm test does it first)`);
  }
  return () => {
    if (process.env.NQ_TEST_SHARED) rmSync(process.env.NQ_TEST_SHARED, { recursive: true, force: true });
  };
}
