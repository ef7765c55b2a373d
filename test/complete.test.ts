// The complete search (method 'complete', assembly/complete.ts and its twin) and solve
// on constrained boards: existence agrees with brute force, every board is checked,
// both engines walk the same tree, the plain problem is unchanged.
import { describe, expect, it } from "vitest";
import { solve } from "../src/index.js";
import { ENGINES, isSolution } from "./helpers.js";
import { bruteForce, honours, randomGivens, rng } from "./constrained.js";
import { A000170 } from "./fixtures/oeis.js";

describe("solve with method 'complete'", () => {
  it("agrees with brute force on 600 random constrained boards, n <= 8, both engines identical", async () => {
    const random = rng(15);
    let solvable = 0, conflicts = 0, none = 0;
    for (let i = 0; i < 600; i++) {
      const n = 1 + (i % 8);
      const givens = randomGivens(n, random, i % 3, [0, 0.1, 0.25, 0.4][i % 4]);
      const expected = bruteForce(n, givens).length;
      const results = [];
      for (const engine of ENGINES) {
        const result = await solve(n, { method: "complete", engine, ...givens });
        expect(result.found).toBe(expected > 0);
        if (result.found) expect(honours(result.columns, n, givens)).toBe(true);
        else expect(["no-solution", "conflict"]).toContain(result.reason);
        results.push(result);
      }
      expect(results[1].columns).toEqual(results[0].columns);
      expect(results[1].nodes).toBe(results[0].nodes);
      expect(results[1].reason).toBe(results[0].reason);
      if (results[0].found) solvable++;
      else if (results[0].reason === "conflict") conflicts++;
      else none++;
    }
    // The generator makes all three kinds of instance.
    expect(solvable).toBeGreaterThan(50);
    expect(conflicts).toBeGreaterThan(20);
    expect(none).toBeGreaterThan(50);
  });

  it("row-order backtracking honours constraints: its first solution is the lexicographically first of brute force", async () => {
    const random = rng(2);
    for (let i = 0; i < 300; i++) {
      const n = 4 + (i % 5);
      const givens = randomGivens(n, random, 1 + (i % 2), 0.2);
      const all = bruteForce(n, givens); // in lexicographic order
      for (const engine of ENGINES) {
        const result = await solve(n, { method: "backtrack", engine, ...givens });
        if (all.length === 0) expect(result.found).toBe(false);
        else expect(Array.from(result.columns!)).toEqual(all[0]);
      }
    }
  });

  it("with empty lists every method gives exactly the plain answer (columns, nodes, tries, steps)", async () => {
    for (const method of ["backtrack", "las-vegas", "hybrid", "hill-climb", "construct", "min-conflicts", "complete", "auto"] as const) {
      for (const n of [8, 13, 20]) {
        for (const engine of ENGINES) {
          const plain = await solve(n, { method, engine });
          const empty = await solve(n, { method, engine, fixed: [], blocked: [] });
          expect({ ...empty, ms: 0 }).toEqual({ ...plain, ms: 0 });
        }
      }
    }
  });

  it("names the attacking pair of given queens, and the given queen on a blocked square", async () => {
    for (const engine of ENGINES) {
      const pair = await solve(8, { engine, fixed: [[0, 0], [5, 5]] });
      expect(pair).toMatchObject({ found: false, columns: null, reason: "conflict", method: "complete" });
      expect(pair.conflict!.squares).toEqual([[0, 0], [5, 5]]);
      expect(pair.conflict!.reason).toBe("the given queens at (0, 0) and (5, 5) attack each other (same diagonal)");
      const onBlock = await solve(8, { engine, method: "complete", fixed: [[2, 3]], blocked: [[2, 3]] });
      expect(onBlock.reason).toBe("conflict");
      expect(onBlock.conflict!.reason).toContain("(2, 3)");
    }
  });

  it("decides the plain problem for every n <= 20 (solvable except 2 and 3), same on both engines", async () => {
    for (let n = 1; n <= 20; n++) {
      const [w, t] = await Promise.all(ENGINES.map((engine) => solve(n, { method: "complete", engine })));
      expect(w.found).toBe(A000170[n] > 0n);
      if (w.found) expect(isSolution(w.columns!)).toBe(true);
      expect(t.columns).toEqual(w.columns);
      expect(t.nodes).toBe(w.nodes);
    }
  });

  it("both engines agree node for node at n = 30..64 on random blocked boards (64-bit masks, both halves)", async () => {
    const random = rng(64);
    for (const n of [30, 33, 40, 50, 63, 64]) {
      for (let i = 0; i < 2; i++) {
        const givens = randomGivens(n, random, 2, 0.3);
        const [w, t] = await Promise.all(ENGINES.map((engine) => solve(n, { method: "complete", engine, ...givens, maxNodes: 200_000 })));
        if (w.found) expect(honours(w.columns, n, givens)).toBe(true);
        expect(t.found).toBe(w.found);
        expect(t.reason).toBe(w.reason);
        expect(t.nodes).toBe(w.nodes);
        expect(t.columns).toEqual(w.columns);
      }
    }
  });

  it("'auto' picks the complete search with constraints (n <= 1000), 'construct' refuses them", async () => {
    expect((await solve(10, { blocked: [[0, 0]] })).method).toBe("complete");
    expect((await solve(10, { fixed: [], blocked: [] })).method).toBe("backtrack"); // empty lists: the plain problem
    expect((await solve(10)).method).toBe("backtrack");
    await expect(solve(1001, { fixed: [[0, 1]] })).rejects.toThrow(/n must be an integer from 1 to 1000 with given queens or blocked squares \(for solve's method "auto"\), got 1001/);
    await expect(solve(10, { method: "construct", fixed: [[0, 1]] })).rejects.toThrow(/"construct" cannot honour given queens/);
    await expect(solve(1001, { method: "complete" })).rejects.toThrow(RangeError);
    await expect(solve(8, { fixed: [[8, 0]] })).rejects.toThrow(/fixed\[0\] row must be an integer from 0 to 7/);
  });

  it("maxNodes stops at the same node on both engines; the search resumes across chunks", async () => {
    const givens = randomGivens(40, rng(7), 0, 0.35);
    const [w, t] = await Promise.all(ENGINES.map((engine) => solve(40, { method: "complete", engine, ...givens, maxNodes: 1234 })));
    for (const r of [w, t]) if (!r.found) expect(r).toMatchObject({ reason: expect.stringMatching(/max-nodes|no-solution/) });
    expect(t.nodes).toBe(w.nodes);
  });
});
