// The kernels the SIMT model (gpu/model/simt.ts) runs: gpu/count.wgsl as it is (tunedKernel)
// and as it was before the tuning (baselineKernel, with its frozen costs), each a lane's loop
// iteration written as the WGSL's, booking the blocks it passes (named as the WGSL's
// `// @cost` markers). The model's totals and nodes equal count(n)'s only if these twins
// search exactly the kernel's tree (test/gpu-model.test.ts).
import { BASELINE_COSTS, KERNEL_COSTS, type CostTable } from "./costs.js";
import { defaultTasks, popcount, stacks, type KernelModel, type Lane, type Phase, type Sim } from "./simt.js";

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
    tasksFor: (n, slots) => defaultTasks(n, slots, undefined, false),
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
    tasksFor: (n, slots) => defaultTasks(n, slots, opts.minTasks?.(n, slots), opts.minTasks === undefined),
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

