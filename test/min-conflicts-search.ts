// One min-conflicts search run to its end on an engine, for the tests of its internals
// (test/min-conflicts-counters.test.ts, test/min-conflicts-windows.test.ts): its figures and
// the board at the end of construction and at the end, and the check that two are the same.
import { expect } from "vitest";
import { RUNNING, type Engine } from "../src/engine/contract.js";
import { boardDifference } from "./helpers.js";

/** One search to its end: its figures, and copies of the board at the end of construction and at the end. */
export function searchOnce(engine: Engine, n: number, seed: number, param: number) {
  const search = engine.openSearch("min-conflicts", n, { seed, param, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity });
  try {
    let status = search.run(Number.MAX_SAFE_INTEGER); // construction ends a run (its phase changes)
    const constructed = search.columns().slice();
    while (status === RUNNING) status = search.run(Number.MAX_SAFE_INTEGER);
    const columns = search.columns().slice();
    return { figures: { status, ...search.stats(), work: search.work() }, constructed, columns };
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
