// The complete search gives away the untried branches at the shallowest open level of its
// stack (Search.split; solve's threads share a task with it) and then skips them: its remaining
// tree and the sub-boards given away partition its solutions. Checked where a lost or doubled
// subtree shows: counted (mode 2) and enumerated (mode 1) with splits at random moments, the
// pieces split again in turn, against the one search's count and a brute force; in solve mode
// (filtering and the lookahead's order at every level) a board found by the held search holds
// no piece given away, and a held search exhausted leaves every solution to the pieces; and the
// two engines split alike, node for node.
import { describe, expect, it } from "vitest";
import { pickEngine } from "../src/engine/select.js";
import { EXHAUSTED, FOUND, RUNNING, type Engine, type Search, type SearchSplit } from "../src/engine/contract.js";
import { checkConstraints, type Constraints, type Square } from "../src/board/constraints.js";
import { prefixConstraints } from "../src/count/constrained.js";
import { splitPrefixes } from "../src/count/solve-tasks.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { COMPLETE_LOOKAHEAD_ALWAYS, COMPLETE_PLAIN } from "../src/engine/ts/complete.js";
import { bruteForce, randomGivens, rng, type Givens } from "./constrained.js";

const SOLVE = 0, ENUMERATE = 1, COUNT = 2;

function open(engine: Engine, n: number, constraints: Constraints, param: number): Search {
  return engine.openSearch("complete", n, { seed: 0, param, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity, ...(constraints.empty ? {} : { constraints }) });
}

type Piece = { prefix: Square[]; split: SearchSplit };
type Walk = { solutions: number[][]; splits: Piece[]; nodes: number };

/**
 * The board's solutions by one search in mode 1 or 2, split at random moments; each piece
 * given away is walked the same way (split again, to `depth` levels of pieces). Solutions of
 * mode 2 are counted, not listed: `solutions` then holds one empty entry per solution.
 */
function walk(engine: Engine, n: number, fixed: Square[], constraints: Constraints, prefix: Square[], mode: number, random: () => number, depth: number, log: Walk): void {
  const board = prefixConstraints(constraints, prefix);
  if (board.conflict !== null) return;
  const search = open(engine, n, board, mode);
  try {
    for (;;) {
      const status = search.run(search.work() + 1 + Math.floor(random() * 40));
      if (status === FOUND) log.solutions.push(Array.from(search.columns()));
      else if (status === EXHAUSTED) break;
      else expect(status).toBe(RUNNING);
      if (depth > 0 && random() < 0.3) {
        const split = search.split!();
        if (split === null) continue;
        log.splits.push({ prefix, split });
        for (const piece of splitPrefixes(fixed, prefix, split)) walk(engine, n, fixed, constraints, piece, mode, random, depth - 1, log);
      }
    }
    if (mode === COUNT) for (let i = 0n; i < search.solutions!(); i++) log.solutions.push([]);
    log.nodes += search.stats().nodes;
  } finally {
    search.close();
  }
}

function givensBoards(count: number, seed: number): { n: number; givens: Givens; constraints: Constraints }[] {
  const random = rng(seed), boards: { n: number; givens: Givens; constraints: Constraints }[] = [];
  while (boards.length < count) {
    const n = 6 + (boards.length % 4);
    const givens = randomGivens(n, random, 2, 0.12);
    try {
      boards.push({ n, givens, constraints: checkConstraints(n, givens, "test") });
    } catch {
      // a given queen on a blocked square, or two on a line: no board
    }
  }
  return boards;
}

/**
 * The solutions of givensBoards(60, 7), by brute force, sorted: both engines' split tests check
 * against them, and the brute force is most of those tests' cost, so whichever test comes first
 * makes them once. (Each test makes its own boards: only these lists are shared.)
 */
let bruteLists: string[][] | undefined;
function bruteSolutions(): string[][] {
  bruteLists ??= givensBoards(60, 7).map(({ n, givens }) => bruteForce(n, givens).map((s) => s.join(",")).sort());
  return bruteLists;
}

describe("the complete search's split partitions its tree", () => {
  for (const engineName of ["wasm", "ts"] as const) {
    it(`${engineName}: counted and enumerated with random splits, every solution once (brute force), and split at all`, () => {
      const engine = pickEngine(engineName);
      let splits = 0;
      const solutions = bruteSolutions();
      for (const [i, { n, givens, constraints }] of givensBoards(60, 7).entries()) {
        const expected = solutions[i];
        for (const mode of [ENUMERATE, COUNT]) {
          const log: Walk = { solutions: [], splits: [], nodes: 0 };
          walk(engine, n, givens.fixed as Square[], constraints, [], mode, rng(100 + i), 3, log);
          splits += log.splits.length;
          if (mode === COUNT) expect(log.solutions.length, `board ${i}`).toBe(expected.length);
          else expect(log.solutions.map((s) => s.join(",")).sort(), `board ${i}`).toEqual(expected);
        }
      }
      expect(splits).toBeGreaterThan(50);
    });
  }

  it("the two engines split alike: the same paths, branches and nodes", () => {
    for (const [i, { n, givens, constraints }] of givensBoards(30, 11).entries()) {
      const logs = (["wasm", "ts"] as const).map((name) => {
        const log: Walk = { solutions: [], splits: [], nodes: 0 };
        walk(pickEngine(name), n, givens.fixed as Square[], constraints, [], COUNT, rng(200 + i), 2, log);
        return log;
      });
      expect(logs[1], `board ${i}`).toEqual(logs[0]);
    }
  });

  it("counting a plain board n = 10 in pieces: 724 solutions, each once", () => {
    const engine = pickEngine("wasm"), constraints = checkConstraints(10, {}, "test");
    const log: Walk = { solutions: [], splits: [], nodes: 0 };
    walk(engine, 10, [], constraints, [], ENUMERATE, rng(3), 4, log);
    expect(new Set(log.solutions.map((s) => s.join(","))).size).toBe(724);
    expect(log.solutions).toHaveLength(724);
    expect(log.splits.length).toBeGreaterThan(5);
  });

  for (const engineName of ["wasm", "ts"] as const) {
    it(`${engineName}: solve mode (filtering, the lookahead's order): a board found holds no piece given away; exhausted, the pieces hold every solution`, () => {
      const engine = pickEngine(engineName);
      let found = 0, exhausted = 0, splits = 0, ordered = 0;
      for (let i = 0; i < 40; i++) {
        const n = 10 + (i % 5), d = 4 + (i % 7);
        let blocked: Square[];
        try {
          blocked = excludedDiagonalsBoard(n, d, { seed: 1 + i }).blocked;
        } catch {
          continue;
        }
        const constraints = checkConstraints(n, { blocked }, "test");
        const random = rng(300 + i);
        const search = open(engine, n, constraints, SOLVE | COMPLETE_PLAIN | COMPLETE_LOOKAHEAD_ALWAYS);
        const pieces: Square[][] = [];
        let status;
        for (;;) {
          status = search.run(search.work() + 1 + Math.floor(random() * 30));
          if (status !== RUNNING) break;
          if (random() < 0.4) {
            const split = search.split!();
            if (split === null) continue;
            splits++;
            if (split.branches.length > 2 && split.branches.some(([r, c], k) => k > 0 && (split.branches[k - 1][0] > r || split.branches[k - 1][1] > c))) ordered++;
            pieces.push(...splitPrefixes([], [], split));
          }
        }
        const count = (prefix: Square[]): number => {
          const board = prefixConstraints(constraints, prefix);
          if (board.conflict !== null) return 0;
          const s = open(engine, n, board, COUNT);
          expect(s.run(Infinity)).toBe(EXHAUSTED);
          const total = Number(s.solutions!());
          s.close();
          return total;
        };
        const inPieces = pieces.reduce((sum, prefix) => sum + count(prefix), 0);
        if (status === FOUND) {
          found++;
          const columns = Array.from(search.columns());
          for (const prefix of pieces) expect(prefix.every(([r, c]) => columns[r] === c), `board ${i}`).toBe(false);
        } else {
          expect(status).toBe(EXHAUSTED);
          exhausted++;
          expect(inPieces, `board ${i}`).toBe(count([]));
        }
        search.close();
      }
      expect(found).toBeGreaterThan(3);
      expect(exhausted).toBeGreaterThan(3);
      expect(splits).toBeGreaterThan(20);
      expect(ordered).toBeGreaterThan(0); // some split gave branches in the lookahead's order, not lowest first
    });
  }

  it("the portfolio and the wide path never split", () => {
    const engine = pickEngine("wasm");
    const { blocked } = excludedDiagonalsBoard(30, 33, { seed: 1 });
    const constraints = checkConstraints(30, { blocked }, "test");
    const portfolio = open(engine, 30, constraints, SOLVE);
    portfolio.run(5000);
    expect(portfolio.split!()).toBeNull();
    portfolio.close();
    const wide = engine.openSearch("complete", 70, { seed: 0, param: COUNT, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity });
    wide.run(5000);
    expect(wide.split!()).toBeNull();
    wide.close();
  });
});
