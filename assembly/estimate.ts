// Knuth's estimate of the size of the backtracking tree (D. E. Knuth, "Estimating
// the efficiency of backtrack programs", Math. Comp. 29 (1975) 121-136; procedure
// `estimate` as Horowitz & Sahni teach it). The tree: the empty board and every consistent placement
// of rows 0..k-1, i.e. exactly the nodes exhaustive backtracking visits.
// One probe walks down from the empty board: at depth k it lists the safe columns
// of row k in increasing order (d = their count), multiplies the running product
// by d and places the queen at index below(d) (one draw per row that has a safe
// column, the last row included). The product after k rows, d1*d2*...*dk, is the
// probe's estimate of the number of nodes at depth k (0 past a dead end), and
// 1 + d1 + d1*d2 + ... its estimate of the whole tree; both are unbiased.
// Sums are f64 added in a fixed order (probe by probe, depth by depth), so both
// engines give the same bits however the probes are split into calls.
// Bitboards (bit c = column c): 1 <= n <= 32. Twin: src/engine/ts/estimate.ts.

import { allocate } from "./memory";
import { below, seedRandom } from "./rng";

let size: i32 = 0;
let full: u32 = 0;
let probes: f64 = 0;
// The sums block, laid out for any n <= 32 (exported: src/engine/wasm reads the offsets):
// f64[33] at byte 0, at depth k = 0..n the sum over probes of the depth-k product; the sum
// of the probes' whole estimates at ESTIMATE_TOTAL; then, from ESTIMATE_SQUARES, the sums
// of their squares in the same layout.
export const ESTIMATE_TOTAL: i32 = 264;
export const ESTIMATE_SQUARES: i32 = 272;
let sums: usize = 0;

/** Reset for an n x n board (1 <= n <= 32) and a seed; returns the sums block (see ESTIMATE_*), 0 if out of memory. */
export function estimateInit(n: i32, seed: u32): usize {
  assert(n >= 1 && n <= 32, "estimateInit: n out of 1..32");
  size = n;
  full = n == 32 ? 0xFFFFFFFF : ((<u32>1 << n) - 1);
  probes = 0;
  seedRandom(seed);
  sums = allocate(<usize>(2 * ESTIMATE_SQUARES));
  return sums;
}

/** Adds `value` at byte `offset` of the sums, and its square at the same place of the squares. */
@inline function add(offset: usize, value: f64): void {
  const at = sums + offset;
  store<f64>(at, load<f64>(at) + value);
  const sq = at + ESTIMATE_SQUARES;
  store<f64>(sq, load<f64>(sq) + value * value);
}

/** Run `count` more probes, adding them to the sums; returns the probes run so far. */
export function estimateRun(count: f64): f64 {
  for (let i: f64 = 0; i < count; i++) {
    let cols: u32 = 0, left: u32 = 0, right: u32 = 0;
    let product: f64 = 1; // the nodes this probe estimates at depth k
    let estimate: f64 = 0;
    let k = 0;
    while (true) {
      add(<usize>k << 3, product);
      estimate += product;
      if (k == size) break;
      let safe = ~(cols | left | right) & full;
      const d = popcnt<u32>(safe);
      if (d == 0) break;
      product *= <f64>d;
      for (let j = below(d); j > 0; j--) safe &= safe - 1; // drop the j lowest safe columns
      const bit = safe & (0 - safe);
      cols |= bit;
      left = (left | bit) << 1;
      right = (right | bit) >> 1;
      k++;
    }
    add(ESTIMATE_TOTAL, estimate);
    probes++;
  }
  return probes;
}
