// The page's board panel: the board of the last Solve (a chessboard up to n = 64, else a
// picture of the permutation), its verify badge, and clicking a square to move a queen.
// Every other action (Count, Estimate, t vs stopVegas, a Solve under way or stopped) clears
// it, so the board never shows a result the figures beside it do not describe; those that
// make no board at all (and an error) hide the empty canvas, unless it shows marked squares.
import { verify } from "nqueens-wasm";
import { CHESSBOARD_MAX_N, cellAt, drawBoard } from "./board";
import { $, fmt, input } from "./dom";
import { clearConstraints, constraintHighlight, constraintsOf, constraintsSummary, cycleSquare } from "./constraints";
import type { SolveSummary, VerifySummary } from "./protocol";

let board: { n: number; columns: Int32Array | null } = { n: 8, columns: null };
let attacked = new Set<number>();
/** False while there is no board to show (see clearBoard): the canvas is hidden. */
let shown = true;

const canvas = () => $<HTMLCanvasElement>("board");

function paint(): void {
  canvas().hidden = !shown;
  drawBoard(canvas(), board.columns, board.n, { attacked, ...(board.n <= CHESSBOARD_MAX_N ? constraintHighlight(board.n) : {}) });
  // what the board shows, for tests and scripts: the columns (up to 64 queens) or nothing
  const panel = $("board-panel");
  panel.dataset.n = String(board.n);
  panel.dataset.shows = board.columns ? "solution" : "none";
  if (board.columns && board.n <= CHESSBOARD_MAX_N) panel.dataset.columns = JSON.stringify(Array.from(board.columns));
  else delete panel.dataset.columns;
  // the given queens and blocked squares of this n (demo/constraints.ts), for tests and scripts
  const marks = constraintsOf(board.n);
  panel.dataset.given = JSON.stringify(marks.fixed);
  panel.dataset.blocked = JSON.stringify(marks.blocked);
  $("givens-summary").textContent = constraintsSummary(board.n);
}

/** Edit mode (the checkbox under the board): clicks mark squares instead of moving queens. */
const editing = () => input("edit-givens").checked;

/** An empty board of the form's n to mark given queens and blocked squares on. */
function showEditBoard(n: number): void {
  board = { n, columns: null };
  shown = true;
  showVerify(null, n);
  $("board-title").textContent = `Board, n = ${n}: given queens and blocked squares`;
  $("board-note").textContent = "Click a square: a given queen (blue), click again: blocked (dark), again: free. Solve, Count and Step through then keep the given queens and use no blocked square.";
  paint();
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

/**
 * An empty board of n rows (n clamped to what a chessboard can show), with why it is empty.
 * `show` false (an action that makes no board, an error): the canvas is hidden, unless it
 * has given queens or blocked squares to show or they are being edited.
 */
export function clearBoard(n: number, title: string, note: string, show = true): void {
  board = { n: Number.isInteger(n) && n >= 1 && n <= CHESSBOARD_MAX_N ? n : 8, columns: null };
  showVerify(null, board.n);
  $("board-title").textContent = title;
  $("board-note").textContent = note;
  const { fixed, blocked } = constraintsOf(board.n);
  shown = show || editing() || fixed.length + blocked.length > 0;
  paint();
}

/** The board of a finished Solve, with what verify says about it. */
export function showSolution(result: SolveSummary, columns: Int32Array | null, v: VerifySummary | null): void {
  board = { n: result.n, columns };
  shown = true;
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
  if (columns && result.n <= CHESSBOARD_MAX_N && editing()) {
    $("board-note").textContent = "Given queens are blue, blocked squares dark. Edit is on: a click marks a square (and clears this board); turn it off to move queens.";
  }
}

/** Clicking a square moves that row's queen (chessboards only, and not while a run is going). */
export function enableClicks(busy: () => boolean, formN: () => number | null): void {
  const edit = () => {
    const n = formN();
    if (n !== null && n <= CHESSBOARD_MAX_N) showEditBoard(n);
    else if (editing()) $("board-note").textContent = `Given queens and blocked squares can be marked on boards up to n = ${CHESSBOARD_MAX_N}.`;
  };
  input("edit-givens").addEventListener("change", () => { if (editing()) edit(); });
  input("n").addEventListener("change", () => { if (editing() && !busy()) edit(); });
  $("clear-givens").addEventListener("click", () => {
    clearConstraints();
    if (editing() && !busy()) edit();
    else paint();
  });
  canvas().addEventListener("click", (event) => {
    if (editing() && board.n <= CHESSBOARD_MAX_N && !busy()) {
      if (board.columns) showEditBoard(board.n); // back to the marks alone: the solution shown no longer applies
      const { row, col } = cellAt(canvas(), board.n, event);
      const now = cycleSquare(row, col);
      paint();
      $("board-note").textContent = `Square (${row}, ${col}) is now ${now === "given" ? "a given queen" : now}. ${constraintsSummary(board.n)}.`;
      return;
    }
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
