// The board as a value: `boardOf(n, { fixed, blocked }, limits)` is the one place an entry point
// (count, countParallel, solutions, solve, trace, countDistributed) turns its n and givens into
// a checked, normalised board, n checked once against the range that applies to it (a plain
// board's or a board with givens'). Every later step takes the board: its squares in the
// kernels' form (`constraints`), its givens as normal-form lists, its digest (the identity
// checkpoints and queue runs record), and whether it is plain (no given queen, no blocked
// square: the plain problem, whatever lists were passed).
import { invalid } from "../core/errors.js";
import { checkInteger } from "../core/validate.js";
import { contentDigest } from "../core/digest.js";
import { CONSTRAINTS_MAX_N, checkConstraints, constraintLists, emptyConstraints, normaliseConstraints, type BoardConstraints, type Constraints, type Square } from "./constraints.js";

/** A checked, normalised board. */
export type Board = {
  readonly n: number;
  /** No given queen and no blocked square (empty lists included): the plain problem. */
  readonly plain: boolean;
  /** The squares in the kernels' form (made on first use for a plain board: n can be 10^8). */
  readonly constraints: Constraints;
  /** The given queens in normal form: by row, then column (a conflict's queens kept, so the lists give the same board back). */
  readonly fixed: readonly Square[];
  /** The blocked squares, row-major, without repeats. */
  readonly blocked: readonly Square[];
  /** The content digest (SHA-256, 128 bits: 32 hex digits) of n and the normal-form lists: the board's identity in checkpoints and queue runs. */
  readonly digest: string;
};

/** The ranges of n an entry point allows: `plain` for a board without givens, `givens` for one with them. */
export type BoardLimits = {
  /** The function checking, for messages ("count"). */
  readonly caller: string;
  readonly plain: readonly [min: number, max: number];
  readonly givens: readonly [min: number, max: number];
  /** What the givens' range is for, in its message (default: the caller). */
  readonly givensFor?: string;
};

/**
 * The version of the digest's text. 2 since the digest was made (it was then the constrained
 * split's version, which is 2 still): kept, so that the runs and checkpoints already recorded
 * name the same boards.
 */
const DIGEST_VERSION = 2;

/** Whether a list option holds a square: undefined and [] do not; anything else is checked as a list. */
function holdsSquares(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/**
 * `n` and its givens checked once and normalised. A board with a given queen or a blocked square
 * takes n in `limits.givens`, any other (no lists, or empty ones) in `limits.plain`; bad squares
 * get checkConstraints's coded errors.
 * @example boardOf(8, { fixed: [[0, 0]] }, { caller: "count", plain: [1, 32], givens: [1, 1000] }).digest
 */
export function boardOf(n: number, givens: BoardConstraints | undefined, limits: BoardLimits): Board {
  const constrained = givens !== undefined && givens !== null && (holdsSquares(givens.fixed) || holdsSquares(givens.blocked));
  // (A board with givens has per-row arrays: never more rows than CONSTRAINTS_MAX_N.)
  const [min, max] = constrained ? [limits.givens[0], Math.min(limits.givens[1], CONSTRAINTS_MAX_N)] : limits.plain;
  if (constrained && Number.isInteger(n) && n > max && n <= limits.plain[1]) {
    throw invalid("n", ` must be an integer from ${min} to ${max} with given queens or blocked squares (for ${limits.givensFor ?? limits.caller}), got ${n}`);
  }
  checkInteger("n", n, min, max);
  if (!constrained) return plainBoard(n);
  return fromConstraints(normaliseConstraints(n, givens, limits.caller));
}

/** The plain n x n board (no givens); its constraints are made on first use. */
export function plainBoard(n: number): Board {
  let constraints: Constraints | undefined;
  return {
    n, plain: true, fixed: [], blocked: [], digest: contentDigest(boardText(n, [], [])),
    get constraints() {
      return (constraints ??= emptyConstraints(n));
    },
  };
}

/** The board of checked constraints (checkConstraints's output). */
export function boardOfConstraints(constraints: Constraints): Board {
  return constraints.empty ? plainBoard(constraints.n) : fromConstraints(constraints);
}

function fromConstraints(constraints: Constraints): Board {
  const { fixed, blocked } = givenLists(constraints);
  return { n: constraints.n, plain: constraints.empty, constraints, fixed, blocked, digest: contentDigest(boardText(constraints.n, fixed, blocked)) };
}

/** Squares as the digests' texts write them: `r:c`, comma-separated. */
export const squaresText = (squares: readonly Square[]): string => squares.map(([r, c]) => `${r}:${c}`).join(",");

/** The text the digest hashes. */
export function boardText(n: number, fixed: readonly Square[], blocked: readonly Square[]): string {
  return `nqueens-constrained-board v${DIGEST_VERSION} n=${n}\nfixed=${squaresText(fixed)}\nblocked=${squaresText(blocked)}\n`;
}

/**
 * The board's givens as sorted lists that give the same board back through checkConstraints:
 * constraintLists, plus the squares of a conflict (two queens given on one row keep one in
 * fixedColumn; the other must stay, or the board read back would have solutions).
 */
function rawLists(constraints: Constraints): { fixed: Square[]; blocked: Square[] } {
  const { fixed, blocked } = constraintLists(constraints);
  if (constraints.conflict === null) return { fixed, blocked };
  const key = ([r, c]: Square): number => r * constraints.n + c;
  const all = new Map(fixed.map((s) => [key(s), s] as const));
  for (const s of constraints.conflict.squares) all.set(key(s), [s[0], s[1]]); // given queens, each
  return { fixed: [...all.values()].sort((a, b) => key(a) - key(b)), blocked };
}

const listsText = (l: { fixed: Square[]; blocked: Square[] }): string => JSON.stringify(l);

/**
 * The board's lists in normal form: rawLists read back until they give themselves again. A
 * board with more than one conflict (two queens on a row, one of them on a blocked square)
 * reports one of them, and its lists read back may report another: the fixed point is the
 * same on every path (this thread, a worker re-deriving a part, a queue worker reading the
 * run's record), so the same givens give the same parts and digests everywhere.
 */
function givenLists(constraints: Constraints): { fixed: Square[]; blocked: Square[] } {
  let lists = rawLists(constraints);
  for (let round = 0; constraints.conflict !== null && round < 8; round++) {
    const again = rawLists(checkConstraints(constraints.n, lists, "a board"));
    if (listsText(again) === listsText(lists)) break;
    lists = again;
  }
  return lists;
}
