// Twin of assembly/estimate.ts: Knuth's (1975) random probes down the backtracking
// tree (procedure `estimate` as text 5 in docs/references.md teaches it). At depth k a probe lists the safe columns
// of row k in increasing order (d of them), multiplies its product by d and places
// the queen at index below(d); the product d1*...*dk estimates the nodes at depth k.
// Sums are added probe by probe, depth by depth, as the kernel does (same bits).
import type { Prober } from "../contract.js";
import { Random } from "./rng.js";

function popcount(x: number): number {
  let count = 0;
  for (let v = x >>> 0; v !== 0; v &= v - 1) count++;
  return count;
}

export function openProbes(n: number, seed: number): Prober {
  const size = n;
  const full = n === 32 ? 0xffffffff : (1 << n) - 1;
  const random = new Random(seed);
  // [0..n]: depth sums, [n + 1]: whole-estimate sum; then the squares, same order.
  const sums = new Float64Array(2 * (n + 2));
  let probes = 0;

  function add(slot: number, value: number): void {
    sums[slot] += value;
    sums[slot + size + 2] += value * value;
  }

  function run(count: number): number {
    for (let i = 0; i < count; i++) {
      let cols = 0, left = 0, right = 0;
      let product = 1; // the nodes this probe estimates at depth k
      let estimate = 0;
      let k = 0;
      for (;;) {
        add(k, product);
        estimate += product;
        if (k === size) break;
        let safe = (~(cols | left | right) & full) >>> 0;
        const d = popcount(safe);
        if (d === 0) break;
        product *= d;
        for (let j = random.below(d); j > 0; j--) safe = (safe & (safe - 1)) >>> 0; // drop the j lowest safe columns
        const bit = (safe & -safe) >>> 0;
        cols = (cols | bit) >>> 0;
        left = ((left | bit) << 1) >>> 0;
        right = (right | bit) >>> 1;
        k++;
      }
      add(size + 1, estimate);
      probes++;
    }
    return probes;
  }

  return {
    run,
    sums: () => ({
      probes,
      level: sums.slice(0, size + 1),
      levelSquares: sums.slice(size + 2, 2 * size + 3),
      total: sums[size + 1],
      totalSquares: sums[2 * size + 3],
    }),
    close() {},
  };
}
