// The board as a value (src/board/board.ts): n checked once against the range that applies
// (a plain board's, or a board with givens'), the givens normalised, the digest the same on
// every path, and empty lists the plain problem on every entry point.
import { describe, expect, it } from "vitest";
import { boardOf, boardOfConstraints, plainBoard } from "../src/board/board.js";
import { checkConstraints } from "../src/board/constraints.js";
import { count, countParallel, solve, solutions } from "../src/index.js";

const LIMITS = { caller: "a test", plain: [4, 32], givens: [1, 1000] } as const;

describe("boardOf", () => {
  it("no lists and empty lists are the plain board, n in the plain range; squares take the givens' range", () => {
    for (const givens of [undefined, {}, { fixed: [] }, { fixed: [], blocked: [] }]) {
      const board = boardOf(12, givens, LIMITS);
      expect(board.plain).toBe(true);
      expect(board.digest).toBe(plainBoard(12).digest);
      expect(() => boardOf(40, givens, LIMITS)).toThrow(/n must be an integer from 4 to 32, got 40/);
      expect(() => boardOf(3, givens, LIMITS)).toThrow(/from 4 to 32, got 3/);
    }
    const board = boardOf(40, { blocked: [[0, 0]] }, LIMITS);
    expect(board.plain).toBe(false);
    expect(board.blocked).toEqual([[0, 0]]);
    expect(board.constraints.blockedCols.length).toBe(1);
    expect(boardOf(3, { fixed: [[0, 0]] }, LIMITS).n).toBe(3); // the givens' range starts at 1
    expect(() => boardOf(1001, { fixed: [[0, 0]] }, LIMITS)).toThrow(/from 1 to 1000, got 1001/);
  });

  it("a range narrower with givens than without says so, naming what it is for", () => {
    const limits = { caller: "solve", plain: [1, 5000], givens: [1, 1000], givensFor: `solve's method "complete"` } as const;
    expect(() => boardOf(2000, { fixed: [[0, 0]] }, limits)).toThrow(`n must be an integer from 1 to 1000 with given queens or blocked squares (for solve's method "complete"), got 2000`);
    expect(boardOf(2000, { fixed: [] }, limits).plain).toBe(true);
  });

  it("the same board however its givens are written: one digest (order, repeats, a conflict's queens kept)", () => {
    const a = boardOf(10, { fixed: [[2, 3]], blocked: [[5, 5], [0, 0], [5, 5]] }, LIMITS);
    const b = boardOf(10, { blocked: [[0, 0], [5, 5]], fixed: [[2, 3], [2, 3]] }, LIMITS);
    expect(a.digest).toBe(b.digest);
    expect(a.fixed).toEqual([[2, 3]]);
    expect(a.blocked).toEqual([[0, 0], [5, 5]]);
    // Pinned: the digest the queue's records and the checkpoints hold (unchanged by the board value).
    expect(a.digest).toBe("fad426d16106f11a6d501cbd3965199a");
    const conflict = boardOf(8, { fixed: [[2, 2], [2, 1]], blocked: [[2, 1]] }, LIMITS);
    expect(conflict.digest).toBe("5801578e315b200c4cc9783e74ad9f01");
    expect(conflict.constraints.conflict).not.toBeNull();
    // Read back from its own lists, a board gives itself.
    for (const board of [a, conflict]) {
      const again = boardOf(board.n, { fixed: board.fixed, blocked: board.blocked }, LIMITS);
      expect(again.digest).toBe(board.digest);
      expect(boardOfConstraints(checkConstraints(board.n, { fixed: board.fixed, blocked: board.blocked }, "a test")).digest).toBe(board.digest);
    }
    expect(a.digest).not.toBe(boardOf(10, { fixed: [[2, 4]], blocked: [[0, 0], [5, 5]] }, LIMITS).digest);
  });

  it("a plain board of 10^8 rows holds no per-row arrays until asked", () => {
    const board = boardOf(1e8, undefined, { caller: "a test", plain: [1, 5e8], givens: [1, 1000] });
    expect(board.plain && board.fixed.length === 0 && board.blocked.length === 0).toBe(true);
    expect(Object.getOwnPropertyDescriptor(board, "constraints")?.get).toBeTypeOf("function");
    expect(plainBoard(5).constraints.fixedColumn).toEqual(new Int32Array(5).fill(-1));
  });

  it("every entry point takes empty lists as the plain problem, and refuses bad squares with the same coded error", async () => {
    expect((await count(8, { fixed: [], blocked: [] })).total).toBe(92n);
    expect((await count(8, { fixed: [], blocked: [] })).unique).toBe(12n); // the plain count, with its symmetry classes
    expect((await countParallel(8, { fixed: [], workers: 1 })).unique).toBe(12n);
    expect([...solutions(6, { blocked: [] })].length).toBe(4);
    expect((await solve(2000, { method: "auto", fixed: [] })).found).toBe(true);
    for (const call of [() => count(8, { fixed: [[8, 0]] }), () => countParallel(8, { fixed: [[8, 0]], workers: 1 }), () => solve(8, { fixed: [[8, 0]] })]) {
      await expect(call()).rejects.toMatchObject({ code: "NQ_INVALID_ARGUMENT", param: "fixed" });
    }
  });
});
