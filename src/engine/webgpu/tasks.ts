// The GPU's tasks: the prefixes of src/engine/prefix-split.ts (same rules, same order, same
// prefix node count; test/webgpu.test.ts checks them against splitTasks), cut deeper so
// that there are many more tasks than GPU threads, and packed two u32 words a task:
// [side | bound1 << 1 | columns 0..3 << 8], [columns 4..9], 5 bits a column. The kernel
// (gpu/count.wgsl) gets TASK_WORDS words a task (taskRecords): those two and the prefix's
// attacks on the row below it, so that taking a task walks no prefix.

import type { CountTask } from "../contract.js";
import { splitTasks } from "../prefix-split.js";

export type PackedTasks = { n: number; depth: number; count: number; words: Uint32Array<ArrayBuffer>; prefixNodes: bigint };

/** Deepest prefix the packing holds. */
export const MAX_GPU_DEPTH = 10;

type Packer = {
  /** Every prefix of `depth` rows below a prefix of y rows (kind, bound1, columns already set). */
  extend(side: boolean, bound1: number, y: number, left: number, down: number, right: number): void;
  start(side: boolean, bound1: number): void;
  setColumn(y: number, col: number): void;
  countNode(): void;
  done(): PackedTasks;
};

function packer(n: number, depth: number): Packer {
  const lastRow = n - 1;
  const mask = n === 32 ? 0xffffffff : (1 << n) - 1;
  const topBit = 2 ** lastRow;
  const sideMask = (topBit + 1) >>> 0;
  let words = new Uint32Array(2 * 1024);
  let count = 0;
  let prefixNodes = 0;
  let head = 0; // side bit, bound1 and columns 0..3 of the current prefix
  let tail = 0; // columns 4..9

  function setColumn(y: number, col: number): void {
    if (y < 4) head = (head & ~(31 << (8 + 5 * y))) | (col << (8 + 5 * y));
    else tail = (tail & ~(31 << (5 * (y - 4)))) | (col << (5 * (y - 4)));
  }

  function emit(): void {
    if (2 * count + 2 > words.length) {
      const bigger = new Uint32Array(words.length * 2);
      bigger.set(words);
      words = bigger;
    }
    words[2 * count] = head >>> 0;
    words[2 * count + 1] = tail >>> 0;
    count++;
  }

  // As extend() in src/engine/prefix-split.ts.
  function extend(side: boolean, bound1: number, y: number, left: number, down: number, right: number): void {
    if (y === depth) {
      emit();
      return;
    }
    let bitmap = (mask & ~(left | down | right)) >>> 0;
    if (!side) {
      if (y < bound1) bitmap = (bitmap & ~2) >>> 0;
    } else if (y < bound1) {
      bitmap = (bitmap & ~sideMask) >>> 0;
    } else if (y === lastRow - bound1) {
      if (!(down & sideMask)) return;
      if (((down & sideMask) >>> 0) !== sideMask) bitmap = (bitmap & sideMask) >>> 0;
    }
    while (bitmap) {
      const bit = (bitmap & -bitmap) >>> 0;
      bitmap = (bitmap ^ bit) >>> 0;
      setColumn(y, 31 - Math.clz32(bit));
      prefixNodes++;
      extend(side, bound1, y + 1, (left | bit) << 1, down | bit, (right | bit) >>> 1);
    }
  }

  return {
    extend,
    setColumn,
    start(side, bound1) {
      head = (side ? 1 : 0) | (bound1 << 1);
      tail = 0;
    },
    countNode() {
      prefixNodes++;
    },
    done: () => ({ n, depth, count, words: words.subarray(0, 2 * count), prefixNodes: BigInt(prefixNodes) }),
  };
}

/** Packed tasks of `depth` rows (2 <= depth <= min(n - 1, 10)), 4 <= n <= 32. */
export function packTasks(n: number, depth: number): PackedTasks {
  const lastRow = n - 1;
  const p = packer(n, depth);
  p.countNode(); // the corner queen of row 0
  for (let bound1 = 2; bound1 < lastRow; bound1++) {
    const bit = 2 ** bound1;
    p.start(false, bound1);
    p.setColumn(0, 0);
    p.setColumn(1, bound1);
    p.countNode();
    p.extend(false, bound1, 2, (2 | bit) << 1, 1 | bit, bit >>> 1);
  }
  for (let bound1 = 1; bound1 < lastRow - bound1; bound1++) {
    const bit = 2 ** bound1;
    p.start(true, bound1);
    p.setColumn(0, bound1);
    p.countNode();
    p.extend(true, bound1, 1, bit << 1, bit, bit >>> 1);
  }
  return p.done();
}

/**
 * The given prefix tasks (of src/engine/prefix-split.ts, e.g. a count part's), each cut into its
 * sub-prefixes of max(depth, deepest given) rows. `prefixNodes`: the
 * queens placed below the given prefixes to make the deeper ones, so that the nodes of the
 * given tasks are prefixNodes + the nodes of the packed ones.
 */
export function extendTasks(n: number, roots: readonly CountTask[], depth: number): PackedTasks {
  return finish(extendSteps(n, roots, depth));
}

/**
 * Called between slices of a long preparation (a split into millions of tasks takes the host
 * seconds: n = 24, 8.9 million, about 1.6 s): it may throw to stop it (an abort, a time limit)
 * and may wait (to let the event loop run).
 */
export type Between = () => void | Promise<void>;

/** Tasks or roots per slice between two calls of `between`. */
const SLICE = 1 << 16;
const ROOTS_PER_SLICE = 64;

function finish<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

async function finishAsync<T>(steps: Generator<void, T, void>, between: Between): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await between();
  }
}

function* extendSteps(n: number, roots: readonly CountTask[], depth: number): Generator<void, PackedTasks, void> {
  const rootDepth = roots.reduce((d, t) => Math.max(d, t.rows.length), 0);
  const p = packer(n, Math.max(depth, rootDepth));
  let i = 0;
  for (const task of roots) {
    const side = task.kind !== 1;
    p.start(side, task.bound1);
    let left = 0, down = 0, right = 0;
    task.rows.forEach((col, y) => {
      const bit = 2 ** col;
      p.setColumn(y, col);
      left = ((left | bit) << 1) >>> 0;
      down = (down | bit) >>> 0;
      right = (right | bit) >>> 1;
    });
    p.extend(side, task.bound1, task.rows.length, left, down, right);
    if (++i % ROOTS_PER_SLICE === 0) yield;
  }
  return p.done();
}

/** extendTasks, calling `between` after every slice of roots. */
export function extendTasksAsync(n: number, roots: readonly CountTask[], depth: number, between: Between): Promise<PackedTasks> {
  return finishAsync(extendSteps(n, roots, depth), between);
}

/** Words per task in the kernel's task buffer (TASK_WORDS of gpu/count.wgsl). */
export const TASK_WORDS = 5;

function* recordSteps(tasks: PackedTasks): Generator<void, Uint32Array<ArrayBuffer>, void> {
  const { depth, count, words } = tasks;
  const out = new Uint32Array(TASK_WORDS * count);
  for (let i = 0; i < count; i++) {
    const head = words[2 * i], tail = words[2 * i + 1];
    let left = 0, down = 0, right = 0;
    for (let y = 0; y < depth; y++) {
      const bit = 1 << (y < 4 ? (head >>> (8 + 5 * y)) & 31 : (tail >>> (5 * (y - 4))) & 31);
      left = (left | bit) << 1;
      down |= bit;
      right = (right | bit) >>> 1;
    }
    const at = TASK_WORDS * i;
    out[at] = head;
    out[at + 1] = tail;
    out[at + 2] = left >>> 0;
    out[at + 3] = down >>> 0;
    out[at + 4] = right >>> 0;
    if ((i + 1) % SLICE === 0) yield;
  }
  return out;
}

/**
 * The kernel's task buffer: per task its two packed words and the attacks of its prefix on
 * row `depth` (left diagonals, columns, right diagonals, as u32 words: bits shifted past
 * bit 31 dropped, as the kernel's own shifts drop them).
 */
export function taskRecords(tasks: PackedTasks): Uint32Array<ArrayBuffer> {
  return finish(recordSteps(tasks));
}

/** taskRecords, calling `between` after every slice of tasks. */
export function taskRecordsAsync(tasks: PackedTasks, between: Between): Promise<Uint32Array<ArrayBuffer>> {
  return finishAsync(recordSteps(tasks), between);
}

/** Unpacks task i (for tests and debugging): the CountTask of src/engine/prefix-split.ts. */
export function unpackTask(tasks: PackedTasks, i: number): { kind: 1 | 2; bound1: number; rows: number[] } {
  const head = tasks.words[2 * i], tail = tasks.words[2 * i + 1];
  const rows: number[] = [];
  for (let y = 0; y < tasks.depth; y++) rows.push(y < 4 ? (head >>> (8 + 5 * y)) & 31 : (tail >>> (5 * (y - 4))) & 31);
  return { kind: head & 1 ? 2 : 1, bound1: (head >>> 1) & 31, rows };
}

/**
 * Rows a GPU task leaves below its prefix, at least (the count's split: gpuDepthLimit). A
 * task's work grows about threefold a row (nodes a task, n = 15..18: 22 with 7 rows below, 69
 * with 8, 210 with 9, 750 with 10, 2,800 with 11), and taking a task costs its warp about as
 * much as a few dozen nodes (gpu/model/simt.ts: the lanes of a warp wait while one takes
 * one): with 8 rows below, taking tasks costs under a tenth of the warps' time.
 */
export const MIN_ROWS_BELOW = 8;

/** Whether a split of `count` tasks should go one row deeper, to `depth` rows (gpuTasks). */
export const splitsDeeper = deeper;

/**
 * How deep a count's split may go for work a task: not past MIN_ROWS_BELOW rows above the
 * last once it has `fewest` tasks (enough for balance: a few a slot).
 */
export type WorkLimit = { fewest: number };

function deeper(n: number, depth: number, count: number, minTasks: number, work?: WorkLimit): boolean {
  if (depth > Math.max(2, Math.min(n - 2, MAX_GPU_DEPTH)) || count >= minTasks) return false;
  return !work || depth <= n - MIN_ROWS_BELOW || count < work.fewest;
}

/**
 * The prefix depth for the GPU: the shallowest that gives at least `minTasks` tasks (many
 * more than threads, for balance), at most min(n - 2, 10) rows (n >= 4); with `work`, not
 * deeper than n - MIN_ROWS_BELOW rows once there are `work.fewest` tasks.
 */
export function gpuTasks(n: number, minTasks: number, work?: WorkLimit): PackedTasks {
  let tasks = packTasks(n, 2);
  for (let depth = 3; deeper(n, depth, tasks.count, minTasks, work); depth++) tasks = packTasks(n, depth);
  return tasks;
}

/**
 * gpuTasks made in slices, calling `between` after each: the same tasks in the same order,
 * each depth past 3 grown from the 3-row prefixes (src/engine/prefix-split.ts, at most 10,748 of them)
 * rather than walked from row 0, so that an abort or a time limit stops a long split.
 */
export async function gpuTasksAsync(n: number, minTasks: number, between: Between, work?: WorkLimit): Promise<PackedTasks> {
  let tasks = packTasks(n, 2);
  if (!deeper(n, 3, tasks.count, minTasks, work)) return tasks;
  const roots = splitTasks(n, 3);
  for (let depth = 3; deeper(n, depth, tasks.count, minTasks, work); depth++) {
    const deeper = await extendTasksAsync(n, roots.tasks, depth, between);
    tasks = { ...deeper, prefixNodes: roots.prefixNodes + deeper.prefixNodes };
  }
  return tasks;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * A cheap guess of each task's size (its search below the prefix), to hand out the largest
 * first: the squares left free in the rows below the prefix (attacked by no queen of the
 * prefix, column or diagonal, after the task's edge pruning in rows above bound1), the last
 * two rows left out. A task whose rows keep more free squares searches more. The bound2 rule
 * of side tasks is left out too: the queens placed between the prefix and row bound2 decide
 * it. 0 for every task where fewer than three rows are left (n <= depth + 2).
 *
 * Checked by simulation, not measured on a GPU (docs/gpu.md): list scheduling of the real
 * per-task node counts (the CPU engine's) on 65,536 slots.
 */
export function taskSizes(tasks: PackedTasks): Uint16Array {
  return finish(sizeSteps(tasks));
}

function* sizeSteps(tasks: PackedTasks): Generator<void, Uint16Array, void> {
  const { n, depth, count, words } = tasks;
  const lastRow = n - 1;
  const mask = n === 32 ? -1 : (1 << n) - 1; // (as int32: the attacks below are int32 too)
  const sideMask = (2 ** lastRow + 1) | 0;
  const rows = Math.max(0, lastRow - 1 - depth); // rows depth .. lastRow - 2
  const sizes = new Uint16Array(count);
  for (let i = 0; i < count; i++) {
    const head = words[2 * i], tail = words[2 * i + 1];
    const bound1 = (head >>> 1) & 31;
    let left = 0, down = 0, right = 0;
    for (let y = 0; y < depth; y++) {
      const bit = 1 << (y < 4 ? (head >>> (8 + 5 * y)) & 31 : (tail >>> (5 * (y - 4))) & 31);
      left = (left | bit) << 1;
      down |= bit;
      right = (right | bit) >>> 1;
    }
    const pruned = head & 1 ? ~sideMask : ~2; // what rows above bound1 may not take
    let free = 0;
    for (let k = 0; k < rows; k++) {
      let c = mask & ~(down | (left << k) | (right >>> k));
      if (depth + k < bound1) c &= pruned;
      free += popcount(c);
    }
    sizes[i] = free;
    if ((i + 1) % SLICE === 0) yield;
  }
  return sizes;
}

/**
 * The tasks reordered so that the largest (by taskSizes' guess) come first, ties in split
 * order: the GPU's slots take tasks from the front of the queue, so a large task taken last
 * no longer runs on alone while the other slots idle. Only the order changes (the same tasks,
 * the same prefix nodes): the counts and the node total are sums over the tasks.
 */
export function largestFirst(tasks: PackedTasks): PackedTasks {
  return finish(largestFirstSteps(tasks));
}

/** largestFirst, calling `between` after every slice of tasks. */
export function largestFirstAsync(tasks: PackedTasks, between: Between): Promise<PackedTasks> {
  return finishAsync(largestFirstSteps(tasks), between);
}

function* largestFirstSteps(tasks: PackedTasks): Generator<void, PackedTasks, void> {
  const sizes = yield* sizeSteps(tasks);
  let top = 0;
  for (let i = 0; i < sizes.length; i++) if (sizes[i] > top) top = sizes[i];
  if (top === 0) return tasks;
  // counting sort, largest size first, stable
  const start = new Uint32Array(top + 2);
  for (let i = 0; i < sizes.length; i++) start[top - sizes[i] + 1]++;
  for (let b = 1; b <= top + 1; b++) start[b] += start[b - 1];
  const from = tasks.words, words = new Uint32Array(from.length);
  for (let i = 0, count = sizes.length; i < count; i++) {
    const at = 2 * start[top - sizes[i]]++;
    words[at] = from[2 * i];
    words[at + 1] = from[2 * i + 1];
    if ((i + 1) % SLICE === 0) yield;
  }
  return { ...tasks, words };
}
