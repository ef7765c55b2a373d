// The audit's plausibility check (src/count/plausibility.ts): the coordinator's own Knuth
// estimate of a part, against which each reported result is scored. Honest results must
// score well inside FAR_OFF (else honest runs pay recounts); a raised count must score above
// every honest part of its split (else the audit's least-plausible pick misses it); the counts
// that can be known exactly (count4, count2 of a plain part) must be. Seeded probes here, so
// each figure is the same on every run; the coordinator seeds them from node:crypto.
import { describe, expect, it } from "vitest";
import { countTask, splitCount, type ConstrainedPart, type CountPart, type PartCount } from "../src/index.js";
import { estimateConstrainedPart, estimatePlainPart, exactTurnCounts, implausibility, partPlausibility } from "../src/count/plausibility.js";
import { splitBoard } from "../src/count/split.js";
import { boardOf } from "../src/board/board.js";
import { FAR_OFF, probesPerPart } from "../src/distributed/auditor.js";

/** xorshift32 from a seed: a reproducible stand-in for the coordinator's secret generator. */
function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32; };
}

const totalOf = (r: PartCount): bigint => 8n * BigInt(r.count8) + 4n * BigInt(r.count4) + 2n * BigInt(r.count2);

describe("plausibility of plain parts", () => {
  for (const [n, parts] of [[12, 32], [14, 64], [16, 32]] as const) {
    it(`n = ${n} in ${parts} parts: honest results score inside FAR_OFF, and a total doubled scores above every honest one`, () => {
      const split = splitCount(n, { parts }) as CountPart[];
      const random = seeded(n * 1000 + parts);
      const probes = probesPerPart(parts);
      const honest: number[] = [];
      const raised: number[] = [];
      for (const part of split) {
        const r = countTask(part);
        const estimate = estimatePlainPart(part, random, probes);
        honest.push(implausibility({ total: totalOf(r), nodes: BigInt(r.nodes) }, estimate));
        raised.push(implausibility({ total: 2n * totalOf(r), nodes: BigInt(r.nodes) }, estimate));
      }
      expect(Math.max(...honest)).toBeLessThan(FAR_OFF / 2);
      expect(Math.min(...raised)).toBeGreaterThan(Math.max(...honest));
    });
  }

  it("the estimate is unbiased: over many seeds the mean of n = 10's parts' estimates is within 3% of the truth", () => {
    const split = splitCount(10, { parts: 8 }) as CountPart[];
    let truth = 0, sum = 0, nodes = 0, nodesTruth = 0;
    for (let seed = 1; seed <= 400; seed++) {
      for (const part of split) {
        const e = estimatePlainPart(part, seeded(seed), 64);
        sum += e.total;
        nodes += e.nodes;
      }
    }
    for (const part of split) { const r = countTask(part); truth += Number(totalOf(r)) * 400; nodesTruth += Number(r.nodes) * 400; }
    expect(Math.abs(sum / truth - 1)).toBeLessThan(0.03);
    expect(Math.abs(nodes / nodesTruth - 1)).toBeLessThan(0.03);
  });

  it("count4 and count2 are known exactly: exactTurnCounts gives every part's for n = 5 to 14", () => {
    for (let n = 5; n <= 14; n++) {
      for (const parts of [1, 7, 32]) {
        for (const part of splitCount(n, { parts }) as CountPart[]) {
          const r = countTask(part);
          expect(exactTurnCounts(part), `n = ${n}, part ${part.part} of ${parts}`).toEqual({ count4: BigInt(r.count4), count2: BigInt(r.count2) });
        }
      }
    }
  });

  it("a split scores a result with a wrong count4 or count2 as impossible (Infinity), saying what the part holds", () => {
    const split = splitBoard(boardOf(12, {}, { caller: "test", plain: [4, 32], givens: [1, 32] }), 8);
    for (let p = 0; p < split.count; p++) {
      const counts = split.countsOf(countTask(split.at(p) as CountPart));
      if (counts[1] === 0n) continue;
      const wrong = [counts[0] + 1n, counts[1] - 1n, counts[2], counts[3]];
      const { score, why } = partPlausibility(split, p, wrong, seeded(p + 1), 256);
      expect(score).toBe(Infinity);
      expect(why).toMatch(/^count4 \d+ and count2 \d+, where its turn-symmetric constellations hold \d+ and \d+$/);
      expect(partPlausibility(split, p, counts, seeded(p + 1), 256).score).toBeLessThan(FAR_OFF);
      return;
    }
    throw new Error("no part of n = 12 in 8 parts holds a count4: the test needs another split");
  });

  it("probes per part: 2048 for small runs, fewer as parts grow, at least 16", () => {
    expect([probesPerPart(32), probesPerPart(1024), probesPerPart(65_536), probesPerPart(1_000_000)]).toEqual([2048, 2048, 32, 16]);
  });
});

describe("plausibility of constrained parts", () => {
  it("the nodes estimate of each part of a board with givens is within 15% of its count, and the total's within reach", () => {
    const parts = splitCount(12, { parts: 16, blocked: [[0, 0], [3, 3], [5, 7]], fixed: [[2, 4]] }) as ConstrainedPart[];
    const random = seeded(99);
    let total = 0, estimated = 0;
    for (const part of parts) {
      const r = countTask(part);
      const e = estimateConstrainedPart(part, random, 2048);
      expect(Math.abs(e.nodes / Number(r.nodes) - 1), `part ${part.part}`).toBeLessThan(0.15);
      expect(implausibility({ total: BigInt(r.total), nodes: BigInt(r.nodes) }, e)).toBeLessThan(FAR_OFF / 2);
      total += Number(r.total);
      estimated += e.total;
    }
    expect(Math.abs(estimated / total - 1)).toBeLessThan(0.2);
  });
});
