// The demo page: controls, board, figures, plot and JSON on the main thread; every solve,
// verify, estimate and Las Vegas table in a module Web Worker (worker.ts), every count in
// countParallel's own Web Workers. Stop terminates the worker or aborts the count, so it
// always acts at once. The step-through reads the library's trace() (small n, on this thread).
import {
  countParallel, defaultStopVegas, METHOD_NAMES, trace, verify, LAS_VEGAS_EXACT_MAX_N,
  type EngineName, type Method, type TraceEvent, type TraceMethod,
} from "nqueens-wasm";
import uPlot from "uplot";
import { CHESSBOARD_MAX_N, cellAt, drawBoard, type Highlight } from "./board";
import type { FromWorker, Job, LasVegasRow, SolveSummary, VerifySummary } from "./protocol";
import "uplot/dist/uPlot.min.css";
import "./style.css";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);

for (const m of METHOD_NAMES) select("method").add(new Option(m, m));
input("workers").value = String(Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2)));

// ---------- state ----------
type Run = { kind: "solve" | "count" | "estimate" | "t vs stopVegas"; id: number; started: number; stop: () => void };
let run: Run | null = null;
let nextId = 1;
let worker: Worker | null = null;
let board: { n: number; columns: Int32Array | null } = { n: 8, columns: null };
let attacked = new Set<number>();
let lastJson: unknown = null;
let ticker = 0;

function getWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (e: MessageEvent<FromWorker>) => onWorkerMessage(e.data);
    worker.onerror = (e) => { if (run) finish("error", `worker error: ${e.message}`); };
  }
  return worker;
}
function killWorker(): void { worker?.terminate(); worker = null; }
getWorker(); // start it early: the first Solve is then instant

// ---------- helpers ----------
function parseN(): number {
  const raw = input("n").value.trim().replace(/_/g, "").replace(/\s/g, "");
  const pow = raw.match(/^(\d+)\^(\d+)$/);
  const n = pow ? Number(pow[1]) ** Number(pow[2]) : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got "${input("n").value}"`);
  if (n > 1e8) throw new RangeError("this demo stops at n = 10^8 (the library goes further in Node)");
  return n;
}
const engine = () => select("engine").value as EngineName;
const fmt = (x: number | bigint) => (typeof x === "bigint" ? x.toLocaleString("en-US") : Number.isInteger(x) ? x.toLocaleString("en-US") : x.toFixed(1));
const fmtMs = (ms: number) => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);

function setStatus(text: string, state: string): void {
  $("status").textContent = text;
  $("status").dataset.state = state;
}
function setFigures(f: Partial<Record<"result" | "method" | "engine" | "nodes" | "tries" | "steps" | "time", string>>): void {
  for (const k of ["result", "method", "engine", "nodes", "tries", "steps", "time"] as const) $(`f-${k}`).textContent = f[k] ?? "-";
}
function showJson(value: unknown): void {
  lastJson = value;
  $<HTMLTextAreaElement>("json").value = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}
function setBusy(busy: boolean): void {
  for (const id of ["solve", "count", "estimate", "lvtable"]) $<HTMLButtonElement>(id).disabled = busy;
  $<HTMLButtonElement>("stop").disabled = !busy;
  document.body.dataset.busy = busy ? "1" : "";
}
function start(kind: Run["kind"], stop: () => void): Run {
  run = { kind, id: nextId++, started: performance.now(), stop };
  setBusy(true);
  clearInterval(ticker);
  ticker = window.setInterval(() => {
    if (run) $("f-time").textContent = `${fmtMs(performance.now() - run.started)} (running)`;
  }, 100);
  return run;
}
function finish(state: "done" | "stopped" | "error", text: string): void {
  clearInterval(ticker);
  run = null;
  setBusy(false);
  setStatus(text, state);
  flushPlot();
}

// ---------- plot (uPlot) ----------
let plot: uPlot | null = null;
let xs: number[] = [], ys: number[] = [], lo: number[] = [], hi: number[] = [];
let band = false;
let plotDirty = false;
/** The estimate plot's exact tree size (a flat line), when the worker has computed it. */
let exactY: number | null = null;
function newPlot(title: string, xLabel: string, yLabel: string, withBand = false, logY = false): void {
  plot?.destroy();
  $("lv-table").hidden = true;
  xs = []; ys = []; lo = []; hi = []; band = withBand; exactY = null;
  $("plot-title").textContent = title;
  $("plot").dataset.points = "0";
  const series: uPlot.Series[] = [{ label: xLabel }, { label: yLabel, stroke: "#1f5fbf", width: 2, points: { show: true, size: 4 } }];
  if (withBand) {
    series.push({ label: "-1.96 se", stroke: "#9bb7e0", dash: [4, 4] }, { label: "+1.96 se", stroke: "#9bb7e0", dash: [4, 4] },
      { label: "exact (treeSize)", stroke: "#2e8b57", width: 2, dash: [8, 4] });
  }
  plot = new uPlot({
    width: 500, height: 240,
    scales: { x: { time: false }, y: logY ? { distr: 3 } : {} },
    axes: [{ label: xLabel }, { label: yLabel, size: 70 }],
    series,
  }, withBand ? [[], [], [], [], []] : [[], []], $("plot"));
}
function addPoint(x: number, y: number, low?: number, high?: number): void {
  xs.push(x); ys.push(y);
  if (band) { lo.push(low ?? y); hi.push(high ?? y); }
  plotDirty = true;
}
function flushPlot(): void {
  if (!plot || !plotDirty) return;
  plotDirty = false;
  plot.setData((band ? [xs, ys, lo, hi, xs.map(() => exactY)] : [xs, ys]) as uPlot.AlignedData);
  if (exactY !== null) $("plot").dataset.exact = String(exactY);
  else delete $("plot").dataset.exact;
  $("plot").dataset.points = String(xs.length);
}
setInterval(flushPlot, 100); // redraw at most 10 times a second

// ---------- board ----------
function paintBoard(): void {
  drawBoard($<HTMLCanvasElement>("board"), board.columns, board.n, { attacked });
}
function showVerify(v: VerifySummary | null, n: number): void {
  const badge = $("badge");
  attacked = new Set<number>();
  if (!v) { badge.hidden = true; return; }
  for (const [a, b] of v.conflicts) { attacked.add(a); attacked.add(b); }
  badge.hidden = false;
  badge.className = `badge ${v.ok ? "ok" : "bad"}`;
  badge.textContent = v.ok ? `verified: ${fmt(n)} queens, no attacks` : `not a solution: ${fmt(v.conflictCount)} attacking pair${v.conflictCount === 1 ? "" : "s"}`;
  badge.dataset.ok = String(v.ok);
}
$<HTMLCanvasElement>("board").addEventListener("click", (event) => {
  const { n, columns } = board;
  if (!columns || n > CHESSBOARD_MAX_N || run) return;
  const { row, col } = cellAt($<HTMLCanvasElement>("board"), n, event);
  columns[row] = col;
  const v = verify(columns, { maxConflicts: 10_000 }); // n <= 64: microseconds
  showVerify({ ...v, ms: 0 }, n);
  paintBoard();
  $("board-note").textContent = `You moved the queen of row ${row} to column ${col}. ${v.ok ? "Still a solution." : "Attacked queens are red."}`;
});

// ---------- Solve ----------
$("solve").addEventListener("click", () => {
  let n: number;
  try { n = parseN(); } catch (e) { return setStatus((e as Error).message, "error"); }
  const method = select("method").value as Method;
  const seed = Number(input("seed").value) >>> 0;
  const sv = input("stopVegas").value.trim();
  const job: Job = { kind: "solve", id: 0, n, method, seed, engine: engine(), ...(sv !== "" ? { stopVegas: Number(sv) } : {}) };
  const r = start("solve", () => killWorker());
  job.id = r.id;
  const local = method === "min-conflicts" || method === "hill-climb" || (method === "auto" && n >= 50);
  if (local) newPlot("Conflicts left vs steps", "steps", "conflicts left");
  else newPlot("Nodes vs time", "ms", "nodes");
  setFigures({ result: "running", method, engine: engine() });
  setStatus(`Solving n = ${fmt(n)} with ${method}${method === "hybrid" ? ` (stopVegas ${sv || defaultStopVegas(n)})` : ""} on ${engine()}...`, "running");
  getWorker().postMessage(job);
});

function onWorkerMessage(m: FromWorker): void {
  if (!run || m.id !== run.id) return; // a message from a run already stopped
  if (m.type === "progress") {
    $("f-nodes").textContent = fmt(m.nodes); $("f-tries").textContent = fmt(m.tries); $("f-steps").textContent = fmt(m.steps);
    if (m.conflicts >= 0 && (m.phase === "repair" || m.phase === "search") && (plot && $("plot-title").textContent!.startsWith("Conflicts"))) addPoint(m.steps, m.conflicts);
    else if (m.conflicts < 0 && $("plot-title").textContent!.startsWith("Nodes")) addPoint(m.elapsedMs, m.nodes);
    if (m.phase === "construct") $("status").textContent = `Constructing (min-conflicts): ${fmtMs(m.elapsedMs)}`;
  } else if (m.type === "solved") {
    showSolved(m.result, m.columns, m.verify);
  } else if (m.type === "estimate-exact") {
    exactY = m.total;
    plotDirty = true;
  } else if (m.type === "estimate-progress") {
    addPoint(m.samples, m.mean, m.mean - 1.96 * m.stderr, m.mean + 1.96 * m.stderr);
    $("f-result").textContent = `${fmt(m.mean)} ± ${fmt(m.stderr)} nodes`;
    $("f-steps").textContent = `${fmt(m.samples)} probes`;
  } else if (m.type === "estimated") {
    const r = m.result as { mean: number; stderr: number; samples: number; ms: number; engine: string; n: number; exact: number | null };
    setFigures({ result: `${fmt(r.mean)} ± ${fmt(r.stderr)} nodes`, method: "estimate (Knuth)", engine: r.engine, steps: `${fmt(r.samples)} probes`, time: fmtMs(r.ms) });
    showJson(m.result);
    finish("done", `Knuth's estimate of the backtracking tree for n = ${r.n}: ${fmt(r.mean)} ± ${fmt(r.stderr)} nodes (${fmt(r.samples)} probes, ${fmtMs(r.ms)})` +
      (r.exact === null ? "." : `; the exact size is ${fmt(r.exact)} nodes (${((r.mean / r.exact - 1) * 100).toFixed(1)} % off).`));
  } else if (m.type === "lv-row") {
    addLasVegasRow(m.row);
    $("status").textContent = `t vs stopVegas for n = ${lvN}${m.exact ? " (exact)" : ""}: stopVegas ${m.row.stopVegas} of ${lvN} done, ${fmtMs(m.elapsedMs)}`;
  } else if (m.type === "lv-done") {
    showLasVegasTable(m.result);
  } else if (m.type === "error") {
    finish("error", m.message);
  }
}

function showSolved(result: SolveSummary, columns: Int32Array | null, v: VerifySummary | null): void {
  const lastPoint = result.steps;
  if ($("plot-title").textContent!.startsWith("Conflicts") && result.found && xs[xs.length - 1] !== lastPoint) addPoint(lastPoint, 0);
  if ($("plot-title").textContent!.startsWith("Nodes") && xs.length === 0) addPoint(result.ms, result.nodes);
  board = { n: result.n, columns };
  showVerify(v, result.n);
  paintBoard();
  $("board-title").textContent = result.n <= CHESSBOARD_MAX_N ? `Board, n = ${result.n}` : `Permutation, n = ${fmt(result.n)} (row down, column across)`;
  $("board-note").textContent = result.n <= CHESSBOARD_MAX_N
    ? "Click a square to move that row's queen there; attacked queens turn red."
    : result.n <= $<HTMLCanvasElement>("board").width * 8
      ? `One dot per queen; the board is ${fmt(result.n)} squares across. Attacked queens would be circled in red.`
      : `Each pixel is ${fmt(result.n / $<HTMLCanvasElement>("board").width)} rows by as many columns; darker = more queens. Attacked queens would be circled in red.`;
  setFigures({
    result: result.found ? "found" : `not found (${result.reason})`,
    method: result.method + (result.stopVegas !== undefined ? ` (stopVegas ${result.stopVegas})` : "") + (result.seed !== null ? `, seed ${result.seed}` : ""),
    engine: result.engine, nodes: fmt(result.nodes), tries: fmt(result.tries), steps: fmt(result.steps), time: fmtMs(result.ms),
  });
  const json: Record<string, unknown> = { ...result };
  json.columns = columns === null ? null : columns.length <= 10_000 ? Array.from(columns) : `${columns.length} columns (omitted here past 10000)`;
  if (v) json.verify = { ok: v.ok, conflictCount: v.conflictCount, ms: Number(v.ms.toFixed(2)) };
  showJson(json);
  finish("done", result.found
    ? `Found a solution for n = ${fmt(result.n)} with ${result.method} in ${fmtMs(result.ms)}${v ? `; verify: ${v.ok ? "ok" : "FAILED"} (${fmtMs(v.ms)})` : ""}.`
    : `No solution: ${result.reason}.`);
}

// ---------- Count ----------
$("count").addEventListener("click", () => {
  let n: number;
  try { n = parseN(); } catch (e) { return setStatus((e as Error).message, "error"); }
  if (n > 32) return setStatus("Count takes 1 <= n <= 32 (n = 18 already takes a while).", "error");
  const workers = Math.max(1, Math.min(64, Number(input("workers").value) || 2));
  const controller = new AbortController();
  const r = start("count", () => controller.abort());
  newPlot("Parts counted vs time", "s", "parts done");
  addPoint(0, 0);
  setFigures({ result: "counting", method: `countParallel, ${workers} workers`, engine: engine() });
  setStatus(`Counting n = ${n} on ${workers} Web Workers...`, "running");
  countParallel(n, {
    workers, engine: engine(), signal: controller.signal,
    onProgress: (p) => {
      if (run?.id !== r.id) return;
      addPoint(p.elapsedMs / 1000, p.tasksDone);
      setStatus(`Counting n = ${n} on ${p.workers} Web Workers: ${p.tasksDone} of ${p.tasksTotal} parts` +
        (p.rate !== undefined ? `, ${p.rate.toFixed(1)} parts/s` : "") + (p.etaMs !== undefined ? `, about ${fmtMs(p.etaMs)} left` : ""), "running");
      $("status").dataset.parts = `${p.tasksDone}/${p.tasksTotal}`;
    },
  }).then((res) => {
    if (run?.id !== r.id) return;
    setFigures({ result: `${fmt(res.total)} solutions (${fmt(res.unique)} unique)`, method: `countParallel, ${res.workers} workers, ${res.parts} parts`, engine: res.engine, nodes: fmt(res.nodes), time: fmtMs(res.ms) });
    showJson(res);
    finish("done", `n = ${n}: ${fmt(res.total)} solutions, ${fmt(res.unique)} unique, ${fmt(res.nodes)} nodes, ${fmtMs(res.ms)}.`);
  }, (error: Error) => {
    if (run?.id !== r.id) return;
    finish(error.name === "AbortError" ? "stopped" : "error", error.name === "AbortError" ? "Count stopped." : error.message);
  });
});

// ---------- Estimate ----------
$("estimate").addEventListener("click", () => {
  let n: number;
  try { n = parseN(); } catch (e) { return setStatus((e as Error).message, "error"); }
  if (n > 32) return setStatus("Estimate takes 1 <= n <= 32.", "error");
  const seed = Number(input("seed").value) >>> 0;
  const r = start("estimate", () => killWorker());
  newPlot("Knuth's estimate of the tree size vs probes (±1.96 se)", "probes", "nodes (estimate)", true);
  setFigures({ result: "estimating", method: "estimate (Knuth)", engine: engine() });
  setStatus(`Estimating the backtracking tree for n = ${n}: 40 batches of 2500 probes...`, "running");
  getWorker().postMessage({ kind: "estimate", id: r.id, n, seed, engine: engine(), batches: 40, batchSamples: 2500 } satisfies Job);
});

// ---------- t against stopVegas (Brassard & Bratley's table) ----------
/** Largest n the page tabulates: above it the backtracking-heavy rows take minutes (n = 24: 100 s). */
const LV_TABLE_MAX_N = 20;
/** Monte Carlo tries per stopVegas above LAS_VEGAS_EXACT_MAX_N. */
const LV_TRIALS = 1000;
let lvN = 8;
let lvRows: LasVegasRow[] = [];
const finite = (x: number) => (Number.isFinite(x) ? x : null);

function newLasVegasPlot(): void {
  plot?.destroy();
  xs = []; ys = []; lo = []; hi = []; band = false; plotDirty = false;
  lvRows = [];
  $("plot-title").textContent = `Expected nodes t until a success vs stopVegas, n = ${lvN}`;
  $("plot").dataset.points = "0";
  plot = new uPlot({
    width: 500, height: 260,
    scales: { x: { time: false }, t: { distr: 3 }, p: { range: [0, 1] } },
    axes: [
      { label: "stopVegas (rows placed at random)" },
      { scale: "t", label: "t (nodes, log scale)", size: 70 },
      { scale: "p", side: 1, label: "p (one try succeeds)", size: 60, grid: { show: false } },
    ],
    series: [
      { label: "stopVegas" },
      { label: "t", scale: "t", stroke: "#1f5fbf", width: 2, points: { show: true, size: 5 } },
      { label: "p", scale: "p", stroke: "#b07b00", width: 1.5, dash: [5, 4] },
      { label: "best", scale: "t", paths: () => null, points: { show: true, size: 14, width: 2, stroke: "#c5221f", fill: "rgba(197,34,31,0.25)" } },
    ],
  }, [[], [], [], []], $("plot"));
  const table = $("lv-table");
  table.hidden = false;
  delete table.dataset.best;
  table.querySelector("tbody")!.replaceChildren();
}

function drawLasVegas(best: number | null): void {
  plot?.setData([
    lvRows.map((r) => r.stopVegas), lvRows.map((r) => finite(r.t)), lvRows.map((r) => r.p),
    lvRows.map((r) => (r.stopVegas === best ? finite(r.t) : null)),
  ] as uPlot.AlignedData);
  $("plot").dataset.points = String(lvRows.length);
}

function addLasVegasRow(row: LasVegasRow): void {
  lvRows.push(row);
  drawLasVegas(null);
  const tr = document.createElement("tr");
  tr.dataset.stopVegas = String(row.stopVegas);
  const se = Number.isFinite(row.stderrT) && row.stderrT > 0 ? ` ± ${row.stderrT.toFixed(1)}` : "";
  for (const text of [String(row.stopVegas), row.p.toFixed(4), Number.isFinite(row.t) ? `${row.t.toFixed(2)}${se}` : "never"]) {
    tr.append(Object.assign(document.createElement("td"), { textContent: text }));
  }
  $("lv-table").querySelector("tbody")!.append(tr);
}

function showLasVegasTable(result: Extract<FromWorker, { type: "lv-done" }>["result"]): void {
  const { n, exact, rows, best } = result;
  drawLasVegas(best);
  $("lv-table").dataset.best = String(best);
  $("lv-table").querySelector(`tr[data-stop-vegas="${best}"]`)?.classList.add("best");
  const b = rows[best];
  setFigures({
    result: `best stopVegas = ${best}: t = ${b.t.toFixed(2)} nodes, p = ${b.p.toFixed(4)}`,
    method: exact ? "lasVegasStats, exact" : `lasVegasStats, ${fmt(result.trials!)} tries per stopVegas, seed ${result.seed}`,
    engine: result.engine, time: fmtMs(result.ms),
  });
  showJson(result);
  finish("done", `n = ${n}${exact ? " (exact)" : " (Monte Carlo)"}: t is smallest at stopVegas = ${best} (${b.t.toFixed(2)} nodes; ` +
    `backtracking ${rows[0].t.toFixed(2)}, pure Las Vegas ${rows[n].t.toFixed(2)}).`);
}

$("lvtable").addEventListener("click", () => {
  let n: number;
  try { n = parseN(); } catch (e) { return setStatus((e as Error).message, "error"); }
  if (n < 4 || n > LV_TABLE_MAX_N) {
    return setStatus(`t vs stopVegas takes 4 <= n <= ${LV_TABLE_MAX_N} here (exact up to n = ${LAS_VEGAS_EXACT_MAX_N}, Monte Carlo above).`, "error");
  }
  const seed = Number(input("seed").value) >>> 0;
  const exact = n <= LAS_VEGAS_EXACT_MAX_N;
  lvN = n;
  const r = start("t vs stopVegas", () => killWorker());
  newLasVegasPlot();
  setFigures({ result: "computing", method: exact ? "lasVegasStats, exact" : `lasVegasStats, ${LV_TRIALS} tries per stopVegas`, engine: engine() });
  setStatus(`t vs stopVegas for n = ${n}${exact ? " (exact)" : ` (Monte Carlo, ${LV_TRIALS} tries each)`}...`, "running");
  getWorker().postMessage({ kind: "lv-table", id: r.id, n, seed, engine: engine(), trials: LV_TRIALS } satisfies Job);
});

// ---------- Stop ----------
$("stop").addEventListener("click", () => {
  if (!run) return;
  const { kind, stop, started } = run;
  stop();
  $("f-result").textContent = "stopped";
  $("f-time").textContent = fmtMs(performance.now() - started);
  finish("stopped", `${kind[0].toUpperCase()}${kind.slice(1)} stopped after ${fmtMs(performance.now() - started)}.`);
});

// ---------- Copy ----------
$("copy").addEventListener("click", async () => {
  const area = $<HTMLTextAreaElement>("json");
  try { await navigator.clipboard.writeText(area.value); } catch { area.select(); document.execCommand("copy"); }
  $("copy").textContent = "Copied";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1200);
});

// ---------- step-through: the library's trace() ----------
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
  const seed = Number(input("seed").value) >>> 0;
  const sv = input("stopVegas").value.trim();
  stepStopVegas = stepMethod === "hybrid" ? (sv === "" ? defaultStopVegas(stepN) : Number(sv)) : 0;
  stepEvents = 0; stepFails = 0;
  shownColumns = new Int32Array(stepN).fill(-1);
  try {
    steps = trace(stepN, { method: stepMethod, seed, ...(stepMethod === "hybrid" ? { stopVegas: stepStopVegas } : {}) });
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
for (const id of ["n", "seed", "stopVegas"]) input(id).addEventListener("change", () => resetTrace());
select("st-method").addEventListener("change", () => resetTrace());
$("st-reset").addEventListener("click", () => resetTrace());
$("st-step").addEventListener("click", () => { pause(); stepOnce(); });
$("st-end").addEventListener("click", () => toTheEnd());
$("st-play").addEventListener("click", () => (playing ? pause() : play()));
input("st-speed").addEventListener("input", () => { $("st-speed-v").textContent = input("st-speed").value; if (playing) play(); });

// ---------- first paint ----------
newPlot("Plot", "x", "y");
paintBoard();
resetTrace();
// stopVegas is used by hybrid: in Solve, or in the step-through
const stopVegasUsed = () => { input("stopVegas").disabled = select("method").value !== "hybrid" && select("st-method").value !== "hybrid"; };
select("method").addEventListener("change", stopVegasUsed);
select("st-method").addEventListener("change", stopVegasUsed);
stopVegasUsed();
(window as unknown as { demo: unknown }).demo = { get lastResult() { return lastJson; } };
