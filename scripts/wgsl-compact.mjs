// The WGSL kernels (gpu/*.wgsl) as the library bundles embed them (tsup.config.ts): without
// their comments and indentation, about 13 KB less per entry (WGSL has no strings, so `//`
// always starts a comment). Kept: every line of code, and every `// @` marker line, which
// src/engine/webgpu/dispatch.ts (`// @stack NAME` ... `// @end`) and gpu/model/simt.ts
// (`// @cost NAME`) read. The tests import the files whole (vitest.config.ts);
// test/bundle-size.test.ts counts on the GPU with the bundle's text.
import { readFileSync } from "node:fs";

/** `text` less its comments (bar whole-line `// @` markers), indentation and blank lines. */
export function compactWgsl(text) {
  return text
    .split("\n")
    .map((line) => line.trim())
    .map((line) => (line.startsWith("// @") ? line : line.replace(/\s*\/\/.*$/, "")))
    .filter((line) => line !== "")
    .join("\n") + "\n";
}

/** An esbuild plugin: imports of *.wgsl give the compacted text. */
export const wgslCompact = {
  name: "wgsl-compact",
  setup(build) {
    build.onLoad({ filter: /\.wgsl$/ }, (args) => ({ contents: compactWgsl(readFileSync(args.path, "utf8")), loader: "text" }));
  },
};
