// Constellation tasks (src/count/tasks.ts: the split's tasks, the whole board's for count()
// and what parts hold) counted on the GPU with gpu/constellations.wgsl, exactly as the CPU
// counter (assembly/constellations.ts, src/engine/ts/constellations.ts) counts them: the same
// count8, count4, count2 and nodes.
//
// The host replays each task's preset queens, then places the queens of a few more free rows
// itself, row by row for all tasks, until there are enough starts for the GPU's slots
// (`constellationStarts`); the nodes of those rows are counted here (a row's candidates when
// the row is entered, as the CPU counter counts them), the GPU counts the rest. A start whose
// first row has no candidate is dropped (it adds nothing), one on the last free row is
// counted here. Each constellation gets one table (the border queens' diagonals per free row,
// the shift to the next free row), read by all its starts. The GPU sums the solutions by the
// symmetry class of their constellation; the turn-symmetric solutions of the symmetric
// constellations (a small paired search, turnSymmetric of the TS twin, as the CPU counter
// makes; run one constellation at a time while the GPU counts) turn those sums into classes
// of 8, 4 and 2 with the CPU counter's formulas.
import type { ConstellationTask, TaskCount } from "../contract.js";
import type { CountOptions } from "../count-types.js";
import { borderTables, constellationSymmetry, turnSymmetric } from "../ts/constellations.js";
import type { GpuCountTuning, GpuTaskOrder } from "./tuning.js";
import { kernelErrorOf, openGpuCount, run, stopper, type Between, type KernelJob } from "./dispatch.js";
import type { Pacer } from "../../core/pacer.js";
import type { CountProgress } from "../count-types.js";
import type { GpuHandle } from "./device.js";

/** Words of a start in gpu/constellations.wgsl's task buffer, and of a constellation's table. */
export const START_WORDS = 5;
export const TABLE_WORDS = 64;
/** The most starts a count makes (20 bytes each: 80 MiB). */
export const MAX_STARTS = 1 << 22;
/** A start keeps at least this many free rows below its own (a start's work must outweigh taking it). */
export const MIN_START_ROWS = 4;

/** The largest size guess of a start: 32 squares on each of 29 rows. */
const MAX_SIZE = 32 * 29;

/** One constellation's table and what the host needs of it. */
type Table = { index: number; border: Int32Array; shift: Int32Array; last: number; cls: 0 | 1 | 2 };

/** The starts of a list of constellation tasks for gpu/constellations.wgsl, and what the host counted itself. */
export type ConstellationStarts = {
  n: number;
  /** Starts (the kernel's tasks). */
  count: number;
  /** The kernel's task buffer: the starts (START_WORDS each), then the tables (TABLE_WORDS each). */
  records: Uint32Array<ArrayBuffer>;
  /** Nodes counted on the host (rows placed here, starts counted here). */
  hostNodes: bigint;
  /** Solutions found on the host, by class (0: no symmetry, 1: half turn, 2: quarter turn). */
  hostSolutions: [bigint, bigint, bigint];
  /** Over the symmetric tasks: turn-symmetric solutions of class-1 tasks, of class-2 tasks, and quarter-turn ones of class-2 tasks. */
  half1: bigint;
  half2: bigint;
  quarter2: bigint;
  /**
   * The symmetric tasks whose turn-symmetric solutions are not in half1, half2, quarter2 yet
   * (countTurns adds them; constellationCounts refuses while any are left).
   */
  turnsLeft: ConstellationTask[];
  /** Free rows the host placed below each task's presets (at most). */
  rowsPlaced: number;
};

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The table of constellation (i, j, k, l) as the CPU counter makes it (its start()). */
function tableOf(n: number, t: ConstellationTask, index: number): Table {
  const { i, j, k, l } = t;
  const border = new Int32Array(32), shift = new Int32Array(32);
  const last = borderTables(n, i, j, k, l, border, shift);
  return { index, border, shift, last, cls: constellationSymmetry(n, i, j, k, l) };
}

/**
 * The starts of `tasks` (constellation tasks of an n x n board, already checked) with enough
 * of them for the GPU (`minStarts`, bounded by MAX_STARTS and MIN_START_ROWS): see the header.
 * `order`: largest first by a guess of their size (the default), or as the host made them ('split').
 */
export async function constellationStarts(
  n: number, tasks: readonly ConstellationTask[], minStarts: number, between: Between = async () => {}, minRows = MIN_START_ROWS, order: GpuTaskOrder = "largest-first",
): Promise<ConstellationStarts> {
  const steps = startSteps(n, tasks, minStarts, minRows, order);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await between();
  }
}

/** constellationStarts in one go (for the SIMT model and tests). */
export function constellationStartsSync(n: number, tasks: readonly ConstellationTask[], minStarts: number, minRows = MIN_START_ROWS, order: GpuTaskOrder = "largest-first"): ConstellationStarts {
  const steps = startSteps(n, tasks, minStarts, minRows, order);
  for (;;) {
    const step = steps.next();
    if (step.done) {
      while (countTurn(step.value));
      return step.value;
    }
  }
}

/** A growable list of starts: per start its table, free row, and the attacks on that row (left, down, right). */
class Frontier {
  data = new Int32Array(5 * 1024);
  length = 0;
  push(table: number, row: number, left: number, down: number, right: number): void {
    if (5 * this.length === this.data.length) {
      const grown = new Int32Array(2 * this.data.length);
      grown.set(this.data);
      this.data = grown;
    }
    const o = 5 * this.length++;
    const a = this.data;
    a[o] = table; a[o + 1] = row; a[o + 2] = left; a[o + 3] = down; a[o + 4] = right;
  }
}

/** The work of constellationStarts in slices: it yields between them (the caller checks abort and time there). */
function* startSteps(n: number, tasks: readonly ConstellationTask[], minStarts: number, minRows: number, order: GpuTaskOrder): Generator<void, ConstellationStarts> {
  const mask = n === 32 ? -1 : (1 << n) - 1;
  const tables = new Map<string, Table>();
  const byIndex: Table[] = [];
  let hostNodes = 0n, nodes = 0; // (nodes: below 2^53 between flushes)
  const hostSolutions: [bigint, bigint, bigint] = [0n, 0n, 0n];
  const turnsLeft: ConstellationTask[] = [];
  let f = new Frontier();
  const keep = (t: Table, d: number, left: number, down: number, right: number): void => {
    const c = mask & ~(left | down | right | t.border[d]);
    if (c === 0) return; // no candidate: nothing below it
    if (d === t.last) { // its candidates are solutions: counted here
      const k = popcount(c);
      nodes += k;
      hostSolutions[t.cls] += BigInt(k);
      return;
    }
    f.push(t.index, d, left, down, right);
  };
  for (let at = 0; at < tasks.length; at++) {
    if ((at & 4095) === 4095) yield;
    const task = tasks[at];
    const key = `${task.i} ${task.j} ${task.k} ${task.l}`;
    let t = tables.get(key);
    if (!t) {
      t = tableOf(n, task, byIndex.length);
      tables.set(key, t);
      byIndex.push(t);
    }
    if (t.cls) turnsLeft.push(task); // (its paired search: countTurns, later)
    if (t.last < 0) { // n = 4: the border queens fill the board (one leaf)
      nodes += 1;
      hostSolutions[t.cls] += 1n;
      continue;
    }
    // the preset rows (a queen that does not fit leaves the task empty), as the CPU counter replays them
    let left = 0, right = 0, down = (1 << task.i) | (1 << task.j) | 1 | (1 << (n - 1)), fits = true;
    for (let d = 0; d < task.rows.length && fits; d++) {
      const bit = 1 << task.rows[d];
      if (mask & ~(left | down | right | t.border[d]) & bit) {
        left = (left | bit) << t.shift[d];
        down |= bit;
        right = (right | bit) >>> t.shift[d];
      } else fits = false;
    }
    if (fits) keep(t, task.rows.length, left, down, right);
  }
  // Row by row: every start with MIN_START_ROWS free rows below it is replaced by its children.
  let rowsPlaced = 0;
  for (;;) {
    if (f.length >= minStarts) break;
    let grows = 0, next = 0;
    for (let e = 0, a = f.data; e < f.length; e++) {
      const t = byIndex[a[5 * e]], d = a[5 * e + 1];
      if (t.last - d > minRows) { grows++; next += popcount(mask & ~(a[5 * e + 2] | a[5 * e + 3] | a[5 * e + 4] | t.border[d])); } else next++;
    }
    if (grows === 0 || next > MAX_STARTS) break;
    yield;
    const old = f;
    f = new Frontier();
    for (let e = 0, a = old.data; e < old.length; e++) {
      if ((e & 65535) === 65535) {
        hostNodes += BigInt(nodes);
        nodes = 0;
        yield;
      }
      const t = byIndex[a[5 * e]], d = a[5 * e + 1], left = a[5 * e + 2], down = a[5 * e + 3], right = a[5 * e + 4];
      if (t.last - d <= minRows) {
        f.push(t.index, d, left, down, right);
        continue;
      }
      let c = mask & ~(left | down | right | t.border[d]);
      nodes += popcount(c);
      const s = t.shift[d];
      while (c !== 0) {
        const bit = c & -c;
        c ^= bit;
        keep(t, d + 1, (left | bit) << s, down | bit, (right | bit) >>> s);
      }
    }
    rowsPlaced++;
  }
  hostNodes += BigInt(nodes);
  // Largest first, by a guess of each start's size (the free squares, attacked by none of its
  // queens, on its rows but the last), ties in order: a counting sort (one pass). ('split': as made.)
  const count = f.length, a = f.data;
  const records = new Uint32Array(START_WORDS * count + TABLE_WORDS * byIndex.length);
  const sizes = new Uint16Array(count);
  const bySize = new Int32Array(MAX_SIZE + 2);
  for (let e = 0; e < count && order !== "split"; e++) {
    if ((e & 65535) === 65535) yield;
    const t = byIndex[a[5 * e]], down = a[5 * e + 3];
    let left = a[5 * e + 2], right = a[5 * e + 4], size = 0;
    for (let d = a[5 * e + 1]; d < t.last; d++) {
      size += popcount(mask & ~(left | down | right | t.border[d]));
      left <<= t.shift[d];
      right >>>= t.shift[d];
    }
    sizes[e] = size;
    bySize[MAX_SIZE - size]++;
  }
  for (let b = 0, sum = 0; b <= MAX_SIZE; b++) { const c = bySize[b]; bySize[b] = sum; sum += c; }
  const tablesAt = START_WORDS * count;
  for (let e = 0; e < count; e++) {
    if ((e & 65535) === 65535) yield;
    const t = byIndex[a[5 * e]];
    const o = START_WORDS * (order === "split" ? e : bySize[MAX_SIZE - sizes[e]]++);
    records[o] = tablesAt + TABLE_WORDS * t.index;
    records[o + 1] = a[5 * e + 1] | (t.cls << 8) | (t.last << 16);
    records[o + 2] = a[5 * e + 2];
    records[o + 3] = a[5 * e + 3];
    records[o + 4] = a[5 * e + 4];
  }
  for (const t of byIndex) {
    records.set(t.border, tablesAt + TABLE_WORDS * t.index);
    records.set(t.shift, tablesAt + TABLE_WORDS * t.index + 32);
  }
  return { n, count, records, hostNodes, hostSolutions, half1: 0n, half2: 0n, quarter2: 0n, turnsLeft, rowsPlaced };
}

/**
 * The turn-symmetric solutions of one symmetric task left (the CPU counter's paired search),
 * added to the starts' half1, half2, quarter2; false when none is left. A call takes the
 * search of one constellation: well under a millisecond at n = 16, about 10 to 30 ms at
 * n = 20, seconds at n = 24 (the whole board's: 0.1 s at n = 18, 1 s at n = 20, 11 s at 22 in
 * the reference engine here), so the count runs them while the GPU counts (run()'s `alongside`).
 */
export function countTurn(starts: ConstellationStarts): boolean {
  const task = starts.turnsLeft.pop();
  if (!task) return false;
  const { n } = starts;
  const { half, quarter } = turnSymmetric(n, task.i, task.j, task.k, task.l);
  if (constellationSymmetry(n, task.i, task.j, task.k, task.l) === 1) starts.half1 += BigInt(half);
  else {
    starts.half2 += BigInt(half);
    starts.quarter2 += BigInt(quarter);
  }
  return starts.turnsLeft.length > 0;
}

/** Every turn-symmetric search left (countTurn), calling `between` after each. */
export async function countTurns(starts: ConstellationStarts, between: Between = async () => {}): Promise<void> {
  while (starts.turnsLeft.length > 0) {
    countTurn(starts);
    await between();
  }
}

/**
 * The count of the starts' tasks from the solutions by class (the GPU's, in `gpu`'s count8,
 * count4 and count2, plus the host's): the CPU counter's formulas summed over the tasks (each
 * task's divisions are exact, so the sums' are; one that is not, or a negative count, means a
 * wrong count: refused). `gpu.nodes` are all the nodes, the host's included.
 */
export function constellationCounts(starts: ConstellationStarts, gpu: TaskCount): TaskCount {
  const s0 = starts.hostSolutions[0] + gpu.count8, s1 = starts.hostSolutions[1] + gpu.count4, s2 = starts.hostSolutions[2] + gpu.count2;
  const { half1, half2, quarter2 } = starts;
  if (starts.turnsLeft.length > 0) throw kernelErrorOf(`${starts.turnsLeft.length} symmetric tasks' turn-symmetric solutions are not counted yet; count refused`);
  const a = s1 - half1, b = s2 - half2, c = half2 - quarter2;
  if (a < 0n || b < 0n || c < 0n || a % 2n !== 0n || b % 4n !== 0n || c % 2n !== 0n) {
    throw kernelErrorOf(
      `the solutions of the symmetric constellations (${s1} of half-turn ones with ${half1} turn-symmetric, ${s2} of quarter-turn ones with ${half2} and ${quarter2}) ` +
        "cannot be classes of 8, 4 and 2 images; count refused",
    );
  }
  return { count8: s0 + a / 2n + b / 4n, count4: half1 + c / 2n, count2: quarter2, nodes: gpu.nodes };
}

/**
 * How many starts a count of `share` of a board's work needs: the whole board's count needs
 * 8 a slot (4 on a software adapter: the model's balance, docs/gpu.md); a part of a split
 * with P parts (share 1/P: its work is about 1/P of the board's) gets 1/P of them, so each
 * start holds about the work it would hold in the whole count, and the host makes no more
 * starts than the part's work is worth (making a start costs the host about as much as a
 * GPU lane's counting of a few hundred nodes). At least a workgroup's.
 */
export function minStartsFor(slots: number, fallback: boolean, share = 1): number {
  return Math.max(32, Math.ceil((fallback ? 4 : 8) * slots * share));
}

/**
 * Counts constellation tasks of src/count/tasks.ts (a part's, say) on the GPU: the sums of
 * what countTask of a CPU engine's constellation counter gives for each (count8, count4,
 * count2, nodes), node for node. Rejects as count() does (NQ_ENGINE_UNAVAILABLE,
 * NQ_DEVICE_LOST: then count them on a CPU engine instead; NQ_KERNEL_ABORT; the signal's reason).
 * `share`: the tasks' share of the board's work (a part of P parts: 1/P), for the starts' number.
 * @internal for countPartWebGpu (the queue worker, countParallel's GPU slot)
 */
export async function countConstellationsWebGpu(
  n: number,
  tasks: readonly ConstellationTask[],
  opts: Pick<CountOptions, "signal" | "timeoutMs"> = {},
  tuning: GpuCountTuning = {},
  share = 1,
): Promise<TaskCount> {
  return countOpened(n, tasks, await openGpuCount(n, opts, tuning), tuning, share);
}

/**
 * The count of constellation tasks on an opened device (its pacer, the device, its slots):
 * the host makes the starts (tuning.minTasks of them at least, or as many as the tasks' share
 * of the board needs; in tuning.order), the kernel counts them, the host's formulas make the
 * classes. Progress reports (through the pacer) count starts; their nodes include the host's.
 * @internal for count() (./count.ts) and countConstellationsWebGpu
 */
export async function countOpened(
  n: number, tasks: readonly ConstellationTask[], opened: { pacer: Pacer<CountProgress>; gpu: GpuHandle; maxSlots: number }, tuning: GpuCountTuning, share = 1,
): Promise<TaskCount> {
  const { pacer, gpu, maxSlots } = opened;
  const minStarts = tuning.minTasks ?? minStartsFor(maxSlots, gpu.fallback, share);
  const between = stopper(n, pacer);
  const starts = await constellationStarts(n, tasks, minStarts, between, MIN_START_ROWS, tuning.order);
  let sums: TaskCount = { count8: 0n, count4: 0n, count2: 0n, nodes: starts.hostNodes };
  if (starts.count > 0) {
    const job: KernelJob = {
      count: starts.count, prefixNodes: starts.hostNodes, records: starts.records,
      params: { n, mask: n === 32 ? 0xffffffff : 2 ** n - 1, numTasks: starts.count },
      alongside: () => countTurn(starts), // the paired searches, while the GPU counts
    };
    sums = await run(n, gpu, pacer, tuning, job, maxSlots);
  }
  await countTurns(starts, between); // (those the GPU finished before)
  const counts = constellationCounts(starts, sums);
  if (starts.count === 0) pacer.finish({ phase: "count", n, tasksDone: 0, tasksTotal: 0, nodes: counts.nodes, elapsedMs: pacer.elapsed() });
  return counts;
}
