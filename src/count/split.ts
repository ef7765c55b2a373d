// The part protocol: a count cut into parts that any thread, process or queue worker can
// count, and that anyone can check and add up exactly. One protocol over a board
// (src/board/board.ts): split, derive, check, count, merge. A plain board and a board with
// given queens or blocked squares differ only below it, in their kind (the table KINDS):
// the plain kind deals start-constellation tasks (./parts.ts), the constrained kind the prefixes
// of its free rows (./constrained-parts.ts), each with its own counter and bounds. The pool,
// the checkpoint, the queue's coordinator and worker use only what is here.
import { engineCan, type EngineName } from "../engine/contract.js";
import { Pacer, runSteps, runStepsPaced, type Steps, type TimeoutOptions } from "../core/pacer.js";
import { invalid } from "../core/errors.js";
import { pickEngine } from "../engine/select.js";
import { checkInteger, checkOptions, describe } from "../core/validate.js";
import { boardOf, plainBoard, type Board } from "../board/board.js";
import type { Square } from "../board/constraints.js";
import {
  MAX_PARTS, SPLIT_VERSION, checkPart, checkPlainCount, countChunked, countPlainTask, dealParts, dealSteps, defaultParts, derivePart, derivePartRange, mergePlainCounts,
  partsForSteps,
  type CountPart, type PartCount, type MergedCount,
} from "./parts.js";
import {
  CONSTRAINED_SPLIT_MAX_PARTS, checkConstrainedPart, checkConstrainedPartCount, countConstrainedChunked, countConstrainedNowPart,
  deriveConstrainedPart, mergeConstrainedCounts, splitConstrainedSteps, type ConstrainedPart, type ConstrainedPartCount,
} from "./constrained-parts.js";
import { CONSTRAINED_MAX_N, CONSTRAINED_SPLIT_VERSION } from "./constrained.js";
import { COUNT_MAX_N } from "./count.js";
import { symmetricTotal } from "../engine/count-types.js";
import { contentDigest } from "../core/digest.js";

/** One part of a count, as plain JSON: of a plain board (CountPart) or of a board with givens (ConstrainedPart). */
export type Part = CountPart | ConstrainedPart;
/** What counting a part gives (bigints as decimal strings): PartCount or ConstrainedPartCount. */
export type PartResult = PartCount | ConstrainedPartCount;
/** A count added up from its parts: `unique` only for a plain board (givens break the symmetry). */
export type MergedParts = { n: number; total: bigint; unique: bigint | null; nodes: bigint };

/**
 * A part's identity, as a queue job names it: the part is re-derived from it, never read. A job
 * of several consecutive parts (a plain run of many parts) has `count`, the parts it holds from
 * `index` on, and `digest` is rangeDigest's of them.
 */
export type PartIdentity = { kind?: "constrained"; n: number; board?: string; depth?: number; parts: number; index: number; count?: number; splitVersion: number; digest: string };

/** The most consecutive parts one job may hold (a bound on what a job can ask of a worker). */
export const MAX_JOB_PARTS = 4096;

/** The digest of a job's parts: a lone part's own; several parts', the content digest of their digests in order. */
export function rangeDigest(parts: readonly Part[]): string {
  return parts.length === 1 ? parts[0].digest : contentDigest(`nqueens-parts ${parts.map((p) => p.digest).join(" ")}`);
}

/** The options of counting a part: the engine, and signal and timeoutMs (TimeoutOptions). */
export interface CountPartOptions extends TimeoutOptions {
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
}

/** What differs between the two kinds of part, and nothing else. */
type Kind<P extends Part, R extends PartResult> = {
  readonly name: "plain" | "constrained";
  readonly version: number;
  /** The counts a result holds, in this order (the queue's tally keeps these). */
  readonly fields: readonly string[];
  /** Whether the GPU engine counts this kind. */
  readonly gpu: boolean;
  check(value: unknown): P;
  checkResult(part: P, value: unknown, label?: string): R;
  countNow(part: P, engine: EngineName | undefined): R;
  count(part: P, engine: EngineName | undefined, between: () => Promise<void>): Promise<R>;
  total(sums: readonly bigint[]): Omit<MergedParts, "n">;
};

const PLAIN: Kind<CountPart, PartCount> = {
  name: "plain", version: SPLIT_VERSION, fields: ["count8", "count4", "count2", "nodes"], gpu: /* @__PURE__ */ engineCan("webgpu", "count-parts"),
  check: checkPart,
  checkResult: (part, value) => checkPlainCount(part, value),
  countNow: countPlainTask,
  count: countChunked,
  total: ([c8, c4, c2, nodes]) => ({ ...symmetricTotal(c8, c4, c2), nodes }),
};

const CONSTRAINED: Kind<ConstrainedPart, ConstrainedPartCount> = {
  name: "constrained", version: CONSTRAINED_SPLIT_VERSION, fields: ["total", "nodes"], gpu: /* @__PURE__ */ engineCan("webgpu", "constrained"),
  check: checkConstrainedPart,
  checkResult: checkConstrainedPartCount,
  countNow: countConstrainedNowPart,
  count: countConstrainedChunked,
  total: ([total, nodes]) => ({ total, unique: null, nodes }),
};

/** Whether a part is of the constrained kind: the one test that tells the kinds apart. */
function isConstrained(part: unknown): part is ConstrainedPart {
  return typeof part === "object" && part !== null && (part as { kind?: unknown }).kind === "constrained";
}

/** The kind of a part. */
function kindOf(part: Part): Kind<Part, PartResult> {
  return (isConstrained(part) ? CONSTRAINED : PLAIN) as unknown as Kind<Part, PartResult>;
}

/**
 * A split of a board into parts. The parts are made when asked for (a plain split re-derives
 * part p from its identity; a constrained one holds its few thousand parts), so a split of a
 * million parts costs bytes, not the parts.
 */
export type Split = {
  readonly board: Board;
  readonly version: number;
  /** How many parts (the split's own number: it may be fewer than asked). */
  readonly count: number;
  /** A constrained split's depth (free rows its prefixes place); undefined for a plain one. */
  readonly depth: number | undefined;
  /** The number of counts a result holds (the queue's tally keeps them). */
  readonly fields: number;
  /** Whether the GPU engine counts these parts. */
  readonly gpu: boolean;
  /** Part p (0 <= p < count). */
  at(p: number): Part;
  /** Every part, in order. */
  all(): Part[];
  /** Every part, in order, made in slices: `between` is awaited after each with the parts made so far (it may throw to stop). */
  allPaced(between: (made: number) => Promise<void>): Promise<Part[]>;
  /** A part's identity as a job carries it. */
  identity(part: Part): PartIdentity;
  /** Parts first .. first + count - 1 (a plain split derives them in one walk). */
  range(first: number, count: number): Part[];
  /** The identity of a job of consecutive parts in a run whose jobs hold several (`count` set), else of its one part (identity's). */
  rangeIdentity(parts: readonly Part[], grouped: boolean): PartIdentity;
  /** The counts of a checked result, in the split's order (fields). */
  countsOf(result: PartResult): bigint[];
  /** The count from the sums of every part's counts (the tally's). */
  totalOf(sums: readonly bigint[]): MergedParts;
  /** The kind of its parts, for what differs below the protocol and is not the protocol's (./plausibility.ts). */
  readonly kind: "plain" | "constrained";
};

function makeSplit(
  board: Board, kind: Kind<Part, PartResult>, count: number, depth: number | undefined, at: (p: number) => Part, whole: () => Part[],
  range?: (first: number, k: number) => Part[], steps?: () => Steps<Part[]>,
): Split {
  const identity = (part: Part): PartIdentity => depth === undefined
    ? { n: board.n, parts: count, index: part.part, splitVersion: part.splitVersion, digest: part.digest }
    : { kind: "constrained", n: board.n, board: board.digest, depth, parts: count, index: part.part, splitVersion: part.splitVersion, digest: part.digest };
  return {
    board, version: kind.version, count, depth, fields: kind.fields.length, gpu: kind.gpu, at,
    all: whole,
    allPaced: async (between) => (steps ? runStepsPaced(steps(), between) : whole()),
    identity,
    range: range ?? ((first, k) => Array.from({ length: k }, (_, i) => at(first + i))),
    rangeIdentity: (parts, grouped) => (grouped ? { ...identity(parts[0]), count: parts.length, digest: rangeDigest(parts) } : identity(parts[0])),
    countsOf: (result) => kind.fields.map((f) => BigInt((result as unknown as Record<string, string>)[f])),
    totalOf: (sums) => ({ n: board.n, ...kind.total(sums) }),
    kind: kind.name,
  };
}

/** The limits of a split: the most parts a board's split may be asked for. */
export type SplitLimits = { maxParts?: number };

/**
 * The split of `board` into about `asked` parts (default: 8 to 256 by n for a plain board, 64
 * with givens); fewer when the board has fewer tasks or prefixes.
 */
export function splitBoard(board: Board, asked?: number, limits: SplitLimits = {}): Split {
  return runSteps(splitSteps(board, asked, limits));
}

/**
 * splitBoard with a plain split's walks (its indices: about 450 ms at n = 32, 0.6 s for the
 * most parts of n = 16) made in slices, awaiting `between` after each (it may throw to stop).
 */
export function splitBoardPaced(board: Board, asked: number | undefined, between: (made: number) => Promise<void>, limits: SplitLimits = {}): Promise<Split> {
  return runStepsPaced(splitSteps(board, asked, limits), between);
}

function* splitSteps(board: Board, asked: number | undefined, limits: SplitLimits): Steps<Split> {
  if (board.plain) {
    if (board.n < 4 || board.n > COUNT_MAX_N) throw invalid("n", ` must be an integer from 4 to ${COUNT_MAX_N} for a split of the plain count, got ${board.n}`);
    const want = asked === undefined ? defaultParts(board.n) : checkInteger("parts", asked, 1, limits.maxParts ?? MAX_PARTS);
    return plainSplit(board, yield* partsForSteps(board.n, want));
  }
  const parts = yield* splitConstrainedSteps(board, asked === undefined ? 64 : checkInteger("parts", asked, 1, limits.maxParts ?? CONSTRAINED_SPLIT_MAX_PARTS));
  return makeSplit(board, CONSTRAINED as unknown as Kind<Part, PartResult>, parts.length, parts[0].depth, (p) => parts[p], () => parts);
}

function plainSplit(board: Board, count: number): Split {
  return makeSplit(
    board, PLAIN as unknown as Kind<Part, PartResult>, count, undefined, (p) => derivePart(board.n, count, p), () => dealParts(board.n, count),
    (first, k) => derivePartRange(board.n, count, first, k), () => dealSteps(board.n, count),
  );
}

/** A board as a run's record holds it: n, normal-form lists and digest, and the split's depth. */
export type RecordedBoard = { n: number; fixed: Square[]; blocked: Square[]; digest: string; depth: number };

/**
 * The split a record names, re-derived from it alone: a plain board's n and parts, or a
 * board's lists (which must give its digest), depth and parts. Each part is made when asked
 * for, and refused (a RangeError saying why) where the record gives none. A constrained
 * split may place at most parts * n prefixes in a row (a forged record could ask hours).
 */
export function recordedSplit(n: number, parts: number, board: RecordedBoard | undefined, maxConstrainedParts: number): Split {
  if (board === undefined) {
    checkInteger("n", n, 4, COUNT_MAX_N);
    return plainSplit(plainBoard(n), checkInteger("parts", parts, 1, MAX_PARTS));
  }
  const cache = new Map<number, Part>();
  const at = (p: number): Part => {
    let part = cache.get(p);
    if (part === undefined) {
      part = deriveConstrainedPart(board, board.depth, parts, p, maxConstrainedParts);
      if (cache.size < 64) cache.set(p, part);
    }
    return part;
  };
  const shown = boardOf(n, { fixed: board.fixed, blocked: board.blocked }, { caller: "the run's board", plain: [1, CONSTRAINED_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  return makeSplit(shown, CONSTRAINED as unknown as Kind<Part, PartResult>, parts, board.depth, at, () => Array.from({ length: parts }, (_, p) => at(p)));
}

/** A run as its record names it: n, parts, split version, for a board with givens the board, and the parts a job holds (absent: 1). */
export type RecordedRun = { n: unknown; parts: unknown; splitVersion: unknown; board?: unknown; perJob?: unknown };

/**
 * The parts a job's identity names in the run its record describes (one, or `count`
 * consecutive parts from `index`: exactly the run's own job of them, perJob parts from a
 * multiple of perJob), re-derived from the record alone and checked against the identity's
 * digest. Throws (through `refuse`) saying why the identity names no job of that run.
 */
export function partsOfIdentity(id: Partial<PartIdentity>, run: RecordedRun, maxConstrainedParts: number, refuse: (why: string) => never): Part[] {
  const perJob = run.perJob === undefined ? 1 : run.perJob;
  if (!Number.isSafeInteger(perJob) || (perJob as number) < 1 || (perJob as number) > MAX_JOB_PARTS) return refuse(`the run's record says ${describe(perJob)} parts a job, not an integer from 1 to ${MAX_JOB_PARTS}`);
  if (perJob === 1) {
    if (id.count !== undefined) refuse(`it names ${describe(id.count)} parts; the run's jobs hold one part each`);
    return [partOfIdentity(id, run, maxConstrainedParts, refuse)];
  }
  if (run.board !== undefined || id.kind !== undefined) return refuse("a constrained board's jobs hold one part each");
  checkPlainRun(id, run, "job", refuse);
  const parts = run.parts as number, k = perJob as number;
  if (!Number.isSafeInteger(id.index) || id.index! < 0 || id.index! >= parts || id.index! % k !== 0) refuse(`its first part ${describe(id.index)} is not where one of the run's jobs starts (a multiple of ${k} below ${parts})`);
  const size = Math.min(k, parts - id.index!);
  if (id.count !== size) refuse(`it holds ${describe(id.count)} parts; the run's job from part ${id.index} holds ${size}`);
  let made: CountPart[];
  try {
    made = derivePartRange(id.n!, parts, id.index!, size);
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  if (rangeDigest(made) !== id.digest) refuse(`its digest ${describe(id.digest)} is not that of parts ${id.index} to ${id.index! + size - 1} of ${parts} (n = ${id.n})`);
  return made;
}

/**
 * The part a job's identity names in the run its record describes, re-derived from the record
 * alone and checked against the identity's digest: nothing a job says but its identity is read.
 * Throws an Error saying why the identity names no part of that run (`why`: the refusal's text).
 */
export function partOfIdentity(id: Partial<PartIdentity>, run: RecordedRun, maxConstrainedParts: number, refuse: (why: string) => never): Part {
  if (run.board !== undefined || id.kind !== undefined) return constrainedPartOf(id, run, maxConstrainedParts, refuse);
  checkPlainRun(id, run, "part", refuse);
  let part: CountPart;
  try {
    part = derivePart(id.n!, id.parts!, id.index!); // indexed once per process: no split kept here
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  if (part.digest !== id.digest) refuse(`its digest ${describe(id.digest)} is not that of part ${id.index} of ${id.parts} (n = ${id.n})`);
  return part;
}

/** A plain identity's n, parts and split version are the run's and this worker's (else refused, naming both). */
function checkPlainRun(id: Partial<PartIdentity>, run: RecordedRun, what: "part" | "job", refuse: (why: string) => never): void {
  if (id.n !== run.n || id.parts !== run.parts || id.splitVersion !== run.splitVersion) {
    refuse(`it is a ${what} of n = ${id.n}, ${id.parts} parts, split version ${id.splitVersion}; the run is n = ${String(run.n)}, ${String(run.parts)} parts, split version ${String(run.splitVersion)}`);
  }
  if (id.splitVersion !== SPLIT_VERSION) refuse(`its split version ${id.splitVersion} is not this worker's (${SPLIT_VERSION})`);
}

function constrainedPartOf(id: Partial<PartIdentity>, run: RecordedRun, maxParts: number, refuse: (why: string) => never): Part {
  const board = run.board as RecordedBoard | undefined;
  if (id.kind !== "constrained") return refuse(`it is a part of a plain count (kind ${describe(id.kind)}); the run counts a board with given queens or blocked squares`);
  if (board === undefined) return refuse("it is a part of a constrained board's count; the run is a plain count");
  if (typeof board !== "object" || board === null || typeof board.digest !== "string" || !Number.isSafeInteger(board.depth) || board.n !== run.n) {
    return refuse("the run's record holds no readable board");
  }
  if (!Number.isSafeInteger(id.depth)) refuse(`its depth is ${describe(id.depth)}, not an integer`);
  if (typeof id.board !== "string") refuse(`its board is ${describe(id.board)}, not a board's digest`);
  if (id.n !== run.n || id.board !== board.digest || id.depth !== board.depth || id.parts !== run.parts || id.splitVersion !== run.splitVersion) {
    refuse(
      `it is a part of n = ${id.n}, board ${id.board}, depth ${id.depth}, ${id.parts} parts, split version ${id.splitVersion}; ` +
      `the run is n = ${String(run.n)}, board ${board.digest}, depth ${board.depth}, ${String(run.parts)} parts, split version ${String(run.splitVersion)}`,
    );
  }
  if (id.splitVersion !== CONSTRAINED_SPLIT_VERSION) refuse(`its split version ${id.splitVersion} is not this worker's constrained split (${CONSTRAINED_SPLIT_VERSION})`);
  let part: ConstrainedPart;
  try {
    part = deriveConstrainedPart(board, id.depth!, id.parts!, id.index!, maxParts);
  } catch (error) {
    return refuse(`the run's board and its identity give no part: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (part.digest !== id.digest) refuse(`its digest ${describe(id.digest)} is not that of constrained part ${id.index} of ${id.parts} (n = ${id.n}, board ${id.board})`);
  return part;
}

// ---- the protocol's functions of one part (the package's API) ---------------------------

/**
 * Checks that a value is a part of this package's split (either kind): its identity re-derived
 * and its content and digest compared. Returns the re-derived part; NQ_PART_MISMATCH otherwise.
 */
export function checkAnyPart<P extends Part>(value: P): P {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid("part", ` must be an object made by splitCount, got ${describe(value)}`, TypeError);
  return kindOf(value).check(value) as P;
}

/**
 * A result checked against its part, holding only its own fields (each read once);
 * NQ_PART_MISMATCH otherwise: the check every thread's answer, checkpoint entry and queue
 * result passes before anyone adds it.
 */
export function checkPartCount(part: CountPart, result: unknown): PartCount;
export function checkPartCount(part: ConstrainedPart, result: unknown, label?: string): ConstrainedPartCount;
export function checkPartCount(part: Part, result: unknown, label?: string): PartResult;
export function checkPartCount(part: Part, result: unknown, label?: string): PartResult {
  if (typeof part !== "object" || part === null || Array.isArray(part)) throw invalid("part", ` must be an object made by splitCount, got ${describe(part)}`, TypeError);
  return kindOf(part).checkResult(part, result, label);
}

/** Whether the GPU engine counts parts of this kind (plain boards' parts). */
export function gpuCounts(part: Part): boolean {
  return kindOf(part).gpu;
}

/**
 * Counts one part (either kind) on the chosen engine, synchronously, after checking it
 * (checkAnyPart: anything but a part of the split is refused, NQ_PART_MISMATCH). Long at large
 * n: countPart is the abortable form.
 * @example const result = countTask(splitCount(10)[0]);
 */
export function countTask(part: CountPart, options?: { engine?: EngineName }): PartCount;
export function countTask(part: ConstrainedPart, options?: { engine?: EngineName }): ConstrainedPartCount;
export function countTask(part: Part, options?: { engine?: EngineName }): PartResult;
export function countTask(part: Part, options?: { engine?: EngineName }): PartResult {
  const checked = checkAnyPart(part);
  const opts = checkOptions<{ engine: EngineName }>("countTask", options, ["engine"]);
  return kindOf(checked).countNow(checked, opts.engine);
}

/**
 * countTask in chunks of about 10 ms that honour `signal` and `timeoutMs` (within ~100 ms),
 * yielding to the event loop between chunks: for workers that must stop or hand a part back.
 * @example const result = await countPart(part, { signal: controller.signal });
 */
export function countPart(part: CountPart, options?: CountPartOptions): Promise<PartCount>;
export function countPart(part: ConstrainedPart, options?: CountPartOptions): Promise<ConstrainedPartCount>;
export function countPart(part: Part, options?: CountPartOptions): Promise<PartResult>;
export async function countPart(part: Part, options?: CountPartOptions): Promise<PartResult> {
  const checked = checkAnyPart(part);
  const opts = checkOptions<CountPartOptions>("countPart", options, ["engine", "signal", "timeoutMs"]);
  pickEngine(opts.engine);
  const pacer = Pacer.from<never>({ signal: opts.signal, timeoutMs: opts.timeoutMs });
  pacer.throwIfAborted();
  const what = `countPart(part ${checked.part} of ${checked.parts}, n = ${checked.n})`;
  return kindOf(checked).count(checked, opts.engine, async () => {
    pacer.throwIfStopped(what);
    await pacer.between(() => undefined as never);
  });
}

/**
 * A part checked (checkAnyPart), then counted in chunks, calling `between` after each (which
 * may throw to stop): the counting thread's countPart, which keeps its own stop. It reads the
 * kinds' check and count only, so the thread's bundle holds nothing else of them.
 */
export function checkAndCount(part: Part, engine: EngineName | undefined, between: () => Promise<void>): Promise<PartResult> {
  if (isConstrained(part)) return countConstrainedChunked(checkConstrainedPart(part), engine, between);
  return countChunked(checkPart(part as CountPart), engine, between);
}

// ---- splitting and merging (the package's API) -----------------------------------------

/** splitCount's options: how many parts, and the board's givens. */
export type SplitOptions = {
  /** About how many parts (default: 8 to 256 by n; 64 with givens); fewer when the board has fewer. */
  parts?: number;
  /** Queens given in advance, [row, col] pairs, 0-based (then n <= 1000). */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
};

/**
 * Splits count(n) (with `fixed` or `blocked`: the count of that board) into plain-JSON parts.
 * Deterministic: the same board and parts give the same JSON. There may be fewer parts than
 * asked when the board has fewer tasks (maxParts(n): 835,600 at n = 16) or prefixes.
 * @example const parts = splitCount(16, { parts: 64 }); // 64 plain-JSON parts
 * @example const parts = splitCount(10, { parts: 8, blocked: [[0, 0]] }); // 8 parts of that board
 */
export function splitCount(n: number, options?: { parts?: number }): CountPart[];
export function splitCount(n: number, options?: SplitOptions): Part[];
export function splitCount(n: number, options?: SplitOptions): Part[] {
  const opts = checkOptions<SplitOptions>("splitCount", options, ["parts", "fixed", "blocked"]);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "splitCount", plain: [4, COUNT_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  return splitBoard(board, opts.parts).all();
}

/**
 * Adds up the results of every part of a split, exactly. `expected` names the split: `{ n,
 * parts }` for a plain one, or its parts (a list of some of them names the whole split, so the
 * results must cover all of it). Each result is read once, checked against its part
 * (checkPartCount), and there must be exactly one per part: NQ_PART_MISMATCH for a foreign
 * result, NQ_PARTS_INCOMPLETE for a missing or repeated part.
 * @example const { total } = mergeCounts(results, { n: 12, parts: 64 });
 * @example const { total } = mergeCounts(results, splitCount(10, { blocked: [[0, 0]] }));
 */
export function mergeCounts(results: readonly PartCount[], expected: { n: number; parts: number } | readonly CountPart[]): MergedCount;
export function mergeCounts(results: readonly PartResult[], expected: { n: number; parts: number } | readonly Part[]): MergedParts;
export function mergeCounts(results: readonly PartResult[], expected: { n: number; parts: number } | readonly Part[]): MergedParts {
  if (!Array.isArray(expected)) return mergePlainCounts(results as PartCount[], expected as { n: number; parts: number });
  const first: unknown = expected[0];
  if (typeof first === "object" && first !== null && (first as { kind?: unknown }).kind === "constrained") {
    const split = expected as readonly ConstrainedPart[];
    return { n: (first as ConstrainedPart).n, ...mergeConstrainedCounts(results as ConstrainedPartCount[], split), unique: null };
  }
  if (typeof first !== "object" || first === null) {
    throw invalid("expected", ` must be { n, parts } or the split's parts (from splitCount), got ${describe(expected)}`, TypeError);
  }
  const p = first as CountPart;
  return mergePlainCounts(results as PartCount[], { n: p.n, parts: p.parts });
}
