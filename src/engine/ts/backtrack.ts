// Twin of assembly/backtrack.ts: first solution by backtracking from row 0,
// columns in increasing order; empty board = 1 node, each queen placed = 1 node.
// Constrained boards: a row with a given queen tries only its column; blocked squares are skipped.
import { isBlockedSquare } from "../../board/constraints.js";
import { EXHAUSTED, FOUND, MAX_NODES, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";

export function openBacktrack(n: number, params: SearchParams): Search {
  const size = n;
  const maxNodes = params.maxNodes;
  const cols = new Int32Array(n).fill(-1);
  const colUsed = new Uint8Array(n);
  const sumUsed = new Uint8Array(2 * n);
  const diffUsed = new Uint8Array(2 * n);
  let row = 0;
  let nodes = 1; // the empty board
  const constraints = params.constraints !== undefined && !params.constraints.empty ? params.constraints : undefined;
  /** Whether row r has a given queen or a blocked square. */
  const rowConstrained = (r: number): boolean =>
    constraints !== undefined && (constraints.fixedColumn[r] >= 0 || constraints.blockedStart[r] !== constraints.blockedStart[r + 1]);
  // As the kernel: up to n = 2048 a table of the squares no queen may use (one load per square).
  let forbidden: Uint8Array | undefined;
  if (constraints !== undefined && n <= 2048) {
    forbidden = new Uint8Array(n * n);
    for (let r = 0; r < n; r++) {
      if (!rowConstrained(r)) continue;
      const f = constraints.fixedColumn[r];
      for (let c = 0; c < n; c++) if ((f >= 0 && c !== f) || isBlockedSquare(constraints, r, c)) forbidden[r * n + c] = 1;
    }
  }

  function mark(r: number, c: number, v: number): void {
    colUsed[c] = v;
    sumUsed[r + c] = v;
    diffUsed[r - c + size - 1] = v;
  }

  function run(workLimit: number): SearchStatus {
    for (;;) {
      if (row < 0) return EXHAUSTED;
      if (row === size) return FOUND;
      if (nodes >= maxNodes) return MAX_NODES;
      if (nodes >= workLimit) return RUNNING;
      let c = cols[row];
      if (c >= 0) mark(row, c, 0); // lift the queen we come back to
      c++;
      const diff = row + size - 1;
      if (forbidden !== undefined) {
        const no = row * size;
        while (c < size && (colUsed[c] | sumUsed[row + c] | diffUsed[diff - c] | forbidden[no + c]) !== 0) c++;
      } else if (rowConstrained(row)) {
        const f = constraints!.fixedColumn[row];
        while (c < size && ((f >= 0 && c !== f) || (colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) !== 0 || isBlockedSquare(constraints!, row, c))) c++;
      } else {
        while (c < size && (colUsed[c] | sumUsed[row + c] | diffUsed[diff - c]) !== 0) c++;
      }
      if (c === size) {
        cols[row] = -1;
        row--;
        continue;
      }
      cols[row] = c;
      mark(row, c, 1);
      nodes++;
      row++;
      if (row < size) cols[row] = -1;
    }
  }

  return {
    run,
    work: () => nodes,
    stats: () => ({ nodes, tries: 1, steps: 0 }),
    state: () => ({ phase: "search", conflicts: -1 }),
    columns: () => cols.slice(),
    close() {},
  };
}
