// Twin of assembly/complete-estimate.ts: Knuth's estimate of the 64-bit complete search's
// tree for solve's portfolio, random probes down the search's own choice of line
// (build, without the lookahead) on the levels above the search's own, so a search in
// progress goes on where it stood; each level built is a node. The same xorshift32 draws as
// the kernel, so both engines make the same probes. See the kernel for the algorithm.
import { type CompleteState, OPEN, columnOf, nthBit, popcount32, rowOf } from "./complete-state.js";

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
      const lo = s.restLo[d], hi = s.restHi[d];
      const k = popcount32(lo) + popcount32(hi);
      if (k === 0) break;
      product *= k;
      estimate += product;
      draw ^= draw << 13;
      draw ^= draw >>> 17;
      draw ^= draw << 5;
      draw >>>= 0;
      const b = nthBit(lo, hi, draw % k); // the level's (draw mod k)-th branch, lowest first
      const line = s.index[d], kind = s.kind[d];
      s.nodes++;
      if (s.build(d, d + 1, rowOf(kind, line, b), columnOf(s.n, kind, line, b)) !== OPEN) break;
    }
    sum += estimate;
  }
  return sum / probes;
}
