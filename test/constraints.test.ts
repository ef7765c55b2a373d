// checkConstraints: validation (coded errors naming parameter, value, range),
// normalisation (sorted, duplicate-free blocked lists by row), and conflicts.
import { describe, expect, it } from "vitest";
import { CONSTRAINTS_MAX_N, checkConstraints, constraintLists, isBlockedSquare, satisfiesConstraints } from "../src/board/constraints.js";

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


  it("normalises at the largest n: squares near the far corner keep their row and column (keys near 10^12)", () => {
    const n = CONSTRAINTS_MAX_N, last = n - 1;
    const c = checkConstraints(n, { fixed: [[last, last - 2], [last - 1, 0]], blocked: [[last, last], [last, 0], [0, last], [last, last], [last - 1, last - 1]] }, "solve");
    expect(constraintLists(c)).toEqual({ fixed: [[last - 1, 0], [last, last - 2]], blocked: [[0, last], [last - 1, last - 1], [last, 0], [last, last]] });
    expect(c.conflict).toBeNull();
    expect(checkConstraints(n, { fixed: [[last, last]], blocked: [[last, last]] }, "solve").conflict?.squares).toEqual([[last, last]]);
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

  it("on random lists, the same normal form (blocked rows, each row's given queen) and the same first conflict as a pair-by-pair reference", () => {
    // The reference: every earlier queen tried in input order, blocks looked up in a set.
    type Sq = [number, number];
    const reference = (n: number, fixed: Sq[], blocked: Sq[]) => {
      const isBlocked = new Set(blocked.map(([r, c]) => r * n + c));
      const rows = Array.from({ length: n }, (_, r) => [...new Set(blocked.filter((b) => b[0] === r).map((b) => b[1]))].sort((a, b) => a - b));
      const kept: Sq[] = [];
      const seen = new Set<number>();
      let conflict: { squares: Sq[]; line: string } | null = null;
      for (const q of fixed) {
        if (seen.has(q[0] * n + q[1])) continue;
        seen.add(q[0] * n + q[1]);
        if (!conflict && isBlocked.has(q[0] * n + q[1])) conflict = { squares: [q], line: "blocked" };
        for (const o of kept) {
          if (conflict) break;
          const line = q[0] === o[0] ? "row" : q[1] === o[1] ? "column" : Math.abs(q[0] - o[0]) === Math.abs(q[1] - o[1]) ? "diagonal" : null;
          if (line) conflict = { squares: [o, q], line };
        }
        kept.push(q);
      }
      const fixedColumn = Array.from({ length: n }, (_, r) => fixed.find((q) => q[0] === r)?.[1] ?? -1); // each row's first given queen
      return { rows, conflict, fixedColumn, empty: fixed.length === 0 && blocked.length === 0 };
    };
    let seed = 7;
    const rnd = (k: number): number => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % k; };
    let conflicts = 0;
    for (let t = 0; t < 400; t++) {
      const n = 1 + rnd(12);
      const fixed: Sq[] = Array.from({ length: rnd(6) }, () => [rnd(n), rnd(n)]);
      const blocked: Sq[] = Array.from({ length: rnd(3 * n) }, () => [rnd(n), rnd(n)]);
      const c = checkConstraints(n, { fixed, blocked }, "solve");
      const want = reference(n, fixed, blocked);
      for (let r = 0; r < n; r++) expect(Array.from(c.blockedCols.subarray(c.blockedStart[r], c.blockedStart[r + 1]))).toEqual(want.rows[r]);
      expect(c.conflict?.squares ?? null).toEqual(want.conflict?.squares ?? null);
      expect([Array.from(c.fixedColumn), c.empty]).toEqual([want.fixedColumn, want.empty]);
      if (want.conflict) {
        conflicts++;
        expect(c.conflict!.reason).toContain(want.conflict.line === "blocked" ? "stands on a blocked square" : `(same ${want.conflict.line})`);
      }
    }
    expect(conflicts).toBeGreaterThan(100); // the lists were drawn to meet conflicts of every kind
  });

  // 45 billion pairs took minutes one by one (hours at n = 10^6 with a whole solution given); line by line about 2 s here.
  it("300,000 given queens are checked against each other line by line, not pair by pair (45 billion pairs)", { timeout: 60_000 }, () => {
    const n = 999_997; // not a multiple of 2 or 3: the queens (r, 2r mod n) attack no other
    const fixed = Array.from({ length: 300_000 }, (_, r): [number, number] => [r, 2 * r]);
    fixed.push([400_000, 450_000]); // on the diagonal of (50000, 100000) and the column of (225000, 450000): the one given first is named
    // The conflict named is the first in the order given: so the 300,000 queens before the last
    // were found to attack none of each other, in the same call (a second call without the last
    // queen, to see a null conflict, doubled the test's time).
    const c = checkConstraints(n, { fixed }, "solve");
    expect(c.conflict!.squares).toEqual([[50_000, 100_000], [400_000, 450_000]]);
    expect(c.fixedColumn[299_999]).toBe(599_998);
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
