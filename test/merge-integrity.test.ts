// Merges read once and refuse what cannot be: a result whose fields are getters or a Proxy
// (answering one thing when checked and another when summed) is read once into plain values,
// checked and summed from those; a constrained count outside what its board can hold (the
// product of free squares, Bregman's bound on their perfect matchings) is refused at once;
// a constrained merge wants exactly one result per part of the whole split, as the plain one.
import { describe, expect, it } from "vitest";
import { ErrorCode } from "../src/core/errors.js";
import type { PartCount } from "../src/count/parts.js";
import { checkPartCount, countTask, mergeCounts, splitCount } from "../src/count/split.js";
import { checkConstrainedPartCount, type ConstrainedPartCount } from "../src/count/constrained-parts.js";
import { countConstrainedPart, mergeConstrainedCounts, splitConstrainedCount } from "../src/count/deprecated.js";
import { checkConstraints, type Square } from "../src/board/constraints.js";
import { constrainedCapacity } from "../src/count/bounds.js";
import { caught, isSolution } from "./helpers.js";

/** OEIS A000170. */
const TOTAL: Record<number, bigint> = { 8: 92n, 9: 352n, 10: 724n, 11: 2680n, 12: 14200n };

/** Solutions of a constrained board by brute force over permutations (independent of the package). */
function bruteConstrained(n: number, fixed: readonly Square[], blocked: readonly Square[]): bigint {
  const blockedSet = new Set(blocked.map(([r, c]) => r * n + c));
  const fixedAt = new Map(fixed.map(([r, c]) => [r, c]));
  const cols: number[] = [];
  let found = 0n;
  const place = (r: number): void => {
    if (r === n) { if (isSolution(cols)) found++; return; }
    for (let c = 0; c < n; c++) {
      if (blockedSet.has(r * n + c) || cols.includes(c)) continue;
      if (fixedAt.has(r) && fixedAt.get(r) !== c) continue;
      if (cols.some((x, y) => Math.abs(x - c) === r - y)) continue;
      cols.push(c);
      place(r + 1);
      cols.pop();
    }
  };
  place(0);
  return found;
}

/** A result whose field `key` reads `first` the first time and `later` from then on, counting its reads. */
function twoFaced<T extends object>(result: T, key: keyof T & string, first: string, later: string): { value: T; reads: () => number } {
  let reads = 0;
  const value = { ...result };
  Object.defineProperty(value, key, { enumerable: true, get: () => (reads++ === 0 ? first : later) });
  return { value, reads: () => reads };
}

/** The same through a Proxy: every read of `key` after the first says `later`. */
function twoFacedProxy<T extends object>(result: T, key: string, later: string): { value: T; reads: () => number } {
  let reads = 0;
  const value = new Proxy(result, {
    get(target, property, receiver) {
      if (property === key) return reads++ === 0 ? Reflect.get(target, property, receiver) : later;
      return Reflect.get(target, property, receiver);
    },
  });
  return { value, reads: () => reads };
}

describe("mergeCounts reads each result once", () => {
  const split = splitCount(10, { parts: 8 });
  const results = split.map((p) => countTask(p));

  it("an honest merge is exact (OEIS A000170)", () => {
    expect(mergeCounts(results, { n: 10, parts: split.length }).total).toBe(TOTAL[10]);
  });

  it("a getter that is small when checked and large when summed changes nothing: read once, the sum is exact", () => {
    const big = "2000000"; // above any bound of the part: refused if it were the value checked
    const faced = twoFaced(results[2], "count8", results[2].count8, big);
    const list = results.map((r, i) => (i === 2 ? faced.value : r));
    expect(mergeCounts(list, { n: 10, parts: split.length }).total).toBe(TOTAL[10]);
    expect(faced.reads()).toBe(1);
    // the large answer given first is refused (out of the part's bounds), never summed
    const liar = twoFaced(results[2], "count8", big, results[2].count8);
    expect(caught(() => mergeCounts(results.map((r, i) => (i === 2 ? liar.value : r)), { n: 10, parts: split.length })).code).toBe(ErrorCode.partMismatch);
  });

  it("a Proxy that answers differently after the first read changes nothing", () => {
    const faced = twoFacedProxy(results[5], "count8", "900000");
    const list = results.map((r, i) => (i === 5 ? faced.value : r));
    expect(mergeCounts(list, { n: 10, parts: split.length }).total).toBe(TOTAL[10]);
    expect(faced.reads()).toBe(1);
  });

  it("a Proxy of the list itself answering another element on a second read changes nothing", () => {
    let reads = 0;
    const inflated = { ...results[0], count8: String(BigInt(results[0].count8) + 1n) };
    const list = new Proxy(results, {
      get(target, property, receiver) {
        if (property === "0") return reads++ === 0 ? target[0] : inflated;
        return Reflect.get(target, property, receiver);
      },
    });
    expect(mergeCounts(list, { n: 10, parts: split.length }).total).toBe(TOTAL[10]);
    expect(reads).toBe(1);
  });

  it("checkPartCount returns a plain copy, not the object given", () => {
    const faced = twoFaced(results[1], "nodes", results[1].nodes, "1");
    const checked = checkPartCount(split[1], faced.value);
    expect(checked).not.toBe(faced.value);
    expect(checked.nodes).toBe(results[1].nodes);
    expect(Object.getOwnPropertyDescriptor(checked, "nodes")?.get).toBeUndefined();
  });

  it("an empty list is refused (NQ_PARTS_INCOMPLETE)", () => {
    expect(caught(() => mergeCounts([], { n: 10, parts: split.length })).code).toBe(ErrorCode.partsIncomplete);
  });

  it("a count8 within the product bound but beyond Bregman's is refused", () => {
    // Part 0 of n = 12 into 64 parts: its tasks' completions are far fewer than the product of their free squares.
    const parts = splitCount(12, { parts: 64 });
    const honest = countTask(parts[0]);
    // (nodes within their own bound, so the solutions bound is what refuses it)
    const forged: PartCount = { ...honest, count8: "5000000", nodes: "23000000" };
    const error = caught(() => checkPartCount(parts[0], forged));
    expect(error.code).toBe(ErrorCode.partMismatch);
    expect(error.message).toMatch(/solutions up to symmetry; its prefixes hold at most/);
  });
});

describe("constrained merges", () => {
  const blocked: Square[] = [[0, 0]];
  const constraints = checkConstraints(10, { blocked }, "test");
  const split = splitConstrainedCount(10, constraints, 8);
  const results = split.map((p) => countConstrainedPart(p));
  const TRUE_TOTAL = 660n; // 724 minus the 64 solutions with a queen on the corner square (checked below by brute force)

  it("an honest merge is exact (brute force over permutations agrees)", () => {
    expect(bruteConstrained(10, [], blocked)).toBe(TRUE_TOTAL);
    expect(split.length).toBe(8);
    expect(mergeConstrainedCounts(results, split).total).toBe(TRUE_TOTAL);
  });

  it("absurd totals are refused at once: total + 10^30 (nodes raised too), 10^6 a part", () => {
    const huge = results.map((r, i) => (i === 3 ? { ...r, total: String(BigInt(r.total) + 10n ** 30n), nodes: String(BigInt(r.nodes) + 10n ** 31n) } : r));
    expect(caught(() => mergeConstrainedCounts(huge, split)).code).toBe(ErrorCode.partMismatch);
    const rogue = results.map((r) => ({ ...r, total: "1000000", nodes: "1000000" }));
    const error = caught(() => mergeConstrainedCounts(rogue, split));
    expect(error.code).toBe(ErrorCode.partMismatch);
    expect(error.message).toMatch(/its board holds at most \d+ solutions/);
    for (const [i, part] of split.entries()) {
      expect(caught(() => checkConstrainedPartCount(part, rogue[i])).code, `part ${i}`).toBe(ErrorCode.partMismatch);
      expect(constrainedCapacity(part).total).toBeLessThan(1_000_000n);
    }
  });

  it("3 of 8 parts (given with the 3 parts of the split they came from) are refused: NQ_PARTS_INCOMPLETE naming the missing ones", () => {
    const error = caught(() => mergeConstrainedCounts(results.slice(0, 3), split.slice(0, 3)));
    expect(error.code).toBe(ErrorCode.partsIncomplete);
    expect(error.message).toMatch(/3 of 8 constrained parts; missing parts 3, 4, 5, 6, 7/);
  });

  it("an empty list is refused: ([], split) NQ_PARTS_INCOMPLETE, ([], []) a coded error, not 0", () => {
    expect(caught(() => mergeConstrainedCounts([], split)).code).toBe(ErrorCode.partsIncomplete);
    expect(caught(() => mergeConstrainedCounts([], [])).code).toBe(ErrorCode.invalidArgument);
  });

  it("duplicated and foreign parts are refused as for plain boards", () => {
    expect(caught(() => mergeConstrainedCounts([...results, results[0]], split)).code).toBe(ErrorCode.partsIncomplete);
    const otherBoard = splitConstrainedCount(10, checkConstraints(10, { blocked: [[0, 1]] }, "test"), 8);
    const foreign = countConstrainedPart(otherBoard[2]);
    expect(caught(() => mergeConstrainedCounts(results.map((r, i) => (i === 2 ? foreign : r)), split)).code).toBe(ErrorCode.partMismatch);
    // a split list with a part of another board in it
    expect(caught(() => mergeConstrainedCounts(results, split.map((p, i) => (i === 4 ? otherBoard[4] : p)))).code).toBe(ErrorCode.partMismatch);
    const outside = { ...results[0], part: 8 };
    expect(caught(() => mergeConstrainedCounts([...results.slice(1), outside], split)).code).toBe(ErrorCode.partMismatch);
  });

  it("getters and Proxies are read once: what is checked is what is summed", () => {
    const faced = twoFaced<ConstrainedPartCount>(results[1], "total", results[1].total, String(10n ** 30n));
    expect(mergeConstrainedCounts(results.map((r, i) => (i === 1 ? faced.value : r)), split).total).toBe(TRUE_TOTAL);
    expect(faced.reads()).toBe(1);
    const proxied = twoFacedProxy(results[6], "total", "40000");
    expect(mergeConstrainedCounts(results.map((r, i) => (i === 6 ? proxied.value : r)), split).total).toBe(TRUE_TOTAL);
    expect(proxied.reads()).toBe(1);
    const fresh = twoFaced<ConstrainedPartCount>(results[1], "total", results[1].total, String(10n ** 30n));
    const copy = checkConstrainedPartCount(split[1], fresh.value);
    expect(copy.total).toBe(results[1].total);
    expect(Object.getOwnPropertyDescriptor(copy, "total")?.get).toBeUndefined();
  });

  it("the bounds are sound: every honest part of many boards passes, with its total and nodes within them", () => {
    // Deterministic pseudo-random boards, n = 5 .. 9, a few givens and blocks each.
    let seed = 12345;
    const rand = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % k);
    let boards = 0;
    for (let trial = 0; trial < 40; trial++) {
      const n = 5 + rand(5);
      const fixed: Square[] = [];
      for (let k = rand(3); k > 0; k--) {
        const row = rand(n);
        if (!fixed.some(([r]) => r === row)) fixed.push([row, rand(n)]); // given queens may attack each other: no solution then
      }
      const blockedSquares: Square[] = Array.from({ length: rand(4) }, () => [rand(n), rand(n)] as Square)
        .filter(([r, c]) => !fixed.some(([fr, fc]) => fr === r && fc === c));
      const board = checkConstraints(n, { fixed, blocked: blockedSquares }, "test");
      const parts = splitConstrainedCount(n, board, 1 + rand(12));
      let sum = 0n;
      for (const part of parts) {
        const r = countConstrainedPart(part);
        const cap = constrainedCapacity(part);
        expect(BigInt(r.total) <= cap.total && BigInt(r.nodes) <= cap.nodes, JSON.stringify({ n, fixed, blockedSquares, part: part.part })).toBe(true);
        checkConstrainedPartCount(part, r);
        sum += BigInt(r.total);
      }
      expect(sum).toBe(bruteConstrained(n, fixed, blockedSquares));
      boards++;
    }
    expect(boards).toBe(40);
  });

  it("a full board of n = 8 .. 12 as one part: Bregman's bound holds and is below n!", () => {
    for (const n of [8, 9, 10, 11, 12]) {
      const board = checkConstraints(n, { blocked: [[n - 1, n - 1]] }, "test");
      const [part] = splitConstrainedCount(n, board, 1);
      const cap = constrainedCapacity(part);
      let factorial = 1n;
      for (let k = 2n; k <= BigInt(n); k++) factorial *= k;
      expect(cap.total).toBeLessThan(factorial);
      expect(cap.total).toBeGreaterThanOrEqual(TOTAL[n]);
    }
  });
});
