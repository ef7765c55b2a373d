// checkConstraints: validation (coded errors naming parameter, value, range),
// normalisation (sorted, duplicate-free blocked lists by row), and conflicts.
import { describe, expect, it } from "vitest";
import { checkConstraints, constraintLists, isBlockedSquare, satisfiesConstraints } from "../src/board/constraints.js";

const CODE = "NQ_INVALID_ARGUMENT";

function thrown(f: () => unknown): Error & { code?: string } {
  try {
    f();
  } catch (e) {
    return e as Error & { code?: string };
  }
  throw new Error("did not throw");
}

describe("checkConstraints", () => {
  it("undefined and empty lists are the plain problem", () => {
    for (const input of [undefined, {}, { fixed: [], blocked: [] }]) {
      const c = checkConstraints(6, input, "solve");
      expect(c.empty).toBe(true);
      expect(c.conflict).toBeNull();
      expect(Array.from(c.fixedColumn)).toEqual([-1, -1, -1, -1, -1, -1]);
      expect(Array.from(c.blockedStart)).toEqual([0, 0, 0, 0, 0, 0, 0]);
      expect(c.blockedCols.length).toBe(0);
    }
  });

  it("normalises: blocked sorted by row then column, duplicates dropped", () => {
    const c = checkConstraints(5, { fixed: [[3, 1], [3, 1]], blocked: [[4, 2], [0, 4], [0, 1], [4, 2], [2, 0]] }, "solve");
    expect(c.empty).toBe(false);
    expect(c.conflict).toBeNull();
    expect(Array.from(c.fixedColumn)).toEqual([-1, -1, -1, 1, -1]);
    expect(Array.from(c.blockedStart)).toEqual([0, 2, 2, 3, 3, 4]);
    expect(Array.from(c.blockedCols)).toEqual([1, 4, 0, 2]);
    expect(isBlockedSquare(c, 0, 4)).toBe(true);
    expect(isBlockedSquare(c, 0, 2)).toBe(false);
    expect(constraintLists(c)).toEqual({ fixed: [[3, 1]], blocked: [[0, 1], [0, 4], [2, 0], [4, 2]] });
    expect(satisfiesConstraints(c, [0, 2, 4, 1, 3])).toBe(true);
    expect(satisfiesConstraints(c, [1, 3, 0, 2, 4])).toBe(false); // (0, 1) is blocked, row 3 not 1
  });

  it("names the attacking pair of given queens (row, column, diagonal)", () => {
    const cases: [number[][], string][] = [
      [[[0, 0], [0, 3]], "same row"],
      [[[1, 2], [4, 2]], "same column"],
      [[[1, 1], [3, 3]], "same diagonal"],
      [[[0, 4], [4, 0]], "same diagonal"],
    ];
    for (const [fixed, line] of cases) {
      const c = checkConstraints(6, { fixed: fixed as [number, number][] }, "solve");
      expect(c.conflict).not.toBeNull();
      expect(c.conflict!.squares).toEqual(fixed);
      expect(c.conflict!.reason).toContain(line);
      expect(c.conflict!.reason).toContain(`(${fixed[0][0]}, ${fixed[0][1]})`);
      expect(c.conflict!.reason).toContain(`(${fixed[1][0]}, ${fixed[1][1]})`);
    }
    expect(checkConstraints(6, { fixed: [[0, 0], [1, 2]] }, "solve").conflict).toBeNull();
  });

  it("names a given queen on a blocked square", () => {
    const c = checkConstraints(6, { fixed: [[2, 3]], blocked: [[2, 3]] }, "count");
    expect(c.conflict!.squares).toEqual([[2, 3]]);
    expect(c.conflict!.reason).toMatch(/\(2, 3\).*blocked/);
  });

  it("rejects malformed input with coded errors naming parameter, value and range", () => {
    const cases: [unknown, RegExp, ErrorConstructor][] = [
      [5, /constraints of solve must be an object/, TypeError],
      [{ fixd: [] }, /unknown constraint "fixd"/, TypeError],
      [{ fixed: "0:0" }, /fixed must be an array of \[row, col\] pairs, got "0:0"/, TypeError],
      [{ fixed: [[0]] }, /fixed\[0\] must be a \[row, col\] pair, got an array of length 1/, TypeError],
      [{ blocked: [[0, 0], 7] }, /blocked\[1\] must be a \[row, col\] pair, got 7/, TypeError],
      [{ fixed: [[0, "1"]] }, /fixed\[0\] col must be an integer from 0 to 5, got string "1"/, TypeError],
      [{ fixed: [[6, 0]] }, /fixed\[0\] row must be an integer from 0 to 5 \(0-based, n = 6\), got 6/, RangeError],
      [{ blocked: [[0, -1]] }, /blocked\[0\] col must be an integer from 0 to 5.*got -1/, RangeError],
      [{ blocked: [[1.5, 0]] }, /blocked\[0\] row .* got 1.5/, RangeError],
    ];
    for (const [input, message, kind] of cases) {
      const e = thrown(() => checkConstraints(6, input as never, "solve"));
      expect(e).toBeInstanceOf(kind);
      expect(e.message).toMatch(message);
      expect(e.code).toBe(CODE);
    }
  });
});
