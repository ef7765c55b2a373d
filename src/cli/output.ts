// What the CLI prints on stdout: lines, JSON, table cells.

/** A time in ms (`ms`, `wasmMs`, `elapsedMs`...): printed to 0.1 ms. */
const TIME_KEY = /^ms$|Ms$/;
/** A ratio of two times (`tsOverWasm`): printed to three significant figures. */
const RATIO_KEY = /Over[A-Z]/;

/** JSON with bigints as decimal strings, typed arrays as plain arrays, times in ms to one decimal and ratios to three figures. */
export function toJson(value: unknown): string {
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

/** A line on stdout, printable. */
export function out(line: string): void {
  process.stdout.write(printable(line) + "\n");
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
