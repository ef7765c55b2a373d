// The CLI and bundle tests run the built package: say so plainly if it is missing.
import { existsSync } from "node:fs";

export default function setup(): void {
  for (const file of ["dist/index.js", "dist/index.cjs", "dist/cli.js", "build/release.wasm"]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (npm test does it first)`);
  }
}
