// Bad input over every export: each function of the package's two entries (src/index.ts and
// src/distributed/index.ts) is called with junk positional arguments (wrong types, bigints,
// out-of-range and huge numbers, look-alike objects, near-valid boards and parts made wrong),
// drawn by fast-check. Every call must answer, or refuse with an error coded by ErrorCode, at
// once. Counted across the run: Wasm traps, uncoded errors and calls over the time cap, all
// zero. (test/options-fuzz.test.ts fuzzes the options objects; this one the arguments.)
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as main from "../src/index.js";
import * as distributed from "../src/distributed/index.js";

const CODES = new Set<string>(Object.values(main.ErrorCode));
/**
 * The most one call may take: a refusal is at once and the answers asked for are small, so a
 * call past this started real work on junk (or hangs). 10 s, a margin load cannot eat: on a
 * loaded machine releaseGpu (a software device torn down) once took 2.3 s.
 */
const CAP_MS = 10_000;

/** Plain objects given to a paced function get a signal that stops it soon: an answer to junk stays cheap. */
const PACED: Record<string, number> = {
  count: 1, countParallel: 1, countPart: 1, countConstrainedPartAsync: 1, crossCheck: 0, estimate: 1, treeSize: 1,
  lasVegasStats: 1, lasVegasTable: 1, solve: 1, countGpu: 1, countDistributed: 1, solveDistributed: 1,
};
/** Functions that reach Redis: a plain object given them points at port 1 (nothing listens there), never at a real 6379. */
const QUEUE = new Set(["countDistributed", "solveDistributed", "listRuns", "removeRun", "startWorker", "redisOptions"]);

const part8 = main.splitCount(8, { parts: 4 })[1];
const cpart = main.splitConstrainedCount(6, { blocked: [[0, 0]] } as never, 4)[0];
const junk = fc.constantFrom<unknown>(
  undefined, null, true, 0, -0, 1, 2, 4, 5, 8, -1, -5, 0.5, NaN, Infinity, -Infinity, 2000, 30000, 536846329, 2 ** 31, 1e15,
  1n, 8n, -5n, "", "x", "8", "json", "text", "essence", "wasm", "ts", "auto", "backtrack", "complete", "\u0000",
  "redis://127.0.0.1:1", "redis://u:S3cret%PW@127.0.0.1:1", "{".repeat(3000), "..\n..", "Q.\n..", "letting n = 4",
  [], [9, 9, 9], [1, 3, 0, 2], [[0, 0]], [[9, 9]], [1n], [[0n, 0n]], {}, new Date(0), new Int32Array(3), new Float64Array(2),
  { n: -5, fixed: [], blocked: [] }, { n: 1n, fixed: [], blocked: [] }, { n: 4, fixed: [[0, 0]], blocked: [] },
  { n: 30000, fixed: [[0, 0]], blocked: [] }, { fixed: [[0, 0]] }, { blocked: [[0, 0]] }, { blocked: [[0, 0n]] },
  { fixed: "x" }, { fixed: [[0, 0]], blocked: [[0, 0]] },
  part8, { ...part8, n: 8n }, { ...part8, parts: 4n }, { ...part8, prefixes: null }, { ...part8, digest: 1n }, [part8],
  { ...part8, prefixes: [[1n, 2n]] }, { ...part8, prefixes: [{ i: 1n, j: 2, k: 3, l: 4, rows: [] }] },
  cpart, { ...cpart, n: 6n }, { ...cpart, prefixes: [[[0n, 1]]] }, { ...cpart, prefixes: 9 }, { ...cpart, prefixes: [9] }, [cpart], { n: 8, parts: 4 },
  Symbol("s"), () => 1, Object.create(null), new Proxy({}, { get: () => 1 }),
);
const args = fc.array(junk, { maxLength: 4 });

/** What the run saw. */
const tally = { calls: 0, answered: 0, refused: 0, traps: [] as string[], uncoded: [] as string[], slow: [] as string[] };

function prepare(name: string, list: unknown[]): unknown[] {
  const paced = PACED[name];
  const full = paced !== undefined && list.length <= paced ? [...list, ...Array<unknown>(paced + 1 - list.length).fill(undefined)] : list;
  return full.map((value, i) => {
    if (value === undefined && paced === i) return { signal: AbortSignal.timeout(30) }; // the defaults, stopped soon
    const proto = typeof value === "object" && value !== null ? Object.getPrototypeOf(value) : undefined;
    if (proto !== Object.prototype && proto !== null) return value;
    if (PACED[name] === i && !("signal" in (value as object))) return { ...(value as object), signal: AbortSignal.timeout(30) };
    if (QUEUE.has(name) && !("port" in (value as object))) return { ...(value as object), port: 1 };
    return value;
  });
}

const show = (list: unknown[]): string =>
  list.map((v) => typeof v === "bigint" ? `${v}n` : typeof v === "symbol" || typeof v === "function" ? String(v) : (() => {
    try { return JSON.stringify(v)?.slice(0, 80) ?? String(v); } catch { return String(v); }
  })()).join(", ");

async function judge(name: string, fn: (...a: unknown[]) => unknown, list: unknown[]): Promise<void> {
  const label = `${name}(${show(list)})`;
  tally.calls++;
  const t0 = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const value = fn(...prepare(name, list));
    if (value instanceof Promise) {
      const cap = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error("__cap__")), CAP_MS); });
      await Promise.race([value, cap]);
      value.catch(() => undefined);
    } else if (value && typeof (value as Iterable<unknown>)[Symbol.iterator] === "function" && name === "solutions") {
      let k = 0;
      for (const _ of value as Iterable<unknown>) if (++k >= 3) break;
    }
    tally.answered++;
  } catch (error) {
    const e = error as { name?: string; code?: unknown; message?: string };
    if (e?.message === "__cap__") tally.slow.push(label);
    else if (error instanceof WebAssembly.RuntimeError) tally.traps.push(`${label}: ${e.message}`);
    else if (e?.name === "AbortError" || e?.name === "TimeoutError" || (typeof e?.code === "string" && CODES.has(e.code))) tally.refused++;
    else tally.uncoded.push(`${label}: ${e?.name}: ${e?.message}`);
  } finally {
    clearTimeout(timer);
  }
  const ms = performance.now() - t0;
  if (ms > CAP_MS && !tally.slow.includes(label)) tally.slow.push(`${label}: ${Math.round(ms)} ms`);
}

const exportsOf = (entry: Record<string, unknown>) =>
  Object.entries(entry).filter(([, v]) => typeof v === "function" && !/^class\s/.test(Function.prototype.toString.call(v))) as [string, (...a: unknown[]) => unknown][];
const FUNCTIONS = [...exportsOf(main), ...exportsOf(distributed)];

describe("junk arguments to every export", () => {
  // The GPU adapter's first lookup (crossCheck makes one) takes a second or more on a software adapter: made once, before the cap applies.
  beforeAll(async () => {
    await main.gpuInfo().catch(() => undefined);
  }, 30_000);
  afterAll(() => main.releaseGpu());

  it("covers every function export of both entries", () => {
    const names = FUNCTIONS.map(([name]) => name);
    for (const name of ["drawBoard", "defaultStopVegas", "autoMethod", "splitConstrainedCount", "partDigest", "detectFormat", "countDistributed", "redisOptions", "queueName"]) {
      expect(names).toContain(name);
    }
    expect(names.length).toBeGreaterThan(40);
  });

  it("the calls the issue names are coded refusals or right answers", async () => {
    const refusal = (f: () => unknown) => {
      try { f(); } catch (e) { return (e as { code?: string }).code; }
      return "answered";
    };
    expect(refusal(() => main.drawBoard(536846329, {}, null))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.drawBoard(30000, { fixed: [[0, 0]] }, null))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.drawBoard(8, {}, [9, 9, 9]))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.defaultStopVegas(NaN))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.defaultStopVegas(-5))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.autoMethod("x" as never))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.partDigest("" as never))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.detectFormat(null as never))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.formatBoard(new Date(0) as never, 4 as never))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.formatBoard({ n: -5, fixed: [], blocked: [] }, "json"))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.formatBoard({ n: 1n, fixed: [], blocked: [] } as never, "json"))).toBe("NQ_INVALID_ARGUMENT");
    expect(refusal(() => main.countTask({ ...part8, n: 8n } as never))).toBe("NQ_PART_MISMATCH");
    // The natural call of splitConstrainedCount takes the givens as count does; its parts cover the board's solutions.
    const split = main.splitConstrainedCount(10, { blocked: [[0, 0]] } as never, 8);
    expect(split.length).toBe(8);
    const counts = split.map((p) => main.countConstrainedPart(p, { engine: "ts" }));
    expect(main.mergeConstrainedCounts(counts, split).total).toBe((await main.count(10, { blocked: [[0, 0]] })).total);
    expect(main.drawBoard(4, { fixed: [[0, 1]] }, [1, 3, 0, 2])).toBe(". Q . .\n. . . q\nq . . .\n. . q .");
  });

  it("junk in, an answer or a coded refusal out: no trap, no uncoded error, no call over the cap", async () => {
    for (const [name, fn] of FUNCTIONS) {
      await fc.assert(fc.asyncProperty(args, async (list) => { await judge(name, fn, list); }), { numRuns: name === "crossCheck" ? 10 : 40, seed: 20 }); // (a crossCheck takes ~100 ms to stop)
    }
    expect(tally.traps).toEqual([]);
    expect(tally.uncoded).toEqual([]);
    expect(tally.slow).toEqual([]);
    expect(tally.refused).toBeGreaterThan(tally.calls / 2); // the junk is junk
    expect(tally.answered).toBeGreaterThan(0); // and some of it was near enough to answer
  }, 60_000);
});
