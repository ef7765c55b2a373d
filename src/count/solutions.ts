// solutions(n): every solution in lexicographic order, produced lazily a chunk at
// a time (never the whole set in memory) and stoppable at any point.
import type { EngineName, SolutionStream } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { checkInteger, checkOptions, optionalInteger } from "../core/validate.js";

export const SOLUTIONS_MAX_N = 32;
const CHUNK = 64;

export type SolutionsOptions = {
  /** Stop after this many solutions (default: all of them). */
  limit?: number;
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
};

let openStreams = 0;
/** How many enumerations are open right now (for tests: stopping early must close them). */
export function openSolutionStreams(): number {
  return openStreams;
}

/**
 * Every solution of the n x n board (1 <= n <= 32) as an `Int32Array` of columns by
 * row, in lexicographic order. Each iteration starts afresh; `break` stops the search.
 * @example for (const columns of solutions(8, { limit: 3 })) console.log(columns);
 */
export function solutions(n: number, options?: SolutionsOptions): Iterable<Int32Array> {
  checkInteger("n", n, 1, SOLUTIONS_MAX_N);
  const opts = checkOptions<SolutionsOptions>("solutions", options, ["limit", "engine"]);
  const limit = optionalInteger("limit", opts.limit, 0, Number.MAX_SAFE_INTEGER, Infinity);
  const engine = pickEngine(opts.engine);
  return {
    [Symbol.iterator](): Iterator<Int32Array> {
      let stream: SolutionStream | undefined;
      let buffer: Int32Array[] = [];
      let index = 0;
      let produced = 0;
      let exhausted = false;
      const close = (): void => {
        if (stream) {
          stream.close();
          stream = undefined;
          openStreams--;
        }
        exhausted = true;
      };
      return {
        next(): IteratorResult<Int32Array> {
          if (produced >= limit) close();
          if (exhausted) return { done: true, value: undefined };
          if (index === buffer.length) {
            if (!stream) {
              stream = engine.openSolutions(n);
              openStreams++;
            }
            buffer = stream.next(Math.min(CHUNK, limit - produced));
            index = 0;
            if (buffer.length === 0) {
              close();
              return { done: true, value: undefined };
            }
          }
          produced++;
          return { done: false, value: buffer[index++] };
        },
        return(): IteratorResult<Int32Array> {
          close();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
