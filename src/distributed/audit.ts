// The audit's sampling (internal): which of a worker's results the coordinator recounts.
// Each result is taken with probability `fraction`, drawn from node:crypto (a worker cannot
// foresee which); and each worker's least plausible result (the one farthest from the
// coordinator's own estimate: src/count/plausibility.ts) is kept aside and recounted once every
// part is in, so every worker is checked, and on the result where a large lie would show.
import { randomInt } from "node:crypto";
import { rangeError, typeError } from "../core/errors.js";
import { checkInteger, describe } from "../core/validate.js";

/**
 * The chance that the audit catches a worker that lied on `lies` of its `results` results,
 * when no lie is its least plausible result (the liar's best case: each lie hides inside the
 * estimate's noise, below an honest result): 1 - (1 - f)^lies for the random draws. When every
 * result is a lie, its least plausible one is a lie and is recounted: 1. A lie larger than the
 * worker's least plausible honest result is caught always (not counted here).
 */
export function auditCatchChance(fraction: number, results: number, lies: number): number {
  if (typeof fraction !== "number" || !(fraction >= 0 && fraction <= 1)) {
    throw (typeof fraction === "number" ? rangeError : typeError)(`fraction must be a number from 0 to 1, got ${describe(fraction)}`);
  }
  checkInteger("results", results, 0, Number.MAX_SAFE_INTEGER);
  checkInteger("lies", lies, 0, results);
  if (results <= 0 || lies <= 0) return 0;
  if (lies === results && fraction > 0) return 1;
  return 1 - (1 - fraction) ** lies;
}

/** A uniform draw in [0, 1) with 48 random bits. */
const draw = (): number => randomInt(2 ** 24) / 2 ** 24 + randomInt(2 ** 24) / 2 ** 48;

export class AuditSampler {
  private readonly worst: number[] = [];
  private readonly worstScore: number[] = [];

  constructor(readonly fraction: number, private readonly random: () => number = draw) {}

  /**
   * A result of `worker` for `part` was accepted, `score` its implausibility (higher: farther
   * from the estimate): true when the random draw recounts it now.
   */
  offer(worker: number, part: number, score = 0): boolean {
    if (this.fraction <= 0) return false;
    if (!(this.worstScore[worker] >= score)) { this.worst[worker] = part; this.worstScore[worker] = score; }
    return this.random() < this.fraction;
  }

  /** Each worker's least plausible result (the first of the highest score), one a worker. */
  leastPlausible(): number[] {
    return this.worst.filter((p) => p !== undefined);
  }
}
