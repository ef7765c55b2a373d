// Board files for constrained boards, read and written:
// - text: one row a line, `.` a free square, `Q` a given queen, `#` a blocked square;
// - json: { "n": N, "blocks": [[r, c], ...] } with 0-based squares (and "fixed", the given queens, when there are any);
// - essence: the Essence' form of the CSPLib and competition instances,
//   `letting n = N` and `letting blocks = [[r, c], ...]` with 1-based squares
//   (and `letting fixed = [...]` for given queens, an extension of this package).
// Every malformed file is a coded TypeError/RangeError whose one-line message says
// where (format and line) and what was expected.
import { rangeError, rephrased, typeError, invalid } from "../core/errors.js";
import { checkChoice, checkInteger, checkRecord, describe } from "../core/validate.js";
import { CONSTRAINTS_MAX_N, checkConstraints, type Square } from "./constraints.js";

export type BoardFormat = "text" | "json" | "essence";
export const BOARD_FORMATS: readonly BoardFormat[] = ["text", "json", "essence"];

/** A constrained board as a file holds it (0-based squares). */
export type BoardFile = { n: number; fixed: Square[]; blocked: Square[] };

/** Largest n a board file may give (the largest board anything here searches is 64; drawings stay readable). */
export const BOARD_FILE_MAX_N = CONSTRAINTS_MAX_N;

/** The format of a file's text: '{' starts JSON, a `letting` line Essence', otherwise a text board. */
export function detectFormat(text: string): BoardFormat {
  if (typeof text !== "string") throw typeError(`detectFormat: the board must be text, got ${describe(text)}`);
  const body = text.replace(/^\uFEFF/, "").trimStart();
  if (body.startsWith("{")) return "json";
  if (/^(language\b|letting\b|\$)/m.test(body)) return "essence";
  return "text";
}

/** A value from a file as a message shows it: JSON, cut to 60 characters (and never a stack overflow on one nested 50,000 deep). */
function preview(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return describe(value);
  }
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function checkN(n: unknown, where: string): number {
  if (typeof n !== "number" || !Number.isInteger(n) || n < 1 || n > BOARD_FILE_MAX_N) {
    throw (typeof n === "number" ? rangeError : typeError)(`${where}: n must be an integer from 1 to ${BOARD_FILE_MAX_N}, got ${preview(n)}`);
  }
  return n;
}

/**
 * Checks the squares against n (coded errors from checkConstraints, prefixed with where they come
 * from). The error is then about the file's content, not a parameter of the caller: no param.
 */
function finish(board: BoardFile, where: string): BoardFile {
  try {
    checkConstraints(board.n, { fixed: board.fixed, blocked: board.blocked }, where);
  } catch (e) {
    throw rephrased(e as Error, `${where}: ${(e as Error).message}`);
  }
  return board;
}

function parseText(text: string, name: string): BoardFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === "") lines.pop();
  const rows = lines.map((line) => line.replace(/\s+/g, ""));
  const n = rows.length;
  if (n === 0) throw rangeError(`${name} (text board): the file is empty; expected one line per row of '.', 'Q' and '#'`);
  const fixed: Square[] = [];
  const blocked: Square[] = [];
  rows.forEach((row, r) => {
    if (row.length !== n) {
      throw rangeError(`${name} (text board) line ${r + 1}: expected ${n} squares (the board has ${n} rows), got ${row.length}`);
    }
    for (let c = 0; c < n; c++) {
      const ch = row[c];
      if (ch === "Q") fixed.push([r, c]);
      else if (ch === "#") blocked.push([r, c]);
      else if (ch !== ".") {
        throw rangeError(`${name} (text board) line ${r + 1}, column ${c + 1}: expected '.', 'Q' or '#', got ${JSON.stringify(ch)}`);
      }
    }
  });
  return finish({ n, fixed, blocked }, `${name} (text board)`);
}

function squaresFrom(value: unknown, what: string, where: string): Square[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw typeError(`${where}: "${what}" must be an array of [row, col] pairs, got ${preview(value)}`);
  return value.map((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) throw typeError(`${where}: "${what}"[${i}] must be a [row, col] pair, got ${preview(pair)}`);
    return [pair[0], pair[1]] as Square;
  });
}

function parseJson(text: string, name: string): BoardFile {
  const where = `${name} (JSON)`;
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (e) {
    throw typeError(`${where}: not valid JSON (${(e as Error).message.split("\n")[0]})`);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw typeError(`${where}: expected an object { "n": N, "blocks": [[r, c], ...] }`);
  const record = data as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!["n", "blocks", "fixed"].includes(key)) throw typeError(`${where}: unknown key ${JSON.stringify(key)} (known: n, blocks, fixed)`);
  }
  const n = checkN(record.n, where);
  return finish({ n, blocked: squaresFrom(record.blocks, "blocks", where), fixed: squaresFrom(record.fixed, "fixed", where) }, where);
}

/** `letting NAME = [[r, c], ...]` (or `be`), 1-based, to 0-based squares; `line` of the `letting` for messages. */
function parseEssenceList(body: string, what: string, where: string): Square[] {
  const inner = body.trim();
  if (!inner.startsWith("[") || !inner.endsWith("]")) throw rangeError(`${where}: ${what} must be a list [[r, c], ...], got ${JSON.stringify(inner.slice(0, 40))}`);
  const content = inner.slice(1, -1).trim();
  if (content === "") return [];
  const squares: Square[] = [];
  const pair = /\s*[[(]\s*(-?\d+)\s*,\s*(-?\d+)\s*[\])]\s*(,|$)/y;
  let at = 0;
  while (at < content.length) {
    pair.lastIndex = at;
    const m = pair.exec(content);
    if (m === null) throw rangeError(`${where}: ${what} must be a list of [row, col] pairs (1-based), cannot read ${JSON.stringify(content.slice(at, at + 20))}`);
    squares.push([Number(m[1]) - 1, Number(m[2]) - 1]);
    at = pair.lastIndex;
  }
  return squares;
}

function parseEssence(text: string, name: string): BoardFile {
  const where = `${name} (Essence')`;
  // Drop comments ($ to the end of the line) and the language line, then read the `letting` statements.
  const body = text.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.replace(/\$.*$/, "")).join("\n").replace(/^\s*language\b[^\n]*$/m, "");
  const statements = body.split(/\bletting\b/).slice(1);
  if (body.slice(0, body.search(/\bletting\b|$/)).trim() !== "") {
    throw rangeError(`${where}: expected 'letting' statements, got ${JSON.stringify(body.trim().slice(0, 40))}`);
  }
  let n: number | undefined;
  let blocked: Square[] = [];
  let fixed: Square[] = [];
  for (const statement of statements) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:=|\bbe\b)([\s\S]*)$/.exec(statement);
    if (m === null) throw rangeError(`${where}: cannot read 'letting${statement.split("\n")[0]}' (expected 'letting NAME = VALUE')`);
    const [, key, value] = m;
    if (key === "n") {
      if (!/^\s*\d+\s*$/.test(value)) throw rangeError(`${where}: n must be an integer, got ${JSON.stringify(value.trim())}`);
      n = checkN(Number(value), where);
    } else if (key === "blocks") blocked = parseEssenceList(value, "blocks", where);
    else if (key === "fixed") fixed = parseEssenceList(value, "fixed", where);
    else throw rangeError(`${where}: unknown 'letting ${key}' (known: n, blocks, fixed)`);
  }
  if (n === undefined) throw rangeError(`${where}: no 'letting n = N'`);
  // Squares are 1-based in this format: say so when one is out of range.
  for (const [what, list] of [["blocks", blocked], ["fixed", fixed]] as const) {
    for (const [r, c] of list) {
      if (r < 0 || c < 0 || r >= n || c >= n) throw rangeError(`${where}: ${what} holds [${r + 1}, ${c + 1}], outside the board (rows and columns 1 to ${n}, 1-based)`);
    }
  }
  return finish({ n, fixed, blocked }, where);
}

/**
 * Reads a board file. `format` is detected when not given (see detectFormat); `name`
 * (e.g. the file's path) starts every error message.
 * @example parseBoard(".Q..\n...#\n....\n....").fixed // [[0, 1]]
 */
export function parseBoard(text: string, format?: BoardFormat, name = "board"): BoardFile {
  if (typeof name !== "string") throw typeError(`parseBoard: name must be text (the file's name for messages), got ${describe(name)}`);
  if (typeof text !== "string") throw typeError(`${name}: the board must be text, got ${describe(text)}`);
  if (format !== undefined) checkChoice("format", format, BOARD_FORMATS);
  const kind = format ?? detectFormat(text);
  if (kind === "json") return parseJson(text, name);
  if (kind === "essence") return parseEssence(text, name);
  if (kind === "text") return parseText(text, name);
  throw invalid("format", ` must be one of ${BOARD_FORMATS.join(", ")}, got ${JSON.stringify(kind)}`);
}

const pairs = (list: readonly Square[], base: number): string => `[${list.map(([r, c]) => `[${r + base}, ${c + base}]`).join(", ")}]`;

/** Writes a board in a format; parseBoard reads it back to the same board (squares sorted, duplicates dropped). */
export function formatBoard(board: BoardFile, format: BoardFormat): string {
  const given = checkRecord<BoardFile>("board", board, ["n", "fixed", "blocked"]);
  checkChoice("format", format, BOARD_FORMATS);
  const n = checkInteger("board.n", given.n, 1, BOARD_FILE_MAX_N);
  const lists = { fixed: given.fixed ?? [], blocked: given.blocked ?? [] };
  const checked = checkConstraints(n, lists, "formatBoard");
  const fixed: Square[] = [];
  const blocked: Square[] = [];
  const fixedSet = new Set<number>();
  for (const [r, c] of lists.fixed) if (!fixedSet.has(r * n + c)) { fixedSet.add(r * n + c); fixed.push([r, c]); }
  fixed.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let r = 0; r < n; r++) for (let i = checked.blockedStart[r]; i < checked.blockedStart[r + 1]; i++) blocked.push([r, checked.blockedCols[i]]);
  if (format === "json") {
    return `{ "n": ${n}, "blocks": ${pairs(blocked, 0)}${fixed.length ? `, "fixed": ${pairs(fixed, 0)}` : ""} }\n`;
  }
  if (format === "essence") {
    return `language ESSENCE' 1.0\nletting n = ${n}\nletting blocks = ${pairs(blocked, 1)}\n${fixed.length ? `letting fixed = ${pairs(fixed, 1)}\n` : ""}`;
  }
  if (format === "text") {
    const grid = Array.from({ length: n }, () => new Array<string>(n).fill("."));
    for (const [r, c] of blocked) grid[r][c] = "#";
    for (const [r, c] of fixed) {
      if (grid[r][c] === "#") throw rangeError(`formatBoard: the text form cannot hold the given queen at (${r}, ${c}) on a blocked square`);
      grid[r][c] = "Q";
    }
    return grid.map((row) => row.join("")).join("\n") + "\n";
  }
  throw invalid("format", ` must be one of ${BOARD_FORMATS.join(", ")}, got ${JSON.stringify(format)}`);
}

/** Largest board drawBoard draws (a 1,000 x 1,000 drawing is 2 MB of text; render's compact form serves larger boards). */
export const DRAW_MAX_N = 1000;

/**
 * A constrained board drawn: `Q` a given queen, `q` a queen placed by the search, `#` a
 * blocked square, `.` a free one (columns: a solution, or null to draw the givens alone).
 * 1 <= n <= DRAW_MAX_N; the givens are checked as count checks them, and `columns` must hold
 * n columns from 0 to n - 1 (NQ_INVALID_ARGUMENT otherwise).
 * @example drawBoard(4, { fixed: [[0, 1]] }, [1, 3, 0, 2]) // ". Q . .\n. . . q\nq . . .\n. . q ."
 */
export function drawBoard(n: number, givens: { fixed?: readonly Square[]; blocked?: readonly Square[] }, columns: ArrayLike<number> | null): string {
  checkInteger("n", n, 1, DRAW_MAX_N);
  const lists = checkRecord<{ fixed: readonly Square[]; blocked: readonly Square[] }>("givens", givens ?? undefined, ["fixed", "blocked", "n"]); // (n: a BoardFile's, as parseBoard gives it)
  checkConstraints(n, { fixed: lists.fixed, blocked: lists.blocked }, "drawBoard");
  if (columns !== null) {
    const list = columns as ArrayLike<unknown>;
    if (typeof list !== "object" || typeof list.length !== "number" || list.length !== n) {
      throw invalid("columns", ` must be null or ${n} column numbers (one per row), got ${describe(columns)}${typeof list === "object" && list !== null && typeof list.length === "number" ? ` of length ${list.length}` : ""}`, TypeError);
    }
    for (let r = 0; r < n; r++) {
      const c = list[r];
      if (typeof c !== "number" || !Number.isInteger(c) || c < 0 || c >= n) throw invalid("columns", `[${r}] must be an integer from 0 to ${n - 1}, got ${describe(c)}`);
    }
  }
  const grid = Array.from({ length: n }, () => new Array<string>(n).fill("."));
  for (const [r, c] of lists.blocked ?? []) grid[r][c] = "#";
  if (columns !== null) for (let r = 0; r < n; r++) grid[r][columns[r]] = "q";
  for (const [r, c] of lists.fixed ?? []) grid[r][c] = "Q";
  return grid.map((row) => row.join(" ")).join("\n");
}
