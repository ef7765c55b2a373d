// The Wasm engine's estimates and statistics: Knuth's probes (assembly/estimate.ts), the
// exact tree's size by level (assembly/tree-size.ts), and the Las Vegas tries and exact walk
// (assembly/las-vegas-stats.ts). Every block is read at the offsets the module exports.
import type { LasVegasExactWalker, LasVegasTrials, Prober, TreeCounter } from "../contract.js";
import { acquire, closer, offsets, outOfMemory } from "./loader.js";

export function openProbes(n: number, seed: number): Prober {
  const k = acquire();
  const sums = k.estimateInit(n, seed);
  if (sums === 0) throw outOfMemory(`estimating n = ${n}`);
  const { total, squares } = offsets().estimate;
  let probes = 0;
  return {
    run: (count: number) => {
      probes = k.estimateRun(count);
    },
    sums: () => {
      // assembly/estimate.ts's block: depth sums 0..n from byte 0, the total at `total`, then their squares from `squares`.
      const { buffer } = k.memory;
      return {
        probes,
        level: new Float64Array(buffer, sums, n + 1).slice(),
        levelSquares: new Float64Array(buffer, sums + squares, n + 1).slice(),
        total: new Float64Array(buffer, sums + total, 1)[0],
        totalSquares: new Float64Array(buffer, sums + squares + total, 1)[0],
      };
    },
    close: closer(k),
  };
}

export function openTreeCounter(n: number): TreeCounter {
  const k = acquire();
  const block = k.treeSizeInit(n);
  if (block === 0) throw outOfMemory(`the tree of n = ${n}`);
  const at = offsets().treeSizeColumns;
  return {
    subtree(columns: readonly number[]) {
      // Layout of assembly/tree-size.ts: u64[33] levels, i32[32] columns at TREE_SIZE_COLUMNS.
      new Int32Array(k.memory.buffer, block + at, 32).set(columns);
      k.treeSizeTask(columns.length);
      return Array.from(new BigUint64Array(k.memory.buffer, block, n + 1));
    },
    close: closer(k),
  };
}

export function openLasVegasTrials(n: number, seed: number, stopVegas: number, trials: number): LasVegasTrials {
  const k = acquire();
  if (k.lasVegasTrialsInit(n, seed, stopVegas, trials) === 0) throw outOfMemory(`las-vegas tries with n = ${n}`);
  const stat = k.lasVegasTrialsStat;
  const slot = offsets().trials;
  return {
    run: (workLimit: number) => k.lasVegasTrialsRun(workLimit) === 1,
    work: () => stat(slot.work),
    sums: () => ({
      tries: stat(slot.tries),
      successes: stat(slot.successes),
      successNodes: stat(slot.successNodes),
      successSquares: stat(slot.successSquares),
      failureNodes: stat(slot.failureNodes),
      failureSquares: stat(slot.failureSquares),
    }),
    close: closer(k),
  };
}

export function openLasVegasExact(n: number, stopVegas: number): LasVegasExactWalker {
  const k = acquire();
  const block = k.lasVegasExactInit(n, stopVegas);
  if (block === 0) throw outOfMemory(`the exact las-vegas walk with n = ${n}`);
  const { lasVegasExactColumns, lasVegasExactSums } = offsets();
  return {
    walk(columns: readonly number[]) {
      // Layout of assembly/las-vegas-stats.ts: i32[32] columns, f64[4] sums, at the offsets it exports.
      new Int32Array(k.memory.buffer, block + lasVegasExactColumns, 32).set(columns);
      k.lasVegasExactTask(columns.length);
      const [success, failure, successNodes, failureNodes] = new Float64Array(k.memory.buffer, block + lasVegasExactSums, 4);
      return { success, failure, successNodes, failureNodes };
    },
    close: closer(k),
  };
}
