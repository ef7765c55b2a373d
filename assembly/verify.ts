// O(n) solution check with bitsets: one bit per column, per row+col diagonal and
// per row-col diagonal (5n bits in all). Twin: src/engine/ts/verify.ts.

import { allocate } from "./memory";

let capacity: i32 = -1;
let input: usize = 0;
let bits: usize = 0;

/** Buffer for n columns (i32), to be filled by the caller; 0 if out of memory. */
export function verifyInput(n: i32): usize {
  if (n > capacity) {
    input = allocate(<usize>n << 2);
    bits = allocate(((<usize>n * 5 + 63) >> 6) << 3);
    if (input == 0 || bits == 0) return 0;
    capacity = n;
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
 * How many times a queen lands on a column or diagonal that an earlier row already
 * holds (0 means a solution). Columns must be in [0, n) (checked by the caller).
 */
export function verifyRepeats(n: i32): i32 {
  let repeats = 0;
  const sumBase = <usize>n;
  const diffBase = <usize>n * 4 - 1;
  for (let r = 0; r < n; r++) {
    const c = load<i32>(input + (<usize>r << 2));
    if (testAndSet(<usize>c)) repeats++;
    if (testAndSet(sumBase + <usize>(r + c))) repeats++;
    if (testAndSet(diffBase + <usize>r - <usize>c)) repeats++;
  }
  return repeats;
}
