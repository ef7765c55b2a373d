// How long a constrained count will take, said before it has run long: Knuth's (1975)
// random-probe estimate (as src/analysis/estimate.ts for the plain board) of the complete
// search's own tree (src/engine/ts/complete.ts, the same tree on both engines), whose nodes
// are what count reports as queens placed. Heavy-tailed like every such estimate: a guide
// to minutes against years, not a promise.
import type { Constraints } from "../board/constraints.js";
import { monotonicMs } from "../core/platform.js";
import { CompleteSearch, NARROW_MAX_N } from "../engine/ts/complete.js";
import { WideSearch } from "../engine/ts/complete-wide.js";
import { OPEN } from "../engine/ts/complete-state.js";

/**
 * The wide path's search with Knuth's probes, as CompleteSearch.probe: here, not in the class,
 * so that only the CLI's forecast carries it (the library and its threads' source do not).
 */
export class ProbedWideSearch extends WideSearch {
  /**
   * From the root, one branch drawn at random (`random` in [0, 1)) at each level, by the
   * search's own choice of row or column; returns 1 + d1 + d1*d2 + ..., dk the branches met at
   * level k. The levels it placed are undone, so probes may follow one another (before run()).
   */
  probe(random: () => number): number {
    if (this.depth !== 0) return 1;
    let estimate = 1, product = 1, d = 0;
    for (;; d++) {
      const base = this.start[d], k = this.start[d + 1] - base;
      if (k === 0) break;
      product *= k;
      estimate += product;
      if (this.placeCandidate(d, base + Math.min(k - 1, Math.floor(random() * k))) !== OPEN) break;
    }
    for (; d >= 0; d--) if (this.placedRow[d] >= 0) this.undo(d);
    return estimate;
  }
}

/**
 * The estimate of a constrained board's search tree: the mean of `samples` probes (seeded: the
 * same board gives the same figure), or of those made within `budgetMs` (at least one; a probe
 * of a wide board places up to n queens, about 60 ms at n = 1000). Past n = 64 the tree is the
 * wide path's; past about n = 170 its estimate can exceed a double (Infinity: "more than 1e308").
 */
export function estimateConstrainedNodes(constraints: Constraints, samples = 500, seed = 1, budgetMs = Infinity): number {
  if (constraints.conflict !== null) return 1;
  const board = constraints.empty ? undefined : constraints;
  const search = constraints.n > NARROW_MAX_N ? new ProbedWideSearch(constraints.n, board, 2, Infinity) : new CompleteSearch(constraints.n, board, 2, Infinity);
  let state = seed >>> 0 || 1;
  const random = (): number => { // xorshift32
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
  const start = monotonicMs();
  let sum = 0, made = 0;
  while (made < samples && (made === 0 || monotonicMs() - start < budgetMs)) {
    sum += search.probe(random);
    made++;
  }
  return sum / made;
}
