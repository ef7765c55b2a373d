// Twin of assembly/count.ts: takaken's full-symmetry counter, one task at a time,
// with the same loop: an explicit stack that holds a row only while it has queens
// left, `down` marking the 32 - n columns off the board so that popcount(down)
// tells the row, a per-task row table, nodes counted in bulk per row entered.
// Masks are int32 in the loop (bit 31 is negative when n = 32) and only tested
// against 0 or compared for equality; the board is a Uint32Array, so the rotation
// check compares unsigned values as Wasm's u32 does.
import type { CountTask, Counter, TaskCount } from "../contract.js";

// Row kinds (see assembly/count.ts).
const PLAIN = 0, PRUNE = 1, BOUND2 = 2, LEAF_CORNER = 3, LEAF_SIDE = 4;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

// One closure of about 220 lines: the prefix counter's explicit stack and its tables live in
// the closure's locals, as the kernel's in assembly/count.ts, and the resumable run(), the
// prefix split and the results share them; this is the reference every other counter is
// checked against, kept in the kernel's shape so the two can be read side by side.
export function openCounter(n: number): Counter {
  const size = n;
  const lastRow = n - 1;
  const off = 32 - n;
  const mask = n === 32 ? -1 : ((1 << n) - 1) | 0;
  const topBit = 2 ** lastRow;
  const sideMask = (topBit + 1) | 0;
  const stack = new Int32Array(4 * 32); // a pushed row: [queens left, left, down, right]
  const byCount = new Uint32Array(34); // the board, indexed by popcount(down) of the row below
  const board = off + 1; // row y is byCount[board + y]
  const kinds = new Uint8Array(40);
  let lastMask = 0;
  let endBit = 0;
  let pruneMask = 0;
  let bound1 = 0;
  let bound2 = 0;
  let count8 = 0;
  let count4 = 0;
  let count2 = 0;
  let nodes = 0; // since the last flush into the bigint totals (kept below 2^53)
  let count8Total = 0n, count4Total = 0n, count2Total = 0n, nodesTotal = 0n;
  let atLeft = 0, atDown = 0, atRight = 0, atQueens = 0; // the row run() returned from
  let resumeSp = -1; // run()'s stack index to resume with; -1: the task is done
  let budget = 0; // nodes left in this chunk
  let paused = false; // run() returned because the budget ran out (not for a rotation check)

  const row = (y: number): number => byCount[board + y];

  function checkSymmetry(): void {
    let own: number, you: number, bit: number, ptn: number;
    // 90-degree rotation
    if (row(bound2) === 1) {
      for (own = 1, ptn = 2; own <= lastRow; own++, ptn = (ptn << 1) >>> 0) {
        bit = 1;
        for (you = lastRow; row(you) !== ptn && row(own) >= bit; you--) bit = (bit << 1) >>> 0;
        if (row(own) > bit) return;
        if (row(own) < bit) break;
      }
      if (own > lastRow) { count2++; return; }
    }
    // 180-degree rotation
    if (row(lastRow) === endBit) {
      for (own = 1, you = lastRow - 1; own <= lastRow; own++, you--) {
        bit = 1;
        for (ptn = topBit; ptn !== row(you) && row(own) >= bit; ptn >>>= 1) bit = (bit << 1) >>> 0;
        if (row(own) > bit) return;
        if (row(own) < bit) break;
      }
      if (own > lastRow) { count4++; return; }
    }
    // 270-degree rotation
    if (row(bound1) === topBit) {
      for (own = 1, ptn = topBit >>> 1; own <= lastRow; own++, ptn >>>= 1) {
        bit = 1;
        for (you = 0; row(you) !== ptn && row(own) >= bit; you++) bit = (bit << 1) >>> 0;
        if (row(own) > bit) return;
        if (row(own) < bit) break;
      }
    }
    count8++;
  }

  function bound2Rule(down: number, queens: number): number {
    const edges = down & sideMask;
    return edges === sideMask ? queens : edges ? queens & sideMask : queens & edges; // (edges = 0: none)
  }

  /**
   * As in assembly/count.ts, but the stack pointer is an index (-1: the task is done),
   * and a pause for the budget sets `paused`.
   * Everything the loop reads is copied into locals first: later counters are
   * closures of the same code, which V8 does not specialise to their context.
   */
  function run(sp: number): number {
    const rows = stack, queensOf = byCount, kindOf = kinds;
    const leafMask = lastMask, prune = pruneMask, sides = sideMask, end = endBit;
    const rowBound1 = board + bound1, rowBound2 = board + bound2;
    let left = atLeft, down = atDown, right = atRight, queens = atQueens;
    let placed = 0, found = 0;
    const limit = budget;
    for (;;) {
      if (!queens) {
        if (sp === 0) { sp = -1; break; }
        if (placed >= limit) {
          atLeft = left; atDown = down; atRight = right; atQueens = 0;
          paused = true;
          break;
        }
        sp -= 4;
        queens = rows[sp]; left = rows[sp + 1]; down = rows[sp + 2]; right = rows[sp + 3];
      }
      const bit = queens & -queens;
      queens ^= bit;
      const nextDown = down | bit;
      let next = ~(((left | bit) << 1) | nextDown | ((right | bit) >>> 1));
      if (!next) continue;
      const k = popcount(nextDown); // the next row + off
      queensOf[k] = bit;
      const kind = kindOf[k];
      if (kind) {
        if (kind >= LEAF_CORNER) { // `next` is the last row's one free column
          if (kind === LEAF_CORNER) {
            placed++;
            found++;
          } else if (!(next & leafMask)) {
            placed++;
            queensOf[k + 1] = next;
            if (queensOf[rowBound2] !== 1 && next >>> 0 !== end && queensOf[rowBound1] !== topBit) {
              found++;
            } else {
              atLeft = left; atDown = down; atRight = right; atQueens = queens;
              break;
            }
          }
          continue;
        }
        if (kind === PRUNE) {
          next &= prune;
        } else { // BOUND2, as bound2Rule
          const edges = nextDown & sides;
          next = edges === sides ? next : edges ? next & sides : next & edges;
        }
        if (!next) continue;
      }
      placed += popcount(next);
      if (queens) {
        rows[sp] = queens; rows[sp + 1] = left; rows[sp + 2] = down; rows[sp + 3] = right;
        sp += 4;
      }
      left = (left | bit) << 1; down = nextDown; right = (right | bit) >>> 1; queens = next;
    }
    nodes += placed;
    count8 += found;
    budget -= placed;
    return sp;
  }

  function flush(): void {
    count8Total += BigInt(count8); count4Total += BigInt(count4); count2Total += BigInt(count2); nodesTotal += BigInt(nodes);
    count8 = count4 = count2 = nodes = 0;
  }

  function start(task: CountTask): void {
    count8 = count4 = count2 = nodes = 0;
    count8Total = count4Total = count2Total = nodesTotal = 0n;
    resumeSp = -1;
    const depth = task.rows.length;
    let left = 0, down = ~mask, right = 0;
    for (let y = 0; y < depth; y++) {
      const bit = 1 << task.rows[y];
      byCount[board + y] = bit;
      left = (left | bit) << 1;
      down |= bit;
      right = (right | bit) >>> 1;
    }
    const side = task.kind !== 1;
    bound1 = task.bound1;
    if (side) {
      bound2 = size - 1 - bound1;
      const low = 2 ** bound1 - 1;
      lastMask = (low | (low * 2 ** (size - bound1))) | 0;
      endBit = topBit >>> bound1;
      pruneMask = ~sideMask;
    } else {
      bound2 = 0;
      pruneMask = ~2;
    }
    kinds.fill(PLAIN);
    for (let y = depth; y < bound1; y++) kinds[y + off] = PRUNE;
    if (side && bound2 >= depth) kinds[bound2 + off] = BOUND2;
    kinds[lastRow + off] = side ? LEAF_SIDE : LEAF_CORNER;
    // The row-`depth` queens, as run() would find them.
    let queens = ~(left | down | right);
    const first = kinds[depth + off];
    if (first >= LEAF_CORNER) { // depth == lastRow: the task is one leaf
      if (queens && (!side || !(queens & lastMask))) {
        nodes++;
        byCount[board + lastRow] = queens;
        if (side) checkSymmetry(); else count8++;
      }
    } else {
      if (first === PRUNE) queens &= pruneMask;
      else if (first === BOUND2) queens = bound2Rule(down, queens);
      nodes += popcount(queens);
      atLeft = left; atDown = down; atRight = right; atQueens = queens;
      resumeSp = 0;
    }
  }

  /** As countRun in assembly/count.ts: true when the task is done. */
  function runFor(workLimit: number): boolean {
    if (resumeSp < 0) return true;
    budget = Math.max(1, workLimit);
    paused = false;
    let sp = run(resumeSp);
    while (sp >= 0 && !paused) {
      checkSymmetry();
      sp = run(sp);
    }
    if (nodes > 2 ** 50) flush(); // numbers stay exact; bigints only when they must (or in result())
    resumeSp = sp;
    return sp < 0;
  }

  function result(): TaskCount {
    flush();
    return { count8: count8Total, count4: count4Total, count2: count2Total, nodes: nodesTotal };
  }

  function countTask(task: CountTask): TaskCount {
    start(task);
    while (!runFor(2 ** 40));
    return result();
  }

  return { countTask, start, run: runFor, result, close() {} };
}
