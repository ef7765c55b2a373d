// crossCheck checks every board an engine returns with its own independent checker; at 10^7
// queens that check takes about a second, so it runs in slices that let an abort through.
// Here solve is wrapped so that the abort comes the moment the engine has answered: only a
// checker that looks at the signal between its slices can stop there.
import { describe, expect, it, vi } from "vitest";

const hooks: { afterSolve?: () => void } = {};

vi.mock("../src/search/solve.js", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../src/search/solve.js")>();
  return {
    ...actual,
    solve: async (...args: Parameters<typeof actual.solve>) => {
      const result = await actual.solve(...args);
      hooks.afterSolve?.();
      return result;
    },
  };
});

const { defaultRunner } = await import("../src/analysis/crosscheck.js");

describe("crossCheck's own check of a board", () => {
  it("an abort that comes while it checks a board of 10^7 queens stops the check (AbortError), rather than waiting for its end", async () => {
    const controller = new AbortController();
    hooks.afterSolve = () => controller.abort();
    const outcome = await defaultRunner("solve:construct", { n: 10_000_000, options: { method: "construct" } }, "wasm", 60_000, controller.signal)
      .then(() => "checked to the end", (e: unknown) => (e as Error).name);
    expect(outcome).toBe("AbortError");
  });

  it("without an abort the same board is checked and returned", async () => {
    hooks.afterSolve = undefined;
    const result = await defaultRunner("solve:construct", { n: 10_000_000, options: { method: "construct" } }, "wasm", 60_000, new AbortController().signal) as { found: boolean; columns: Int32Array };
    expect(result.found).toBe(true);
    expect(result.columns.length).toBe(10_000_000);
  });
});
