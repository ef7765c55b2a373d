// solutions(n): every solution in lexicographic order, produced lazily a chunk at
// a time (never the whole set in memory) and stoppable at any point.
import type { EngineName, SolutionStream } from "../engine/contract.js";
import { pickEngine } from "../engine/select.js";
import { checkInteger, checkOptions, optionalInteger } from "../core/validate.js";
import type { Square } from "../board/constraints.js";
import { boardOf } from "../board/board.js";
import { CONSTRAINED_MAX_N, constrainedSolutionsPaced, openConstrainedSolutions } from "./constrained.js";

export const SOLUTIONS_MAX_N = 32;
const CHUNK = 64;

export type SolutionsOptions = {
  /** Stop after this many solutions (default: all of them). */
  limit?: number;
  /** 'wasm' (default) or 'ts'. */
  engine?: EngineName;
  /** Queens given in advance, [row, col] pairs, 0-based: then n <= 1000, in the complete search's order, not lexicographic. */
  fixed?: readonly Square[];
  /** Squares no queen may use, [row, col] pairs, 0-based. */
  blocked?: readonly Square[];
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
  const { board, limit, engine } = checked(n, options);
  if (!board.plain) {
    const { constraints } = board;
    // A constrained board: the complete search's enumeration (src/count/constrained.ts).
    const stream = (): SolutionStream => {
      const source = openConstrainedSolutions(n, constraints, engine);
      return {
        next(max: number) {
          const out: Int32Array[] = [];
          while (out.length < max) {
            const columns = source.next();
            if (columns === null) break;
            out.push(columns);
          }
          return out;
        },
        nodes: () => 0, // not reported for constrained boards (solutions() does not expose it)
        close: () => source.close(),
      };
    };
    return iterate(stream, limit);
  }
  return iterate(() => engine.openSolutions(n), limit);
}

/** solutions()'s arguments, checked. */
function checked(n: number, options: SolutionsOptions | undefined) {
  const opts = checkOptions<SolutionsOptions>("solutions", options, ["limit", "engine", "fixed", "blocked"]);
  const board = boardOf(n, { fixed: opts.fixed, blocked: opts.blocked }, { caller: "solutions", plain: [1, SOLUTIONS_MAX_N], givens: [1, CONSTRAINED_MAX_N] });
  const limit = optionalInteger("limit", opts.limit, 0, Number.MAX_SAFE_INTEGER, Infinity);
  return { board, limit, engine: pickEngine(opts.engine) };
}

/**
 * solutions() for a caller that must stay responsive (the CLI's `all`): the same solutions in
 * the same order, the search in chunks of about 10 ms with the event loop let run between
 * them, and an aborted `signal` ends it with its reason, even on a board whose next solution
 * is hours of search away. Arguments checked at the call, as solutions() checks them.
 */
export function solutionsPaced(n: number, options: SolutionsOptions | undefined, signal: AbortSignal): AsyncIterable<Int32Array> {
  const { board, limit, engine } = checked(n, options);
  return {
    async *[Symbol.asyncIterator]() {
      if (limit === 0) return;
      let produced = 0;
      // A plain board's solutions are dense (a chunk of CHUNK comes in well under a chunk's time).
      const source = board.plain ? solutions(n, { limit: Number.isFinite(limit) ? limit : undefined, engine: engine.name }) : constrainedSolutionsPaced(n, board.constraints, engine, signal);
      for await (const columns of source) {
        yield columns;
        if (++produced >= limit) return;
        if (produced % CHUNK === 0) signal.throwIfAborted();
      }
    },
  };
}

/** The lazy iterable over a stream of solutions, closed when done, at `limit`, or on `break`. */
function iterate(open: () => SolutionStream, limit: number): Iterable<Int32Array> {
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
              stream = open();
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
