// Twin of assembly/tree-size.ts: the per-level node counts of the backtracking
// subtree under a fixed placement of rows 0..d-1 (the node itself at depth d and
// every consistent extension), by bitboards; a node's children are counted at once.
// Counts are numbers: exact, as they stay far below 2^53 for the n treeSize takes.
import type { TreeCounter } from "../contract.js";

function popcount(x: number): number {
  let count = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) count++;
  return count;
}

export function openTreeCounter(n: number): TreeCounter {
  const size = n;
  const full = n === 32 ? 0xffffffff : (1 << n) - 1;
  const levels = new Float64Array(33);

  /** Count the nodes below a node at `row` with these attacked masks. */
  function countBelow(row: number, cols: number, left: number, right: number): void {
    let safe = (~(cols | left | right) & full) >>> 0;
    levels[row + 1] += popcount(safe);
    if (row + 1 === size) return;
    while (safe !== 0) {
      const bit = (safe & -safe) >>> 0;
      safe = (safe ^ bit) >>> 0;
      countBelow(row + 1, (cols | bit) >>> 0, ((left | bit) << 1) >>> 0, (right | bit) >>> 1);
    }
  }

  return {
    subtree(columns: readonly number[]): bigint[] {
      levels.fill(0);
      const depth = columns.length;
      let cols = 0, left = 0, right = 0;
      for (let r = 0; r < depth; r++) {
        const bit = (1 << columns[r]) >>> 0;
        cols = (cols | bit) >>> 0;
        left = ((left | bit) << 1) >>> 0;
        right = (right | bit) >>> 1;
      }
      levels[depth] += 1;
      if (depth < size) countBelow(depth, cols, left, right);
      return Array.from(levels.subarray(0, size + 1), (v) => BigInt(v));
    },
    close() {},
  };
}
