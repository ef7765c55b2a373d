// Splits a count into tasks: every placement of rows 0..depth-1 that the
// full-symmetry counter (assembly/count.ts) would reach, with the same pruning
// rules, becomes a task whose rows below `depth` are searched by an engine.
// The queens placed inside the prefixes are counted here (`prefixNodes`), so
// nodes = prefixNodes + the nodes of every task, whatever the depth.
// Splitting is bounded: a split never holds more than MAX_SPLIT_TASKS prefixes (the
// count kernel is resumable, so a task may be long: count() runs it in ~10 ms chunks).
import type { ConstellationTask, CountTask } from "../engine/contract.js";
import { rangeError } from "../core/errors.js";
import { constellationSymmetry } from "../engine/ts/constellations.js";

export type CountSplit = { n: number; depth: number; tasks: CountTask[]; prefixNodes: bigint };

/** The most prefixes one split may hold (about 20 MB of tasks, made in well under 100 ms). */
export const MAX_SPLIT_TASKS = 1 << 17;

/** A shallow depth: a few hundred to ten thousand tasks whatever n (n = 32 at depth 3: 10,748). */
export function defaultSplitDepth(n: number): number {
  const depth = n <= 10 ? 2 : n <= 13 ? 3 : n <= 16 ? 4 : 3;
  return Math.min(depth, n - 1);
}

/**
 * Visits the tasks of an n x n board at `depth` in split order (`rows` is reused: copy it
 * to keep it). Stops early, returning tasks = limit + 1, once more than `limit` are met.
 */
export function walkTasks(
  n: number,
  depth: number,
  visit?: (kind: 1 | 2, bound1: number, rows: readonly number[], index: number) => void,
  limit = Infinity,
): { tasks: number; prefixNodes: number } {
  const lastRow = n - 1;
  const mask = n === 32 ? 0xffffffff : (1 << n) - 1;
  const topBit = 2 ** lastRow;
  const sideMask = (topBit + 1) >>> 0;
  const rows: number[] = [];
  let prefixNodes = 0;
  let tasks = 0;

  // The corner (kind 1) and side (kind 2) searches of assembly/count.ts (takaken's edge pruning), for rows y < depth.
  function extend(kind: 1 | 2, bound1: number, y: number, left: number, down: number, right: number): void {
    if (tasks > limit) return;
    if (y === depth) {
      if (tasks < limit) visit?.(kind, bound1, rows, tasks);
      tasks++;
      return;
    }
    let bitmap = (mask & ~(left | down | right)) >>> 0;
    if (kind === 1) {
      if (y < bound1) bitmap = (bitmap & ~2) >>> 0;
    } else if (y < bound1) {
      bitmap = (bitmap & ~sideMask) >>> 0;
    } else if (y === lastRow - bound1) {
      if (!(down & sideMask)) return;
      if (((down & sideMask) >>> 0) !== sideMask) bitmap = (bitmap & sideMask) >>> 0;
    }
    while (bitmap && tasks <= limit) {
      const bit = (bitmap & -bitmap) >>> 0;
      bitmap = (bitmap ^ bit) >>> 0;
      rows.push(31 - Math.clz32(bit));
      prefixNodes++;
      extend(kind, bound1, y + 1, (left | bit) << 1, down | bit, (right | bit) >>> 1);
      rows.pop();
    }
  }

  // Row-0 queen in the corner (column 0), row-1 queen in column bound1.
  rows.push(0);
  prefixNodes++;
  for (let bound1 = 2; bound1 < lastRow; bound1++) {
    const bit = 2 ** bound1;
    rows.push(bound1);
    prefixNodes++;
    extend(1, bound1, 2, (2 | bit) << 1, 1 | bit, bit >>> 1);
    rows.pop();
  }
  rows.pop();
  // Row-0 queen off the corner, in column bound1 < bound2 = n - 1 - bound1.
  for (let bound1 = 1; bound1 < lastRow - bound1; bound1++) {
    const bit = 2 ** bound1;
    rows.push(bound1);
    prefixNodes++;
    extend(2, bound1, 1, bit << 1, bit, bit >>> 1);
    rows.pop();
  }
  return { tasks: Math.min(tasks, limit + 1), prefixNodes };
}

/** Tasks for an n x n board (5 <= n <= 32), prefixes of `depth` rows (2 <= depth <= n - 1), at most MAX_SPLIT_TASKS. */
export function splitTasks(n: number, depth = defaultSplitDepth(n)): CountSplit {
  if (walkTasks(n, depth, undefined, MAX_SPLIT_TASKS).tasks > MAX_SPLIT_TASKS) {
    throw rangeError(`a split of n = ${n} at depth ${depth} would hold more than ${MAX_SPLIT_TASKS} prefixes; use a smaller depth`);
  }
  const tasks: CountTask[] = [];
  const { prefixNodes } = walkTasks(n, depth, (kind, bound1, rows) => tasks.push({ kind, bound1, rows: rows.slice() }));
  return { n, depth, tasks, prefixNodes: BigInt(prefixNodes) };
}

// ---------------------------------------------------------------------------------------
// Start constellations (after Preußer and Engelhardt's Q27 project, as NQueensFAF uses
// them): the queens of the border rows and columns come first. Every solution has one
// queen in row 0 (column i), row n-1 (column j), column 0 (row k) and column n-1 (row l), a
// corner queen being two of them; those four squares are its constellation. The 8
// symmetries of the board map constellations to constellations and a solution's images to
// its constellation's images, so the count needs one constellation per class (the least of
// its images as a number), its solutions times the class's size (8, or 4 or 2 for one that a
// half or quarter turn maps to itself). Each is searched in the image that puts the border
// queen nearest a corner in row n-1, on the right (NQueensFAF's choice: it makes the fewest
// nodes of the images we tried). The constellations are also the tasks of a split: those
// of no symmetry are cut further by presetting the queens of their first free rows.

/** A constellation as searched: (i, j, k, l) as in ConstellationTask, and its symmetry (constellationSymmetry). */
export type Constellation = { i: number; j: number; k: number; l: number; symmetry: 0 | 1 | 2 };

const constellationCache = new Map<number, Constellation[]>();

/** Whether (i, j, k, l) places its border queens consistently (corners shared) with no two attacking. */
function validConstellation(n: number, i: number, j: number, k: number, l: number): boolean {
  const m = n - 1;
  if ((i === 0) !== (k === 0) || (i === m) !== (l === 0) || (j === 0) !== (k === m) || (j === m) !== (l === m)) return false;
  const queens: [number, number][] = [];
  for (const [r, c] of [[0, i], [m, j], [k, 0], [l, m]] as const) {
    if (!queens.some(([qr, qc]) => qr === r && qc === c)) queens.push([r, c]);
  }
  for (let a = 0; a < queens.length; a++) {
    for (let b = 0; b < a; b++) {
      const [ra, ca] = queens[a], [rb, cb] = queens[b];
      if (ra === rb || ca === cb || Math.abs(ra - rb) === Math.abs(ca - cb)) return false;
    }
  }
  return true;
}

/** The 8 images of a constellation: the four turns (a quarter turn takes (r, c) to (c, n-1-r)), each also mirrored left to right. */
function images(n: number, c: readonly [number, number, number, number]): [number, number, number, number][] {
  const m = n - 1;
  const out: [number, number, number, number][] = [];
  let [i, j, k, l] = c;
  for (let t = 0; t < 4; t++) {
    out.push([i, j, k, l], [m - i, m - j, l, k]);
    [i, j, k, l] = [m - k, m - l, j, i];
  }
  return out;
}

/** One constellation per class under the board's symmetries, in the order of their least images, each in its searched image. */
export function constellations(n: number): readonly Constellation[] {
  const known = constellationCache.get(n);
  if (known) return known;
  const m = n - 1;
  const code = (c: readonly number[]) => ((c[0] * n + c[1]) * n + c[2]) * n + c[3];
  const dist = (x: number) => Math.min(x, m - x);
  const list: Constellation[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) for (let l = 0; l < n; l++) {
    if (!validConstellation(n, i, j, k, l)) continue;
    const own = code([i, j, k, l]);
    const all = images(n, [i, j, k, l]);
    if (all.some((c) => code(c) < own)) continue; // not the least of its class
    let best: [number, number, number, number] | undefined;
    for (const c of all) {
      const nearest = Math.min(dist(c[0]), dist(c[1]), dist(c[2]), dist(c[3]));
      if (dist(c[1]) !== nearest || c[1] < m - c[1]) continue;
      if (!best || code(c) < code(best)) best = c;
    }
    const [bi, bj, bk, bl] = best!;
    list.push({ i: bi, j: bj, k: bk, l: bl, symmetry: constellationSymmetry(n, bi, bj, bk, bl) });
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
