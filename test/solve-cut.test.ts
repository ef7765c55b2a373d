// solve's tasks cover a board exactly: the cut at the complete search's first real branch
// (past the given queens' rows and the lines left one square) partitions the board's
// solutions, checked against a brute-force solver of the tests' own (test/constrained.ts) on
// random small boards; the whole board's task, searched by the portfolio, is the one thread's
// search itself (the same board found, in the same nodes), and searched by the restarting search
// beside the plain tasks on two threads finds what that search finds early; and on threads the
// verdict is the one thread's on many random boards, every board found verified.
import { describe, expect, it } from "vitest";
import { solve } from "../src/index.js";
import { solve as solveOneThread } from "../src/search/solve.js";
import { TaskSearch, solveTaskChunked, solveTasks, wholeBoardTask, type SolveTask } from "../src/count/solve-tasks.js";
import { RUNNING } from "../src/engine/contract.js";
import { ROOT_PROBE_NODES, searchRoot } from "../src/engine/root-probe.js";
import { boardOf } from "../src/board/board.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import { bruteForce, honours, randomGivens, rng, type Givens } from "./constrained.js";

const limits = { caller: "test", plain: [1, 1000], givens: [1, 1000] } as const;

// The Excluded Diagonals boards' searches more than one test here compares with: each made once
// (on first use, so any test runs alone), as the one thread's solve (wasm: its nodes are
// compared too) and solve on threads. The one thread's 23, 21 seed 1 alone is 0.9M nodes.
const edSearches = new Map<string, ReturnType<typeof solveOneThread>>();
function edBoard(n: number, d: number, seed: number) {
  return excludedDiagonalsBoard(n, d, { seed });
}
function oneThreadOf(n: number, d: number, seed: number): ReturnType<typeof solveOneThread> {
  const key = `${n} ${d} ${seed}`;
  if (!edSearches.has(key)) edSearches.set(key, solveOneThread(n, { method: "complete", blocked: edBoard(n, d, seed).blocked, engine: "wasm" }));
  return edSearches.get(key)!;
}
function onThreadsOf(n: number, d: number, seed: number, workers: number): ReturnType<typeof solve> {
  const key = `${n} ${d} ${seed} on ${workers}`;
  if (!edSearches.has(key)) edSearches.set(key, solve(n, { method: "complete", blocked: edBoard(n, d, seed).blocked, workers }));
  return edSearches.get(key)!;
}

/** Each solution holds exactly one task's prefix (one of its prefixes, for a task of several). */
function expectPartition(solutions: number[][], tasks: SolveTask[]): void {
  for (const columns of solutions) {
    const holders = tasks.filter((t) => t.prefixes.some((prefix) => prefix.every(([r, c]) => columns[r] === c)));
    expect(holders).toHaveLength(1);
  }
}

describe("solve's tasks cover the board exactly", () => {
  it("random boards n = 5..8 with given queens and blocked squares: every solution (brute force) in exactly one task", () => {
    const random = rng(2026);
    let cut = 0, withSolutions = 0;
    for (let i = 0; i < 120; i++) {
      const n = 5 + (i % 4);
      const givens: Givens = randomGivens(n, random, 2, 0.15);
      let board;
      try {
        board = boardOf(n, givens, limits);
      } catch {
        continue; // a given queen on a blocked square, or two on one square: refused before any cut
      }
      const solutions = bruteForce(n, givens);
      if (solutions.length > 0) withSolutions++;
      const tasks = solveTasks(board, 16);
      expectPartition(solutions, tasks);
      if (tasks.length >= 2 && tasks.every((t) => t.prefixes.length === 1 && t.prefixes[0].length === 1)) cut++;
    }
    expect(withSolutions).toBeGreaterThan(20);
    expect(cut).toBeGreaterThan(60);
  });

  it("a board with given queens is cut past their rows: at a line of two squares or more, none of them given", () => {
    const n = 12;
    const fixed: [number, number][] = [[0, 1], [5, 7]];
    const tasks = solveTasks(boardOf(n, { fixed, blocked: [[3, 3]] }, limits), 64);
    expect(tasks.length).toBeGreaterThanOrEqual(2);
    const squares = tasks.map((t) => { expect(t.prefixes).toHaveLength(1); expect(t.prefixes[0]).toHaveLength(1); return t.prefixes[0][0]; });
    expect(new Set(squares.map(([r]) => r)).size === 1 || new Set(squares.map(([, c]) => c)).size === 1).toBe(true);
    for (const [r, c] of squares) expect(fixed.some(([fr]) => fr === r) || fixed.some(([, fc]) => fc === c)).toBe(false);
  });
});

describe("the whole board's task: the portfolio on one pool thread, the restarting search beside the tasks on two or more", () => {
  it("searched by the portfolio it is the one thread's solve: the same board found, or none, in the same nodes (and the root's probe's)", async () => {
    for (const [n, d, seed] of [[20, 16, 1], [21, 23, 2], [23, 21, 1], [22, 20, 3]]) {
      const { blocked } = edBoard(n, d, seed);
      const one = await oneThreadOf(n, d, seed);
      const board = boardOf(n, { blocked }, limits);
      const task = wholeBoardTask(board, 5);
      expect([task.task, task.tasks, task.prefixes]).toEqual([4, 5, [[]]]);
      const r = await solveTaskChunked(task, "wasm", { allowed: () => Infinity, between: async () => {} }, "portfolio");
      expect(r.columns).toEqual(one.found ? Array.from(one.columns) : null);
      // The one thread probes the root first (undecided on these boards), then runs the portfolio.
      const root = searchRoot(n, board.constraints, "wasm");
      expect(root.status).toBe(RUNNING);
      expect(r.nodes + root.nodes).toBe(one.nodes);
    }
  });

  it("on one pool thread it is the only task (the one thread's nodes and its root's); on two, one more beside the cut's", async () => {
    const { blocked } = edBoard(23, 21, 1);
    const plain = solveTasks(boardOf(23, { blocked }, limits), 64).length;
    const [one, two] = [await solve(23, { method: "complete", blocked, workers: 1 }), await onThreadsOf(23, 21, 1, 2)];
    expect([one.tasks, one.workers, two.tasks, two.workers]).toEqual([1, 1, plain + 1, 2]);
    // The root's probe, on the caller's thread (the plain tasks' search, about ROOT_PROBE_NODES nodes), and the portfolio on the pool's:
    // the one thread's solve, node for node (which probes the root too).
    const root = searchRoot(23, boardOf(23, { blocked }, limits).constraints, "wasm");
    expect(root.status).toBe(RUNNING);
    expect(root.nodes).toBeGreaterThanOrEqual(ROOT_PROBE_NODES);
    expect(one.nodes).toBe((await oneThreadOf(23, 21, 1)).nodes);
  });

  it("a task's method and share of the restarts are checked: anything else is refused, coded, naming what it got", () => {
    const task = wholeBoardTask(boardOf(8, {}, limits), 1);
    const refused = (make: () => unknown, what: RegExp): void => expect(make).toThrow(expect.objectContaining({ code: "NQ_PART_MISMATCH", message: expect.stringMatching(what) }));
    refused(() => new TaskSearch(task, "wasm", "random" as never), /method must be one of plain, portfolio, restarts, got "random"/);
    refused(() => new TaskSearch(task, "wasm", "restarts", { turn: 2, of: 2 }), /share of the restarts must be \{ turn, of \} with 0 <= turn < of <= 16/);
    refused(() => new TaskSearch(task, "wasm", "restarts", { turn: 0, of: 17 }), /<= 16/);
    refused(() => new TaskSearch(task, "wasm", "plain", { turn: 0, of: 2 }), /with method "restarts"/);
    expect(new TaskSearch(task, "wasm", "restarts", { turn: 1, of: 2 })).toBeInstanceOf(TaskSearch);
  });

  it("on four threads the restarting search has two, each its share of the restarts: the board it finds early is found in a share's nodes", async () => {
    // n = 22, d = 20, seed 3, as below: on four threads two restarting searches (turns 0 and 1 of 2) beside the tasks.
    const { blocked } = edBoard(22, 20, 3);
    const one = await oneThreadOf(22, 20, 3);
    const plain = solveTasks(boardOf(22, { blocked }, limits), 64).length;
    const four = await solve(22, { method: "complete", blocked, workers: 4 });
    expect(four.found).toBe(true);
    expect(honours(Array.from(four.columns!), 22, { fixed: [], blocked: blocked.map(([r, c]): [number, number] => [r, c]) })).toBe(true);
    expect(four.workers).toBe(4);
    expect(four.tasks).toBeGreaterThanOrEqual(plain + 2); // (and any a running task gave away)
    expect(four.nodes).toBeLessThan(one.nodes);
  });

  it("on two threads the restarting search has a thread to itself to the end: a board it finds early is found in its nodes", async () => {
    // n = 22, d = 20, seed 3: the portfolio finds it by its restarting search, after its 64-bit search's first
    // 262,144 nodes; the restarting search alone finds the same board in about 12k nodes, the 64-bit tasks in their
    // order only after more than ten times as many. So on two threads it is the restarting search's find.
    const { blocked } = edBoard(22, 20, 3);
    const one = await oneThreadOf(22, 20, 3);
    expect(one.found).toBe(true);
    const board = boardOf(22, { blocked }, limits);
    const restarts = await solveTaskChunked(wholeBoardTask(board, 1), "wasm", { allowed: () => Infinity, between: async () => {} }, "restarts");
    expect(restarts.columns).toEqual(Array.from(one.columns!));
    let tasksNodes = 0;
    for (const task of solveTasks(board, 64)) {
      const r = await solveTaskChunked(task, "wasm", { allowed: () => Infinity, between: async () => {} });
      tasksNodes += r.nodes;
      if (r.columns !== null) break;
    }
    expect(tasksNodes).toBeGreaterThan(10 * restarts.nodes);
    const two = await onThreadsOf(22, 20, 3, 2);
    expect(Array.from(two.columns!)).toEqual(restarts.columns);
    expect(two.nodes).toBeLessThan(one.nodes);
  });
});

describe("solve on threads, the restarting search beside the tasks: the one thread's verdict", () => {
  it("random blocked boards n = 10..16 on 2 and 3 threads: the same verdict, each board found honouring the givens", async () => {
    const random = rng(77);
    const verdicts = new Set<boolean>();
    // 13 boards: n = 10..16 each at least once, boards with a given queen and without, and both
    // verdicts (board 12's givens conflict). Each board's search is tens of nodes, so what a board
    // costs is its pool's threads (about 0.1 s of CPU each): 24 boards of this kind cost twice
    // as much and add only more boards of the same few tasks, each found at once. So each board
    // is searched on one pool, 2 and 3 threads in turn (each count meets six sizes and a given
    // queen): tasks of tens of nodes end at once, so a third thread has nothing to share and the
    // board takes the path it takes on two.
    for (let i = 0; i < 13; i++) {
      const n = 10 + (i % 7);
      const givens: Givens = randomGivens(n, random, 1, 0.2 + 0.2 * random());
      let one;
      try {
        one = await solveOneThread(n, { method: "complete", ...givens });
      } catch {
        continue; // refused givens (a queen on a blocked square): the threads refuse them the same way (solve-parallel.test.ts)
      }
      verdicts.add(one.found);
      const r = await solve(n, { method: "complete", ...givens, workers: 2 + (i % 2) });
      expect([r.found, r.reason]).toEqual([one.found, one.reason]);
      if (r.found) expect(honours(Array.from(r.columns), n, givens)).toBe(true);
    }
    expect(verdicts).toEqual(new Set([true, false]));
  }, 120_000);

  it("Excluded Diagonals boards of both verdicts (n = 20..23) on 2 and 3 threads: the one thread's verdict, boards found verified", async () => {
    // Each board on 2 or 3 threads (each count meets both verdicts: 23, 21 and 21, 23 have no
    // solution, 20, 16 and 22, 20 have one); the three threads' sharing on these boards is
    // solve-share.test.ts's, which runs 23, 21, 21, 23 and 22, 20 on 3 threads too.
    for (const [n, d, seed, workers] of [[23, 21, 1, 2], [21, 23, 2, 3], [20, 16, 1, 2], [22, 20, 3, 3]]) {
      const { blocked } = edBoard(n, d, seed);
      const one = await oneThreadOf(n, d, seed);
      const r = await onThreadsOf(n, d, seed, workers);
      expect([r.found, r.reason]).toEqual([one.found, one.reason]);
      if (r.found) expect(honours(Array.from(r.columns), n, { fixed: [], blocked: blocked.map(([row, col]): [number, number] => [row, col]) })).toBe(true);
    }
  }, 120_000);
});
