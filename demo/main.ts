// The demo page: controls, board, figures, plot and JSON on the main thread; every solve,
// verify and estimate in a module Web Worker (worker.ts), every count in countParallel's own
// Web Workers. Stop terminates the worker or aborts the count, so it always acts at once.
import { countParallel, defaultStopVegas, METHOD_NAMES, verify, type EngineName, type Method } from "nqueens-wasm";
import uPlot from "uplot";
import { CHESSBOARD_MAX_N, cellAt, drawBoard } from "./board";
import type { FromWorker, Job, SolveSummary, VerifySummary } from "./protocol";
import { backtrackTrace, type TraceEvent } from "./trace";
import "uplot/dist/uPlot.min.css";
import "./style.css";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const input = (id: string) => $<HTMLInputElement>(id);
const select = (id: string) => $<HTMLSelectElement>(id);

for (const m of METHOD_NAMES) select("method").add(new Option(m, m));
input("workers").value = String(Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2)));

// ---------- state ----------
type Run = { kind: "solve" | "count" | "estimate"; id: number; started: number; stop: () => void };
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
  for (const id of ["solve", "count", "estimate"]) $<HTMLButtonElement>(id).disabled = busy;
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
function newPlot(title: string, xLabel: string, yLabel: string, withBand = false, logY = false): void {
  plot?.destroy();
  xs = []; ys = []; lo = []; hi = []; band = withBand;
  $("plot-title").textContent = title;
  $("plot").dataset.points = "0";
  const series: uPlot.Series[] = [{ label: xLabel }, { label: yLabel, stroke: "#1f5fbf", width: 2, points: { show: true, size: 4 } }];
  if (withBand) series.push({ label: "-1.96 se", stroke: "#9bb7e0", dash: [4, 4] }, { label: "+1.96 se", stroke: "#9bb7e0", dash: [4, 4] });
  plot = new uPlot({
    width: 500, height: 240,
    scales: { x: { time: false }, y: logY ? { distr: 3 } : {} },
    axes: [{ label: xLabel }, { label: yLabel, size: 70 }],
    series,
  }, withBand ? [[], [], [], []] : [[], []], $("plot"));
}
function addPoint(x: number, y: number, low?: number, high?: number): void {
  xs.push(x); ys.push(y);
  if (band) { lo.push(low ?? y); hi.push(high ?? y); }
  plotDirty = true;
}
function flushPlot(): void {
  if (!plot || !plotDirty) return;
  plotDirty = false;
  plot.setData((band ? [xs, ys, lo, hi] : [xs, ys]) as uPlot.AlignedData);
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
  } else if (m.type === "estimate-progress") {
    addPoint(m.samples, m.mean, m.mean - 1.96 * m.stderr, m.mean + 1.96 * m.stderr);
    $("f-result").textContent = `${fmt(m.mean)} ± ${fmt(m.stderr)} nodes`;
    $("f-steps").textContent = `${fmt(m.samples)} probes`;
  } else if (m.type === "estimated") {
    const r = m.result as { mean: number; stderr: number; samples: number; ms: number; engine: string; n: number };
    setFigures({ result: `${fmt(r.mean)} ± ${fmt(r.stderr)} nodes`, method: "estimate (Knuth)", engine: r.engine, steps: `${fmt(r.samples)} probes`, time: fmtMs(r.ms) });
    showJson(m.result);
    finish("done", `Knuth's estimate of the backtracking tree for n = ${r.n}: ${fmt(r.mean)} ± ${fmt(r.stderr)} nodes (${fmt(r.samples)} probes, ${fmtMs(r.ms)}).`);
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
      setStatus(`Counting n = ${n} on ${p.workers} Web Workers: ${p.tasksDone} of ${p.tasksTotal} parts${p.etaMs !== undefined ? `, about ${fmtMs(p.etaMs)} left` : ""}`, "running");
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

// ---------- step-through of backtracking ----------
let trace: Generator<TraceEvent> | null = null;
let traceN = 8;
let tests = 0;
let playing = 0;
function stepOnce(): boolean {
  if (!trace) resetTrace();
  const next = trace!.next();
  if (next.done) { pause(); return false; }
  const e = next.value;
  if (e.kind === "test") tests++;
  const current = e.kind === "test" ? { row: e.row, col: e.col, ok: e.ok } : undefined;
  drawBoard($<HTMLCanvasElement>("st-board"), e.cols, traceN, { attacked: new Set(), current });
  const what = e.kind === "test" ? `row ${e.row}: column ${e.col} is ${e.ok ? "safe" : "attacked"}`
    : e.kind === "place" ? `queen placed at row ${e.row}, column ${e.col}`
    : e.kind === "backtrack" ? `row ${e.row}: no safe column left, back to row ${e.row - 1}`
    : e.kind === "solution" ? "solution found" : "no solution exists";
  $("st-status").textContent = `${what}. Nodes ${e.nodes}, squares tested ${tests}.`;
  if (e.kind === "solution" || e.kind === "exhausted") { pause(); trace = null; $("st-status").textContent += " (Step again to restart.)"; return false; }
  return true;
}
function resetTrace(): void {
  let n = 8;
  try { n = parseN(); } catch { /* keep 8 */ }
  traceN = Math.max(4, Math.min(16, n));
  trace = backtrackTrace(traceN);
  tests = 0;
  drawBoard($<HTMLCanvasElement>("st-board"), new Int32Array(traceN).fill(-1), traceN, { attacked: new Set() });
  $("st-status").textContent = `n = ${traceN}: ready.`;
}
function pause(): void { clearInterval(playing); playing = 0; $("st-play").textContent = "Play"; }
function play(): void {
  pause();
  const speed = Number(input("st-speed").value);
  playing = window.setInterval(() => { if (!stepOnce()) pause(); }, 1000 / speed);
  $("st-play").textContent = "Pause";
}
input("n").addEventListener("change", () => { if (!playing) resetTrace(); });
$("st-reset").addEventListener("click", () => { pause(); resetTrace(); });
$("st-step").addEventListener("click", () => { pause(); stepOnce(); });
$("st-play").addEventListener("click", () => (playing ? pause() : play()));
input("st-speed").addEventListener("input", () => { $("st-speed-v").textContent = input("st-speed").value; if (playing) play(); });

// ---------- first paint ----------
newPlot("Plot", "x", "y");
paintBoard();
resetTrace();
select("method").addEventListener("change", () => { input("stopVegas").disabled = select("method").value !== "hybrid"; });
input("stopVegas").disabled = true;
(window as unknown as { demo: unknown }).demo = { get lastResult() { return lastJson; } };
