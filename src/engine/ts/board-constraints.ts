// Twin of assembly/board-constraints.ts: the checks the search kernels make on a
// constrained board (given queens, blocked squares), read from src/board/constraints.ts's
// normalised form.
import type { Constraints } from "../../board/constraints.js";

/** The constraints a kernel must honour, or null for the plain problem (absent or empty). */
export function activeConstraints(constraints: Constraints | undefined): Constraints | null {
  return constraints === undefined || constraints.empty ? null : constraints;
}

/** Whether square (r, c) is blocked: binary search in row r's sorted list. */
export function isBlocked(k: Constraints, r: number, c: number): boolean {
  let lo = k.blockedStart[r];
  let hi = k.blockedStart[r + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = k.blockedCols[mid];
    if (v === c) return true;
    if (v < c) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * Whether every row and every column without a given queen still has a square that is
 * neither blocked nor attacked by a given queen (false proves there is no completion).
 */
export function linesOpen(k: Constraints): boolean {
  const n = k.n;
  const colUsed = new Uint8Array(n), sumUsed = new Uint8Array(2 * n), diffUsed = new Uint8Array(2 * n);
  for (let r = 0; r < n; r++) {
    const c = k.fixedColumn[r];
    if (c < 0) continue;
    colUsed[c] = 1;
    sumUsed[r + c] = 1;
    diffUsed[r - c + n - 1] = 1;
  }
  for (let r = 0; r < n; r++) {
    if (k.fixedColumn[r] >= 0) continue;
    let b = k.blockedStart[r];
    const end = k.blockedStart[r + 1];
    let open = false;
    for (let c = 0; c < n; c++) {
      if ((colUsed[c] | sumUsed[r + c] | diffUsed[r - c + n - 1]) !== 0) continue;
      while (b < end && k.blockedCols[b] < c) b++;
      if (b < end && k.blockedCols[b] === c) continue;
      open = true;
      break;
    }
    if (!open) return false;
  }
  for (let c = 0; c < n; c++) {
    if (colUsed[c] !== 0) continue;
    let open = false;
    for (let r = 0; r < n; r++) {
      if (k.fixedColumn[r] >= 0) continue;
      if ((sumUsed[r + c] | diffUsed[r - c + n - 1]) !== 0) continue;
      if (isBlocked(k, r, c)) continue;
      open = true;
      break;
    }
    if (!open) return false;
  }
  return true;
}
