// Twin of assembly/constellations.ts: the start-constellation counter, one task at a time.
// A task is a start constellation (the queens of row 0, row n-1, column 0 and column n-1,
// src/count/tasks.ts) plus queens preset on its first free rows; the rows left are searched
// top to bottom with one loop whose per-row tables (the border queens' attacks on that row,
// and how far to shift the diagonals to reach the next free row, 2 or 3 past a row a border
// queen holds) are made when the task starts, so the loop has no branch for the taken rows.
// Nodes are counted in bulk (a popcount of each row's candidates); the solutions below the
// last free row but one are counted in closed form (two columns are left: lastTwoRows), each
// also a node, as a search that placed them would count it. A constellation that a half or quarter turn maps to itself also
// has its turn-symmetric solutions counted by a small search over pairs of rows (not counted
// in nodes), which tells its solutions' classes of 2, 4 and 8 images.
// Masks are int32 (bit 31 is negative when n = 32); `down` also marks the 32 - n columns off
// the board, so ~(left | down | right | border) needs no mask.
import type { ConstellationTask, Counter, TaskCount } from "../contract.js";

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The solutions below the candidates `queens` of the last free row but one, without placing
 * them (assembly/constellations.ts's lastTwoRows): two columns are free there (f = ~down);
 * a queen on one leaves the last row the other, a solution if the last row's free squares
 * before that queen (`after`) hold it and the two are not on one diagonal (`s` rows apart).
 */
export function lastTwoRows(down: number, queens: number, after: number, s: number): number {
  const f = ~down, low = f & -f;
  // Without branches, as the Wasm twin (selects): (x | -x) >> 31 is -1 where x is not 0.
  const other = queens ^ f, apart = (low << s) ^ f ^ low; // (not 0: not both candidates; not on one diagonal)
  return popcount((f ^ (queens & ((other | -other) >> 31))) & after & ((apart | -apart) >> 31));
}

/**
 * The per-row tables of constellation (i, j, k, l) (queens at (0, i), (n - 1, j), (k, 0),
 * (l, n - 1)): for each free row by index, the border queens' diagonals on it (`border`) and
 * the rows to the next free row (`shift`); returns the last free row's index (-1: none). The
 * CPU counter and the GPU host (webgpu/constellations.ts) both build their tables with it.
 */
export function borderTables(n: number, i: number, j: number, k: number, l: number, border: Int32Array, shift: Int32Array): number {
  const queensAt: [number, number][] = [[0, i], [n - 1, j], [k, 0], [l, n - 1]];
  const free: number[] = [];
  for (let r = 1; r < n - 1; r++) if (r !== k && r !== l) free.push(r);
  const last = free.length - 1;
  for (let d = 0; d <= last; d++) {
    const r = free[d];
    let m = 0;
    for (const [qr, qc] of queensAt) {
      const dist = Math.abs(r - qr);
      if (qc + dist < n) m |= 1 << (qc + dist);
      if (qc - dist >= 0) m |= 1 << (qc - dist);
    }
    border[d] = m;
    shift[d] = d < last ? free[d + 1] - r : 0;
  }
  return last;
}

/** How a constellation maps to itself: 2 under a quarter turn, 1 under a half turn only, 0 not at all. */
export function constellationSymmetry(n: number, i: number, j: number, k: number, l: number): 0 | 1 | 2 {
  if (i !== n - 1 - j || k !== n - 1 - l) return 0;
  return k === j && l === i ? 2 : 1;
}

/**
 * The solutions of the constellation (i, j, k, l) that a half turn maps to themselves (`half`),
 * and among them those a quarter turn does (`quarter`): queens are placed in pairs, (r, c) with
 * (n-1-r, n-1-c), over the free rows of the upper half (and the centre for odd n).
 */
export function turnSymmetric(n: number, i: number, j: number, k: number, l: number): { half: number; quarter: number } {
  const cols = new Uint8Array(n), sums = new Uint8Array(2 * n), diffs = new Uint8Array(2 * n);
  const board = new Int32Array(n).fill(-1);
  let half = 0, quarter = 0;
  const free = (r: number, c: number): boolean => board[r] < 0 && !cols[c] && !sums[r + c] && !diffs[r - c + n];
  const set = (r: number, c: number, on: 0 | 1): void => {
    board[r] = on ? c : -1;
    cols[c] = on; sums[r + c] = on; diffs[r - c + n] = on;
  };
  for (const [r, c] of [[0, i], [n - 1, j], [k, 0], [l, n - 1]]) if (board[r] !== c) set(r, c, 1);
  const upper: number[] = [];
  for (let r = 1; r < n - 1 - r; r++) if (board[r] < 0) upper.push(r);
  const middle = (n - 1) / 2;
  if (n % 2 === 1) {
    if (!free(middle, middle)) return { half, quarter };
    set(middle, middle, 1);
  }
  const place = (at: number): void => {
    if (at === upper.length) {
      half++;
      let turns = true; // a quarter turn takes (r, c) to (c, n-1-r)
      for (let r = 0; r < n && turns; r++) turns = board[board[r]] === n - 1 - r;
      if (turns) quarter++;
      return;
    }
    const r = upper[at];
    for (let c = 0; c < n; c++) {
      if (!free(r, c)) continue;
      set(r, c, 1);
      if (free(n - 1 - r, n - 1 - c)) {
        set(n - 1 - r, n - 1 - c, 1);
        place(at + 1);
        set(n - 1 - r, n - 1 - c, 0);
      }
      set(r, c, 0);
    }
  };
  place(0);
  return { half, quarter };
}

/** A counter of constellation tasks for n x n boards (4 <= n <= 32). */
export function openConstellationCounter(n: number): Counter<ConstellationTask> {
  const offBoard = n === 32 ? 0 : ~((1 << n) - 1);
  const border = new Int32Array(32); // per free row (by index): the border queens' diagonals on it
  const shift = new Int32Array(32); // per free row: rows to the next free row
  const stack = new Int32Array(5 * 32); // a pushed row: [queens left, left, down, right, index]
  // What the loop reads at free row a, in one array (one base and bound, not two): shift[a],
  // border[a + 1], shift[a + 1], border[a + 2] at 4a (count(15) 0.86 of separate arrays with
  // the int32 hints in run(), CPU, interleaved).
  const rowTab = new Int32Array(4 * 32);
  let last = 0; // index of the last free row
  let sp = 0;
  let left = 0, down = 0, right = 0, queens = 0, at = 0; // the current row
  let done = true;
  let solutions = 0, nodes = 0; // since the last flush (kept below 2^53)
  let solutionsTotal = 0n, nodesTotal = 0n;
  let symmetry: 0 | 1 | 2 = 0, half = 0, quarter = 0;

  function flush(): void {
    solutionsTotal += BigInt(solutions);
    nodesTotal += BigInt(nodes);
    solutions = 0;
    nodes = 0;
  }

  function start(task: ConstellationTask): void {
    const { i, j, k, l, rows } = task;
    solutions = 0; nodes = 0; solutionsTotal = 0n; nodesTotal = 0n;
    last = borderTables(n, i, j, k, l, border, shift);
    for (let a = 0; a <= last; a++) rowTab.set([shift[a], border[a + 1], shift[a + 1], border[a + 2]], 4 * a); // (past the ends: unread)
    symmetry = constellationSymmetry(n, i, j, k, l);
    ({ half, quarter } = symmetry ? turnSymmetric(n, i, j, k, l) : { half: 0, quarter: 0 });
    left = 0; right = 0; down = offBoard | (1 << i) | (1 << j) | 1 | (1 << (n - 1));
    sp = 0;
    done = true;
    if (last < 0) { solutions = 1; nodes = 1; return; } // n = 4: the border queens fill the board (one leaf)
    // The preset rows (a queen that does not fit leaves the task empty).
    for (at = 0; at < rows.length; at++) {
      const bit = 1 << rows[at];
      if (~(left | down | right | border[at]) & bit & ~offBoard) {
        left = (left | bit) << shift[at];
        down |= bit;
        right = (right | bit) >>> shift[at];
      } else return;
    }
    queens = ~(left | down | right | border[at]);
    const k0 = popcount(queens);
    nodes += k0;
    if (at === last) { solutions += k0; return; }
    if (queens !== 0 && at === last - 1) {
      const s = shift[at];
      const found = lastTwoRows(down, queens, ~((left << s) | down | (right >>> s) | border[at + 1]), s);
      nodes += found;
      solutions += found;
      return;
    }
    done = queens === 0;
  }

  /** Searches until the task is done (true) or about `budget` more nodes are placed (false: call again). */
  function run(budget: number): boolean {
    if (done) return true;
    // The search's state in locals, not the closure's slots (written back when it stops), and
    // the nodes since the last pop in an int32 (`c`), added to the float `count` at each pop.
    // The `| 0`s keep every one of them an int32 in TurboFan's code (no tagged loop values,
    // no overflow checks on the sums).
    let l = left | 0, d = down | 0, r = right | 0, q = queens | 0, a = at | 0, p = sp | 0, count = nodes, found = solutions;
    let c = 0; // nodes since the last pop (int32)
    const limit = count + budget, end = (last - 2) | 0;
    for (;;) {
      if (q === 0) {
        count += c; c = 0;
        if (p === 0) break;
        if (count >= limit) {
          left = l; down = d; right = r; queens = 0; at = a; sp = p; nodes = count; solutions = found;
          flush();
          return false;
        }
        p = (p - 5) | 0;
        q = stack[p] | 0; l = stack[p + 1] | 0; d = stack[p + 2] | 0; r = stack[p + 3] | 0; a = stack[p + 4] | 0;
      }
      const bit = q & -q;
      q ^= bit;
      const t = a << 2;
      const s = rowTab[t];
      const nextLeft = (l | bit) << s, nextDown = d | bit, nextRight = (r | bit) >>> s;
      const next = ~(nextLeft | nextDown | nextRight | rowTab[t + 1]);
      if (next === 0) continue;
      const s2 = rowTab[t + 2];
      const after = ~((nextLeft << s2) | nextDown | (nextRight >>> s2) | rowTab[t + 3]);
      if (a === end) { // the next row is the last but one: its queens' solutions in closed form
        const more = lastTwoRows(nextDown, next, after, s2);
        c = (c + popcount(next) + more) | 0;
        found += more;
        continue;
      }
      c = (c + popcount(next)) | 0;
      // The row after next is full even before a queen goes on the next one: no candidate
      // there has a child (the node count is the same without this).
      if (after === 0) continue;
      // Where the row after next has one free square, the next row's queens that attack it
      // leave that row empty: they are not tried (the node count is the same without this).
      // Without branches, as the Wasm twin (selects; which way they go is hard to predict):
      // (x | -x) >> 31 is -1 where x is not 0, and (x | -x) >>> 31 is 1.
      const more = after & (after - 1); // (not 0: two or more free squares there)
      const killers = (after | (after << s2) | (after >>> s2)) & ~((more | -more) >> 31);
      // pushed while it has untried queens (written always, kept by moving p or not)
      stack[p] = q; stack[p + 1] = l; stack[p + 2] = d; stack[p + 3] = r; stack[p + 4] = a;
      p = (p + ((q | -q) >>> 31) * 5) | 0;
      l = nextLeft; d = nextDown; r = nextRight; q = next & ~killers; a = (a + 1) | 0;
    }
    nodes = count; solutions = found; sp = 0; queens = 0;
    flush();
    done = true;
    return true;
  }

  function result(): TaskCount {
    const s = solutionsTotal + BigInt(solutions), nodesNow = nodesTotal + BigInt(nodes);
    const a = BigInt(half), b = BigInt(quarter);
    // Solutions of this constellation by class: a quarter-turn-symmetric constellation holds
    // 4 of each class of 8, 2 of each class of 4 and 1 of each class of 2; a half-turn one
    // 2 of each class of 8 and 1 of each class of 4; any other one 1 of each class of 8.
    if (symmetry === 2) return { count8: (s - a) / 4n, count4: (a - b) / 2n, count2: b, nodes: nodesNow };
    if (symmetry === 1) return { count8: (s - a) / 2n, count4: a, count2: 0n, nodes: nodesNow };
    return { count8: s, count4: 0n, count2: 0n, nodes: nodesNow };
  }

  return {
    countTask(task) {
      start(task);
      run(Infinity);
      return result();
    },
    start,
    run: (workLimit) => run(Math.max(1, workLimit)),
    result,
    close() {},
  };
}
