// The methods 'las-vegas', 'hybrid', 'hill-climb' and 'construct' through the public
// solve(): both engines give the same columns and figures, every solution passes an
// independent check written here, hybrid's two identities hold, caps are exact, and
// a timeout stops a long run.
import { describe, expect, test } from "vitest";
import { solve, type SolveOptions, type SolveResult } from "../src/search/solve.js";
import { boardDifference, isSolutionOfSize } from "./helpers.js";

const ENGINES = ["wasm", "ts"] as const;


/** What must agree between engines and runs (everything but engine and time). */
function outcome(r: SolveResult) {
  return { found: r.found, reason: r.reason, nodes: r.nodes, tries: r.tries, steps: r.steps, seed: r.seed, columns: r.columns };
}


/** Solve on both engines, check they agree, check the solution; the (shared) outcome. */
async function solveBoth(n: number, options: SolveOptions) {
  const [wasm, ts] = await Promise.all(ENGINES.map((engine) => solve(n, { ...options, engine })));
  const label = `n = ${n} ${JSON.stringify(options)}`;
  expect({ ...outcome(wasm), columns: null }, label).toEqual({ ...outcome(ts), columns: null });
  expect(boardDifference(wasm.columns, ts.columns), label).toBeNull();
  if (wasm.found) expect(isSolutionOfSize(wasm.columns!, n)).toBe(true);
  return outcome(wasm);
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
const SMALL = [1, 4, 5, 6, 7, 8, 9, 10, 11, 12];

describe.each([
  { method: "las-vegas", sizes: [...SMALL, 20, 30, 50] },
  { method: "hybrid", sizes: [...SMALL, 20, 30, 50] },
  { method: "hill-climb", sizes: [...SMALL, 20, 30, 50, 100] },
] as const)("$method", ({ method, sizes }) => {
  test("same columns and figures on both engines, and a valid solution, for many (n, seed)", async () => {
    for (const n of sizes) {
      for (const seed of SEEDS) {
        const r = await solveBoth(n, { method, seed });
        expect(r.found).toBe(true);
        expect(r.seed).toBe(seed);
        if (method === "hill-climb") expect(r.nodes).toBe(0);
        else expect(r.steps).toBe(0);
      }
    }
  });

  test("caps are exact: the cap a run needed still finds it; one less stops at the cap", async () => {
    const caps = method === "hill-climb" ? (["maxSteps", "maxTries"] as const) : (["maxNodes", "maxTries"] as const);
    const stat = { maxNodes: "nodes", maxSteps: "steps", maxTries: "tries" } as const;
    const reason = { maxNodes: "max-nodes", maxSteps: "max-steps", maxTries: "max-tries" } as const;
    let stopped = { maxNodes: 0, maxSteps: 0, maxTries: 0 };
    for (const n of [6, 8, 10, 20]) {
      for (const seed of SEEDS) {
        const free = await solveBoth(n, { method, seed });
        for (const cap of caps) {
          const needed = free[stat[cap]];
          expect(await solveBoth(n, { method, seed, [cap]: needed })).toEqual(free);
          if (needed <= 1) continue;
          const limited = await solveBoth(n, { method, seed, [cap]: needed - 1 });
          expect(limited).toMatchObject({ found: false, reason: reason[cap], columns: null });
          expect(limited[stat[cap]]).toBe(needed - 1);
          stopped = { ...stopped, [cap]: stopped[cap] + 1 };
        }
      }
    }
    for (const cap of caps) expect(stopped[cap], `${cap} was exercised`).toBeGreaterThan(0);
  });
});

describe("hybrid identities", () => {
  test("stopVegas = 0 is backtrack: same columns and nodes, one try", async () => {
    for (const n of [1, ...SMALL.slice(1), 13, 14, 20]) {
      const bt = await solveBoth(n, { method: "backtrack" });
      const hy = await solveBoth(n, { method: "hybrid", stopVegas: 0, seed: 7 });
      expect({ ...hy, seed: null }).toEqual(bt);
      expect(hy.tries).toBe(1);
    }
  });

  test("stopVegas = n is las-vegas: same columns, nodes and tries for a seed", async () => {
    for (const n of [1, ...SMALL.slice(1), 20, 30]) {
      for (const seed of SEEDS) {
        const lv = await solveBoth(n, { method: "las-vegas", seed });
        expect(await solveBoth(n, { method: "hybrid", stopVegas: n, seed })).toEqual(lv);
      }
    }
  });

  test("every stopVegas between gives the same answer on both engines", async () => {
    for (const n of [8, 12, 20]) {
      for (let stopVegas = 0; stopVegas <= n; stopVegas++) {
        for (const seed of [1, 2, 3]) expect((await solveBoth(n, { method: "hybrid", stopVegas, seed })).found).toBe(true);
      }
    }
  });
});

describe("hill-climb", () => {
  test("n = 1000 finds a solution on the Wasm engine", async () => {
    const r = await solve(1000, { method: "hill-climb", seed: 1 });
    expect(r.found).toBe(true);
    expect(isSolutionOfSize(r.columns!, 1000)).toBe(true);
  });

  test("reports the conflicts left as it goes, 0 at the end", async () => {
    const seen: number[] = [];
    await solve(200, { method: "hill-climb", engine: "ts", onProgress: (p) => seen.push(p.conflicts) });
    expect(seen.at(-1)).toBe(0);
  });
});

describe("construct", () => {
  test("valid and identical on both engines for n = 1 and 4..2000", async () => {
    for (let n = 1; n <= 2000; n = n === 1 ? 4 : n + 1) {
      const r = await solveBoth(n, { method: "construct" });
      expect(r).toMatchObject({ found: true, nodes: 0, tries: 1, steps: 0, seed: null });
    }
  });

  test("n = 2 and 3 have no solution", async () => {
    for (const n of [2, 3]) expect((await solveBoth(n, { method: "construct" })).reason).toBe("no-solution");
  });

  test("n = 10^6 is valid on both engines", async () => {
    const r = await solveBoth(1_000_000, { method: "construct" });
    expect(r.found).toBe(true);
  });

  test("takes no work caps", async () => {
    await expect(solve(8, { method: "construct", maxNodes: 5 })).rejects.toThrow(/does not apply/);
  });
});

describe("timeouts", () => {
  test.each(ENGINES)("las-vegas at n = 2000 stops with reason 'timeout' (%s)", async (engine) => {
    const r = await solve(2000, { method: "las-vegas", engine, timeoutMs: 200 });
    expect(r).toMatchObject({ found: false, reason: "timeout", columns: null });
    expect(r.nodes).toBeGreaterThan(1);
  });

  // n = 2 * 10^4 takes the TS hill climb about 16 s at load 8 (10^4: 4 s), so 1 s stops it with
  // steps done on a busy machine too (100 ms at 10^4 ran out before the first step at load 11).
  test("hill-climb at n = 2 * 10^4 stops with reason 'timeout' (ts)", async () => {
    const r = await solve(20_000, { method: "hill-climb", engine: "ts", timeoutMs: 1000 });
    expect(r).toMatchObject({ found: false, reason: "timeout" });
    expect(r.steps).toBeGreaterThan(0);
  });
});
