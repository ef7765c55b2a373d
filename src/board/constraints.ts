// Constrained boards: queens given in advance (`fixed`, n-Queens Completion,
// CSPLib 079) and squares no queen may use (`blocked`, Blocked n-Queens, CSPLib 080).
// checkConstraints is the one place user input becomes the normalised form every
// kernel is given. Givens that rule out every completion (two given queens attacking
// each other, or a given queen on a blocked square) are a valid instance with no
// solution: `conflict` names the squares, and nothing is thrown.
import { typeError, invalid } from "../core/errors.js";
import { checkInteger, describe } from "../core/validate.js";

export type Square = readonly [row: number, col: number]; // 0-based
export type BoardConstraints = { fixed?: readonly Square[]; blocked?: readonly Square[] };

/** Checked, normalised constraints of an n x n board (what kernels are given). */
export type Constraints = {
  n: number;
  /** Length n: column of the given queen of row r, or -1. */
  fixedColumn: Int32Array;
  /** Length n + 1: row r's blocked columns are blockedCols[blockedStart[r] .. blockedStart[r+1]-1]. */
  blockedStart: Int32Array;
  /** Sorted within a row, no duplicates. */
  blockedCols: Int32Array;
  /** Set when the givens alone rule out every completion (two given queens attack each other, or one stands on a blocked square). */
  conflict: null | { reason: string; squares: Square[] };
  /** No given queen and no blocked square: the plain problem. */
  empty: boolean;
};

const KEYS = ["fixed", "blocked"] as const;

/** Largest board checkConstraints takes: the most any search takes with givens (constrained min-conflicts, 10^6; the complete search 1000), and a board file's largest. */
export const CONSTRAINTS_MAX_N = 1_000_000;

/** `name` as a list of [row, col] pairs inside an n x n board, as the keys r * n + c in order (below 10^12: exact in a double). */
function checkSquares(n: number, name: string, value: unknown): Float64Array {
  if (value === undefined) return new Float64Array(0);
  if (!Array.isArray(value)) throw invalid(name, ` must be an array of [row, col] pairs, got ${describe(value)}`, TypeError);
  const keys = new Float64Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const pair: unknown = value[i];
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw invalid(name, `[${i}] must be a [row, col] pair, got ${Array.isArray(pair) ? `an array of length ${pair.length}` : describe(pair)}`, TypeError);
    }
    for (let k = 0; k < 2; k++) {
      const v: unknown = pair[k], number = typeof v === "number";
      if (!number || !Number.isInteger(v) || v < 0 || v >= n) {
        const got = number ? ` (0-based, n = ${n}), got ${describe(v)}` : `, got ${typeof v} ${describe(v)}`;
        throw invalid(name, `[${i}] ${k === 0 ? "row" : "col"} must be an integer from 0 to ${n - 1}${got}`, number ? RangeError : TypeError);
      }
      keys[i] += k === 0 ? v * n : v;
    }
  }
  return keys;
}

/** Human form of a square in messages: (row, col), 0-based. */
export function squareName([r, c]: Square): string {
  return `(${r}, ${c})`;
}

/** The plain problem's constraints for an n x n board (nothing given, nothing blocked). */
export function emptyConstraints(n: number): Constraints {
  return {
    n, fixedColumn: new Int32Array(n).fill(-1), blockedStart: new Int32Array(n + 1), blockedCols: new Int32Array(0),
    conflict: null, empty: true,
  };
}

/**
 * Validates (coded TypeError/RangeError naming the parameter, value and range) and normalises.
 * `caller` names the function in messages (e.g. "solve"). `n` is assumed checked by the caller.
 * @example checkConstraints(8, { fixed: [[0, 0]], blocked: [[1, 2]] }, "solve").fixedColumn[0] // 0
 */
export function checkConstraints(n: number, input: BoardConstraints | undefined, caller: string): Constraints {
  if (typeof caller !== "string") throw invalid("caller", ` must be the name of the function checking, got ${describe(caller)}`, TypeError);
  checkInteger("n", n, 1, CONSTRAINTS_MAX_N);
  return normaliseConstraints(n, input, caller);
}

/** checkConstraints for an n already checked (src/board/board.ts checks it once, against the caller's range). */
export function normaliseConstraints(n: number, input: BoardConstraints | undefined, caller: string): Constraints {
  if (input === undefined || input === null) return emptyConstraints(n);
  if (typeof input !== "object" || Array.isArray(input)) {
    throw invalid("constraints", ` of ${caller} must be an object { fixed?, blocked? }, got ${describe(input)}`, TypeError);
  }
  for (const key of Object.keys(input)) {
    if (!(KEYS as readonly string[]).includes(key)) {
      throw typeError(`unknown constraint ${JSON.stringify(key)} for ${caller} (known: ${KEYS.join(", ")})`);
    }
  }
  const fixed = checkSquares(n, "fixed", input.fixed);
  const blocked = checkSquares(n, "blocked", input.blocked);

  // Blocked squares: one sorted, duplicate-free list per row (the keys sorted are row-major order).
  const keys = blocked.sort();
  let distinct = 0;
  for (let i = 0; i < keys.length; i++) if (i === 0 || keys[i] !== keys[i - 1]) keys[distinct++] = keys[i];
  const blockedStart = new Int32Array(n + 1), blockedCols = new Int32Array(distinct);
  for (let i = 0; i < distinct; i++) {
    blockedCols[i] = keys[i] % n;
    blockedStart[Math.floor(keys[i] / n) + 1]++;
  }
  for (let r = 0; r < n; r++) blockedStart[r + 1] += blockedStart[r];

  // Given queens: one per row; the first attacking pair (in input order) or given queen on a block
  // is the conflict. The first queen kept on each row, column and diagonal is what a new one meets.
  // (A queen given again is its row's first: skipped. One given again after another on its row
  // comes once the conflict is named: it changes nothing.)
  const fixedColumn = new Int32Array(n).fill(-1);
  const kept: Square[] = [];
  const first = new Int32Array(fixed.length && 7 * n); // a line (row, column, diagonal) -> 1 + the first kept queen on it, 0 for none
  let conflict: Constraints["conflict"] = null;
  for (const key of fixed) {
    const r = Math.floor(key / n), c = key % n;
    if (fixedColumn[r] === c) continue;
    const square: Square = [r, c];
    if (conflict === null && isBlockedSquare({ blockedStart, blockedCols }, r, c)) {
      conflict = { reason: `the given queen at ${squareName(square)} stands on a blocked square`, squares: [square] };
    }
    let earliest = 0;
    for (const line of queenLines(n, r, c)) {
      if (first[line] && (!earliest || first[line] < earliest)) earliest = first[line];
      first[line] ||= kept.length + 1;
    }
    if (conflict === null && earliest) {
      const other = kept[earliest - 1];
      const line = r === other[0] ? "row" : c === other[1] ? "column" : "diagonal";
      conflict = { reason: `the given queens at ${squareName(other)} and ${squareName(square)} attack each other (same ${line})`, squares: [other, square] };
    }
    kept.push(square);
    if (fixedColumn[r] < 0) fixedColumn[r] = c;
  }
  return { n, fixedColumn, blockedStart, blockedCols, conflict, empty: kept.length === 0 && distinct === 0 };
}

/** The four lines through (r, c) as distinct numbers: its row, column, difference and sum diagonals (a queen takes them all). */
export const queenLines = (n: number, r: number, c: number): number[] => [r, n + c, 3 * n + r - c, 5 * n + r + c];

/** True when column `c` of row `r` is blocked (binary search in the row's sorted list). */
export function isBlockedSquare(constraints: Pick<Constraints, "blockedStart" | "blockedCols">, r: number, c: number): boolean {
  let lo = constraints.blockedStart[r], hi = constraints.blockedStart[r + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = constraints.blockedCols[mid];
    if (v === c) return true;
    if (v < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The constraints back as lists (fixed by row, blocked row-major): the inverse of checkConstraints for conflict-free input. */
export function constraintLists(constraints: Constraints): { fixed: Square[]; blocked: Square[] } {
  const fixed: Square[] = [];
  const blocked: Square[] = [];
  for (let r = 0; r < constraints.n; r++) {
    if (constraints.fixedColumn[r] >= 0) fixed.push([r, constraints.fixedColumn[r]]);
    for (let i = constraints.blockedStart[r]; i < constraints.blockedStart[r + 1]; i++) blocked.push([r, constraints.blockedCols[i]]);
  }
  return { fixed, blocked };
}

/** True when `columns` is a solution's columns that keeps every given queen and uses no blocked square (the queens themselves are checked elsewhere). */
export function satisfiesConstraints(constraints: Constraints, columns: ArrayLike<number>): boolean {
  for (let r = 0; r < constraints.n; r++) {
    const f = constraints.fixedColumn[r];
    if (f >= 0 && columns[r] !== f) return false;
    if (isBlockedSquare(constraints, r, columns[r])) return false;
  }
  return true;
}
