// Twin of assembly/min-conflicts-windows.ts (read its header): min-conflicts' windowed group
// draws, apart so that src/engine/ts/min-conflicts.ts stays readable. The same windows, the
// same draws; the search reads a block's window (first, groups) once a row.
import type { Random } from "./rng.js";
import { draw, openColumns, popcount } from "./min-conflicts-bits.js";
import { WINDOW_GROUPS, WINDOW_SAMPLE } from "./min-conflicts-params.js";

export class Windows {
  /** The windows (1: no windows, every row draws from every group). */
  readonly count: number;
  /** The block's window: its first column (32 times its first group) and its groups. */
  first = 0;
  groups: number;

  constructor(private readonly groupCount: number, windowed: boolean) {
    this.count = windowed ? Math.max(1, Math.floor((groupCount + (WINDOW_GROUPS >> 1)) / WINDOW_GROUPS)) : 1;
    this.groups = groupCount;
  }

  /** The first group of window w (w = count: one past the last group). */
  private start(w: number): number {
    return Math.floor((w * this.groupCount) / this.count); // (exact: w groups < 2^53)
  }

  /** Row r's open squares on every WINDOW_SAMPLE-th group of window w. */
  private open(w: number, r: number, n: number, used: Uint32Array, sum: Uint32Array, diff: Uint32Array): number {
    const base = n - 1 - r;
    let open = 0;
    for (let g = this.start(w), next = this.start(w + 1); g < next; g += WINDOW_SAMPLE) {
      const f = g << 5;
      open += popcount(openColumns(used, f, sum, r + f, diff, f + base));
    }
    return open;
  }

  /** The next block's window, for its first row r (first, groups); the draws it made. */
  next(random: Random, r: number, n: number, used: Uint32Array, sum: Uint32Array, diff: Uint32Array): number {
    const a = draw(random, this.count);
    const b = draw(random, this.count);
    const w = this.open(b, r, n, used, sum, diff) > this.open(a, r, n, used, sum, diff) ? b : a;
    this.first = this.start(w) << 5;
    this.groups = this.start(w + 1) - this.start(w);
    return 2;
  }
}
