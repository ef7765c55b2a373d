// trace(): the reference engine's search told step by step. Its last event must be exactly
// what solve() returns on both engines, and every event in between must be a board and a
// change that the algorithm allows, checked here by brute force, independently of the package.
import { describe, expect, it } from "vitest";
import { ErrorCode, solve, trace, TRACE_MAX_N, type TraceEvent, type TraceMethod } from "../src/index.js";
import { attackingPairs, boardDifference, diagonalSurplus, ENGINES, isSolution } from "./helpers.js";

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

/** The number of queens when they fill rows 0..k-1 and the rest is empty; -1 for any other board. */
function filledRows(columns: Int32Array): number {
  let k = 0;
  while (k < columns.length && columns[k] >= 0) k++;
  for (let r = k; r < columns.length; r++) if (columns[r] !== -1) return -1;
  return k;
}

/** Same length, same entries. */
const same = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => boardDifference(a, b) === null;

/** Each of 0..n-1 once. */
function isPermutation(columns: ArrayLike<number>): boolean {
  const seen = new Uint8Array(columns.length);
  for (let r = 0; r < columns.length; r++) {
    const c = columns[r];
    if (!(c >= 0 && c < columns.length) || seen[c]) return false;
    seen[c] = 1;
  }
  return true;
}

const swap = (columns: Int32Array, i: number, j: number) => {
  const copy = Array.from(columns);
  [copy[i], copy[j]] = [copy[j], copy[i]];
  return copy;
};

/**
 * A record of the rules an event breaks (the first few), which the test asserts empty once a
 * trace. Plain comparisons: an expect() per rule of each of some 23,000 events took nearly
 * all of this file's time.
 */
function violations(events: TraceEvent[]) {
  const wrong: string[] = [];
  let at = 0;
  return {
    wrong,
    /** The event whose rules are checked next. */
    event(k: number): void {
      at = k;
    },
    ok(holds: boolean, rule: string): void {
      if (!holds && wrong.length < 5) wrong.push(`event ${at} (${events[at].kind}): ${rule}`);
    },
  };
}

/** Every change from one event to the next, for backtracking, Las Vegas and hybrid: the rules broken. */
function checkTreeTrace(events: TraceEvent[], method: TraceMethod, stopVegas: number): string[] {
  const { wrong, event, ok } = violations(events);
  for (let k = 1; k < events.length; k++) {
    event(k);
    const prev = events[k - 1], e = events[k];
    const queens = filledRows(e.columns);
    if (queens < 0) {
      ok(false, "queens fill the top rows and the rest is empty");
      continue;
    }
    // no two queens on the board ever attack each other
    ok(attackingPairs(e.columns.subarray(0, queens)).length === 0, "no two queens attack each other");
    ok(e.steps === 0 && e.conflicts === -1, "steps 0 and conflicts -1");
    switch (e.kind) {
      case "place": {
        ok(e.nodes === prev.nodes + 1, "a place is a node");
        ok(e.tries === prev.tries, "a place keeps the try");
        ok(queens === e.row + 1, "the queen is placed on the next row");
        ok(same(e.columns.subarray(0, e.row), prev.columns.subarray(0, e.row)), "the rows above are kept");
        ok(same(e.safe, freeColumns(e.columns, e.row)), "safe lists the row's free columns");
        ok(e.safe.includes(e.column), "the column is safe");
        const random = method === "las-vegas" || (method === "hybrid" && e.row < stopVegas);
        ok(e.random === random, `random is ${random}`);
        if (!random) {
          // backtracking: the first free column after the one the row leaves
          const from = e.previous ?? -1;
          ok(e.column === e.safe.find((c) => c > from), "the first free column after the one left");
          if (e.previous !== null) ok(prev.kind === "backtrack", "a row left is one backtracked to");
        } else {
          ok(e.previous === null, "a random place leaves no column");
        }
        break;
      }
      case "backtrack": {
        ok(!(method === "las-vegas" || (method === "hybrid" && e.to < stopVegas)), "no backtracking into random rows");
        ok(e.to < e.row, "back to an earlier row");
        ok(queens === e.to + 1, "the rows below are cleared");
        ok(filledRows(prev.columns) === e.row, "the dead row is the next one");
        ok(freeColumns(prev.columns, e.row).length === 0, "the dead row: every square attacked");
        ok(e.nodes === prev.nodes && e.tries === prev.tries, "nodes and tries kept");
        break;
      }
      case "fail": {
        ok(method !== "backtrack", "backtracking does not fail");
        ok(same(e.columns, prev.columns), "the board before the reset");
        ok(queens === e.row, "the failing row is the next one");
        ok(freeColumns(e.columns, e.row).length === 0, "the failing row: every square attacked");
        ok(e.cause === (method === "hybrid" && e.row > stopVegas ? "exhausted" : "no-safe-column"), "the cause");
        ok(events[k + 1]?.kind === "restart", "a restart follows");
        break;
      }
      case "restart": {
        ok(prev.kind === "fail", "a restart follows a fail");
        ok(queens === 0, "the board is cleared");
        ok(e.nodes === prev.nodes + 1 && e.tries === prev.tries + 1, "a restart is a node and a try");
        break;
      }
      case "solution": {
        ok(same(e.columns, prev.columns), "the board of the last place");
        ok(isSolution(e.columns), "a solution");
        ok(k === events.length - 1, "the last event");
        break;
      }
      default:
        ok(false, `unexpected in a ${method} trace`);
    }
  }
  return wrong;
}

/** Every change from one event to the next, for hill climbing: the rules broken. */
function checkHillClimbTrace(events: TraceEvent[]): string[] {
  const { wrong, event, ok } = violations(events);
  const n = events[0].columns.length;
  let next = { i: 0, j: 1 }; // the scan order of the hill-climbing text (docs/references.md, text 4)
  for (let k = 0; k < events.length; k++) {
    event(k);
    const prev = events[Math.max(0, k - 1)], e = events[k];
    ok(isPermutation(e.columns), "a permutation");
    ok(e.conflicts === diagonalSurplus(e.columns), "conflicts is h");
    ok(e.nodes === 0, "no nodes");
    switch (e.kind) {
      case "start":
        ok(e.tries === 1 && e.steps === 0, "try 1, no steps");
        break;
      case "evaluate": {
        ok(e.i === next.i && e.j === next.j, `the next swap in scan order, (${next.i}, ${next.j})`);
        const swapped = swap(prev.columns, e.i, e.j);
        ok(e.delta === diagonalSurplus(swapped) - prev.conflicts, "delta is the change of h");
        ok(e.taken === (e.delta < 0), "taken when h falls");
        ok(e.taken ? same(e.columns, swapped) : same(e.columns, prev.columns), "the board after the swap taken or not");
        ok(e.steps === prev.steps + (e.taken ? 1 : 0), "a swap taken is a step");
        next = e.taken ? { i: 0, j: 1 } : e.j + 1 < n ? { i: e.i, j: e.j + 1 } : { i: e.i + 1, j: e.i + 2 };
        break;
      }
      case "stuck": {
        ok(same(e.columns, prev.columns), "the board is kept");
        // a local minimum: no swap lowers h
        let lower = false;
        for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (diagonalSurplus(swap(e.columns, i, j)) < e.conflicts) lower = true;
        ok(!lower, "no swap lowers h");
        ok(next.i === n - 1, "the whole scan was evaluated");
        ok(events[k + 1]?.kind === "restart", "a restart follows");
        break;
      }
      case "restart":
        ok(prev.kind === "stuck", "a restart follows stuck");
        ok(e.tries === prev.tries + 1, "a restart is a try");
        next = { i: 0, j: 1 };
        break;
      case "solution":
        ok(e.conflicts === 0, "h is 0");
        ok(isSolution(e.columns), "a solution");
        ok(k === events.length - 1, "the last event");
        break;
      default:
        ok(false, "unexpected in a hill-climb trace");
    }
  }
  return wrong;
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
          const broken = method === "hill-climb" ? checkHillClimbTrace(events) : checkTreeTrace(events, method, method === "hybrid" ? opts.stopVegas! : 0);
          expect(broken, `${method} n=${n} seed=${seed}`).toEqual([]);
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
