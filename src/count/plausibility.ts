// How plausible a part's reported counts are, judged without counting it: the coordinator's
// own estimate of what the part holds, from Knuth's (1975) random probes of each of its tasks
// (as src/analysis/estimate.ts does for a whole board), each probe's last rows counted
// exhaustively, which removes most of the estimate's noise where it lives (near the leaves).
// A result is scored by how far its counts are from the estimate, in standard errors (the
// probes' own spread); the queue's audit recounts each worker's least plausible result and, at
// once, any result far past what the estimate allows. The probes draw from a generator the caller seeds (the
// coordinator, from node:crypto), so a worker cannot know the estimate it is judged against.
//
// The plain kind estimates both the part's solutions (its share of the symmetric total) and
// its nodes; c4 and c2, which only the few turn-symmetric constellations hold, are computed
// exactly (exactTurnCounts) and any other value is a lie, not noise.
// Measured (n = 12 in 32 parts, 14 in 64, 16 in 32, 2048 probes a part): honest parts score
// 0 to about 4 standard errors; a total raised 1.5 times scores above every honest part of its
// split in most runs, doubled in all; with 16 probes a part the spread understates the error.
import type { ConstellationTask } from "../engine/contract.js";
import { borderTables, constellationSymmetry, turnSymmetric } from "../engine/ts/constellations.js";
import type { CountPart } from "./parts.js";
import type { Split } from "./split.js";
import type { ConstrainedPart } from "./constrained-parts.js";
import { checkConstraints } from "../board/constraints.js";
import { CompleteSearch } from "../engine/ts/complete.js";
import { prefixConstraints } from "./constrained.js";

/**
 * What a part is estimated to hold: its symmetric total (8 count8 + 4 count4 + 2 count2, or a
 * constrained part's total) and its nodes, each with its standard error (from the probes' spread).
 */
export type PartEstimate = { total: number; nodes: number; totalError: number; nodesError: number };

/** Free rows counted exhaustively at the end of each probe (the rest drawn at random). */
const BOTTOM = 6;

/** The fewest probes a part gets (and at least two per task). */
export const MIN_PROBES = 64;

/** The least error allowed an estimated total, as a share of it. */
const TOTAL_FLOOR = 0.01;
/** The least error allowed estimated nodes, as a share of them. */
const NODES_FLOOR = 0.005;
/** Solutions added to an estimated total's error, so parts expected to hold a few are not judged by noise. */
const TOTAL_SLACK = 16;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

const border = new Int32Array(32), shift = new Int32Array(32);
let last = 0, exLeaves = 0, exNodes = 0;

/** Adds the subtree below a row's state to exLeaves and exNodes (every placement a node, every full board a leaf). */
function exhaust(at: number, left: number, down: number, right: number): void {
  let q = ~(left | down | right | border[at]);
  if (at === last) {
    const c = popcount(q);
    exLeaves += c;
    exNodes += c;
    return;
  }
  const s = shift[at];
  while (q !== 0) {
    const bit = q & -q;
    q ^= bit;
    exNodes++;
    exhaust(at + 1, (left | bit) << s, down | bit, (right | bit) >>> s);
  }
}

/** Knuth's estimate of one task's solutions (every one found under it, of any class) and nodes, from `probes` probes. */
function estimateTask(n: number, task: ConstellationTask, probes: number, random: () => number): { solutions: number; nodes: number; solutionsVar: number; nodesVar: number } {
  const { i, j, k, l, rows } = task;
  last = borderTables(n, i, j, k, l, border, shift);
  if (last < 0) return { solutions: 1, nodes: 1, solutionsVar: 0, nodesVar: 0 };
  let left = 0, right = 0, down = (n === 32 ? 0 : ~((1 << n) - 1)) | (1 << i) | (1 << j) | 1 | (1 << (n - 1));
  let at = 0;
  for (; at < rows.length; at++) {
    const bit = 1 << rows[at];
    if ((~(left | down | right | border[at]) & bit) === 0) return { solutions: 0, nodes: 0, solutionsVar: 0, nodesVar: 0 };
    left = (left | bit) << shift[at];
    down |= bit;
    right = (right | bit) >>> shift[at];
  }
  let solutions = 0, nodes = 0, solutions2 = 0, nodes2 = 0;
  for (let p = 0; p < probes; p++) {
    let L = left, D = down, R = right, product = 1, leaves = 0, placed = 0;
    for (let d = at; ; d++) {
      if (last - d < BOTTOM) {
        exLeaves = 0;
        exNodes = 0;
        exhaust(d, L, D, R);
        placed += product * exNodes;
        leaves = product * exLeaves;
        break;
      }
      const q = ~(L | D | R | border[d]);
      const c = popcount(q);
      if (c === 0) break;
      product *= c;
      placed += product;
      let x = q;
      for (let r = Math.min(c - 1, Math.floor(random() * c)); r > 0; r--) x &= x - 1;
      const bit = x & -x, s = shift[d];
      L = (L | bit) << s;
      D |= bit;
      R = (R | bit) >>> s;
    }
    solutions += leaves; solutions2 += leaves * leaves;
    nodes += placed; nodes2 += placed * placed;
  }
  return { solutions: solutions / probes, nodes: nodes / probes, solutionsVar: meanVariance(solutions, solutions2, probes), nodesVar: meanVariance(nodes, nodes2, probes) };
}

/** The variance of a mean of m values from their sum and sum of squares (0 for one value). */
function meanVariance(sum: number, squares: number, m: number): number {
  return m < 2 ? 0 : Math.max(0, (squares - (sum * sum) / m) / (m - 1)) / m;
}

/**
 * The estimate of a plain part: every task probed (round-robin, `probes` in all, at least one
 * a task), each task's solutions weighted by what one of them adds to the symmetric
 * total (8, or 4 and 2 for the constellations a half or a quarter turn maps to themselves).
 */
export function estimatePlainPart(part: CountPart, random: () => number, probes = Math.max(MIN_PROBES, 2 * part.prefixes.length)): PartEstimate {
  const tasks = part.prefixes, n = part.n;
  let total = 0, nodes = Number(part.prefixNodes);
  probes = Math.max(probes, tasks.length); // every task probed at least once
  const each = Math.floor(probes / Math.max(1, tasks.length)), extra = probes - each * tasks.length;
  let totalVar = 0, nodesVar = 0;
  tasks.forEach((task, t) => {
    const e = estimateTask(n, task, each + (t < extra ? 1 : 0), random);
    const weight = [8, 4, 2][constellationSymmetry(n, task.i, task.j, task.k, task.l)];
    total += e.solutions * weight;
    totalVar += e.solutionsVar * weight * weight;
    nodes += e.nodes;
    nodesVar += e.nodesVar;
  });
  return { total, nodes, totalError: Math.sqrt(totalVar), nodesError: Math.sqrt(nodesVar) };
}

/**
 * The estimate of a constrained part: each prefix's board probed (round-robin) by the complete
 * search that counts it (the same tree: its nodes are what the count reports).
 */
export function estimateConstrainedPart(part: ConstrainedPart, random: () => number, probes = Math.max(MIN_PROBES, 2 * part.prefixes.length)): PartEstimate {
  const constraints = checkConstraints(part.n, { fixed: part.fixed, blocked: part.blocked }, "a constrained part");
  probes = Math.max(probes, part.prefixes.length); // every prefix probed at least once
  const each = Math.floor(probes / Math.max(1, part.prefixes.length)), extra = probes - each * part.prefixes.length;
  let total = 0, nodes = 0, totalVar = 0, nodesVar = 0;
  part.prefixes.forEach((prefix, t) => {
    const board = prefixConstraints(constraints, prefix);
    if (board.conflict !== null) return;
    const search = new CompleteSearch(part.n, board.empty ? undefined : board, 2, Infinity);
    const m = each + (t < extra ? 1 : 0);
    let s = 0, s2 = 0, k = 0, k2 = 0;
    for (let i = 0; i < m; i++) {
      const placed = search.probe(random), leaves = search.probeSolutions;
      k += placed; k2 += placed * placed;
      s += leaves; s2 += leaves * leaves;
    }
    if (m > 0) {
      total += s / m; nodes += k / m;
      totalVar += meanVariance(s, s2, m); nodesVar += meanVariance(k, k2, m);
    }
  });
  return { total, nodes, totalError: Math.sqrt(totalVar), nodesError: Math.sqrt(nodesVar) };
}

const turnCache = new Map<string, { half: number; quarter: number }>();

/**
 * The count4 and count2 a plain part must report, exactly: only its turn-symmetric
 * constellations (never cut by preset rows) hold them, and their turn-symmetric solutions are
 * found by a small search over half the board (cached per constellation).
 */
export function exactTurnCounts(part: CountPart): { count4: bigint; count2: bigint } {
  let count4 = 0n, count2 = 0n;
  for (const { i, j, k, l } of part.prefixes) {
    const symmetry = constellationSymmetry(part.n, i, j, k, l);
    if (symmetry === 0) continue;
    const id = `${part.n} ${i} ${j} ${k} ${l}`;
    let turns = turnCache.get(id);
    if (turns === undefined) {
      turns = turnSymmetric(part.n, i, j, k, l);
      if (turnCache.size < 100_000) turnCache.set(id, turns);
    }
    if (symmetry === 2) { count4 += BigInt((turns.half - turns.quarter) / 2); count2 += BigInt(turns.quarter); } else count4 += BigInt(turns.half);
  }
  return { count4, count2 };
}

/**
 * How implausible reported counts are against an estimate, in standard errors: the larger of
 * |total - estimated| and |nodes - estimated| over their standard errors, each widened by a
 * floor (TOTAL_FLOOR of the estimate and TOTAL_SLACK solutions; NODES_FLOOR and one node), so
 * that a few probes that happened to agree, or parts expected to hold a few solutions, do not
 * make an honest result look impossible. 0: as estimated; honest results score about 0 to 3.
 */
export function implausibility(reported: { total: bigint; nodes: bigint }, estimate: PartEstimate): number {
  const total = Math.abs(Number(reported.total) - estimate.total) / (estimate.totalError + TOTAL_FLOOR * estimate.total + TOTAL_SLACK);
  const nodes = Math.abs(Number(reported.nodes) - estimate.nodes) / (estimate.nodesError + NODES_FLOOR * estimate.nodes + 1);
  return Math.max(total, nodes);
}

/**
 * How implausible part p's checked counts (in the split's order) are: implausibility against
 * the part's estimate from `probes` probes, or Infinity where a count that can be known exactly
 * is not that; `why` says what was reported against what was expected.
 */
export function partPlausibility(split: Split, p: number, counts: readonly bigint[], random: () => number, probes: number): { score: number; why: string } {
  const { total, nodes } = split.totalOf(counts);
  let estimate: PartEstimate;
  if (split.kind === "plain") {
    const part = split.at(p) as CountPart, exact = exactTurnCounts(part);
    if (counts[1] !== exact.count4 || counts[2] !== exact.count2) {
      return { score: Infinity, why: `count4 ${counts[1]} and count2 ${counts[2]}, where its turn-symmetric constellations hold ${exact.count4} and ${exact.count2}` };
    }
    estimate = estimatePlainPart(part, random, probes);
  } else {
    estimate = estimateConstrainedPart(split.at(p) as ConstrainedPart, random, probes);
  }
  return { score: implausibility({ total, nodes }, estimate), why: `total ${total} and ${nodes} nodes, where about ${Math.round(estimate.total)} and ${Math.round(estimate.nodes)} were expected` };
}
