// Twin of assembly/lines-open.ts: a quick proof that a constrained board has no
// completion (a row or column without a given queen whose every square is blocked or
// attacked by a given queen), made by the randomized and local searches before they start.
import { isBlockedSquare, type Constraints } from "../../board/constraints.js";

/** The constraints a kernel must honour, or null for the plain problem (absent or empty). */
export function activeConstraints(constraints: Constraints | undefined): Constraints | null {
  return constraints === undefined || constraints.empty ? null : constraints;
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
    let open = false;
    for (let c = 0; c < n; c++) {
      if ((colUsed[c] | sumUsed[r + c] | diffUsed[r - c + n - 1]) !== 0) continue;
      if (isBlockedSquare(k, r, c)) continue;
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
      if (isBlockedSquare(k, r, c)) continue;
      open = true;
      break;
    }
    if (!open) return false;
  }
  return true;
}
