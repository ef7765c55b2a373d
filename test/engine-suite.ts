// One suite, called once per engine (test/engines.test.ts): known answers and
// properties every engine must have. Engine agreement is tested in test/parity.test.ts.
import { describe, expect, it } from "vitest";
import type { EngineName } from "../src/engine/contract.js";
import { count, render, solutions, solve, verify } from "../src/index.js";
import { openSolutionStreams } from "../src/count/solutions.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { attackingPairs, compareBoards, isSolution } from "./helpers.js";

export function engineSuite(engine: EngineName): void {
  describe(`engine ${engine}`, () => {
    it("count matches OEIS A000170 (total) and A002562 (unique) for n = 1..14", async () => {
      for (let n = 1; n <= 14; n++) {
        const result = await count(n, { engine });
        expect({ n, total: result.total, unique: result.unique }).toEqual({ n, total: A000170[n], unique: A002562[n] });
        expect(result.engine).toBe(engine);
        expect(typeof result.nodes).toBe("bigint");
      }
    });

    it("solutions(n) yields count(n).total distinct valid solutions in strictly increasing order, n = 1..10", async () => {
      for (let n = 1; n <= 10; n++) {
        let previous: Int32Array | undefined;
        let listed = 0;
        for (const columns of solutions(n, { engine })) {
          expect(columns).toBeInstanceOf(Int32Array);
          expect(columns.length).toBe(n);
          expect(isSolution(columns)).toBe(true);
          if (previous) expect(compareBoards(previous, columns)).toBeLessThan(0);
          previous = columns;
          listed++;
        }
        expect(BigInt(listed)).toBe(A000170[n]);
      }
    });

    it("solutions(n, { limit }) stops at the limit and each iteration starts afresh", () => {
      const first = [...solutions(8, { engine, limit: 5 })];
      expect(first).toHaveLength(5);
      const again = [...solutions(8, { engine, limit: 5 })];
      expect(again).toEqual(first);
      expect([...solutions(8, { engine, limit: 0 })]).toHaveLength(0);
      expect([...solutions(3, { engine })]).toHaveLength(0);
    });

    it("stopping an enumeration early closes it (nothing left open)", () => {
      expect(openSolutionStreams()).toBe(0);
      let seen = 0;
      for (const columns of solutions(12, { engine })) {
        expect(isSolution(columns)).toBe(true);
        if (++seen === 100) break;
      }
      expect(seen).toBe(100);
      expect(openSolutionStreams()).toBe(0);
      const iterator = solutions(12, { engine })[Symbol.iterator]();
      iterator.next();
      expect(openSolutionStreams()).toBe(1);
      iterator.return!();
      expect(openSolutionStreams()).toBe(0);
      expect(iterator.next().done).toBe(true);
    });

    it("solutions returned earlier are not overwritten by later chunks", () => {
      const kept: Int32Array[] = [];
      const copies: number[][] = [];
      for (const columns of solutions(10, { engine })) {
        kept.push(columns);
        copies.push(Array.from(columns));
      }
      expect(kept.map((c) => Array.from(c))).toEqual(copies);
    });

    it("backtracking finds the first solution in lexicographic order, with the textbook's 114 nodes for n = 8", async () => {
      const result = await solve(8, { engine, method: "backtrack" });
      expect(result.found).toBe(true);
      expect(Array.from(result.columns!)).toEqual([0, 4, 7, 5, 2, 6, 1, 3]);
      expect(result.nodes).toBe(114);
      for (let n = 4; n <= 10; n++) {
        const [first] = solutions(n, { engine, limit: 1 });
        const solved = await solve(n, { engine, method: "backtrack" });
        expect(Array.from(solved.columns!)).toEqual(Array.from(first));
      }
    });

    it("'auto' picks a method by n and says which; its result is a solution", async () => {
      const picked: Record<number, string> = {};
      for (const n of [1, 4, 8, 12, 13, 20, 49, 50, 1000]) {
        const result = await solve(n, { engine, seed: 3 });
        picked[n] = result.method;
        expect(result.found).toBe(true);
        expect(isSolution(result.columns!)).toBe(true);
      }
      expect(picked).toEqual({
        1: "backtrack", 4: "backtrack", 8: "backtrack", 12: "backtrack",
        13: "hybrid", 20: "hybrid", 49: "hybrid", 50: "min-conflicts", 1000: "min-conflicts",
      });
      const hybrid = await solve(20, { engine, seed: 3 });
      expect(hybrid.stopVegas).toBe(5); // Wang Xiaodong's default: n - 15 when n > 15
      expect(hybrid).toMatchObject({ ...(await solve(20, { engine, method: "hybrid", seed: 3 })), ms: hybrid.ms });
    });

    it("n = 1 has one solution; n = 2 and 3 have none, answered at once", async () => {
      expect(Array.from((await solve(1, { engine })).columns!)).toEqual([0]);
      expect((await solve(1, { engine })).nodes).toBe(2);
      for (const n of [2, 3]) {
        const result = await solve(n, { engine });
        expect(result).toMatchObject({ found: false, columns: null, reason: "no-solution" });
        expect((await count(n, { engine })).total).toBe(0n);
      }
    });

    it("maxNodes bounds backtracking exactly", async () => {
      const result = await solve(20, { engine, method: "backtrack", maxNodes: 5000 });
      expect(result).toMatchObject({ found: false, reason: "max-nodes", nodes: 5000, columns: null });
      const enough = await solve(8, { engine, method: "backtrack", maxNodes: 114 });
      expect(enough.found).toBe(true);
      const short = await solve(8, { engine, method: "backtrack", maxNodes: 113 });
      expect(short).toMatchObject({ found: false, nodes: 113 });
    });

    it("verify accepts solutions and names the attacking pairs of a bad board", () => {
      expect(verify([1, 3, 0, 2], { engine })).toEqual({ ok: true, conflicts: [], conflictCount: 0 });
      expect(verify([0], { engine }).ok).toBe(true);
      // rows 0 and 2 share column 0; (0,1), (0,3), (1,2), (1,3) share diagonals
      expect(verify([0, 1, 0, 3], { engine })).toEqual({
        ok: false,
        conflicts: [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3]],
        conflictCount: 5,
      });
      for (const board of [[2, 0, 3, 1, 1], [4, 3, 2, 1, 0, 5], [0, 2, 4, 6, 1, 3, 5, 7]]) {
        expect(verify(board, { engine }).conflicts).toEqual(attackingPairs(board));
      }
      const identity = Int32Array.from({ length: 1000 }, (_, i) => i);
      const all = verify(identity, { engine, maxConflicts: 10 });
      expect(all.ok).toBe(false);
      expect(all.conflictCount).toBe((1000 * 999) / 2);
      expect(all.conflicts).toHaveLength(10);
    });

    it("verify agrees with the independent checker on every permutation of 6", () => {
      const perm = [0, 1, 2, 3, 4, 5];
      const permute = (k: number): void => {
        if (k === perm.length) {
          expect(verify(perm, { engine }).ok).toBe(isSolution(perm));
          return;
        }
        for (let i = k; i < perm.length; i++) {
          [perm[k], perm[i]] = [perm[i], perm[k]];
          permute(k + 1);
          [perm[k], perm[i]] = [perm[i], perm[k]];
        }
      };
      permute(0);
    });

    it("verify checks a large board in O(n)", () => {
      // the explicit construction for n mod 6 not in {2, 3}: evens then odds (1-based)
      const n = 1_000_003; // n mod 6 = 5
      const columns = new Int32Array(n);
      let r = 0;
      for (let c = 1; c < n; c += 2) columns[r++] = c;
      for (let c = 0; c < n; c += 2) columns[r++] = c;
      expect(verify(columns, { engine }).ok).toBe(true);
      [columns[0], columns[1]] = [columns[1], columns[0]];
      expect(verify(columns, { engine }).ok).toBe(false);
    });

    it("render draws a board", () => {
      expect(render([1, 3, 0, 2])).toBe(". Q . .\n. . . Q\nQ . . .\n. . Q .");
    });
  });
}
