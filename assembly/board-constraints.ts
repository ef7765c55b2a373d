// The constraints of a board (queens given in advance, blocked squares; issue 15) as
// the search kernels read them. src/engine/wasm/index.ts copies src/board/constraints.ts's
// normalised form into Wasm memory and passes its address to a kernel's Init
// (0: no constraints, the plain problem): i32[n] the given column of each row (-1: none),
// i32[n + 1] blockedStart, then the blocked columns, sorted within each row.
// Twin: src/engine/ts/board-constraints.ts.

import { allocate } from "./memory";

let size: i32 = 0;
let fixedBase: usize = 0;
let startBase: usize = 0;
let colsBase: usize = 0;

/** Read the constraints at `at` for an n x n board; false (nothing to honour) when `at` is 0. */
export function loadConstraints(n: i32, at: usize): bool {
  size = n;
  fixedBase = at;
  startBase = at + (<usize>n << 2);
  colsBase = startBase + (<usize>(n + 1) << 2);
  return at != 0;
}

/** The column of row r's given queen, -1 if none. */
@inline export function givenColumn(r: i32): i32 {
  return load<i32>(fixedBase + (<usize>r << 2));
}

/** Index of row r's first blocked column in the list (row r's are [blockedFrom(r), blockedFrom(r + 1))). */
@inline export function blockedFrom(r: i32): i32 {
  return load<i32>(startBase + (<usize>r << 2));
}

/** The k-th blocked column of the list. */
@inline export function blockedColumn(k: i32): i32 {
  return load<i32>(colsBase + (<usize>k << 2));
}

/** Whether square (r, c) is blocked: binary search in row r's sorted list. */
export function isBlocked(r: i32, c: i32): bool {
  let lo = blockedFrom(r);
  let hi = blockedFrom(r + 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = blockedColumn(mid);
    if (v == c) return true;
    if (v < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Whether every row and every column without a given queen still has a square that is
 * neither blocked nor attacked by a given queen. False proves that no completion exists
 * (each such row and column needs a queen on such a square). Early exit per line, so
 * the usual cost is O(n) plus the blocked list; -1 if the scratch memory cannot be had.
 */
export function linesOpen(): i32 {
  const n = size;
  const colUsed = allocate(<usize>n);
  const sumUsed = allocate(<usize>n << 1);
  const diffUsed = allocate(<usize>n << 1);
  if (colUsed == 0 || sumUsed == 0 || diffUsed == 0) return -1;
  for (let r = 0; r < n; r++) {
    const c = givenColumn(r);
    if (c < 0) continue;
    store<u8>(colUsed + <usize>c, 1);
    store<u8>(sumUsed + <usize>(r + c), 1);
    store<u8>(diffUsed + <usize>(r - c + n - 1), 1);
  }
  for (let r = 0; r < n; r++) {
    if (givenColumn(r) >= 0) continue;
    let k = blockedFrom(r);
    const end = blockedFrom(r + 1);
    let open = false;
    for (let c = 0; c < n; c++) {
      if ((load<u8>(colUsed + <usize>c) | load<u8>(sumUsed + <usize>(r + c)) | load<u8>(diffUsed + <usize>(r - c + n - 1))) != 0) continue;
      while (k < end && blockedColumn(k) < c) k++;
      if (k < end && blockedColumn(k) == c) continue;
      open = true;
      break;
    }
    if (!open) return 0;
  }
  for (let c = 0; c < n; c++) {
    if (load<u8>(colUsed + <usize>c) != 0) continue;
    let open = false;
    for (let r = 0; r < n; r++) {
      if (givenColumn(r) >= 0) continue;
      if ((load<u8>(sumUsed + <usize>(r + c)) | load<u8>(diffUsed + <usize>(r - c + n - 1))) != 0) continue;
      if (isBlocked(r, c)) continue;
      open = true;
      break;
    }
    if (!open) return 0;
  }
  return 1;
}
