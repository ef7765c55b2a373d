// Splits a count into tasks: every placement of rows 0..depth-1 that the
// full-symmetry counter (assembly/count.ts) would reach, with the same pruning
// rules, becomes a task whose rows below `depth` are searched by an engine.
// The queens placed inside the prefixes are counted here (`prefixNodes`), so
// nodes = prefixNodes + the nodes of every task, whatever the depth.
import type { CountTask } from "../engine/contract.js";

export type CountSplit = { n: number; depth: number; tasks: CountTask[]; prefixNodes: bigint };

/** A depth that gives tasks of a few milliseconds or less. */
export function defaultSplitDepth(n: number): number {
  const depth = n <= 10 ? 2 : n <= 13 ? 3 : n <= 16 ? 4 : 5;
  return Math.min(depth, n - 1);
}

/** Tasks for an n x n board (5 <= n <= 32), prefixes of `depth` rows (2 <= depth <= n - 1). */
export function splitTasks(n: number, depth = defaultSplitDepth(n)): CountSplit {
  const lastRow = n - 1;
  const mask = n === 32 ? 0xffffffff : (1 << n) - 1;
  const topBit = 2 ** lastRow;
  const sideMask = (topBit + 1) >>> 0;
  const tasks: CountTask[] = [];
  const rows: number[] = [];
  let prefixNodes = 0;

  // The corner (kind 1) and side (kind 2) searches of assembly/count.ts (takaken's edge pruning), for rows y < depth.
  function extend(kind: 1 | 2, bound1: number, y: number, left: number, down: number, right: number): void {
    if (y === depth) {
      tasks.push({ kind, bound1, rows: rows.slice() });
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
    while (bitmap) {
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
  return { n, depth, tasks, prefixNodes: BigInt(prefixNodes) };
}
