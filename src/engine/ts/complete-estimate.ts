// Twin of assembly/complete-estimate.ts: Knuth's estimate of the 64-bit complete search's
// tree for solve's portfolio, random probes down the search's own choice of row or column
// (build, without the lookahead) on the levels above the search's own, so a search in
// progress goes on where it stood; each level built is a node. The same xorshift32 draws as
// the kernel, so both engines make the same probes. See the kernel for the algorithm.
import { BY_ROW, type CompleteState, OPEN, popcount32 } from "./complete-state.js";

/** The probes solve's portfolio makes (as the kernel). */
export const ESTIMATE_PROBES = 256;
/** The seed of the probes' draws (as the kernel). */
const PROBE_SEED = 0x9e3779b9;

/** As the kernel's estimateTree: the mean of `probes` probes from the search's level 0; 1 when the root has no branch. */
export function estimateTree(s: CompleteState, probes: number): number {
  const base = s.n + 1; // the first level above the search's own
  let draw = PROBE_SEED;
  s.nodes++;
  if (s.build(0, base, -1, -1) !== OPEN) return 1;
  let sum = 0;
  for (let p = 0; p < probes; p++) {
    let estimate = 1, product = 1;
    for (let d = base; ; d++) {
      let lo = s.restLo[d], hi = s.restHi[d];
      const k = popcount32(lo) + popcount32(hi);
      if (k === 0) break;
      product *= k;
      estimate += product;
      draw ^= draw << 13;
      draw ^= draw >>> 17;
      draw ^= draw << 5;
      draw >>>= 0;
      // The j-th branch of the level (lowest first).
      for (let j = draw % k; j > 0; j--) {
        if (lo !== 0) lo &= lo - 1;
        else hi &= hi - 1;
      }
      const b = lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
      const line = s.index[d], byRow = s.kind[d] === BY_ROW;
      s.nodes++;
      if (s.build(d, d + 1, byRow ? line : b, byRow ? b : line) !== OPEN) break;
    }
    sum += estimate;
  }
  return sum / probes;
}
