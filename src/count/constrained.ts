// Counting and enumerating the solutions of a constrained board (issue 15): given
// queens and blocked squares, n <= 64, by the complete search (assembly/complete.ts)
// in its counting mode (2) and its enumerating mode (1). The board's symmetry is
// broken by the constraints, so only the total is counted (count's `unique` is null).
//
// Parts (for countParallel, checkpoints and the queue): the lowest rows without a
// given queen are placed in every consistent way (the prefixes); each prefix is the
// same board with those queens given too, and the prefixes partition the solutions.
import { RUNNING, EXHAUSTED, type Engine, type Search } from "../engine/contract.js";
import { checkConstraints, constraintLists, type Constraints, type Square } from "../board/constraints.js";
import { ChunkSizer, type Pacer, now } from "../core/pacer.js";
import { rangeError, timeoutError } from "../core/errors.js";

/** Largest n of a constrained count or enumeration (the complete search's 64-bit masks). */
export const CONSTRAINED_MAX_N = 64;

const MODE_ENUMERATE = 1;
const MODE_COUNT = 2;

function openMode(engine: Engine, n: number, constraints: Constraints, mode: number): Search {
  return engine.openSearch("complete", n, {
    seed: 0, param: mode, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity,
    ...(constraints.empty ? {} : { constraints }),
  });
}

/** Every solution of a constrained board counted, in chunks that honour the pacer (abort, timeout, progress). */
export async function countConstrained(
  n: number, constraints: Constraints, engine: Engine, pacer: Pacer<{ nodes: bigint }> | Pacer<never>,
  progress: (nodes: bigint) => unknown,
): Promise<{ total: bigint; nodes: bigint }> {
  if (constraints.conflict !== null) return { total: 0n, nodes: 0n };
  const search = openMode(engine, n, constraints, MODE_COUNT);
  try {
    const sizer = new ChunkSizer();
    for (;;) {
      const t0 = now();
      const status = search.run(search.work() + sizer.get());
      sizer.observe(now() - t0);
      if (status === EXHAUSTED) break;
      if (status !== RUNNING) throw new Error(`the complete search stopped with status ${status} while counting (a bug)`);
      const stop = pacer.stopReason();
      if (stop === "aborted") pacer.throwIfAborted();
      if (stop === "timeout") throw timeoutError(`count(${n}) with constraints`, pacer.timeoutMs);
      await (pacer as Pacer<unknown>).between(() => progress(BigInt(search.stats().nodes)));
    }
    return { total: search.solutions!(), nodes: BigInt(search.stats().nodes) };
  } finally {
    search.close();
  }
}

/** The same count in one synchronous call (a part's prefixes; no pacing). */
export function countConstrainedNow(n: number, constraints: Constraints, engine: Engine): { total: bigint; nodes: bigint } {
  if (constraints.conflict !== null) return { total: 0n, nodes: 0n };
  const search = openMode(engine, n, constraints, MODE_COUNT);
  try {
    const status = search.run(Infinity);
    if (status !== EXHAUSTED) throw new Error(`the complete search stopped with status ${status} while counting (a bug)`);
    return { total: search.solutions!(), nodes: BigInt(search.stats().nodes) };
  } finally {
    search.close();
  }
}

/**
 * A stream of the constrained board's solutions in the complete search's order (the
 * fewest-squares row first: not lexicographic). Each solution's columns are a fresh array.
 */
export function openConstrainedSolutions(n: number, constraints: Constraints, engine: Engine): { next(): Int32Array | null; close(): void } {
  if (constraints.conflict !== null) return { next: () => null, close() {} };
  const search = openMode(engine, n, constraints, MODE_ENUMERATE);
  let open = true;
  return {
    next() {
      if (!open) return null;
      const status = search.run(Infinity);
      if (status === EXHAUSTED) {
        open = false;
        search.close();
        return null;
      }
      return search.columns();
    },
    close() {
      if (open) search.close();
      open = false;
    },
  };
}

/** Version of the constrained split (prefix rows, order, dealing): bump when it changes. */
export const CONSTRAINED_SPLIT_VERSION = 1;

/**
 * The prefixes of a constrained board: the lowest `k` rows without a given queen, placed
 * in every way consistent with each other, the given queens and the blocked squares
 * (lexicographic), for the least k giving at least `want` prefixes (or all free rows).
 */
export function constrainedPrefixes(constraints: Constraints, want: number): Square[][] {
  const { n, fixedColumn } = constraints;
  if (constraints.conflict !== null) return [];
  const { fixed, blocked } = constraintLists(constraints);
  const blockedSet = new Set(blocked.map(([r, c]) => r * n + c));
  const freeRows: number[] = [];
  for (let r = 0; r < n; r++) if (fixedColumn[r] < 0) freeRows.push(r);
  const attacks = (a: Square, b: Square): boolean => a[0] === b[0] || a[1] === b[1] || Math.abs(a[0] - b[0]) === Math.abs(a[1] - b[1]);
  let prefixes: Square[][] = [[]];
  for (let k = 0; k < freeRows.length && prefixes.length < want && k < 6; k++) {
    const r = freeRows[k];
    const next: Square[][] = [];
    for (const prefix of prefixes) {
      for (let c = 0; c < n; c++) {
        const square: Square = [r, c];
        if (blockedSet.has(r * n + c)) continue;
        if (fixed.some((f) => attacks(f, square)) || prefix.some((p) => attacks(p, square))) continue;
        next.push([...prefix, square]);
      }
    }
    prefixes = next;
    if (prefixes.length === 0) break;
  }
  return prefixes;
}

/** The board of one prefix: the constraints with the prefix's queens given too. */
export function prefixConstraints(constraints: Constraints, prefix: readonly Square[]): Constraints {
  if (prefix.length === 0) return constraints;
  const { fixed, blocked } = constraintLists(constraints);
  return checkConstraints(constraints.n, { fixed: [...fixed, ...prefix], blocked }, "a count part");
}

/** Refuses n outside the complete search's range for a constrained count. */
export function checkConstrainedN(n: number, what: string): void {
  if (n > CONSTRAINED_MAX_N) {
    throw rangeError(`n must be an integer from 1 to ${CONSTRAINED_MAX_N} for ${what} with given queens or blocked squares, got ${n}`);
  }
}
