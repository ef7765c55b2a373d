// render(columns): a text picture of a board, or a compact form for large n.
import { checkColumns, checkOptions, optionalInteger } from "../core/validate.js";

export type RenderOptions = {
  /** Largest n drawn as a full board (default 32); larger boards use the compact form. */
  maxBoard?: number;
  /** In the compact form, how many rows to show at each end (default 8). */
  edge?: number;
};

/**
 * A board as text: one line per row, `Q` for the queen and `.` for an empty square,
 * separated by spaces. Past `maxBoard` it lists columns by row instead, eliding the middle.
 * @example render([1, 3, 0, 2]) // ". Q . .\n. . . Q\nQ . . .\n. . Q ."
 */
export function render(columns: ArrayLike<number>, options?: RenderOptions): string {
  const board = checkColumns("columns", columns);
  const opts = checkOptions<RenderOptions>("render", options, ["maxBoard", "edge"]);
  const maxBoard = optionalInteger("maxBoard", opts.maxBoard, 0, 1024, 32);
  const edge = optionalInteger("edge", opts.edge, 1, 1_000_000, 8);
  const n = board.length;
  if (n <= maxBoard) {
    const lines: string[] = [];
    for (let r = 0; r < n; r++) {
      const row = new Array<string>(n).fill(".");
      row[board[r]] = "Q";
      lines.push(row.join(" "));
    }
    return lines.join("\n");
  }
  const width = String(n - 1).length;
  const line = (r: number): string => `row ${String(r).padStart(width)}: column ${board[r]}`;
  const lines = [`${n} queens (columns by row, 0-based)`];
  if (n <= 2 * edge) {
    for (let r = 0; r < n; r++) lines.push(line(r));
  } else {
    for (let r = 0; r < edge; r++) lines.push(line(r));
    lines.push(`... ${n - 2 * edge} rows not shown ...`);
    for (let r = n - edge; r < n; r++) lines.push(line(r));
  }
  return lines.join("\n");
}
