// The GPU's task order, simulated (not measured on a GPU): list scheduling of the tasks of
// count(n, { engine: 'webgpu' }) on S slots, each slot taking the next task of the queue when
// it finishes one, each task costing what it really costs: its node count below the prefix
// (the Wasm engine's countTask) plus one. Prints, per n, the makespan over the ideal
// (max(total / S, largest task)) for the split's order, for largestFirst's (the default) and
// for the order by the real costs (largest first: the best a guess could do), and the host's
// time to order the tasks (the list scheduling: gpu/model/order.ts). The split is the
// hardware default's for S slots (at least min(16 S, 2^21) tasks); S = 65,536 unless SLOTS
// says otherwise.
//
//   npx esbuild bench/gpu-order-sim.ts --bundle --platform=node --target=node20 --format=esm \
//     --loader:.wasm=binary --loader:.wgsl=text --outfile=/tmp/gpu-order-sim.mjs
//   node /tmp/gpu-order-sim.mjs 14 15 16 17        # n = 17: about 15 s of Wasm counting
//   SLOTS=16384 node /tmp/gpu-order-sim.mjs 16     # another slot count
import { compileWasm, wasmEngine } from "../src/engine/wasm/index.js";
import { gpuTasks, largestFirst, unpackTask, type PackedTasks } from "../src/engine/webgpu/tasks.js";
import { makespan } from "../gpu/model/order.js";

const slots = Number(process.env.SLOTS ?? 65536);

/** The order of `to`'s tasks as indices into `from` (the same tasks, reordered). */
function indexOrder(from: PackedTasks, to: PackedTasks): Uint32Array {
  const where = new Map<string, number[]>();
  for (let i = 0; i < from.count; i++) {
    const key = `${from.words[2 * i]},${from.words[2 * i + 1]}`;
    (where.get(key) ?? where.set(key, []).get(key)!).push(i);
  }
  const order = new Uint32Array(to.count);
  for (let i = 0; i < to.count; i++) order[i] = where.get(`${to.words[2 * i]},${to.words[2 * i + 1]}`)!.shift()!;
  return order;
}

if (process.argv[1]?.includes("gpu-order-sim")) {
  await compileWasm();
  for (const n of process.argv.slice(2).map(Number)) {
    const tasks = gpuTasks(n, Math.min(16 * slots, 2 ** 21));
    const t0 = performance.now();
    const ordered = largestFirst(tasks);
    const orderMs = performance.now() - t0;
    const counter = wasmEngine.openCounter(n);
    const cost = new Float64Array(tasks.count);
    for (let i = 0; i < tasks.count; i++) cost[i] = Number(counter.countTask(unpackTask(tasks, i)).nodes) + 1;
    counter.close();
    let sum = 0, max = 0;
    for (const c of cost) { sum += c; max = Math.max(max, c); }
    const ideal = Math.max(sum / slots, max);
    const split = Uint32Array.from({ length: tasks.count }, (_, i) => i);
    const byCost = Array.from(split).sort((a, b) => cost[b] - cost[a] || a - b);
    const ratio = (order: ArrayLike<number>) => (makespan(cost, order, slots) / ideal).toFixed(3);
    console.log(JSON.stringify({
      n, slots, depth: tasks.depth, tasks: tasks.count, largestTaskOverIdeal: +(max / ideal).toFixed(3),
      splitOrder: +ratio(split), largestFirst: +ratio(indexOrder(tasks, ordered)), realCostOrder: +ratio(byCost), orderMs: Math.round(orderMs),
    }));
  }
}
