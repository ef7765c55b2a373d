// The start-constellation counter: its constellations, their solutions and symmetry classes
// against a plain enumeration written here, the split's presets, both engines, the prefix
// counter it replaced, and the published counts.
import { describe, expect, it } from "vitest";
import { constellationIndex, constellations, splitConstellations } from "../src/count/tasks.js";
import { splitTasks } from "../src/engine/prefix-split.js";
import type { ConstellationTask, Engine } from "../src/engine/contract.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { count } from "../src/index.js";
import { A000170, A002562 } from "./fixtures/oeis.js";
import { isSolution } from "./helpers.js";

const ENGINES = [["wasm", wasmEngine], ["ts", tsEngine]] as const;

/** Every solution of n, by plain backtracking with a pairwise check. */
function allSolutions(n: number): number[][] {
  const out: number[][] = [];
  const cols: number[] = [];
  const place = (row: number): void => {
    if (row === n) { out.push(cols.slice()); return; }
    for (let c = 0; c < n; c++) {
      if (cols.some((d, r) => d === c || Math.abs(d - c) === row - r)) continue;
      cols.push(c);
      place(row + 1);
      cols.pop();
    }
  };
  place(0);
  return out;
}

/** The 8 images of a solution (as row -> column lists), by moving every square. */
function solutionImages(s: number[]): number[][] {
  const n = s.length;
  const squares = s.map((c, r) => [r, c]);
  const moves: ((r: number, c: number) => [number, number])[] = [];
  for (const mirror of [false, true]) {
    for (let t = 0; t < 4; t++) {
      moves.push((r, c) => {
        if (mirror) c = n - 1 - c;
        for (let u = 0; u < t; u++) [r, c] = [c, n - 1 - r];
        return [r, c];
      });
    }
  }
  return moves.map((move) => {
    const image = new Array<number>(n);
    for (const [r, c] of squares) { const [r2, c2] = move(r, c); image[r2] = c2; }
    return image;
  });
}

/** A solution's border queens: row 0's column, row n-1's column, column 0's row, column n-1's row. */
function border(s: number[]): string {
  const n = s.length;
  return [s[0], s[n - 1], s.indexOf(0), s.indexOf(n - 1)].join(",");
}

function sum(engine: Engine, n: number, tasks: readonly ConstellationTask[]) {
  const counter = engine.openConstellationCounter(n);
  let c8 = 0n, c4 = 0n, c2 = 0n, nodes = 0n;
  for (const task of tasks) {
    const r = counter.countTask(task);
    c8 += r.count8; c4 += r.count4; c2 += r.count2; nodes += r.nodes;
  }
  counter.close();
  return { c8, c4, c2, nodes };
}

describe("constellations", () => {
  it("are one per class of border placements that solutions have, and each counts exactly the solutions with its border queens (n = 4..10)", () => {
    for (let n = 4; n <= 10; n++) {
      const solutions = allSolutions(n);
      expect(BigInt(solutions.length)).toBe(A000170[n]);
      const byBorder = new Map<string, number>();
      for (const s of solutions) byBorder.set(border(s), (byBorder.get(border(s)) ?? 0) + 1);
      // the class of a border placement: the border placements of a solution's images
      const classOf = new Map<string, string>();
      for (const s of solutions) {
        const all = solutionImages(s).map(border).sort();
        for (const b of all) classOf.set(b, all[0]);
      }
      const seen = new Set<string>();
      const counter = wasmEngine.openConstellationCounter(n);
      for (const c of constellations(n)) {
        const key = [c.i, c.j, c.k, c.l].join(",");
        const r = counter.countTask({ i: c.i, j: c.j, k: c.k, l: c.l, rows: [] });
        const own = byBorder.get(key) ?? 0;
        if (own === 0) { expect(r.count8 + r.count4 + r.count2).toBe(0n); continue; }
        const cls = classOf.get(key)!;
        expect(seen.has(cls), `two constellations of one class at n = ${n}`).toBe(false);
        seen.add(cls);
      }
      counter.close();
      // every class of the solutions' border placements has its constellation
      expect(seen.size).toBe(new Set(classOf.values()).size);
    }
  });

  it("are the valid border placements least among their 8 images, one each, in increasing order of that image (n = 4..18)", () => {
    // Independent of the walk's pruning: every (i, j, k, l) tried, its queens moved square by
    // square to each image, and the placement kept when no image is a smaller number.
    for (let n = 4; n <= 18; n++) {
      const m = n - 1;
      const code = (q: number[]) => ((q[0] * n + q[1]) * n + q[2]) * n + q[3];
      // The border queens' squares, each once (a corner square holds two of them).
      const distinct = (squares: [number, number][]): [number, number][] =>
        squares.filter(([r, c], a) => !squares.some(([r2, c2], b) => b < a && r2 === r && c2 === c));
      // The queens' placement (top row's column, bottom row's, left column's row, right column's), when each side holds exactly one.
      const placementOf = (squares: [number, number][]): number[] | undefined => {
        const placement = [0, 0, 0, 0], queens = [0, 0, 0, 0];
        for (const [r, c] of squares) {
          if (r === 0) { queens[0]++; placement[0] = c; }
          if (r === m) { queens[1]++; placement[1] = c; }
          if (c === 0) { queens[2]++; placement[2] = r; }
          if (c === m) { queens[3]++; placement[3] = r; }
        }
        return queens.every((q) => q === 1) ? placement : undefined;
      };
      const imagesOf = (q: number[]): number[][] => {
        const squares = distinct([[0, q[0]], [m, q[1]], [q[2], 0], [q[3], m]]);
        const out: number[][] = [];
        for (const mirror of [false, true]) for (let t = 0; t < 4; t++) {
          const moved = squares.map(([r, c]): [number, number] => {
            if (mirror) c = m - c;
            for (let u = 0; u < t; u++) [r, c] = [c, m - r];
            return [r, c];
          });
          out.push(placementOf(moved)!);
        }
        return out;
      };
      const want: number[] = [];
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) for (let l = 0; l < n; l++) {
        const queens = distinct([[0, i], [m, j], [k, 0], [l, m]]);
        const placed = placementOf(queens);
        if (placed === undefined || placed[0] !== i || placed[1] !== j || placed[2] !== k || placed[3] !== l) continue; // a corner square must be two of the border queens
        if (queens.some(([r1, c1], a) => queens.some(([r2, c2], b) => b > a && (r1 === r2 || c1 === c2 || Math.abs(r1 - r2) === Math.abs(c1 - c2))))) continue;
        const own = code([i, j, k, l]);
        if (imagesOf([i, j, k, l]).every((image) => code(image) >= own)) want.push(own);
      }
      const got = constellations(n).map((c) => Math.min(...imagesOf([c.i, c.j, c.k, c.l]).map(code)));
      expect(got, `n = ${n}`).toEqual(want);
    }
  });

  it.each(ENGINES)("give each symmetry class of solutions once: count8, count4 and count2 as a plain enumeration tells them (n = 4..10, engine %s)", (_name, engine) => {
    for (let n = 4; n <= 10; n++) {
      const classes = new Map<string, number>();
      for (const s of allSolutions(n)) {
        const images = new Set(solutionImages(s).map((x) => x.join(",")));
        classes.set([...images].sort()[0], images.size);
      }
      const want = { c8: 0n, c4: 0n, c2: 0n };
      for (const size of classes.values()) want[size === 8 ? "c8" : size === 4 ? "c4" : "c2"]++;
      const got = sum(engine, n, splitConstellations(n).tasks);
      expect({ n, c8: got.c8, c4: got.c4, c2: got.c2 }).toEqual({ n, ...want });
    }
  });

  it("each task's solutions, counted one by one by a plain search from its queens, are what the kernel finds (n = 9, 10)", () => {
    for (const n of [9, 10]) {
      const counter = tsEngine.openConstellationCounter(n);
      for (const c of constellations(n)) {
        const fixed = new Map<number, number>([[0, c.i], [n - 1, c.j], [c.k, 0], [c.l, n - 1]]);
        let plain = 0;
        const cols: number[] = [];
        const place = (row: number): void => {
          if (row === n) { if (isSolution(cols)) plain++; return; }
          for (let col = 0; col < n; col++) {
            if (fixed.has(row) ? fixed.get(row) !== col : col === 0 || col === n - 1) continue;
            if (cols.some((d, r) => d === col || Math.abs(d - col) === row - r)) continue;
            cols.push(col);
            place(row + 1);
            cols.pop();
          }
        };
        place(0);
        const r = counter.countTask({ i: c.i, j: c.j, k: c.k, l: c.l, rows: [] });
        const size = c.symmetry === 2 ? 2n : c.symmetry === 1 ? 4n : 8n; // the constellation's images
        expect((8n * r.count8 + 4n * r.count4 + 2n * r.count2) / size).toBe(BigInt(plain));
      }
      counter.close();
    }
  });
});

describe("the constellation counter", () => {
  it.each(ENGINES)("matches the OEIS and the prefix counter it replaced, total and unique (n = 4..13, engine %s)", (_name, engine) => {
    for (let n = 4; n <= 13; n++) {
      const got = sum(engine, n, splitConstellations(n).tasks);
      expect({ n, total: 8n * got.c8 + 4n * got.c4 + 2n * got.c2, unique: got.c8 + got.c4 + got.c2 }).toEqual({ n, total: A000170[n], unique: A002562[n] });
      if (n < 5) continue;
      const old = engine.openCounter(n);
      let total = 0n, unique = 0n;
      for (const task of splitTasks(n).tasks) {
        const r = old.countTask(task);
        total += 8n * r.count8 + 4n * r.count4 + 2n * r.count2; unique += r.count8 + r.count4 + r.count2;
      }
      old.close();
      expect({ total, unique }).toEqual({ total: 8n * got.c8 + 4n * got.c4 + 2n * got.c2, unique: got.c8 + got.c4 + got.c2 });
    }
  });

  it("count(n) gives the OEIS totals and the same nodes on both engines (n = 1..15)", async () => {
    for (let n = 1; n <= 15; n++) {
      const [w, t] = await Promise.all([count(n, { engine: "wasm" }), count(n, { engine: "ts" })]);
      expect({ n, total: w.total, unique: w.unique }).toEqual({ n, total: A000170[n], unique: A002562[n] });
      expect(t).toMatchObject({ total: w.total, unique: w.unique, nodes: w.nodes });
    }
  });

  it.each(ENGINES)("gives the same counts and nodes whatever the preset rows (n = 6..12, engine %s)", (_name, engine) => {
    for (let n = 6; n <= 12; n++) {
      const results = [];
      for (let presets = 0; presets <= 3; presets++) {
        const split = splitConstellations(n, presets);
        expect(split.tasks.length).toBe(constellationIndex(n, presets)!.tasks);
        const got = sum(engine, n, split.tasks);
        results.push({ ...got, nodes: got.nodes + split.prefixNodes });
      }
      for (const r of results) expect(r).toEqual(results[0]);
    }
  });

  it("gives the same counts task by task on both engines, presets included (n = 11, 12)", () => {
    for (const n of [11, 12]) {
      const w = wasmEngine.openConstellationCounter(n), t = tsEngine.openConstellationCounter(n);
      for (const presets of [0, 2]) for (const task of splitConstellations(n, presets).tasks) expect(w.countTask(task)).toEqual(t.countTask(task));
      w.close(); t.close();
    }
  });

  it.each(ENGINES)("counts each task's solutions and nodes as a plain search written here does, every task of n = 5..10 with 0 to 3 preset rows (engine %s)", (_name, engine) => {
    // The plain search places queens on the task's free rows top down, checking every pair;
    // nodes are the consistent placements of the free rows below the presets, one per queen
    // placed (the kernel's lookahead and its closed form for the last two rows must not change
    // them). Also tallies the cases of that closed form, so that each is seen to be exercised.
    const seen = { diagonalPair: 0, shiftTwoOrMore: 0, bothCandidates: 0, oneCandidate: 0 };
    for (let n = 5; n <= 10; n++) {
      const counter = engine.openConstellationCounter(n);
      for (let presets = 0; presets <= 3; presets++) {
        for (const task of splitConstellations(n, presets).tasks) {
          const free: number[] = [];
          for (let r = 1; r < n - 1; r++) if (r !== task.k && r !== task.l) free.push(r);
          const queens: [number, number][] = [[0, task.i], [n - 1, task.j], [task.k, 0], [task.l, n - 1]];
          task.rows.forEach((c, d) => queens.push([free[d], c]));
          const fits = (r: number, c: number) => queens.every(([qr, qc]) => (qr === r && qc === c) || (qr !== r && qc !== c && Math.abs(qr - r) !== Math.abs(qc - c)));
          let nodes = 0n, solutions = 0n;
          const place = (d: number): void => {
            if (d === free.length) { solutions++; return; }
            const r = free[d];
            const fitting: number[] = [];
            for (let c = 0; c < n; c++) if (fits(r, c)) fitting.push(c);
            if (d === free.length - 2) { // the closed form's cases, for the tally
              const gap = free[d + 1] - r, left = [];
              for (let c = 0; c < n; c++) if (!queens.some(([, qc]) => qc === c)) left.push(c);
              if (Math.abs(left[0] - left[1]) === gap) seen.diagonalPair++;
              if (gap >= 2) seen.shiftTwoOrMore++;
              if (fitting.length === 2) seen.bothCandidates++; else if (fitting.length === 1) seen.oneCandidate++;
            }
            for (const c of fitting) {
              nodes++;
              queens.push([r, c]);
              place(d + 1);
              queens.pop();
            }
          };
          if (free.length === 0) { nodes = 1n; solutions = 1n; } else place(task.rows.length);
          const r = counter.countTask(task);
          const symmetry = constellations(n).find((c) => c.i === task.i && c.j === task.j && c.k === task.k && c.l === task.l)!.symmetry;
          const size = symmetry === 2 ? 2n : symmetry === 1 ? 4n : 8n; // the constellation's images
          expect({ n, task, solutions: (8n * r.count8 + 4n * r.count4 + 2n * r.count2) / size, nodes: r.nodes }).toEqual({ n, task, solutions, nodes });
        }
      }
      counter.close();
    }
    for (const [name, times] of Object.entries(seen)) expect(times, name).toBeGreaterThan(10);
  });

  it.each(ENGINES)("a task counted in chunks of any budget gives what countTask gives (n = 8..12, engine %s)", (_name, engine) => {
    for (let n = 8; n <= 12; n++) {
      const whole = engine.openConstellationCounter(n), chunked = engine.openConstellationCounter(n);
      for (const [i, task] of splitConstellations(n, 1).tasks.entries()) {
        const budget = [1, 2, 7, 100, 5000][i % 5];
        chunked.start(task);
        while (!chunked.run(budget));
        expect(chunked.result()).toEqual(whole.countTask(task));
      }
      whole.close(); chunked.close();
    }
  });

  it("agrees on both engines at the board's edge (n = 32 masks), on tasks cut from a real solution", () => {
    const n = 32;
    // the explicit construction for n mod 6 = 2: 2, 4, ..., 32, then 3, 1, 7, 9, ..., 31, 5 (1-based)
    const oneBased = [...Array.from({ length: 16 }, (_, i) => 2 * i + 2), 3, 1, ...Array.from({ length: 13 }, (_, i) => 2 * i + 7), 5];
    const columns = oneBased.map((c) => c - 1);
    expect(isSolution(columns)).toBe(true);
    const w = wasmEngine.openConstellationCounter(n), t = tsEngine.openConstellationCounter(n);
    let found = 0n;
    for (const s of [columns, columns.slice().reverse(), columns.map((c) => n - 1 - c)]) {
      const k = s.indexOf(0), l = s.indexOf(n - 1);
      const free = s.filter((_, r) => r > 0 && r < n - 1 && r !== k && r !== l);
      for (const left of [1, 2, 4, 7]) {
        const task = { i: s[0], j: s[n - 1], k, l, rows: free.slice(0, free.length - left) };
        expect(task.i === n - 1 - task.j && task.k === n - 1 - task.l).toBe(false); // (presets are for constellations no turn maps to themselves)
        const r = w.countTask(task);
        expect(r).toEqual(t.countTask(task));
        found += r.count8;
      }
    }
    expect(found).toBeGreaterThanOrEqual(12n);
    w.close(); t.close();
  });
});
