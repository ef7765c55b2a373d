// The complete search's wide path (past n = 64: assembly/complete-wide.ts and its twin):
// boards of 65 to 1000 rows solved and checked here, counts and enumerations equal to the
// 64-bit path's (forced onto the wide path at small n) and to an independent brute force
// at n = 65..70, both engines walking the same tree, abort and timeouts on wide boards.
import { describe, expect, it } from "vitest";
import { count, solutions, solve } from "../src/index.js";
import { checkConstraints } from "../src/board/constraints.js";
import { pickEngine } from "../src/engine/select.js";
import { COMPLETE_PORTFOLIO_SMALL, COMPLETE_RESTART_OFTEN, COMPLETE_ROTATE, COMPLETE_WIDE, CompleteSearch, restartsShareParam } from "../src/engine/ts/complete.js";
import { Portfolio } from "../src/engine/ts/complete-portfolio.js";
import { EXHAUSTED, FOUND } from "../src/engine/contract.js";
import { ENGINES } from "./helpers.js";
import { bruteForce, honours, randomGivens, rng, runComplete, type Givens, type Pair } from "./constrained.js";
import { excludedDiagonalsBoard, excludedDiagonalsList, diagonalSquares } from "../src/board/excluded-diagonals.js";

/** Independent checker: n queens, one per row, none attacking, givens kept, no block used. */
function verified(columns: ArrayLike<number> | null, n: number, givens: Givens): boolean {
  if (columns === null || columns.length !== n) return false;
  const col = new Set<number>(), sum = new Set<number>(), diff = new Set<number>();
  for (let r = 0; r < n; r++) {
    const c = columns[r];
    if (!Number.isInteger(c) || c < 0 || c >= n || col.has(c) || sum.has(r + c) || diff.has(r - c)) return false;
    col.add(c); sum.add(r + c); diff.add(r - c);
  }
  return honours(columns, n, givens);
}

/** Every solution (as strings), its count and nodes, by the complete search in `mode` (1 enumerate, 2 count). */
function run(engine: "wasm" | "ts", n: number, givens: Givens, mode: number, wide: boolean) {
  const constraints = checkConstraints(n, givens, "test");
  const search = pickEngine(engine).openSearch("complete", n, {
    seed: 0, param: mode | (wide ? COMPLETE_WIDE : 0), maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity, constraints,
  });
  const found: string[] = [];
  try {
    if (mode === 2) expect(search.run(Infinity)).toBe(EXHAUSTED);
    else for (let s = search.run(Infinity); s === FOUND; s = search.run(Infinity)) found.push(search.columns().join(","));
    return { found, total: search.solutions!(), nodes: search.stats().nodes };
  } finally {
    search.close();
  }
}

/** Brute force over the rows without a given queen (row order, sets): the number of completions. */
function bruteCount(n: number, givens: Givens): number {
  const fixed = new Map<number, number>(givens.fixed.map(([r, c]) => [r, c]));
  const blocked = new Set(givens.blocked.map(([r, c]) => r * n + c));
  const col = new Set<number>(), sum = new Set<number>(), diff = new Set<number>();
  for (const [r, c] of fixed) {
    if (blocked.has(r * n + c) || col.has(c) || sum.has(r + c) || diff.has(r - c)) return 0;
    col.add(c); sum.add(r + c); diff.add(r - c);
  }
  const free = Array.from({ length: n }, (_, r) => r).filter((r) => !fixed.has(r));
  const walk = (i: number): number => {
    if (i === free.length) return 1;
    const r = free[i];
    let total = 0;
    for (let c = 0; c < n; c++) {
      if (blocked.has(r * n + c) || col.has(c) || sum.has(r + c) || diff.has(r - c)) continue;
      col.add(c); sum.add(r + c); diff.add(r - c);
      total += walk(i + 1);
      col.delete(c); sum.delete(r + c); diff.delete(r - c);
    }
    return total;
  };
  return walk(0);
}

/** A solvable wide board: a few queens of a constructed solution given, a few squares blocked elsewhere. */
async function wideBoard(n: number, seed: number): Promise<Givens> {
  const plain = await solve(n, { method: "construct" });
  const random = rng(seed);
  const fixed: Pair[] = [], blocked: Pair[] = [];
  for (let i = 0; i < 3; i++) {
    const r = Math.floor(random() * n);
    if (!fixed.some(([q]) => q === r)) fixed.push([r, plain.columns![r]]);
  }
  for (let i = 0; i < n; i++) blocked.push([Math.floor(random() * n), Math.floor(random() * n)]);
  return { fixed, blocked: blocked.filter(([r, c]) => plain.columns![r] !== c && !fixed.some(([q]) => q === r)) };
}

describe("the complete search past n = 64", () => {
  it("solves boards of n = 65, 100, 200 and 1000 with givens and blocks, checked here, both engines identical", async () => {
    for (const n of [65, 100, 200, 1000]) {
      const givens = await wideBoard(n, n);
      const results = [];
      for (const engine of ENGINES) {
        const r = await solve(n, { method: "complete", engine, ...givens });
        expect(r.found).toBe(true);
        expect(verified(r.columns, n, givens)).toBe(true);
        results.push(r);
      }
      expect(results[1].columns).toEqual(results[0].columns);
      expect(results[1].nodes).toBe(results[0].nodes);
    }
  });

  it("counts and enumerates exactly as the 64-bit path on 300 random small boards forced onto the wide path", () => {
    const random = rng(64);
    let nonzero = 0;
    for (let i = 0; i < 300; i++) {
      const n = 1 + (i % 9);
      const givens = randomGivens(n, random, i % 3, [0.05, 0.15, 0.3][i % 3]);
      if (checkConstraints(n, givens, "test").conflict !== null) continue;
      const narrow = run("wasm", n, givens, 2, false);
      for (const engine of ENGINES) {
        const counted = run(engine, n, givens, 2, true);
        expect(counted.total).toBe(narrow.total);
        expect(counted.nodes).toBe(narrow.nodes); // the branches' order does not change the tree
        const listed = run(engine, n, givens, 1, true);
        expect(BigInt(listed.found.length)).toBe(narrow.total);
        expect(new Set(listed.found).size).toBe(listed.found.length);
        for (const s of listed.found) expect(verified(s.split(",").map(Number), n, givens)).toBe(true);
      }
      if (narrow.total > 0n) nonzero++;
    }
    expect(nonzero).toBeGreaterThan(50);
  });

  it("counts boards of n = 65..70 with most rows given as an independent brute force does, both engines", async () => {
    for (let n = 65; n <= 70; n++) {
      const plain = await solve(n, { method: "construct" });
      const random = rng(n);
      const open = new Set<number>();
      while (open.size < 9) open.add(Math.floor(random() * n));
      const fixed: Pair[] = [];
      for (let r = 0; r < n; r++) if (!open.has(r)) fixed.push([r, plain.columns![r]]);
      const blocked: Pair[] = [];
      for (const r of open) for (let c = 0; c < n; c++) if (random() < 0.1) blocked.push([r, c]);
      const givens = { fixed, blocked };
      const expected = BigInt(bruteCount(n, givens));
      for (const engine of ENGINES) {
        expect((await count(n, { engine, ...givens })).total).toBe(expected);
        const listed = [...solutions(n, { engine, ...givens })];
        expect(BigInt(listed.length)).toBe(expected);
        for (const s of listed) expect(verified(s, n, givens)).toBe(true);
      }
    }
  });

  it("a count of n = 300 honours abort and timeoutMs (the latency: npm run bench -- --only abort)", async () => {
    for (const engine of ENGINES) {
      const t0 = performance.now();
      const timed = await count(300, { engine, blocked: [[0, 0]], timeoutMs: 100 }).then(() => null, (e: unknown) => e);
      expect((timed as { code?: string }).code).toBe("NQ_TIMEOUT");
      expect(performance.now() - t0).toBeGreaterThanOrEqual(99); // not before the limit
      expect(performance.now() - t0).toBeLessThan(20_000); // a hang guard, not a latency bound: a loaded machine must not fail it
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const t1 = performance.now();
      const aborted = await count(300, { engine, blocked: [[0, 0]], signal: controller.signal }).then(() => null, (e: unknown) => e);
      expect((aborted as Error).name).toBe("AbortError");
      expect(performance.now() - t1).toBeLessThan(20_000); // a hang guard (the count takes years)
    }
  });

  it("solve on the wide path, restarts and all (rotating through the root's branches or not), decides 250 random small boards as brute force does, both engines identical", () => {
    const random = rng(65);
    let restarted = 0, rotated = 0;
    for (let i = 0; i < 250; i++) {
      const n = 4 + (i % 5);
      const givens = randomGivens(n, random, i % 2, [0.1, 0.2, 0.3, 0.4][i % 4]);
      const constraints = checkConstraints(n, givens, "test");
      if (constraints.conflict !== null) continue;
      const expected = bruteForce(n, givens).length > 0;
      const seen = [];
      for (const param of [COMPLETE_WIDE | COMPLETE_RESTART_OFTEN, COMPLETE_WIDE | COMPLETE_RESTART_OFTEN | COMPLETE_ROTATE]) {
        for (const engine of ENGINES) {
          const search = pickEngine(engine).openSearch("complete", n, {
            seed: 0, param, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity, constraints,
          });
          const status = search.run(Infinity);
          expect(status).toBe(expected ? FOUND : EXHAUSTED);
          if (expected) expect(verified(search.columns(), n, givens)).toBe(true);
          seen.push({ nodes: search.stats().nodes, columns: Array.from(search.columns()) });
          search.close();
        }
      }
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[3]).toEqual(seen[2]);
      if (seen[0].nodes > 1 + n) restarted++; // past the first run's cutoff
      if (seen[2].nodes !== seen[0].nodes) rotated++; // the rotation took another path
    }
    expect(restarted).toBeGreaterThan(10);
    expect(rotated).toBeGreaterThan(10);
  });

  it("the rotating restarts shared out (turn t of m searches): each share's restarts are the one search's of the same number, so the share holding the one search's find makes it, in fewer nodes; both engines identical", () => {
    // Excluded Diagonals boards the restarting search finds after restarts (the first run's cutoff small: RESTART_OFTEN).
    let fewer = 0, twins = 0;
    for (const [n, d, seed, minFree] of [[22, 20, 3, 1], [21, 18, 2, 4], [20, 16, 1, 1], [25, 21, 2, 4], [22, 16, 2, 1]]) {
      const { blocked } = excludedDiagonalsBoard(n, d, { seed, minFree });
      const rotating = (share: { turn: number; of: number }): number => COMPLETE_WIDE | COMPLETE_ROTATE | COMPLETE_RESTART_OFTEN | restartsShareParam(share);
      const search = (engine: "wasm" | "ts", share: { turn: number; of: number }) => {
        const { status, nodes, columns } = runComplete(engine, n, { fixed: [], blocked: blocked.map(([r, c]): Pair => [r, c]) }, rotating(share), 2_000_000);
        return { status, nodes, columns: status === FOUND ? columns : null };
      };
      const whole = search("wasm", { turn: 0, of: 1 });
      expect(whole.status).toBe(FOUND);
      expect(verified(whole.columns, n, { fixed: [], blocked: blocked.map(([r, c]): Pair => [r, c]) })).toBe(true);
      for (const of of [2, 3]) {
        const shares = Array.from({ length: of }, (_, turn) => search("wasm", { turn, of }));
        // (the reference engine, several times slower, on the boards the search finds within 100k nodes)
        if (whole.nodes < 100_000) for (let turn = 0; turn < of; turn++, twins++) expect(search("ts", { turn, of })).toEqual(shares[turn]);
        for (const r of shares) if (r.columns) expect(verified(r.columns, n, { fixed: [], blocked: blocked.map(([row, c]): Pair => [row, c]) })).toBe(true);
        // (another share may meet the same board in a later restart of its own: the holder is the one with the fewest nodes)
        const holder = shares.filter((r) => JSON.stringify(r.columns) === JSON.stringify(whole.columns)).sort((x, y) => x.nodes - y.nodes)[0];
        expect(holder, `n = ${n}, d = ${d}, seed ${seed}: no share of ${of} finds the one search's board`).toBeDefined();
        expect(holder!.nodes).toBeLessThanOrEqual(whole.nodes);
        if (holder!.nodes < whole.nodes) fewer++;
      }
    }
    expect(fewer).toBeGreaterThan(5);
    expect(twins).toBeGreaterThan(4);
    // A given queen: the root's line has one square, so a rotation cycle is one restart long; the shares still
    // divide the restarts by number, not repeat each other's.
    const { blocked } = excludedDiagonalsBoard(22, 20, { seed: 3 });
    const givens: Givens = { fixed: [[0, 10]], blocked: blocked.map(([r, c]): Pair => [r, c]) };
    const shares = [0, 1, 2].map((turn) => {
      const { nodes, columns } = runComplete("wasm", 22, givens, COMPLETE_WIDE | COMPLETE_ROTATE | COMPLETE_RESTART_OFTEN | restartsShareParam({ turn, of: 3 }), 100_000);
      return JSON.stringify([nodes, columns]);
    });
    expect(new Set(shares).size).toBe(3);
  });

  it("solve's portfolio (past 2^18 nodes at n <= 64) answers an Excluded Diagonals board on both engines alike", async () => {
    const { blocked } = excludedDiagonalsBoard(30, 28, { seed: 1 });
    const results = [];
    for (const engine of ENGINES) {
      const r = await solve(30, { method: "complete", engine, blocked });
      expect(r.found).toBe(true);
      expect(verified(r.columns, 30, { fixed: [], blocked: blocked.map(([r, c]) => [r, c] as Pair) })).toBe(true);
      results.push(r);
    }
    expect(results[0].nodes).toBeGreaterThan(2 ** 18); // the portfolio ran
    expect(results[1].nodes).toBe(results[0].nodes);
    expect(results[1].columns).toEqual(results[0].columns);
  });

  it("solve's portfolio scaled down (a test bit) takes every turn of it on both engines alike: the 64-bit search's start again with the lookahead, and the shares that move past the halving point", () => {
    // PORTFOLIO_SMALL: the first run 4,096 nodes, slices of 1,024, shares moving past 65,536 nodes in all.
    // The board: found by a search of a few n = 26 boards for one decided past that point (168,139 nodes when written).
    const BOARD = { n: 26, d: 29, seed: 11, found: true };
    const { blocked } = excludedDiagonalsBoard(BOARD.n, BOARD.d, { seed: BOARD.seed, minFree: 1 });
    const givens: Givens = { fixed: [], blocked: blocked.map(([r, c]) => [r, c] as Pair) };
    const constraints = checkConstraints(BOARD.n, givens, "test");
    const seen = ENGINES.map((engine) => {
      const search = pickEngine(engine).openSearch("complete", BOARD.n, { seed: 0, param: COMPLETE_PORTFOLIO_SMALL, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity, constraints });
      try {
        const status = search.run(Infinity);
        return { status, nodes: search.stats().nodes, columns: Array.from(search.columns()) };
      } finally {
        search.close();
      }
    });
    expect(seen[0].status).toBe(BOARD.found ? FOUND : EXHAUSTED);
    if (BOARD.found) expect(verified(seen[0].columns, BOARD.n, givens)).toBe(true);
    expect(seen[0].nodes).toBeGreaterThan(65_536); // past the point where the shares move
    expect(seen[1]).toEqual(seen[0]);
  });

  it("the portfolio's estimate of the 64-bit tree (complete-estimate.ts) leaves that search where it stood, and tells a proof in reach from a tree out of reach", () => {
    const board = (n: number, d: number, seed: number, minFree: number) => checkConstraints(n, { blocked: excludedDiagonalsBoard(n, d, { seed, minFree }).blocked }, "test");
    // The same search with and without an estimate in the middle: the same state after, nodes apart by the probes' levels.
    const k = board(30, 36, 4, 1);
    const a = new CompleteSearch(30, k, 0, Infinity), b = new CompleteSearch(30, k, 0, Infinity);
    a.run(20_000);
    b.run(20_000);
    const before = a.nodes;
    const estimate = a.estimate();
    const probes = a.nodes - before;
    expect(probes).toBeGreaterThan(256); // a node a level built, the root's copy and at least one a probe
    a.run(50_000 + probes);
    b.run(50_000);
    expect(a.nodes - probes).toBe(b.nodes);
    expect(a.depth).toBe(b.depth);
    expect(Array.from(a.cols)).toEqual(Array.from(b.cols));
    expect(Array.from(a.restLo.subarray(0, 31))).toEqual(Array.from(b.restLo.subarray(0, 31)));
    // A proof solve gives in 31M nodes (estimated about 10^8 here) against a board the restarting search finds (about 10^15).
    expect(estimate).toBeGreaterThan(1e6);
    expect(estimate).toBeLessThan(1e10);
    expect(new CompleteSearch(36, board(36, 33, 2, 4), 0, Infinity).estimate()).toBeGreaterThan(1e12);
  });

  it("solve's portfolio keeps equal shares where the 64-bit tree is out of reach (10^10 nodes estimated), both engines alike", () => {
    // PORTFOLIO_SMALL: the shares would start moving past 65,536 nodes; cut at 300,000 nodes in all
    // (the restarting search's share when written: 0.485 out of reach, 0.321 in reach; at 400,000
    // nodes 0.489 and 0.281, for a third more CPU). Since the 64-bit search's slices are 0.75 of the
    // restarting search's once it branches on the needed diagonals (NEEDED_SLICE), equal shares give the
    // restarting search about 1 / 1.75 of the nodes: 0.553 and 0.379 at 300,000 nodes.
    const share = (n: number, d: number, seed: number, minFree: number) => {
      const constraints = checkConstraints(n, { blocked: excludedDiagonalsBoard(n, d, { seed, minFree }).blocked }, "test");
      const narrow = new CompleteSearch(n, constraints, 0, Infinity, true, true, true, true);
      const portfolio = new Portfolio(narrow, constraints, 300_000, true, true, true);
      expect(portfolio.run(Infinity)).toBe(3); // MAX_NODES
      // The twin's portfolio (held here, to read its 64-bit search's nodes) against the kernel's.
      const search = pickEngine("wasm").openSearch("complete", n, { seed: 0, param: COMPLETE_PORTFOLIO_SMALL, maxNodes: 300_000, maxSteps: Infinity, maxTries: Infinity, constraints });
      try {
        expect(search.run(Infinity)).toBe(3);
        expect(search.stats().nodes).toBe(portfolio.nodes);
        expect(Array.from(search.columns())).toEqual(Array.from(portfolio.cols));
      } finally {
        search.close();
      }
      return (portfolio.nodes - narrow.nodes + 1) / portfolio.nodes; // the restarting search's share
    };
    const [outOfReach, inReach] = [share(36, 33, 2, 4), share(30, 36, 4, 1)];
    expect(outOfReach).toBeGreaterThan(0.52); // out of reach: equal shares (in time)
    expect(inReach).toBeLessThan(0.42); // in reach: the 64-bit search's share grows
  });

  it("the Excluded Diagonals generator follows its rules: listed diagonals keep minFree squares per line, the rest would not", () => {
    for (const [n, minFree, seed] of [[10, 4, 1], [12, 2, 5], [30, 1, 3]]) {
      const list = excludedDiagonalsList(n, minFree, seed);
      const names = new Set(list.map((d) => `${d.kind}${d.index}`));
      expect(names.size).toBe(list.length);
      const blocked = new Uint8Array(n * n);
      for (const d of list) for (const [r, c] of diagonalSquares(n, d)) blocked[r * n + c] = 1;
      for (let i = 0; i < n; i++) {
        let row = 0, col = 0;
        for (let j = 0; j < n; j++) { row += 1 - blocked[i * n + j]; col += 1 - blocked[j * n + i]; }
        expect(Math.min(row, col)).toBeGreaterThanOrEqual(minFree);
      }
      // Every diagonal left off the list would take some line below minFree once the whole list is excluded.
      for (let k = 0; k <= 2 * n - 2; k++) {
        for (const kind of ["sum", "difference"] as const) {
          if (names.has(`${kind}${k}`)) continue;
          const extra = blocked.slice();
          for (const [r, c] of diagonalSquares(n, { kind, index: k })) extra[r * n + c] = 1;
          let short = false;
          for (let i = 0; i < n && !short; i++) {
            let row = 0, col = 0;
            for (let j = 0; j < n; j++) { row += 1 - extra[i * n + j]; col += 1 - extra[j * n + i]; }
            short = row < minFree || col < minFree;
          }
          expect(short).toBe(true);
        }
      }
      const board = excludedDiagonalsBoard(n, Math.min(5, list.length), { seed, minFree });
      for (const [r, c] of board.blocked) expect(board.diagonals.some((d) => (d.kind === "sum" ? r + c : r - c + n - 1) === d.index)).toBe(true);
    }
    expect(diagonalSquares(10, { kind: "difference", index: 5 })).toEqual([[0, 4], [1, 5], [2, 6], [3, 7], [4, 8], [5, 9]]);
    expect(() => excludedDiagonalsBoard(10, 500, { seed: 1, minFree: 4 })).toThrow(RangeError);
  });

  it("refuses n past the largest with a coded RangeError", async () => {
    const e = await count(1001, { blocked: [[0, 0]] }).then(() => null, (err: unknown) => err as Error & { code?: string });
    expect(e?.code).toBe("NQ_INVALID_ARGUMENT");
    expect(e?.message).toMatch(/1000/);
  });
});
