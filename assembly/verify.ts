// O(n) solution check with bitsets: one bit per column, per row+col diagonal and
// per row-col diagonal (5n bits in all). Twin: src/engine/ts/verify.ts.

import { allocate } from "./memory";

let capacity: i32 = -1; // queens the bits are for
let windowRows: i32 = 0; // columns the window holds
let input: usize = 0;
let bits: usize = 0;

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
