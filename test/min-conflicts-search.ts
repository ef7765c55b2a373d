// One min-conflicts search run to its end on an engine, for the tests of its internals
// (test/min-conflicts-counters.test.ts, test/min-conflicts-windows.test.ts), whole or in
// chunks: its figures and boards, and the check that two are the same.
import { expect } from "vitest";
import { RUNNING, type Engine, type Search, type SearchStatus } from "../src/engine/contract.js";
import { boardDifference } from "./helpers.js";

/** A min-conflicts search of (n, seed) with `param`, uncapped. */
function open(engine: Engine, n: number, seed: number, param: number): Search {
  return engine.openSearch("min-conflicts", n, { seed, param, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity });
}

/** Its figures at the end: status, nodes, tries, steps, work. */
function figuresOf(search: Search, status: SearchStatus) {
  return { status, ...search.stats(), work: search.work() };
}

/** One search to its end: its figures, and copies of the board at the end of construction and at the end. */
export function searchOnce(engine: Engine, n: number, seed: number, param: number) {
  const search = open(engine, n, seed, param);
  try {
    let status = search.run(Number.MAX_SAFE_INTEGER); // construction ends a run (its phase changes)
    const constructed = search.columns().slice();
    while (status === RUNNING) status = search.run(Number.MAX_SAFE_INTEGER);
    return { figures: figuresOf(search, status), constructed, columns: search.columns().slice() };
  } finally {
    search.close();
  }
}

/** The same search run in chunks of `chunk` units of work (the kernel stops and resumes between them): its figures and board. */
export function searchInChunks(engine: Engine, n: number, seed: number, param: number, chunk: number) {
  const search = open(engine, n, seed, param);
  try {
    let status: SearchStatus = RUNNING;
    while (status === RUNNING) status = search.run(search.work() + chunk);
    return { figures: figuresOf(search, status), columns: search.columns().slice() };
  } finally {
    search.close();
  }
}

/** The same search: figures, constructed board and final board. */
export function expectSameSearch(got: ReturnType<typeof searchOnce>, want: ReturnType<typeof searchOnce>, label: string): void {
  expect(got.figures, label).toEqual(want.figures);
  expect(boardDifference(got.constructed, want.constructed), `${label}, constructed`).toBeNull();
  expect(boardDifference(got.columns, want.columns), `${label}, columns`).toBeNull();
}
