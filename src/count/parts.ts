// Work splitting for counts: splitCount(n) cuts a count into plain-JSON parts that
// any process can count (countTask) and anyone can add up exactly (mergeCounts).
// A part is a list of prefix tasks of src/count/tasks.ts, dealt out round-robin so
// neighbouring (similar) prefixes land in different parts and the parts balance.
import type { CountTask, EngineName } from "../engine/contract.js";
import { defaultSplitDepth, splitTasks } from "./tasks.js";
import { pickEngine } from "../engine/select.js";
import { rangeError, typeError } from "../core/errors.js";
import { COUNT_MAX_N } from "./count.js";
import { checkInteger, checkOptions, describe } from "../core/validate.js";

/**
 * Version of the task split: bump it whenever the prefixes, their order or how they are
 * dealt into parts change, so that old checkpoints and queues are refused.
 */
export const SPLIT_VERSION = 1;

/** One part of a count, as plain JSON (bigints as decimal strings). */
export type CountPart = {
  splitVersion: number;
  n: number;
  /** This part's index, 0 .. parts - 1. */
  part: number;
  parts: number;
  /** Queens placed while making the prefixes: carried by part 0 only, "0" elsewhere. */
  prefixNodes: string;
  prefixes: CountTask[];
};

/** What counting one part found (bigints as decimal strings, so it is plain JSON). */
export type PartCount = {
  splitVersion: number;
  n: number;
  part: number;
  parts: number;
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

/** The deepest split needed to have at least `parts` prefixes (so parts are never empty). */
function depthFor(n: number, parts: number): { depth: number; prefixes: CountTask[]; prefixNodes: bigint } {
  let depth = defaultSplitDepth(n);
  let split = splitTasks(n, depth);
  while (split.tasks.length < parts && depth < n - 1 && depth < 8) split = splitTasks(n, ++depth);
  return { depth, prefixes: split.tasks, prefixNodes: split.prefixNodes };
}

/**
 * Splits count(n) into parts (4 <= n <= 32). Deterministic: the same n and parts give the
 * same JSON. There may be fewer parts than asked when the board has fewer prefixes.
 * @example const parts = splitCount(16, { parts: 64 }); // 64 plain-JSON parts
 */
export function splitCount(n: number, options?: { parts?: number }): CountPart[] {
  checkInteger("n", n, 4, COUNT_MAX_N);
  const opts = checkOptions<{ parts: number }>("splitCount", options, ["parts"]);
  const asked = opts.parts === undefined ? defaultParts(n) : checkInteger("parts", opts.parts, 1, 1_000_000);
  const { prefixes, prefixNodes } = depthFor(n, asked);
  const parts = Math.min(asked, prefixes.length);
  const dealt: CountTask[][] = Array.from({ length: parts }, () => []);
  prefixes.forEach((task, i) => dealt[i % parts].push(task));
  return dealt.map((list, part) => ({
    splitVersion: SPLIT_VERSION,
    n,
    part,
    parts,
    prefixNodes: part === 0 ? String(prefixNodes) : "0",
    prefixes: list,
  }));
}

/** Checks that a value is a CountPart this version of the package made. */
export function checkPart(value: unknown): CountPart {
  const part = value as CountPart;
  if (typeof value !== "object" || value === null || !Array.isArray(part.prefixes)) {
    throw typeError(`part must be an object made by splitCount, got ${describe(value)}`);
  }
  if (part.splitVersion !== SPLIT_VERSION) {
    throw rangeError(`part.splitVersion must be ${SPLIT_VERSION} (this version's task split), got ${describe(part.splitVersion)}`);
  }
  checkInteger("part.n", part.n, 4, COUNT_MAX_N);
  checkInteger("part.parts", part.parts, 1, 1_000_000);
  checkInteger("part.part", part.part, 0, part.parts - 1);
  for (const [i, task] of part.prefixes.entries()) {
    const ok = task && (task.kind === 1 || task.kind === 2) && Array.isArray(task.rows) &&
      task.rows.length >= 2 && task.rows.length < part.n &&
      task.rows.every((c) => Number.isInteger(c) && c >= 0 && c < part.n) &&
      Number.isInteger(task.bound1) && task.bound1 >= 1 && task.bound1 < part.n - 1;
    if (!ok) throw rangeError(`part.prefixes[${i}] is not a task of an n = ${part.n} split: ${JSON.stringify(task)}`);
  }
  return part;
}

/** Counts one part on the chosen engine (synchronous; a part takes seconds at most at n = 17). */
export function countTask(part: CountPart, options?: { engine?: EngineName }): PartCount {
  const checked = checkPart(part);
  const opts = checkOptions<{ engine: EngineName }>("countTask", options, ["engine"]);
  const counter = pickEngine(opts.engine).openCounter(checked.n);
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = BigInt(checked.prefixNodes);
  try {
    for (const task of checked.prefixes) {
      const r = counter.countTask(task);
      count8 += r.count8;
      count4 += r.count4;
      count2 += r.count2;
      nodes += r.nodes;
    }
  } finally {
    counter.close();
  }
  const { splitVersion, n, part: index, parts } = checked;
  return { splitVersion, n, part: index, parts, count8: String(count8), count4: String(count4), count2: String(count2), nodes: String(nodes) };
}

/** Adds up the counts of every part of one split, exactly; refuses gaps, repeats and mixes. */
export function mergeCounts(results: readonly PartCount[]): MergedCount {
  if (!Array.isArray(results) || results.length === 0) throw typeError("results must be a non-empty array of countTask results");
  const { n, parts, splitVersion } = results[0];
  const seen = new Set<number>();
  let count8 = 0n, count4 = 0n, count2 = 0n, nodes = 0n;
  for (const r of results) {
    if (r.n !== n || r.parts !== parts || r.splitVersion !== splitVersion) {
      throw rangeError(`results mix splits: n = ${r.n}, parts = ${r.parts}, splitVersion = ${r.splitVersion} vs n = ${n}, parts = ${parts}, splitVersion = ${splitVersion}`);
    }
    if (seen.has(r.part)) throw rangeError(`results hold part ${r.part} twice`);
    seen.add(r.part);
    count8 += BigInt(r.count8);
    count4 += BigInt(r.count4);
    count2 += BigInt(r.count2);
    nodes += BigInt(r.nodes);
  }
  if (seen.size !== parts) throw rangeError(`results hold ${seen.size} of ${parts} parts; every part must be counted once`);
  return { n, total: 8n * count8 + 4n * count4 + 2n * count2, unique: count8 + count4 + count2, nodes };
}
