// The whole project typechecks (src, test, bench): the public types are part of the API, and
// type-level tests (as in test/solve.test.ts, "found narrows the result") only fail here.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { expect, it } from "vitest";

it("tsc -p . --noEmit finds no error", () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", ".", "--noEmit"], { encoding: "utf8" });
  expect(r.stdout + r.stderr).toBe("");
  expect(r.status).toBe(0);
}, 180_000);
