// The SIMT model's twin of gpu/constellations.wgsl (the kernel that counts constellation
// tasks: the whole split of count(n), and parts), a lane's loop iteration
// written as the WGSL's, booking the blocks it passes (named as its `// @cost` markers, costs
// from CONSTELLATION_COSTS). Its tasks are the starts the host makes
// (src/engine/webgpu/constellations.ts) from every task of the constellation split with no
// preset rows: the model's total, unique and nodes then equal count(n)'s on the Wasm engine
// (the same nodes: the host's rows plus the lanes'), which test/gpu-model.test.ts and the
// bench check. One dispatch: no save and resume; a flush when
// a lane takes a start of another symmetry class is booked (flush and two add96), not done
// (the lanes' counters are kept by class here).
import { CONSTELLATION_COSTS } from "./costs.js";
import { popcount, stacks, type KernelModel, type ModelTasks, type Phase } from "./simt.js";
import { constellationCounts, constellationStartsSync, minStartsFor, type ConstellationStarts } from "../../src/engine/webgpu/constellations.js";
import { splitConstellations } from "../../src/count/tasks.js";
import type { GpuTaskOrder } from "../../src/engine/webgpu/tuning.js";

/** The model's task list: the starts (depth: the rows the host placed; prefixNodes: its nodes), the starts kept beside. */
export type StartTasks = ModelTasks & { starts: ConstellationStarts };

/** The starts of count(n)'s constellation split (no preset rows) for `slots` slots, as count(n, { engine: 'webgpu' })'s host makes them. */
export function constellationTasks(n: number, slots: number, minStarts = minStartsFor(slots, false), minRows?: number, order?: GpuTaskOrder): StartTasks {
  const starts = constellationStartsSync(n, splitConstellations(n, 0).tasks, minStarts, minRows, order);
  return { n, depth: starts.rowsPlaced, count: starts.count, words: starts.records, prefixNodes: starts.hostNodes, starts };
}

const FINISH = ["done", "flush", "add96"];

export function constellationKernel(opts: { name?: string; minStarts?: (n: number, slots: number) => number; minRows?: number; order?: GpuTaskOrder } = {}): KernelModel {
  const costs = CONSTELLATION_COSTS;
  return {
    name: opts.name ?? "constellations",
    costs,
    blocks: Object.keys(costs),
    phaseOf: (block: string): Phase => (block === "take" || block === "open" || block.startsWith("take.") ? "take" : FINISH.includes(block) ? "finish" : "search"),
    tasksFor: (n, slots) => constellationTasks(n, slots, opts.minStarts?.(n, slots), opts.minRows, opts.order),
    counts(tasks, lanes) {
      const starts = (tasks as StartTasks).starts;
      const r = constellationCounts(starts, { count8: BigInt(lanes.c8), count4: BigInt(lanes.c4), count2: BigInt(lanes.c2), nodes: 0n });
      return { count8: Number(r.count8), count4: Number(r.count4), count2: Number(r.count2) };
    },
    iterate(lane, sim, b) {
      const { mask, tasks } = sim.board;
      const words = tasks.words;
      const o = lane.o;
      sim.hit(b.loop);
      if (lane.task === 0) {
        sim.hit(b.take);
        const t = sim.takeTask();
        if (t < 0) return false;
        const before = lane.cls;
        sim.hit(b.open);
        lane.table = words[5 * t];
        const rows = words[5 * t + 1];
        lane.first = rows & 255;
        lane.cls = (rows >>> 8) & 255;
        lane.last = rows >>> 16;
        lane.al = words[5 * t + 2] | 0;
        lane.ad = words[5 * t + 3] | 0;
        lane.ar = words[5 * t + 4] | 0;
        if (lane.cls !== before) { sim.hit(b.flush); sim.hit(b.add96); sim.hit(b.add96); }
        lane.task = t + 1;
        lane.y = lane.first + 1;
        stacks.rem[o + lane.first] = 1; // the sentinel
        const c = mask & ~(lane.al | lane.ad | lane.ar | words[lane.table + lane.first]);
        const k = popcount(c);
        lane.nodes += k;
        if (lane.first === lane.last) {
          sim.hit(b["take.leaf"]);
          addSolutions(lane, k);
          stacks.rem[o + lane.y] = 0;
        } else {
          sim.hit(b["take.row"]);
          stacks.rem[o + lane.y] = c;
        }
      }
      sim.hit(b.step);
      let y = lane.y;
      let r = stacks.rem[o + y];
      if (r === 0) {
        sim.hit(b.back);
        y--;
        r = stacks.rem[o + y];
        lane.y = y;
        if (y <= lane.first) {
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
      const s = words[lane.table + 32 + y - 1];
      const l = (lane.al | bit) << s, d = lane.ad | bit, rr = (lane.ar | bit) >>> s;
      const c = mask & ~(l | d | rr | words[lane.table + y]);
      if (c === 0) return true;
      const k = popcount(c);
      lane.nodes += k;
      if (y === lane.last) {
        sim.hit(b["place.leaf"]);
        addSolutions(lane, k);
        return true;
      }
      sim.hit(b["place.ahead"]);
      const s2 = words[lane.table + 32 + y];
      if ((mask & ~((l << s2) | d | (rr >>> s2) | words[lane.table + y + 1])) === 0) return true;
      sim.hit(b.push);
      stacks.board[o + y] = bit;
      stacks.left[o + y] = lane.al;
      stacks.right[o + y] = lane.ar;
      lane.y = y + 1;
      stacks.rem[o + y + 1] = c;
      lane.al = l; lane.ad = d; lane.ar = rr;
      return true;
    },
  };
}

/** The lane's solutions by its start's class (the kernel's counters 0, 1, 2). */
function addSolutions(lane: { cls: number; c8: number; c4: number; c2: number }, k: number): void {
  if (lane.cls === 0) lane.c8 += k;
  else if (lane.cls === 1) lane.c4 += k;
  else lane.c2 += k;
}
