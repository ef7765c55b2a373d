// randomSequence(seed): the raw draws of the package's seeded generator, so a user
// (or a test) can see that both engines produce the same numbers everywhere.
import type { EngineName } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { checkInteger, checkOptions, optionalInteger } from "../core/validate.js";

export type RandomSequenceOptions = {
  /** Draw integers in [0, bound) (default 0: raw 32-bit outputs). */
  bound?: number;
  /** How many draws (default 16, at most 10^7). */
  count?: number;
  engine?: EngineName;
};

/**
 * The first draws of the generator for a seed: xoshiro128** seeded by splitmix32;
 * a draw in [0, k) masks an output to the next power of two and rejects values >= k.
 * @example randomSequence(1, { bound: 8, count: 4 })
 */
export function randomSequence(seed: number, options?: RandomSequenceOptions): Uint32Array {
  checkInteger("seed", seed, 0, 0xffffffff);
  const opts = checkOptions<RandomSequenceOptions>("randomSequence", options, ["bound", "count", "engine"]);
  const bound = optionalInteger("bound", opts.bound, 0, 0xffffffff, 0);
  const count = optionalInteger("count", opts.count, 0, 10_000_000, 16);
  return pickEngine(opts.engine).randomSequence(seed, bound, count);
}
