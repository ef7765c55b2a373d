// The audit's sampling (internal): which of a worker's results the coordinator recounts.
// Each result is taken with probability `fraction`, drawn from node:crypto (a worker cannot
// foresee which); each worker's results also keep one uniform pick aside, recounted at the
// end when none of that worker's results was drawn, so every worker is checked at least once.
import { randomInt } from "node:crypto";
import { rangeError, typeError } from "../core/errors.js";
import { checkInteger, describe } from "../core/validate.js";

/**
 * The chance that the audit catches a worker that lied on `lies` of its `results` results:
 * 1 - (1 - f)^lies for the draws, plus, when none of its results was drawn at all
 * ((1 - f)^results), the pick kept aside landing on a lie (lies / results).
 */
export function auditCatchChance(fraction: number, results: number, lies: number): number {
  if (typeof fraction !== "number" || !(fraction >= 0 && fraction <= 1)) {
    throw (typeof fraction === "number" ? rangeError : typeError)(`fraction must be a number from 0 to 1, got ${describe(fraction)}`);
  }
  checkInteger("results", results, 0, Number.MAX_SAFE_INTEGER);
  checkInteger("lies", lies, 0, results);
  if (results <= 0 || lies <= 0) return 0;
  return 1 - (1 - fraction) ** lies + (1 - fraction) ** results * (lies / results);
}

/** A uniform draw in [0, 1) with 48 random bits. */
const draw = (): number => randomInt(2 ** 24) / 2 ** 24 + randomInt(2 ** 24) / 2 ** 48;

export class AuditSampler {
  private seen: number[] = [];
  private picks: number[] = [];
  private checked: number[] = [];

  constructor(readonly fraction: number, private readonly random: () => number = draw) {}

  /** A result of `worker` for `part` was accepted: true when the audit recounts it now. */
  offer(worker: number, part: number): boolean {
    if (this.fraction <= 0) return false;
    this.seen[worker] = (this.seen[worker] ?? 0) + 1;
    if (this.random() * this.seen[worker] < 1) this.picks[worker] = part; // reservoir of one: uniform over its results
    return this.random() < this.fraction;
  }

  /** One of `worker`'s results was recounted (drawn, or for another reason). */
  checkedOne(worker: number): void {
    this.checked[worker] = (this.checked[worker] ?? 0) + 1;
  }

  /** At the end: the part kept aside for each worker none of whose results was recounted. */
  topUp(): number[] {
    const parts: number[] = [];
    this.seen.forEach((count, w) => { if (count > 0 && !(this.checked[w] > 0) && this.picks[w] !== undefined) parts.push(this.picks[w]); });
    return parts;
  }
}
