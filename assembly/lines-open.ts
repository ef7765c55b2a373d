// A quick proof that a constrained board has no completion, made by the
// randomized and local searches (hybrid.ts, las-vegas.ts, hill-climb.ts,
// min-conflicts.ts) before they start: a row or a column without a given queen in which
// every square is blocked or attacked by a given queen. Reads the constraints of
// assembly/constraints.ts. Twin: src/engine/ts/lines-open.ts.

import { allocate } from "./memory";
import { fixedColumn, isBlocked } from "./constraints";

/**
 * Whether every row and every column without a given queen still has a square that is
 * neither blocked nor attacked by a given queen; false proves that no completion exists
 * (each such line needs a queen on such a square). Early exit per line, so the usual
 * cost is about O(n log b); 1 (open), 0 (not), -1 if the scratch memory cannot be had.
 */
export function linesOpen(n: i32): i32 {
  const colUsed = allocate(<usize>n);
  const sumUsed = allocate(<usize>n << 1);
  const diffUsed = allocate(<usize>n << 1);
  if (colUsed == 0 || sumUsed == 0 || diffUsed == 0) return -1;
  for (let r = 0; r < n; r++) {
    const c = fixedColumn(r);
    if (c < 0) continue;
    store<u8>(colUsed + <usize>c, 1);
    store<u8>(sumUsed + <usize>(r + c), 1);
    store<u8>(diffUsed + <usize>(r - c + n - 1), 1);
  }
  for (let r = 0; r < n; r++) {
    if (fixedColumn(r) >= 0) continue;
    let open = false;
    for (let c = 0; c < n; c++) {
      if ((load<u8>(colUsed + <usize>c) | load<u8>(sumUsed + <usize>(r + c)) | load<u8>(diffUsed + <usize>(r - c + n - 1))) != 0) continue;
      if (isBlocked(r, c)) continue;
      open = true;
      break;
    }
    if (!open) return 0;
  }
  for (let c = 0; c < n; c++) {
    if (load<u8>(colUsed + <usize>c) != 0) continue;
    let open = false;
    for (let r = 0; r < n; r++) {
      if (fixedColumn(r) >= 0) continue;
      if ((load<u8>(sumUsed + <usize>(r + c)) | load<u8>(diffUsed + <usize>(r - c + n - 1))) != 0) continue;
      if (isBlocked(r, c)) continue;
      open = true;
      break;
    }
    if (!open) return 0;
  }
  return 1;
}
