// A SIMT model of gpu/count.wgsl: its control flow run on the CPU, slot by slot, over the
// real task list of count(n, { engine: 'webgpu' }), with the slots grouped in warps of 32
// lanes that run one loop iteration at a time in lockstep. In an iteration a warp issues
// every block that any of its lanes takes (a block taken k times by some lane, in a loop,
// issues k times): the warp's instructions are the sum of those blocks' costs, read from the
// WGSL (bench/gpu-model-costs.ts). The lanes' own instructions over 32 times the warp's is
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
import shader from "../gpu/count.wgsl";
import { BASELINE_COSTS, KERNEL_COSTS, type CostTable } from "./gpu-model-costs.js";
import { gpuTasks, largestFirst, type PackedTasks } from "../src/engine/webgpu/tasks.js";

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
  /** The last warp's end over the ideal (all warp instructions spread evenly over the warps). */
  makespanOverIdeal: number;
  /** Share of the makespan after the last task was handed out. */
  tail: number;
  /** Warp instructions per block (the largest first). */
  byBlock: Array<[string, number]>;
};

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

export const bits = { popcount };

/** The hardware default's task list: the engine's split for `slots` slots, largest first. */
export function defaultTasks(n: number, slots: number, minTasks = Math.min(16 * slots, 2 ** 21)): PackedTasks {
  return largestFirst(gpuTasks(n, minTasks));
}

/** Every lane's stack (33 rows a lane), one array per field: the lanes' `o` index them. */
export const stacks = { rem: new Int32Array(0), board: new Int32Array(0), left: new Int32Array(0), right: new Int32Array(0), extra: new Int32Array(0) };
const ROWS = 33;

function newLane(i: number): Lane {
  return {
    task: 0, y: 0, done: false, side: false, bound1: 0, bound2: 0, lastMask: 0, endBit: 0, pruneMask: 0,
    al: 0, ad: 0, ar: 0, o: i * ROWS, c8: 0, c4: 0, c2: 0, nodes: 0, prefixSet: false,
  };
}

/** Runs the model of `kernel` for n (n <= 24) on `slots` slots (a multiple of 32). */
export function simulate(n: number, kernel: KernelModel, opts: { slots?: number; tasks?: PackedTasks } = {}): ModelResult {
  if (!(n >= 4 && n <= 24)) throw new RangeError(`the model runs n = 4..24, got ${n}`);
  const slots = opts.slots ?? 65536;
  const tasks = opts.tasks ?? kernel.tasksFor(n, slots);
  const lastRow = n - 1;
  const board: Board = { n, lastRow, mask: (1 << n) - 1, topBit: 1 << lastRow, sideMask: (1 << lastRow) | 1, tasks };
  const names = kernel.blocks;
  const B = names.length;
  // the ids as one object literal (fast properties: the kernels look them up by constant names in the hot loop)
  const ids = new Function(`return {${names.map((name, i) => `${JSON.stringify(name)}: ${i}`).join(", ")}};`)() as Record<string, number>;
  const cost = new Float64Array(B);
  const phase = new Uint8Array(B);
  names.forEach((name, i) => {
    const row = kernel.costs[name];
    if (!row) throw new Error(`${kernel.name}: no cost for block ${name}`);
    cost[i] = row.cost;
    phase[i] = PHASES.indexOf(kernel.phaseOf(name));
  });
  // the GPU launches no more slots than tasks (rounded up to a warp): as run() in src/engine/webgpu/count.ts
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
    makespanOverIdeal: makespan / (warpInstructions / warps),
    tail: makespan > 0 ? (makespan - lastHandOut) / makespan : 0,
    byBlock: names.map((name, b): [string, number] => [name, byBlock[b]]).sort((a, b) => b[1] - a[1]),
  };
}

// ---- the kernels ----

/** The rotation check of a side leaf (the WGSL's checkSymmetry), booking its blocks under `tag` (sym90, ...). */
function checkSymmetry(lane: Lane, sim: Sim, b: Record<string, number>): void {
  const { lastRow, topBit } = sim.board;
  const row = stacks.board, o = lane.o;
  let own: number, you: number, bit: number, ptn: number;
  sim.hit(b["sym90.test"]);
  if (row[o + lane.bound2] === 1) {
    sim.hit(b["sym90.start"]);
    for (own = 1, ptn = 2; ; own++, ptn <<= 1) {
      sim.hit(b["sym90.outer"]);
      if (own > lastRow) break;
      bit = 1;
      for (you = lastRow; ; you--, bit <<= 1) {
        sim.hit(b["sym90.inner"]);
        if (row[o + you] === ptn || row[o + own] < bit) break;
      }
      if (row[o + own] > bit) return;
      if (row[o + own] < bit) break;
    }
    sim.hit(b["sym90.end"]);
    if (own > lastRow) { lane.c2++; return; }
  }
  sim.hit(b["sym180.test"]);
  if (row[o + lastRow] === lane.endBit) {
    sim.hit(b["sym180.start"]);
    for (own = 1, you = lastRow - 1; ; own++, you--) {
      sim.hit(b["sym180.outer"]);
      if (own > lastRow) break;
      bit = 1;
      for (ptn = topBit; ; ptn >>>= 1, bit <<= 1) {
        sim.hit(b["sym180.inner"]);
        if (ptn === row[o + you] || row[o + own] < bit) break;
      }
      if (row[o + own] > bit) return;
      if (row[o + own] < bit) break;
    }
    sim.hit(b["sym180.end"]);
    if (own > lastRow) { lane.c4++; return; }
  }
  sim.hit(b["sym270.test"]);
  if (row[o + lane.bound1] === topBit) {
    sim.hit(b["sym270.start"]);
    for (own = 1, ptn = topBit >>> 1; ; own++, ptn >>>= 1) {
      sim.hit(b["sym270.outer"]);
      if (own > lastRow) break;
      bit = 1;
      for (you = 0; ; you++, bit <<= 1) {
        sim.hit(b["sym270.inner"]);
        if (row[o + you] === ptn || row[o + own] < bit) break;
      }
      if (row[o + own] > bit) return;
      if (row[o + own] < bit) break;
    }
  }
  sim.hit(b["sym.c8"]);
  lane.c8++;
}

function phaseByName(take: readonly string[], finish: readonly string[]) {
  return (block: string): Phase =>
    block.startsWith("sym") || block === "leaf.side" ? "rotation"
      : take.includes(block) || block.startsWith("take.") ? "take"
        : finish.includes(block) ? "finish" : "search";
}

/** The task's rules and its prefix on the board (the WGSL's openTask), its attacks (attacksAt). */
function openTask(lane: Lane, t: number, sim: Sim, b: Record<string, number>, rowBlock = "open.row"): void {
  const { n, lastRow, topBit, sideMask, tasks } = sim.board;
  const head = tasks.words[2 * t], tail = tasks.words[2 * t + 1];
  sim.hit(b.open);
  lane.side = (head & 1) !== 0;
  lane.bound1 = (head >>> 1) & 31;
  if (lane.side) {
    lane.bound2 = lastRow - lane.bound1;
    const low = (1 << lane.bound1) - 1;
    lane.lastMask = low | (low << (n - lane.bound1));
    lane.endBit = topBit >>> lane.bound1;
    lane.pruneMask = ~sideMask;
  } else {
    lane.bound2 = 0;
    lane.lastMask = 0;
    lane.endBit = 0;
    lane.pruneMask = ~2;
  }
  for (let y = 0; y < tasks.depth; y++) {
    sim.hit(b[rowBlock]);
    if (b.taskColumn !== undefined) sim.hit(b.taskColumn);
    stacks.board[lane.o + y] = 1 << (y < 4 ? (head >>> (8 + 5 * y)) & 31 : (tail >>> (5 * (y - 4))) & 31);
  }
}

/** The WGSL's candidates(y, l, d, r) of the kernel before the tuning, blocks booked under `pre` (take. or nothing). */
function baselineCandidates(lane: Lane, sim: Sim, b: Record<string, number>, pre: string, y: number, l: number, d: number, r: number): number {
  const { mask, lastRow, sideMask } = sim.board;
  sim.hit(b[pre + "candidates"]);
  let c = mask & ~(l | d | r);
  if (c === 0) return 0;
  if (y === lastRow) {
    sim.hit(b[pre + "candidates.last"]);
    if (lane.side && (c & lane.lastMask) !== 0) return 0;
    return c;
  }
  sim.hit(b[pre + "candidates.rules"]);
  if (y < lane.bound1) {
    sim.hit(b[pre + "candidates.upper"]);
    c &= lane.pruneMask;
  } else if (lane.side && y === lane.bound2) {
    sim.hit(b[pre + "candidates.bound2"]);
    const edges = d & sideMask;
    if (edges === 0) return 0;
    if (edges !== sideMask) c &= sideMask;
  }
  sim.hit(b[pre + "candidates.return"]);
  return c;
}

function baselineLeaf(lane: Lane, sim: Sim, b: Record<string, number>, pre: string, c: number): void {
  sim.hit(b[pre + "leaf"]);
  lane.nodes++;
  if (!lane.side) {
    sim.hit(b[pre + "leaf.corner"]);
    lane.c8++;
  } else {
    sim.hit(b["leaf.side"]);
    stacks.board[lane.o + sim.board.lastRow] = c;
    checkSymmetry(lane, sim, b);
  }
}

function baselineFlush(lane: Lane, sim: Sim, b: Record<string, number>): void {
  sim.hit(b.flush);
  // add96 per counter that is not zero; the lane's counters are kept whole (the model's totals)
  const flushed = stacks.extra, o = lane.o;
  if (lane.c8 !== flushed[o]) sim.hit(b.add96);
  if (lane.c4 !== flushed[o + 1]) sim.hit(b.add96);
  if (lane.c2 !== flushed[o + 2]) sim.hit(b.add96);
  if (lane.nodes !== flushed[o + 3]) sim.hit(b.add96);
  flushed[o] = lane.c8;
  flushed[o + 1] = lane.c4;
  flushed[o + 2] = lane.c2;
  flushed[o + 3] = lane.nodes;
}

const TAKE_BLOCKS = ["take", "open", "open.row", "taskColumn", "attacks", "attacks.row"];
const CANDIDATE_BLOCKS = ["candidates", "candidates.last", "candidates.rules", "candidates.upper", "candidates.bound2", "candidates.return"];

/** Table rows for the blocks the take-over books apart (take.candidates, ...): the same costs. */
function withTakeCopies(costs: CostTable, names: readonly string[]): CostTable {
  const out: CostTable = { ...costs };
  for (const name of names) if (costs[name]) out["take." + name] = costs[name];
  return out;
}

/** gpu/count.wgsl before the tuning (the baseline): one step (a push or a back-up) an iteration, the rotation check inline. */
export const baselineKernel: KernelModel = (() => {
  const shared = [...CANDIDATE_BLOCKS, "leaf", "leaf.corner"];
  const costs = withTakeCopies(BASELINE_COSTS, shared);
  return {
    name: "baseline",
    costs,
    blocks: Object.keys(costs),
    phaseOf: phaseByName(TAKE_BLOCKS, ["done", "flush", "add96"]),
    tasksFor: (n, slots) => defaultTasks(n, slots),
    iterate(lane, sim, b) {
      const { lastRow, tasks } = sim.board;
      const depth = tasks.depth;
      sim.hit(b.loop);
      if (lane.task === 0) {
        sim.hit(b.take);
        const t = sim.takeTask();
        if (t < 0) return false;
        lane.task = t + 1;
        openTask(lane, t, sim, b);
        lane.y = depth;
        sim.hit(b.attacks);
        let al = 0, ad = 0, ar = 0;
        for (let k = 0; k < depth; k++) {
          sim.hit(b["attacks.row"]);
          const bit = stacks.board[lane.o + k];
          al = (al | bit) << 1;
          ad |= bit;
          ar = (ar | bit) >>> 1;
        }
        lane.al = al; lane.ad = ad; lane.ar = ar;
        const c = baselineCandidates(lane, sim, b, "take.", depth, al, ad, ar);
        if (depth === lastRow) {
          if (c !== 0) baselineLeaf(lane, sim, b, "take.", c);
          stacks.rem[lane.o + depth] = 0;
        } else {
          sim.hit(b["take.row"]);
          lane.nodes += popcount(c);
          stacks.rem[lane.o + depth] = c;
        }
      }
      sim.hit(b.step);
      const y = lane.y;
      const r = stacks.rem[lane.o + y];
      if (r === 0) {
        sim.hit(b.pop);
        if (y === depth) {
          sim.hit(b.done);
          baselineFlush(lane, sim, b);
          lane.task = 0;
        } else {
          sim.hit(b.back);
          lane.y = y - 1;
          lane.ad &= ~stacks.board[lane.o + y - 1];
          lane.al = stacks.left[lane.o + y - 1];
          lane.ar = stacks.right[lane.o + y - 1];
        }
        return true;
      }
      sim.hit(b.place);
      const bit = r & -r;
      stacks.rem[lane.o + y] = r ^ bit;
      const l = (lane.al | bit) << 1, d = lane.ad | bit, rr = (lane.ar | bit) >>> 1;
      const ny = y + 1;
      const c = baselineCandidates(lane, sim, b, "", ny, l, d, rr);
      if (c === 0) return true;
      sim.hit(b["place.found"]);
      if (ny === lastRow) {
        sim.hit(b["place.leaf"]);
        stacks.board[lane.o + y] = bit;
        baselineLeaf(lane, sim, b, "", c);
        return true;
      }
      sim.hit(b.push);
      stacks.board[lane.o + y] = bit;
      stacks.left[lane.o + y] = lane.al;
      stacks.right[lane.o + y] = lane.ar;
      lane.nodes += popcount(c);
      lane.y = ny;
      stacks.rem[lane.o + ny] = c;
      lane.al = l; lane.ad = d; lane.ar = rr;
      return true;
    },
  };
})();

/** The tuned kernel's candidates(y, l, d, r) for a row above the last. */
function tunedCandidates(lane: Lane, sim: Sim, b: Record<string, number>, y: number, l: number, d: number, r: number): number {
  const { mask, sideMask } = sim.board;
  sim.hit(b.candidates);
  let c = mask & ~(l | d | r);
  if (y < lane.bound1) {
    sim.hit(b["candidates.upper"]);
    c &= lane.pruneMask;
  } else if (y === lane.bound2) {
    sim.hit(b["candidates.bound2"]);
    const edges = d & sideMask;
    if (edges === 0) return 0;
    if (edges !== sideMask) c &= sideMask;
  }
  sim.hit(b["candidates.return"]);
  return c;
}

const NO_ROW = -1;

/** A side or corner leaf of the tuned kernel (leaf() in the WGSL): the prefix set at a side task's first leaf. */
function tunedLeaf(lane: Lane, sim: Sim, b: Record<string, number>, c: number): void {
  sim.hit(b.leaf);
  lane.nodes++;
  if (!lane.side) {
    sim.hit(b["leaf.corner"]);
    lane.c8++;
    return;
  }
  sim.hit(b["leaf.side"]);
  if (!lane.prefixSet) {
    const { tasks } = sim.board;
    sim.hit(b.prefix);
    const t = lane.task - 1, head = tasks.words[2 * t], tail = tasks.words[2 * t + 1];
    for (let y = 0; y < tasks.depth; y++) {
      sim.hit(b["prefix.row"]);
      stacks.board[lane.o + y] = 1 << (y < 4 ? (head >>> (8 + 5 * y)) & 31 : (tail >>> (5 * (y - 4))) & 31);
    }
    sim.hit(b["prefix.end"]);
    lane.prefixSet = true;
  }
  stacks.board[lane.o + sim.board.lastRow] = c;
  checkSymmetry(lane, sim, b);
}

/**
 * gpu/count.wgsl as it is now: a back-up (past every exhausted row) and the next placement in
 * one iteration, the prefix's attacks from the host, the board's prefix set only for a side
 * task's rotation check, the counters flushed once a dispatch (here: never, one dispatch).
 */
export function tunedKernel(opts: { name?: string; minTasks?: (n: number, slots: number) => number } = {}): KernelModel {
  const costs = KERNEL_COSTS;
  return {
    name: opts.name ?? "tuned",
    costs,
    blocks: Object.keys(costs),
    phaseOf: phaseByName(["take", "open", "prefix", "prefix.row", "prefix.end"], ["done", "flush", "add96"]),
    tasksFor: (n, slots) => defaultTasks(n, slots, opts.minTasks?.(n, slots)),
    iterate(lane, sim, b) {
      const { n, lastRow, topBit, sideMask, mask, tasks } = sim.board;
      const depth = tasks.depth;
      sim.hit(b.loop);
      if (lane.task === 0) {
        sim.hit(b.take);
        const t = sim.takeTask();
        if (t < 0) return false;
        lane.task = t + 1;
        sim.hit(b.open);
        const head = tasks.words[2 * t], tail = tasks.words[2 * t + 1];
        lane.side = (head & 1) !== 0;
        lane.bound1 = (head >>> 1) & 31;
        let al = 0, ad = 0, ar = 0; // (the host's record)
        for (let y = 0; y < depth; y++) {
          const bit = 1 << (y < 4 ? (head >>> (8 + 5 * y)) & 31 : (tail >>> (5 * (y - 4))) & 31);
          al = (al | bit) << 1;
          ad |= bit;
          ar = (ar | bit) >>> 1;
        }
        lane.al = al; lane.ad = ad; lane.ar = ar;
        lane.prefixSet = false;
        if (lane.side) {
          lane.bound2 = lastRow - lane.bound1;
          const low = (1 << lane.bound1) - 1;
          lane.lastMask = low | (low << (n - lane.bound1));
          lane.endBit = topBit >>> lane.bound1;
          lane.pruneMask = ~sideMask;
        } else {
          lane.bound2 = NO_ROW;
          lane.lastMask = 0;
          lane.endBit = 0;
          lane.pruneMask = ~2;
        }
        lane.y = depth;
        stacks.rem[lane.o + depth - 1] = 1; // the sentinel
        if (depth === lastRow) {
          sim.hit(b["take.leaf"]);
          const c = mask & ~(al | ad | ar);
          if (c !== 0 && (c & lane.lastMask) === 0) tunedLeaf(lane, sim, b, c);
          stacks.rem[lane.o + depth] = 0;
        } else {
          sim.hit(b["take.row"]);
          const c = tunedCandidates(lane, sim, b, depth, al, ad, ar);
          lane.nodes += popcount(c);
          stacks.rem[lane.o + depth] = c;
        }
      }
      sim.hit(b.step);
      const o = lane.o;
      let y = lane.y;
      let r = stacks.rem[o + y];
      if (r === 0) {
        sim.hit(b.back);
        for (;;) {
          sim.hit(b["back.row"]);
          y--;
          r = stacks.rem[o + y];
          if (r !== 0) break;
          lane.ad &= ~stacks.board[o + y];
        }
        sim.hit(b["back.end"]);
        lane.y = y;
        if (y < depth) {
          sim.hit(b.done);
          lane.task = 0;
          return true;
        }
        sim.hit(b["back.restore"]);
        lane.ad &= ~stacks.board[o + y];
        lane.al = stacks.left[o + y];
        lane.ar = stacks.right[o + y];
      }
      sim.hit(b.place);
      const bit = r & -r;
      stacks.rem[o + y] = r ^ bit;
      const l = (lane.al | bit) << 1, d = lane.ad | bit, rr = (lane.ar | bit) >>> 1;
      const ny = y + 1;
      if (ny === lastRow) {
        sim.hit(b["place.leaf"]);
        const c = mask & ~(l | d | rr);
        if (c === 0 || (c & lane.lastMask) !== 0) return true;
        sim.hit(b["place.leaf.found"]);
        stacks.board[o + y] = bit;
        tunedLeaf(lane, sim, b, c);
        return true;
      }
      sim.hit(b["place.row"]);
      const c = tunedCandidates(lane, sim, b, ny, l, d, rr);
      if (c === 0) return true;
      sim.hit(b.push);
      stacks.board[o + y] = bit;
      stacks.left[o + y] = lane.al;
      stacks.right[o + y] = lane.ar;
      lane.nodes += popcount(c);
      lane.y = ny;
      stacks.rem[o + ny] = c;
      lane.al = l; lane.ad = d; lane.ar = rr;
      return true;
    },
  };
}

export { shader as kernelText, KERNEL_COSTS };
