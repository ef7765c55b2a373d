// The forecast of a proof (src/search/proof-estimate.ts, said by `nqueens solve` through
// src/cli/forecast.ts): Knuth's probes of solve's own 64-bit complete search, each level weighed
// with the nodes its lookahead builds. Their mean is the search's node count on a board without a
// solution (checked against the search's own count of small trees, with the lookahead at every
// level so that it is weighed), probing leaves the search as it was, and the forecast is made in
// slices and said only where a proof would take more than a minute.
import { describe, expect, test } from "vitest";
import { checkConstraints } from "../src/board/constraints.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { CompleteSearch } from "../src/engine/ts/complete.js";
import { EXHAUSTED } from "../src/engine/contract.js";
import { PROOF_PROBES, ProbedSolveSearch, ProofEstimate, probePicker } from "../src/search/proof-estimate.js";
import { proofFigures, proofForecast } from "../src/cli/forecast.js";
import { proofNodes, restartsThreads } from "../src/engine/ts/complete-portfolio.js";

/** A board without a solution whose solve tree (lookahead at every level) has 5,019 nodes: n, d, seed. */
const NO_SOLUTION = [12, 10, 3] as const;

describe("the forecast of a proof", () => {
  test("the probes' mean is the search's node count, lookahead builds included, and the search runs as before after them", () => {
    const [n, d, seed] = NO_SOLUTION; // (one board: its probes take about 2 s of CPU)
    const board = checkConstraints(n, { blocked: excludedDiagonalsBoard(n, d, { seed }).blocked }, "solve");
    const fresh = new CompleteSearch(n, board, 0, Infinity, true, true, "always");
    const rootNodes = fresh.nodes;
    expect(fresh.run(Infinity), `n = ${n}, d = ${d}, seed ${seed}`).toBe(EXHAUSTED);
    expect(fresh.filtering).toBe(true); // the boards the lookahead runs on
    const probed = new ProbedSolveSearch(n, board, "always");
    const pick = probePicker();
    const probes = 2000; // (seeded: 1.9% off; each probe builds every square of every level here, about a millisecond)
    let sum = 0, queens = 0;
    for (let i = 0; i < probes; i++) {
      sum += probed.probeWork(pick);
      queens += probed.probeQueens;
    }
    expect(Math.abs(sum / probes - fresh.nodes) / fresh.nodes, `n = ${n}: ${sum / probes} against ${fresh.nodes}`).toBeLessThan(0.05);
    expect(queens / probes).toBeLessThan(sum / probes); // the builds weigh in (without them the mean is queens placed alone)
    const before = probed.nodes; // (the probes' builds are counted too)
    expect(probed.run(Infinity)).toBe(EXHAUSTED);
    expect(probed.nodes - before, `n = ${n}, run after the probes`).toBe(fresh.nodes - rootNodes);
  });

  test("made in slices: one probe at least a slice, the same figure however sliced; a board decided at its root is 1", () => {
    const [n, d, seed] = NO_SOLUTION;
    const board = checkConstraints(n, { blocked: excludedDiagonalsBoard(n, d, { seed }).blocked }, "solve");
    const whole = new ProofEstimate(board, 50);
    expect(whole.step(Infinity)).toBe(true);
    const sliced = new ProofEstimate(board, 50);
    let slices = 0;
    while (!sliced.step(0)) slices++;
    expect(slices).toBe(49); // a budget of 0 ms: one probe a slice
    expect(sliced.nodes).toBe(whole.nodes);
    expect(new ProofEstimate(board).probes).toBe(PROOF_PROBES);
    // Every central diagonal gone: the bounds refute the root.
    const refuted = checkConstraints(30, { blocked: excludedDiagonalsBoard(30, 40, { seed: 1 }).blocked }, "solve");
    const atRoot = new ProofEstimate(refuted, 5);
    atRoot.step(Infinity);
    expect(atRoot.nodes).toBe(1);
  });

  test("a proof's nodes on threads: the tasks' threads walk the 64-bit tree while the restarting search's (half, at most 16) search beside them", () => {
    expect([0, 1, 2, 3, 4, 5, 32, 64].map(restartsThreads)).toEqual([0, 0, 1, 1, 2, 2, 16, 16]);
    expect(proofNodes(1000, 2, false, true)).toBe(2000);
    expect(proofNodes(1000, 3, false, true)).toBe(1500);
    expect(proofNodes(1000, 64, true, true)).toBe(1000 * 64 / 48);
    // One thread (or one pool thread): the portfolio's turns, equal shares where its estimate is out of reach.
    expect(proofNodes(1000, 0, false, true)).toBe(1000);
    expect(proofNodes(1000, 1, true, true)).toBeCloseTo(1000 * (1 + 1 / 0.75));
    expect(proofNodes(1000, 0, true, false)).toBe(2000);
  });

  test("the CLI's forecast: none past n = 64 or for given queens that attack each other; said only past a minute", () => {
    const thread = "/nonexistent/cli-forecast.cjs"; // (refused before any thread is started)
    expect(proofForecast({ n: 65, blocked: [[0, 0]], threads: 0 }, thread)).toBeUndefined();
    expect(proofForecast({ n: 8, fixed: [[0, 0], [1, 1]], threads: 0 }, thread)).toBeUndefined();
    let answer: { nodes: number; probes: number } | undefined;
    const figures = proofFigures(() => answer);
    expect([figures.nodes, figures.etaMs(1, 1000), figures.notice(1, 1000)]).toEqual([undefined, undefined, undefined]); // not in yet
    const [n, d, seed] = NO_SOLUTION;
    const estimate = new ProofEstimate(checkConstraints(n, { blocked: excludedDiagonalsBoard(n, d, { seed }).blocked }, "solve"));
    estimate.step(Infinity);
    answer = { nodes: estimate.nodes, probes: estimate.made };
    const nodes = figures.nodes!;
    expect(nodes).toBeGreaterThan(100);
    expect(figures.notice(Math.floor(nodes / 2), 1)).toBeUndefined(); // half of it in a millisecond: the rest well within the minute
    expect(figures.etaMs(nodes + 1, 1e6)).toBeUndefined(); // already past the estimate
    expect(figures.etaMs(1, 1000)).toBeCloseTo((nodes - 1) * 1000); // a node a second
    expect(figures.notice(1, 1e6)).toMatch(/^a proof that this board has no solution is estimated at about [\d.e+]+ nodes \(Knuth's estimate of the complete search's tree, 200 probes: a guide, often several times under\); at [\d.e+-]+ a second here, about .+\. A solution, where the board has one, can come sooner\. Ctrl-C stops it$/);
  });
});
