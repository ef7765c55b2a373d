// How long a proof that a constrained board has no solution would take, said while solve runs:
// Knuth's (1975) random probes of solve's own 64-bit complete search (src/engine/ts/complete.ts,
// the tree both engines walk), from its root down its own choice of line, each level
// weighed with the levels its lookahead builds there, which solve counts as nodes too. So the
// mean of the probes is the node count of solve's 64-bit search on a board without a solution
// (solve's portfolio adds its restarting search's share). Heavy-tailed like every such
// estimate: a few hundred probes are a guide to minutes against hours, and often several times
// under. bench/frontier-estimate.ts measures changes to the search with the same probes. Only
// the CLI's forecast and the bench carry this file (the library and its threads' source do not).
import type { Constraints } from "../board/constraints.js";
import { monotonicMs } from "../core/platform.js";
import { CompleteSearch, NARROW_MAX_N } from "../engine/ts/complete.js";
import { OPEN, columnOf, nthBit, popcount32, rowOf } from "../engine/ts/complete-state.js";

/** The probes a forecast makes (seeded: the same board gives the same figure). */
export const PROOF_PROBES = 200;

/** solve's 64-bit search (mode 0, lookahead and filtering as solve runs them) with Knuth's probes weighed by its builds. */
export class ProbedSolveSearch extends CompleteSearch {
  /** The nodes the search counted building its root (1 and the root's lookahead builds). */
  readonly rootWork: number;
  /** The last probe's estimate of the queens placed alone (1 + d1 + d1*d2 + ..., builds left out). */
  probeQueens = 1;

  /** `lookahead`: solve's (true), or "always" (tests: at every level, so that small boards take it too); `needed`: the needed diagonals as lines (solve's; false for measurements). */
  constructor(n: number, constraints: Constraints | undefined, lookahead: true | "always" = true, needed = true) {
    super(n, constraints, 0, Infinity, true, true, lookahead, false, needed);
    this.rootWork = this.nodes;
  }

  /**
   * One probe: from the root, branch `pick(k)` (0 <= it < k, lowest first) of the k at each level;
   * returns the root's work plus, for each level met, the product of the branch counts above it
   * times (1 + the nodes its build and lookahead counted). Only levels below the root are
   * written, so probes may follow one another; the search is not run after them. 1 when the
   * root is decided.
   */
  probeWork(pick: (k: number) => number): number {
    this.probeQueens = 1;
    if (this.depth !== 0) return 1;
    let work = this.rootWork, product = 1;
    for (let level = 0; ; level++) {
      const lo = this.restLo[level], hi = this.restHi[level];
      const k = popcount32(lo) + popcount32(hi);
      if (k === 0) return work;
      product *= k;
      const b = nthBit(lo, hi, pick(k));
      const kind = this.kind[level], line = this.index[level];
      const before = this.nodes;
      const result = this.expand(level, level + 1, rowOf(kind, line, b), columnOf(this.n, kind, line, b));
      work += product * (1 + this.nodes - before);
      this.probeQueens += product;
      if (result !== OPEN) return work;
    }
  }
}

/** Draws for the probes: xorshift32, `draw % k` (the bench's, so its figures and a forecast's agree). */
export function probePicker(seed = 0x12345678): (k: number) => number {
  let draw = seed >>> 0 || 1;
  return (k) => {
    draw ^= draw << 13;
    draw ^= draw >>> 17;
    draw ^= draw << 5;
    draw >>>= 0;
    return draw % k;
  };
}

/**
 * Knuth's estimate of a proof's nodes, made a slice at a time (so that a solve on the same
 * thread goes on between slices): `step(budgetMs)` makes probes until the budget is spent (one
 * at least) or all `probes` are made; `nodes` is the mean so far. Only for n <= 64, the
 * 64-bit search (past it, solve restarts, and a proof is out of reach anyway).
 */
export class ProofEstimate {
  readonly search: ProbedSolveSearch;
  private readonly pick = probePicker();
  private sum = 0;
  made = 0;

  constructor(constraints: Constraints, readonly probes = PROOF_PROBES) {
    if (constraints.n > NARROW_MAX_N) throw new RangeError(`a proof's estimate is made for n <= ${NARROW_MAX_N}, not ${constraints.n}`);
    this.search = new ProbedSolveSearch(constraints.n, constraints.empty ? undefined : constraints);
  }

  get done(): boolean {
    return this.made >= this.probes;
  }

  /** The estimate so far (NaN before the first probe). */
  get nodes(): number {
    return this.sum / this.made;
  }

  step(budgetMs: number): boolean {
    const start = monotonicMs();
    do {
      if (this.done) break;
      this.sum += this.search.probeWork(this.pick);
      this.made++;
    } while (monotonicMs() - start < budgetMs);
    return this.done;
  }
}
