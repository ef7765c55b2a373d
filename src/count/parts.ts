// The plain kind of part (src/count/split.ts is the protocol over both kinds): the count of
// the plain board cut into parts, each a list of constellation tasks of src/count/tasks.ts
// (start constellations, those of no symmetry cut further by the queens of their first free
// rows), dealt out round-robin so neighbouring (similar) tasks land in different parts and the
// parts balance.
//
// Integrity: a part is fully determined by (n, splitVersion, parts, part); derivePart
// re-derives it in bounded time and memory, and `digest` (SHA-256, 128 bits: src/core/digest.ts)
// covers its identity and prefixes. Only the part re-derived from the identity is counted,
// after checking the given part matches it (checkPart); a result carries the part's identity
// and digest, and checkPlainCount range-checks its counts against the part before anyone adds
// them up. Nothing that fails a check is ever summed.
import type { ConstellationTask, EngineName } from "../engine/contract.js";
import {
  MAX_CONSTELLATION_TASKS, constellationIndexSteps, constellationTaskBounds, constellationTaskProblem, constellationTasksOf, constellationTasksOfRange, taskLine,
  walkConstellationSteps, type ConstellationIndex,
} from "./tasks.js";
import { pickEngine } from "../engine/select.js";
import { ErrorCode, typeError, withCode, invalid } from "../core/errors.js";
import { contentDigest } from "../core/digest.js";
import { ChunkSizer, now, runSteps, type Steps } from "../core/pacer.js";
import { COUNT_MAX_N } from "./count.js";
import { checkInteger, describe, shown } from "../core/validate.js";
import { symmetricTotal } from "../engine/count-types.js";

/**
 * Version of the task split: bump it whenever the prefixes, their order or how they are
 * dealt into parts change, so that old checkpoints and queues are refused.
 * 2: shallow, bounded splits (at most MAX_SPLIT_TASKS prefixes) and digests.
 * 3: start constellations, cut by preset rows (at most MAX_CONSTELLATION_TASKS tasks).
 * 4: digests are SHA-256 (128 bits), no longer FNV-1a 64 (src/core/digest.ts).
 */
export const SPLIT_VERSION = 4;

/** The most parts a split may be asked for: MAX_CONSTELLATION_TASKS; maxParts(n) is the most a board of n has. */
export const MAX_PARTS = MAX_CONSTELLATION_TASKS;

/** One part of a count, as plain JSON (bigints as decimal strings). */
export type CountPart = {
  splitVersion: number;
  n: number;
  /** This part's index, 0 .. parts - 1. */
  part: number;
  parts: number;
  /** The content digest (32 hex digits) of the part's identity, prefixNodes and prefixes: see partDigest. */
  digest: string;
  /** Queens placed while making the prefixes: carried by part 0 only, "0" elsewhere. */
  prefixNodes: string;
  prefixes: ConstellationTask[];
};

/** What counting one part found (bigints as decimal strings, so it is plain JSON), with the part's identity and digest. */
export type PartCount = {
  splitVersion: number;
  n: number;
  part: number;
  parts: number;
  /** The counted part's digest. */
  digest: string;
  count8: string;
  count4: string;
  count2: string;
  nodes: string;
};

export type MergedCount = { n: number; total: bigint; unique: bigint; nodes: bigint };

/** Default number of parts: enough to balance many workers, few enough to keep each worth a message. */
export function defaultParts(n: number): number {
  return n <= 10 ? 8 : n <= 14 ? 64 : 256;
}

/** The most preset rows a split uses. */
const MAX_PRESETS = 3;

/**
 * The split into `parts`: the fewest preset rows giving at least `parts` tasks, or where none
 * does (within MAX_CONSTELLATION_TASKS), the one giving the most.
 */
function splitFor(n: number, parts: number): ConstellationIndex {
  return runSteps(splitForSteps(n, parts));
}

function* splitForSteps(n: number, parts: number): Steps<ConstellationIndex> {
  let best = (yield* constellationIndexSteps(n, 0))!;
  for (let presets = 0; presets <= MAX_PRESETS; presets++) {
    const index = yield* constellationIndexSteps(n, presets);
    if (!index) break;
    if (index.tasks >= parts) return index;
    if (index.tasks > best.tasks) best = index;
  }
  return best;
}

/** How many parts a split of n asked for `asked` parts has (fewer when the board has fewer tasks: maxParts(n)). */
export function partsFor(n: number, asked: number): number {
  return runSteps(partsForSteps(n, asked));
}

/** partsFor in steps (the split's indices made: a constellation walked a step). */
export function* partsForSteps(n: number, asked: number): Steps<number> {
  return Math.min(asked, (yield* splitForSteps(n, asked)).tasks);
}

/** The most parts a split of n can have (its most tasks, within MAX_PARTS). */
export function maxParts(n: number): number {
  checkInteger("n", n, 4, COUNT_MAX_N);
  return splitFor(n, MAX_PARTS).tasks;
}

/** The text partDigest hashes: identity, prefixNodes, then one line per prefix. */
function digestText(part: Omit<CountPart, "digest">): string {
  let text = `nqueens-count-part v${part.splitVersion} n=${part.n} part=${part.part}/${part.parts} prefixNodes=${part.prefixNodes}\n`;
  for (const t of part.prefixes) text += `${taskLine(t)}\n`;
  return text;
}

/** The digest of a part's identity and content (SHA-256, 128 bits: 32 hex digits), whatever its `digest` field says. */
export function partDigest(part: Omit<CountPart, "digest"> & { digest?: string }): string {
  if (typeof part !== "object" || part === null || Array.isArray(part)) throw invalid("part", ` must be an object made by splitCount, got ${describe(part)}`, TypeError);
  const prefixes: unknown = part.prefixes;
  if (!Array.isArray(prefixes) || !prefixes.every((t) => typeof t === "object" && t !== null && Array.isArray((t as ConstellationTask).rows))) {
    throw invalid("part", `.prefixes must be an array of { i, j, k, l, rows } constellation tasks (as splitCount makes them), got ${describe(prefixes)}`, TypeError);
  }
  return contentDigest(digestText(part));
}

/** Every part of the split of n into exactly `parts` parts, in one walk. */
export function dealParts(n: number, parts: number): CountPart[] {
  return runSteps(dealSteps(n, parts));
}

/**
 * Every part of the split of n into exactly `parts` parts, in steps: the split's index made,
 * its tasks walked (a constellation a step), then its parts made (a part and its digest a step,
 * each step yielding the parts made so far): countParallel's split, paced (35 s for 835,600 parts at n = 16).
 */
export function* dealSteps(n: number, parts: number): Steps<CountPart[]> {
  const split = yield* exactSplitSteps(n, parts);
  const tasks: ConstellationTask[] = [];
  yield* walkConstellationSteps(n, split.presets, (task) => tasks.push(task));
  const made: CountPart[] = [];
  for (let i = 0; i < parts; i++) {
    const prefixes: ConstellationTask[] = [];
    for (let t = i; t < tasks.length; t += parts) prefixes.push(tasks[t]); // dealt round-robin
    made.push(madePart(n, parts, i, split.prefixNodes, prefixes));
    yield i + 1;
  }
  return made;
}

/** The split of n into exactly `parts` parts (refused where it has fewer tasks). */
function exactSplit(n: number, parts: number): ConstellationIndex {
  return runSteps(exactSplitSteps(n, parts));
}

function* exactSplitSteps(n: number, parts: number): Steps<ConstellationIndex> {
  const split = yield* splitForSteps(n, parts);
  if (split.tasks < parts) {
    throw invalid("parts", ` must be an integer from 1 to ${split.tasks} for n = ${n} (the tasks a split of n has), got ${parts}`);
  }
  return split;
}

function madePart(n: number, parts: number, part: number, prefixNodes: number, prefixes: ConstellationTask[]): CountPart {
  const body = { splitVersion: SPLIT_VERSION, n, part, parts, prefixNodes: part === 0 ? String(prefixNodes) : "0", prefixes };
  return { splitVersion: SPLIT_VERSION, n, part, parts, digest: partDigest(body), prefixNodes: body.prefixNodes, prefixes };
}

/**
 * Parts `first` .. `first + count - 1` of the split of n into exactly `parts` parts, in one walk
 * of the constellations they share (a queue job of consecutive parts: about one part's cost).
 */
export function derivePartRange(n: number, parts: number, first: number, count: number): CountPart[] {
  checkInteger("n", n, 4, COUNT_MAX_N);
  checkInteger("parts", parts, 1, MAX_PARTS);
  checkInteger("first", first, 0, parts - 1);
  checkInteger("count", count, 1, parts - first);
  const split = exactSplit(n, parts);
  return constellationTasksOfRange(split, parts, first, count).map((prefixes, i) => madePart(n, parts, first + i, split.prefixNodes, prefixes));
}

/**
 * Part `index` of the split of n into `parts` parts, re-derived from that identity alone
 * (bounded: the split's index, one walk made once per process, then the constellations that hold this part's tasks).
 * `parts` is the split's real number of parts (CountPart.parts), not the number asked.
 */
export function derivePart(n: number, parts: number, index: number): CountPart {
  checkInteger("n", n, 4, COUNT_MAX_N);
  checkInteger("parts", parts, 1, MAX_PARTS);
  checkInteger("index", index, 0, parts - 1);
  const split = exactSplit(n, parts);
  return madePart(n, parts, index, split.prefixNodes, constellationTasksOf(split, parts, index));
}

function mismatch(message: string): RangeError & { code: string } {
  return withCode(new RangeError(message), ErrorCode.partMismatch);
}

function name(part: { n: unknown; part: unknown; parts: unknown }): string {
  return `part ${describe(part.part)} of ${describe(part.parts)} (n = ${describe(part.n)})`;
}

/** Why a list of prefixes cannot be a split's: empty, malformed, duplicated, or with queens that attack each other. */
function prefixProblem(prefixes: unknown, n: number): string | undefined {
  if (!Array.isArray(prefixes)) return `its prefixes are ${describe(prefixes)}, not a list`;
  if (prefixes.length === 0) return "it has no prefixes";
  if (prefixes.length > MAX_CONSTELLATION_TASKS) return `it has ${prefixes.length} prefixes; a split holds at most ${MAX_CONSTELLATION_TASKS}`;
  const seen = new Set<string>();
  for (const [i, task] of (prefixes as unknown[]).entries()) {
    const problem = constellationTaskProblem(task, n);
    if (problem === "malformed") return `prefixes[${i}] is malformed: ${shown(task)}`;
    if (problem) return `prefixes[${i}] is not a task of the split: ${problem}`;
    const key = taskLine(task as ConstellationTask);
    if (seen.has(key)) return `prefixes[${i}] repeats an earlier prefix (${key})`;
    seen.add(key);
  }
  return undefined;
}

/**
 * Checks that a value is a part of this package's split: its identity is valid, and its
 * prefixes and digest are exactly those derivePart gives. Returns the re-derived part.
 * Throws a TypeError (not an object) or a RangeError with code NQ_PART_MISMATCH naming the part.
 */
export function checkPart(value: unknown): CountPart {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("part", ` must be an object made by splitCount, got ${describe(value)}`, TypeError);
  }
  const part = value as CountPart;
  if (part.splitVersion !== SPLIT_VERSION) {
    throw mismatch(`${name(part)} was made by task split version ${describe(part.splitVersion)}; this package uses version ${SPLIT_VERSION}`);
  }
  const identityOk = Number.isInteger(part.n) && part.n >= 4 && part.n <= COUNT_MAX_N &&
    Number.isInteger(part.parts) && part.parts >= 1 && part.parts <= MAX_PARTS &&
    Number.isInteger(part.part) && part.part >= 0 && part.part < part.parts;
  if (!identityOk) throw mismatch(`${name(part)} is not a valid part identity (n from 4 to ${COUNT_MAX_N}, 0 <= part < parts <= ${MAX_PARTS})`);
  const problem = prefixProblem(part.prefixes, part.n);
  if (problem) throw mismatch(`${name(part)} is not a part of the split: ${problem}`);
  let derived: CountPart;
  try {
    derived = derivePart(part.n, part.parts, part.part);
  } catch (error) {
    throw mismatch(`${name(part)} is not a part of any split: ${(error as Error).message}`);
  }
  if (typeof part.prefixNodes !== "string" || part.prefixNodes !== derived.prefixNodes) {
    throw mismatch(`${name(part)} has prefixNodes ${describe(part.prefixNodes)}; the split gives ${derived.prefixNodes}`);
  }
  const given = partDigest(part);
  if (given !== derived.digest) {
    throw mismatch(`${name(part)} holds other prefixes than the split deals to it (digest ${given}, expected ${derived.digest})`);
  }
  if (part.digest !== derived.digest) {
    throw mismatch(`${name(part)} carries digest ${describe(part.digest)}; its content's is ${derived.digest}`);
  }
  return derived;
}

/** Upper bounds of what a part can hold: solutions (unique) and nodes, from each task's free squares row by row (constellationTaskBounds). */
type Capacity = { unique: bigint; nodes: bigint; asymmetric: boolean };
const capacities = new WeakMap<CountPart, Capacity>();

function capacity(part: CountPart): Capacity {
  const known = capacities.get(part);
  if (known) return known;
  let unique = 0n, nodes = BigInt(part.prefixNodes), asymmetric = true;
  for (const t of part.prefixes) {
    const bounds = constellationTaskBounds(t, part.n);
    unique += bounds.solutions;
    nodes += bounds.nodes;
    if (bounds.symmetric) asymmetric = false;
  }
  const result = { unique, nodes, asymmetric };
  capacities.set(part, result);
  return result;
}

const DECIMAL = /^(0|[1-9][0-9]{0,39})$/;

const COUNT_FIELDS = ["splitVersion", "n", "part", "parts", "digest", "count8", "count4", "count2", "nodes"] as const;

/**
 * One read of each field of a result into a plain object: what is checked is what is summed
 * (a getter or a Proxy answering differently on a second read changes nothing).
 */
function snapshotCount(value: object): Record<(typeof COUNT_FIELDS)[number], unknown> {
  const out = {} as Record<(typeof COUNT_FIELDS)[number], unknown>;
  for (const key of COUNT_FIELDS) out[key] = (value as Record<string, unknown>)[key];
  return out;
}

/**
 * Checks that `result` is a count of plain `part` (a part from splitCount, derivePart or checkPart):
 * same identity and digest; counts non-negative decimal integers within what the part can
 * hold; count4 and count2 zero where they cannot occur (tasks of constellations no turn maps to themselves yield only count8;
 * boards with n mod 4 = 2 or 3 have no solution symmetric under a quarter turn); nodes at
 * least prefixNodes + solutions. Each field of `result` is read once: returns that copy (only
 * the result's own fields, plain values); throws RangeError NQ_PART_MISMATCH naming the part.
 */
export function checkPlainCount(part: CountPart, result: unknown): PartCount {
  if (typeof part !== "object" || part === null || Array.isArray(part)) throw invalid("part", ` must be an object made by splitCount, got ${describe(part)}`, TypeError);
  const label = name(part);
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    throw mismatch(`the result for ${label} is ${describe(result)}, not a countTask result`);
  }
  const r = snapshotCount(result);
  for (const key of ["splitVersion", "n", "part", "parts", "digest"] as const) {
    if (r[key] !== part[key]) {
      throw mismatch(`the result for ${label} has ${key} ${describe(r[key])}, not ${describe(part[key])}: it is not a count of this part`);
    }
  }
  const value: Record<string, bigint> = {};
  for (const key of ["count8", "count4", "count2", "nodes"] as const) {
    const v = r[key];
    if (typeof v !== "string" || !DECIMAL.test(v)) {
      throw mismatch(`the result for ${label} has ${key} ${describe(v)}, not a non-negative decimal integer`);
    }
    value[key] = BigInt(v);
  }
  const cap = capacity(part);
  const unique = value.count8 + value.count4 + value.count2;
  if (unique > cap.unique) throw mismatch(`the result for ${label} has ${unique} solutions up to symmetry; its prefixes hold at most ${cap.unique}`);
  if (cap.asymmetric && (value.count4 !== 0n || value.count2 !== 0n)) {
    throw mismatch(`the result for ${label} has count4 ${value.count4} and count2 ${value.count2}; its constellations have no symmetry, so they yield only count8`);
  }
  if (part.n % 4 >= 2 && value.count2 !== 0n) {
    throw mismatch(`the result for ${label} has count2 ${value.count2}; no ${part.n} x ${part.n} solution is symmetric under a quarter turn`);
  }
  const least = BigInt(part.prefixNodes) + unique;
  if (value.nodes < least || value.nodes > cap.nodes) {
    throw mismatch(`the result for ${label} has nodes ${value.nodes}; it must be from ${least} to ${cap.nodes}`);
  }
  return r as PartCount;
}

/**
 * Counts a checked part's prefixes in chunks of about 10 ms, calling `between` after each chunk (which may throw to stop).
 * Internal (not in the package's API): the counting thread (src/workers/worker.ts) checks its parts against a split it keeps.
 */
export async function countChunked(part: CountPart, engine: EngineName | undefined, between: () => Promise<void> | void): Promise<PartCount> {
  const counter = pickEngine(engine).openConstellationCounter(part.n);
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = BigInt(part.prefixNodes);
  const sizer = new ChunkSizer(20_000);
  try {
    for (const task of part.prefixes) {
      counter.start(task);
      for (;;) {
        const t = now();
        const done = counter.run(sizer.get());
        if (done) break; // (a task that ended early says nothing of how long a full chunk takes)
        sizer.observe(now() - t);
        await between();
      }
      const r = counter.result();
      count8 += r.count8;
      count4 += r.count4;
      count2 += r.count2;
      nodes += r.nodes;
    }
  } finally {
    counter.close();
  }
  const { splitVersion, n, part: index, parts, digest } = part;
  return { splitVersion, n, part: index, parts, digest, count8: String(count8), count4: String(count4), count2: String(count2), nodes: String(nodes) };
}

/** Counts a checked part's tasks at once, synchronously (countTask for a plain part). */
export function countPlainTask(part: CountPart, engine: EngineName | undefined): PartCount {
  const counter = pickEngine(engine).openConstellationCounter(part.n);
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = BigInt(part.prefixNodes);
  try {
    for (const task of part.prefixes) {
      const r = counter.countTask(task);
      count8 += r.count8;
      count4 += r.count4;
      count2 += r.count2;
      nodes += r.nodes;
    }
  } finally {
    counter.close();
  }
  const { splitVersion, n, part: index, parts, digest } = part;
  return { splitVersion, n, part: index, parts, digest, count8: String(count8), count4: String(count4), count2: String(count2), nodes: String(nodes) };
}

/**
 * Adds up the counts of every part of the split of n into `parts` parts, exactly. Each result
 * is checked against its re-derived part (checkPartCount); there must be exactly one per part.
 * Throws RangeError NQ_PART_MISMATCH for a result that is not a count of this split's part
 * (other n, split or parts, wrong digest, counts out of range), NQ_PARTS_INCOMPLETE for a
 * missing or repeated part. `parts` is the split's real number of parts (CountPart.parts).
 * @example const { total } = mergeCounts(results, { n: 12, parts: 64 });
 */
export function mergePlainCounts(results: readonly PartCount[], expected: { n: number; parts: number }): MergedCount {
  if (!Array.isArray(results)) throw invalid("results", ` must be an array of countTask results, got ${describe(results)}`, TypeError);
  if (typeof expected !== "object" || expected === null) {
    throw typeError(`mergeCounts needs the split it adds up, { n, parts }, got ${describe(expected)}`);
  }
  const n = checkInteger("n", expected.n, 4, COUNT_MAX_N);
  const parts = checkInteger("parts", expected.parts, 1, MAX_PARTS);
  const split = dealParts(n, parts);
  const list: unknown[] = Array.from(results); // each element read once
  const byPart = new Map<number, PartCount>();
  for (const [i, value] of list.entries()) {
    if (typeof value !== "object" || value === null) {
      throw mismatch(`results[${i}] is ${describe(value)}, not a result of a part of the split of n = ${n} into ${parts} parts`);
    }
    const r = snapshotCount(value); // read once: checked and summed from these plain values
    const index = r.part as number;
    if (!Number.isInteger(index) || index < 0 || index >= parts) {
      throw mismatch(`results[${i}] is not a result of a part of the split of n = ${n} into ${parts} parts (part ${describe(index)})`);
    }
    if (r.n !== n || r.parts !== parts || r.splitVersion !== SPLIT_VERSION) {
      throw mismatch(`results[${i}] (${name(r)}, split version ${describe(r.splitVersion)}) is not a part of the split of n = ${n} into ${parts} parts, version ${SPLIT_VERSION}`);
    }
    if (byPart.has(index)) throw withCode(new RangeError(`results hold part ${index} of ${parts} (n = ${n}) twice`), ErrorCode.partsIncomplete);
    byPart.set(index, checkPlainCount(split[index], r));
  }
  if (byPart.size !== parts) {
    const missing = split.filter((p) => !byPart.has(p.part)).map((p) => p.part);
    const shown = missing.slice(0, 10).join(", ") + (missing.length > 10 ? ", ..." : "");
    throw withCode(
      new RangeError(`results hold ${byPart.size} of ${parts} parts of n = ${n}; missing part${missing.length > 1 ? "s" : ""} ${shown}: every part must be counted once`),
      ErrorCode.partsIncomplete,
    );
  }
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = 0n;
  for (const r of byPart.values()) {
    count8 += BigInt(r.count8);
    count4 += BigInt(r.count4);
    count2 += BigInt(r.count2);
    nodes += BigInt(r.nodes);
  }
  return { n, ...symmetricTotal(count8, count4, count2), nodes };
}
