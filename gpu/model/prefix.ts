// The prefix kernel that count(n, { engine: 'webgpu' }) ran until it moved to
// gpu/constellations.wgsl: gpu/count.wgsl, removed from the package, kept here frozen as the
// SIMT model's reference (bench/gpu-model-bench.ts reports it beside the constellation kernel:
// the "before" of that move). Its twin (prefixKernel: a lane's loop iteration as the WGSL's,
// booking its `// @cost` blocks at the costs they had, PREFIX_COSTS), and the task list its
// host made: takaken's full-symmetry prefix split (src/engine/prefix-split.ts's rules and
// order) cut deeper, packed two u32 words a task ([side | bound1 << 1 | columns 0..3 << 8],
// [columns 4..9], 5 bits a column), no deeper than 8 rows above the last once there are 4
// tasks a slot, largest first by a guess of each task's size. The model's totals and nodes
// equal the prefix counter's (countByPrefixes) only if the twin searches exactly that tree
// (test/gpu-model.test.ts).
import type { CostTable } from "./costs.js";
import { popcount, stacks, type KernelModel, type Lane, type ModelTasks, type Phase, type Sim } from "./simt.js";

export type PackedTasks = ModelTasks;

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
  stacks.board[lane.o + sim.board.lastRow] = c;
  const queenAt = (k: number): number => {
    sim.hit(b.queenAt);
    if (k >= sim.board.tasks.depth || lane.prefixSet) return stacks.board[lane.o + k];
    sim.hit(b["queenAt.prefix"]);
    const t = lane.task - 1, head = sim.board.tasks.words[2 * t], tail = sim.board.tasks.words[2 * t + 1];
    return 1 << (k < 4 ? (head >>> (8 + 5 * k)) & 31 : (tail >>> (5 * (k - 4))) & 31);
  };
  if (queenAt(lane.bound2) !== 1 && c !== lane.endBit && queenAt(lane.bound1) !== sim.board.topBit) {
    lane.c8++;
    return;
  }
  sim.hit(b["leaf.check"]);
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
  checkSymmetry(lane, sim, b);
}

/**
 * The prefix kernel as count() last ran it (tuned with this model): a back-up (past every
 * exhausted row) and the next placement in one iteration, the prefix's attacks from the host,
 * the board's prefix set only for a side task's rotation check, the counters flushed once a
 * dispatch (here: never, one dispatch).
 */
export function prefixKernel(opts: { name?: string; minTasks?: (n: number, slots: number) => number } = {}): KernelModel {
  const costs = PREFIX_COSTS;
  return {
    name: opts.name ?? "prefix",
    costs,
    blocks: Object.keys(costs),
    phaseOf: phaseByName(["take", "open", "prefix", "prefix.row", "prefix.end"], ["done", "flush", "add96"]),
    tasksFor: (n, slots) => prefixTasks(n, slots, opts.minTasks?.(n, slots), opts.minTasks === undefined),
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
        y--;
        r = stacks.rem[o + y];
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
        if (r === 0) return true;
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


/** gpu/count.wgsl's blocks as its last version had them, frozen with the file's removal. */
export const PREFIX_COSTS: CostTable = {
  "prefix": { cost: 4, hash: "2640d1c4" },
  "prefix.row": { cost: 14, hash: "529b801f" },
  "prefix.end": { cost: 0, hash: "49d04362" },
  "queenAt": { cost: 9, hash: "2bc782e0" },
  "queenAt.prefix": { cost: 15, hash: "dd119e66" },
  "open": { cost: 25, hash: "bb77ced5" },
  "candidates": { cost: 6, hash: "d60785a1" },
  "candidates.upper": { cost: 3, hash: "8f59c02b" },
  "candidates.bound2": { cost: 7, hash: "33e27f73" },
  "candidates.return": { cost: 1, hash: "0a0714ec" },
  "sym90.test": { cost: 5, hash: "5e632c9f" },
  "sym90.start": { cost: 1, hash: "0271f57b" },
  "sym90.outer": { cost: 18, hash: "3f384453" },
  "sym90.inner": { cost: 13, hash: "a733a337" },
  "sym90.end": { cost: 4, hash: "47d698bc" },
  "sym180.test": { cost: 5, hash: "9e40208f" },
  "sym180.start": { cost: 2, hash: "b4d281da" },
  "sym180.outer": { cost: 18, hash: "28bfdbff" },
  "sym180.inner": { cost: 13, hash: "fba16456" },
  "sym180.end": { cost: 4, hash: "5f08c14c" },
  "sym270.test": { cost: 5, hash: "6057c68c" },
  "sym270.start": { cost: 2, hash: "0e0c75c0" },
  "sym270.outer": { cost: 18, hash: "061bc843" },
  "sym270.inner": { cost: 13, hash: "1ec5ea29" },
  "sym.c8": { cost: 1, hash: "23161ba1" },
  "leaf": { cost: 3, hash: "ce555447" },
  "leaf.corner": { cost: 1, hash: "e7be7f6f" },
  "leaf.side": { cost: 11, hash: "0e8ed240" },
  "leaf.check": { cost: 2, hash: "bced6bbc" },
  "add96": { cost: 22, hash: "21040f5c" },
  "flush": { cost: 16, hash: "272e1f63" },
  "loop": { cost: 2, hash: "263c3c77" },
  "take": { cost: 15, hash: "a27e96e8" },
  "take.leaf": { cost: 10, hash: "f4bf03ba" },
  "take.row": { cost: 3, hash: "85f89568" },
  "step": { cost: 7, hash: "899a93d5" },
  "back": { cost: 5, hash: "2a3db57d" },
  "done": { cost: 2, hash: "9e459a20" },
  "back.restore": { cost: 8, hash: "a79935b6" },
  "place": { cost: 12, hash: "3582ae89" },
  "place.leaf": { cost: 10, hash: "f2f4262d" },
  "place.leaf.found": { cost: 2, hash: "12158533" },
  "place.row": { cost: 3, hash: "3add7b75" },
  "push": { cost: 7, hash: "708671cc" },
};

// The task list the prefix kernel's host made.

/** Deepest prefix the packing holds. */
const MAX_GPU_DEPTH = 10;

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
function packTasks(n: number, depth: number): PackedTasks {
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
 * Rows a GPU task leaves below its prefix, at least (the split's work limit). A
 * task's work grows about threefold a row (nodes a task, n = 15..18: 22 with 7 rows below, 69
 * with 8, 210 with 9, 750 with 10, 2,800 with 11), and taking a task costs its warp about as
 * much as a few dozen nodes (gpu/model/simt.ts: the lanes of a warp wait while one takes
 * one): with 8 rows below, taking tasks costs under a tenth of the warps' time.
 */
const MIN_ROWS_BELOW = 8;

function deeper(n: number, depth: number, count: number, minTasks: number, work?: { fewest: number }): boolean {
  if (depth > Math.max(2, Math.min(n - 2, MAX_GPU_DEPTH)) || count >= minTasks) return false;
  return !work || depth <= n - MIN_ROWS_BELOW || count < work.fewest;
}

/**
 * The prefix depth for the GPU: the shallowest that gives at least `minTasks` tasks (many
 * more than threads, for balance), at most min(n - 2, 10) rows (n >= 4); with `work`, not
 * deeper than n - MIN_ROWS_BELOW rows once there are `work.fewest` tasks.
 */
function gpuTasks(n: number, minTasks: number, work?: { fewest: number }): PackedTasks {
  let tasks = packTasks(n, 2);
  for (let depth = 3; deeper(n, depth, tasks.count, minTasks, work); depth++) tasks = packTasks(n, depth);
  return tasks;
}

/**
 * A cheap guess of each task's size (its search below the prefix), to hand out the largest
 * first: the squares left free in the rows below the prefix (attacked by no queen of the
 * prefix, column or diagonal, after the task's edge pruning in rows above bound1), the last
 * two rows left out. A task whose rows keep more free squares searches more. The bound2 rule
 * of side tasks is left out too: the queens placed between the prefix and row bound2 decide
 * it. 0 for every task where fewer than three rows are left (n <= depth + 2).
 */
function taskSizes(tasks: PackedTasks): Uint16Array {
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
  }
  return sizes;
}

/**
 * The tasks reordered so that the largest (by taskSizes' guess) come first, ties in split
 * order: the GPU's slots take tasks from the front of the queue, so a large task taken last
 * no longer runs on alone while the other slots idle. Only the order changes (the same tasks,
 * the same prefix nodes): the counts and the node total are sums over the tasks.
 */
function largestFirst(tasks: PackedTasks): PackedTasks {
  const sizes = taskSizes(tasks);
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
  }
  return { ...tasks, words };
}

/**
 * The prefix kernel's task list for `slots` slots, as its host made it: min(16 x slots, 2^21)
 * tasks asked for, no deeper than 8 rows above the last once there are 4 tasks a slot,
 * largest first (`limit: false`: without the work limit).
 */
export function prefixTasks(n: number, slots: number, minTasks = Math.min(16 * slots, 2 ** 21), limit = true): PackedTasks {
  return largestFirst(gpuTasks(n, minTasks, limit ? { fewest: 4 * slots } : undefined));
}
