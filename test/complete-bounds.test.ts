// The complete search's diagonal bounds (assembly/diagonal-bounds.ts and its twin): they
// never lose a solution (random boards with whole diagonals blocked, where they cut, against
// a brute force written here, in count, enumeration and solve, on both paths and engines),
// both engines and both paths prune the same nodes, and they do cut (nodes with and without);
// likewise their per-colour form (assembly/colour-bounds.ts), on and off, and solve's lookahead
// near the root (assembly/complete-lookahead.ts lookAhead).
import { describe, expect, it } from "vitest";
import { checkConstraints } from "../src/board/constraints.js";
import { pickEngine } from "../src/engine/select.js";
import { COMPLETE_LOOKAHEAD_ALWAYS, COMPLETE_NO_BOUNDS, COMPLETE_NO_COLOUR_BOUNDS, COMPLETE_NO_LOOKAHEAD, COMPLETE_PLAIN, COMPLETE_RESTART_OFTEN, COMPLETE_WIDE, CompleteSearch } from "../src/engine/ts/complete.js";
import { EXHAUSTED, FOUND } from "../src/engine/contract.js";
import { ENGINES } from "./helpers.js";
import { diagonalBoard, expectSolveRuns, rng, runComplete as run, type Givens, type Pair } from "./constrained.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { BY_COLUMN } from "../src/engine/ts/complete-state.js";

/** Every solution by brute force over the rows (marks of the columns and diagonals taken), as strings. */
function bruteOnce(n: number, givens: Givens): string[] {
  const fixed = new Int32Array(n).fill(-1);
  for (const [r, c] of givens.fixed) fixed[r] = c;
  const blocked = new Uint8Array(n * n);
  for (const [r, c] of givens.blocked) blocked[r * n + c] = 1;
  const out: string[] = [];
  const cols: number[] = [];
  // diagonal r - c is marked at r - c + n - 1
  const col = new Uint8Array(n), sum = new Uint8Array(2 * n), diff = new Uint8Array(2 * n);
  const walk = (r: number): void => {
    if (r === n) {
      out.push(cols.join(","));
      return;
    }
    for (let c = 0; c < n; c++) {
      if (fixed[r] >= 0 && fixed[r] !== c) continue;
      if (blocked[r * n + c] || col[c] || sum[r + c] || diff[r - c + n - 1]) continue;
      col[c] = sum[r + c] = diff[r - c + n - 1] = 1; cols.push(c);
      walk(r + 1);
      col[c] = sum[r + c] = diff[r - c + n - 1] = 0; cols.pop();
    }
  };
  walk(0);
  return out.sort();
}

/**
 * bruteOnce, kept per board: a loop checks each engine's, each path's answer against the same
 * board's brute force, which was most of these tests' time when made again for each.
 */
const bruteCache = new Map<string, readonly string[]>();
function brute(n: number, givens: Givens): readonly string[] {
  const key = JSON.stringify([n, givens]);
  let all = bruteCache.get(key);
  if (all === undefined) bruteCache.set(key, (all = bruteOnce(n, givens)));
  return all;
}

/** An Excluded Diagonals board (CSPLib 079's generator) as the givens the helpers here take. */
function excludedGivens(n: number, d: number, options: { seed: number; minFree?: number }): Givens {
  const { blocked } = excludedDiagonalsBoard(n, d, options);
  return { fixed: [], blocked: blocked.map(([r, c]) => [r, c] as Pair) };
}

/** Independent checker of one solution. */
function valid(columns: ArrayLike<number>, n: number, givens: Givens): boolean {
  return brute(n, givens).includes(Array.from(columns).join(","));
}

/** Independent checker for boards too large for brute force: one queen a row, distinct lines, no blocked square. */
function placed(columns: ArrayLike<number>, n: number, givens: Givens): boolean {
  const blocked = new Set(givens.blocked.map(([r, c]) => r * n + c));
  const col = new Set<number>(), sum = new Set<number>(), diff = new Set<number>();
  for (let r = 0; r < n; r++) {
    const c = columns[r];
    if (!(c >= 0 && c < n) || blocked.has(r * n + c) || col.has(c) || sum.has(r + c) || diff.has(r - c)) return false;
    col.add(c); sum.add(r + c); diff.add(r - c);
  }
  return columns.length === n;
}

/**
 * Random boards a loop below takes: 150 over its range of n (4 or 5 to 10 or 11), about 20 an n,
 * each checked on both engines (and both paths where the loop says) against brute force. 300
 * took the five loops 7.9 s of CPU on one core, 150 take 4.2 s; each loop's own check that its
 * mechanism acted (the bounds cut, the lookahead changed the tree) still counts dozens of boards,
 * so a bound that loses a solution on these boards, or never cuts, still fails its loop.
 */
const BOARDS = 150;

describe("the complete search's diagonal bounds", () => {
  it("never lose a solution: count and enumeration on 150 diagonal-blocked boards equal brute force, both paths and engines alike", () => {
    const random = rng(79);
    let cut = 0, tried = 0;
    for (let i = 0; i < BOARDS; i++) {
      const n = 4 + (i % 7);
      const givens = diagonalBoard(n, random);
      if (checkConstraints(n, givens, "test").conflict !== null) continue;
      tried++;
      const expected = brute(n, givens);
      const counts = [], lists = [];
      for (const engine of ENGINES) {
        for (const wide of [0, COMPLETE_WIDE]) {
          const c = run(engine, n, givens, 2 | wide);
          expect(c.status).toBe(EXHAUSTED);
          expect(c.total).toBe(BigInt(expected.length));
          counts.push(c.nodes);
          const e = run(engine, n, givens, 1 | wide);
          expect(e.found).toEqual(expected);
          lists.push(e.nodes);
        }
      }
      // Both engines, both paths: the same tree.
      expect(new Set(counts).size).toBe(1);
      expect(new Set(lists).size).toBe(1);
      const plain = run("wasm", n, givens, 2 | COMPLETE_NO_BOUNDS);
      expect(plain.total).toBe(BigInt(expected.length));
      expect(counts[0]).toBeLessThanOrEqual(plain.nodes);
      if (counts[0] < plain.nodes) cut++;
    }
    expect(tried).toBeGreaterThan(100);
    expect(cut).toBeGreaterThan(20); // the bounds did prune on these boards (108 of 150 when written)
  });

  it("solve decides 150 diagonal-blocked boards as brute force does (64-bit path, portfolio off; wide path restarting often), both engines identical", () => {
    const random = rng(80);
    for (let i = 0; i < BOARDS; i++) {
      const n = 4 + (i % 8);
      const givens = diagonalBoard(n, random);
      if (checkConstraints(n, givens, "test").conflict !== null) continue;
      const solvable = brute(n, givens).length > 0;
      for (const param of [COMPLETE_PLAIN, COMPLETE_WIDE | COMPLETE_RESTART_OFTEN]) {
        const seen = ENGINES.map((engine) => run(engine, n, givens, param));
        for (const r of seen) {
          expect(r.status).toBe(solvable ? FOUND : EXHAUSTED);
          if (solvable) expect(valid(r.columns, n, givens)).toBe(true);
        }
        expect(seen[1].nodes).toBe(seen[0].nodes);
        expect(seen[1].columns).toEqual(seen[0].columns);
      }
    }
  });

  it("take the same nodes on both engines where the diagonal sets take two words (n = 33 to 64: the kernel's popcount sums against the twin's walk)", () => {
    // Boards (found with the bounds on) whose first solution comes within 160k nodes; the twin
    // walks the usable diagonals one by one, the kernel counts them by popcounts: any difference
    // in a bound or a filtered diagonal changes the tree.
    // Without the lookahead (its order takes 7.6M nodes to n = 64, d = 38, seed 1's first solution, where
    // lowest first takes 149k); with it on the first two boards (6,262 and 21,017 nodes when written).
    const boards = [[33, 22, 1, 1], [36, 24, 1, 1], [40, 26, 1, 0], [64, 40, 3, 0], [64, 38, 1, 0]];
    for (const [n, d, seed, lookahead] of boards) {
      const givens = excludedGivens(n, d, { seed });
      expect(new CompleteSearch(n, checkConstraints(n, givens, "test"), 0, Infinity).bounds).toBe(true);
      for (const param of lookahead ? [COMPLETE_PLAIN | COMPLETE_NO_LOOKAHEAD, COMPLETE_PLAIN] : [COMPLETE_PLAIN | COMPLETE_NO_LOOKAHEAD]) {
        const seen = ENGINES.map((engine) => run(engine, n, givens, param));
        for (const r of seen) {
          expect(r.status).toBe(FOUND);
          expect(placed(r.columns, n, givens)).toBe(true);
        }
        expect(seen[1].nodes).toBe(seen[0].nodes);
        expect(seen[1].columns).toEqual(seen[0].columns);
      }
    }
  });

  it("prove Excluded Diagonals boards that plain search must walk: n = 16, 20 diagonals, at the root", () => {
    // Board found by this test's search for one the bounds refute at once (the moment bound: the
    // queens are pushed onto far diagonals); its count by brute force is 0.
    const n = 16;
    let shown = 0;
    for (let seed = 1; seed <= 12 && shown < 2; seed++) {
      const givens = excludedGivens(n, 20, { seed });
      const withBounds = ENGINES.map((engine) => run(engine, n, givens, 2));
      const without = run("wasm", n, givens, 2 | COMPLETE_NO_BOUNDS);
      expect(withBounds[0].total).toBe(without.total);
      expect(withBounds[1].nodes).toBe(withBounds[0].nodes);
      expect(withBounds[0].nodes).toBeLessThanOrEqual(without.nodes);
      if (without.total === 0n && withBounds[0].nodes === 1 && without.nodes > 100) {
        expect(brute(n, givens)).toEqual([]);
        shown++;
      }
    }
    expect(shown).toBeGreaterThan(0);
  });

  it("per colour (colour-bounds.ts), cut further and lose no solution: 150 diagonal-blocked boards against brute force, and Excluded Diagonals boards refuted at the root", () => {
    const random = rng(81);
    let cut = 0, tried = 0;
    for (let i = 0; i < BOARDS; i++) {
      const n = 5 + (i % 7);
      const givens = diagonalBoard(n, random);
      if (checkConstraints(n, givens, "test").conflict !== null) continue;
      tried++;
      const expected = BigInt(brute(n, givens).length);
      const seen = ENGINES.map((engine) => run(engine, n, givens, 2));
      const wide = ENGINES.map((engine) => run(engine, n, givens, 2 | COMPLETE_WIDE));
      const without = run("wasm", n, givens, 2 | COMPLETE_NO_COLOUR_BOUNDS);
      for (const r of [...seen, ...wide, without]) expect(r.total).toBe(expected);
      expect(new Set([...seen, ...wide].map((r) => r.nodes)).size).toBe(1);
      expect(seen[0].nodes).toBeLessThanOrEqual(without.nodes);
      if (seen[0].nodes < without.nodes) cut++;
    }
    expect(tried).toBeGreaterThan(100);
    expect(cut).toBeGreaterThan(25); // 54 of 150 (103 of 300) when written
    // Boards (found by a search of CSPLib 079's generator at n = 14 to 20) that the per-colour bounds
    // refute at once and the bounds over both colours only after hundreds or thousands of nodes.
    for (const [n, d, seed] of [[16, 18, 1], [16, 18, 3], [14, 18, 9]]) {
      const givens = excludedGivens(n, d, { seed });
      const refuted = ENGINES.map((engine) => run(engine, n, givens, 2));
      const without = run("wasm", n, givens, 2 | COMPLETE_NO_COLOUR_BOUNDS);
      for (const r of refuted) {
        expect(r.nodes).toBe(1);
        expect(r.total).toBe(0n);
      }
      expect(without.total).toBe(0n);
      expect(without.nodes).toBeGreaterThan(100);
      expect(brute(n, givens)).toEqual([]);
    }
  });

  it("solve's lookahead (lookAhead): the same answers as brute force on 150 diagonal-blocked boards, at every level and off, both engines node for node; counting untouched", () => {
    // These boards are too small for the lookahead's default reach (22 rows left or more): the test bit takes it to every level.
    const random = rng(83);
    let changed = 0;
    for (let i = 0; i < BOARDS; i++) {
      const n = 5 + (i % 7);
      const givens = diagonalBoard(n, random);
      if (checkConstraints(n, givens, "test").conflict !== null) continue;
      const all = brute(n, givens);
      const seen = ENGINES.map((engine) => run(engine, n, givens, COMPLETE_PLAIN | COMPLETE_LOOKAHEAD_ALWAYS));
      const without = run("wasm", n, givens, COMPLETE_PLAIN | COMPLETE_NO_LOOKAHEAD);
      const usual = run("wasm", n, givens, COMPLETE_PLAIN);
      expect(usual.nodes).toBe(without.nodes); // below 22 rows the default never looks ahead
      expectSolveRuns(all, seen, [without]);
      if (seen[0].nodes !== without.nodes) changed++;
      if (i % 10 === 0) {
        // Counting never looks ahead: the same tree with the bit on or off.
        const counted = run("wasm", n, givens, 2), counted2 = run("wasm", n, givens, 2 | COMPLETE_LOOKAHEAD_ALWAYS);
        expect(counted.total).toBe(BigInt(all.length));
        expect(counted2.nodes).toBe(counted.nodes);
      }
    }
    expect(changed).toBeGreaterThan(15); // the lookahead ran and changed the tree on these boards (50 of 150 when written)
    // At its default reach: Excluded Diagonals n = 26, d = 28, seed 15 (minFree 1), found by a search of
    // seeds 7 to 16 for a proof it shortens: 35,661 nodes with it, 82,268 without, when written.
    const givens = excludedGivens(26, 28, { seed: 15, minFree: 1 });
    const proofs = ENGINES.map((engine) => run(engine, 26, givens, COMPLETE_PLAIN));
    const plain = run("wasm", 26, givens, COMPLETE_PLAIN | COMPLETE_NO_LOOKAHEAD);
    for (const r of [...proofs, plain]) expect(r.status).toBe(EXHAUSTED);
    expect(proofs[1].nodes).toBe(proofs[0].nodes);
    expect(proofs[0].nodes * 2).toBeLessThan(plain.nodes);
  });

  it("solve's lookahead counts every free column's takers where build's bit planes stop (7): n = 30, d = 36, seed 4 branches at the root on a column with 10", () => {
    const n = 30;
    const givens = excludedGivens(n, 36, { seed: 4 });
    const blocked = new Set(givens.blocked.map(([r, c]) => r * n + c));
    const open = (r: number, c: number) => !blocked.has(r * n + c);
    const rowSquares = Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => c).filter((c) => open(r, c)));
    const colSquares = Array.from({ length: n }, (_, c) => Array.from({ length: n }, (_, r) => r).filter((r) => open(r, c)));
    // The board's fewest: rows with 11 squares, column 27 with 10 (more than build's planes count).
    expect(Math.min(...rowSquares.map((s) => s.length))).toBe(11);
    expect(colSquares[27].length).toBe(10);
    expect(Math.min(...colSquares.map((s) => s.length))).toBe(10);
    const root = new CompleteSearch(n, checkConstraints(n, givens, "test"), 0, Infinity).rootBranch();
    expect(root).not.toBeNull();
    expect(root!.kind).toBe(BY_COLUMN);
    expect(root!.index).toBe(27);
    expect(root!.squares.map(([r]) => r).sort((a, b) => a - b)).toEqual(colSquares[27]); // each of its squares survives the lookahead
    // Both engines take the same first 100,000 nodes (and the lookahead's builds of the node where the cap
    // falls) and stand on the same partial board.
    const constraints = checkConstraints(n, givens, "test");
    const seen = ENGINES.map((engine) => {
      const search = pickEngine(engine).openSearch("complete", n, { seed: 0, param: COMPLETE_PLAIN, maxNodes: 100_000, maxSteps: Infinity, maxTries: Infinity, constraints });
      try {
        return { status: search.run(Infinity), nodes: search.stats().nodes, columns: Array.from(search.columns()) };
      } finally {
        search.close();
      }
    });
    expect(seen[0].nodes).toBeGreaterThanOrEqual(100_000);
    expect(seen[1]).toEqual(seen[0]);
  });

  it("per colour, filter in solve (colourForbidden): the same answers as brute force on 150 diagonal-blocked boards with fewer nodes, and an n = 30 board proved at the root", () => {
    const random = rng(82);
    let cut = 0;
    for (let i = 0; i < BOARDS; i++) {
      const n = 5 + (i % 7);
      const givens = diagonalBoard(n, random);
      if (checkConstraints(n, givens, "test").conflict !== null) continue;
      const solvable = brute(n, givens).length > 0;
      // Without the lookahead on either side, which changes the tree (tested on its own).
      const seen = ENGINES.map((engine) => run(engine, n, givens, COMPLETE_PLAIN | COMPLETE_NO_LOOKAHEAD));
      const without = run("wasm", n, givens, COMPLETE_PLAIN | COMPLETE_NO_LOOKAHEAD | COMPLETE_NO_COLOUR_BOUNDS);
      for (const r of [...seen, without]) {
        expect(r.status).toBe(solvable ? FOUND : EXHAUSTED);
        if (solvable) expect(valid(r.columns, n, givens)).toBe(true);
      }
      expect(seen[1].nodes).toBe(seen[0].nodes);
      expect(seen[1].columns).toEqual(seen[0].columns);
      if (!solvable) {
        expect(seen[0].nodes).toBeLessThanOrEqual(without.nodes);
        if (seen[0].nodes < without.nodes) cut++;
      }
    }
    expect(cut).toBeGreaterThan(15); // 32 of 150 (61 of 300) when written
    // Excluded Diagonals, n = 30, d = 36, seed 3: refuted at the root once the per-colour filtering has taken diagonals away;
    // the same 64-bit solve without the per-colour bounds (the lookahead on in both) walks about 250,000 nodes to the
    // same answer (without the lookahead too, about 1.6 million: six times the time, to show the same).
    const givens = excludedGivens(30, 36, { seed: 3, minFree: 1 });
    for (const engine of ENGINES) {
      const r = run(engine, 30, givens, COMPLETE_PLAIN);
      expect(r.status).toBe(EXHAUSTED);
      expect(r.nodes).toBe(1);
    }
    const plain = run("wasm", 30, givens, COMPLETE_PLAIN | COMPLETE_NO_COLOUR_BOUNDS);
    expect(plain.status).toBe(EXHAUSTED);
    expect(plain.nodes).toBeGreaterThan(200_000);
  });
});
