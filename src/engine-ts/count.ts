// Twin of assembly/count.ts: takaken's full-symmetry counter, one task at a time.
// Masks are kept unsigned with >>> 0 so n = 32 behaves as in Wasm's u32.
import type { CountTask, Counter, TaskCount } from "../engine.js";

export function openCounter(n: number): Counter {
  const size = n;
  const lastRow = n - 1;
  const mask = n === 32 ? 0xffffffff : (1 << n) - 1;
  const topBit = 2 ** lastRow;
  const sideMask = (topBit + 1) >>> 0;
  const board = new Uint32Array(32);
  let lastMask = 0;
  let endBit = 0;
  let bound1 = 0;
  let bound2 = 0;
  let count8 = 0;
  let count4 = 0;
  let count2 = 0;
  let nodes = 0;

  function checkSymmetry(): void {
    let own: number, you: number, bit: number, ptn: number;
    // 90-degree rotation
    if (board[bound2] === 1) {
      for (own = 1, ptn = 2; own <= lastRow; own++, ptn = (ptn << 1) >>> 0) {
        bit = 1;
        for (you = lastRow; board[you] !== ptn && board[own] >= bit; you--) bit = (bit << 1) >>> 0;
        if (board[own] > bit) return;
        if (board[own] < bit) break;
      }
      if (own > lastRow) { count2++; return; }
    }
    // 180-degree rotation
    if (board[lastRow] === endBit) {
      for (own = 1, you = lastRow - 1; own <= lastRow; own++, you--) {
        bit = 1;
        for (ptn = topBit; ptn !== board[you] && board[own] >= bit; ptn >>>= 1) bit = (bit << 1) >>> 0;
        if (board[own] > bit) return;
        if (board[own] < bit) break;
      }
      if (own > lastRow) { count4++; return; }
    }
    // 270-degree rotation
    if (board[bound1] === topBit) {
      for (own = 1, ptn = topBit >>> 1; own <= lastRow; own++, ptn >>>= 1) {
        bit = 1;
        for (you = 0; board[you] !== ptn && board[own] >= bit; you++) bit = (bit << 1) >>> 0;
        if (board[own] > bit) return;
        if (board[own] < bit) break;
      }
    }
    count8++;
  }

  function searchCorner(y: number, left: number, down: number, right: number): void {
    let bitmap = (mask & ~(left | down | right)) >>> 0;
    if (y === lastRow) {
      if (bitmap) { board[y] = bitmap; nodes++; count8++; }
      return;
    }
    if (y < bound1) bitmap = (bitmap & ~2) >>> 0;
    while (bitmap) {
      const bit = (bitmap & -bitmap) >>> 0;
      bitmap = (bitmap ^ bit) >>> 0;
      board[y] = bit;
      nodes++;
      searchCorner(y + 1, (left | bit) << 1, down | bit, (right | bit) >>> 1);
    }
  }

  function searchSide(y: number, left: number, down: number, right: number): void {
    let bitmap = (mask & ~(left | down | right)) >>> 0;
    if (y === lastRow) {
      if (bitmap && !(bitmap & lastMask)) { board[y] = bitmap; nodes++; checkSymmetry(); }
      return;
    }
    if (y < bound1) {
      bitmap = (bitmap & ~sideMask) >>> 0;
    } else if (y === bound2) {
      if (!(down & sideMask)) return;
      if (((down & sideMask) >>> 0) !== sideMask) bitmap = (bitmap & sideMask) >>> 0;
    }
    while (bitmap) {
      const bit = (bitmap & -bitmap) >>> 0;
      bitmap = (bitmap ^ bit) >>> 0;
      board[y] = bit;
      nodes++;
      searchSide(y + 1, (left | bit) << 1, down | bit, (right | bit) >>> 1);
    }
  }

  function countTask(task: CountTask): TaskCount {
    count8 = count4 = count2 = nodes = 0;
    let left = 0, down = 0, right = 0;
    for (let y = 0; y < task.rows.length; y++) {
      const bit = 2 ** task.rows[y];
      board[y] = bit;
      left = (left | bit) << 1;
      down |= bit;
      right = (right | bit) >>> 1;
    }
    bound1 = task.bound1;
    if (task.kind === 1) {
      searchCorner(task.rows.length, left, down, right);
    } else {
      bound2 = size - 1 - bound1;
      const low = 2 ** bound1 - 1;
      lastMask = (low | (low * 2 ** (size - bound1))) >>> 0;
      endBit = topBit >>> bound1;
      searchSide(task.rows.length, left, down, right);
    }
    return { count8: BigInt(count8), count4: BigInt(count4), count2: BigInt(count2), nodes: BigInt(nodes) };
  }

  return { countTask, close() {} };
}
