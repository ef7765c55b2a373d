// A part of either kind, plain (./parts.ts) or constrained (./constrained-parts.ts), and its
// result checked against it: what the pool (src/workers/pool.ts) checks a thread's answer
// with, and the checkpoint (./checkpoint.ts) a saved entry.
import { checkPartCount, type CountPart, type PartCount } from "./parts.js";
import { checkConstrainedPartCount, type ConstrainedPart, type ConstrainedPartCount } from "./constrained-parts.js";

/** A part of a plain count (src/count/parts.ts) or of a constrained one (src/count/constrained-parts.ts). */
export type AnyPart = CountPart | ConstrainedPart;
/** What counting such a part gives. */
export type AnyCount = PartCount | ConstrainedPartCount;

/**
 * A result checked against its part (plain: checkPartCount; constrained:
 * checkConstrainedPartCount), holding only its own fields; NQ_PART_MISMATCH otherwise.
 */
export function checkPartResult(part: AnyPart, result: unknown): AnyCount {
  if ("kind" in part && part.kind === "constrained") return checkConstrainedPartCount(part, result);
  const r = checkPartCount(part as CountPart, result);
  const { splitVersion, n, part: index, parts, digest, count8, count4, count2, nodes } = r;
  return { splitVersion, n, part: index, parts, digest, count8, count4, count2, nodes };
}
