// trace(n, { method, seed }): a search told step by step, for teaching and for the demo's
// step-through. It opens the reference engine's own search (src/engine/ts/, the twin of the
// Wasm kernel, so the same algorithm, seed and draws) and advances it one unit of work at a
// time: run(work() + 1) places exactly one queen (tree searches) or evaluates exactly one
// swap (hill climbing). Each event is read off the change in the search's public state
// (columns, stats, conflicts) and, for hill climbing, the read-only `cursor()` that says
// which pair comes next. Nothing is added to the hot loops, and the last event's board and
// figures are exactly what solve() returns for the same (n, method, seed, stopVegas).
import { EXHAUSTED, FOUND, RUNNING, type Search, type SearchStats } from "../engine/contract.js";
import { tsEngine } from "../engine/ts/index.js";
import { invalid } from "../core/errors.js";
import { DEFAULT_TRACE_METHOD, METHODS, TRACE_METHODS, defaultStopVegas, stopVegasMethodsText, type TraceMethod } from "../engine/registry.js";
import { checkChoice, checkInteger, checkOptions, checkSeed, optionalInteger } from "../core/validate.js";
import { boardOf } from "../board/board.js";
import { isBlockedSquare, type Constraints, type Square } from "../board/constraints.js";

/** The methods a trace can follow (the registry's traceable ones): the tree searches and hill climbing. */
export { TRACE_METHODS, type TraceMethod };

/** Largest n a trace takes: it is for watching small boards (every event copies the board). */
export const TRACE_MAX_N = 32;

/** Events a trace yields at most when `maxEvents` is not given. */
export const DEFAULT_TRACE_MAX_EVENTS = 1_000_000;

export type TraceOptions = {
  /** The search to follow (default 'backtrack'; TRACE_METHODS lists them). */
  method?: TraceMethod;
  /** u32 seed of the random generator (default 1), or 'random' (the start event reports it). */
  seed?: number | "random";
  /** 'hybrid' only: rows placed at random before backtracking (0..n; default as solve). */
  stopVegas?: number;
  /** Stop after this many events (default 1,000,000); the last is then `{ kind: 'end', reason: 'max-events' }`. */
  maxEvents?: number;
  /** Queens given in advance, [row, col] pairs, 0-based: they stand on every board of the trace and never move. */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
};

/** What every event carries: the board after it and the running figures, as solve() counts them. */
export type TraceFigures = {
  /** Columns by row after the event, -1 for a row without a queen; a fresh copy. */
  columns: Int32Array;
  /** Empty board of each try = 1 node, each queen placed = 1 node (0 for hill climbing). */
  nodes: number;
  /** Tries so far (the current one included). */
  tries: number;
  /** Swaps taken (hill climbing; 0 for tree searches). */
  steps: number;
  /** Hill climbing: h, the surplus queens on diagonals (0: a solution); -1 for tree searches. */
  conflicts: number;
};

export type TraceEvent = TraceFigures & (
  /** The first event: an empty board (tree searches) or the first random permutation (hill climbing). */
  | { kind: "start"; method: TraceMethod; n: number; seed: number | null; stopVegas: number | null }
  /**
   * A queen put in `row` at `column`. `safe`: the row's columns no queen above attacks (the
   * others are why columns were skipped). `random`: drawn uniformly from `safe` (Las Vegas
   * rows); otherwise the first safe column after `previous`, the column the row's queen
   * leaves when backtracking comes back to it (null when the row was empty).
   */
  | { kind: "place"; row: number; column: number; previous: number | null; random: boolean; safe: number[] }
  /**
   * Backtracking: `row` has no safe column, and rows to + 1 .. row - 1 have none to the
   * right of their queen, so their queens are lifted and the queen of row `to` moves on
   * (the next event). The board still shows row `to`'s queen.
   */
  | { kind: "backtrack"; row: number; to: number }
  /**
   * The try failed, shown on the board as it was before the reset: `row` has no safe
   * column. `cause` 'no-safe-column': a dead end of the random rows (Las Vegas) or at
   * the first backtracking row; 'exhausted' (hybrid): backtracking over rows
   * stopVegas .. row - 1 found no other column either. A restart follows.
   */
  | { kind: "fail"; row: number; cause: "no-safe-column" | "exhausted" }
  /** Hill climbing: no swap lowers h (a local minimum); a restart follows. */
  | { kind: "stuck" }
  /** A new try: an empty board (tree searches) or a fresh random permutation (hill climbing). */
  | { kind: "restart" }
  /**
   * Hill climbing: swapping the queens of rows i and j changes h by `delta`; taken when it
   * lowers h, unless `blocked` (constrained board: the swap would put a queen on a blocked square).
   */
  | { kind: "evaluate"; i: number; j: number; delta: number; taken: boolean; blocked?: true }
  /** The last event of a successful trace: the solution, with solve()'s figures. */
  | { kind: "solution" }
  /**
   * The trace stops: no solution exists (n = 2, 3, or a constrained board proved to have
   * no completion), the given queens attack each other or one stands on a blocked square
   * ('conflict', before any search; checkConstraints names the squares), or `maxEvents` was reached.
   */
  | { kind: "end"; reason: "no-solution" | "conflict" | "max-events" }
);

const OPTION_NAMES = ["method", "seed", "stopVegas", "maxEvents", "fixed", "blocked"] as const;

/**
 * Follows one search step by step: every queen placed, every backtrack, every failed
 * try and restart (backtracking, Las Vegas, hybrid), or every swap evaluated (hill
 * climbing). Lazy: the search advances as you iterate. Input is checked at the call.
 * @example for (const e of trace(4)) if (e.kind === "backtrack") console.log(`row ${e.row} is dead, back to row ${e.to}`);
 */
export function trace(n: number, options?: TraceOptions): Generator<TraceEvent, void, undefined> {
  const opts = checkOptions<TraceOptions>("trace", options, OPTION_NAMES);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "trace", plain: [1, TRACE_MAX_N], givens: [1, TRACE_MAX_N] });
  const method = opts.method === undefined ? DEFAULT_TRACE_METHOD : checkChoice("method", opts.method, TRACE_METHODS);
  const spec = METHODS[method];
  const seed = checkSeed(opts.seed);
  let stopVegas = 0;
  if (spec.stopVegas) stopVegas = optionalInteger("stopVegas", opts.stopVegas, 0, n, defaultStopVegas(n));
  else if (opts.stopVegas !== undefined) throw invalid("stopVegas", ` applies only to ${stopVegasMethodsText}, not to ${JSON.stringify(method)}`);
  const maxEvents = optionalInteger("maxEvents", opts.maxEvents, 1, Number.MAX_SAFE_INTEGER, DEFAULT_TRACE_MAX_EVENTS);
  const { constraints } = board;
  const start = {
    kind: "start" as const, method, n, seed: spec.seeded ? seed : null, stopVegas: spec.stopVegas ? stopVegas : null,
  };
  return capped(follow(n, method, seed, stopVegas, start, constraints), maxEvents);
}

/** At most maxEvents events; when more would follow, the last is an 'end' event with reason 'max-events'. */
function* capped(events: Generator<TraceEvent, void, undefined>, maxEvents: number): Generator<TraceEvent, void, undefined> {
  let count = 0;
  try {
    for (const event of events) {
      count++;
      const final = event.kind === "solution" || event.kind === "end";
      if (count === maxEvents && !final) {
        yield { ...figuresOf(event), kind: "end", reason: "max-events" };
        return;
      }
      yield { ...event, columns: event.columns.slice() }; // every event owns its board
    }
  } finally {
    events.return(undefined);
  }
}

function figuresOf(e: TraceFigures): TraceFigures {
  return { columns: e.columns, nodes: e.nodes, tries: e.tries, steps: e.steps, conflicts: e.conflicts };
}

type Snapshot = TraceFigures;

function snapshot(search: Search): Snapshot {
  const stats: SearchStats = search.stats();
  return { columns: search.columns(), ...stats, conflicts: search.state().conflicts };
}

type StartFields = { kind: "start"; method: TraceMethod; n: number; seed: number | null; stopVegas: number | null };

function* follow(
  n: number, method: TraceMethod, seed: number, stopVegas: number, start: StartFields, constraints: Constraints,
): Generator<TraceEvent, void, undefined> {
  const k = constraints.empty ? null : constraints;
  if (k?.conflict) {
    const none = { columns: new Int32Array(n).fill(-1), nodes: 0, tries: 0, steps: 0, conflicts: -1 };
    yield { ...start, ...none };
    yield { ...none, kind: "end", reason: "conflict" };
    return;
  }
  if (n === 2 || n === 3) {
    // As solve() answers them: no search is opened, nothing is counted.
    const none = { columns: new Int32Array(n).fill(-1), nodes: 0, tries: 0, steps: 0, conflicts: -1 };
    yield { ...start, ...none };
    yield { ...none, kind: "end", reason: "no-solution" };
    return;
  }
  const search = tsEngine.openSearch(method, n, {
    seed, param: stopVegas, maxNodes: Infinity, maxSteps: Infinity, maxTries: Infinity, ...(k ? { constraints: k } : {}),
  });
  try {
    let before = snapshot(search);
    yield { ...start, ...before };
    for (;;) {
      const pair = method === "hill-climb" ? search.cursor!() : null;
      const status = search.run(search.work() + 1);
      const after = snapshot(search);
      if (pair) yield* hillClimbStep(before, after, pair.i, pair.j, status === FOUND && search.work() === 0, k);
      else yield* treeStep(method, stopVegas, before, after, k);
      if (status === FOUND) {
        yield { ...after, kind: "solution" };
        return;
      }
      if (status === EXHAUSTED) {
        yield { ...after, kind: "end", reason: "no-solution" };
        return;
      }
      if (status !== RUNNING) throw new Error(`trace: unexpected search status ${status}`); // no caps are set
      before = after;
    }
  } finally {
    search.close();
  }
}

/** Rows 0..k-1 hold queens, the rest -1: k. */
function queensOf(columns: Int32Array): number {
  let k = 0;
  while (k < columns.length && columns[k] >= 0) k++;
  return k;
}

/**
 * The columns of `row` that no queen of rows 0..row-1 attacks. On a constrained board, not
 * blocked, only its given column in a row with a given queen, and, where the given queens
 * stand from the start (`standing`), none a given queen of a later row attacks.
 */
function safeColumns(columns: ArrayLike<number>, row: number, k: Constraints | null = null, standing = false): number[] {
  const safe: number[] = [];
  for (let c = 0; c < columns.length; c++) {
    let ok = k === null || (!isBlockedSquare(k, row, c) && (k.fixedColumn[row] < 0 || k.fixedColumn[row] === c));
    for (let r = 0; r < row && ok; r++) {
      const q = columns[r];
      if (q >= 0 && (q === c || Math.abs(q - c) === row - r)) ok = false;
    }
    for (let r = row + 1; k !== null && standing && r < columns.length && ok; r++) {
      const q = k.fixedColumn[r];
      if (q >= 0 && (q === c || Math.abs(q - c) === r - row)) ok = false;
    }
    if (ok) safe.push(c);
  }
  return safe;
}

/** One queen placed (after backtracking, possibly), or a failed try and a restart. */
function* treeStep(method: TraceMethod, stopVegas: number, before: Snapshot, after: Snapshot, k: Constraints | null = null): Generator<TraceEvent> {
  const dead = queensOf(before.columns); // the row the search stood at
  if (after.tries > before.tries) {
    const cause = method === "hybrid" && dead > stopVegas ? "exhausted" : "no-safe-column";
    yield { ...before, kind: "fail", row: dead, cause };
    yield { ...after, kind: "restart" };
    return;
  }
  if (after.nodes === before.nodes) return; // exhausted (n = 2, 3 only) or already found
  // Las Vegas and hybrid put the given queens on the board before the search and pass
  // their rows over; backtracking places each in turn, as a node.
  const standing = k !== null && method !== "backtrack";
  let row = queensOf(after.columns) - 1;
  while (standing && row > 0 && k.fixedColumn[row] >= 0) row--; // the last row the search placed
  const moved = row < dead; // backtracking came back to this row
  if (moved) {
    const lifted = before.columns.slice();
    lifted.fill(-1, row + 1);
    if (standing) for (let r = row + 1; r < lifted.length; r++) if (k.fixedColumn[r] >= 0) lifted[r] = k.fixedColumn[r];
    yield { ...before, columns: lifted, kind: "backtrack", row: dead, to: row };
  }
  const random = method === "las-vegas" || (method === "hybrid" && row < stopVegas);
  yield {
    ...after, kind: "place", row, column: after.columns[row], previous: moved ? before.columns[row] : null, random,
    safe: safeColumns(after.columns, row, k, standing),
  };
}

/** h: over each diagonal holding k > 1 queens, k - 1 (as assembly/hill-climb.ts defines it). */
function diagonalSurplus(columns: Int32Array): number {
  const n = columns.length;
  const up = new Int32Array(2 * n), down = new Int32Array(2 * n);
  let h = 0;
  for (let r = 0; r < n; r++) {
    if (up[columns[r] - r + n - 1]++ > 0) h++;
    if (down[columns[r] + r]++ > 0) h++;
  }
  return h;
}

/** One swap evaluated (and taken or not), then, when the scan is over, stuck and a fresh permutation. */
function* hillClimbStep(
  before: Snapshot, after: Snapshot, i: number, j: number, nothingDone: boolean, k: Constraints | null = null,
): Generator<TraceEvent> {
  if (nothingDone) return; // the first permutation is already a solution
  if (i < 0) {
    // Constrained board: a try with nothing to scan (its queens could not all be kept off blocked squares).
    yield { ...before, kind: "stuck" };
    yield { ...after, kind: "restart" };
    return;
  }
  const taken = after.steps > before.steps;
  let delta: number;
  if (taken) {
    delta = after.conflicts - before.conflicts;
  } else {
    const swapped = before.columns.slice();
    swapped[i] = before.columns[j];
    swapped[j] = before.columns[i];
    delta = diagonalSurplus(swapped) - before.conflicts;
  }
  const blocked = k !== null && (isBlockedSquare(k, i, before.columns[j]) || isBlockedSquare(k, j, before.columns[i]));
  yield { ...(taken ? after : before), kind: "evaluate", i, j, delta, taken, ...(blocked ? { blocked: true as const } : {}) };
  if (after.tries > before.tries) {
    yield { ...before, kind: "stuck" };
    yield { ...after, kind: "restart" };
  }
}
