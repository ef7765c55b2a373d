// The randomized and local searches on constrained boards: las-vegas, hybrid,
// hill-climb and min-conflicts with given queens and blocked squares, on both engines.
// Every board a search returns is checked by `isCompletion` below (written here, knowing
// nothing of the kernels); whether a completion exists comes from `completions`, a plain
// brute force over permutations, also written here.
import { describe, expect, it } from "vitest";
import { checkConstraints, type BoardConstraints, type Constraints, type Square } from "../src/board/constraints.js";
import { EXHAUSTED, FOUND, MAX_NODES, MAX_STEPS, MAX_TRIES, RUNNING, type Engine, type SearchMethod } from "../src/engine/contract.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { isSolution, isSolutionLarge } from "./helpers.js";
import { solve, trace } from "../src/index.js";
import { MIN_CONFLICTS_CONSTRAINED_MAX_N } from "../src/engine/ts/min-conflicts.js";

const ENGINES: Engine[] = [wasmEngine, tsEngine];
type Local = "las-vegas" | "hybrid" | "hill-climb" | "min-conflicts";

/** A small seeded generator for the test's own random boards (mulberry32). */
function generator(seed: number): (k: number) => number {
  let a = seed >>> 0;
  return (k: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * k);
  };
}

/** Queens on distinct columns and diagonals, every given queen in place, no queen on a blocked square. */
function isCompletion(n: number, columns: ArrayLike<number>, input: BoardConstraints): boolean {
  if (columns.length !== n || !(n <= 2000 ? isSolution(columns) : isSolutionLarge(columns))) return false;
  for (const [r, c] of input.fixed ?? []) if (columns[r] !== c) return false;
  for (const [r, c] of input.blocked ?? []) if (columns[r] === c) return false;
  return true;
}

/** Every completion, by brute force over all permutations (n <= 8: at most 40,320). */
function completions(n: number, input: BoardConstraints): number {
  let total = 0;
  const cols: number[] = [];
  const used = new Array<boolean>(n).fill(false);
  const walk = (r: number): void => {
    if (r === n) {
      if (isCompletion(n, cols, input)) total++;
      return;
    }
    for (let c = 0; c < n; c++) {
      if (used[c]) continue;
      used[c] = true;
      cols[r] = c;
      walk(r + 1);
      used[c] = false;
    }
  };
  walk(0);
  return total;
}

/** A random constraint set: a few given queens (possibly attacking) and some blocked squares. */
function randomBoard(n: number, draw: (k: number) => number): BoardConstraints {
  const fixed: Square[] = [];
  const blocked: Square[] = [];
  const givens = draw(4);
  for (let i = 0; i < givens; i++) fixed.push([draw(n), draw(n)]);
  const blocks = draw(2 * n + 1);
  for (let i = 0; i < blocks; i++) blocked.push([draw(n), draw(n)]);
  return { fixed, blocked };
}

type Outcome = { status: number; columns: number[]; nodes: number; tries: number; steps: number };

/** Generous caps where a completion exists; small ones where none does (the search can only run out). */
const CAPS = { maxNodes: 2_000_000, maxSteps: 200_000, maxTries: 5_000 };
const SMALL_CAPS = { maxNodes: 20_000, maxSteps: 2_000, maxTries: 50 };

/** Run one search to its end (in chunks, as solve does). */
function runSearch(
  engine: Engine, method: SearchMethod, n: number, constraints: Constraints | undefined, seed: number, param = 0, caps = CAPS,
): Outcome {
  const search = engine.openSearch(method, n, { seed, param, ...caps, constraints });
  try {
    let status: number = RUNNING;
    for (let chunks = 0; status === RUNNING; chunks++) {
      status = search.run(search.work() + 997);
      if (chunks > 1e6) throw new Error("no end");
    }
    return { status, columns: Array.from(search.columns()), ...search.stats() };
  } finally {
    search.close();
  }
}

const METHODS: { method: Local; param: (n: number) => number }[] = [
  { method: "las-vegas", param: () => 0 },
  { method: "hybrid", param: (n) => Math.min(n, 3) },
  { method: "hybrid", param: () => 0 }, // every row backtracked: complete, EXHAUSTED proves no completion
  { method: "hill-climb", param: () => 0 },
  { method: "min-conflicts", param: () => 0 },
];

describe("constrained search: every board is checked, existence agrees with brute force, engines agree", () => {
  it("random constraint sets, n = 4..8, every method, both engines", () => {
    const draw = generator(15);
    let boards = 0, solvable = 0, unsolvable = 0, found = 0, proved = 0;
    for (let trial = 0; trial < 150; trial++) {
      const n = 4 + (trial % 5);
      const input = randomBoard(n, draw);
      const constraints = checkConstraints(n, input, "test");
      if (constraints.conflict) continue; // solve answers these before any search (tested below)
      boards++;
      const exists = completions(n, input) > 0;
      if (exists) solvable++;
      else unsolvable++;
      for (const { method, param } of METHODS) {
        const seed = 1 + trial;
        const [w, t] = ENGINES.map((engine) => runSearch(engine, method, n, constraints, seed, param(n), exists ? CAPS : SMALL_CAPS));
        const where = `${method} k=${param(n)} n=${n} seed=${seed} ${JSON.stringify(input)}`;
        // Parity: same status, columns and figures on both engines.
        expect(w, where).toEqual(t);
        if (w.status === FOUND) {
          found++;
          expect(isCompletion(n, w.columns, input), where).toBe(true);
        } else {
          expect([EXHAUSTED, MAX_NODES, MAX_STEPS, MAX_TRIES], where).toContain(w.status);
        }
        if (w.status === EXHAUSTED) proved++;
        // A completion exists: every method finds one within the generous caps; none: never FOUND,
        // and the complete variant (hybrid with every row backtracked) proves it.
        if (exists) expect(w.status, where).toBe(FOUND);
        else expect(w.status, where).not.toBe(FOUND);
        if (method === "hybrid" && param(n) === 0) expect(w.status, where).toBe(exists ? FOUND : EXHAUSTED);
        if (w.status === EXHAUSTED) expect(exists, where).toBe(false);
      }
    }
    expect(boards).toBeGreaterThan(60);
    expect(solvable).toBeGreaterThan(20);
    expect(unsolvable).toBeGreaterThan(5);
    expect(found).toBeGreaterThan(100);
    expect(proved).toBeGreaterThan(5);
  }, 120_000);
});

describe("constrained search: no constraints is the plain problem, node for node and draw for draw", () => {
  it("absent, undefined-input and empty-list constraints give today's columns and figures", () => {
    for (const engine of ENGINES) {
      for (const { method, param } of METHODS) {
        for (const n of [4, 5, 6, 8, 10, 13, 16, 20]) {
          for (const seed of [1, 123456789]) {
            const plain = runSearch(engine, method, n, undefined, seed, param(n));
            for (const input of [undefined, {}, { fixed: [], blocked: [] }]) {
              const empty = checkConstraints(n, input, "test");
              expect(empty.empty).toBe(true);
              expect(runSearch(engine, method, n, empty, seed, param(n)), `${engine.name} ${method} n=${n} seed=${seed}`).toEqual(plain);
            }
            expect(plain.status).toBe(FOUND);
            expect(isSolution(plain.columns)).toBe(true);
          }
        }
      }
    }
  }, 60_000);
});

/** Given queens taken from a real solution and blocked squares off it: a completion exists. */
function solvableBoard(n: number, draw: (k: number) => number, givens: number, blocks: number): BoardConstraints {
  // A solution from the plain min-conflicts search (checked here before use).
  const plain = runSearch(tsEngine, "min-conflicts", n, undefined, 99 + n);
  expect(isSolution(plain.columns)).toBe(true);
  const fixed: Square[] = [];
  for (let i = 0; i < givens; i++) {
    const r = draw(n);
    fixed.push([r, plain.columns[r]]);
  }
  const blocked: Square[] = [];
  while (blocked.length < blocks) {
    const r = draw(n), c = draw(n);
    if (plain.columns[r] !== c) blocked.push([r, c]);
  }
  return { fixed, blocked };
}

describe("constrained search on larger boards (a completion known to exist)", () => {
  const sizes: Record<Local, number[]> = {
    "las-vegas": [12, 20, 30],
    hybrid: [12, 20, 40, 60],
    "hill-climb": [12, 20, 40, 80],
    "min-conflicts": [12, 50, 200, 1000, 5000],
  };
  for (const method of Object.keys(sizes) as Local[]) {
    it(`${method}: found, checked, the same on both engines`, () => {
      const draw = generator(method.length * 31);
      for (const n of sizes[method]) {
        for (const [givens, blocks] of [[0, 2 * n], [Math.ceil(n / 8), n], [Math.ceil(n / 4), 0]]) {
          const input = solvableBoard(n, draw, givens, blocks);
          const constraints = checkConstraints(n, input, "test");
          expect(constraints.conflict).toBeNull();
          for (const seed of [1, 2]) {
            const param = method === "hybrid" ? Math.max(0, n - 12) : 0;
            const [w, t] = ENGINES.map((engine) => runSearch(engine, method, n, constraints, seed, param));
            const where = `${method} n=${n} givens=${givens} blocks=${blocks} seed=${seed}`;
            expect(w, where).toEqual(t);
            expect(w.status, where).toBe(FOUND);
            expect(isCompletion(n, w.columns, input), where).toBe(true);
          }
        }
      }
    }, 60_000);
  }
});

describe("constrained search: no completion", () => {
  it("a row with every square blocked or attacked by a given queen: EXHAUSTED at once, every method", () => {
    const n = 8;
    // Row 3: columns 0, 1, 2, 3, 5, 7 blocked; 4 and 6 are the given queens' columns.
    const input = { fixed: [[0, 6], [1, 4]] as Square[], blocked: [0, 1, 2, 3, 5, 7].map((c) => [3, c] as Square) };
    expect(completions(n, input)).toBe(0);
    const constraints = checkConstraints(n, input, "test");
    expect(constraints.conflict).toBeNull();
    for (const engine of ENGINES) {
      for (const { method, param } of METHODS) {
        const r = runSearch(engine, method, n, constraints, 5, param(n));
        expect(r.status, `${engine.name} ${method}`).toBe(EXHAUSTED);
        expect({ nodes: r.nodes, tries: r.tries, steps: r.steps }).toEqual({
          nodes: method === "las-vegas" || method === "hybrid" ? 1 : 0, tries: 1, steps: 0,
        });
      }
    }
  });

  it("a column with no open square: EXHAUSTED at once", () => {
    const n = 6;
    const input = { blocked: [0, 1, 2, 3, 4, 5].map((r) => [r, 2] as Square) };
    expect(completions(n, input)).toBe(0);
    const constraints = checkConstraints(n, input, "test");
    for (const engine of ENGINES) {
      for (const { method, param } of METHODS) expect(runSearch(engine, method, n, constraints, 3, param(n)).status).toBe(EXHAUSTED);
    }
  });

  it("no completion but every line open: the randomized searches stop at their caps, the complete variant proves it", () => {
    // n = 4 has two solutions, (1,3,0,2) and (2,0,3,1); block one square of each.
    const n = 4;
    const input = { blocked: [[0, 1], [0, 2]] as Square[] };
    expect(completions(n, input)).toBe(0);
    const constraints = checkConstraints(n, input, "test");
    for (const engine of ENGINES) {
      expect(runSearch(engine, "las-vegas", n, constraints, 1, 0, SMALL_CAPS).status).toBe(MAX_TRIES);
      expect(runSearch(engine, "hybrid", n, constraints, 1, 2, SMALL_CAPS).status).toBe(MAX_TRIES);
      expect(runSearch(engine, "hybrid", n, constraints, 1, 0, SMALL_CAPS).status).toBe(EXHAUSTED);
      expect([MAX_STEPS, MAX_TRIES]).toContain(runSearch(engine, "hill-climb", n, constraints, 1, 0, SMALL_CAPS).status);
      expect([MAX_STEPS, MAX_TRIES]).toContain(runSearch(engine, "min-conflicts", n, constraints, 1, 0, SMALL_CAPS).status);
      // maxNodes stops las-vegas too
      const capped = engine.openSearch("las-vegas", n, { seed: 1, param: 0, maxNodes: 100, maxSteps: Infinity, maxTries: Infinity, constraints });
      expect(capped.run(Infinity)).toBe(MAX_NODES);
      expect(capped.stats().nodes).toBe(100);
      capped.close();
    }
  });
});

describe("solve with fixed and blocked: the four methods through the public entry", () => {
  const methods: Local[] = ["las-vegas", "hybrid", "hill-climb", "min-conflicts"];

  it("given queens that attack each other: found false, reason 'conflict' naming the pair, before any search", async () => {
    for (const engine of ["wasm", "ts"] as const) {
      for (const method of methods) {
        for (const [fixed, line] of [[[[1, 2], [5, 6]], "diagonal"], [[[0, 3], [6, 3]], "column"], [[[2, 0], [4, 6], [7, 5]], "diagonal"]] as const) {
          const r = await solve(8, { method, engine, fixed: fixed as unknown as Square[], blocked: [[0, 0]] });
          expect(r.found).toBe(false);
          expect(r.reason).toBe("conflict");
          expect(r.columns).toBeNull();
          expect({ nodes: r.nodes, tries: r.tries, steps: r.steps }).toEqual({ nodes: 0, tries: 0, steps: 0 });
          // The attacking pair, by a check written here.
          const [[r1, c1], [r2, c2]] = r.conflict!.squares;
          expect(c1 === c2 || r1 === r2 || Math.abs(r1 - r2) === Math.abs(c1 - c2)).toBe(true);
          expect(r.conflict!.reason).toContain(`(${r1}, ${c1})`);
          expect(r.conflict!.reason).toContain(`(${r2}, ${c2})`);
          expect(r.conflict!.reason).toContain(line);
        }
      }
    }
  });

  it("a given queen on a blocked square: reason 'conflict' naming the square", async () => {
    for (const method of methods) {
      const r = await solve(10, { method, fixed: [[4, 4]], blocked: [[4, 4]] });
      expect({ found: r.found, reason: r.reason, squares: r.conflict?.squares }).toEqual({ found: false, reason: "conflict", squares: [[4, 4]] });
      expect(r.conflict!.reason).toContain("(4, 4)");
    }
  });

  it("solvable boards: a checked completion, the same on both engines; a closed line: 'no-solution'", async () => {
    const draw = generator(2026);
    for (const method of methods) {
      for (const n of [8, 12, 16]) {
        const input = solvableBoard(n, draw, 2, n);
        const [w, t] = await Promise.all(
          (["wasm", "ts"] as const).map((engine) => solve(n, { method, engine, seed: 4, ...input, ...(method === "hybrid" ? { stopVegas: n - 6 } : {}) })),
        );
        expect(w.found).toBe(true);
        expect(isCompletion(n, w.columns!, input)).toBe(true);
        expect({ ...w, ms: 0, engine: "" }).toEqual({ ...t, ms: 0, engine: "" });
      }
      const closed = await solve(8, { method, blocked: [0, 1, 2, 3, 4, 5, 6, 7].map((c) => [5, c] as Square) });
      expect({ found: closed.found, reason: closed.reason }).toEqual({ found: false, reason: "no-solution" });
    }
  });

  it("constrained min-conflicts takes n up to MIN_CONFLICTS_CONSTRAINED_MAX_N; beyond, a RangeError naming n and the range", async () => {
    const n = MIN_CONFLICTS_CONSTRAINED_MAX_N + 1;
    await expect(solve(n, { method: "min-conflicts", blocked: [[0, 0]] })).rejects.toThrow(RangeError);
    await expect(solve(n, { method: "min-conflicts", blocked: [[0, 0]] })).rejects.toThrow(`got ${n}`);
    await expect(solve(n, { method: "min-conflicts", blocked: [[0, 0]] })).rejects.toThrow(`1 to ${MIN_CONFLICTS_CONSTRAINED_MAX_N} with given queens or blocked squares (for solve's method "min-conflicts")`);
  });

  it("constrained min-conflicts at n = 10^5 (a sparse blocked list, given queens from a solution): checked, engines agree", async () => {
    const n = 100_000;
    const plain = await solve(n, { method: "min-conflicts", seed: 3 });
    const draw = generator(7);
    const fixed: Square[] = [];
    for (let i = 0; i < 50; i++) {
      const r = draw(n);
      fixed.push([r, plain.columns![r]]);
    }
    const blocked: Square[] = [];
    while (blocked.length < 2000) {
      const r = draw(n), c = draw(n);
      if (plain.columns![r] !== c) blocked.push([r, c]);
    }
    const [w, t] = await Promise.all((["wasm", "ts"] as const).map((engine) => solve(n, { method: "min-conflicts", engine, seed: 9, fixed, blocked })));
    expect(w.found).toBe(true);
    expect(isCompletion(n, w.columns!, { fixed, blocked })).toBe(true);
    // The boards compared row by row in a plain loop (toEqual's generic walk over 10^5 entries
    // took longer than the searches), the rest of the answers with toEqual.
    expect({ ...w, ms: 0, engine: "", columns: null }).toEqual({ ...t, ms: 0, engine: "", columns: null });
    expect(w.columns!.length).toBe(t.columns!.length);
    expect(w.columns!.findIndex((c, r) => c !== t.columns![r])).toBe(-1);
  }, 60_000);
});

describe("trace (the demo's step-through) on constrained boards", () => {
  const methods = ["backtrack", "las-vegas", "hybrid", "hill-climb"] as const;

  it("every board keeps the given queens and no blocked square; the end is solve's answer (ts engine)", async () => {
    const draw = generator(77);
    let solutions = 0, ended = 0;
    for (let trial = 0; trial < 40; trial++) {
      const n = 4 + (trial % 5);
      const input = randomBoard(n, draw);
      const constraints = checkConstraints(n, input, "test");
      const exists = completions(n, input) > 0;
      for (const method of methods) {
        const seed = trial + 1;
        // The longest trace here that ends in a solution has about 1,100 events; a board with no
        // completion has its randomized searches fail and restart until the cap, and 4,000
        // events are hundreds of such tries (20,000 made this test's time five times as long).
        const events = [...trace(n, { method, seed, ...input, maxEvents: 4_000 })];
        const last = events[events.length - 1];
        const where = `${method} n=${n} seed=${seed} ${JSON.stringify(input)}`;
        if (constraints.conflict) {
          expect(last.kind, where).toBe("end");
          expect(last.kind === "end" && last.reason, where).toBe("conflict");
          continue;
        }
        // Las Vegas, hybrid and hill climbing put the given queens on the board first; backtracking places each in its turn.
        const standing = method !== "backtrack";
        // Every event checked by plain comparisons, the failures gathered and asserted once: an
        // expect() per square of up to 20,000 events made this test a minute long on a busy machine.
        const wrong: string[] = [];
        const ok = (holds: boolean, what: string, i: number): void => {
          if (!holds && wrong.length < 5) wrong.push(`event ${i}: ${what}`);
        };
        events.forEach((e, i) => {
          if (e.kind === "start" && method !== "hill-climb") {
            // The start board: the given queens only (none for backtracking).
            for (let r = 0; r < n; r++) ok(e.columns[r] === (standing ? constraints.fixedColumn[r] : -1), `start row ${r} holds ${e.columns[r]}`, i);
          }
          for (let r = 0; r < n; r++) {
            const given = constraints.fixedColumn[r];
            if (given >= 0) ok(e.columns[r] === given || (!standing && e.columns[r] === -1), `given row ${r} holds ${e.columns[r]}, not ${given}`, i);
            if (e.columns[r] >= 0 && e.kind !== "evaluate") ok(isCompletionSquare(input, r, e.columns[r]), `row ${r}: a queen on blocked ${e.columns[r]}`, i);
          }
          if (e.kind === "place") {
            ok(e.safe.includes(e.column), `placed ${e.column} not among safe ${JSON.stringify(e.safe)}`, i);
            for (const c of e.safe) ok(isCompletionSquare(input, e.row, c), `safe column ${c} of row ${e.row} is blocked`, i);
          }
          if (e.kind === "evaluate" && e.taken) ok(e.delta < 0, `a swap taken with delta ${e.delta}`, i);
          if (e.kind === "evaluate" && !e.taken && !e.blocked) ok(e.delta >= 0, `a swap refused with delta ${e.delta}`, i);
        });
        expect(wrong, where).toEqual([]);
        if (last.kind === "solution") {
          solutions++;
          expect(isCompletion(n, last.columns, input), where).toBe(true);
          const s = await solve(n, { method, engine: "ts", ...(method === "backtrack" ? {} : { seed }), ...input });
          expect({ columns: Array.from(s.columns!), nodes: s.nodes, tries: s.tries, steps: s.steps }, where).toEqual({
            columns: Array.from(last.columns), nodes: last.nodes, tries: last.tries, steps: last.steps,
          });
        } else {
          ended++;
          expect(last.kind, where).toBe("end");
          if (last.kind === "end" && last.reason === "no-solution") expect(exists, where).toBe(false);
        }
      }
    }
    expect(solutions).toBeGreaterThan(30);
    expect(ended).toBeGreaterThan(5);
  }, 60_000);
});

/** A square not blocked (the trace's `safe` lists never offer one). */
function isCompletionSquare(input: BoardConstraints, r: number, c: number): boolean {
  return !(input.blocked ?? []).some(([br, bc]) => br === r && bc === c);
}

describe("constrained search: pooled Wasm instances", () => {
  it("a plain job after a constrained one on the same (pooled) instance is the plain search", () => {
    const n = 12;
    const plain = runSearch(wasmEngine, "hybrid", n, undefined, 4, 6);
    const constraints = checkConstraints(n, { fixed: [[0, 5]], blocked: [[1, 1], [2, 2]] }, "test");
    for (let i = 0; i < 6; i++) {
      const c = runSearch(wasmEngine, "hybrid", n, constraints, 4, 6);
      expect(c.columns[0]).toBe(5);
      // every other kind of job on the pool, then the plain search again
      wasmEngine.randomSequence(1, 10, 10);
      const p = wasmEngine.openProbes(n, 1);
      p.run(10);
      p.close();
      const trials = wasmEngine.openLasVegasTrials(n, 4, 6, 3);
      trials.run(Infinity);
      trials.close();
      expect(runSearch(wasmEngine, "hybrid", n, undefined, 4, 6)).toEqual(plain);
    }
  });
});
