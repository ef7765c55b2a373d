// The constrained kind of part (src/count/split.ts is the protocol over both kinds): a board
// with given queens or blocked squares cut by the prefix split of ./constrained.ts; the part and
// result checks, the counting of a part (at once or in chunks), a part re-derived from a run's
// recorded board, and the merge.
import { RUNNING, EXHAUSTED, type EngineName } from "../engine/contract.js";
import { checkConstraints, type Square } from "../board/constraints.js";
import { boardOfConstraints, boardText, squaresText, type Board } from "../board/board.js";
import { ChunkSizer, now, runSteps, type Steps } from "../core/pacer.js";
import { ErrorCode, rangeError, typeError, withCode, invalid } from "../core/errors.js";
import { contentDigest } from "../core/digest.js";
import { constrainedCapacity } from "./bounds.js";
import { describe, shown } from "../core/validate.js";
import { pickEngine } from "../engine/select.js";
import {
  CONSTRAINED_MAX_DEPTH, CONSTRAINED_MAX_N, CONSTRAINED_SPLIT_VERSION, countConstrainedNow, depthSteps, openConstrainedCount, prefixConstraints, prefixesAt,
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

/** The board's lines of a part's text (at n = 1000 with 143,602 blocked squares, 1.1 MB: 55 ms). */
const listsText = (board: { fixed: readonly Square[]; blocked: readonly Square[] }): string => `fixed=${squaresText(board.fixed)}\nblocked=${squaresText(board.blocked)}\n`;

/** The text a part's digest hashes; `lists`, its board's lines, made once for all the parts of a board. */
function partText(part: Omit<ConstrainedPart, "digest">, lists = listsText(part)): string {
  let text = `nqueens-constrained-part v${part.splitVersion} n=${part.n} depth=${part.depth} part=${part.part}/${part.parts}\n${lists}`;
  for (const prefix of part.prefixes) text += `${squaresText(prefix)}\n`;
  return text;
}

/** The parts of the board's split at `depth` (its prefixes given), in steps: one a part (its digest at n = 1000 with 143,602 blocked squares: 15 ms), each yield the parts made so far. */
function* dealSteps(board: Board, depth: number, prefixes: Square[][], parts: number, only?: number): Steps<ConstrainedPart[]> {
  const { constraints } = board;
  const fixed = board.fixed as Square[], blocked = board.blocked as Square[];
  const available = Math.max(1, prefixes.length); // no prefix at all: one part, counting 0
  if (parts > available) throw invalid("parts", ` must be an integer from 1 to ${available} for this board at depth ${depth}, got ${parts}`);
  const result: ConstrainedPart[] = [];
  const lists = listsText(board);
  // The prefixes dealt round-robin, in one pass (a filter a part was parts x prefixes steps).
  const dealt: Square[][][] = Array.from({ length: parts }, () => []);
  prefixes.forEach((prefix, i) => dealt[i % parts].push(prefix));
  for (let part = only ?? 0; part <= (only ?? parts - 1); part++) {
    const body = { kind: "constrained" as const, splitVersion: CONSTRAINED_SPLIT_VERSION, n: constraints.n, fixed, blocked, depth, part, parts, prefixes: dealt[part] };
    result.push({ ...body, digest: contentDigest(partText(body, lists)) });
    yield result.length;
  }
  return result;
}

function dealConstrained(board: Board, depth: number, parts: number, only?: number, limit = Infinity): ConstrainedPart[] {
  return runSteps(dealSteps(board, depth, prefixesAt(board.constraints, depth, limit), parts, only));
}

/** Most parts splitConstrainedCount makes (a split holds at most a few hundred thousand prefixes at its depth). */
export const CONSTRAINED_SPLIT_MAX_PARTS = 1 << 20;

/** The split of a board with givens into about `parts` parts (fewer when it has fewer prefixes): the shallowest depth with that many. */
export function splitConstrainedBoard(board: Board, parts: number): ConstrainedPart[] {
  return runSteps(splitConstrainedSteps(board, parts));
}

/** splitConstrainedBoard in steps (a row of a prefix, a part's digest), for a split made in slices that report and stop. */
export function* splitConstrainedSteps(board: Board, parts: number): Steps<ConstrainedPart[]> {
  const [depth, prefixes] = yield* depthSteps(board.constraints, parts);
  return yield* dealSteps(board, depth, prefixes, Math.min(parts, Math.max(1, prefixes.length)));
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
    const board = boardOfConstraints(checkConstraints(p.n, { fixed: p.fixed, blocked: p.blocked }, "a constrained part"));
    // Its prefixes as the digest reads them: a list of lists of [row, col] integer pairs.
    const isSquare = (q: unknown): boolean => Array.isArray(q) && q.length === 2 && q.every(Number.isInteger);
    if (!Array.isArray(p.prefixes) || !p.prefixes.every((prefix) => Array.isArray(prefix) && prefix.every(isSquare))) {
      throw new Error(`its prefixes must be a list of lists of [row, col] pairs, got ${shown(p.prefixes)}`);
    }
    derived = dealConstrained(board, p.depth, p.parts, p.part)[0];
  } catch (error) {
    throw mismatch(`${label} is not a valid part: ${(error as Error).message}`);
  }
  const given = contentDigest(partText(p));
  if (given !== derived.digest || p.digest !== derived.digest) {
    throw mismatch(`${label} does not match its identity (digest ${String(p.digest)}, content ${given}, expected ${derived.digest})`);
  }
  return derived;
}

/** Counts a checked constrained part at once, synchronously (countTask for a constrained part). */
export function countConstrainedNowPart(part: ConstrainedPart, engineName: EngineName | undefined): ConstrainedPartCount {
  const engine = pickEngine(engineName);
  const constraints = checkConstraints(part.n, { fixed: part.fixed, blocked: part.blocked }, "a constrained part");
  let total = 0n, nodes = 0n;
  for (const prefix of part.prefixes) {
    const r = countConstrainedNow(part.n, prefixConstraints(constraints, prefix), engine);
    total += r.total;
    nodes += r.nodes;
  }
  const { splitVersion, n, part: index, parts, digest } = part;
  return { kind: "constrained", splitVersion, n, part: index, parts, digest, total: String(total), nodes: String(nodes) };
}

/**
 * Counts a checked constrained part in chunks of about 10 ms (the complete search is
 * resumable), calling `between` after each (which may throw to stop): countPart's constrained kind.
 */
export async function countConstrainedChunked(part: ConstrainedPart, engineName: EngineName | undefined, between: () => Promise<void>): Promise<ConstrainedPartCount> {
  const engine = pickEngine(engineName);
  const constraints = checkConstraints(part.n, { fixed: part.fixed, blocked: part.blocked }, "a constrained part");
  const sizer = new ChunkSizer(); // shared by the prefixes: they are alike
  let total = 0n, nodes = 0n;
  for (const prefix of part.prefixes) {
    const board = prefixConstraints(constraints, prefix);
    if (board.conflict !== null) continue;
    const search = openConstrainedCount(engine, part.n, board);
    try {
      for (;;) {
        const t0 = now();
        const status = search.run(search.work() + sizer.get());
        if (status === EXHAUSTED) break; // (a search that ended early says nothing of how long a full chunk takes)
        sizer.observe(now() - t0);
        if (status !== RUNNING) throw new Error(`the complete search stopped with status ${status} while counting (a bug)`);
        await between();
      }
      total += search.solutions!();
      nodes += BigInt(search.stats().nodes);
    } finally {
      search.close();
    }
  }
  const { splitVersion, n, part: index, parts, digest } = part;
  return { kind: "constrained", splitVersion, n, part: index, parts, digest, total: String(total), nodes: String(nodes) };
}

/**
 * Part `index` of the split of a recorded board at `depth` into `parts` parts, re-derived
 * (the queue worker's check of a job: nothing but the board's record and the job's identity
 * is used). Refuses, with a RangeError saying why: a board whose lists do not give its
 * digest or are not in normal form, a depth, parts or index out of range, and a split that
 * places more than parts * n prefixes in some row (no split made by splitConstrainedCount
 * does; a forged one could take hours or all memory).
 */
export function deriveConstrainedPart(board: { n: number; fixed: readonly Square[]; blocked: readonly Square[]; digest: string }, depth: number, parts: number, index: number, maxParts: number): ConstrainedPart {
  const { n } = board;
  if (!Number.isInteger(n) || n < 1 || n > CONSTRAINED_MAX_N) throw invalid("n", ` must be an integer from 1 to ${CONSTRAINED_MAX_N}, got ${describe(n)}`);
  if (!Number.isInteger(depth) || depth < 0 || depth > CONSTRAINED_MAX_DEPTH) throw invalid("depth", ` must be an integer from 0 to ${CONSTRAINED_MAX_DEPTH}, got ${describe(depth)}`);
  if (!Number.isInteger(parts) || parts < 1 || parts > maxParts) throw invalid("parts", ` must be an integer from 1 to ${maxParts}, got ${describe(parts)}`);
  if (!Number.isInteger(index) || index < 0 || index >= parts) throw rangeError(`the part index must be an integer from 0 to ${parts - 1}, got ${describe(index)}`);
  const normal = boardOfConstraints(checkConstraints(n, { fixed: board.fixed, blocked: board.blocked }, "the run's board"));
  if (normal.digest !== board.digest || boardText(n, board.fixed, board.blocked) !== boardText(n, normal.fixed, normal.blocked)) {
    throw rangeError(`the board's givens (digest ${normal.digest}) do not match its digest ${describe(board.digest)}`);
  }
  return dealConstrained(normal, depth, parts, index, parts * n)[0];
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
  const board = boardOfConstraints(checkConstraints(first.n, { fixed: first.fixed, blocked: first.blocked }, "a constrained part"));
  const whole = dealConstrained(board, first.depth, first.parts);
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
