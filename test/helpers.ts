// Test helpers written independently of the package: a checker that knows
// nothing of bitsets or engines, and the list of engines to run suites on.
import type { EngineName } from "../src/engine/contract.js";

export const ENGINES: EngineName[] = ["wasm", "ts"];

/** True when `columns` places n queens, one per row, no two sharing a column or a diagonal (plain O(n^2)). */
export function isSolution(columns: ArrayLike<number>): boolean {
  const n = columns.length;
  for (let a = 0; a < n; a++) {
    const ca = columns[a];
    if (!Number.isInteger(ca) || ca < 0 || ca >= n) return false;
    for (let b = a + 1; b < n; b++) {
      const cb = columns[b];
      if (ca === cb || Math.abs(ca - cb) === b - a) return false;
    }
  }
  return true;
}

/** O(n) variant with a mark per line (column and diagonals), for boards too large for the pairwise check. */
export function isSolutionLarge(columns: ArrayLike<number>): boolean {
  const n = columns.length;
  const cols = new Uint8Array(n), sums = new Uint8Array(2 * n), diffs = new Uint8Array(2 * n);
  for (let r = 0; r < n; r++) {
    const c = columns[r];
    if (!Number.isInteger(c) || c < 0 || c >= n) return false;
    if (cols[c] || sums[r + c] || diffs[r - c + n]) return false;
    cols[c] = sums[r + c] = diffs[r - c + n] = 1;
  }
  return true;
}

/**
 * The first row where two boards differ, or null (also when both are null). A plain loop:
 * vitest's toEqual walks a board entry by entry through its generic comparison (about 5 us an
 * entry), longer than the searches that made the boards at n = 10^5 and 10^6.
 */
export function boardDifference(a: ArrayLike<number> | null, b: ArrayLike<number> | null): string | null {
  if (a === null || b === null) return a === b ? null : `${a === null ? "no board" : "a board"} against ${b === null ? "none" : "one"}`;
  if (a.length !== b.length) return `${a.length} rows against ${b.length}`;
  for (let r = 0; r < a.length; r++) if (a[r] !== b[r]) return `row ${r}: ${a[r]} against ${b[r]}`;
  return null;
}

/** Lexicographic comparison of two boards of the same size. */
export function compareBoards(a: ArrayLike<number>, b: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Every attacking pair [a, b] (a < b), by brute force. */
export function attackingPairs(columns: ArrayLike<number>): [number, number][] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < columns.length; a++) {
    for (let b = a + 1; b < columns.length; b++) {
      if (columns[a] === columns[b] || Math.abs(columns[a] - columns[b]) === b - a) pairs.push([a, b]);
    }
  }
  return pairs;
}

/** A solution of exactly n queens (null or a wrong length is not), O(n). */
export function isSolutionOfSize(columns: ArrayLike<number> | null, n: number): boolean {
  return columns !== null && columns.length === n && isSolutionLarge(columns);
}

/** Hill climbing's h by definition: for each diagonal of either direction holding k >= 2 queens, k - 1. */
export function diagonalSurplus(columns: ArrayLike<number>): number {
  const up = new Map<number, number>(), down = new Map<number, number>();
  for (let r = 0; r < columns.length; r++) {
    up.set(columns[r] - r, (up.get(columns[r] - r) ?? 0) + 1);
    down.set(columns[r] + r, (down.get(columns[r] + r) ?? 0) + 1);
  }
  let h = 0;
  for (const k of [...up.values(), ...down.values()]) if (k > 1) h += k - 1;
  return h;
}

/** The error `run` throws (a test fails if it throws none). */
export function caught(run: () => unknown): Error & { code?: string } {
  try {
    run();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error("expected a throw");
}
