// Integrity of everything a count hands over: parts carry their identity
// and a digest, countTask counts only a part of the split, results are range-checked before
// they are added, and mergeCounts wants exactly one valid result per part. Checkpoints (their
// MAC and every entry verified before a count resumes): test/checkpoint-integrity.test.ts.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ErrorCode, SPLIT_VERSION, checkPartCount, countTask, derivePart, mergeCounts, partDigest, splitCount,
  type CountPart, type PartCount,
} from "../src/index.js";
import { createHash } from "node:crypto";
import { contentDigest } from "../src/core/digest.js";
import { MAX_PARTS, checkPart, maxParts, partsFor } from "../src/count/parts.js";
import { A000170, A002562 } from "./fixtures/oeis.js";

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return undefined;
};
const fails = (fn: () => unknown, code: string, message: RegExp): void => {
  expect(fn).toThrow(message);
  expect(codeOf(fn)).toBe(code);
};


/** Milliseconds of CPU this process used since `from` (process.cpuUsage()). */
const cpuMs = (from: NodeJS.CpuUsage): number => { const d = process.cpuUsage(from); return (d.user + d.system) / 1000; };

describe("digest", () => {
  it("is SHA-256's first 128 bits (FIPS 180-2's test vectors, and node:crypto on UTF-8 text)", () => {
    expect(contentDigest("")).toBe("e3b0c44298fc1c149afbf4c8996fb924");
    expect(contentDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223");
    expect(contentDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).toBe("248d6a61d20638b8e5c026930c3e6039");
    for (const text of ["nqueens-parts 0 1", "é ♛ 皇后", "x".repeat(1000)]) {
      expect(contentDigest(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32));
    }
  });
});

describe("parts carry their identity", () => {
  it("derivePart gives exactly splitCount's part, digest included", () => {
    const parts = splitCount(12, { parts: 64 });
    expect(parts).toHaveLength(64);
    for (const part of parts) {
      expect(part).toMatchObject({ n: 12, parts: 64, splitVersion: SPLIT_VERSION });
      expect(derivePart(12, 64, part.part)).toEqual(part);
      expect(partDigest(part)).toBe(part.digest);
      expect(part.digest).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(new Set(parts.map((p) => p.digest)).size).toBe(64);
  });

  it("splits are bounded at n = 32: quick, and a part of any identity is re-derived quickly", () => {
    // CPU time of this process, not the clock's (load stretches that, not this): synchronous work.
    const t = process.cpuUsage();
    const parts = splitCount(32); // 256 parts of the 83,190 constellations
    expect(parts).toHaveLength(256);
    expect(derivePart(32, 256, 255)).toEqual(parts[255]);
    expect(cpuMs(t)).toBeLessThan(3000); // was 6 s and 1.8 GB before splits were bounded
  });

  it("splits reach a million parts at n = 24, and a part of such a split is re-derived on its own", () => {
    expect(partsFor(24, 1_000_000)).toBe(1_000_000);
    expect(maxParts(24)).toBeGreaterThanOrEqual(1_000_000);
    expect(maxParts(24)).toBeLessThanOrEqual(MAX_PARTS);
    expect(partsFor(24, MAX_PARTS)).toBe(maxParts(24));
    // (How fast a part is re-derived is the bench's to measure, not a timed assertion's.)
    const a = derivePart(24, 1_000_000, 999_999), b = derivePart(24, 1_000_000, 0), c = derivePart(24, 1_000_000, 500_000);
    for (const p of [a, b, c]) {
      expect(p.prefixes.length).toBeGreaterThanOrEqual(1);
      expect(checkPart(clone(p))).toEqual(p);
    }
    expect(b.prefixNodes).not.toBe("0");
    expect(a.prefixNodes).toBe("0");
  });
});

describe("countTask counts only a part of the split", () => {
  const part = splitCount(12, { parts: 64 })[3];
  const other = splitCount(12, { parts: 64 })[4];
  const label = /part 3 of 64 \(n = 12\)/;

  it("counts a part that came through JSON", () => {
    const result = countTask(clone(part));
    expect(result).toMatchObject({ n: 12, part: 3, parts: 64, splitVersion: SPLIT_VERSION, digest: part.digest });
    expect(checkPartCount(part, result)).toEqual(result); // a copy, each field read once
  });

  it("refuses empty, duplicated, conflicting and malformed prefixes", () => {
    const cases: [CountPart, RegExp][] = [
      [{ ...clone(part), prefixes: [] }, /no prefixes/],
      [{ ...clone(part), prefixes: [...part.prefixes, part.prefixes[0]] }, /repeats an earlier prefix/],
      [{ ...clone(part), prefixes: [{ ...part.prefixes[0], rows: [0, 1, 5] }] }, /attack each other/],
      [{ ...clone(part), prefixes: [{ ...part.prefixes[0], rows: [0, 99, 5] }] }, /malformed/],
      [{ ...clone(part), prefixes: [{ kind: 3, bound1: 2, rows: [0, 2] }] } as unknown as CountPart, /malformed/],
      [{ ...clone(part), prefixes: "abc" } as unknown as CountPart, /not a list/],
    ];
    for (const [bad, why] of cases) {
      fails(() => countTask(bad), ErrorCode.partMismatch, why);
      expect(() => countTask(bad)).toThrow(label);
    }
  });

  it("refuses valid prefixes that are not this part's, a wrong digest, index, n or prefixNodes", () => {
    fails(() => countTask({ ...clone(part), prefixes: other.prefixes }), ErrorCode.partMismatch, /holds other prefixes than the split deals to it/);
    fails(() => countTask({ ...clone(part), prefixes: part.prefixes.slice(1) }), ErrorCode.partMismatch, /holds other prefixes/);
    fails(() => countTask({ ...clone(part), digest: "0".repeat(16) }), ErrorCode.partMismatch, /carries digest "0000000000000000"/);
    fails(() => countTask({ ...clone(part), part: 4 }), ErrorCode.partMismatch, /part 4 of 64 \(n = 12\) holds other prefixes/);
    fails(() => countTask({ ...clone(part), prefixNodes: "5" }), ErrorCode.partMismatch, /prefixNodes "5"/);
    fails(() => countTask({ ...clone(part), n: 13 }), ErrorCode.partMismatch, /n = 13/);
    // a job for n = 32 is refused at once, not counted for years
    const t = process.cpuUsage();
    fails(() => countTask({ ...clone(part), n: 32 }), ErrorCode.partMismatch, /part 3 of 64 \(n = 32\)/);
    expect(cpuMs(t)).toBeLessThan(1000); // CPU time, as above
    fails(() => countTask({ ...clone(part), parts: 10 ** 9 }), ErrorCode.partMismatch, /not a valid part identity/);
    fails(() => countTask({ ...clone(part), splitVersion: 2 }), ErrorCode.partMismatch, new RegExp(`split version 2; this package uses version ${SPLIT_VERSION}`));
    fails(() => countTask(splitCount(5, { parts: 3 })[0] && { ...splitCount(5, { parts: 3 })[0], parts: 1000, part: 999 }), ErrorCode.partMismatch, /not a part of any split/);
    expect(() => countTask(null as unknown as CountPart)).toThrow(TypeError);
  });
});

describe("mergeCounts", () => {
  const n = 12, P = 16;
  const parts = splitCount(n, { parts: P });
  const results = parts.map((p) => countTask(p));
  const split = { n, parts: P };
  const replace = (i: number, patch: Partial<PartCount> | PartCount): PartCount[] =>
    results.map((r, j) => (j === i ? { ...r, ...patch } : r));

  it("adds up exactly one valid result per part, in any order, after JSON", () => {
    const merged = mergeCounts(clone(results).reverse(), split);
    expect(merged).toMatchObject({ n, total: A000170[n], unique: A002562[n] });
  });

  it("refuses a missing part (part 99 in place of 3), a duplicated one, and an empty list", () => {
    fails(() => mergeCounts(replace(3, { part: 99 }), split), ErrorCode.partMismatch, /results\[3\] is not a result of a part of the split of n = 12 into 16 parts \(part 99\)/);
    fails(() => mergeCounts(results.filter((r) => r.part !== 3), split), ErrorCode.partsIncomplete, /15 of 16 parts of n = 12; missing part 3:/);
    fails(() => mergeCounts(replace(3, results[4]), split), ErrorCode.partsIncomplete, /part 4 of 16 \(n = 12\) twice/);
    fails(() => mergeCounts([], split), ErrorCode.partsIncomplete, /0 of 16 parts.*missing parts 0, 1, 2/);
  });

  it("refuses parts of another n or split, even a whole consistent set of them", () => {
    const nine = splitCount(9, { parts: P }).map((p) => countTask(p));
    fails(() => mergeCounts(nine, split), ErrorCode.partMismatch, /part 0 of 16 \(n = 9\).*not a part of the split of n = 12/);
    fails(() => mergeCounts(replace(5, nine[5]), split), ErrorCode.partMismatch, /part 5 of 16 \(n = 9\)/);
    fails(() => mergeCounts(replace(5, { splitVersion: 1 }), split), ErrorCode.partMismatch, /split version 1/);
    fails(() => mergeCounts(replace(5, { digest: results[6].digest }), split), ErrorCode.partMismatch, /part 5 of 16 \(n = 12\) has digest/);
    const other = splitCount(n, { parts: 8 }).map((p) => countTask(p));
    fails(() => mergeCounts(other, split), ErrorCode.partMismatch, /not a part of the split of n = 12 into 16 parts/);
    expect(() => mergeCounts(results, undefined as unknown as { n: number; parts: number })).toThrow(TypeError);
    expect(() => mergeCounts(results, { n: 12, parts: 17 })).toThrow(/parts must be an integer from 1 to 16 for n = 12|not a part/);
  });

  it("refuses counts that are negative, hex, fractional, not decimal strings, or more than the part can hold", () => {
    const bad: [Partial<PartCount>, RegExp][] = [
      [{ count8: "-5" }, /count8 "-5", not a non-negative decimal integer/],
      [{ count8: "0x10" }, /count8 "0x10"/],
      [{ count4: "1.5" }, /count4 "1.5"/],
      [{ count2: "abc" }, /count2 "abc"/],
      [{ nodes: "" }, /nodes ""/],
      [{ count8: 5 as unknown as string }, /count8 5/],
      [{ count8: "007" }, /count8 "007"/],
      [{ count8: "1" + "0".repeat(30) }, /solutions up to symmetry; its prefixes hold at most/],
      [{ nodes: "0" }, /nodes 0; it must be from/],
      [{ nodes: "1" + "0".repeat(30) }, /nodes 1000000000000000000000000000000; it must be from/],
    ];
    for (const [patch, why] of bad) {
      const i = 5;
      fails(() => mergeCounts(replace(i, patch), split), ErrorCode.partMismatch, why);
      expect(() => mergeCounts(replace(i, patch), split)).toThrow(/part 5 of 16 \(n = 12\)/);
    }
  });

  it("knows what a part's prefixes can yield: constellations of no symmetry give only count8; n = 10 has no count2", () => {
    const corner = splitCount(12, { parts: 1 })[0];
    // parts made only of tasks whose constellation no turn maps to itself (most of them)
    const turns = (t: { i: number; j: number; k: number; l: number }) => t.i === 13 - t.j && t.k === 13 - t.l;
    const cornerParts = splitCount(14, { parts: 3184 }).filter((p) => p.prefixes.every((t) => !turns(t)));
    expect(cornerParts.length).toBeGreaterThan(0);
    const counted = cornerParts.slice(0, 40).map((p) => [p, countTask(p)] as const);
    const [cp, real] = counted.find(([, r]) => r.count8 !== "0")!;
    expect(real.count4).toBe("0");
    expect(real.count2).toBe("0");
    fails(() => checkPartCount(cp, { ...real, count8: String(BigInt(real.count8) - 1n), count4: "1" }), ErrorCode.partMismatch, /its constellations have no symmetry, so they yield only count8/);
    const ten = splitCount(10, { parts: 1 })[0];
    const tenCount = countTask(ten);
    expect(tenCount.count2).toBe("0");
    fails(() => checkPartCount(ten, { ...tenCount, count2: "1" }), ErrorCode.partMismatch, /no 10 x 10 solution is symmetric under a quarter turn/);
    expect(checkPartCount(corner, countTask(corner))).toBeTruthy();
  });
});

describe("countParallel under node --input-type=module -e", () => {
  it("starts its workers (they do not inherit the host's --input-type)", () => {
    const script = `import { countParallel } from ${JSON.stringify(join(process.cwd(), "dist/index.js"))};
      const r = await countParallel(10, { workers: 2 }); console.log(String(r.total));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
    expect(out.trim()).toBe(String(A000170[10]));
  });
});
