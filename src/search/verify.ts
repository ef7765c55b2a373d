// verify(columns): is this a solution, and if not, which rows attack each other.
// The O(n) bitset check runs in the chosen engine; listing the attacking pairs
// (only when there are some) is done here, O(n) with one map per kind of line.
import type { EngineName } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { checkColumns, checkOptions, optionalInteger } from "../core/validate.js";

export type VerifyOptions = {
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
  /** List at most this many attacking pairs (default 100); `conflictCount` counts them all. */
  maxConflicts?: number;
};

export type VerifyResult = {
  /** True when no two queens attack each other. */
  ok: boolean;
  /** Pairs [rowA, rowB] (rowA < rowB) of attacking queens, at most `maxConflicts`. */
  conflicts: [number, number][];
  /** How many attacking pairs there are in all. */
  conflictCount: number;
};

/**
 * Checks a board given as columns by row (0-based).
 * @example verify([1, 3, 0, 2]) // { ok: true, conflicts: [], conflictCount: 0 }
 */
export function verify(columns: ArrayLike<number>, options?: VerifyOptions): VerifyResult {
  const board = checkColumns("columns", columns);
  const opts = checkOptions<VerifyOptions>("verify", options, ["engine", "maxConflicts"]);
  const engine = pickEngine(opts.engine);
  const maxConflicts = optionalInteger("maxConflicts", opts.maxConflicts, 0, Number.MAX_SAFE_INTEGER, 100);
  if (engine.verifyRepeats(board) === 0) return { ok: true, conflicts: [], conflictCount: 0 };
  return { ok: false, ...attackingPairs(board, maxConflicts) };
}

/**
 * The pairs of rows sharing a column or a diagonal. Two passes with bitsets (seen,
 * shared) find the lines holding two or more queens; only those lines' rows are kept.
 */
function attackingPairs(board: Int32Array, max: number): Omit<VerifyResult, "ok"> {
  const n = board.length;
  const lineCount = 5 * n; // n columns, 2n sums r + c, 2n differences r - c + n - 1
  const seen = new Uint32Array((lineCount + 31) >>> 5);
  const shared = new Uint32Array(seen.length);
  const linesOf = (r: number): [number, number, number] => [board[r], n + r + board[r], 4 * n - 1 + r - board[r]];
  for (let r = 0; r < n; r++) {
    for (const line of linesOf(r)) {
      const word = line >>> 5, bit = 1 << (line & 31);
      if (seen[word] & bit) shared[word] |= bit;
      else seen[word] |= bit;
    }
  }
  const rowsOnLine = new Map<number, number[]>();
  for (let r = 0; r < n; r++) {
    for (const line of linesOf(r)) {
      if (!(shared[line >>> 5] & (1 << (line & 31)))) continue;
      const rows = rowsOnLine.get(line);
      if (rows) rows.push(r);
      else rowsOnLine.set(line, [r]);
    }
  }
  const conflicts: [number, number][] = [];
  let conflictCount = 0;
  for (const rows of rowsOnLine.values()) {
    conflictCount += (rows.length * (rows.length - 1)) / 2;
    for (let i = 0; i < rows.length && conflicts.length < max; i++) {
      for (let j = i + 1; j < rows.length && conflicts.length < max; j++) conflicts.push([rows[i], rows[j]]);
    }
  }
  conflicts.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { conflicts, conflictCount };
}
