// The page's board panel: the board of the last Solve (a chessboard up to n = 64, else a
// picture of the permutation), its verify badge, and clicking a square to move a queen.
// Every other action (Count, Estimate, t vs stopVegas, a Solve under way or stopped) clears
// it, so the board never shows a result the figures beside it do not describe.
import { verify } from "nqueens-wasm";
import { CHESSBOARD_MAX_N, cellAt, drawBoard } from "./board";
import { $, fmt } from "./dom";
import type { SolveSummary, VerifySummary } from "./protocol";

let board: { n: number; columns: Int32Array | null } = { n: 8, columns: null };
let attacked = new Set<number>();

const canvas = () => $<HTMLCanvasElement>("board");

function paint(): void {
  drawBoard(canvas(), board.columns, board.n, { attacked });
  // what the board shows, for tests and scripts: the columns (up to 64 queens) or nothing
  const panel = $("board-panel");
  panel.dataset.n = String(board.n);
  panel.dataset.shows = board.columns ? "solution" : "none";
  if (board.columns && board.n <= CHESSBOARD_MAX_N) panel.dataset.columns = JSON.stringify(Array.from(board.columns));
  else delete panel.dataset.columns;
}

function showVerify(v: VerifySummary | null, n: number): void {
  const badge = $("badge");
  attacked = new Set<number>();
  if (!v) { badge.hidden = true; delete badge.dataset.ok; return; }
  for (const [a, b] of v.conflicts) { attacked.add(a); attacked.add(b); }
  badge.hidden = false;
  badge.className = `badge ${v.ok ? "ok" : "bad"}`;
  badge.textContent = v.ok ? `verified: ${fmt(n)} queens, no attacks` : `not a solution: ${fmt(v.conflictCount)} attacking pair${v.conflictCount === 1 ? "" : "s"}`;
  badge.dataset.ok = String(v.ok);
}

/** An empty board of n rows (n clamped to what a chessboard can show), with why it is empty. */
export function clearBoard(n: number, title: string, note: string): void {
  board = { n: Number.isInteger(n) && n >= 1 && n <= CHESSBOARD_MAX_N ? n : 8, columns: null };
  showVerify(null, board.n);
  $("board-title").textContent = title;
  $("board-note").textContent = note;
  paint();
}

/** The board of a finished Solve, with what verify says about it. */
export function showSolution(result: SolveSummary, columns: Int32Array | null, v: VerifySummary | null): void {
  board = { n: result.n, columns };
  showVerify(v, result.n);
  paint();
  const width = canvas().width;
  $("board-title").textContent = result.n <= CHESSBOARD_MAX_N ? `Board, n = ${result.n}` : `Permutation, n = ${fmt(result.n)} (row down, column across)`;
  $("board-note").textContent = !columns
    ? `No board: the search ended without a solution (${result.reason}).`
    : result.n <= CHESSBOARD_MAX_N
      ? "Click a square to move that row's queen there; attacked queens turn red."
      : result.n <= width * 8
        ? `One dot per queen; the board is ${fmt(result.n)} squares across. Attacked queens would be circled in red.`
        : `Each pixel is ${fmt(result.n / width)} rows by as many columns; darker = more queens. Attacked queens would be circled in red.`;
}

/** Clicking a square moves that row's queen (chessboards only, and not while a run is going). */
export function enableClicks(busy: () => boolean): void {
  canvas().addEventListener("click", (event) => {
    const { n, columns } = board;
    if (!columns || n > CHESSBOARD_MAX_N || busy()) return;
    const { row, col } = cellAt(canvas(), n, event);
    columns[row] = col;
    const v = verify(columns, { maxConflicts: 10_000 }); // n <= 64: microseconds
    showVerify({ ...v, ms: 0 }, n);
    paint();
    $("board-note").textContent = `You moved the queen of row ${row} to column ${col}. ${v.ok ? "Still a solution." : "Attacked queens are red."}`;
  });
  // the canvas follows the page's width (phones): redraw at the new size
  new ResizeObserver(() => paint()).observe(canvas());
}
