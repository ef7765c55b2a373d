// Names a reader can tell apart: a type exported from src/ is declared in one module only,
// so an import of (say) StopReason can mean one thing. (The pacer's internal stop was once a
// second StopReason beside solve's public one; it is PacerStop now.)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

test("exported type names are unique across src (one StopReason)", () => {
  const declared = new Map<string, string[]>();
  for (const file of sources("src")) {
    for (const match of readFileSync(file, "utf8").matchAll(/^export (?:declare )?(?:type|interface) ([A-Za-z_0-9]+)/gm)) {
      declared.set(match[1], [...(declared.get(match[1]) ?? []), file]);
    }
  }
  expect(declared.size).toBeGreaterThan(50); // the scan sees the package's types
  const twice = [...declared].filter(([, files]) => files.length > 1);
  expect(twice).toEqual([]);
  expect(declared.get("StopReason")).toEqual([join("src", "search", "solve.ts")]);
});
