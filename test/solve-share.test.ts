// solve's tasks shared between threads: a thread idle while the tasks wait on another has a
// held search give away the untried branches at the top of its stack (pool.ts share,
// TaskSearch.split), as tasks of their own. Checked on the pool itself, every task run to its
// end (not stopped at the first board found) with tiny slices so that tasks are held and
// split often: every solution of the board (enumerated on one thread) lies in at most one
// piece a task gave away, and one that lies in none of them is in the task's own remaining
// range, so that task cannot have ended without a board (nothing lost, nothing doubled); and
// solve on 2 and 3 threads, sharing, gives the one thread's verdict, every board found verified.
import { describe, expect, it } from "vitest";
import { solve } from "../src/index.js";
import { solve as solveOneThread } from "../src/search/solve.js";
import { WorkerPool } from "../src/workers/pool.js";
import { solveTasks, type SolveTask } from "../src/count/solve-tasks.js";
import { openConstrainedSolutions } from "../src/count/constrained.js";
import { boardOf, type Board } from "../src/board/board.js";
import { pickEngine } from "../src/engine/select.js";
import { excludedDiagonalsBoard } from "../src/board/excluded-diagonals.js";
import type { Square } from "../src/board/constraints.js";
import { honours, randomGivens, rng, type Givens } from "./constrained.js";

const limits = { caller: "test", plain: [1, 1000], givens: [1, 1000] } as const;

/** A task as the driver follows it: the pieces it gave away (indices of records), and how it ended. */
type Record = { task: SolveTask; pieces: number[]; ended?: "found" | "none"; columns?: number[] };

/** Every task run to its end on the pool, slices of 16 * 2^k nodes, each split given away becoming a task. */
async function runShared(pool: WorkerPool, tasks: SolveTask[]): Promise<Record[]> {
  const records: Record[] = tasks.map((task) => ({ task, pieces: [] }));
  return new Promise((resolve, reject) => {
    let open = 0;
    const start = (at: number, k: number, resume?: Parameters<WorkerPool["solve"]>[1]["resume"]): void => {
      open++;
      const record = records[at];
      pool.solve(record.task, {
        allowed: Infinity, budget: 16 * 2 ** k, onReport() {}, ...(resume ? { resume } : {}),
        onSplit: (prefixes) => {
          for (const prefix of prefixes) {
            record.pieces.push(records.length);
            records.push({ task: { ...record.task, prefixes: [prefix], task: records.length }, pieces: [] });
            start(records.length - 1, 0);
          }
        },
      }).done.then((slice) => {
        if (slice.unfinished) start(at, k + 1, slice.resume);
        else Object.assign(record, { ended: slice.columns === null ? "none" : "found", ...(slice.columns ? { columns: slice.columns } : {}) });
        if (--open === 0) resolve(records);
      }, reject);
    };
    for (let i = 0; i < tasks.length; i++) start(i, 0);
  });
}

function solutionsOf(board: Board): number[][] {
  const stream = openConstrainedSolutions(board.n, board.constraints, pickEngine("wasm"));
  const all: number[][] = [];
  for (let s = stream.next(); s !== null; s = stream.next()) all.push(Array.from(s));
  return all;
}

const holds = (columns: number[], prefix: readonly Square[]): boolean => prefix.every(([r, c]) => columns[r] === c);

describe("solve's tasks shared between threads", () => {
  for (const size of [2, 3]) {
    it(`on ${size} threads, tasks split at random moments: every solution in one task's remaining range, none lost or doubled`, async () => {
      const random = rng(40 + size);
      const pool = new WorkerPool({ size, engine: "wasm" });
      let splits = 0, boards = 0, solvable = 0;
      try {
        // 10 boards (n = 11..14): their tasks were split and given away 128 times on 2 threads and
        // 184 on 3 when written, each solution of each board checked against those pieces; 14
        // boards took 40% more CPU for 174 and 250.
        for (let i = 0; i < 10; i++) {
          const n = 11 + (i % 4);
          const givens: Givens = randomGivens(n, random, 1, 0.1 + 0.15 * random());
          let board: Board;
          try {
            board = boardOf(n, givens, limits);
          } catch {
            continue;
          }
          boards++;
          const solutions = solutionsOf(board);
          if (solutions.length > 0) solvable++;
          const records = await runShared(pool, solveTasks(board, 64));
          for (const record of records) {
            expect(record.ended).toBeDefined();
            splits += record.pieces.length;
            if (record.columns) expect(honours(record.columns, n, givens) && holds(record.columns, record.task.prefixes[0])).toBe(true);
          }
          // Each solution checked against each task that holds it, the faults gathered and asserted
          // once a board (an expect per solution and task cost seconds of CPU over 58,000 solutions).
          const faults: string[] = [];
          for (const columns of solutions) {
            for (const record of records.filter((r) => holds(columns, r.task.prefixes[0]))) {
              const inPieces = record.pieces.filter((p) => holds(columns, records[p].task.prefixes[0]));
              if (inPieces.length > 1) faults.push(`board ${i}: ${columns} in ${inPieces.length} pieces of one split`); // (the pieces of one split are disjoint)
              if (inPieces.length === 0 && record.ended !== "found") faults.push(`board ${i}: ${columns} left in a task that ended without a board`);
            }
          }
          expect(faults).toEqual([]);
          expect(records.some((r) => r.ended === "found")).toBe(solutions.length > 0);
        }
      } finally {
        await pool.close();
      }
      expect(boards).toBeGreaterThan(8);
      expect(solvable).toBeGreaterThan(2);
      expect(splits).toBeGreaterThan(10);
    }, 120_000);
  }

  it("solve on 3 threads shares the tasks (more tasks than the cut's) and gives the one thread's verdict, boards found verified", async () => {
    let shared = 0;
    // The one thread's verdict searched here on each board (about 0.7 s of CPU): never written in.
    // Both verdicts and both engines; n = 23, d = 21 shared its tasks on every run measured (17 to
    // 29 tasks against its cut's 9), and so did n = 21 on the reference engine. (n = 23, d = 22,
    // 3.1M nodes on one thread, cost 3.8 s of CPU with its reference for no path of the pool that
    // these do not take: no solution, its tasks shared.)
    for (const [n, d, seed] of [[23, 21, 1], [21, 23, 2], [22, 20, 3]]) {
      const { blocked } = excludedDiagonalsBoard(n, d, { seed });
      const one = await solveOneThread(n, { method: "complete", blocked });
      const cut = solveTasks(boardOf(n, { blocked }, limits), 64).length;
      for (const engine of ["wasm", "ts"] as const) {
        if (engine === "ts" && n > 21) continue; // (the reference engine is slower: one board is enough)
        const r = await solve(n, { method: "complete", blocked, workers: 3, engine });
        expect([r.found, r.reason]).toEqual([one.found, one.reason]);
        if (r.found) expect(honours(Array.from(r.columns), n, { fixed: [], blocked: blocked.map(([row, col]): [number, number] => [row, col]) })).toBe(true);
        if ((r.tasks ?? 0) > cut + 1) shared++;
      }
    }
    expect(shared).toBeGreaterThan(0);
  }, 120_000);
});
