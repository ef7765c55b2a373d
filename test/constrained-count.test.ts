// count and solutions on constrained boards: exact totals against brute
// force, every enumerated board checked, both engines identical, parts that partition.
import { describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count, countParallel, excludedDiagonalsBoard, solutions, solve } from "../src/index.js";
import { checkConstraints, constraintLists, emptyConstraints } from "../src/board/constraints.js";
import { constrainedPrefixes, countConstrainedNow, prefixConstraints } from "../src/count/constrained.js";
import { countConstrainedPart, mergeConstrainedCounts, splitConstrainedCount } from "../src/count/deprecated.js";
import { solutionsPaced } from "../src/count/solutions.js";
import { boardOfConstraints } from "../src/board/board.js";
import { pickEngine } from "../src/engine/select.js";
import { ENGINES } from "./helpers.js";
import { bruteForce, honours, randomGivens, rng } from "./constrained.js";
import { A000170 } from "./fixtures/oeis.js";

const key = (columns: ArrayLike<number>): string => Array.from(columns).join(",");

describe("count and solutions with given queens and blocked squares", () => {
  it("count and solutions agree with brute force on 400 random boards, n <= 8, on both engines", async () => {
    const random = rng(1515);
    let nonzero = 0;
    for (let i = 0; i < 400; i++) {
      const n = 1 + (i % 8);
      const givens = randomGivens(n, random, i % 3, [0.05, 0.15, 0.3][i % 3]);
      const expected = bruteForce(n, givens).map(key).sort();
      if (expected.length > 0) nonzero++;
      const nodes: bigint[] = [];
      for (const engine of ENGINES) {
        const counted = await count(n, { engine, ...givens });
        expect(counted.total).toBe(BigInt(expected.length));
        if (givens.fixed.length + givens.blocked.length > 0) expect(counted.unique).toBeNull();
        nodes.push(counted.nodes);
        const listed = [...solutions(n, { engine, ...givens })];
        for (const columns of listed) expect(honours(columns, n, givens)).toBe(true);
        expect(listed.map(key).sort()).toEqual(expected);
      }
      expect(nodes[1]).toBe(nodes[0]);
    }
    expect(nonzero).toBeGreaterThan(100);
  });

  it("the complete search's count on the plain board is A000170 (n <= 11), both engines", () => {
    for (const name of ENGINES) {
      const engine = pickEngine(name);
      for (let n = 1; n <= 11; n++) expect(countConstrainedNow(n, emptyConstraints(n), engine).total).toBe(A000170[n]);
    }
  });

  it("with empty lists, count and solutions are the plain functions", async () => {
    for (const n of [1, 4, 8, 10]) {
      const plain = await count(n);
      const empty = await count(n, { fixed: [], blocked: [] });
      expect(empty).toMatchObject({ total: plain.total, unique: plain.unique, nodes: plain.nodes });
      expect([...solutions(n, { fixed: [], blocked: [] })].map(key)).toEqual([...solutions(n)].map(key));
    }
  });

  it("the paced listing (the CLI's all) gives solutions()'s list in its order, with its limit, and stops at an abort", async () => {
    const collect = async (n: number, options: Parameters<typeof solutions>[1], signal = new AbortController().signal) => {
      const out: string[] = [];
      for await (const columns of solutionsPaced(n, options, signal)) out.push(key(columns));
      return out;
    };
    const random = rng(7);
    for (let i = 0; i < 20; i++) {
      const givens = randomGivens(9, random, i % 3, 0.1);
      for (const engine of ENGINES) expect(await collect(9, { engine, ...givens })).toEqual([...solutions(9, { engine, ...givens })].map(key));
    }
    expect(await collect(8, {})).toEqual([...solutions(8)].map(key)); // plain, lexicographic
    expect(await collect(8, { limit: 5 })).toEqual([...solutions(8, { limit: 5 })].map(key));
    expect(await collect(10, { limit: 3, blocked: [[0, 0]] })).toEqual([...solutions(10, { limit: 3, blocked: [[0, 0]] })].map(key));
    expect(() => solutionsPaced(8, { limit: -1 }, new AbortController().signal)).toThrow(/limit must be an integer >= 0, got -1/);
    // An abort ends a board's listing between chunks of its search (this one: no solution, minutes of search).
    const controller = new AbortController();
    const { blocked } = excludedDiagonalsBoard(30, 36, { seed: 4 });
    setTimeout(() => controller.abort(), 50);
    await expect(collect(30, { blocked }, controller.signal)).rejects.toMatchObject({ name: "AbortError" });
  });

  it("given queens that attack each other: count 0, no solutions", async () => {
    for (const engine of ENGINES) {
      expect((await count(10, { engine, fixed: [[0, 0], [9, 9]] })).total).toBe(0n);
      expect([...solutions(10, { engine, fixed: [[3, 3]], blocked: [[3, 3]] })]).toEqual([]);
    }
  });

  it("the prefixes of a part split partition the solutions (sum of the parts = the total)", () => {
    const random = rng(99);
    const engine = pickEngine("wasm");
    for (let i = 0; i < 40; i++) {
      const n = 6 + (i % 5);
      const givens = randomGivens(n, random, 2, 0.15);
      const constraints = checkConstraints(n, givens, "test");
      const whole = countConstrainedNow(n, constraints, engine).total;
      for (const want of [1, 5, 40]) {
        const prefixes = constrainedPrefixes(constraints, want);
        const sum = prefixes.reduce((s, p) => s + countConstrainedNow(n, prefixConstraints(constraints, p), engine).total, 0n);
        expect(sum).toBe(whole);
      }
    }
  });

  it("a prefix's board is the board its queens give as givens: the same constraints, conflict and error as checkConstraints of the lists", () => {
    const random = rng(404);
    const asLists = (c: ReturnType<typeof checkConstraints>, prefix: [number, number][]): unknown => {
      const lists = constraintLists(c);
      try {
        return checkConstraints(c.n, { fixed: [...lists.fixed, ...prefix], blocked: lists.blocked }, "a count part");
      } catch (error) {
        return (error as Error).message;
      }
    };
    const plain = (c: unknown): unknown => (typeof c === "string" ? c : { ...(c as object), fixedColumn: Array.from((c as { fixedColumn: Int32Array }).fixedColumn), blockedStart: Array.from((c as { blockedStart: Int32Array }).blockedStart), blockedCols: Array.from((c as { blockedCols: Int32Array }).blockedCols) });
    let fast = 0, conflicts = 0;
    for (let i = 0; i < 600; i++) {
      const n = 4 + (i % 7);
      const constraints = checkConstraints(n, randomGivens(n, random, 2, 0.2), "test");
      // The split's own prefixes (the fast path), then queens drawn anywhere: on a given queen's
      // lines, on blocked squares, twice, off the board.
      const own = constrainedPrefixes(constraints, 8);
      const drawn = Array.from({ length: 1 + Math.floor(random() * 3) }, (): [number, number] => [Math.floor(random() * (n + 1)) - (random() < 0.05 ? 1 : 0), Math.floor(random() * n)]);
      for (const prefix of [...own.slice(0, 3), drawn] as [number, number][][]) {
        if (prefix.length === 0) continue;
        let got: unknown;
        try {
          got = prefixConstraints(constraints, prefix);
        } catch (error) {
          got = (error as Error).message;
        }
        expect(plain(got)).toEqual(plain(asLists(constraints, prefix)));
        if (typeof got !== "string" && (got as { conflict: unknown }).conflict !== null) conflicts++;
        else fast++;
      }
    }
    expect(fast).toBeGreaterThan(500);
    expect(conflicts).toBeGreaterThan(100);
  });

  it("counts boards past n = 32 (n <= 1000) and refuses larger ones", async () => {
    // n = 40 with 34 rows of a solution given: the 6 rows left have a handful of completions.
    const n = 40;
    const { columns } = await solve(n, { method: "complete" });
    const fixed: [number, number][] = [];
    for (let r = 0; r < n; r += 1) if (r % 7 !== 3) fixed.push([r, columns![r]]);
    const givens = { fixed, blocked: [] as [number, number][] };
    const results = await Promise.all(ENGINES.map((engine) => count(n, { engine, ...givens })));
    expect(results[0].total).toBeGreaterThanOrEqual(1n);
    expect(results[1]).toMatchObject({ total: results[0].total, nodes: results[0].nodes });
    const listed = [...solutions(n, givens)];
    expect(BigInt(listed.length)).toBe(results[0].total);
    for (const board of listed) expect(honours(board, n, givens)).toBe(true);
    await expect(count(1001, { blocked: [[0, 0]] })).rejects.toThrow(/n must be an integer from 1 to 1000, got 1001/);
    await expect(count(33)).rejects.toThrow(/from 1 to 32/);
  });

  it("a long constrained count stops on an abort, and at timeoutMs with NQ_TIMEOUT", async () => {
    for (const engine of ENGINES) {
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(new Error("stop now")), 50);
      await expect(count(20, { engine, blocked: [[0, 0]], signal: controller.signal })).rejects.toThrow("stop now");
      expect(performance.now() - started).toBeLessThan(20_000); // a hang guard: the count takes hours; the latency is in npm run bench -- --only abort
      await expect(count(20, { engine, blocked: [[0, 0]], timeoutMs: 50 })).rejects.toMatchObject({ code: "NQ_TIMEOUT" });
    }
  });
});

describe("parts of a constrained count", () => {
  it("countParallel on constrained boards equals count, with a checkpoint that resumes and refuses another board", async () => {
    const random = rng(4242);
    const dir = mkdtempSync(join(tmpdir(), "nq-constrained-"));
    for (let i = 0; i < 4; i++) {
      const n = 9 + i;
      const givens = randomGivens(n, random, 1, 0.1);
      const single = await count(n, givens);
      const checkpoint = join(dir, `c${i}.json`);
      const parallel = await countParallel(n, { ...givens, workers: 2, parts: 12, checkpoint });
      expect(parallel).toMatchObject({ total: single.total, unique: null });
      // (the checkpoint holds every part: this run counts none, so one thread, started and left idle, is enough)
      const again = await countParallel(n, { ...givens, workers: 1, checkpoint });
      expect(again).toMatchObject({ total: single.total, resumed: parallel.parts });
      const taken = new Set([...givens.blocked, ...givens.fixed].map(([r, c]) => r * n + c));
      const square = [...Array(n * n).keys()].find((s) => !taken.has(s))!;
      const other = { fixed: givens.fixed, blocked: [...givens.blocked, [Math.floor(square / n), square % n]] as [number, number][] };
      await expect(countParallel(n, { ...other, workers: 1, checkpoint })).rejects.toThrow(/belongs to another board/);
    }
  });

  it("a part or a result that is not what it claims is refused, never summed", () => {
    const constraints = checkConstraints(10, { fixed: [[3, 4]], blocked: [[0, 0], [5, 5]] }, "test");
    const split = splitConstrainedCount(10, constraints, 8);
    expect(split.length).toBe(8);
    const results = split.map((p) => countConstrainedPart(p));
    const whole = countConstrainedNow(10, constraints, pickEngine("wasm")).total;
    expect(mergeConstrainedCounts(results, split).total).toBe(whole);
    const tampered = { ...split[2], prefixes: split[3].prefixes };
    expect(() => countConstrainedPart(tampered)).toThrow(expect.objectContaining({ code: "NQ_PART_MISMATCH" }));
    expect(() => mergeConstrainedCounts(results.slice(1), split)).toThrow(expect.objectContaining({ code: "NQ_PARTS_INCOMPLETE" }));
    expect(() => mergeConstrainedCounts([...results, results[0]], split)).toThrow(expect.objectContaining({ code: "NQ_PARTS_INCOMPLETE" }));
    const forged = results.map((r, i) => (i === 1 ? { ...r, digest: results[0].digest } : r));
    expect(() => mergeConstrainedCounts(forged, split)).toThrow(expect.objectContaining({ code: "NQ_PART_MISMATCH" }));
    const bad = results.map((r, i) => (i === 1 ? { ...r, total: "-1" } : r));
    expect(() => mergeConstrainedCounts(bad, split)).toThrow(expect.objectContaining({ code: "NQ_PART_MISMATCH" }));
  });
});

describe("crossCheck on constrained boards", () => {
  it("solve:constrained and count:constrained agree on both engines, every board checked", async () => {
    const { crossCheck } = await import("../src/analysis/crosscheck.js");
    const report = await crossCheck({ kernels: ["solve:constrained", "count:constrained"], sizes: [4, 6, 8, 12, 30, 50], seeds: [1, 2, 3], budgetMs: 20_000 });
    expect(report.ok).toBe(true);
    for (const k of report.kernels) {
      expect(k.cases).toBeGreaterThan(0);
      expect(k.agree).toBe(k.cases);
    }
  });
});

describe("contradictory givens give one outcome on every path", () => {
  it("boards with two or more conflicts (queens sharing a row, a queen on a blocked square): 0 on this thread, on workers, part by part, and through the queue's board record", async () => {
    const { deriveConstrainedPart } = await import("../src/count/constrained-parts.js");
    const { default: fc } = await import("fast-check");
    const square = (n: number) => fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 }));
    const boards = fc.integer({ min: 4, max: 9 }).chain((n) => fc.record({
      n: fc.constant(n),
      row: fc.integer({ min: 0, max: n - 1 }),
      cols: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 2, maxLength: 3 }),
      more: fc.array(square(n), { maxLength: 3 }),
      blocked: fc.array(square(n), { maxLength: 3 }),
      blockGiven: fc.boolean(),
    }));
    const seen: string[] = [];
    await fc.assert(fc.asyncProperty(boards, async ({ n, row, cols, more, blocked, blockGiven }) => {
      const fixed: [number, number][] = [...cols.map((c): [number, number] => [row, c]), ...more];
      const blocks: [number, number][] = blockGiven ? [...blocked, [row, cols[1]!]] : blocked;
      const board = { fixed, blocked: blocks };
      const one = await count(n, board);
      expect(one.total).toBe(0n); // two queens on one row: no solution
      const parts = splitConstrainedCount(n, board, 4);
      for (const part of parts) expect(countConstrainedPart(part).total).toBe("0");
      const record = boardOfConstraints(checkConstraints(n, board, "a test"));
      for (const part of parts) expect(deriveConstrainedPart(record, part.depth, part.parts, part.part, 4096).digest).toBe(part.digest);
      seen.push(JSON.stringify(board));
    }), { numRuns: 60, seed: 7 });
    expect(seen.length).toBe(60);
    // and on worker threads, the board that once failed there (NQ_PART_MISMATCH)
    expect((await countParallel(8, { fixed: [[2, 2], [2, 1]], blocked: [[2, 1]], workers: 1 })).total).toBe(0n);
  });
});
