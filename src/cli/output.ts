// What the CLI prints on stdout: lines, JSON, table cells.

/** JSON with bigints as decimal strings, typed arrays as plain arrays and times in ms to one decimal. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (key, v) =>
    typeof v === "bigint" ? v.toString()
      : ArrayBuffer.isView(v) ? Array.from(v as Int32Array)
        : (key === "ms" || key === "elapsedMs") && typeof v === "number" ? Math.round(v * 10) / 10 // times to 0.1 ms
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
