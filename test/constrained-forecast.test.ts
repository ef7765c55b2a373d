// The forecast of a constrained count (src/cli/forecast.ts): Knuth's random probes of the
// complete search's tree (src/count/constrained-estimate.ts), on the 64-bit search up to n = 64
// and on the wide path past it (ProbedWideSearch.probe). A probe's mean is the tree's node count
// (checked here against the search's own count of small trees), probing leaves the search as
// it was, the probes stop at their time budget, and an estimate past a double says so.
import { describe, expect, test } from "vitest";
import { checkConstraints } from "../src/board/constraints.js";
import { ProbedWideSearch, estimateConstrainedNodes } from "../src/count/constrained-estimate.js";
import { constrainedForecast } from "../src/cli/forecast.js";
import { RUNNING } from "../src/engine/contract.js";

/** xorshift32 in [0, 1), as the estimate draws. */
function xorshift(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
}

/** The wide search's whole count: its nodes and solutions. */
function countAll(search: ProbedWideSearch): [number, number] {
  while (search.run(Number.MAX_SAFE_INTEGER) === RUNNING) { /* to the end */ }
  return [search.nodes, search.solutions];
}

describe("the constrained count's forecast", () => {
  test("the wide path's probes: their mean is the tree's node count, and the search counts as before after them", () => {
    for (const [n, givens] of [[9, { blocked: [[0, 0], [3, 4]] }], [8, { fixed: [[2, 5]] }]] as const) {
      const board = checkConstraints(n, givens, "count");
      const probed = new ProbedWideSearch(n, board, 2, Infinity);
      const random = xorshift(7);
      const probes = 20_000;
      let sum = 0;
      for (let i = 0; i < probes; i++) sum += probed.probe(random);
      const [nodes, solutions] = countAll(new ProbedWideSearch(n, board, 2, Infinity));
      expect(Math.abs(sum / probes - nodes) / nodes, `n = ${n}: ${sum / probes} against ${nodes}`).toBeLessThan(0.05);
      expect(countAll(probed), `n = ${n}, counted after the probes`).toEqual([nodes, solutions]);
    }
  });

  test("past n = 64 the estimate is the wide path's; the probes stop at their budget (one at least); past a double it is Infinity", () => {
    const hundred = checkConstraints(100, { blocked: [[0, 0]] }, "count");
    const estimate = estimateConstrainedNodes(hundred, 50);
    expect(Number.isFinite(estimate) && estimate > 1e100).toBe(true); // (100 rows of up to 100 squares)
    // A budget of 0 ms: exactly the first probe, the one a fresh search draws with seed 1.
    expect(estimateConstrainedNodes(hundred, 300, 1, 0)).toBe(new ProbedWideSearch(100, hundred, 2, Infinity).probe(xorshift(1)));
    const thousand = checkConstraints(1000, { blocked: [[0, 0]] }, "count");
    expect(estimateConstrainedNodes(thousand, 300, 1, 0)).toBe(Infinity);
    const forecast = constrainedForecast(1000, { blocked: [[0, 0]] })!;
    expect(forecast.etaMs(1000n, 600)).toBeUndefined();
    expect(forecast.notice(1000n, 600)).toBe("this count is estimated at more than 1e+308 queens placed (Knuth's estimate of its search tree): it will not finish. Ctrl-C stops it");
  });
});
