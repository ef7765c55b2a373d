// The part protocol (src/count/split.ts): one split, derive, check, count and merge for a plain
// board and for a board with givens. The parts are those the two kinds made before the protocol
// (pinned digests), every part of either kind counts and merges to count()'s answer, a forged
// part or result of either kind is refused, and a job's identity names exactly its part.
import { describe, expect, it } from "vitest";
import { boardOf } from "../src/board/board.js";
import { contentDigest } from "../src/core/digest.js";
import { checkPartCount, countPart, countTask, mergeCounts, partOfIdentity, recordedSplit, splitBoard, splitCount, type Part } from "../src/count/split.js";
import { splitConstrainedCount } from "../src/count/deprecated.js";
import { count } from "../src/index.js";

const GIVENS = { fixed: [[2, 3]] as [number, number][], blocked: [[0, 0], [5, 5]] as [number, number][] };
const board = (n: number, givens?: typeof GIVENS) => boardOf(n, givens, { caller: "a test", plain: [4, 32], givens: [1, 1000] });
const refuse = (why: string): never => { throw new Error(why); };

describe("the part protocol", () => {
  it("makes the parts the two kinds made before it (pinned digests), and splitConstrainedCount still makes them, said deprecated", () => {
    expect(contentDigest(splitCount(12, { parts: 16 }).map((p) => p.digest).join(","))).toBe("b1302f2432d4d0d7a802d122e19e5ad6");
    const parts = splitCount(10, { parts: 8, ...GIVENS });
    expect(parts.length).toBe(8);
    expect(contentDigest(parts.map((p) => p.digest).join(","))).toBe("13efa97bc264ddfa79fc57547ff8b383");
    expect(splitConstrainedCount(10, GIVENS, 8)).toEqual(parts);
  });

  it("counts and merges either kind to count()'s answer, synchronously and in chunks", async () => {
    for (const [n, givens] of [[10, undefined], [10, GIVENS], [11, { fixed: [], blocked: [[1, 1], [3, 4]] }]] as const) {
      const split = splitBoard(board(n, givens as typeof GIVENS | undefined), 6);
      const parts = split.all();
      const now = parts.map((p) => countTask(p));
      const chunked = await Promise.all(parts.map((p) => countPart(p, { engine: "ts" })));
      expect(chunked).toEqual(now);
      const expected = await count(n, givens as typeof GIVENS | undefined);
      const merged = mergeCounts(now, parts);
      expect(merged.total).toBe(expected.total);
      expect(merged.unique).toBe(expected.unique);
      expect(merged.nodes).toBe(now.reduce((a, r) => a + BigInt(r.nodes), 0n)); // (the split's own tree: not count()'s nodes)
      // The tally's path: each result's counts in the split's order, summed, then totalled.
      const sums = new Array<bigint>(split.fields).fill(0n);
      for (const r of now) split.countsOf(r).forEach((v, i) => { sums[i] += v; });
      expect(split.totalOf(sums).total).toBe(expected.total);
    }
    expect((await count(10)).total).toBe(724n); // OEIS A000170
  });

  it("refuses a forged part or result of either kind, and a result twice or missing", () => {
    for (const parts of [splitCount(10, { parts: 4 }) as Part[], splitCount(10, { parts: 4, ...GIVENS })]) {
      const [part, other] = parts;
      const result = countTask(part);
      expect(() => checkPartCount(part, result)).not.toThrow();
      // A result of another part never passes (a raised count within the bounds is the audit's to catch).
      expect(() => checkPartCount(other, result)).toThrow(expect.objectContaining({ code: "NQ_PART_MISMATCH" }));
      expect(() => countTask({ ...part, digest: other.digest } as Part)).toThrow(expect.objectContaining({ code: "NQ_PART_MISMATCH" }));
      const all = parts.map((p) => countTask(p));
      expect(() => mergeCounts([...all, all[0]], parts)).toThrow(expect.objectContaining({ code: "NQ_PARTS_INCOMPLETE" }));
      expect(() => mergeCounts(all.slice(1), parts)).toThrow(expect.objectContaining({ code: "NQ_PARTS_INCOMPLETE" }));
    }
  });

  it("a part's identity names exactly that part in the run its record describes, of either kind", () => {
    for (const givens of [undefined, GIVENS]) {
      const split = splitBoard(board(10, givens), 5);
      const b = split.board;
      const record = split.depth === undefined ? undefined : { n: 10, fixed: [...b.fixed], blocked: [...b.blocked], digest: b.digest, depth: split.depth };
      const run = { n: 10, parts: split.count, splitVersion: split.version, ...(record ? { board: record } : {}) };
      const again = recordedSplit(10, split.count, record, 4096);
      for (let p = 0; p < split.count; p++) {
        const part = split.at(p);
        expect(again.at(p)).toEqual(part);
        const id = split.identity(part);
        expect(partOfIdentity(id, run, 4096, refuse)).toEqual(part);
        expect(() => partOfIdentity({ ...id, digest: "0".repeat(16) }, run, 4096, refuse)).toThrow(/its digest/);
        expect(() => partOfIdentity({ ...id, parts: split.count + 1 }, run, 4096, refuse)).toThrow(/the run is n = 10/);
      }
      // A job of the other kind is refused by the run.
      const other = splitBoard(board(10, givens ? undefined : GIVENS), 5);
      expect(() => partOfIdentity(other.identity(other.at(0)), run, 4096, refuse)).toThrow(/plain|constrained/);
    }
  });
});
