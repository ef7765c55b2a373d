// Twin of assembly/construct.ts: the explicit O(n) construction (Hoffman, Loessi &
// Moore 1969; Bernhardsson 1991) in its even/odd-list form, each row's column a
// closed form of its index, written in chunks (work = rows written).
import { FOUND, RUNNING, type Search, type SearchParams, type SearchStatus } from "../engine.js";

export function openConstruct(n: number, _params: SearchParams): Search {
  const size = n;
  const rest = n % 6;
  const half = n >> 1; // how many even columns 2, 4, ... <= n there are
  const cols = new Int32Array(n);
  let written = 0; // rows 0..written-1 are done

  /** The 1-based column at position k of the even/odd list. */
  function listValue(k: number): number {
    if (rest === 2) {
      if (k < half) return 2 * k + 2; // 2, 4, ..., n
      const odd = k - half; // 3, 1, 7, 9, ..., n-1, 5
      if (odd === 0) return 3;
      if (odd === 1) return 1;
      if (odd === half - 1) return 5;
      return 2 * odd + 3;
    }
    if (rest === 3) {
      if (k < half) return k === half - 1 ? 2 : 2 * k + 4; // 4, 6, ..., n-1, 2
      const odd = k - half; // 5, 7, ..., n, 1, 3
      if (odd === half - 1) return 1;
      if (odd === half) return 3;
      return 2 * odd + 5;
    }
    if (k < half) return 2 * k + 2; // 2, 4, 6, ...
    return 2 * (k - half) + 1; // 1, 3, 5, ...
  }

  function run(workLimit: number): SearchStatus {
    const end = Math.trunc(Math.min(Math.max(workLimit, written), size));
    for (let k = written; k < end; k++) cols[k] = listValue(k) - 1;
    written = end;
    return written === size ? FOUND : RUNNING;
  }

  return {
    run,
    work: () => written,
    stats: () => ({ nodes: 0, tries: 1, steps: 0 }),
    state: () => ({ phase: "construct", conflicts: -1 }),
    columns: () => cols.slice(),
    close() {},
  };
}
