// The prefix split of the full-symmetry prefix counter (assembly/count.ts: the tests'
// reference, countByPrefixes in src/count/count.ts): every placement of rows 0..depth-1 that counter
// would reach, with the same pruning rules, becomes a task whose rows below `depth` are
// searched. The queens placed inside the prefixes are counted here (`prefixNodes`), so
// nodes = prefixNodes + the nodes of every task, whatever the depth.
// Splitting is bounded: a split never holds more than MAX_SPLIT_TASKS prefixes (the
// count kernel is resumable, so a task may be long: count() runs it in ~10 ms chunks).
// (It sat in engine/ while the GPU engine cut its tasks from it; the GPU now counts the
// constellation tasks of src/count/tasks.ts, and the SIMT model's frozen prefix kernel,
// gpu/model/prefix.ts, packs its own.)
import type { CountTask } from "./contract.js";
import { rangeError } from "../core/errors.js";

export type CountSplit = { n: number; depth: number; tasks: CountTask[]; prefixNodes: bigint };

/** The most prefixes one split may hold (about 20 MB of tasks, made in well under 100 ms). */
export const MAX_SPLIT_TASKS = 1 << 17;

/** A shallow depth: a few hundred to ten thousand tasks whatever n (n = 32 at depth 3: 10,748). */
export function defaultSplitDepth(n: number): number {
  const depth = n <= 10 ? 2 : n <= 13 ? 3 : n <= 16 ? 4 : 3;
  return Math.min(depth, n - 1);
}

/**
 * Visits the tasks of an n x n board at `depth` in split order (`rows` is reused: copy it
 * to keep it). Stops early, returning tasks = limit + 1, once more than `limit` are met.
 */
export function walkTasks(
  n: number,
  depth: number,
  visit?: (kind: 1 | 2, bound1: number, rows: readonly number[], index: number) => void,
  limit = Infinity,
): { tasks: number; prefixNodes: number } {
  const lastRow = n - 1;
  const mask = n === 32 ? 0xffffffff : (1 << n) - 1;
  const topBit = 2 ** lastRow;
  const sideMask = (topBit + 1) >>> 0;
  const rows: number[] = [];
  let prefixNodes = 0;
  let tasks = 0;

  // The corner (kind 1) and side (kind 2) searches of assembly/count.ts (takaken's edge pruning), for rows y < depth.
  function extend(kind: 1 | 2, bound1: number, y: number, left: number, down: number, right: number): void {
    if (tasks > limit) return;
    if (y === depth) {
      if (tasks < limit) visit?.(kind, bound1, rows, tasks);
      tasks++;
      return;
    }
    let bitmap = (mask & ~(left | down | right)) >>> 0;
    if (kind === 1) {
      if (y < bound1) bitmap = (bitmap & ~2) >>> 0;
    } else if (y < bound1) {
      bitmap = (bitmap & ~sideMask) >>> 0;
    } else if (y === lastRow - bound1) {
      if (!(down & sideMask)) return;
      if (((down & sideMask) >>> 0) !== sideMask) bitmap = (bitmap & sideMask) >>> 0;
    }
    while (bitmap && tasks <= limit) {
      const bit = (bitmap & -bitmap) >>> 0;
      bitmap = (bitmap ^ bit) >>> 0;
      rows.push(31 - Math.clz32(bit));
      prefixNodes++;
      extend(kind, bound1, y + 1, (left | bit) << 1, down | bit, (right | bit) >>> 1);
      rows.pop();
    }
  }

  // Row-0 queen in the corner (column 0), row-1 queen in column bound1.
  rows.push(0);
  prefixNodes++;
  for (let bound1 = 2; bound1 < lastRow; bound1++) {
    const bit = 2 ** bound1;
    rows.push(bound1);
    prefixNodes++;
    extend(1, bound1, 2, (2 | bit) << 1, 1 | bit, bit >>> 1);
    rows.pop();
  }
  rows.pop();
  // Row-0 queen off the corner, in column bound1 < bound2 = n - 1 - bound1.
  for (let bound1 = 1; bound1 < lastRow - bound1; bound1++) {
    const bit = 2 ** bound1;
    rows.push(bound1);
    prefixNodes++;
    extend(2, bound1, 1, bit << 1, bit, bit >>> 1);
    rows.pop();
  }
  return { tasks: Math.min(tasks, limit + 1), prefixNodes };
}

/** Tasks for an n x n board (5 <= n <= 32), prefixes of `depth` rows (2 <= depth <= n - 1), at most MAX_SPLIT_TASKS. */
export function splitTasks(n: number, depth = defaultSplitDepth(n)): CountSplit {
  if (walkTasks(n, depth, undefined, MAX_SPLIT_TASKS).tasks > MAX_SPLIT_TASKS) {
    throw rangeError(`a split of n = ${n} at depth ${depth} would hold more than ${MAX_SPLIT_TASKS} prefixes; use a smaller depth`);
  }
  const tasks: CountTask[] = [];
  const { prefixNodes } = walkTasks(n, depth, (kind, bound1, rows) => tasks.push({ kind, bound1, rows: rows.slice() }));
  return { n, depth, tasks, prefixNodes: BigInt(prefixNodes) };
}
