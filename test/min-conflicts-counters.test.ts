// The 2-bit diagonal counters of min-conflicts (assembly/min-conflicts-counters.ts and its
// twin): param 1 forces them below n = 2^22, so the same boards are searched with both
// widths. Both engines, both widths: the same columns, tries and steps; every board passes
// the independent check of test/helpers.ts; the overflow list (diagonals past 2) is used,
// as the constructed boards show; the list's counts are exact against a plain model.
import { describe, expect, test } from "vitest";
import { FOUND } from "../src/engine/contract.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { OverflowList, addOne, countAt, expandNarrow, fieldAt, removeOne } from "../src/engine/ts/min-conflicts-counters.js";
import { NARROW_FROM, OVERFLOW_CAPACITY, minConflictsBytes } from "../src/engine/ts/min-conflicts-params.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { isSolutionOfSize } from "./helpers.js";
import { expectSameSearch, searchOnce } from "./min-conflicts-search.js";

/** The most queens on one diagonal of a board (either direction), counted here. */
function crowdedDiagonal(columns: ArrayLike<number>): number {
  const n = columns.length;
  const sums = new Int32Array(2 * n), diffs = new Int32Array(2 * n);
  let most = 0;
  for (let r = 0; r < n; r++) {
    most = Math.max(most, ++sums[r + columns[r]], ++diffs[columns[r] - r + n - 1]);
  }
  return most;
}

describe("min-conflicts: 2-bit counters", () => {
  test("n = 4..80 and 1000 to 100,000, forced 2-bit (param 1) against u8, on both engines: identical searches, every board solved; diagonals past 2 and 3 met", () => {
    const sizes = [...Array.from({ length: 77 }, (_, i) => i + 4), 1000, 20_000, 100_000];
    let past2 = 0, past3 = 0;
    for (const n of sizes) {
      for (const seed of n <= 80 ? [1, 2, 3, 4, 5] : [1, 2]) {
        const plain = searchOnce(wasmEngine, n, seed, 0);
        const label = `n = ${n}, seed ${seed}`;
        expect(plain.figures.status, label).toBe(FOUND);
        expect(isSolutionOfSize(plain.columns, n), label).toBe(true);
        for (const engine of [wasmEngine, tsEngine]) expectSameSearch(searchOnce(engine, n, seed, 1), plain, `${label} ${engine.name}`);
        expectSameSearch(searchOnce(tsEngine, n, seed, 0), plain, `${label} ts u8`);
        const most = crowdedDiagonal(plain.constructed);
        if (most > 2) past2++;
        if (most > 3) past3++;
      }
    }
    // The list is made (3 queens), counted up (4 and more) and emptied again on the way to a solution.
    expect(past2).toBeGreaterThan(50);
    expect(past3).toBeGreaterThan(10);
  });

  test("from n = 2^22 the counters are 2-bit on their own (and the draws windowed): both engines find the same checked board", () => {
    for (const n of [NARROW_FROM + 5]) {
      const [wasm, ts] = [wasmEngine, tsEngine].map((engine) => searchOnce(engine, n, 3, 0));
      expect(wasm.figures.status).toBe(FOUND);
      expect(isSolutionOfSize(wasm.columns, n)).toBe(true);
      expectSameSearch(ts, wasm, `n = ${n}, ts against wasm`);
    }
  });

  test("the memory: 8 bytes a queen below 2^22, 5 from there", () => {
    const below = NARROW_FROM - 1, at = NARROW_FROM;
    expect(minConflictsBytes(below)).toBe(Math.ceil((4 * below) / 16) * 16 + 2 * Math.ceil((2 * below + 32) / 16) * 16 + 65_536);
    expect(minConflictsBytes(at)).toBe(4 * at + 2 * ((at / 2) + 16) + 65_536 + 8 * OVERFLOW_CAPACITY);
    expect(minConflictsBytes(1e8) / 1e8).toBeCloseTo(5, 2);
  });
});

describe("min-conflicts: the 2-bit counters' twin against a plain count", () => {
  test("random adds and removes on 40 diagonals of two sets: every count exact, the fields saturate at 3, the list holds the diagonals past 2", () => {
    const words = [new Uint32Array(4), new Uint32Array(4)];
    const model = [new Int32Array(64), new Int32Array(64)];
    const overflow = new OverflowList();
    let x = 12345;
    const next = (k: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8) % k;
    let most = 0;
    for (let step = 0; step < 20_000; step++) {
      const set = next(2), d = next(40);
      if (model[set][d] > 0 && next(2) === 0) {
        expect(removeOne(words[set], set, d, overflow)).toBe(--model[set][d]);
      } else {
        expect(addOne(words[set], set, d, overflow)).toBe(model[set][d]++);
      }
      most = Math.max(most, model[set][d]);
      expect(countAt(words[set], set, d, overflow)).toBe(model[set][d]);
      if (step % 100 !== 0) continue;
      for (const s of [0, 1]) {
        const counts = Array.from({ length: 64 }, (_, e) => countAt(words[s], s, e, overflow));
        expect(counts).toEqual(Array.from(model[s]));
        expect(Array.from({ length: 64 }, (_, e) => fieldAt(words[s], e))).toEqual(counts.map((c) => Math.min(c, 3)));
      }
      expect(overflow.count).toBe(model.reduce((sum, m) => sum + m.filter((c) => c > 2).length, 0));
    }
    expect(most).toBeGreaterThan(6);
    expect(overflow.full).toBe(false);
  });

  test("a full list says so (the search then restarts its try)", () => {
    const words = new Uint32Array(2 * OVERFLOW_CAPACITY);
    const overflow = new OverflowList();
    for (let d = 0; d <= OVERFLOW_CAPACITY; d++) for (let q = 0; q < 3; q++) addOne(words, 0, d, overflow);
    expect(overflow.count).toBe(OVERFLOW_CAPACITY);
    expect(overflow.full).toBe(true);
    overflow.reset();
    expect(overflow.full).toBe(false);
  });

  test("bits to 2-bit fields: bit k of word w becomes field 32 w + k, top down in place", () => {
    const words = new Uint32Array([0x8000_0001, 0xffff_0000, 0, 0]);
    for (let w = 1; w >= 0; w--) expandNarrow(words, w);
    const fields = Array.from({ length: 64 }, (_, d) => fieldAt(words, d));
    expect(fields.map((f, d) => (f ? d : -1)).filter((d) => d >= 0)).toEqual([0, 31, ...Array.from({ length: 16 }, (_, i) => 48 + i)]);
  });
});
