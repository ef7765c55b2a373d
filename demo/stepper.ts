// The step-through: the library's trace() follows the reference engine's own search one
// queen or one swap at a time (small n, cheap enough for the page's thread); every event
// carries the board and the running figures, drawn here with what explains the step.
import { defaultStopVegas, trace, verify, type TraceEvent, type TraceMethod } from "nqueens-wasm";
import { drawBoard, type Highlight } from "./board";
import { parseN, seed, stopVegasText } from "./controls";
import { $, fmt, input, select } from "./dom";

// trace() follows the reference engine's own search one queen or one swap at a time (small n,
// cheap enough for this thread); every event carries the board and the running figures.
const STEP_MIN_N = 4, STEP_MAX_N = 16;
const NOW = "rgba(60,120,230,0.30)", DEAD = "rgba(220,40,40,0.42)", LIFTED = "rgba(220,40,40,0.15)";
const SWAP = "rgba(240,190,30,0.50)", TAKEN = "rgba(40,170,70,0.40)";
let steps: Generator<TraceEvent, void, undefined> | null = null;
let stepN = 8;
let stepMethod: TraceMethod = "backtrack";
let stepStopVegas = 0;
let stepEvents = 0, stepFails = 0;
let shownColumns: Int32Array = new Int32Array(8).fill(-1); // the board on screen before the event
let playing = 0;

/** The columns of `row` that the queens of rows 0..row-1 attack. */
function attackedColumns(columns: Int32Array, row: number): number[] {
  const out: number[] = [];
  for (let c = 0; c < columns.length; c++) {
    for (let r = 0; r < row; r++) {
      const q = columns[r];
      if (q >= 0 && (q === c || Math.abs(q - c) === row - r)) { out.push(c); break; }
    }
  }
  return out;
}

/** Queens of a full board that another queen attacks (hill climbing's permutations). */
function attackedQueens(columns: Int32Array): Set<number> {
  return new Set(verify(columns, { maxConflicts: 1000 }).conflicts.flat());
}

const rowsText = (a: number, b: number) => (a === b ? `Row ${a}` : `Rows ${a}..${b}`);
const listText = (cols: number[]) => (cols.length ? cols.join(", ") : "none");

/** What the board shows for an event, and the sentence under it. */
function explain(e: TraceEvent, before: Int32Array): { board: Int32Array; hl: Highlight; text: string } {
  const hl: Highlight = { attacked: new Set(), rows: [], marks: [] };
  const cross = (board: Int32Array, row: number) => {
    for (const col of attackedColumns(board, row)) hl.marks!.push({ row, col, kind: "attacked" });
  };
  switch (e.kind) {
    case "start": {
      const what = e.method === "hybrid" ? `hybrid, stopVegas ${e.stopVegas}` : e.method;
      if (e.method === "hill-climb") hl.attacked = attackedQueens(e.columns);
      return { board: e.columns, hl, text: `n = ${e.n}, ${what}${e.seed !== null ? `, seed ${e.seed}` : ""}: ` +
        (e.method === "hill-climb" ? `a random permutation, h = ${e.conflicts}. Step to evaluate the first swap.` : "an empty board. Step to place the first queen.") };
    }
    case "place": {
      hl.rows!.push({ row: e.row, color: NOW });
      cross(e.columns, e.row);
      if (e.random) for (const col of e.safe) if (col !== e.column) hl.marks!.push({ row: e.row, col, kind: "choice" });
      hl.marks!.push({ row: e.row, col: e.column, kind: "placed" });
      const attacked = attackedColumns(e.columns, e.row);
      const text = e.random
        ? `Row ${e.row} (random): column ${e.column}, drawn from the safe columns ${listText(e.safe)}.`
        : e.previous !== null
          ? `Row ${e.row}: the queen moves on from column ${e.previous} to column ${e.column}, the next safe one (attacked: ${listText(attacked)}).`
          : `Row ${e.row}: column ${e.column}, the first safe column (attacked: ${listText(attacked)}).`;
      return { board: e.columns, hl, text };
    }
    case "backtrack": {
      // shown on the board before the lift, so the crosses say why the row is dead
      hl.rows!.push({ row: e.row, color: DEAD });
      for (let r = e.to + 1; r < e.row; r++) hl.rows!.push({ row: r, color: LIFTED });
      hl.rows!.push({ row: e.to, color: NOW });
      cross(before, e.row);
      const between = e.row - e.to > 1 ? ` ${rowsText(e.to + 1, e.row - 1)} ha${e.row - e.to > 2 ? "ve" : "s"} no other safe column either, so ${e.row - e.to > 2 ? "their queens are" : "its queen is"} lifted.` : "";
      return { board: before, hl, text: `Row ${e.row}: every column is attacked, no place for a queen: backtrack.${between} Back to row ${e.to}, whose queen moves on.` };
    }
    case "fail": {
      hl.rows!.push({ row: e.row, color: DEAD });
      cross(e.columns, e.row);
      const why = e.cause === "exhausted"
        ? `row ${e.row} has no safe column, and backtracking over rows ${stepStopVegas}..${e.row - 1} found no other column either (the random rows are never moved)`
        : `row ${e.row} has no safe column (every square is attacked)`;
      return { board: e.columns, hl, text: `Try ${e.tries} failed: ${why}. A new try starts from an empty board.` };
    }
    case "restart":
      if (stepMethod === "hill-climb") hl.attacked = attackedQueens(e.columns);
      return { board: e.columns, hl, text: stepMethod === "hill-climb" ? `Try ${e.tries}: a new random permutation, h = ${e.conflicts}.` : `Try ${e.tries}: an empty board.` };
    case "evaluate": {
      hl.rows!.push({ row: e.i, color: e.taken ? TAKEN : SWAP }, { row: e.j, color: e.taken ? TAKEN : SWAP });
      hl.attacked = attackedQueens(e.columns);
      const h0 = e.conflicts - (e.taken ? e.delta : 0);
      return { board: e.columns, hl, text: `Swap the queens of rows ${e.i} and ${e.j}: h would go from ${h0} to ${h0 + e.delta}: ` +
        (e.taken ? "better, so the swap is made and the scan starts again from rows 0, 1." : "not better, the board stays.") };
    }
    case "stuck":
      hl.attacked = attackedQueens(e.columns);
      return { board: e.columns, hl, text: `Stuck: no swap of two rows lowers h = ${e.conflicts} (a local minimum). The try ends.` };
    case "solution":
      return { board: e.columns, hl, text: `Solution: ${e.nodes} nodes, ${e.tries} ${e.tries === 1 ? "try" : "tries"}, ${e.steps} steps, as solve() reports.` };
    case "end":
      return { board: e.columns, hl, text: e.reason === "no-solution" ? "No solution exists." : "Stopped after too many events." };
  }
}

function showEvent(e: TraceEvent): void {
  const { board: shown, hl, text } = explain(e, shownColumns);
  drawBoard($<HTMLCanvasElement>("st-board"), shown, stepN, hl);
  $("st-board").dataset.columns = JSON.stringify(Array.from(e.columns));
  shownColumns = e.columns;
  $("st-status").textContent = text;
  $("st-status").dataset.kind = e.kind;
  $("st-nodes").textContent = fmt(e.nodes);
  $("st-tries").textContent = fmt(e.tries);
  $("st-steps").textContent = fmt(e.steps);
  $("st-h").textContent = e.conflicts >= 0 ? String(e.conflicts) : "-";
  $("st-events").textContent = fmt(stepEvents);
  $("st-fails").textContent = fmt(stepFails);
  const badge = $("st-badge");
  badge.hidden = e.kind !== "solution";
  if (e.kind === "solution") {
    const ok = verify(e.columns).ok;
    badge.className = `badge ${ok ? "ok" : "bad"}`;
    badge.textContent = ok ? "verified" : "not a solution";
    badge.dataset.ok = String(ok);
  }
}

/** The next event, counted; null when the trace is over (the next Step starts again). */
function advance(): TraceEvent | null {
  if (!steps) return null;
  const next = steps.next();
  if (next.done) { steps = null; return null; }
  stepEvents++;
  if (next.value.kind === "fail" || next.value.kind === "stuck") stepFails++;
  if (next.value.kind === "solution" || next.value.kind === "end") steps = null;
  return next.value;
}

function resetTrace(): void {
  pause();
  let n = 8;
  try { n = parseN(); } catch { /* keep 8 */ }
  stepN = Math.max(STEP_MIN_N, Math.min(STEP_MAX_N, n));
  stepMethod = select("st-method").value as TraceMethod;
  const sv = stopVegasText();
  stepStopVegas = stepMethod === "hybrid" ? (sv === "" ? defaultStopVegas(stepN) : Number(sv)) : 0;
  stepEvents = 0; stepFails = 0;
  shownColumns = new Int32Array(stepN).fill(-1);
  try {
    steps = trace(stepN, { method: stepMethod, seed: seed(), ...(stepMethod === "hybrid" ? { stopVegas: stepStopVegas } : {}) });
  } catch (error) {
    steps = null;
    $("st-status").textContent = (error as Error).message;
    $("st-status").dataset.kind = "error";
    return;
  }
  showEvent(advance()!); // the start event
  if (stepN !== n) {
    $("st-status").textContent = `The page's n = ${n} is outside ${STEP_MIN_N} .. ${STEP_MAX_N}, so this steps through n = ${stepN}. ` + $("st-status").textContent;
  }
}

/** One event on screen; false when the trace is over. */
function stepOnce(): boolean {
  if (!steps) { resetTrace(); return steps !== null; }
  const e = advance();
  if (!e) return false;
  showEvent(e);
  return steps !== null;
}

function toTheEnd(): void {
  pause();
  if (!steps) resetTrace();
  let last: TraceEvent | null = null;
  for (let e = advance(); e; e = advance()) last = e;
  if (last) showEvent(last);
}

function pause(): void { clearInterval(playing); playing = 0; $("st-play").textContent = "Play"; }
function play(): void {
  pause();
  const speed = Number(input("st-speed").value);
  playing = window.setInterval(() => { if (!stepOnce()) pause(); }, 1000 / speed);
  $("st-play").textContent = "Pause";
}

/** Wires the step-through's buttons; it follows n, seed and stopVegas of the form above. */
export function initStepper(): void {
  for (const id of ["n", "seed", "stopVegas"]) input(id).addEventListener("change", () => resetTrace());
  select("st-method").addEventListener("change", () => resetTrace());
  $("st-reset").addEventListener("click", () => resetTrace());
  $("st-step").addEventListener("click", () => { pause(); stepOnce(); });
  $("st-end").addEventListener("click", () => toTheEnd());
  $("st-play").addEventListener("click", () => (playing ? pause() : play()));
  input("st-speed").addEventListener("input", () => { $("st-speed-v").textContent = input("st-speed").value; if (playing) play(); });
  resetTrace();
}
