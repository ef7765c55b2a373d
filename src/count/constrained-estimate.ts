// How long a constrained count will take, said before it has run long: Knuth's (1975)
// random-probe estimate (as src/analysis/estimate.ts for the plain board) of the complete
// search's own tree (src/engine/ts/complete.ts, the same tree on both engines), whose nodes
// are what count reports as queens placed. Heavy-tailed like every such estimate: a guide
// to minutes against years, not a promise.
import type { Constraints } from "../board/constraints.js";
import { CompleteSearch } from "../engine/ts/complete.js";

/** The estimate of a constrained board's search tree: the mean of `samples` probes (seeded: the same board gives the same figure). */
export function estimateConstrainedNodes(constraints: Constraints, samples = 500, seed = 1): number {
  if (constraints.conflict !== null) return 1;
  const search = new CompleteSearch(constraints.n, constraints.empty ? undefined : constraints, 2, Infinity);
  let state = seed >>> 0 || 1;
  const random = (): number => { // xorshift32
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
  let sum = 0;
  for (let i = 0; i < samples; i++) sum += search.probe(random);
  return sum / samples;
}
