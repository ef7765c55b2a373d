// Property tests (fast-check) over random n, seeds and methods: every solution found
// verifies (by the independent checker), and the two engines always agree.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { solve, verify, type SolveResult } from "../src/index.js";
import { isSolutionLarge } from "./helpers.js";

const same = (r: SolveResult) => ({ ...r, engine: "", ms: 0, columns: r.columns && Array.from(r.columns) });

describe("properties", () => {
  it("for any n, seed and randomized method: a found solution is valid and both engines agree", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("las-vegas", "hybrid", "hill-climb", "min-conflicts", "auto" as const),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 0xffffffff }),
        async (method, n, seed) => {
          const options = { method, seed, maxTries: 10_000, timeoutMs: 5_000 } as const;
          const [wasm, ts] = await Promise.all([
            solve(n, { ...options, engine: "wasm" }),
            solve(n, { ...options, engine: "ts" }),
          ]);
          expect(same(wasm)).toEqual(same(ts));
          if (n === 2 || n === 3) expect(wasm).toMatchObject({ found: false, reason: "no-solution" });
          else if (wasm.found) expect(isSolutionLarge(wasm.columns!)).toBe(true);
        },
      ),
      { numRuns: 150, seed: 20261129 },
    );
  });

  it("hybrid for any stopVegas in 0..n agrees between engines and finds valid solutions", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 4, max: 24 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))),
        fc.integer({ min: 0, max: 0xffffffff }),
        async ([n, stopVegas], seed) => {
          const options = { method: "hybrid", stopVegas, seed, timeoutMs: 5_000 } as const;
          const [wasm, ts] = await Promise.all([solve(n, { ...options, engine: "wasm" }), solve(n, { ...options, engine: "ts" })]);
          expect(same(wasm)).toEqual(same(ts));
          expect(wasm.found).toBe(true);
          expect(isSolutionLarge(wasm.columns!)).toBe(true);
        },
      ),
      { numRuns: 100, seed: 7 },
    );
  });

  it("verify agrees with the independent checker on arbitrary boards", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((n) => fc.array(fc.integer({ min: 0, max: n - 1 }), { minLength: n, maxLength: n })),
        (board) => {
          for (const engine of ["wasm", "ts"] as const) expect(verify(board, { engine }).ok).toBe(isSolutionLarge(board));
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });
});
