// Knuth's estimate of the 64-bit complete search's tree, for solve's portfolio
// (complete-portfolio.ts): random probes from the root down the search's own choice of row
// or column at every level (build, without the lookahead), each probe's estimate 1 + k1 +
// k1 k2 + ..., ki the branches met at its level i, their mean the estimate of the tree's
// nodes. The probes build on the levels above the search's own (PROBE_BASE on, allocated by
// complete-state.ts), so a search in progress is left as it was and goes on where it stood;
// each level built is a node. The draws are a fixed xorshift32 sequence, so both engines
// make the same probes. Twin: src/engine/ts/complete-estimate.ts.

import { OPEN, size, rest, kind, index, at32, at64, build, countNode, rowOf, columnOf } from "./complete-state";

/** The probes solve's portfolio makes (relative error 10 to 30% on the hard Excluded Diagonals boards: it tells 10^8 from 10^14). */
export const ESTIMATE_PROBES: i32 = 256;

/** The seed of the probes' draws. */
const PROBE_SEED: u32 = 0x9e3779b9;
let draw: u32 = 0;

/** The next draw of xorshift32. */
@inline function nextDraw(): u32 {
  let x = draw;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  draw = x;
  return x;
}

/**
 * The mean of `probes` probes of the tree from the search's level 0 (its root, as the search
 * has it: filtered, and pruned by the lookahead where it ran); 1 when the root has no branch.
 */
export function estimateTree(probes: i32): f64 {
  const base = size + 1; // PROBE_BASE: the first level above the search's own
  draw = PROBE_SEED;
  countNode();
  if (build(0, base, -1, -1) != OPEN) return 1;
  let sum: f64 = 0;
  for (let p = 0; p < probes; p++) {
    let estimate: f64 = 1;
    let product: f64 = 1;
    for (let d = base; ; d++) {
      const left = load<u64>(at64(rest, d));
      const k = <u32>popcnt<u64>(left);
      if (k == 0) break;
      product *= <f64>k;
      estimate += product;
      // The j-th branch of the level (lowest first).
      let x = left;
      for (let j = nextDraw() % k; j > 0; j--) x &= x - 1;
      const b = <i32>ctz<u64>(x);
      const line = load<i32>(at32(index, d));
      const lineKind = load<i32>(at32(kind, d));
      countNode();
      if (build(d, d + 1, rowOf(lineKind, line, b), columnOf(lineKind, line, b)) != OPEN) break;
    }
    sum += estimate;
  }
  return sum / <f64>probes;
}
