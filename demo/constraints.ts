// Constrained boards on the page: in edit mode a click on a square of the board
// cycles it free -> given queen -> blocked -> free; Solve, Count and the step-through then
// take those squares as `fixed` and `blocked`. Only squares inside the current n count.
import type { Highlight } from "./board";

export type SquareMark = "given" | "blocked";
export type Pair = [number, number];

/** Squares marked so far, by row * KEY + col (kept when n changes; only those inside n are used). */
const KEY = 1 << 16;
const marks = new Map<number, SquareMark>();

/** Cycles a square free -> given -> blocked -> free; returns its new state. */
export function cycleSquare(row: number, col: number): SquareMark | "free" {
  const key = row * KEY + col;
  const now = marks.get(key);
  if (now === undefined) { marks.set(key, "given"); return "given"; }
  if (now === "given") { marks.set(key, "blocked"); return "blocked"; }
  marks.delete(key);
  return "free";
}

export function clearConstraints(): void {
  marks.clear();
}

/** The marked squares inside an n x n board, row-major: what solve, count and trace take. */
export function constraintsOf(n: number): { fixed: Pair[]; blocked: Pair[] } {
  const fixed: Pair[] = [], blocked: Pair[] = [];
  const keys = [...marks.keys()].sort((a, b) => a - b);
  for (const key of keys) {
    const row = Math.floor(key / KEY), col = key % KEY;
    if (row >= n || col >= n) continue;
    (marks.get(key) === "given" ? fixed : blocked).push([row, col]);
  }
  return { fixed, blocked };
}

/** Whether the n x n board has a given queen or a blocked square. */
export function hasConstraints(n: number): boolean {
  const { fixed, blocked } = constraintsOf(n);
  return fixed.length + blocked.length > 0;
}

/** The options to spread into solve/count/trace: empty when nothing is marked (the plain problem, exactly as before). */
export function constraintOptions(n: number): { fixed?: Pair[]; blocked?: Pair[] } {
  const { fixed, blocked } = constraintsOf(n);
  return fixed.length + blocked.length > 0 ? { fixed, blocked } : {};
}

/** What the board draws for the marks: given squares tinted with their queen, blocked squares dark. */
export function constraintHighlight(n: number): Pick<Highlight, "given" | "blocked"> {
  const { fixed, blocked } = constraintsOf(n);
  return { given: fixed.map(([row, col]) => ({ row, col })), blocked: blocked.map(([row, col]) => ({ row, col })) };
}

/** "2 given queens, 5 blocked squares" (or that none are marked). */
export function constraintsSummary(n: number): string {
  const { fixed, blocked } = constraintsOf(n);
  if (fixed.length + blocked.length === 0) return "no given queens, no blocked squares";
  const plural = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return `${plural(fixed.length, "given queen", "given queens")}, ${plural(blocked.length, "blocked square", "blocked squares")}`;
}

/** Methods whose 'no-solution' is a proof by exhaustive search (they try every placement). */
const EXHAUSTIVE = new Set(["complete", "backtrack"]);

/**
 * Why a constrained board has no completion, for the page: the attacking pair (or the given
 * queen on a blocked square), or how it was proved. Null when the result is not such an answer.
 */
export function noCompletionText(
  result: { found: boolean; method: string; stopVegas?: number; reason?: string; conflict?: { reason: string } },
  constrained: boolean,
): string | null {
  if (result.found) return null;
  if (result.reason === "conflict" && result.conflict) return `No completion: ${result.conflict.reason}.`;
  if (result.reason !== "no-solution" || !constrained) return null;
  // (stopVegas 0: the hybrid with no random rows is plain backtracking)
  if (EXHAUSTIVE.has(result.method) || result.stopVegas === 0) {
    return "No completion: proved by exhaustive search (every placement of the free rows was tried).";
  }
  return "No completion: proved before the search, a row or column has no square that is neither blocked nor attacked by a given queen.";
}
