// What the CLI prints on stdout: lines, JSON, table cells.
import { writeSync } from "node:fs";
import { EXIT_RUNTIME } from "./errors.js";

/** A time in ms (`ms`, `wasmMs`, `elapsedMs`...): printed to 0.1 ms. */
const TIME_KEY = /^ms$|Ms$/;
/** A ratio of two times (`tsOverWasm`): printed to three significant figures. */
const RATIO_KEY = /Over[A-Z]/;

/** Characters JSON.stringify leaves raw that a terminal acts on: DEL, C1, the bidirectional marks and overrides, the line separators. */
// eslint-disable-next-line no-control-regex
const JSON_RAW = /[\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * JSON with bigints as decimal strings, typed arrays as plain arrays, times in ms to one decimal
 * and ratios to three figures; every character a terminal acts on is a \u escape (the same
 * string to a JSON reader), so printable() leaves the line as it is and it stays valid JSON.
 */
export function toJson(value: unknown): string {
  return jsonText(value).replace(JSON_RAW, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (key, v) =>
    typeof v === "bigint" ? v.toString()
      : ArrayBuffer.isView(v) ? Array.from(v as Int32Array)
        : typeof v === "number" && Number.isFinite(v) && TIME_KEY.test(key) ? Math.round(v * 10) / 10
          : typeof v === "number" && Number.isFinite(v) && v !== 0 && RATIO_KEY.test(key) ? Number(v.toPrecision(3))
            : v,
  );
}

/**
 * Text as the terminal may be given it: control characters (C0 but newline and tab, DEL, C1,
 * so no escape sequence that retitles the window or moves the cursor) and the bidirectional
 * overrides written as \x1b or \u202e. Text from Redis or a file (a worker's name, a failed
 * job's reason) is anyone's; nothing the CLI prints carries these on purpose.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * Text from outside (Redis, a file) set inside one line: printable, and its line breaks and
 * tabs written as \n, \r, \t too, so that it cannot start a line of its own that reads as the CLI's.
 */
export function inline(text: string): string {
  return printable(text).replace(/[\n\r\t\u2028\u2029]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : `\\u${c.charCodeAt(0).toString(16)}`));
}

/** process.stdout, once it has been asked for (`stdout()`). */
let stdoutStream: NodeJS.WriteStream | undefined;

/** Where stdout cannot be written: a reader that has gone (head) ends the CLI quietly, anything else with a message. */
function stdoutFailed(error: NodeJS.ErrnoException): never {
  if (error.code === "EPIPE") process.exit(0);
  err(`nqueens: cannot write to stdout (${error.code ?? error.message})\n`);
  process.exit(EXIT_RUNTIME);
}

/**
 * process.stdout, with the CLI's handler of write errors: for output that streams (a long list,
 * which waits for 'drain'). Once it has been asked for, every line goes through it, in order.
 */
export function stdout(): NodeJS.WriteStream {
  if (stdoutStream === undefined) {
    stdoutStream = process.stdout;
    stdoutStream.on("error", stdoutFailed);
  }
  return stdoutStream;
}

/**
 * Writes to stdout. Until the stream is asked for, straight to file descriptor 1: a short command
 * then never builds process.stdout, whose stream modules are about 3 ms of a fresh process's
 * start-up. A descriptor that would block (a non-blocking pipe that is full) hands what is left
 * to the stream, which waits for it; from then on the stream takes every line, so nothing
 * overtakes what it holds.
 */
function writeOut(text: string): void {
  if (stdoutStream !== undefined || process.platform === "win32") { // (a Windows console takes text through the stream, which writes it as UTF-16)
    stdout().write(text);
    return;
  }
  const rest = writeWhole(Buffer.from(text, "utf8"), (bytes) => writeSync(1, bytes));
  if (rest !== undefined) stdout().write(rest);
}

/**
 * Writes all of `bytes` with `write` (which may write part of them, as write(2) may), or stops
 * where the descriptor would block (EAGAIN) and returns what is left; any other failure is
 * stdout's (stdoutFailed).
 */
export function writeWhole(bytes: Buffer, write: (bytes: Buffer) => number, failed: (error: NodeJS.ErrnoException) => void = stdoutFailed): Buffer | undefined {
  try {
    while (bytes.length > 0) bytes = bytes.subarray(write(bytes));
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EAGAIN") return bytes;
    failed(error as NodeJS.ErrnoException);
    return undefined;
  }
}

/** A line on stdout, printable. */
export function out(line: string): void {
  writeOut(printable(line) + "\n");
}

/** Text on stderr (the CLI's notices), printable. */
export function err(text: string): void {
  process.stderr.write(printable(text));
}

/** A number for a table cell: fixed decimals, '-' where undefined (NaN), 'inf' for Infinity. */
export function cell(value: number, digits: number): string {
  if (Number.isNaN(value)) return "-";
  if (!Number.isFinite(value)) return "inf";
  return value.toFixed(digits);
}
