// Test helpers for constrained boards, written independently of the
// package: a seeded generator of random constraint sets, a brute-force solver, and a
// checker of boards against given queens and blocked squares.
import { isSolution } from "./helpers.js";

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
