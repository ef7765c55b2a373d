// Constrained boards on the Wasm side: the host writes the normalised
// constraints of src/board/constraints.ts into memory (constraintsInput), and every
// kernel that honours them reads them here. constraintsClear (called by the host for
// a plain job) makes every kernel behave exactly as on the plain problem.
//
// Layout from the pointer constraintsInput returns (i32 each):
//   fixedColumn[n] (-1: none), blockedStart[n + 1], blockedCols[blockedCount]

import { allocate } from "./memory";

/** True while the current job has constraints (set by constraintsInput, cleared by constraintsClear). */
export let constrained: bool = false;
let fixedAt: usize = 0;
let startAt: usize = 0;
let colsAt: usize = 0;

/** Room for an n x n board's constraints with `blockedCount` blocked squares; 0 if out of memory. */
export function constraintsInput(n: i32, blockedCount: i32): usize {
  const base = allocate((<usize>(2 * n + 1 + blockedCount)) << 2);
  if (base == 0) return 0;
  fixedAt = base;
  startAt = base + (<usize>n << 2);
  colsAt = startAt + (<usize>(n + 1) << 2);
  constrained = true;
  return base;
}

/** Whether the current job has constraints. */
export function hasConstraints(): bool {
  return constrained;
}

/** The next job is the plain problem. */
export function constraintsClear(): void {
  constrained = false;
}

/** Column of row r's given queen, -1 if none (always -1 without constraints). */
export function fixedColumn(r: i32): i32 {
  return constrained ? load<i32>(fixedAt + (<usize>r << 2)) : -1;
}

/** Whether square (r, c) is blocked (binary search in row r's sorted list). */
export function isBlocked(r: i32, c: i32): bool {
  if (!constrained) return false;
  let lo = load<i32>(startAt + (<usize>r << 2));
  let hi = load<i32>(startAt + (<usize>(r + 1) << 2)) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = load<i32>(colsAt + (<usize>mid << 2));
    if (v == c) return true;
    if (v < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Whether row r has any blocked square or a given queen (a fast test before the per-square ones). */
export function rowConstrained(r: i32): bool {
  if (!constrained) return false;
  return load<i32>(fixedAt + (<usize>r << 2)) >= 0 ||
    load<i32>(startAt + (<usize>r << 2)) != load<i32>(startAt + (<usize>(r + 1) << 2));
}

/** Row r's allowed columns as a bitmask, n <= 64: the given queen's column alone, or every column not blocked. */
export function allowedMask(r: i32, n: i32): u64 {
  const full: u64 = n == 64 ? ~(<u64>0) : ((<u64>1 << <u64>n) - 1);
  if (!constrained) return full;
  const f = load<i32>(fixedAt + (<usize>r << 2));
  if (f >= 0) return <u64>1 << <u64>f;
  let mask = full;
  const end = load<i32>(startAt + (<usize>(r + 1) << 2));
  for (let i = load<i32>(startAt + (<usize>r << 2)); i < end; i++) mask &= ~(<u64>1 << <u64>load<i32>(colsAt + (<usize>i << 2)));
  return mask;
}

/** Row r's allowed columns as `words` u64 words at `dst` (column c: bit c & 63 of word c >> 6), any n: the wide form of allowedMask. */
export function allowedWords(r: i32, n: i32, dst: usize, words: i32): void {
  const f = constrained ? load<i32>(fixedAt + (<usize>r << 2)) : -1;
  for (let w = 0; w < words; w++) {
    let word: u64 = 0;
    if (f < 0) {
      const left = n - (w << 6);
      word = left >= 64 ? ~(<u64>0) : ((<u64>1 << <u64>left) - 1);
    }
    store<u64>(dst + (<usize>w << 3), word);
  }
  if (f >= 0) {
    store<u64>(dst + (<usize>(f >> 6) << 3), <u64>1 << <u64>(f & 63));
    return;
  }
  if (!constrained) return;
  const end = load<i32>(startAt + (<usize>(r + 1) << 2));
  for (let i = load<i32>(startAt + (<usize>r << 2)); i < end; i++) {
    const c = load<i32>(colsAt + (<usize>i << 2));
    const at = dst + (<usize>(c >> 6) << 3);
    store<u64>(at, load<u64>(at) & ~(<u64>1 << <u64>(c & 63)));
  }
}
