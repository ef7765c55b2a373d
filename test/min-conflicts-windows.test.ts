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
import { solve } from "../src/search/solve.js";
import { isSolutionOfSize } from "./helpers.js";
import { expectSameSearch, searchInChunks, searchOnce } from "./min-conflicts-search.js";

const WINDOWED = 2, NARROW = 1;

/** FNV-1a of a board's columns (the golden boards below). */
function boardHash(columns: ArrayLike<number>): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < columns.length; i++) h = Math.imul(h ^ columns[i], 0x01000193) >>> 0;
  return h.toString(16);
}

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

  test("stopped and resumed every few units of work (the block and its window carried over), the same search on both engines", () => {
    for (const [n, seed, chunk] of [[20_000, 1, 7], [50_000, 2, 33], [50_000, 2, 1000]]) {
      const whole = searchOnce(wasmEngine, n, seed, WINDOWED);
      for (const engine of [wasmEngine, tsEngine]) {
        const chunked = searchInChunks(engine, n, seed, WINDOWED, chunk);
        const label = `n = ${n}, seed ${seed}, chunks of ${chunk}, ${engine.name}`;
        expect(chunked.figures, label).toEqual(whole.figures);
        expect(boardHash(chunked.columns), label).toBe(boardHash(whole.columns));
      }
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
    // Windows taken by turns instead of the better of two left 40 times the candidates at n = 10^6 (1,369 against 34).
    expect(windowedSteps).toBeLessThan(2 * plainSteps);
  });

  test("below 2^22 nothing changes unless forced, and a board with one window (n < 6,144) searches as without", async () => {
    // The boards min-conflicts gave before the windows (tries, steps and the FNV-1a of the
    // columns, recorded from the build without them; each checked here as a solution too), up
    // to the largest n without windows.
    for (const [n, seed, tries, steps, hash] of [[1000, 1, 1, 29, "f603c087"], [100_000, 2, 1, 31, "d83e1ae3"], [4_194_303, 1, 1, 44, "db1ef01a"]] as const) {
      const r = await solve(n, { method: "min-conflicts", seed, engine: "wasm" });
      expect(isSolutionOfSize(r.columns!, n), `n = ${n}`).toBe(true);
      expect([r.tries, r.steps, boardHash(r.columns!)], `n = ${n}, seed ${seed}`).toEqual([tries, steps, hash]);
    }
    for (const [n, seed] of [[4000, 1], [6000, 2]]) {
      expectSameSearch(searchOnce(wasmEngine, n, seed, WINDOWED), searchOnce(wasmEngine, n, seed, 0), `n = ${n}`);
      expectSameSearch(searchOnce(tsEngine, n, seed, WINDOWED), searchOnce(wasmEngine, n, seed, 0), `n = ${n}, ts`);
    }
  });
});
