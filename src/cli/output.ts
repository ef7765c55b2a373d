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

export function out(line: string): void {
  process.stdout.write(line + "\n");
}

/** A number for a table cell: fixed decimals, '-' where undefined (NaN), 'inf' for Infinity. */
export function cell(value: number, digits: number): string {
  if (Number.isNaN(value)) return "-";
  if (!Number.isFinite(value)) return "inf";
  return value.toFixed(digits);
}
