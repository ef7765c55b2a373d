// Method 'min-conflicts' through the public solve(): both engines give the same
// columns, steps and tries for the same (n, seed); every solution passes an
// independent O(n) check written here; maxSteps and maxTries are exact; an n too
// large for Wasm memory is refused before anything is opened; abort and progress work.
import { afterEach, describe, expect, test, vi } from "vitest";
import { FOUND, RUNNING } from "../src/engine/contract.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { MIN_CONFLICTS_MAX_N, WASM_HEAP_BYTES, minConflictsBytes } from "../src/engine/ts/min-conflicts.js";
import { newInstance, wasmEngine } from "../src/engine/wasm/index.js";
import { solve, type SolveOptions, type SolveProgress, type SolveResult } from "../src/search/solve.js";
import { boardDifference, isSolutionOfSize } from "./helpers.js";
import { draw, drawGroup } from "../src/engine/ts/min-conflicts-bits.js";
import type { Random } from "../src/engine/ts/rng.js";

const ENGINES = ["wasm", "ts"] as const;
const METHOD = { method: "min-conflicts" } as const;


/** Everything that must agree between engines (all but engine and time). */
function outcome(r: SolveResult) {
  return { found: r.found, reason: r.reason, nodes: r.nodes, tries: r.tries, steps: r.steps, seed: r.seed, columns: r.columns };
}


/** Solve on both engines, one after the other; check they agree; the shared outcome. */
async function solveBoth(n: number, options: SolveOptions = {}) {
  const wasm = await solve(n, { ...METHOD, ...options, engine: "wasm" });
  const ts = await solve(n, { ...METHOD, ...options, engine: "ts" });
  const label = `n = ${n} ${JSON.stringify(options)}`;
  expect({ ...outcome(wasm), columns: null }, label).toEqual({ ...outcome(ts), columns: null });
  expect(boardDifference(wasm.columns, ts.columns), label).toBeNull();
  if (wasm.found) expect(isSolutionOfSize(wasm.columns, n), label).toBe(true);
  return outcome(wasm);
}

describe("min-conflicts: both engines, same answers, all checked", () => {
  test("n = 1 is [0]; n = 2 and 3 have no solution", async () => {
    for (const engine of ENGINES) {
      const one = await solve(1, { ...METHOD, engine });
      expect(one.found).toBe(true);
      expect(Array.from(one.columns!)).toEqual([0]);
      for (const n of [2, 3]) {
        const none = await solve(n, { ...METHOD, engine });
        expect(none).toMatchObject({ found: false, reason: "no-solution", columns: null });
      }
    }
  });

  test("n = 4..60, five seeds each: identical columns, steps and tries; every board solved", async () => {
    let restarts = 0;
    for (let n = 4; n <= 60; n++) {
      for (const seed of [1, 2, 3, 4, 5]) {
        const r = await solveBoth(n, { seed });
        expect(r.found).toBe(true);
        expect(r.nodes).toBe(0);
        expect(r.seed).toBe(seed);
        if (r.tries > 1) restarts++;
      }
    }
    expect(restarts).toBeGreaterThan(0); // the restart path was taken (and agreed) at least once
  });

  test("n = 61..140 and 300..2964 (every 37th), two seeds each: every construction stage (identical, solved)", async () => {
    // From n = 64 on, rows take group draws (the last group padded past n when 32 does not
    // divide n) until the last 32 + n / 2^20 tail rows, or until n / 64 columns are left
    // (n > 2048), where partner swaps take over. Somewhere in 300..2964 a row's group tries
    // all fail (it takes a free column and becomes a candidate): 1188 with seed 2, for one.
    for (const n of [...Array.from({ length: 80 }, (_, i) => 61 + i), ...Array.from({ length: 73 }, (_, i) => 300 + 37 * i)]) {
      for (const seed of [1, 2]) expect((await solveBoth(n, { seed })).found).toBe(true);
    }
  });

  test("n = 1000 (eight seeds), 10^5 (two seeds), 10^6 (one seed)", async () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) expect((await solveBoth(1000, { seed })).found).toBe(true);
    for (const seed of [1, 2]) {
      const r = await solveBoth(100_000, { seed });
      expect(r.found).toBe(true);
      expect(r.steps).toBeGreaterThan(0); // the tail rows collide, so repair had work to do
    }
    expect((await solveBoth(1_000_000, { seed: 7 })).found).toBe(true);
  });

  test("different seeds give different boards; the default seed is 1", async () => {
    const a = await solve(1000, { ...METHOD, seed: 1 });
    const b = await solve(1000, { ...METHOD, seed: 2 });
    const d = await solve(1000, METHOD);
    expect(Array.from(a.columns!)).not.toEqual(Array.from(b.columns!));
    expect(outcome(d)).toEqual(outcome(a));
  });
});

describe("min-conflicts: caps are exact", () => {
  test("maxSteps: stops at exactly that many swaps with reason 'max-steps'; the full count still solves", async () => {
    const full = await solveBoth(1000, { seed: 3 });
    expect(full.steps).toBeGreaterThan(3);
    for (const maxSteps of [1, 2, full.steps - 1]) {
      const capped = await solveBoth(1000, { seed: 3, maxSteps });
      expect(capped).toMatchObject({ found: false, reason: "max-steps", steps: maxSteps, columns: null });
    }
    expect(await solveBoth(1000, { seed: 3, maxSteps: full.steps })).toEqual(full);
  });

  test("maxTries: a seed that restarts stops after that many tries with reason 'max-tries'", async () => {
    let restarting: { n: number; seed: number; tries: number } | undefined;
    for (let n = 4; n <= 30 && !restarting; n++) {
      for (let seed = 1; seed <= 20 && !restarting; seed++) {
        const r = await solve(n, { ...METHOD, engine: "ts", seed });
        if (r.tries >= 2) restarting = { n, seed, tries: r.tries };
      }
    }
    expect(restarting).toBeDefined();
    const { n, seed, tries } = restarting!;
    const capped = await solveBoth(n, { seed, maxTries: tries - 1 });
    expect(capped).toMatchObject({ found: false, reason: "max-tries", tries: tries - 1 });
    expect((await solveBoth(n, { seed, maxTries: tries })).found).toBe(true);
  });

  test("maxNodes does not apply", async () => {
    await expect(solve(100, { ...METHOD, maxNodes: 10 })).rejects.toThrow(/maxNodes does not apply/);
  });
});

describe("min-conflicts: the TS twin's draws are the kernel's u64 multiply-shift", () => {
  // The kernel takes the high word of a u64 product; the twin rebuilds it from doubles.
  // Checked here with BigInt at the edges of x and k (up to 2^31 - 1), rejections included.
  test("draw and drawGroup match BigInt for extreme x and k", () => {
    // 2147483737 (with k = 2^31 - 1) and 4217354246 (with 536,846,328) are where floor(x * k / 2^32) in doubles is one too high.
    const xs = [0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x12345678, 0xdeadbeef, 0x9e3779b9, 2147483737, 4217354246];
    const ks = [1, 2, 3, 7, 1000, 312_500, 16_776_919, 2 ** 30 + 7, 536_846_328, 2 ** 31 - 1];
    const reference = (list: number[], k: number, shift: bigint) => {
      // Lemire: redraw while the low word is below 2^32 mod k (checked only when it is below k).
      let i = 0;
      let m = BigInt(list[i++]) * BigInt(k);
      if (Number(m & 0xffffffffn) < k) {
        const floor = (2 ** 32 - k) % k;
        while (Number(m & 0xffffffffn) < floor) m = BigInt(list[i++]) * BigInt(k);
      }
      return Number(m >> shift);
    };
    for (const k of ks) {
      for (let a = 0; a < xs.length; a++) {
        const list = [...xs.slice(a), ...xs.slice(0, a), 0xffffffff]; // the last one is never rejected
        const feed = () => {
          let i = 0;
          return { nextU32: () => list[i++] } as unknown as Random;
        };
        expect(draw(feed(), k), `draw k = ${k} x = ${list[0]}`).toBe(reference(list, k, 32n));
        if (k < 2 ** 26) expect(drawGroup(feed(), k), `drawGroup k = ${k} x = ${list[0]}`).toBe(reference(list, k, 27n));
      }
    }
  });
});

describe("min-conflicts: memory", () => {
  afterEach(() => vi.restoreAllMocks());

  test("the byte count: 8 per queen and 64 KiB, and the largest n that fits", () => {
    expect(minConflictsBytes(1_000_000)).toBe(8_000_000 + 65_536 + 64);
    expect(minConflictsBytes(MIN_CONFLICTS_MAX_N)).toBeLessThanOrEqual(WASM_HEAP_BYTES);
    expect(minConflictsBytes(MIN_CONFLICTS_MAX_N + 1)).toBeGreaterThan(WASM_HEAP_BYTES);
    expect(MIN_CONFLICTS_MAX_N).toBeGreaterThan(500_000_000); // 10^8 fits with room to spare
  });

  test("the Wasm kernel can allocate the largest n accepted (memory is reserved, not touched)", () => {
    const kernels = newInstance();
    expect(kernels.minConflictsInit(MIN_CONFLICTS_MAX_N, 1, 0, Infinity, Infinity, Infinity)).not.toBe(0);
  });

  test("an n that cannot fit is refused with a RangeError before any search is opened, quickly", async () => {
    const opened = [vi.spyOn(wasmEngine, "openSearch"), vi.spyOn(tsEngine, "openSearch")];
    for (const engine of ENGINES) {
      for (const n of [MIN_CONFLICTS_MAX_N + 1, 900_000_000, 2 ** 30]) {
        // "Quickly" is the mechanism: no search is opened (the spies, below), so no memory is reserved.
        const error = await solve(n, { ...METHOD, engine }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(RangeError);
        const message = (error as Error).message;
        expect(message).toContain(String(n));
        expect(message).toContain(`1 to ${MIN_CONFLICTS_MAX_N}`);
        expect((error as { code?: string }).code).toBe("NQ_INVALID_ARGUMENT");
      }
      // Past the index range the generic check answers, also before anything is opened.
      await expect(solve(2 ** 30 + 1, { ...METHOD, engine })).rejects.toThrow(RangeError);
    }
    for (const spy of opened) expect(spy).not.toHaveBeenCalled();
  });
});

describe("min-conflicts: a run ends where its phase changes", () => {
  // A unit of work costs a few ns late in construction and 100 ns or more in repair, so
  // the kernel returns at the end of construction (and at a restart's), however big its
  // budget: solve() sizes each phase's chunks on their own.
  test("both engines: run(unbounded) stops at the end of construction, at the same work; the board is the one solve() finds", async () => {
    const n = 100_000;
    const unbounded = Number.MAX_SAFE_INTEGER;
    const params = { seed: 1, param: 0, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity };
    const seen: { figures: unknown; columns: Int32Array }[] = [];
    for (const engine of [wasmEngine, tsEngine]) {
      const search = engine.openSearch("min-conflicts", n, params);
      try {
        expect(search.state().phase).toBe("construct");
        expect(search.run(unbounded)).toBe(RUNNING);
        const atRepair = { work: search.work(), ...search.state(), ...search.stats() };
        expect(atRepair.phase).toBe("repair");
        expect(atRepair.conflicts).toBeGreaterThan(0); // the tail rows collide: repair has work to do
        expect(atRepair.work).toBeLessThan(unbounded);
        let status = search.run(unbounded);
        while (status === RUNNING) status = search.run(unbounded);
        expect(status).toBe(FOUND);
        expect(isSolutionOfSize(search.columns(), n)).toBe(true);
        seen.push({ figures: { atRepair, stats: search.stats() }, columns: search.columns().slice() });
      } finally {
        search.close();
      }
    }
    expect(seen[0].figures).toEqual(seen[1].figures);
    expect(boardDifference(seen[0].columns, seen[1].columns)).toBeNull();
    const viaSolve = await solve(n, { ...METHOD, seed: 1, engine: "ts" });
    expect(boardDifference(viaSolve.columns, seen[0].columns)).toBeNull();
  });
});

describe("min-conflicts: abort and progress", () => {
  test("an AbortSignal aborted mid-search rejects with its reason; one aborted before rejects at once", async () => {
    for (const engine of ENGINES) {
      const controller = new AbortController();
      let reports = 0;
      const run = solve(5_000_000, {
        ...METHOD, engine, seed: 1, signal: controller.signal,
        onProgress: () => { reports++; controller.abort(); },
      });
      await expect(run).rejects.toMatchObject({ name: "AbortError" });
      expect(reports).toBe(1);
      const already = new AbortController();
      already.abort(new Error("stop"));
      await expect(solve(1000, { ...METHOD, engine, signal: already.signal })).rejects.toThrow("stop");
    }
  });

  test("progress reports phase 'construct' (conflicts not yet counted) and then 'repair', ending at 0 conflicts", async () => {
    for (const engine of ENGINES) {
      const reports: SolveProgress[] = [];
      const result = await solve(2_000_000, { ...METHOD, engine, seed: 5, onProgress: (p) => reports.push(p) });
      expect(result.found).toBe(true);
      expect(reports.length).toBeGreaterThanOrEqual(2);
      const phases = reports.map((p) => p.phase);
      expect(phases[0]).toBe("construct");
      expect(phases.at(-1)).toBe("repair");
      expect(phases.indexOf("repair")).toBe(phases.length - phases.filter((p) => p === "repair").length);
      for (const p of reports) {
        expect(p).toMatchObject({ method: "min-conflicts", n: 2_000_000, nodes: 0, tries: 1 });
        if (p.phase === "construct") expect(p.conflicts).toBe(-1);
        else expect(p.conflicts).toBeGreaterThanOrEqual(0);
      }
      expect(reports.at(-1)).toMatchObject({ conflicts: 0, steps: result.steps });
    }
  });

  test("timeoutMs stops a long run with reason 'timeout'", async () => {
    for (const engine of ENGINES) {
      const r = await solve(5_000_000, { ...METHOD, engine, timeoutMs: 20 });
      expect(r).toMatchObject({ found: false, reason: "timeout", columns: null });
    }
  });
});
