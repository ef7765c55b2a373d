// Method 'construct' beyond what methods-random.test.ts checks: both engines give,
// row for row, the even/odd lists as written in ../shared/refs/construct.c (rebuilt
// here independently), also where the Wasm kernel's 65,536-row window wraps and
// when a search is run in odd-sized chunks; and the columns returned belong to the
// caller: a plain array of its own that no later call writes to.
import { describe, expect, test } from "vitest";
import type { Engine, SearchParams } from "../src/engine/contract.js";
import { FOUND, RUNNING } from "../src/engine/contract.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { solve } from "../src/search/solve.js";
import { ENGINES, isSolutionLarge } from "./helpers.js";

/** construct.c's lists (1-based columns pushed one by one), returned 0-based. */
function referenceColumns(n: number): number[] {
  if (n === 1) return [0];
  const evens: number[] = [], odds: number[] = [];
  for (let v = 2; v <= n; v += 2) evens.push(v);
  for (let v = 1; v <= n; v += 2) odds.push(v);
  let list: number[];
  if (n % 6 === 2) {
    const rest = odds.filter((v) => v !== 1 && v !== 3 && v !== 5);
    list = [...evens, 3, 1, ...rest, 5];
  } else if (n % 6 === 3) {
    list = [...evens.filter((v) => v !== 2), 2, ...odds.filter((v) => v !== 1 && v !== 3), 1, 3];
  } else {
    list = [...evens, ...odds];
  }
  return list.map((v) => v - 1);
}

const WINDOW = 1 << 16; // WINDOW_ROWS of assembly/construct.ts
const PARAMS: SearchParams = { seed: 1, param: 0, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity };
const BOTH: [string, Engine][] = [["wasm", wasmEngine], ["ts", tsEngine]];

/** The first row where two boards differ, -1 when they are the same. */
function firstDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe("construct: the classic lists, row for row", () => {
  test.each(ENGINES)("%s: n = 1 and 4..200, and every n mod 6 around one and two windows", async (engine) => {
    const sizes = [1];
    for (let n = 4; n <= 200; n++) sizes.push(n);
    for (const base of [WINDOW, 2 * WINDOW]) for (let d = -6; d <= 6; d++) sizes.push(base + d);
    for (const n of sizes) {
      const r = await solve(n, { method: "construct", engine });
      expect(firstDifference(r.columns!, referenceColumns(n)), `n = ${n}`).toBe(-1);
    }
  });

  test.each(BOTH)("%s: runs in odd-sized chunks give the same board; a board in progress is a copy", (_name, engine) => {
    for (const n of [2 * WINDOW + 8, 2 * WINDOW + 9, 2 * WINDOW + 11]) {
      const search = engine.openSearch("construct", n, PARAMS);
      let status = RUNNING;
      let partial: Int32Array | undefined;
      for (const chunk of [1, 7, WINDOW - 1, 3, WINDOW + 5, 100_000]) {
        status = search.run(search.work() + chunk);
        if (status !== RUNNING) break;
        partial ??= search.columns();
      }
      while (status === RUNNING) status = search.run(search.work() + 12_345);
      expect(status).toBe(FOUND);
      expect(search.work()).toBe(n);
      const columns = search.columns();
      search.close();
      expect(firstDifference(columns, referenceColumns(n)), `n = ${n}`).toBe(-1);
      // The copy taken after the first chunk kept its row and saw nothing written later.
      expect(partial![0]).toBe(columns[0]);
      expect(Array.from(partial!.subarray(1)).every((c) => c === 0)).toBe(true);
    }
  });
});

describe("construct: the columns belong to the caller", () => {
  test.each(ENGINES)("%s: a later solve neither overwrites nor shares an earlier result", async (engine) => {
    const n = 3 * WINDOW + 2;
    const first = await solve(n, { method: "construct", engine });
    const second = await solve(n, { method: "construct", engine });
    // (Identity compared by hand: toBe on two large arrays deep-compares them for its message.)
    expect(second.columns === first.columns || second.columns!.buffer === first.columns!.buffer).toBe(false);
    first.columns!.fill(-1);
    await solve(n, { method: "construct", engine });
    await solve(1000, { method: "construct", engine });
    expect(first.columns!.every((c) => c === -1)).toBe(true);
    expect(isSolutionLarge(second.columns!)).toBe(true);
  });

  test.each(ENGINES)("%s: a plain array of exactly n columns, not a view into a larger buffer", async (engine) => {
    for (const n of [8, 2 * WINDOW + 3]) {
      const { columns } = await solve(n, { method: "construct", engine });
      expect(columns).toBeInstanceOf(Int32Array);
      expect(columns!.byteOffset).toBe(0);
      expect(columns!.buffer.byteLength).toBe(4 * n);
      expect(columns!.buffer).toBeInstanceOf(ArrayBuffer);
    }
  });

  test.each(BOTH)("%s: asking a finished search twice gives two arrays of the same board", (_name, engine) => {
    const n = WINDOW + 5;
    const search = engine.openSearch("construct", n, PARAMS);
    expect(search.run(Infinity)).toBe(FOUND);
    const once = search.columns();
    once.fill(-1);
    const twice = search.columns();
    search.close();
    expect(twice === once || twice.buffer === once.buffer).toBe(false);
    expect(firstDifference(twice, referenceColumns(n))).toBe(-1);
    expect(once.every((c) => c === -1)).toBe(true);
  });
});
