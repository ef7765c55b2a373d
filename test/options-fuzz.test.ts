// Junk in, a coded error or a correct answer out (issue 12 item 5): a fast-check run over
// the options of every public function. The options are drawn from the names each function
// knows, plus unknown and inherited-looking names, with values of every type (numbers out of
// range, NaN, strings, bigints, functions, fake and real AbortSignals...). Each call must
// either give a correct answer (checked independently) or fail with a TypeError/RangeError
// coded NQ_INVALID_ARGUMENT (or another code of ErrorCode, a TimeoutError or an AbortError
// where the junk asked for a time limit or an abort). Kept short: a few seconds in all.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ErrorCode, checkPartCount, count, countParallel, countPart, countTask, crossCheck, derivePart, estimate, lasVegasStats,
  lasVegasTable, mergeCounts, randomSequence, render, solutions, solve, splitCount, trace, treeSize, verify,
} from "../src/index.js";
import { A000170 } from "./fixtures/oeis.js";
import { isSolution } from "./helpers.js";

const CODES = new Set<string>(Object.values(ErrorCode));

/** Whether a thrown value is one of the package's answers to bad input (or to the limit or abort the junk asked for). */
function isCodedRefusal(error: unknown): boolean {
  if ((error as Error)?.name === "AbortError") return true;
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== "string" || !CODES.has(code)) return false;
  if (code === ErrorCode.invalidArgument) return error instanceof TypeError || error instanceof RangeError;
  return error instanceof Error;
}

/** A signal that aborts soon: every paced call ends quickly whatever the junk asks for. */
let soon = new AbortController();
const fakeSignals = [{ aborted: false }, { aborted: true }, { aborted: false, addEventListener() {}, removeEventListener() {} }];

const junkValue = fc.oneof(
  fc.constantFrom<unknown>(
    undefined, null, true, false, 0, -0, 1, 2, 3, 7, -1, 0.5, 1e-9, 1e9, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), NaN, Infinity, -Infinity,
    "", "1", "8", "wasm", "ts", "random", "auto", "backtrack", "hybrid", "las-vegas", "construct", "min-conflicts", "hill-climb",
    "count", "solve:construct", "__proto__", 1n, -1n, [], [1], [8, 9], [1e9], {}, { valueOf: () => 3 }, () => 1, Symbol("x"),
    new Int32Array(2), new DataView(new ArrayBuffer(4)), ...fakeSignals, "signal",
  ),
  fc.integer({ min: -5, max: 40 }),
  fc.double(),
  fc.constant("real-signal"), // replaced by a real signal that aborts soon
  fc.constant("aborted-signal"), // replaced by AbortSignal.abort()
);

/** Options made of `names` (the function's own) and a few foreign ones, or junk that is not an object at all. */
function junkOptions(names: readonly string[]): fc.Arbitrary<unknown> {
  const keys = fc.constantFrom(...names, ...names, ...names, "bogus", "constructor", "toString", "Engine");
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 0, "x", [], true, Object.create({ timeoutMs: 0 })) },
    { weight: 8, arbitrary: fc.dictionary(keys, junkValue, { maxKeys: 4 }) },
  );
}

/** The drawn options with the signal placeholders made real, and a soon-aborting signal where none is given. */
function realise(options: unknown, paced: boolean): unknown {
  if (typeof options !== "object" || options === null || Array.isArray(options) || Object.getPrototypeOf(options) !== Object.prototype) return options;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    out[key] = value === "real-signal" ? soon.signal : value === "aborted-signal" ? AbortSignal.abort() : value;
  }
  if (paced && out.signal === undefined) out.signal = soon.signal;
  return out;
}

/** Answers and refusals seen in the current property (both must occur: the run is not vacuous). */
const tally = { answered: 0, refused: 0 };

/** Runs `call`; a refusal must be coded, an answer must pass `check`. */
async function judge<T>(call: () => T | Promise<T>, check: (value: Awaited<T>) => void): Promise<void> {
  let value: Awaited<T>;
  try {
    value = await call();
  } catch (error) {
    if (!isCodedRefusal(error)) throw new Error(`an uncoded error: ${(error as Error)?.name}: ${(error as Error)?.message}`);
    tally.refused++;
    return;
  }
  check(value);
  tally.answered++;
}

const PACED = ["signal", "timeoutMs", "onProgress", "progressIntervalMs"];
const part12 = splitCount(12, { parts: 16 })[5];
const results12 = splitCount(12, { parts: 16 }).map((p) => countTask(p));

type Case = { name: string; names: string[]; paced: boolean; runs: number; call: (options: never) => Promise<void> };
const cases: Case[] = [
  { name: "count", names: ["engine", ...PACED], paced: true, runs: 60, call: (o) => judge(() => count(9, o), (r) => expect(r.total).toBe(A000170[9])) },
  {
    name: "solve", names: ["method", "engine", "seed", "stopVegas", "maxNodes", "maxSteps", "maxTries", ...PACED], paced: true, runs: 120,
    call: (o) => judge(() => solve(10, o), (r) => {
      if (r.found) expect(isSolution(r.columns!)).toBe(true);
      else expect(["max-nodes", "max-steps", "max-tries", "timeout"]).toContain(r.reason);
    }),
  },
  {
    name: "solutions", names: ["limit", "engine"], paced: false, runs: 60,
    call: (o) => judge(() => [...solutions(8, o)], (all) => {
      expect(all.length).toBeLessThanOrEqual(92);
      for (const s of all) expect(isSolution(s)).toBe(true);
    }),
  },
  { name: "verify", names: ["engine", "maxConflicts"], paced: false, runs: 60, call: (o) => judge(() => verify([1, 3, 0, 2], o), (r) => expect(r.ok).toBe(true)) },
  { name: "render", names: ["maxBoard", "edge"], paced: false, runs: 60, call: (o) => judge(() => render([1, 3, 0, 2], o), (r) => expect(typeof r).toBe("string")) },
  {
    name: "randomSequence", names: ["bound", "count", "engine"], paced: false, runs: 60,
    call: (o) => judge(() => randomSequence(7, o), (r) => {
      expect(r).toBeInstanceOf(Uint32Array);
      const bound = (o as { bound?: number } | undefined)?.bound;
      if (typeof bound === "number" && bound > 0) for (const x of r) expect(x).toBeLessThan(bound);
    }),
  },
  { name: "estimate", names: ["samples", "seed", "engine", ...PACED], paced: true, runs: 40, call: (o) => judge(() => estimate(8, o), (r) => expect(r.mean).toBeGreaterThan(0)) },
  { name: "treeSize", names: ["engine", ...PACED], paced: true, runs: 30, call: (o) => judge(() => treeSize(8, o), (r) => expect(r.total).toBe(2057n)) },
  {
    name: "lasVegasStats", names: ["stopVegas", "trials", "seed", "exact", "engine", ...PACED], paced: true, runs: 40,
    call: (o) => judge(() => lasVegasStats(8, o), (r) => { expect(r.p).toBeGreaterThanOrEqual(0); expect(r.p).toBeLessThanOrEqual(1); }),
  },
  {
    name: "lasVegasTable", names: ["trials", "seed", "exact", "engine", ...PACED], paced: true, runs: 15,
    call: (o) => judge(() => lasVegasTable(6, o), (r) => expect(r.rows).toHaveLength(7)),
  },
  {
    name: "trace", names: ["method", "seed", "stopVegas", "maxEvents"], paced: false, runs: 60,
    call: (o) => judge(() => [...trace(6, o)].slice(0, 3), (events) => expect(events[0].kind).toBe("start")),
  },
  {
    name: "splitCount", names: ["parts"], paced: false, runs: 40,
    call: (o) => judge(() => splitCount(10, o), (parts) => { for (const p of parts) expect(derivePart(10, p.parts, p.part)).toEqual(p); }),
  },
  { name: "countTask", names: ["engine"], paced: false, runs: 30, call: (o) => judge(() => countTask(part12, o), (r) => expect(checkPartCount(part12, r)).toEqual(r)) },
  {
    name: "countPart", names: ["engine", "signal", "timeoutMs"], paced: true, runs: 30,
    call: (o) => judge(() => countPart(part12, o), (r) => expect(r).toEqual(countTask(part12))),
  },
  {
    name: "mergeCounts", names: ["n", "parts"], paced: false, runs: 40,
    // (the right split underneath, so that some junk leaves a valid call)
    call: (o) => judge(() => mergeCounts(results12, typeof o === "object" && o !== null && !Array.isArray(o) ? { n: 12, parts: 16, ...(o as object) } : o),
      (r) => expect(r.total).toBe(A000170[12])),
  },
  {
    name: "countParallel", names: ["workers", "parts", "engine", "onProgress", "progressIntervalMs", "signal"], paced: true, runs: 12,
    call: (o) => judge(() => countParallel(8, o), (r) => expect(r.total).toBe(92n)),
  },
  {
    name: "crossCheck", names: ["sizes", "seeds", "budgetMs", "thorough", "onProgress", "runner", "signal"], paced: true, runs: 10,
    // (always one quick kernel, and small sizes unless the junk gives some: the default sweep takes 10 s)
    call: (o) => judge(() => crossCheck(typeof o === "object" && o !== null && !Array.isArray(o)
      ? { sizes: [4, 6, 8], ...(o as object), kernels: ["count"] } : o), (r) => expect(typeof r.ok).toBe("boolean")),
  },
];

describe("junk options: a coded error or a correct answer", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    tally.answered = tally.refused = 0;
    await fc.assert(
      fc.asyncProperty(junkOptions(c.names), async (options) => {
        soon = new AbortController();
        const timer = setTimeout(() => soon.abort(), 150);
        try {
          await c.call(realise(options, c.paced) as never);
        } finally {
          clearTimeout(timer);
          soon.abort();
        }
      }),
      { numRuns: c.runs, seed: 20261130 },
    );
    expect(tally.answered).toBeGreaterThan(0);
    expect(tally.refused).toBeGreaterThan(0);
  }, 30_000);
});
