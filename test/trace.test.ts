// trace(): the reference engine's search told step by step. Its last event must be exactly
// what solve() returns on both engines, and every event in between must be a board and a
// change that the algorithm allows, checked here by brute force, independently of the package.
import { describe, expect, it } from "vitest";
import { ErrorCode, solve, trace, TRACE_MAX_N, type TraceEvent, type TraceMethod } from "../src/index.js";
import { attackingPairs, diagonalSurplus, ENGINES, isSolution } from "./helpers.js";

const METHODS: TraceMethod[] = ["backtrack", "las-vegas", "hybrid", "hill-climb"];
const SEEDS = Array.from({ length: 12 }, (_, i) => i * 7919 + 1);

/** The stopVegas used for (n, seed): every value 0..n appears over the seeds. */
const stopVegasFor = (n: number, seed: number) => seed % (n + 1);

function options(method: TraceMethod, n: number, seed: number) {
  return { method, seed, ...(method === "hybrid" ? { stopVegas: stopVegasFor(n, seed) } : {}) };
}

/** Columns the queens of rows 0..row-1 leave free in `row`, square by square. */
function freeColumns(columns: ArrayLike<number>, row: number): number[] {
  const free: number[] = [];
  for (let c = 0; c < columns.length; c++) {
    let attacked = false;
    for (let r = 0; r < row; r++) if (columns[r] === c || Math.abs(columns[r] - c) === row - r) attacked = true;
    if (!attacked) free.push(c);
  }
  return free;
}

/** The number of queens, after checking that they fill rows 0..k-1 and the rest is empty. */
function filledRows(columns: Int32Array): number {
  let k = 0;
  while (k < columns.length && columns[k] >= 0) k++;
  for (let r = k; r < columns.length; r++) expect(columns[r]).toBe(-1);
  return k;
}

const swap = (columns: Int32Array, i: number, j: number) => {
  const copy = Array.from(columns);
  [copy[i], copy[j]] = [copy[j], copy[i]];
  return copy;
};

/** Every change from one event to the next, for backtracking, Las Vegas and hybrid. */
function checkTreeTrace(events: TraceEvent[], method: TraceMethod, stopVegas: number): void {
  const n = events[0].columns.length;
  for (let k = 1; k < events.length; k++) {
    const prev = events[k - 1], e = events[k];
    const queens = filledRows(e.columns);
    // no two queens on the board ever attack each other
    expect(attackingPairs(Array.from(e.columns.subarray(0, queens)))).toEqual([]);
    expect([e.steps, e.conflicts]).toEqual([0, -1]);
    switch (e.kind) {
      case "place": {
        expect(e.nodes).toBe(prev.nodes + 1);
        expect(e.tries).toBe(prev.tries);
        expect(queens).toBe(e.row + 1);
        expect(Array.from(e.columns.subarray(0, e.row))).toEqual(Array.from(prev.columns.subarray(0, e.row)));
        expect(e.safe).toEqual(freeColumns(e.columns, e.row));
        expect(e.safe).toContain(e.column);
        const random = method === "las-vegas" || (method === "hybrid" && e.row < stopVegas);
        expect(e.random).toBe(random);
        if (!random) {
          // backtracking: the first free column after the one the row leaves
          const from = e.previous ?? -1;
          expect(e.column).toBe(e.safe.find((c) => c > from));
          if (e.previous !== null) expect(prev.kind).toBe("backtrack");
        } else {
          expect(e.previous).toBeNull();
        }
        break;
      }
      case "backtrack": {
        expect(method === "las-vegas" || (method === "hybrid" && e.to < stopVegas)).toBe(false);
        expect(e.to).toBeLessThan(e.row);
        expect(queens).toBe(e.to + 1);
        expect(filledRows(prev.columns)).toBe(e.row);
        expect(freeColumns(prev.columns, e.row)).toEqual([]); // the dead row: every square attacked
        expect([e.nodes, e.tries]).toEqual([prev.nodes, prev.tries]);
        break;
      }
      case "fail": {
        expect(method).not.toBe("backtrack");
        expect(e.columns).toEqual(prev.columns); // the board before the reset
        expect(queens).toBe(e.row);
        expect(freeColumns(e.columns, e.row)).toEqual([]);
        expect(e.cause).toBe(method === "hybrid" && e.row > stopVegas ? "exhausted" : "no-safe-column");
        expect(events[k + 1].kind).toBe("restart");
        break;
      }
      case "restart": {
        expect(prev.kind).toBe("fail");
        expect(queens).toBe(0);
        expect([e.nodes, e.tries]).toEqual([prev.nodes + 1, prev.tries + 1]);
        break;
      }
      case "solution": {
        expect(e.columns).toEqual(prev.columns);
        expect(isSolution(e.columns)).toBe(true);
        expect(k).toBe(events.length - 1);
        break;
      }
      default:
        throw new Error(`unexpected event ${e.kind} in a ${method} trace`);
    }
  }
}

/** Every change from one event to the next, for hill climbing. */
function checkHillClimbTrace(events: TraceEvent[]): void {
  const n = events[0].columns.length;
  let next = { i: 0, j: 1 }; // the scan order of the hill-climbing text (docs/references.md, text 4)
  for (let k = 0; k < events.length; k++) {
    const prev = events[Math.max(0, k - 1)], e = events[k];
    expect([...e.columns].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i)); // a permutation
    expect(e.conflicts).toBe(diagonalSurplus(e.columns));
    expect(e.nodes).toBe(0);
    switch (e.kind) {
      case "start":
        expect([e.tries, e.steps]).toEqual([1, 0]);
        break;
      case "evaluate": {
        expect({ i: e.i, j: e.j }).toEqual(next);
        expect(e.delta).toBe(diagonalSurplus(swap(prev.columns, e.i, e.j)) - prev.conflicts);
        expect(e.taken).toBe(e.delta < 0);
        expect(Array.from(e.columns)).toEqual(e.taken ? swap(prev.columns, e.i, e.j) : Array.from(prev.columns));
        expect(e.steps).toBe(prev.steps + (e.taken ? 1 : 0));
        next = e.taken ? { i: 0, j: 1 } : e.j + 1 < n ? { i: e.i, j: e.j + 1 } : { i: e.i + 1, j: e.i + 2 };
        break;
      }
      case "stuck": {
        expect(e.columns).toEqual(prev.columns);
        // a local minimum: no swap lowers h
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) expect(diagonalSurplus(swap(e.columns, i, j))).toBeGreaterThanOrEqual(e.conflicts);
        expect(next.i).toBe(n - 1); // the whole scan was evaluated
        expect(events[k + 1].kind).toBe("restart");
        break;
      }
      case "restart":
        expect(prev.kind).toBe("stuck");
        expect(e.tries).toBe(prev.tries + 1);
        next = { i: 0, j: 1 };
        break;
      case "solution":
        expect(e.conflicts).toBe(0);
        expect(isSolution(e.columns)).toBe(true);
        expect(k).toBe(events.length - 1);
        break;
      default:
        throw new Error(`unexpected event ${e.kind} in a hill-climb trace`);
    }
  }
}

describe("trace() ends where solve() ends, on both engines", () => {
  for (const method of METHODS) {
    it(`${method}, n = 4..10, ${method === "backtrack" ? "one run" : `${SEEDS.length} seeds`}`, async () => {
      let fails = 0, exhausted = 0, restarts = 0;
      for (let n = 4; n <= 10; n++) {
        for (const seed of method === "backtrack" ? [1] : SEEDS) {
          const opts = options(method, n, seed);
          const events = [...trace(n, opts)];
          const last = events[events.length - 1];
          expect(events[0].kind).toBe("start");
          expect(last.kind).toBe("solution");
          for (const engine of ENGINES) {
            const r = await solve(n, { ...opts, engine });
            expect({ columns: Array.from(last.columns), nodes: last.nodes, tries: last.tries, steps: last.steps }, `${method} n=${n} seed=${seed} ${engine}`)
              .toEqual({ columns: Array.from(r.columns!), nodes: r.nodes, tries: r.tries, steps: r.steps });
          }
          if (method === "hill-climb") checkHillClimbTrace(events);
          else checkTreeTrace(events, method, method === "hybrid" ? opts.stopVegas! : 0);
          fails += events.filter((e) => e.kind === "fail").length;
          exhausted += events.filter((e) => e.kind === "fail" && e.cause === "exhausted").length;
          restarts += events.filter((e) => e.kind === "restart").length;
        }
      }
      // the sweep does exercise failed tries and restarts where the method has them
      if (method === "las-vegas" || method === "hybrid") expect(fails).toBeGreaterThan(0);
      if (method === "hybrid") expect(exhausted).toBeGreaterThan(0);
      if (method !== "backtrack") expect(restarts).toBeGreaterThan(0);
    });
  }

  it("n = 8 by backtracking: the textbook's 114 nodes, 113 queens placed, the first solution", () => {
    const events = [...trace(8)];
    const last = events[events.length - 1];
    expect(last.nodes).toBe(114);
    expect(events.filter((e) => e.kind === "place")).toHaveLength(113);
    expect(Array.from(last.columns)).toEqual([0, 4, 7, 5, 2, 6, 1, 3]);
    // n = 4, the classic picture: 0 2 dead, 0 3 1 dead, back to row 0, then 1 3 0 2
    const small = [...trace(4)].filter((e) => e.kind === "backtrack").map((e) => e.kind === "backtrack" && [e.row, e.to]);
    expect(small).toEqual([[2, 1], [3, 0]]);
  });

  it("n = 1, 2, 3 as solve() answers them", async () => {
    const one = [...trace(1, { method: "las-vegas" })];
    expect(one.map((e) => e.kind)).toEqual(["start", "place", "solution"]);
    expect(Array.from(one[2].columns)).toEqual([0]);
    for (const n of [2, 3]) {
      for (const method of METHODS) {
        const events = [...trace(n, { method })];
        expect(events.map((e) => e.kind)).toEqual(["start", "end"]);
        const r = await solve(n, { method });
        const last = events[1];
        expect(last.kind === "end" && last.reason).toBe(r.reason);
        expect([last.nodes, last.tries, last.steps]).toEqual([r.nodes, r.tries, r.steps]);
      }
    }
  });

  it("reports its options: the seed drawn for 'random', and hybrid's default stopVegas", async () => {
    const [start] = trace(12, { method: "hybrid", seed: "random" });
    if (start.kind !== "start") throw new Error("the first event is the start");
    expect(start.stopVegas).toBe(8);
    expect(start.seed).toBeGreaterThanOrEqual(0);
    const events = [...trace(12, { method: "hybrid", seed: start.seed! })];
    const r = await solve(12, { method: "hybrid", seed: start.seed!, engine: "ts" });
    expect(Array.from(events[events.length - 1].columns)).toEqual(Array.from(r.columns!));
    const [bt] = trace(8);
    expect(bt.kind === "start" && [bt.seed, bt.stopVegas]).toEqual([null, null]);
  });
});

describe("trace() as an iterator", () => {
  it("stops at maxEvents with an 'end' event, and otherwise runs to the solution", () => {
    const events = [...trace(8, { method: "las-vegas", seed: 3, maxEvents: 10 })];
    expect(events).toHaveLength(10);
    expect(events[9]).toMatchObject({ kind: "end", reason: "max-events" });
    const all = [...trace(8, { method: "las-vegas", seed: 3 })];
    expect([...trace(8, { method: "las-vegas", seed: 3, maxEvents: all.length })]).toHaveLength(all.length);
    expect(all[all.length - 1].kind).toBe("solution");
    const [only] = [...trace(8, { maxEvents: 1 })];
    expect(only).toMatchObject({ kind: "end", reason: "max-events" });
  });

  it("is lazy, can be left early, and every event owns its board", () => {
    const it = trace(TRACE_MAX_N, { method: "hill-climb", seed: 5 });
    const first = it.next().value as TraceEvent;
    const second = it.next().value as TraceEvent;
    expect(it.return(undefined).done).toBe(true);
    expect(it.next().done).toBe(true);
    const copy = Array.from(second.columns);
    first.columns.fill(0);
    expect(Array.from(second.columns)).toEqual(copy);
  });
});

describe("trace() input checks", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["n too small", () => trace(0), /^n must be an integer from 1 to 32, got 0$/],
    ["n too large", () => trace(33), /^n must be an integer from 1 to 32, got 33$/],
    ["n not an integer", () => trace(8.5), /^n must be an integer from 1 to 32, got 8.5$/],
    ["n a string", () => trace("8" as unknown as number), /^n must be an integer from 1 to 32, got string "8"$/],
    ["a method without a trace", () => trace(8, { method: "min-conflicts" as TraceMethod }), /^method must be one of "backtrack", "las-vegas", "hybrid", "hill-climb", got "min-conflicts"$/],
    ["stopVegas off hybrid", () => trace(8, { method: "las-vegas", stopVegas: 2 }), /^stopVegas applies only to method "hybrid", not to "las-vegas"$/],
    ["stopVegas > n", () => trace(8, { method: "hybrid", stopVegas: 9 }), /^stopVegas must be an integer from 0 to 8, got 9$/],
    ["bad seed", () => trace(8, { method: "las-vegas", seed: -1 }), /^seed must be an integer from 0 to 4294967295, got -1$/],
    ["maxEvents 0", () => trace(8, { maxEvents: 0 }), /^maxEvents must be an integer >= 1, got 0$/],
    ["unknown option", () => trace(8, { engine: "wasm" } as object), /^unknown option "engine" for trace \(known: method, seed, stopVegas, maxEvents, fixed, blocked\)$/],
    ["options not an object", () => trace(8, 3 as unknown as object), /^options of trace must be an object, got 3$/],
  ];
  for (const [what, call, message] of cases) {
    it(`${what}: refused at the call, before any event`, () => {
      let error: unknown;
      try { call(); } catch (e) { error = e; }
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(message);
      expect((error as { code?: string }).code).toBe(ErrorCode.invalidArgument);
      expect((error as Error).name).toMatch(/^(TypeError|RangeError)$/);
    });
  }
});
