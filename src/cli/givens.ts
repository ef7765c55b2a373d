// Given queens and blocked squares on the command line: --fixed r:c,...,
// --blocked r:c,... (0-based) and --board FILE (a text board, JSON or Essence' file,
// src/board/formats.ts), shared by solve, count and all.
import type { Command } from "commander";
import type { Square } from "../board/constraints.js";
import { parseBoard } from "../board/formats.js";
import { errnoWords, readCapped, type ReadFailure } from "../core/read-file.js";
import { UsageError } from "./errors.js";

export type GivensCliOptions = { fixed?: string; blocked?: string; board?: string };

/** A repeated --fixed or --blocked adds its squares to the earlier ones' (`--fixed 0:1 --fixed 1:3` is `--fixed 0:1,1:3`). */
function collectSquares(value: string, previous: string | undefined): string {
  return previous === undefined ? value : [previous, value].filter((text) => text.trim() !== "").join(",");
}

/** A flag that takes one value (a file): given twice, a usage error naming it, never the earlier value silently dropped. */
export function onlyOnce(command: Command, flag: string): Command {
  let seen = 0;
  return command.on(`option:${flag.replace(/^--/, "")}`, () => {
    if (++seen > 1) throw new UsageError(`${flag} was given more than once: give it once (one board file)`);
  });
}

/** Adds --fixed and --blocked (each may be repeated: the squares add up) and --board FILE (once). */
export function givensOptions(command: Command): Command {
  command
    .option("--fixed <r:c,...>", "queens given in advance, 0-based row:col pairs (e.g. 0:3,5:1); repeated, the squares add up", collectSquares)
    .option("--blocked <r:c,...>", "squares no queen may use, 0-based row:col pairs; repeated, the squares add up", collectSquares)
    .option("--board <FILE>", "read N, given queens and blocked squares from FILE: a text board (. Q #), JSON { n, blocks } (0-based) or Essence' (letting n / letting blocks, 1-based)");
  return onlyOnce(command, "--board");
}

/** "r:c,r:c" as squares (0-based); the API checks the range. */
export function parseSquares(flag: string, text: string): Square[] {
  if (text.trim() === "") return [];
  return text.split(",").map((item) => {
    const m = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(item);
    if (m === null) throw new UsageError(`${flag} must be row:col pairs separated by commas (0-based, e.g. 0:3,5:1), got ${JSON.stringify(item.trim())}`);
    return [Number(m[1]), Number(m[2])] as Square;
  });
}

/**
 * N and the givens of a command: N from the argument, or from --board FILE (both: they must
 * agree); --fixed and --blocked add to the file's. No givens at all: fixed and blocked undefined.
 */
/** The most a board file may hold (a 100,000 x 100,000 board's blocked squares run far below it). */
export const BOARD_MAX_BYTES = 64 << 20;

export async function readGivens(nArgument: number | undefined, opts: GivensCliOptions): Promise<{ n: number; fixed?: Square[]; blocked?: Square[] }> {
  let n = nArgument;
  // A typed N that is no board size (text that is no number, 1.5, 0): the API refuses it naming its range, before any file is read.
  if (n !== undefined && !(Number.isInteger(n) && n >= 1)) return { n };
  let fixed: Square[] | undefined;
  let blocked: Square[] | undefined;
  if (typeof opts.board === "string") {
    let text: string;
    try {
      text = await readCapped(opts.board, BOARD_MAX_BYTES);
    } catch (error) {
      const code = (error as ReadFailure).reason;
      const why = code === "tooLarge" ? `over ${BOARD_MAX_BYTES >> 20} MiB, or endless as a device such as /dev/zero is` : errnoWords(code);
      throw new UsageError(`--board ${opts.board}: cannot read the file (${why})`);
    }
    const file = parseBoard(text, undefined, opts.board);
    if (n !== undefined && n !== file.n) throw new UsageError(`N = ${n} but the board in ${opts.board} is ${file.n} x ${file.n}; give one or the other`);
    n = file.n;
    fixed = file.fixed;
    blocked = file.blocked;
  }
  if (n === undefined) throw new UsageError("N is missing: give the board size, or --board FILE");
  if (opts.fixed !== undefined) fixed = [...(fixed ?? []), ...onBoard("--fixed", parseSquares("--fixed", opts.fixed), n)];
  if (opts.blocked !== undefined) blocked = [...(blocked ?? []), ...onBoard("--blocked", parseSquares("--blocked", opts.blocked), n)];
  return { n, ...(fixed ? { fixed } : {}), ...(blocked ? { blocked } : {}) };
}

/** The squares of a flag, each inside the n x n board: one outside is named as the user wrote it (`--fixed 9:0`), not as the API's fixed[0]. */
function onBoard(flag: string, squares: Square[], n: number): Square[] {
  for (const [r, c] of squares) {
    if (r >= n || c >= n) {
      throw new UsageError(`${flag} ${r}:${c} is outside the ${n} x ${n} board: rows and columns run from 0 to ${n - 1} (0-based)`);
    }
  }
  return squares;
}

/** Whether the command was given any queen or blocked square. */
export function hasGivens(givens: { fixed?: readonly Square[]; blocked?: readonly Square[] }): boolean {
  return (givens.fixed?.length ?? 0) + (givens.blocked?.length ?? 0) > 0;
}
