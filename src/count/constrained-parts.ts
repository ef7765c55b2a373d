// Parts of a constrained count (countParallel, its checkpoints, the queue), made from the
// prefix split of ./constrained.ts: splitConstrainedCount, the part and result checks, the
// counting of a part (at once or in paced chunks), the queue's board record, and the merge.
import { RUNNING, EXHAUSTED, type EngineName } from "../engine/contract.js";
import { checkConstraints, constraintLists, type BoardConstraints, type Constraints, type Square } from "../board/constraints.js";
import { ChunkSizer, Pacer, now, type TimeoutOptions } from "../core/pacer.js";
import { ErrorCode, rangeError, timeoutError, typeError, withCode, invalid } from "../core/errors.js";
import { fnv1a64 } from "../core/digest.js";
import { constrainedCapacity } from "./bounds.js";
import { checkInteger, checkOptions, describe, shown } from "../core/validate.js";
import { pickEngine } from "../engine/select.js";
import {
  CONSTRAINED_MAX_DEPTH, CONSTRAINED_MAX_N, CONSTRAINED_SPLIT_VERSION, countConstrainedNow, depthFor, openConstrainedCount, prefixConstraints, prefixesAt,
} from "./constrained.js";

// Parts of a constrained count (for countParallel and its checkpoints). A part is fully
// determined by its identity: the board (n and its givens, normalised), the split's
// version, depth and number of parts, and its index; the prefixes of that depth are
// dealt round-robin. `digest` covers all of it; a result carries the identity and digest,
// and is checked against the part re-derived from the identity before it is added.

/** One part of a constrained count, as plain JSON. */
export type ConstrainedPart = {
  kind: "constrained";
  splitVersion: number;
  n: number;
  /** The board's given queens and blocked squares, normalised (by row, then column). */
  fixed: Square[];
  blocked: Square[];
  /** How many free rows the prefixes place. */
  depth: number;
  part: number;
  parts: number;
  /** Each prefix: queens added to the givens; the prefixes of all parts partition the solutions. */
  prefixes: Square[][];
  digest: string;
};

/** What counting one constrained part found (bigints as decimal strings), with the part's identity and digest. */
export type ConstrainedPartCount = {
  kind: "constrained";
  splitVersion: number;
  n: number;
  part: number;
  parts: number;
  digest: string;
  total: string;
  nodes: string;
};

function partText(part: Omit<ConstrainedPart, "digest">): string {
  const list = (squares: readonly Square[]): string => squares.map(([r, c]) => `${r}:${c}`).join(",");
  let text = `nqueens-constrained-part v${part.splitVersion} n=${part.n} depth=${part.depth} part=${part.part}/${part.parts}\n`;
  text += `fixed=${list(part.fixed)}\nblocked=${list(part.blocked)}\n`;
  for (const prefix of part.prefixes) text += `${list(prefix)}\n`;
  return text;
}

/**
 * The board's givens as sorted lists that give the same board back through checkConstraints:
 * constraintLists, plus the squares of a conflict (two queens given on one row keep one in
 * fixedColumn; the other must stay, or the board read back would have solutions).
 */
function rawLists(constraints: Constraints): { fixed: Square[]; blocked: Square[] } {
  const { fixed, blocked } = constraintLists(constraints);
  if (constraints.conflict === null) return { fixed, blocked };
  const key = ([r, c]: Square): number => r * constraints.n + c;
  const all = new Map(fixed.map((s) => [key(s), s] as const));
  for (const s of constraints.conflict.squares) all.set(key(s), [s[0], s[1]]); // given queens, each
  return { fixed: [...all.values()].sort((a, b) => key(a) - key(b)), blocked };
}

const listsText = (l: { fixed: Square[]; blocked: Square[] }): string => JSON.stringify(l);

/**
 * The board's lists in normal form: rawLists read back until they give themselves again. A
 * board with more than one conflict (two queens on a row, one of them on a blocked square)
 * reports one of them, and its lists read back may report another: the fixed point is the
 * same on every path (this thread, a worker re-deriving a part, a queue worker reading the
 * run's record), so the same givens give the same parts and digests everywhere.
 */
function givenLists(constraints: Constraints): { fixed: Square[]; blocked: Square[] } {
  let lists = rawLists(constraints);
  for (let round = 0; constraints.conflict !== null && round < 8; round++) {
    const again = rawLists(checkConstraints(constraints.n, lists, "a constrained part"));
    if (listsText(again) === listsText(lists)) break;
    lists = again;
  }
  return lists;
}

function dealConstrained(constraints: Constraints, depth: number, parts: number, only?: number, limit = Infinity): ConstrainedPart[] {
  const { fixed, blocked } = givenLists(constraints);
  const prefixes = prefixesAt(constraints, depth, limit);
  const available = Math.max(1, prefixes.length); // no prefix at all: one part, counting 0
  if (parts > available) throw invalid("parts", ` must be an integer from 1 to ${available} for this board at depth ${depth}, got ${parts}`);
  const result: ConstrainedPart[] = [];
  for (let part = 0; part < parts; part++) {
    if (only !== undefined && part !== only) continue;
    const mine = prefixes.filter((_, i) => i % parts === part);
    const body = { kind: "constrained" as const, splitVersion: CONSTRAINED_SPLIT_VERSION, n: constraints.n, fixed, blocked, depth, part, parts, prefixes: mine };
    result.push({ ...body, digest: fnv1a64(partText(body)) });
  }
  return result;
}

/** Most parts splitConstrainedCount makes (a split holds at most a few hundred thousand prefixes at its depth). */
export const CONSTRAINED_SPLIT_MAX_PARTS = 1 << 20;

/** Whether `value` is checkConstraints's output for n (a split of the package's own), rather than givens as lists. */
function isNormalised(value: unknown, n: number): value is Constraints {
  const c = value as Constraints;
  return typeof c === "object" && c !== null && c.n === n && c.fixedColumn instanceof Int32Array && c.fixedColumn.length === n &&
    c.blockedStart instanceof Int32Array && c.blockedStart.length === n + 1 && c.blockedCols instanceof Int32Array &&
    c.blockedStart[n] === c.blockedCols.length && typeof c.empty === "boolean" && "conflict" in c;
}

/**
 * Splits count(n, { fixed, blocked }) into parts (about `parts`; fewer when the board has
 * fewer prefixes). Deterministic: the same board and parts give the same JSON. The givens are
 * checked as count checks them (1 <= n <= 64, 1 <= parts <= 2^20, NQ_INVALID_ARGUMENT otherwise).
 * @example const split = splitConstrainedCount(10, { blocked: [[0, 0]] }, 8); // 8 plain-JSON parts
 */
export function splitConstrainedCount(n: number, givens: Constraints | BoardConstraints, parts: number): ConstrainedPart[] {
  checkInteger("n", n, 1, CONSTRAINED_MAX_N);
  checkInteger("parts", parts, 1, CONSTRAINED_SPLIT_MAX_PARTS);
  const constraints = isNormalised(givens, n) ? givens : checkConstraints(n, givens as BoardConstraints, "splitConstrainedCount");
  const depth = depthFor(constraints, parts);
  return dealConstrained(constraints, depth, Math.min(parts, Math.max(1, prefixesAt(constraints, depth).length)));
}

function mismatch(message: string): RangeError & { code: string } {
  return withCode(new RangeError(message), ErrorCode.partMismatch);
}

/** Checks a constrained part against the part its identity gives (re-derived); returns the re-derived part. */
export function checkConstrainedPart(value: unknown): ConstrainedPart {
  if (typeof value !== "object" || value === null) throw invalid("part", " must be an object made by splitConstrainedCount", TypeError);
  const p = value as ConstrainedPart;
  const label = `constrained part ${String(p.part)} of ${String(p.parts)} (n = ${String(p.n)})`;
  if (p.kind !== "constrained" || p.splitVersion !== CONSTRAINED_SPLIT_VERSION) throw mismatch(`${label} is not a part of this package's constrained split (version ${CONSTRAINED_SPLIT_VERSION})`);
  let derived: ConstrainedPart;
  try {
    if (!Number.isInteger(p.n) || p.n < 1 || p.n > CONSTRAINED_MAX_N) throw new Error(`n must be from 1 to ${CONSTRAINED_MAX_N}`);
    if (!Number.isInteger(p.depth) || p.depth < 0 || p.depth > CONSTRAINED_MAX_DEPTH) throw new Error(`depth must be from 0 to ${CONSTRAINED_MAX_DEPTH}`);
    if (!Number.isInteger(p.parts) || !Number.isInteger(p.part) || p.part < 0 || p.part >= p.parts) throw new Error("0 <= part < parts");
    const constraints = checkConstraints(p.n, { fixed: p.fixed, blocked: p.blocked }, "a constrained part");
    // Its prefixes as the digest reads them: a list of lists of [row, col] integer pairs.
    const isSquare = (q: unknown): boolean => Array.isArray(q) && q.length === 2 && q.every(Number.isInteger);
    if (!Array.isArray(p.prefixes) || !p.prefixes.every((prefix) => Array.isArray(prefix) && prefix.every(isSquare))) {
      throw new Error(`its prefixes must be a list of lists of [row, col] pairs, got ${shown(p.prefixes)}`);
    }
    derived = dealConstrained(constraints, p.depth, p.parts, p.part)[0];
  } catch (error) {
    throw mismatch(`${label} is not a valid part: ${(error as Error).message}`);
  }
  const given = fnv1a64(partText(p));
  if (given !== derived.digest || p.digest !== derived.digest) {
    throw mismatch(`${label} does not match its identity (digest ${String(p.digest)}, content ${given}, expected ${derived.digest})`);
  }
  return derived;
}

/** Counts one constrained part (synchronously; the part is checked first, NQ_PART_MISMATCH otherwise). */
export function countConstrainedPart(part: ConstrainedPart, options?: { engine?: EngineName }): ConstrainedPartCount {
  const checked = checkConstrainedPart(part);
  const engine = pickEngine(options?.engine);
  const constraints = checkConstraints(checked.n, { fixed: checked.fixed, blocked: checked.blocked }, "a constrained part");
  let total = 0n, nodes = 0n;
  for (const prefix of checked.prefixes) {
    const r = countConstrainedNow(checked.n, prefixConstraints(constraints, prefix), engine);
    total += r.total;
    nodes += r.nodes;
  }
  const { splitVersion, n, part: index, parts, digest } = checked;
  return { kind: "constrained", splitVersion, n, part: index, parts, digest, total: String(total), nodes: String(nodes) };
}

/** countConstrainedPartAsync's options: the engine, and signal and timeoutMs (TimeoutOptions). */
export interface ConstrainedCountOptions extends TimeoutOptions {
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
}

/**
 * countConstrainedPart in chunks of about 10 ms (the complete search is resumable) that honour
 * `signal` and `timeoutMs` within ~100 ms, yielding to the event loop between them: for
 * workers that must stop or hand a part back. The part is checked first (NQ_PART_MISMATCH).
 * @example const result = await countConstrainedPartAsync(part, { signal: controller.signal });
 */
export async function countConstrainedPartAsync(part: ConstrainedPart, options?: ConstrainedCountOptions): Promise<ConstrainedPartCount> {
  const opts = checkOptions<ConstrainedCountOptions>("countConstrainedPartAsync", options, ["engine", "signal", "timeoutMs"]);
  const pacer = Pacer.from<never>({ signal: opts.signal, timeoutMs: opts.timeoutMs });
  pacer.throwIfAborted();
  const checked = checkConstrainedPart(part);
  const engine = pickEngine(opts.engine);
  const constraints = checkConstraints(checked.n, { fixed: checked.fixed, blocked: checked.blocked }, "a constrained part");
  const what = `countConstrainedPartAsync(part ${checked.part} of ${checked.parts}, n = ${checked.n})`;
  const sizer = new ChunkSizer(); // shared by the prefixes: they are alike
  let total = 0n, nodes = 0n;
  for (const prefix of checked.prefixes) {
    const board = prefixConstraints(constraints, prefix);
    if (board.conflict !== null) continue;
    const search = openConstrainedCount(engine, checked.n, board);
    try {
      for (;;) {
        const stop = pacer.stopReason();
        if (stop === "aborted") pacer.throwIfAborted();
        if (stop === "timeout") throw timeoutError(what, pacer.timeoutMs);
        const t0 = now();
        const status = search.run(search.work() + sizer.get());
        if (status === EXHAUSTED) break; // (a search that ended early says nothing of how long a full chunk takes)
        sizer.observe(now() - t0);
        if (status !== RUNNING) throw new Error(`the complete search stopped with status ${status} while counting (a bug)`);
        await pacer.between(() => undefined as never);
      }
      total += search.solutions!();
      nodes += BigInt(search.stats().nodes);
    } finally {
      search.close();
    }
  }
  const { splitVersion, n, part: index, parts, digest } = checked;
  return { kind: "constrained", splitVersion, n, part: index, parts, digest, total: String(total), nodes: String(nodes) };
}

/**
 * A constrained board as a queue run records it: n, the givens as sorted lists (a same-row
 * conflict kept, so they give the same board back) and `digest`, the FNV-1a 64 of all of it
 * with the split version: two boards never share a digest's queue by accident.
 */
export type ConstrainedBoard = { n: number; fixed: Square[]; blocked: Square[]; digest: string };

function boardText(n: number, fixed: readonly Square[], blocked: readonly Square[]): string {
  const list = (squares: readonly Square[]): string => squares.map(([r, c]) => `${r}:${c}`).join(",");
  return `nqueens-constrained-board v${CONSTRAINED_SPLIT_VERSION} n=${n}\nfixed=${list(fixed)}\nblocked=${list(blocked)}\n`;
}

/** The board's record (normalised givens and digest) for a queue run. */
export function constrainedBoard(constraints: Constraints): ConstrainedBoard {
  const { fixed, blocked } = givenLists(constraints);
  return { n: constraints.n, fixed, blocked, digest: fnv1a64(boardText(constraints.n, fixed, blocked)) };
}

/**
 * Part `index` of the split of a recorded board at `depth` into `parts` parts, re-derived
 * (the queue worker's check of a job: nothing but the board's record and the job's identity
 * is used). Refuses, with a RangeError saying why: a board whose lists do not give its
 * digest or are not in normal form, a depth, parts or index out of range, and a split that
 * places more than parts * n prefixes in some row (no split made by splitConstrainedCount
 * does; a forged one could take hours or all memory).
 */
export function deriveConstrainedPart(board: ConstrainedBoard, depth: number, parts: number, index: number, maxParts: number): ConstrainedPart {
  const { n } = board;
  if (!Number.isInteger(n) || n < 1 || n > CONSTRAINED_MAX_N) throw invalid("n", ` must be an integer from 1 to ${CONSTRAINED_MAX_N}, got ${describe(n)}`);
  if (!Number.isInteger(depth) || depth < 0 || depth > CONSTRAINED_MAX_DEPTH) throw invalid("depth", ` must be an integer from 0 to ${CONSTRAINED_MAX_DEPTH}, got ${describe(depth)}`);
  if (!Number.isInteger(parts) || parts < 1 || parts > maxParts) throw invalid("parts", ` must be an integer from 1 to ${maxParts}, got ${describe(parts)}`);
  if (!Number.isInteger(index) || index < 0 || index >= parts) throw rangeError(`the part index must be an integer from 0 to ${parts - 1}, got ${describe(index)}`);
  const constraints = checkConstraints(n, { fixed: board.fixed, blocked: board.blocked }, "the run's board");
  const normal = constrainedBoard(constraints);
  if (normal.digest !== board.digest || boardText(n, board.fixed, board.blocked) !== boardText(n, normal.fixed, normal.blocked)) {
    throw rangeError(`the board's givens (digest ${normal.digest}) do not match its digest ${describe(board.digest)}`);
  }
  return dealConstrained(constraints, depth, parts, index, parts * n)[0];
}

const DECIMAL = /^(0|[1-9][0-9]{0,39})$/;

const RESULT_FIELDS = ["kind", "splitVersion", "n", "part", "parts", "digest", "total", "nodes"] as const;

/**
 * One read of each field of a result into a plain object: what is checked is what is summed
 * (a getter or a Proxy answering differently on a second read changes nothing).
 */
function snapshot(value: object): Record<(typeof RESULT_FIELDS)[number], unknown> {
  const out = {} as Record<(typeof RESULT_FIELDS)[number], unknown>;
  for (const key of RESULT_FIELDS) out[key] = (value as Record<string, unknown>)[key];
  return out;
}


/**
 * Checks one result against its part (for a worker's answer and a checkpoint entry): the
 * part's identity and digest, decimal counts, total <= nodes (each solution is a node), and
 * both within what the part's board can hold (constrainedCapacity). Each field of `value` is
 * read once; returns that copy (only the result's own fields); NQ_PART_MISMATCH otherwise.
 */
export function checkConstrainedPartCount(part: ConstrainedPart, value: unknown, label = "the result"): ConstrainedPartCount {
  if (typeof value !== "object" || value === null) throw mismatch(`${label} is not a count of constrained part ${part.part}`);
  const r = snapshot(value);
  for (const key of ["kind", "splitVersion", "n", "part", "parts", "digest"] as const) {
    if (r[key] !== part[key]) throw mismatch(`${label} has ${key} ${typeof r[key] === "string" ? r[key] : describe(r[key])}, not ${String(part[key])}: it is not a count of constrained part ${part.part}`);
  }
  if (typeof r.total !== "string" || !DECIMAL.test(r.total) || typeof r.nodes !== "string" || !DECIMAL.test(r.nodes) || BigInt(r.total) > BigInt(r.nodes)) {
    throw mismatch(`${label} (constrained part ${part.part}) has total ${describe(r.total)} and nodes ${describe(r.nodes)}: not counts of a search`);
  }
  const cap = constrainedCapacity(part);
  if (BigInt(r.total) > cap.total) {
    throw mismatch(`${label} (constrained part ${part.part}) has total ${r.total}; its board holds at most ${cap.total} solutions (free squares of its open rows, multiplied)`);
  }
  if (BigInt(r.nodes) > cap.nodes) {
    throw mismatch(`${label} (constrained part ${part.part}) has nodes ${r.nodes}; its search visits at most ${cap.nodes}`);
  }
  return r as ConstrainedPartCount;
}

/**
 * The whole split that `split` names, re-derived from its first part's identity (board, depth,
 * parts), each given part checked against it: a list of some of a split's parts names the
 * whole split, so the results must cover all of it.
 */
function wholeSplit(split: readonly ConstrainedPart[]): ConstrainedPart[] {
  if (!Array.isArray(split) || split.length === 0) {
    throw typeError(`mergeConstrainedCounts needs the split it adds up (a non-empty list of parts from splitConstrainedCount), got ${describe(split)}`);
  }
  const first = checkConstrainedPart(split[0]);
  const constraints = checkConstraints(first.n, { fixed: first.fixed, blocked: first.blocked }, "a constrained part");
  const whole = dealConstrained(constraints, first.depth, first.parts);
  for (const [i, p] of split.entries()) {
    const digest = (p as { digest?: unknown } | null)?.digest;
    const index = (p as { part?: unknown } | null)?.part as number;
    if (!Number.isInteger(index) || whole[index] === undefined || whole[index].digest !== digest) {
      throw mismatch(`split[${i}] is not a part of the split that split[0] belongs to (constrained part ${describe(index)} of ${first.parts})`);
    }
  }
  return whole;
}

/**
 * Adds up the results of every part of a constrained split, exactly. The split is the one
 * `split` names (re-derived from its first part: all its parts, not just those listed); each
 * result is read once into plain values, must carry the identity and digest of its part,
 * decimal counts within what the part can hold (checkConstrainedPartCount), and there must be
 * exactly one per part: NQ_PARTS_INCOMPLETE for missing or repeated parts (an empty list
 * included), NQ_PART_MISMATCH for foreign ones.
 * @example const { total } = mergeConstrainedCounts(results, splitConstrainedCount(10, constraints, 8));
 */
export function mergeConstrainedCounts(results: readonly ConstrainedPartCount[], split: readonly ConstrainedPart[]): { total: bigint; nodes: bigint } {
  if (!Array.isArray(results)) throw invalid("results", ` must be an array of constrained part counts, got ${describe(results)}`, TypeError);
  const whole = wholeSplit(split);
  const list: unknown[] = Array.from(results); // each element read once
  const byPart = new Map<number, ConstrainedPartCount>();
  for (const [i, value] of list.entries()) {
    if (typeof value !== "object" || value === null) throw mismatch(`results[${i}] is ${describe(value)}, not a constrained part count`);
    const r = snapshot(value);
    const part = Number.isInteger(r.part) ? whole[r.part as number] : undefined;
    if (part === undefined) {
      throw mismatch(`results[${i}] is not a result of a part of this constrained split of ${whole.length} parts (part ${describe(r.part)})`);
    }
    const checked = checkConstrainedPartCount(part, r, `results[${i}]`);
    if (byPart.has(checked.part)) {
      throw withCode(new RangeError(`results hold constrained part ${checked.part} of ${whole.length} twice`), ErrorCode.partsIncomplete);
    }
    byPart.set(checked.part, checked);
  }
  if (byPart.size !== whole.length) {
    const missing = whole.filter((p) => !byPart.has(p.part)).map((p) => p.part);
    const shown = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", ..." : "");
    throw withCode(
      new RangeError(`results hold ${byPart.size} of ${whole.length} constrained parts; missing part${missing.length > 1 ? "s" : ""} ${shown}: every part must be counted once`),
      ErrorCode.partsIncomplete,
    );
  }
  let total = 0n, nodes = 0n;
  for (const r of byPart.values()) {
    total += BigInt(r.total);
    nodes += BigInt(r.nodes);
  }
  return { total, nodes };
}
