// List scheduling, the GPU's task order simulated (not measured on a GPU): each of the slots
// takes the next task of the queue when it finishes one. bench/gpu-order-sim.ts runs it over
// the tasks of count(n, { engine: 'webgpu' }) at their real costs; test/webgpu.test.ts checks
// largestFirst's order with it.

/** Makespan of list scheduling the tasks in `order` with costs `cost` on `slotCount` slots. */
export function makespan(cost: Float64Array, order: ArrayLike<number>, slotCount: number): number {
  const heap = new Float64Array(slotCount); // the slots' finish times, a min-heap
  for (let k = 0; k < order.length; k++) {
    const t = heap[0] + cost[order[k]];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i, v = t;
      if (l < slotCount && heap[l] < v) { m = l; v = heap[l]; }
      if (r < slotCount && heap[r] < v) { m = r; v = heap[r]; }
      if (m === i) break;
      heap[i] = heap[m];
      i = m;
    }
    heap[i] = t;
  }
  return heap.reduce((a, b) => Math.max(a, b), 0);
}
