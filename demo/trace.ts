// A step-by-step trace of backtracking for the demo's step-through, written from the same
// algorithm as the reference engine (src/engine-ts/backtrack.ts): rows from 0, columns tried
// in increasing order, the empty board is 1 node and every queen placed is 1 node. It is
// demo code only; the kernels are untouched. Its final node count equals solve(..., 'backtrack').
export type TraceEvent =
  | { kind: "test"; row: number; col: number; ok: boolean; cols: Int32Array; nodes: number }
  | { kind: "place"; row: number; col: number; cols: Int32Array; nodes: number }
  | { kind: "backtrack"; row: number; cols: Int32Array; nodes: number }
  | { kind: "solution"; cols: Int32Array; nodes: number }
  | { kind: "exhausted"; cols: Int32Array; nodes: number };

export function* backtrackTrace(n: number): Generator<TraceEvent> {
  const cols = new Int32Array(n).fill(-1);
  const colUsed = new Uint8Array(n), sumUsed = new Uint8Array(2 * n), diffUsed = new Uint8Array(2 * n);
  const mark = (r: number, c: number, v: number) => { colUsed[c] = v; sumUsed[r + c] = v; diffUsed[r - c + n - 1] = v; };
  let row = 0;
  let nodes = 1; // the empty board
  for (;;) {
    if (row < 0) { yield { kind: "exhausted", cols: cols.slice(), nodes }; return; }
    if (row === n) { yield { kind: "solution", cols: cols.slice(), nodes }; return; }
    let c = cols[row];
    if (c >= 0) { mark(row, c, 0); cols[row] = -1; } // lift the queen we come back to
    c++;
    for (; c < n; c++) {
      const ok = (colUsed[c] | sumUsed[row + c] | diffUsed[row - c + n - 1]) === 0;
      yield { kind: "test", row, col: c, ok, cols: cols.slice(), nodes };
      if (ok) break;
    }
    if (c === n) {
      cols[row] = -1;
      yield { kind: "backtrack", row, cols: cols.slice(), nodes };
      row--;
      continue;
    }
    cols[row] = c;
    mark(row, c, 1);
    nodes++;
    yield { kind: "place", row, col: c, cols: cols.slice(), nodes };
    row++;
    if (row < n) cols[row] = -1;
  }
}
