// Solve's needed diagonals (colourMandatory in assembly/colour-bounds.ts and its twin): a usable
// diagonal whose removal breaks the per-colour bounds holds a queen in every completion, so solve
// may branch on its open squares like a row's. Checked here: the set is exactly what removing each
// usable diagonal and asking the bounds again (an independent, slow test) gives, at every node of
// real searches; solve with them answers as a brute force does on small boards, both engines node
// for node, and they do branch; a board of the published family takes hundreds of nodes instead of
// tens of millions; and solve's tasks cut at a diagonal still partition the solutions.
import { describe, expect, it } from "vitest";
import { checkConstraints } from "../src/board/constraints.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { boardOf } from "../src/board/board.js";
import { COMPLETE_LOOKAHEAD_ALWAYS, COMPLETE_NO_NEEDED, COMPLETE_PLAIN, CompleteSearch } from "../src/engine/ts/complete.js";
import { BY_DIFF, BY_SUM, OPEN, ctz32, orShifted } from "../src/engine/ts/complete-state.js";
import { diagonalsFeasible } from "../src/engine/ts/diagonal-bounds.js";
import { colourMandatory } from "../src/engine/ts/colour-bounds.js";
import { EXHAUSTED, MAX_NODES } from "../src/engine/contract.js";
import { solveTasks } from "../src/count/solve-tasks.js";
import { ENGINES } from "./helpers.js";
import { bruteForce, diagonalBoard, expectSolveRuns, rng, runComplete, type Givens } from "./constrained.js";

/** The node's usable diagonals and the bounds' figures, as build computes them, from level dst of a search's state. */
function nodeOf(s: CompleteSearch, dst: number) {
  const n = s.n, to = dst * n;
  const sums = new Int32Array(4), diffs = new Int32Array(4);
  let evenRows = 0, rowSum = 0, moments = 0, evenCols = 0, colSum = 0, left = 0;
  for (let y = 0; y < n; y++) {
    if (((y < 32 ? s.rowsLo[dst] >>> y : s.rowsHi[dst] >>> (y - 32)) & 1) === 0) continue;
    orShifted(sums, s.availLo[to + y], s.availHi[to + y], y);
    orShifted(diffs, s.availLo[to + y], s.availHi[to + y], n - 1 - y);
    evenRows += (y & 1) ^ 1; rowSum += y; moments += (2 * y - n + 1) ** 2; left++;
  }
  for (let c = 0; c < n; c++) {
    if (((c < 32 ? s.freeLo[dst] >>> c : s.freeHi[dst] >>> (c - 32)) & 1) === 0) continue;
    evenCols += (c & 1) ^ 1; colSum += c; moments += (2 * c - n + 1) ** 2;
  }
  const sumTarget = rowSum + colSum, diffTarget = colSum - rowSum + left * (n - 1);
  const feasible = () => diagonalsFeasible(n, left, sums, diffs, evenRows, evenCols, sumTarget, diffTarget, moments, true);
  return { sums, diffs, feasible };
}

/** The needed diagonals by brute force: each usable one taken out and the bounds asked again. */
function neededByRemoval(n: number, node: ReturnType<typeof nodeOf>): [number[], number[]] {
  const out: [number[], number[]] = [[], []];
  for (const [family, set] of [node.sums, node.diffs].entries()) {
    for (let k = 0; k < 2 * n - 1; k++) {
      const bit = 1 << (k & 31);
      if ((set[k >> 5] & bit) === 0) continue;
      set[k >> 5] &= ~bit;
      if (!node.feasible()) out[family].push(k);
      set[k >> 5] |= bit;
    }
  }
  return out;
}

const bitsOf = (set: Int32Array): number[] => {
  const out: number[] = [];
  for (let w = 0; w < set.length; w++) for (let x = set[w]; x !== 0; x &= x - 1) out.push(32 * w + ctz32(x));
  return out;
};

/** The twin's search, its build checked against neededByRemoval at every open level; and how many levels branch on a diagonal. */
class Checked extends CompleteSearch {
  checked = 0;
  needed = 0;
  byDiagonal = 0;
  override build(src: number, dst: number, r: number, c: number): number {
    const result = super.build(src, dst, r, c);
    if (result !== OPEN || !this.filtering) return result;
    const node = nodeOf(this, dst);
    expect(node.feasible()).toBe(true); // (and it leaves the bounds' figures of this node for colourMandatory)
    const sums = new Int32Array(4), diffs = new Int32Array(4);
    colourMandatory(this.n, node.sums, node.diffs, sums, diffs);
    const expected = neededByRemoval(this.n, node);
    expect([bitsOf(sums), bitsOf(diffs)]).toEqual(expected);
    this.checked++;
    this.needed += expected[0].length + expected[1].length;
    if (this.kind[dst] === BY_SUM || this.kind[dst] === BY_DIFF) this.byDiagonal++;
    return result;
  }
}

describe("solve's needed diagonals", () => {
  it("are exactly the usable diagonals whose removal breaks the bounds, at every open level of Excluded Diagonals searches (n = 26 to 36)", () => {
    for (const [n, d, minFree, seed, nodes] of [[26, 31, 1, 4, 3000], [30, 36, 1, 4, 1500], [32, 34, 1, 2, 1000], [36, 43, 4, 4, 600]]) {
      const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
      const search = new Checked(n, checkConstraints(n, { fixed: [], blocked }, "test"), 0, nodes);
      search.run(Infinity);
      expect(search.checked).toBeGreaterThan(100);
      expect(search.needed / search.checked).toBeGreaterThan(1); // about 25 a level when written
      expect(search.byDiagonal).toBeGreaterThan(10);
    }
  });

  it("solve on 150 diagonal-blocked boards: the brute force's answers with them and without, at every level's lookahead and none, both engines node for node", () => {
    const random = rng(97);
    let changed = 0, byDiagonal = 0;
    for (let i = 0; i < 150; i++) {
      const n = 5 + (i % 7);
      const givens: Givens = diagonalBoard(n, random);
      const constraints = checkConstraints(n, givens, "test");
      if (constraints.conflict !== null) continue;
      const all = bruteForce(n, givens).map((columns) => columns.join(","));
      for (const lookahead of [0, COMPLETE_LOOKAHEAD_ALWAYS]) {
        const seen = ENGINES.map((engine) => runComplete(engine, n, givens, COMPLETE_PLAIN | lookahead));
        const without = runComplete("wasm", n, givens, COMPLETE_PLAIN | lookahead | COMPLETE_NO_NEEDED);
        expectSolveRuns(all, seen, [without]);
        if (seen[0].nodes !== without.nodes) changed++;
      }
      const twin = new Checked(n, constraints, 0, Infinity);
      twin.run(Infinity);
      byDiagonal += twin.byDiagonal;
    }
    expect(changed).toBeGreaterThan(15);
    expect(byDiagonal).toBeGreaterThan(15);
  });

  it("n = 32, d = 35, seed 2 (minFree 4, no solution): proved by the 64-bit search in hundreds of nodes on both engines, undecided after 200,000 without them", () => {
    const { blocked } = excludedDiagonalsBoard(32, 35, { seed: 2, minFree: 4 });
    const open = (engine: "wasm" | "ts", param: number, maxNodes: number) => {
      const { status, nodes } = runComplete(engine, 32, { fixed: [], blocked: blocked.map(([r, c]): [number, number] => [r, c]) }, param, maxNodes);
      return { status, nodes };
    };
    const proofs = ENGINES.map((engine) => open(engine, COMPLETE_PLAIN, Infinity));
    expect(proofs[0].status).toBe(EXHAUSTED);
    expect(proofs[1]).toEqual(proofs[0]);
    expect(proofs[0].nodes).toBeLessThan(2000); // 466 when written; 44,835,293 without them (the twin, 224 s)
    expect(open("wasm", COMPLETE_PLAIN | COMPLETE_NO_NEEDED, 200_000).status).toBe(MAX_NODES);
  });

  it("solve's tasks cut at a needed diagonal (its open squares) hold every solution exactly once (brute force, small diagonal-blocked boards)", () => {
    const random = rng(101);
    let atDiagonal = 0;
    for (let i = 0; i < 300; i++) {
      const n = 6 + (i % 5);
      const givens = diagonalBoard(n, random);
      let board;
      try {
        board = boardOf(n, givens, { caller: "test", plain: [1, 64], givens: [1, 64] });
      } catch {
        continue;
      }
      if (board.constraints.conflict !== null) continue;
      const branch = new CompleteSearch(n, board.constraints.empty ? undefined : board.constraints, 0, Infinity).firstBranch();
      if (branch === null || (branch.kind !== BY_SUM && branch.kind !== BY_DIFF)) continue;
      atDiagonal++;
      const tasks = solveTasks(board, 16);
      const squares = tasks.map((t) => t.prefixes[0][0]);
      expect(squares).toEqual(branch.squares);
      const line = (r: number, c: number) => (branch.kind === BY_SUM ? r + c : c - r + n - 1);
      for (const [r, c] of squares) expect(line(r, c)).toBe(branch.index);
      for (const columns of bruteForce(n, givens)) {
        expect(squares.filter(([r, c]) => columns[r] === c)).toHaveLength(1);
      }
    }
    expect(atDiagonal).toBeGreaterThan(5);
  });
});
