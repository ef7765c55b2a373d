// Test helpers for constrained boards, written independently of the
// package: a seeded generator of random constraint sets, a brute-force solver, and a
// checker of boards against given queens and blocked squares; and a run of the package's
// complete search on a board (runComplete), which the tests compare with them.
import { isSolution } from "./helpers.js";
import { checkConstraints } from "../src/board/constraints.js";
import { pickEngine } from "../src/engine/select.js";
import { EXHAUSTED, FOUND } from "../src/engine/contract.js";
import { expect } from "vitest";

export type Pair = [number, number];
export type Givens = { fixed: Pair[]; blocked: Pair[] };

/** mulberry32: a small seeded generator for the test's random instances. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random constraint set: up to `maxFixed` given queens (sometimes attacking each
 * other or on a blocked square, as users give them) and about `blockRate` of the squares blocked.
 */
export function randomGivens(n: number, random: () => number, maxFixed: number, blockRate: number): Givens {
  const fixed: Pair[] = [];
  const blocked: Pair[] = [];
  const k = Math.floor(random() * (maxFixed + 1));
  for (let i = 0; i < k; i++) fixed.push([Math.floor(random() * n), Math.floor(random() * n)]);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (random() < blockRate) blocked.push([r, c]);
  return { fixed, blocked };
}

/** True when `columns` is a solution that keeps every given queen and uses no blocked square. */
export function honours(columns: ArrayLike<number> | null, n: number, givens: Givens): boolean {
  if (columns === null || columns.length !== n || !isSolution(columns)) return false;
  for (const [r, c] of givens.fixed) if (columns[r] !== c) return false;
  for (const [r, c] of givens.blocked) if (columns[r] === c) return false;
  return true;
}

/**
 * Every solution of the constrained board, by trying each permutation row by row (n <= 8 or
 * so), leaving a partial board as soon as its newest queen is on an earlier one's diagonal, a
 * blocked square or off its row's given queen (no completion of it could be honoured): each
 * full board is still checked by honours.
 */
export function bruteForce(n: number, givens: Givens): number[][] {
  const all: number[][] = [];
  const cols: number[] = [];
  const blocked = new Set(givens.blocked.map(([r, c]) => r * n + c));
  const broken = (r: number, c: number): boolean =>
    blocked.has(r * n + c) || givens.fixed.some(([fr, fc]) => fr === r && fc !== c) || cols.some((d, q) => Math.abs(d - c) === r - q);
  const place = (r: number): void => {
    if (r === n) {
      if (honours(cols, n, givens)) all.push([...cols]);
      return;
    }
    for (let c = 0; c < n; c++) {
      if (cols.includes(c) || broken(r, c)) continue;
      cols.push(c);
      place(r + 1);
      cols.pop();
    }
  };
  place(0);
  return all;
}

/** A board with whole diagonals blocked (where the bounds bite), a few squares more, and maybe a given queen. */
export function diagonalBoard(n: number, random: () => number): Givens {
  const blocked = new Set<number>();
  const lines = Math.floor(random() * n * 1.6);
  for (let i = 0; i < lines; i++) {
    const k = Math.floor(random() * (2 * n - 1));
    const sumLine = random() < 0.5;
    for (let r = 0; r < n; r++) {
      const c = sumLine ? k - r : r - (k - (n - 1));
      if (c >= 0 && c < n) blocked.add(r * n + c);
    }
  }
  for (let i = 0; i < n / 2; i++) blocked.add(Math.floor(random() * n * n));
  const fixed: Pair[] = [];
  if (random() < 0.3) {
    const r = Math.floor(random() * n), c = Math.floor(random() * n);
    if (!blocked.has(r * n + c)) fixed.push([r, c]);
  }
  return { fixed, blocked: [...blocked].filter((s) => !fixed.some(([r, c]) => r * n + c === s)).map((s) => [Math.floor(s / n), s % n] as Pair) };
}

type Run = { status: number; nodes: number; total: bigint; found: string[]; columns: number[] };

/** The complete search of `engine` on a board, to its end (enumeration: every solution), with `param`'s bits. */
export function runComplete(engine: "wasm" | "ts", n: number, givens: Givens, param: number, maxNodes = Infinity): Run {
  const constraints = checkConstraints(n, givens, "test");
  const search = pickEngine(engine).openSearch("complete", n, { seed: 0, param, maxNodes, maxSteps: Infinity, maxTries: Infinity, constraints });
  try {
    const found: string[] = [];
    let status = search.run(Infinity);
    if ((param & 3) === 1) for (; status === FOUND; status = search.run(Infinity)) found.push(search.columns().join(","));
    return { status, nodes: search.stats().nodes, total: search.solutions!(), found: found.sort(), columns: Array.from(search.columns()) };
  } finally {
    search.close();
  }
}

/**
 * Solve's runs on one board against its brute-force solutions (`all`, as "c0,c1,..." strings):
 * each found board is one of them, "none" only where there is none; the two engines' runs
 * (`engines`, as ENGINES) the same nodes and the same board.
 */
export function expectSolveRuns(all: readonly string[], engines: Run[], others: Run[]): void {
  for (const r of [...engines, ...others]) {
    expect(r.status).toBe(all.length > 0 ? FOUND : EXHAUSTED);
    if (all.length > 0) expect(all).toContain(r.columns.join(","));
  }
  expect(engines[1].nodes).toBe(engines[0].nodes);
  expect(engines[1].columns).toEqual(engines[0].columns);
}
