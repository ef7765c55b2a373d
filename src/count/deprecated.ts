// The constrained parts' own functions, from before the one part protocol (./split.ts): each
// still works for a minor version, said deprecated once per process, and is what the protocol's
// function of the same job does with a board's parts.
import { deprecated } from "../core/deprecate.js";
import { checkInteger, checkOptions } from "../core/validate.js";
import { checkConstraints, type BoardConstraints, type Constraints } from "../board/constraints.js";
import { boardOfConstraints } from "../board/board.js";
import { CONSTRAINED_MAX_N } from "./constrained.js";
import {
  CONSTRAINED_SPLIT_MAX_PARTS, checkConstrainedPart as checkKind, mergeConstrainedCounts as mergeKind, splitConstrainedBoard,
  type ConstrainedPart, type ConstrainedPartCount,
} from "./constrained-parts.js";
import { countPart, countTask, type CountPartOptions } from "./split.js";

const said = (old: string, now: string): void => deprecated(old, `${old} is deprecated: use ${now} (the same for every kind of part)`);

/** Whether `value` is checkConstraints's output for n, rather than givens as lists. */
function isNormalised(value: unknown, n: number): value is Constraints {
  const c = value as Constraints;
  return typeof c === "object" && c !== null && c.n === n && c.fixedColumn instanceof Int32Array && c.fixedColumn.length === n &&
    c.blockedStart instanceof Int32Array && c.blockedStart.length === n + 1 && c.blockedCols instanceof Int32Array &&
    c.blockedStart[n] === c.blockedCols.length && typeof c.empty === "boolean" && "conflict" in c;
}

/** @deprecated Use `splitCount(n, { parts, fixed, blocked })`. */
export function splitConstrainedCount(n: number, givens: Constraints | BoardConstraints, parts: number): ConstrainedPart[] {
  said("splitConstrainedCount", "splitCount(n, { parts, fixed, blocked })");
  checkInteger("n", n, 1, CONSTRAINED_MAX_N);
  checkInteger("parts", parts, 1, CONSTRAINED_SPLIT_MAX_PARTS);
  const constraints = isNormalised(givens, n) ? givens : checkConstraints(n, givens as BoardConstraints, "splitConstrainedCount");
  return splitConstrainedBoard(boardOfConstraints(constraints), parts);
}

/** @deprecated Use `countTask(part)`. */
export function countConstrainedPart(part: ConstrainedPart, options?: { engine?: "wasm" | "ts" }): ConstrainedPartCount {
  said("countConstrainedPart", "countTask(part)");
  return countTask(part, options);
}

/** @deprecated Use CountPartOptions (countPart's). */
export type ConstrainedCountOptions = CountPartOptions;

/** @deprecated Use `countPart(part, { signal, timeoutMs })`. */
export async function countConstrainedPartAsync(part: ConstrainedPart, options?: CountPartOptions): Promise<ConstrainedPartCount> {
  said("countConstrainedPartAsync", "countPart(part, { signal, timeoutMs })");
  checkOptions<CountPartOptions>("countConstrainedPartAsync", options, ["engine", "signal", "timeoutMs"]);
  return countPart(part, options);
}

/** @deprecated Use `countTask`'s own check, or checkPartCount for a result. */
export function checkConstrainedPart(value: unknown): ConstrainedPart {
  said("checkConstrainedPart", "countTask(part), which checks the part first");
  return checkKind(value);
}

/** @deprecated Use `mergeCounts(results, split)`. */
export function mergeConstrainedCounts(results: readonly ConstrainedPartCount[], split: readonly ConstrainedPart[]): { total: bigint; nodes: bigint } {
  said("mergeConstrainedCounts", "mergeCounts(results, split)");
  return mergeKind(results, split);
}
