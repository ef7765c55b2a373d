// A SIMT model of the GPU kernel (gpu/constellations.wgsl, gpu/model/constellations.ts; and
// the former prefix kernel, frozen: gpu/model/prefix.ts): its control flow run on the CPU,
// slot by slot, over the real task list of count(n, { engine: 'webgpu' }), with the slots grouped in warps of 32
// lanes that run one loop iteration at a time in lockstep. In an iteration a warp issues
// every block that any of its lanes takes (a block taken k times by some lane, in a loop,
// issues k times): the warp's instructions are the sum of those blocks' costs, read from the
// WGSL (gpu/model/costs.ts). The lanes' own instructions over 32 times the warp's is
// the lane occupancy. The warps share the task queue; the warp whose clock (its instructions
// so far) is lowest runs next, so tasks go out in the order a GPU whose warps all issue at
// one rate would hand them out, and the tail is the time from the queue's running dry to the
// last warp's end.
//
// What it leaves out: memory latency and bandwidth (workgroup memory is assumed one issue an
// access), the dispatch boundaries (one unbounded dispatch: no save and resume), the
// scheduler's interleaving (all warps issue at one rate), and the compiler (a block costs
// what its WGSL text counts). So its figures compare kernels with one another; the H200
// estimate from them is a rough one (issue efficiency 0.35 to 0.7 of one warp instruction
// a scheduler a cycle).
//
// Checked: the model's count8/count4/count2 and nodes are the kernel's, so its total, unique
// and nodes must equal count(n)'s (test/gpu-model.test.ts at n = 8..11, the bench at every n).
import type { CostTable } from "./costs.js";

/**
 * A kernel's task list as the model reads it: `count` tasks in `words` (the kernel's layout),
 * `depth` rows placed by the host, `prefixNodes` the host's nodes.
 */
export type ModelTasks = { n: number; depth: number; count: number; words: Uint32Array; prefixNodes: bigint };
type PackedTasks = ModelTasks;

/** What a lane (a slot) holds: its task's rules, its stack and its counters. */
export type Lane = {
  task: number; // task + 1, 0: none
  y: number;
  done: boolean; // left the loop (no task left)
  side: boolean;
  bound1: number;
  bound2: number;
  lastMask: number;
  endBit: number;
  pruneMask: number;
  al: number;
  ad: number;
  ar: number;
  /** Where the lane's stack starts in the shared stack arrays (stacks.rem[o + y], ...). */
  o: number;
  c8: number;
  c4: number;
  c2: number;
  nodes: number;
  prefixSet: boolean; // (the tuned kernel: rows 0..depth-1 of the board are set)
  // (gpu/constellations.wgsl: the start's table, first and last free rows, symmetry class)
  table: number;
  first: number;
  last: number;
  cls: number;
};

/** Where a block's instructions are booked. */
export const PHASES = ["search", "take", "rotation", "finish"] as const;
export type Phase = (typeof PHASES)[number];

/** The board and the task list a kernel runs over. */
export type Board = {
  n: number;
  lastRow: number;
  mask: number;
  topBit: number;
  sideMask: number;
  tasks: PackedTasks;
};

/** The warp's view for a lane's iteration: `hit` books a block's pass (its cost from the kernel's table). */
export type Sim = {
  hit(block: number): void;
  /** The next task of the shared queue, or -1. */
  takeTask(): number;
  board: Board;
};

/** A kernel's control flow, as a lane's loop iteration. */
export type KernelModel = {
  name: string;
  costs: CostTable;
  /** Block ids by name (made from `costs`; a name the table lacks is an error). */
  blocks: readonly string[];
  phaseOf(block: string): Phase;
  /** One loop iteration of a lane; false when the lane leaves the loop. */
  iterate(lane: Lane, sim: Sim, b: Record<string, number>): boolean;
  /** The task list this kernel's host would make for n and so many slots. */
  tasksFor(n: number, slots: number): PackedTasks;
  /**
   * The count8/count4/count2 of what the lanes counted (their c8, c4, c2), where the kernel's
   * counters are not those (gpu/constellations.wgsl: solutions by symmetry class); default: as they are.
   */
  counts?(tasks: PackedTasks, lanes: { c8: number; c4: number; c2: number }): { count8: number; count4: number; count2: number };
};

export type ModelResult = {
  n: number;
  kernel: string;
  slots: number;
  depth: number;
  tasks: number;
  count8: number;
  count4: number;
  count2: number;
  total: number;
  unique: number;
  /** Queens placed: the host's prefix nodes plus the lanes'. */
  nodes: number;
  warpIterations: number;
  /** Warp instructions issued, all warps. */
  warpInstructions: number;
  warpInstructionsPerNode: number;
  /** The lanes' own instructions over 32 x the warps'. */
  laneOccupancy: number;
  /** Share of the warp instructions per phase. */
  share: Record<Phase, number>;
  /** The longest warp's instructions: the model's time, in warp instructions of one warp. */
  makespan: number;
  /** The last warp's end over the ideal (all warp instructions spread evenly over the warps). */
  makespanOverIdeal: number;
  /** Share of the makespan after the last task was handed out. */
  tail: number;
  /** Warp instructions per block (the largest first). */
  byBlock: Array<[string, number]>;
};

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Every lane's stack (33 rows a lane), one array per field: the lanes' `o` index them. */
export const stacks = { rem: new Int32Array(0), board: new Int32Array(0), left: new Int32Array(0), right: new Int32Array(0), extra: new Int32Array(0) };
const ROWS = 33;

function newLane(i: number): Lane {
  return {
    task: 0, y: 0, done: false, side: false, bound1: 0, bound2: 0, lastMask: 0, endBit: 0, pruneMask: 0,
    al: 0, ad: 0, ar: 0, o: i * ROWS, c8: 0, c4: 0, c2: 0, nodes: 0, prefixSet: false, table: 0, first: 0, last: 0, cls: 0,
  };
}

/** Runs the model of `kernel` for n (n <= 24) on `slots` slots (a multiple of 32). */
export function simulate(n: number, kernel: KernelModel, opts: { slots?: number; tasks?: PackedTasks; strict?: boolean } = {}): ModelResult {
  if (!(n >= 4 && n <= 24)) throw new RangeError(`the model runs n = 4..24, got ${n}`);
  const slots = opts.slots ?? 65536;
  const tasks = opts.tasks ?? kernel.tasksFor(n, slots);
  const lastRow = n - 1;
  const board: Board = { n, lastRow, mask: (1 << n) - 1, topBit: 1 << lastRow, sideMask: (1 << lastRow) | 1, tasks };
  const names = kernel.blocks;
  const B = names.length;
  // the ids as one object literal (fast properties: the kernels look them up by constant names in the hot loop)
  let ids = new Function(`return {${names.map((name, i) => `${JSON.stringify(name)}: ${i}`).join(", ")}};`)() as Record<string, number>;
  if (opts.strict) { // (tests: a block the table lacks is an error, not a NaN)
    const known = ids;
    ids = new Proxy(known, { get: (_, name) => (typeof name === "string" && name in known ? known[name] : fail(name)) });
    const fail = (name: string | symbol): never => { throw new Error(`${kernel.name}: the kernel model books block ${String(name)}, which its cost table lacks`); };
  }
  const cost = new Float64Array(B);
  const phase = new Uint8Array(B);
  names.forEach((name, i) => {
    const row = kernel.costs[name];
    if (!row) throw new Error(`${kernel.name}: no cost for block ${name}`);
    cost[i] = row.cost;
    phase[i] = PHASES.indexOf(kernel.phaseOf(name));
  });
  // the GPU launches no more slots than tasks (rounded up to a warp): as run() in src/engine/webgpu/dispatch.ts
  const used = Math.min(slots, Math.ceil(tasks.count / 32) * 32);
  const warps = used / 32;
  let next = 0;
  let lastHandOut = 0; // the clock of the warp that took the last task
  const cur = new Int32Array(B), max = new Int32Array(B);
  const touchedLane = new Int32Array(B), touchedWarp = new Int32Array(B);
  let nLane = 0, nWarp = 0;
  let clockNow = 0;
  const sim: Sim = {
    hit(block) {
      if (cur[block]++ === 0) touchedLane[nLane++] = block;
    },
    takeTask() {
      if (next >= tasks.count) return -1;
      if (next === tasks.count - 1) lastHandOut = clockNow;
      return next++;
    },
    board,
  };
  for (const k of ["rem", "board", "left", "right", "extra"] as const) stacks[k] = new Int32Array(warps * 32 * ROWS);
  const lanes: Lane[][] = Array.from({ length: warps }, (_, w) => Array.from({ length: 32 }, (_, l) => {
    const lane = newLane(32 * w + l);
    if (warps * 32 - 32 + l >= used) lane.done = true;
    return lane;
  }));
  const clock = new Float64Array(warps);
  const byBlock = new Float64Array(B);
  let laneInstr = 0, warpIterations = 0;
  // a min-heap of warps by clock
  const heap = Int32Array.from({ length: warps }, (_, i) => i);
  let size = warps;
  const sift = (i: number) => {
    const w = heap[i], c = clock[w];
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i, mc = c;
      if (l < size && clock[heap[l]] < mc) { m = l; mc = clock[heap[l]]; }
      if (r < size && clock[heap[r]] < mc) { m = r; mc = clock[heap[r]]; }
      if (m === i) break;
      heap[i] = heap[m];
      i = m;
    }
    heap[i] = w;
  };
  const QUANTUM = 16;
  while (size > 0) {
    const w = heap[0];
    const warp = lanes[w];
    let alive = true;
    for (let q = 0; q < QUANTUM && alive; q++) {
      clockNow = clock[w];
      alive = false;
      for (let l = 0; l < 32; l++) {
        const lane = warp[l];
        if (lane.done) continue;
        if (!kernel.iterate(lane, sim, ids)) lane.done = true;
        else alive = true;
        for (let k = 0; k < nLane; k++) {
          const b = touchedLane[k], c = cur[b];
          laneInstr += c * cost[b];
          if (max[b] === 0) touchedWarp[nWarp++] = b;
          if (c > max[b]) max[b] = c;
          cur[b] = 0;
        }
        nLane = 0;
      }
      let step = 0;
      for (let k = 0; k < nWarp; k++) {
        const b = touchedWarp[k], c = max[b] * cost[b];
        step += c;
        byBlock[b] += c;
        max[b] = 0;
      }
      nWarp = 0;
      clock[w] += step;
      warpIterations++;
    }
    if (!alive) {
      heap[0] = heap[--size];
      if (size > 0) sift(0);
    } else sift(0);
  }
  let count8 = 0, count4 = 0, count2 = 0, nodes = 0;
  for (const warp of lanes) for (const lane of warp) {
    count8 += lane.c8;
    count4 += lane.c4;
    count2 += lane.c2;
    nodes += lane.nodes;
  }
  nodes += Number(tasks.prefixNodes);
  if (kernel.counts) ({ count8, count4, count2 } = kernel.counts(tasks, { c8: count8, c4: count4, c2: count2 }));
  let warpInstructions = 0, makespan = 0;
  for (const c of clock) {
    warpInstructions += c;
    makespan = Math.max(makespan, c);
  }
  const share = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  byBlock.forEach((v, b) => (share[PHASES[phase[b]]] += v / warpInstructions));
  return {
    n, kernel: kernel.name, slots: used, depth: tasks.depth, tasks: tasks.count,
    count8, count4, count2, total: 8 * count8 + 4 * count4 + 2 * count2, unique: count8 + count4 + count2, nodes,
    warpIterations, warpInstructions, warpInstructionsPerNode: warpInstructions / nodes,
    laneOccupancy: laneInstr / (32 * warpInstructions), share,
    makespan, makespanOverIdeal: makespan / (warpInstructions / warps),
    tail: makespan > 0 ? (makespan - lastHandOut) / makespan : 0,
    byBlock: names.map((name, b): [string, number] => [name, byBlock[b]]).sort((a, b) => b[1] - a[1]),
  };
}
