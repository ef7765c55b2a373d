// Min-conflicts' windowed draws (assembly/min-conflicts.ts and its twin): from n = 2^22, each
// block of rows draws its groups of columns within one window of about 4,096 columns, the
// better of two windows for the block's first row, so that the block's loads stay within a few
// pages. Param bit 2 forces them below 2^22, so they are tested on boards of 20,000 to 300,000.
// Both engines make the same search; every board passes the independent check of
// test/helpers.ts; the rows do stay in their windows; the windows cost the repair little.
import { describe, expect, test } from "vitest";
import { FOUND } from "../src/engine/contract.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { WINDOW_GROUPS } from "../src/engine/ts/min-conflicts-params.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { isSolutionOfSize } from "./helpers.js";
import { expectSameSearch, searchOnce } from "./min-conflicts-search.js";

const WINDOWED = 2, NARROW = 1;

/** The share of rows 1 .. n - n/64 - 1 (the group draws' rows) whose column is within `width` of the row before's. */
function nearShare(columns: ArrayLike<number>, width: number): number {
  const end = columns.length - (columns.length >> 6);
  let near = 0;
  for (let r = 1; r < end; r++) if (Math.abs(columns[r] - columns[r - 1]) < width) near++;
  return near / (end - 1);
}

describe("min-conflicts: windowed draws", () => {
  test("n = 20,000 to 300,000, forced (param 2, with u8 and 2-bit counters): both engines the same search, every board solved", () => {
    for (const [n, seed, param] of [[20_000, 1, WINDOWED], [20_000, 2, WINDOWED | NARROW], [100_000, 3, WINDOWED], [300_000, 1, WINDOWED | NARROW]]) {
      const label = `n = ${n}, seed ${seed}, param ${param}`;
      const wasm = searchOnce(wasmEngine, n, seed, param);
      expect(wasm.figures.status, label).toBe(FOUND);
      expect(isSolutionOfSize(wasm.columns, n), label).toBe(true);
      expectSameSearch(searchOnce(tsEngine, n, seed, param), wasm, `${label}, ts against wasm`);
    }
  });

  test("the rows stay in their window (most placed within one window's width of the row before), and the repair's work stays that of the unwindowed draws", () => {
    const n = 100_000;
    const width = 32 * WINDOW_GROUPS; // (at n = 100,000: 24 windows of 130 or 131 groups)
    let windowedSteps = 0, plainSteps = 0;
    for (const seed of [1, 2, 3, 4]) {
      const windowed = searchOnce(wasmEngine, n, seed, WINDOWED), plain = searchOnce(wasmEngine, n, seed, 0);
      for (const r of [windowed, plain]) {
        expect(r.figures.status).toBe(FOUND);
        expect(isSolutionOfSize(r.columns, n)).toBe(true);
      }
      // A block's 32 rows share a window: 31 of 32 rows near the row before (0.97 measured);
      // drawn anywhere, two rows are that near with probability about 2 width / n (0.08).
      expect(nearShare(windowed.constructed, width), `seed ${seed}`).toBeGreaterThan(0.9);
      expect(nearShare(plain.constructed, width), `seed ${seed}`).toBeLessThan(0.2);
      windowedSteps += windowed.figures.steps;
      plainSteps += plain.figures.steps;
    }
    // Windows taken by turns instead of the better of two left 40 times the swaps at n = 10^6.
    expect(windowedSteps).toBeLessThan(2 * plainSteps);
  });

  test("below 2^22 nothing changes unless forced, and a board with one window (n < 6,144) searches as without", () => {
    for (const [n, seed] of [[4000, 1], [6000, 2]]) {
      expectSameSearch(searchOnce(wasmEngine, n, seed, WINDOWED), searchOnce(wasmEngine, n, seed, 0), `n = ${n}`);
      expectSameSearch(searchOnce(tsEngine, n, seed, WINDOWED), searchOnce(wasmEngine, n, seed, 0), `n = ${n}, ts`);
    }
  });
});
