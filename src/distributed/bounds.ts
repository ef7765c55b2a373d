// What a constrained part can hold at most (internal): a bound that costs nothing next to a
// count, so an absurd result (10^6 for a part of a 10 x 10 board) is refused at once.
import type { ConstrainedPart } from "../count/constrained.js";

const bounds = new WeakMap<ConstrainedPart, bigint>();

/**
 * The most solutions `part` can have: for each prefix, the queens placed (the givens and the
 * prefix) leave some rows open; a solution puts one queen in each open row, on a square that
 * is not blocked, not in a column already taken and not on a diagonal of a placed queen, every
 * open row in its own column. Taking the rows from the fewest such squares up, the i-th row
 * (from 0) has at most min(its squares, free columns - i) choices; the product bounds the
 * prefix's solutions (never more than k! for k open rows), and the sum over prefixes the part's.
 */
export function constrainedCapacity(part: ConstrainedPart): bigint {
  const known = bounds.get(part);
  if (known !== undefined) return known;
  const n = part.n;
  const blocked = new Set(part.blocked.map(([r, c]) => r * n + c));
  let sum = 0n;
  for (const prefix of part.prefixes) {
    const placed = [...part.fixed, ...prefix];
    const rowTaken = new Array<boolean>(n).fill(false);
    const colTaken = new Array<boolean>(n).fill(false);
    for (const [r, c] of placed) { rowTaken[r] = true; colTaken[c] = true; }
    let freeColumns = 0;
    for (let c = 0; c < n; c++) if (!colTaken[c]) freeColumns++;
    const choices: number[] = [];
    for (let r = 0; r < n; r++) {
      if (rowTaken[r]) continue;
      let k = 0;
      for (let c = 0; c < n; c++) {
        if (colTaken[c] || blocked.has(r * n + c)) continue;
        if (placed.some(([pr, pc]) => Math.abs(pr - r) === Math.abs(pc - c))) continue;
        k++;
      }
      choices.push(k);
    }
    choices.sort((a, b) => a - b);
    let product = 1n;
    for (let i = 0; i < choices.length && product > 0n; i++) product *= BigInt(Math.max(0, Math.min(choices[i], freeColumns - i)));
    sum += product;
  }
  bounds.set(part, sum);
  return sum;
}
