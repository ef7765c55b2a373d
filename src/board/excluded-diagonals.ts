// Excluded Diagonals boards, the generator CSPLib problem 079 recommends for hard
// n-Queens Completion instances (Gent, Jefferson and Nightingale, "Complexity of
// n-Queens Completion", JAIR 59, 2017), written here from its published rules:
// every diagonal of the board in a seeded random order; a diagonal goes on the list
// unless excluding it, together with those already listed, would leave some row or
// column with fewer than `minFree` squares; an instance of size d excludes the first d
// diagonals of the list (every square of them blocked). Diagonals are named as the
// published generator names them: a sum diagonal k holds the squares with r + c = k,
// a difference diagonal k those with r - c = k - (n - 1), 0 <= k <= 2n - 2.
import { invalid } from "../core/errors.js";
import { describe } from "../core/validate.js";
import type { Square } from "./constraints.js";

export type ExcludedDiagonal = { kind: "sum" | "difference"; index: number };

/** mulberry32: the generator's own seeded stream (boards never change with the package's other generators). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function check(name: string, value: unknown, lo: number, hi: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < lo || value > hi) {
    throw invalid(name, ` must be an integer from ${lo} to ${hi}, got ${describe(value)}`);
  }
  return value;
}

/** The squares of one diagonal of an n x n board, by row. */
export function diagonalSquares(n: number, diagonal: ExcludedDiagonal): Square[] {
  check("n", n, 1, 1000);
  const { kind, index: given } = (typeof diagonal === "object" && diagonal !== null ? diagonal : {}) as Partial<ExcludedDiagonal>;
  if (kind !== "sum" && kind !== "difference") {
    throw invalid("diagonal", `.kind must be "sum" or "difference", got ${describe(kind)}`);
  }
  const index = check("diagonal.index", given, 0, 2 * n - 2);
  const squares: Square[] = [];
  for (let r = 0; r < n; r++) {
    const c = kind === "sum" ? index - r : r - (index - (n - 1));
    if (c >= 0 && c < n) squares.push([r, c]);
  }
  return squares;
}

/**
 * The generator's whole list for (n, minFree, seed): every diagonal that could be excluded
 * after those before it, in the order drawn. Its first d entries make the instance of size d.
 * @example excludedDiagonalsList(10, 4, 1).length // about 14 (the list ends where no diagonal can go)
 */
export function excludedDiagonalsList(n: number, minFree: number, seed: number): ExcludedDiagonal[] {
  check("n", n, 1, 1000);
  check("minFree", minFree, 0, n);
  check("seed", seed, 0, 2 ** 32 - 1);
  const random = mulberry32(seed);
  const order: ExcludedDiagonal[] = [];
  for (let k = 0; k <= 2 * n - 2; k++) order.push({ kind: "sum", index: k }, { kind: "difference", index: k });
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const blocked = new Uint8Array(n * n);
  const rowFree = new Int32Array(n).fill(n), colFree = new Int32Array(n).fill(n);
  const list: ExcludedDiagonal[] = [];
  for (const diagonal of order) {
    const squares = diagonalSquares(n, diagonal);
    const rowLoss = new Int32Array(n), colLoss = new Int32Array(n);
    for (const [r, c] of squares) {
      if (blocked[r * n + c]) continue;
      rowLoss[r]++;
      colLoss[c]++;
    }
    let keeps = true;
    for (let i = 0; i < n && keeps; i++) if (rowFree[i] - rowLoss[i] < minFree || colFree[i] - colLoss[i] < minFree) keeps = false;
    if (!keeps) continue;
    for (const [r, c] of squares) {
      if (blocked[r * n + c]) continue;
      blocked[r * n + c] = 1;
      rowFree[r]--;
      colFree[c]--;
    }
    list.push(diagonal);
  }
  return list;
}

/**
 * An Excluded Diagonals board: the first `d` diagonals of the generator's list for
 * (n, minFree, seed) excluded, as blocked squares (by row, then column) for
 * `solve`/`count`'s `blocked`. `d` past the list's end is refused.
 * @example const { blocked } = excludedDiagonalsBoard(30, 26, { seed: 1 }); await solve(30, { blocked });
 */
export function excludedDiagonalsBoard(
  n: number, d: number, { seed = 1, minFree = 1 }: { seed?: number; minFree?: number } = {},
): { n: number; diagonals: ExcludedDiagonal[]; blocked: Square[] } {
  const list = excludedDiagonalsList(n, minFree, seed);
  check("d", d, 0, list.length);
  const diagonals = list.slice(0, d);
  const blocked = new Uint8Array(n * n);
  for (const diagonal of diagonals) for (const [r, c] of diagonalSquares(n, diagonal)) blocked[r * n + c] = 1;
  const squares: Square[] = [];
  for (let i = 0; i < n * n; i++) if (blocked[i]) squares.push([Math.floor(i / n), i % n]);
  return { n, diagonals, blocked: squares };
}
