// A job's constraints (given queens, blocked squares) handed to the kernels
// (assembly/constraints.ts) for the constrained searches and counts.
import type { Constraints } from "../../board/constraints.js";
import type { KernelExports } from "./layout.js";
import { outOfMemory } from "./loader.js";

/**
 * Hands a job's constraints to the kernels (assembly/constraints.ts), or clears those of
 * an earlier job of this instance. Call after acquire() and before the kernel's Init.
 */
export function loadConstraints(k: KernelExports, constraints: Constraints | undefined): void {
  if (constraints === undefined || constraints.empty) {
    k.constraintsClear();
    return;
  }
  const { n, fixedColumn, blockedStart, blockedCols } = constraints;
  const at = k.constraintsInput(n, blockedCols.length);
  if (at === 0) throw outOfMemory(`the constraints of n = ${n}`);
  const view = new Int32Array(k.memory.buffer, at, 2 * n + 1 + blockedCols.length);
  view.set(fixedColumn, 0);
  view.set(blockedStart, n);
  view.set(blockedCols, 2 * n + 1);
}
