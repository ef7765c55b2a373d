// The engines agree, kernel by kernel: same outputs, same statistics.
import { describe, expect, it } from "vitest";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { splitTasks } from "../src/engine/prefix-split.js";
import { count, randomSequence, solutions, solve } from "../src/index.js";
import { isSolution, isSolutionLarge } from "./helpers.js";

describe("engines agree", () => {
  it("count: total, unique and nodes for n = 1..13", async () => {
    for (let n = 1; n <= 13; n++) {
      const [w, t] = await Promise.all([count(n, { engine: "wasm" }), count(n, { engine: "ts" })]);
      expect({ n, total: w.total, unique: w.unique, nodes: w.nodes }).toEqual({ n, total: t.total, unique: t.unique, nodes: t.nodes });
    }
  });

  it("count tasks: each task gives the same counts on both engines (n = 11, 12)", () => {
    for (const n of [11, 12]) {
      const { tasks } = splitTasks(n);
      const w = wasmEngine.openCounter(n), t = tsEngine.openCounter(n);
      for (const task of tasks) expect(w.countTask(task)).toEqual(t.countTask(task));
    }
  });

  it("count at the board's edge (n = 32 masks): tasks with deep prefixes agree", () => {
    const n = 32;
    // Prefixes of a real 32-queens solution (the explicit construction for n mod 6 = 2:
    // 2, 4, ..., 32, then 3, 1, 7, 9, ..., 31, 5, 1-based) and of its mirror image keep
    // each task small while the masks use bit 31. The kernels' arithmetic does not depend
    // on the prefix being canonical, so parity is checked on both kinds.
    const oneBased = [...Array.from({ length: 16 }, (_, i) => 2 * i + 2), 3, 1, ...Array.from({ length: 13 }, (_, i) => 2 * i + 7), 5];
    const columns = Int32Array.from(oneBased, (c) => c - 1);
    expect(isSolution(columns)).toBe(true);
    const side = Array.from(columns).reverse();
    const w = wasmEngine.openCounter(n), t = tsEngine.openCounter(n);
    let solutionsSeen = 0n;
    for (const depth of [22, 24, 26, 30, 31]) { // 30 and 31: tasks that start on the last two rows
      const corner = { kind: 1 as const, bound1: columns[1], rows: Array.from(columns.subarray(0, depth)) };
      const off = { kind: 2 as const, bound1: side[0], rows: side.slice(0, depth) };
      for (const task of [corner, off]) {
        const result = w.countTask(task);
        expect(result).toEqual(t.countTask(task));
        solutionsSeen += result.count8 + result.count4 + result.count2;
      }
    }
    expect(solutionsSeen).toBeGreaterThan(0n);
  });

  // n = 1..29: the kernels keep the board in arrays (no bitboards, so no mask edge to reach),
  // and n = 20, 22, 28 and 29 (0.2 to 3 million nodes) already run in many time-sized
  // chunks, each resumed where the last stopped. n = 30 (56 million nodes) took three
  // quarters of this file's time and caught nothing that these do not.
  it("backtracking: same columns and nodes for n = 1..29", async () => {
    for (let n = 1; n <= 29; n++) {
      const [w, t] = await Promise.all([solve(n, { engine: "wasm", method: "backtrack" }), solve(n, { engine: "ts", method: "backtrack" })]);
      expect({ ...w, ms: 0, engine: "" }).toEqual({ ...t, ms: 0, engine: "" });
      if (w.found) expect(isSolution(w.columns!)).toBe(true);
      else expect(n === 2 || n === 3).toBe(true);
    }
  }, 120_000);

  it("solutions: the same sequence for n = 1..9", () => {
    for (let n = 1; n <= 9; n++) {
      expect([...solutions(n, { engine: "wasm" })]).toEqual([...solutions(n, { engine: "ts" })]);
    }
  });

  it("verify: the same repeat count on random boards", () => {
    const seq = randomSequence(7, { bound: 50, count: 5000 });
    for (let i = 0; i + 50 <= seq.length; i += 50) {
      const board = Int32Array.from(seq.subarray(i, i + 50));
      expect(wasmEngine.verifyRepeats(board)).toBe(tsEngine.verifyRepeats(board));
    }
  });

  it("verify: past the Wasm check's slices of 2^20 rows, rows in order and (from 2^24) sorted by region: the repeats counted here, and none on a solution", async () => {
    for (const n of [2_500_003, 2 ** 24 + 3]) await checkRepeats(n);
  }, 120_000);

  async function checkRepeats(n: number): Promise<void> {
    const board = new Int32Array(n); // random columns (an LCG's high bits): repeats in every slice
    for (let r = 0, x = 11; r < n; r++) board[r] = Math.floor(((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 2 ** 32) * n);
    // A queen repeats each of its three lines (column, sum and difference diagonal) that an
    // earlier row holds: one bit per line, a bit array per kind. A byte per line (84 MB at 2^24
    // rows, loaded at random) took 1.3 s of CPU there, a list of lines made per row 1.8 s.
    const cols = new Int32Array((n >>> 5) + 1), sums = new Int32Array(((2 * n) >>> 5) + 1), diffs = new Int32Array(((2 * n) >>> 5) + 1);
    const held = (bits: Int32Array, line: number): number => {
      const word = bits[line >>> 5], bit = 1 << (line & 31);
      bits[line >>> 5] = word | bit;
      return (word & bit) === 0 ? 0 : 1;
    };
    let repeats = 0;
    for (let r = 0; r < n; r++) {
      const c = board[r];
      repeats += held(cols, c) + held(sums, r + c) + held(diffs, r - c + n);
    }
    expect(repeats).toBeGreaterThan(n / 4); // (random columns repeat everywhere)
    expect(wasmEngine.verifyRepeats(board)).toBe(repeats);
    expect(tsEngine.verifyRepeats(board)).toBe(repeats);
    const solved = await solve(n, { method: "construct" });
    expect(isSolutionLarge(solved.columns!)).toBe(true);
    for (const engine of [wasmEngine, tsEngine]) expect(engine.verifyRepeats(solved.columns!)).toBe(0);
  }

  it("random sequences: raw outputs and bounded draws for many seeds and bounds", () => {
    for (const seed of [0, 1, 2, 42, 0x7fffffff, 0x80000000, 0xffffffff]) {
      for (const bound of [0, 1, 2, 3, 7, 8, 1000, 2 ** 31, 2 ** 31 + 1, 0xffffffff]) {
        expect(randomSequence(seed, { bound, count: 200, engine: "wasm" })).toEqual(
          randomSequence(seed, { bound, count: 200, engine: "ts" }),
        );
      }
    }
  });

  it("interleaved jobs share no state (Wasm instances are pooled between jobs)", async () => {
    const reference = [...solutions(8, { engine: "ts" })];
    const iterator = solutions(8, { engine: "wasm" })[Symbol.iterator]();
    const seen: Int32Array[] = [];
    for (let i = 0; i < 10; i++) seen.push(iterator.next().value as Int32Array);
    // other jobs of every kind run while the enumeration is open
    const [solved, counted] = await Promise.all([solve(12, { engine: "wasm" }), count(11, { engine: "wasm" })]);
    expect(Array.from(randomSequence(5, { engine: "wasm" }))).toEqual(Array.from(randomSequence(5, { engine: "ts" })));
    for (let r = iterator.next(); !r.done; r = iterator.next()) seen.push(r.value);
    expect(seen).toEqual(reference);
    expect(solved).toMatchObject({ ...(await solve(12, { engine: "ts" })), engine: "wasm", ms: solved.ms });
    expect(counted.total).toBe((await count(11, { engine: "ts" })).total);
  });
});
