// O(n) solution check with bitsets: one bit per column, per row+col diagonal and
// per row-col diagonal (5n bits in all). Twin: src/engine/ts/verify.ts. From n = 2^24
// (bits of 10 MB and more) the lines of a slice of rows are first sorted by region of
// 512 KB of bits (a counting sort), so that each region's random loads stay within the
// TLB's reach: 0.8 s where the rows in order took 1.4 to 2.4 at n = 3 x 10^7, 3.7 s against
// 5.1 to 8.6 at 10^8 (at 10^7 the 6 MB of bits mostly hit: 0.26 s against 0.18, so not
// there). A line's repeats (its queens less one) do not depend on the order: the same count.

import { allocate } from "./memory";

let capacity: i32 = -1; // queens the bits are for
let windowRows: i32 = 0; // columns the window holds
let input: usize = 0;
let bits: usize = 0;
let lines: usize = 0; // u32 [3 rows]: a slice's lines, sorted by region (from SORTED_FROM)
let starts: usize = 0; // u32 [regions + 1]: where each region's lines start in `lines`
let regions: i32 = 0;

const SORTED_FROM: i32 = 1 << 24;
/** Bits per region: 2^22, 512 KB. */
const REGION_SHIFT: u32 = 22;

/**
 * A window for `rows` columns (i32) at a time, which the caller fills with the rows it
 * checks next (all n, or slices of them), and cleared bits for n queens; the window, 0 if
 * out of memory. At n = 10^8 a window of 2^20 rows takes 4 MB where the whole board took 400.
 */
export function verifyInput(n: i32, rows: i32): usize {
  if (n > capacity || rows > windowRows) {
    input = allocate(<usize>rows << 2);
    bits = allocate(((<usize>n * 5 + 63) >> 6) << 3);
    if (input == 0 || bits == 0) return 0;
    if (n >= SORTED_FROM) {
      regions = <i32>((<u64>n * 5 + (1 << REGION_SHIFT) - 1) >> REGION_SHIFT);
      lines = allocate(<usize>rows * 12);
      starts = allocate(<usize>(regions + 1) << 2);
      if (lines == 0 || starts == 0) return 0;
    }
    capacity = n;
    windowRows = rows;
  } else {
    memory.fill(bits, 0, ((<usize>n * 5 + 63) >> 6) << 3);
  }
  return input;
}

/** Set bit i; true if it was set already. */
@inline function testAndSet(i: usize): bool {
  const word = bits + ((i >> 5) << 2);
  const b: u32 = <u32>1 << <u32>(i & 31);
  const w = load<u32>(word);
  store<u32>(word, w | b);
  return (w & b) != 0;
}

/**
 * How many times a queen of rows from .. to - 1 lands on a column or diagonal that an
 * earlier row already holds: over rows 0 .. n - 1 in order, in one call or several, the
 * repeats of the board (0 means a solution). Columns must be in [0, n) (checked by the
 * caller). The host calls it in slices at large n: V8 runs a call to its end in the code
 * it started with, and only a later call gets the optimised code.
 */
export function verifyRepeats(n: i32, from: i32, to: i32): i32 { // (to - from <= the window's rows)
  if (n >= SORTED_FROM) return sortedRepeats(n, from, to);
  let repeats = 0;
  const sumBase = <usize>n;
  const diffBase = <usize>n * 4 - 1;
  for (let r = from; r < to; r++) {
    const c = load<i32>(input + (<usize>(r - from) << 2)); // the window holds rows from .. to - 1
    if (testAndSet(<usize>c)) repeats++;
    if (testAndSet(sumBase + <usize>(r + c))) repeats++;
    if (testAndSet(diffBase + <usize>r - <usize>c)) repeats++;
  }
  return repeats;
}

@inline function countLine(line: u32): void {
  const at = starts + (<usize>((line >> REGION_SHIFT) + 1) << 2);
  store<u32>(at, load<u32>(at) + 1);
}

@inline function placeLine(line: u32): void {
  const at = starts + (<usize>(line >> REGION_SHIFT) << 2);
  const k = load<u32>(at);
  store<u32>(at, k + 1);
  store<u32>(lines + (<usize>k << 2), line);
}

/** verifyRepeats for n >= SORTED_FROM: the slice's 3 (to - from) lines counted by region, placed by region, then set. */
function sortedRepeats(n: i32, from: i32, to: i32): i32 {
  const sumBase = <u32>n, diffBase = <u32>n * 4 - 1;
  memory.fill(starts, 0, <usize>(regions + 1) << 2);
  for (let r = from; r < to; r++) {
    const c = <u32>load<i32>(input + (<usize>(r - from) << 2));
    countLine(c);
    countLine(sumBase + <u32>r + c);
    countLine(diffBase + <u32>r - c);
  }
  for (let k = 1; k <= regions; k++) {
    const at = starts + (<usize>k << 2);
    store<u32>(at, load<u32>(at) + load<u32>(at - 4));
  }
  for (let r = from; r < to; r++) {
    const c = <u32>load<i32>(input + (<usize>(r - from) << 2));
    placeLine(c);
    placeLine(sumBase + <u32>r + c);
    placeLine(diffBase + <u32>r - c);
  }
  let repeats = 0;
  const total = (to - from) * 3;
  for (let k = 0; k < total; k++) {
    if (testAndSet(<usize>load<u32>(lines + (<usize>k << 2)))) repeats++;
  }
  return repeats;
}
