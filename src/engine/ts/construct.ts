// Twin of assembly/construct.ts: the explicit O(n) construction (Hoffman, Loessi &
// Moore 1969; Bernhardsson 1991) in its even/odd-list form, written run by run
// (each list is a few runs of columns that step by 2) in chunks (work = rows
// written). The Wasm kernel passes its rows through a small window; here they go
// straight into the result, which is handed over, not copied, once every row is
// written (see `columns`).
import { FOUND, RUNNING, type Search, type SearchParams, type SearchStatus } from "../contract.js";

export function openConstruct(n: number, _params: SearchParams): Search {
  const size = n;
  const half = n >> 1; // how many even columns 2, 4, ... <= n there are
  let cols = new Int32Array(n);
  let written = 0; // rows 0..written-1 are done
  let handedOver = false; // `cols` belongs to the caller of `columns`
  // The rows of the current call: [from, to).
  let from = 0;
  let to = 0;

  /** Rows first..last-1 (those of them in this call) get the 0-based columns column, column + 2, ... */
  function steps(first: number, last: number, column: number): void {
    const start = Math.max(first, from), end = Math.min(last, to);
    let c = column + 2 * (start - first);
    let k = start;
    // Four rows a turn, as in the kernel (about 1.5x faster here too).
    for (; k + 4 <= end; k += 4, c += 8) {
      cols[k] = c;
      cols[k + 1] = c + 2;
      cols[k + 2] = c + 4;
      cols[k + 3] = c + 6;
    }
    for (; k < end; k++, c += 2) cols[k] = c;
  }

  function run(workLimit: number): SearchStatus {
    from = written;
    to = Math.trunc(Math.min(Math.max(workLimit, from), size));
    // 1-based lists in the comments, 0-based columns in the code.
    if (n % 6 === 2) {
      steps(0, half, 1); //            2, 4, ..., n
      steps(half, half + 1, 2); //     3
      steps(half + 1, half + 2, 0); // 1
      steps(half + 2, n - 1, 6); //    7, 9, ..., n-1
      steps(n - 1, n, 4); //           5
    } else if (n % 6 === 3) {
      steps(0, half - 1, 3); //        4, 6, ..., n-1
      steps(half - 1, half, 1); //     2
      steps(half, n - 2, 4); //        5, 7, ..., n
      steps(n - 2, n - 1, 0); //       1
      steps(n - 1, n, 2); //           3
    } else {
      steps(0, half, 1); //            2, 4, 6, ...
      steps(half, n, 0); //            1, 3, 5, ...
    }
    written = to;
    return written === size ? FOUND : RUNNING;
  }

  return {
    run,
    work: () => written,
    stats: () => ({ nodes: 0, tries: 1, steps: 0 }),
    state: () => ({ phase: "construct", conflicts: -1 }),
    columns() {
      if (handedOver) {
        // A second call after the hand-over (solve makes none): write a new array.
        cols = new Int32Array(size);
        written = 0;
        run(size);
        handedOver = false;
      }
      if (written < size) return cols.slice(); // a board in progress: a copy
      // Every row is written and nothing writes to `cols` again: hand the array
      // itself over instead of copying 4n bytes.
      handedOver = true;
      return cols;
    },
    close() {},
  };
}
