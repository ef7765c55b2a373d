// Splits a count into tasks: the start constellations, the tasks of count(), splitCount's
// parts, checkpoints, the queue and the threads. (The other split, the prefix split of the
// full-symmetry prefix counter, the tests' reference and the GPU engine's tasks, is
// src/engine/prefix-split.ts.) The queens placed inside the tasks' presets are counted here
// (`prefixNodes`), so nodes = prefixNodes + the nodes of every task.
import type { ConstellationTask } from "../engine/contract.js";
import { rangeError } from "../core/errors.js";
import { runSteps, type Steps } from "../core/pacer.js";
import { constellationSymmetry } from "../engine/ts/constellations.js";
import { BregmanBound, roundUpBound } from "./bounds.js";

// Start constellations (after Preußer and Engelhardt's Q27 project, as NQueensFAF uses
// them): the queens of the border rows and columns come first. Every solution has one
// queen in row 0 (column i), row n-1 (column j), column 0 (row k) and column n-1 (row l), a
// corner queen being two of them; those four squares are its constellation. The 8
// symmetries of the board map constellations to constellations and a solution's images to
// its constellation's images, so the count needs one constellation per class (the least of
// its images as a number), its solutions times the class's size (8, or 4 or 2 for one that a
// half or quarter turn maps to itself). Each is searched in the image that puts the border
// queen nearest a corner in row n-1, on the right (NQueensFAF's choice), the most constrained
// such at the top (docs/counting.md: fewer nodes than the other rules we tried). The constellations are also the tasks of a split: those
// of no symmetry are cut further by presetting the queens of their first free rows.

/** A constellation as searched: (i, j, k, l) as in ConstellationTask, and its symmetry (constellationSymmetry). */
export type Constellation = { i: number; j: number; k: number; l: number; symmetry: 0 | 1 | 2 };

const constellationCache = new Map<number, Constellation[]>();

/** Whether two queens attack each other (the same square is one queen: no attack). */
function attack(r1: number, c1: number, r2: number, c2: number): boolean {
  if (r1 === r2 && c1 === c2) return false;
  return r1 === r2 || c1 === c2 || Math.abs(r1 - r2) === Math.abs(c1 - c2);
}

/** Whether (i, j, k, l) places its border queens consistently (a corner queen is two of them) with no two attacking. */
function validConstellation(n: number, i: number, j: number, k: number, l: number): boolean {
  const m = n - 1;
  if ((i === 0) !== (k === 0) || (i === m) !== (l === 0) || (j === 0) !== (k === m) || (j === m) !== (l === m)) return false;
  return !attack(0, i, m, j) && !attack(0, i, k, 0) && !attack(0, i, l, m) && !attack(m, j, k, 0) && !attack(m, j, l, m) && !attack(k, 0, l, m);
}

/** Whether (i, j, k, l) is the least of its images, as the number ((i n + j) n + k) n + l. */
function leastImage(n: number, i: number, j: number, k: number, l: number): boolean {
  const m = n - 1;
  const own = ((i * n + j) * n + k) * n + l;
  for (let t = 0; t < 4; t++) {
    if (((i * n + j) * n + k) * n + l < own || (((m - i) * n + (m - j)) * n + l) * n + k < own) return false;
    const i2 = m - k, j2 = m - l;
    k = j; l = i; i = i2; j = j2;
  }
  return true;
}

/** The product of the free squares of a constellation's first three free rows (fewer: a smaller search, as a rule). */
function topFreeSquares(n: number, i: number, j: number, k: number, l: number): number {
  const m = n - 1;
  let product = 1;
  for (let r = 1, rows = 0; r < m && rows < 3; r++) {
    if (r === k || r === l) continue;
    rows++;
    // free columns 1..n-2 not on a column or diagonal of a border queen
    let count = 0;
    for (let c = 1; c < m; c++) {
      if (c === i || c === j || Math.abs(c - i) === r || Math.abs(c - j) === m - r || c === Math.abs(r - k) || m - c === Math.abs(r - l)) continue;
      count++;
    }
    product *= count;
  }
  return product;
}

/**
 * One constellation per class under the board's symmetries, in the order of their least images, each in its searched image.
 *
 * The walk visits (i, j, k, l) in increasing order of the number ((i n + j) n + k) n + l and
 * keeps those that are valid and least among their images. The images' first coordinates
 * are i, j, k and l and their mirrors (m - x), so a least one has i <= min(x, m - x) for each
 * of them: i <= m / 2, and j, k and l within [i, m - i]. The loops run only there (a fifth of
 * the walk at n = 10, a seventh at 32), and the checks that do not need l are made before its
 * loop: a first count in a fresh process runs this cold (interpreted), about 9 ms of CPU at
 * n = 10 before, 6 after.
 */
export function constellations(n: number): readonly Constellation[] {
  return runSteps(constellationSteps(n));
}

/** constellations(n) in steps: one (i, j) of the walk a step (about 1.5 ms at n = 32, whose whole walk takes about 450 ms). */
export function* constellationSteps(n: number): Steps<readonly Constellation[]> {
  const known = constellationCache.get(n);
  if (known) return known;
  const m = n - 1;
  const dist = (x: number) => (x < m - x ? x : m - x);
  const list: Constellation[] = [];
  for (let i = 0; 2 * i <= m; i++) for (let j = i; j <= m - i; j++) {
    yield 0;
    if (attack(0, i, m, j)) continue;
    for (let k = i; k <= m - i; k++) {
      // A corner queen is two border queens: row 0's and column 0's (i = 0 with k = 0), row n-1's and column 0's (j = 0 with k = m).
      if ((i === 0) !== (k === 0) || (j === 0) !== (k === m) || attack(0, i, k, 0) || attack(m, j, k, 0)) continue;
      for (let l = i; l <= m - i; l++) {
        if ((i === m) !== (l === 0) || (j === m) !== (l === m) || attack(0, i, l, m) || attack(m, j, l, m) || attack(k, 0, l, m) || !leastImage(n, i, j, k, l)) continue;
        // The searched image: the border queen nearest a corner in row n-1, on the right; of
        // several such, the one with the fewest free squares on its first three free rows
        // (their product), then the least.
        const nearest = Math.min(dist(i), dist(j), dist(k), dist(l));
        let best = Infinity, bestFree = Infinity, bi = 0, bj = 0, bk = 0, bl = 0, ties = 0;
        let a = i, b = j, c = k, d = l;
        for (let t = 0; t < 8; t++) {
          const mirrored = (t & 1) === 1;
          const x = mirrored ? m - a : a, y = mirrored ? m - b : b, z = mirrored ? d : c, w = mirrored ? c : d;
          if (dist(y) === nearest && y >= m - y) {
            const code = ((x * n + y) * n + z) * n + w;
            const free = ties++ === 0 ? Infinity : topFreeSquares(n, x, y, z, w);
            if (ties === 2) bestFree = topFreeSquares(n, bi, bj, bk, bl);
            if (free < bestFree || (free === bestFree && code < best)) { best = code; bestFree = free; bi = x; bj = y; bk = z; bl = w; }
          }
          if (t & 1) { const a2 = m - c, b2 = m - d; c = b; d = a; a = a2; b = b2; }
        }
        list.push({ i: bi, j: bj, k: bk, l: bl, symmetry: constellationSymmetry(n, bi, bj, bk, bl) });
      }
    }
  }
  constellationCache.set(n, list);
  return list;
}

/** A constellation's free rows (1..n-2 but k and l) and, per free row, the columns its border queens hold or attack there (unsigned). */
export function constellationRows(n: number, c: { i: number; j: number; k: number; l: number }): { rows: number[]; attacked: number[] } {
  const rows: number[] = [], attacked: number[] = [];
  const columns = 2 ** c.i | 2 ** c.j | 1 | 2 ** (n - 1);
  for (let r = 1; r < n - 1; r++) {
    if (r === c.k || r === c.l) continue;
    let mask = columns;
    for (const [qr, qc] of [[0, c.i], [n - 1, c.j], [c.k, 0], [c.l, n - 1]]) {
      const d = Math.abs(r - qr);
      if (qc + d < n) mask |= 2 ** (qc + d);
      if (qc - d >= 0) mask |= 2 ** (qc - d);
    }
    rows.push(r);
    attacked.push(mask >>> 0);
  }
  return { rows, attacked };
}

/** The most tasks one constellation split may hold (a split of a million parts needs about as many). */
export const MAX_CONSTELLATION_TASKS = 1 << 24;

/**
 * The tasks of one constellation with `presets` preset rows, in order: one of no symmetry is
 * cut into the placements of queens on its first `presets` free rows (fewer where it has
 * fewer, the last free row always left to the search), a placement whose next free row is
 * full being no task; a symmetric one is one task (its solutions' classes are told over the
 * whole constellation). Returns the tasks made and the queens preset (prefix nodes).
 */
function walkConstellation(n: number, c: Constellation, presets: number, visit?: (task: ConstellationTask) => void): { tasks: number; prefixNodes: number } {
  const { i, j, k, l } = c;
  if (c.symmetry || presets === 0 || n < 6) {
    visit?.({ i, j, k, l, rows: [] });
    return { tasks: 1, prefixNodes: 0 };
  }
  const mask = n === 32 ? 0xffffffff : 2 ** n - 1;
  const { rows, attacked } = constellationRows(n, c);
  const depth = Math.min(presets, rows.length - 1);
  const columns: number[] = [];
  let tasks = 0, prefixNodes = 0;
  const place = (d: number, left: number, down: number, right: number): void => {
    let free = (mask & ~(left | down | right | attacked[d])) >>> 0;
    if (d === depth) {
      if (free !== 0) {
        visit?.({ i, j, k, l, rows: columns.slice() });
        tasks++;
      }
      return;
    }
    const s = rows[d + 1] - rows[d];
    while (free !== 0) {
      const bit = (free & -free) >>> 0;
      free = (free ^ bit) >>> 0;
      prefixNodes++;
      columns.push(31 - Math.clz32(bit));
      place(d + 1, ((left | bit) << s) >>> 0, (down | bit) >>> 0, (right | bit) >>> s);
      columns.pop();
    }
  };
  place(0, 0, (2 ** i | 2 ** j | 1 | 2 ** (n - 1)) >>> 0, 0);
  return { tasks, prefixNodes };
}

/** Where each constellation's tasks start in a split's order (starts[c] .. starts[c + 1]), their number and the queens preset. */
export type ConstellationIndex = { n: number; presets: number; starts: Float64Array; tasks: number; prefixNodes: number };
const indexCache = new Map<string, ConstellationIndex | null>();

/**
 * The index of the split of n with `presets` preset rows (one walk, kept), or undefined when
 * it would hold more than MAX_CONSTELLATION_TASKS tasks.
 */
export function constellationIndex(n: number, presets: number): ConstellationIndex | undefined {
  return runSteps(constellationIndexSteps(n, presets));
}

/** constellationIndex in steps: the constellations made, then one walked a step. */
export function* constellationIndexSteps(n: number, presets: number): Steps<ConstellationIndex | undefined> {
  const key = `${n}/${presets}`;
  const known = indexCache.get(key);
  if (known !== undefined) return known ?? undefined;
  const list = yield* constellationSteps(n);
  const starts = new Float64Array(list.length + 1);
  let tasks = 0, prefixNodes = 0, over = false;
  for (let c = 0; c < list.length && !over; c++) {
    if (presets > 0) yield 0; // (with none, a walk is one task: no step)
    starts[c] = tasks;
    const r = walkConstellation(n, list[c], presets);
    tasks += r.tasks;
    prefixNodes += r.prefixNodes;
    over = tasks > MAX_CONSTELLATION_TASKS;
  }
  starts[list.length] = tasks;
  const index = over ? null : { n, presets, starts, tasks, prefixNodes };
  if (indexCache.size > 16) indexCache.delete(indexCache.keys().next().value!);
  indexCache.set(key, index);
  return index ?? undefined;
}

/** Visits every task of the split of n with `presets` preset rows in order (4 <= n <= 32), in steps: one constellation walked a step. */
export function* walkConstellationSteps(n: number, presets: number, visit: (task: ConstellationTask, index: number) => void): Steps<void> {
  let index = 0;
  for (const c of yield* constellationSteps(n)) {
    walkConstellation(n, c, presets, (task) => visit(task, index++));
    yield 0;
  }
}

/**
 * The tasks of the split of n with `presets` preset rows whose index is `part` modulo `parts`
 * (a part dealt round-robin), walking only the constellations that hold one.
 */
export function constellationTasksOf(index: ConstellationIndex, parts: number, part: number): ConstellationTask[] {
  return constellationTasksOfRange(index, parts, part, 1)[0];
}

/**
 * The tasks of parts `first` .. `first + count - 1` of the split (dealt round-robin), one list a
 * part, walking each constellation that holds one of their tasks once: the parts of a run of
 * consecutive indices share their constellations, so a queue job of many parts costs about
 * one part's walk.
 */
export function constellationTasksOfRange(index: ConstellationIndex, parts: number, first: number, count: number): ConstellationTask[][] {
  const list = constellations(index.n);
  const out: ConstellationTask[][] = Array.from({ length: count }, () => []);
  // The parts' task indices are those i with i mod parts in [first, first + count): the first
  // of them at or past i.
  const nextFrom = (i: number): number => {
    const r = i % parts;
    return r < first ? i - r + first : r < first + count ? i : i - r + parts + first;
  };
  // Each one's constellation found by a binary search of `starts`, so a part of a split of many
  // parts walks only its own few constellations, not a scan of all of them (the coordinator
  // derives a job's parts per job and per result: at 10^5 parts of n = 16 the scan was a third
  // of its time).
  for (let i = nextFrom(0); i < index.tasks;) {
    let c = 0, top = list.length - 1; // the last c with starts[c] <= i
    while (c < top) {
      const mid = (c + top + 1) >> 1;
      if (index.starts[mid] <= i) c = mid; else top = mid - 1;
    }
    let at = index.starts[c];
    walkConstellation(index.n, list[c], index.presets, (task) => {
      const k = (at % parts) - first;
      if (k >= 0 && k < count) out[k].push(task);
      at++;
    });
    i = nextFrom(index.starts[c + 1]);
  }
  return out;
}

export type ConstellationSplit = { n: number; presets: number; tasks: ConstellationTask[]; prefixNodes: bigint };

/** The constellation tasks of an n x n board (4 <= n <= 32) with `presets` preset rows (0: one task per constellation). */
export function splitConstellations(n: number, presets = 0): ConstellationSplit {
  return runSteps(splitConstellationSteps(n, presets));
}

/** splitConstellations in steps (count's split, paced: about 450 ms at n = 32). */
export function* splitConstellationSteps(n: number, presets = 0): Steps<ConstellationSplit> {
  const index = yield* constellationIndexSteps(n, presets);
  if (!index) throw rangeError(`a split of n = ${n} with ${presets} preset rows would hold more than ${MAX_CONSTELLATION_TASKS} tasks; preset fewer rows`);
  const tasks: ConstellationTask[] = [];
  yield* walkConstellationSteps(n, presets, (task) => tasks.push(task));
  return { n, presets, tasks, prefixNodes: BigInt(index.prefixNodes) };
}

/** A task's line in a part's digest text. */
export function taskLine(t: ConstellationTask): string {
  return `${t.i} ${t.j} ${t.k} ${t.l} ${t.rows.join(",")}`;
}

/** Why `task` cannot be a constellation task of an n x n board: malformed, a constellation that is not one, or queens that attack each other. */
export function constellationTaskProblem(task: unknown, n: number): string | undefined {
  const t = task as ConstellationTask;
  const index = (x: unknown) => Number.isInteger(x) && (x as number) >= 0 && (x as number) < n;
  if (typeof t !== "object" || t === null || !index(t.i) || !index(t.j) || !index(t.k) || !index(t.l) || !Array.isArray(t.rows) || !t.rows.every(index)) {
    return "malformed";
  }
  if (!validConstellation(n, t.i, t.j, t.k, t.l)) return "its border queens are not a constellation (a queen on each border line, none attacking another)";
  const { rows } = constellationRows(n, t);
  if (t.rows.length > Math.max(0, rows.length - 1)) return `it presets ${t.rows.length} rows of ${rows.length} free ones`;
  if (t.rows.length > 0 && constellationSymmetry(n, t.i, t.j, t.k, t.l) !== 0) return "it presets rows of a constellation that a turn maps to itself (those are counted whole)";
  const queens: [number, number][] = [[0, t.i], [n - 1, t.j], [t.k, 0], [t.l, n - 1]];
  for (const [d, c] of t.rows.entries()) queens.push([rows[d], c]);
  for (let a = 4; a < queens.length; a++) {
    for (let b = 0; b < a; b++) {
      const [ra, ca] = queens[a], [rb, cb] = queens[b];
      if (ca === cb || Math.abs(ra - rb) === Math.abs(ca - cb)) return `its queens attack each other (rows ${rb} and ${ra})`;
    }
  }
  return undefined;
}

/**
 * Upper bounds of what a task can yield: solutions (the product of its free rows' free
 * squares) and nodes (the sum of the partial products), and whether its constellation is
 * symmetric (only then can it yield count4 or count2). Numbers below 2^53, BigInts beyond.
 */
export function constellationTaskBounds(task: ConstellationTask, n: number): { solutions: bigint; nodes: bigint; symmetric: boolean } {
  const mask = n === 32 ? 0xffffffff : 2 ** n - 1;
  const { rows, attacked } = constellationRows(n, task);
  let down = 0;
  for (const c of [task.i, task.j, 0, n - 1, ...task.rows]) down |= 2 ** c;
  const preset: [number, number][] = task.rows.map((c, d) => [rows[d], c]);
  // Solutions: at most the product of each free row's free squares, and at most Bregman's bound
  // on the perfect matchings of those squares (free rows and free columns are as many: every
  // queen placed takes one of each).
  let product = 1n, nodes = 0n;
  const matchings = new BregmanBound();
  for (let d = task.rows.length; d < rows.length; d++) {
    let line = attacked[d] | down;
    for (const [r, c] of preset) {
      const dist = rows[d] - r;
      if (c + dist < n) line |= 2 ** (c + dist);
      if (c - dist >= 0) line |= 2 ** (c - dist);
    }
    let free = (mask & ~line) >>> 0, k = 0;
    while (free) { free &= free - 1; k++; }
    product *= BigInt(k);
    nodes += product;
    matchings.row(k);
    if (k === 0) break;
  }
  if (rows.length === 0) { product = 1n; nodes = 1n; } // n = 4: the border queens are the whole board (one leaf)
  const bregman = rows.length === 0 ? product : roundUpBound(matchings.value());
  return { solutions: bregman < product ? bregman : product, nodes, symmetric: constellationSymmetry(n, task.i, task.j, task.k, task.l) !== 0 };
}
