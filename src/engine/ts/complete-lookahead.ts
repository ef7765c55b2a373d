// Twin of assembly/complete-lookahead.ts: solve's lookahead near the root of the 64-bit
// complete search, on the state of complete-state.ts (CompleteSearch's expand in complete.ts
// calls lookAhead; this file imports nothing of complete.ts). See the kernel for the algorithm.
import { BY_COLUMN, BY_DIFF, BY_ROW, BY_SUM, type CompleteState, FAIL, OPEN, columnOf, ctz32, popcount32, rowOf, takenBy } from "./complete-state.js";

/** lookAhead's candidates: rows, columns and needed diagonals with at most this many squares more than build's choice (as the kernel). */
const LOOKAHEAD_SLACK = 2;
/** lookAhead runs on the nodes with at least LOOKAHEAD_ROWS rows left, down to LOOKAHEAD_LEVELS levels below the given queens (as the kernel). */
export const LOOKAHEAD_LEVELS = 8, LOOKAHEAD_ROWS = 22;
/** lookAhead's rounds at one node, at most (as the kernel). */
const LOOKAHEAD_ROUNDS = 8;

/** The branches of line (kind, at) among the 64-bit `values` whose level builds; each build is a node (as the kernel's survivors). */
function survivors(s: CompleteState, dst: number, kind: number, at: number, valuesLo: number, valuesHi: number): [number, number] {
  let aliveLo = 0, aliveHi = 0, open = 0;
  for (let half = 0; half < 2; half++) {
    for (let x = half === 0 ? valuesLo : valuesHi; x !== 0; x &= x - 1) {
      const v = ctz32(x) + 32 * half;
      s.nodes++;
      if (s.build(dst, dst + 1, rowOf(kind, at, v), columnOf(s.n, kind, at, v)) === FAIL) continue;
      s.scores[v] = s.builtOpen;
      open += s.builtOpen; // exact: at most 64 * (2^31 - 1)
      if (half === 0) aliveLo |= 1 << v;
      else aliveHi |= 1 << (v - 32);
    }
  }
  s.survivorsOpen = open;
  return [aliveLo, aliveHi];
}

/** As the kernel's lookAhead: dead squares go; branch on the row, column or needed diagonal with the fewest branches left, among those near build's choice. */
export function lookAhead(s: CompleteState, dst: number): number {
  const n = s.n, to = dst * n, availLo = s.availLo, availHi = s.availHi;
  let rounds = 0;
  for (;;) {
    const rowsLo = s.rowsLo[dst], rowsHi = s.rowsHi[dst];
    const chosenKind = s.kind[dst], chosen = s.index[dst];
    const valuesLo = s.restLo[dst], valuesHi = s.restHi[dst];
    const [b0Lo, b0Hi, b1Lo, b1Hi, b2Lo, b2Hi, exactLo, exactHi] = s.planes; // before the builds below overwrite them
    const needed = [s.neededSums.slice(), s.neededDiffs.slice()];
    const limit = popcount32(valuesLo) + popcount32(valuesHi) + LOOKAHEAD_SLACK;
    let bestKind = 0, bestIndex = 0, bestLo = 0, bestHi = 0, bestCount = 65, bestOpen = 0, pruned = false;
    const consider = (kind: number, at: number, lo: number, hi: number): boolean => {
      const [aliveLo, aliveHi] = survivors(s, dst, kind, at, lo, hi);
      if (aliveLo === 0 && aliveHi === 0) return false;
      if (aliveLo !== lo || aliveHi !== hi) {
        if (kind === BY_ROW) {
          availLo[to + at] = aliveLo;
          availHi[to + at] = aliveHi;
        } else {
          for (let half = 0; half < 2; half++) {
            for (let x = half === 0 ? lo & ~aliveLo : hi & ~aliveHi; x !== 0; x &= x - 1) {
              const y = ctz32(x) + 32 * half; // a column's or a diagonal's dead square, in row y
              const c = columnOf(n, kind, at, y);
              if (c < 32) availLo[to + y] &= ~(1 << c);
              else availHi[to + y] &= ~(1 << (c - 32));
            }
          }
        }
        pruned = true;
      }
      const k = popcount32(aliveLo) + popcount32(aliveHi);
      if (k < bestCount || (k === bestCount && s.survivorsOpen < bestOpen)) { // as the kernel: ties to the fewest open squares left
        bestCount = k;
        bestOpen = s.survivorsOpen;
        bestKind = kind;
        bestIndex = at;
        bestLo = aliveLo;
        bestHi = aliveHi;
        s.bestScores.set(s.scores);
      }
      return true;
    };
    if (!consider(chosenKind, chosen, valuesLo, valuesHi)) return FAIL;
    for (let half = 0; half < 2; half++) {
      for (let x = half === 0 ? rowsLo : rowsHi; x !== 0; x &= x - 1) {
        const y = ctz32(x) + 32 * half;
        if (chosenKind === BY_ROW && y === chosen) continue;
        const lo = availLo[to + y], hi = availHi[to + y];
        if (popcount32(lo) + popcount32(hi) <= limit && !consider(BY_ROW, y, lo, hi)) return FAIL;
      }
    }
    // Free columns with at most `limit` takers: from build's bit planes up to 7, else every free
    // column's takers counted (as the kernel).
    let columnsLo = 0, columnsHi = 0;
    if (limit < 8) {
      for (let k = 1; k <= limit; k++) {
        columnsLo |= takenBy(k, b0Lo, b1Lo, b2Lo, exactLo);
        columnsHi |= takenBy(k, b0Hi, b1Hi, b2Hi, exactHi);
      }
    } else {
      columnsLo = s.freeLo[dst];
      columnsHi = s.freeHi[dst];
    }
    for (let half = 0; half < 2; half++) {
      for (let x = half === 0 ? columnsLo : columnsHi; x !== 0; x &= x - 1) {
        const cc = ctz32(x) + 32 * half;
        if (chosenKind === BY_COLUMN && cc === chosen) continue;
        const [takersLo, takersHi] = s.takersOf(to, rowsLo, rowsHi, cc);
        if ((takersLo !== 0 || takersHi !== 0) && popcount32(takersLo) + popcount32(takersHi) <= limit && !consider(BY_COLUMN, cc, takersLo, takersHi)) return FAIL;
      }
    }
    // The diagonals every completion needs with at most `limit` open squares, sums then differences, lowest first (as the kernel).
    for (let family = 0; family < 2; family++) {
      const kind = family === 0 ? BY_SUM : BY_DIFF;
      for (let w = 0; w < 4; w++) {
        for (let x = needed[family][w]; x !== 0; x &= x - 1) {
          const k = 32 * w + ctz32(x);
          if (chosenKind === kind && k === chosen) continue;
          const [lo, hi] = s.diagonalRows(dst, kind, k);
          if (popcount32(lo) + popcount32(hi) <= limit && !consider(kind, k, lo, hi)) return FAIL;
        }
      }
    }
    if (!pruned) {
      s.kind[dst] = bestKind;
      s.index[dst] = bestIndex;
      s.restLo[dst] = bestLo;
      s.restHi[dst] = bestHi;
      orderBranches(s, dst, bestLo, bestHi);
      return OPEN;
    }
    const result = s.build(dst, dst, -1, -1);
    if (result !== OPEN) return result;
    if (++rounds === LOOKAHEAD_ROUNDS) return OPEN; // bounded work a node: build's choice (as the kernel)
  }
}

/** As the kernel's orderBranches: lookAhead's branches, the most open squares left first, ties lowest first. */
function orderBranches(s: CompleteState, dst: number, lo: number, hi: number): void {
  const values: number[] = [];
  for (let half = 0; half < 2; half++) for (let x = half === 0 ? lo : hi; x !== 0; x &= x - 1) values.push(ctz32(x) + 32 * half);
  values.sort((a, b) => s.bestScores[b] - s.bestScores[a] || a - b);
  s.order.set(values, dst * 64);
  s.orderPos[dst] = 0;
}
