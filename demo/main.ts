// The demo page: the form's actions (Solve, Count, Estimate, t vs stopVegas, Stop), the
// figures and the last result as JSON. Every solve, verify, estimate and Las Vegas table
// runs in a module Web Worker (worker.ts), every count in countParallel's own Web Workers,
// so Stop (terminating the worker or aborting the count) always acts at once.
// The other rooms: board-panel.ts (the board of the last Solve), plot.ts (the live plot),
// stepper.ts (the step-through), controls.ts (reading the form), board.ts (drawing),
// las-vegas-table.ts (the plot and table of t vs stopVegas).
import { autoMethod, count, countParallel, defaultStopVegas, gpuInfo, type GpuCountProgress, type GpuInfo, METHOD_NAMES, METHODS, LAS_VEGAS_EXACT_MAX_N, type Method } from "nqueens-wasm";
import { CHESSBOARD_MAX_N } from "./board";
import { clearBoard, enableClicks, showSolution } from "./board-panel";
import { engine, parseN, seed, stopVegasText } from "./controls";
import { $, fmt, fmtLeft, fmtMs, fmtNodes, input, roundMs, select } from "./dom";
import { addPoint, endAt, flushPlot, INTEGER_INCRS, linePlot, newPlot, plotKind, setExact, wholeLegendValue } from "./plot";
import type { FromWorker, Job, SolveSummary, VerifySummary } from "./protocol";
import { initStepper } from "./stepper";
import { addLasVegasRow, markBest, newLasVegasPlot } from "./las-vegas-table";
import { constraintOptions, constraintsSummary, hasConstraints, noCompletionText } from "./constraints";
import "./style.css";

for (const m of METHOD_NAMES) select("method").add(new Option(m, m));
input("workers").value = String(Math.max(1, Math.min(8, navigator.hardwareConcurrency || 2)));

// ---------- runs ----------
type Run = { kind: "solve" | "count" | "estimate" | "t vs stopVegas"; id: number; started: number; stop: () => void };
let run: Run | null = null;
let nextId = 1;
let worker: Worker | null = null;
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

function setStatus(text: string, state: string): void {
  $("status").textContent = text;
  $("status").dataset.state = state;
}
type Figures = Partial<Record<"result" | "method" | "engine" | "nodes" | "tries" | "steps" | "time", string>>;
/** Every figure at once: those not given show "-", so none is left from an earlier action. */
function setFigures(f: Figures): void {
  for (const k of ["result", "method", "engine", "nodes", "tries", "steps", "time"] as const) $(`f-${k}`).textContent = f[k] ?? "-";
}
function showJson(value: unknown): void {
  lastJson = value;
  // bigints as strings; times (ms, elapsedMs...) to 0.1 ms
  const replacer = (key: string, v: unknown) => (typeof v === "bigint" ? v.toString() : typeof v === "number" && /^ms$|Ms$/.test(key) ? roundMs(v) : v);
  $<HTMLTextAreaElement>("json").value = value === null ? "" : JSON.stringify(value, replacer, 2);
}
function setBusy(busy: boolean): void {
  for (const id of ["solve", "count", "estimate", "lvtable"]) $<HTMLButtonElement>(id).disabled = busy;
  $<HTMLButtonElement>("stop").disabled = !busy;
  document.body.dataset.busy = busy ? "1" : "";
}
/** A new action: its figures, no board or JSON from an earlier one, and the busy state. */
function start(kind: Run["kind"], stop: () => void, figures: Figures, board: { n: number; title: string; note: string; show?: boolean }): Run {
  run = { kind, id: nextId++, started: performance.now(), stop };
  $("status").dataset.action = kind;
  delete $("status").dataset.parts;
  setFigures(figures);
  showJson(null);
  clearBoard(board.n, board.title, board.note, board.show ?? true);
  $("lv-table").hidden = true; // only t vs stopVegas shows its table
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
  if (state === "error") $("f-result").textContent = "error";
  flushPlot();
}
/** An action refused (n out of range): the error replaces the last result, as a new action would. */
function showError(message: string): void {
  setFigures({ result: "error" });
  showJson(null);
  clearBoard(8, "No board", "Correct the form above, then Solve, Count or Estimate.", false);
  $("lv-table").hidden = true;
  linePlot("none", "Plot", "x", "y");
  setStatus(message, "error");
}
/** n from the form, or the error said in the status line. */
function readN(max: number, what: string): number | null {
  try {
    const n = parseN();
    if (n > max) throw new RangeError(`${what} takes 1 <= n <= ${max}${what === "Count" ? " (n = 18 already takes a while)" : ""}.`);
    return n;
  } catch (e) {
    showError((e as Error).message);
    return null;
  }
}
const boardN = (n: number) => Math.min(n, CHESSBOARD_MAX_N);

// ---------- Solve ----------
/**
 * The local searches (the registry's `local` methods, 'auto' resolved by its own rule): their
 * progress is conflicts left (hill climbing) or construct-then-repair (min-conflicts).
 */
function localSearch(method: Method, n: number): "hill-climb" | "min-conflicts" | null {
  const picked = method === "auto" ? autoMethod(n) : method;
  return METHODS[picked].local ? (picked as "hill-climb" | "min-conflicts") : null;
}

$("solve").addEventListener("click", () => {
  const n = readN(1e8, "Solve");
  if (n === null) return;
  const method = select("method").value as Method;
  const sv = stopVegasText();
  const job: Job = {
    kind: "solve", id: 0, n, method, seed: seed(), engine: engine(), ...(sv !== "" ? { stopVegas: Number(sv) } : {}), ...constraintOptions(n),
  };
  const r = start("solve", () => killWorker(), { result: "running", method, engine: engine() },
    { n: boardN(n), title: `Board, n = ${fmt(n)}`, note: "Solving: the board appears when the search ends." });
  job.id = r.id;
  reports = 0;
  $("plot").dataset.reports = "0";
  // a point per chunk of work (about 10 ms), from the start
  const local = localSearch(method, n);
  if (local === "hill-climb") linePlot("conflicts", "Conflicts left (h) vs swaps", "swaps", "conflicts left");
  else if (local === "min-conflicts") {
    newPlot("swaps", "Min-conflicts: construction, then repair (swaps vs time)", {
      height: 240,
      scales: { x: { time: false } },
      axes: [{ label: "ms" }, { label: "swaps made", size: 70, incrs: INTEGER_INCRS }],
      series: [
        { label: "ms" },
        { label: "constructing", stroke: "#b07b00", width: 1.5, points: { show: true, size: 5 } },
        { label: "repairing", stroke: "#1f5fbf", width: 2, points: { show: true, size: 5 } },
      ],
    });
    addPoint(0, 0, null);
  } else {
    linePlot("nodes", "Nodes vs time", "ms", "nodes");
    addPoint(0, 0); // before the search: no node yet
  }
  setStatus(`Solving n = ${fmt(n)} with ${method}${method !== "auto" && METHODS[method].stopVegas ? ` (stopVegas ${sv || defaultStopVegas(n)})` : ""} on ${engine()}...`, "running");
  getWorker().postMessage(job);
});

/** Progress reports of the current Solve (one per chunk of work): the plot has a point for each. */
let reports = 0;

function onSolveProgress(m: Extract<FromWorker, { type: "progress" }>): void {
  $("plot").dataset.reports = String(++reports);
  $("f-nodes").textContent = fmt(m.nodes); $("f-tries").textContent = fmt(m.tries); $("f-steps").textContent = fmt(m.steps);
  const kind = plotKind();
  if (kind === "conflicts" && m.conflicts >= 0) addPoint(m.steps, m.conflicts);
  else if (kind === "swaps") {
    if (m.phase === "construct") addPoint(m.elapsedMs, 0, null);
    else addPoint(m.elapsedMs, null, m.steps);
  } else if (kind === "nodes") addPoint(m.elapsedMs, m.nodes);
  if (m.phase === "construct") $("status").textContent = `Constructing (min-conflicts): ${fmtMs(m.elapsedMs)}`;
  else if (m.conflicts >= 0) $("status").textContent = `Solving: ${fmt(m.conflicts)} conflicts left after ${fmt(m.steps)} swaps, ${fmtMs(m.elapsedMs)}`;
}

function showSolved(result: SolveSummary, columns: Int32Array | null, v: VerifySummary | null): void {
  // the last report is the run's end; a run that ended inside its first chunk has only it
  const kind = plotKind();
  if (kind === "conflicts" && result.found) endAt(result.steps, 0);
  if (kind === "nodes") endAt(result.ms, result.nodes);
  showSolution(result, columns, v);
  const none = noCompletionText(result, hasConstraints(result.n));
  if (none) $("board-note").textContent = none;
  setFigures({
    result: result.found ? "found" : `not found (${result.reason})`,
    method: result.method + (result.stopVegas !== undefined ? ` (stopVegas ${result.stopVegas})` : "") + (result.seed !== null ? `, seed ${result.seed}` : ""),
    engine: result.engine, nodes: fmt(result.nodes), tries: fmt(result.tries), steps: fmt(result.steps), time: fmtMs(result.ms),
  });
  const json: Record<string, unknown> = { ...result };
  json.columns = columns === null ? null : columns.length <= 10_000 ? Array.from(columns) : `${columns.length} columns (omitted here past 10000)`;
  if (v) json.verify = { ok: v.ok, conflictCount: v.conflictCount, ms: v.ms };
  showJson(json);
  finish("done", result.found
    ? `Found a solution for n = ${fmt(result.n)} with ${result.method} in ${fmtMs(result.ms)}${v ? `; verify: ${v.ok ? "ok" : "FAILED"} (${fmtMs(v.ms)})` : ""}.`
    : none ?? `No solution: ${result.reason}.`);
}

function onWorkerMessage(m: FromWorker): void {
  if (!run || m.id !== run.id) return; // a message from a run already stopped
  if (m.type === "progress") {
    onSolveProgress(m);
  } else if (m.type === "solved") {
    showSolved(m.result, m.columns, m.verify);
  } else if (m.type === "counted") {
    const c = m.result;
    setFigures({ result: `${fmt(BigInt(c.total))} solutions`, method: "count (complete search)", engine: c.engine, nodes: fmt(BigInt(c.nodes)), time: fmtMs(c.ms) });
    showJson(c);
    finish("done", `n = ${c.n} with ${constraintsSummary(c.n)}: ${fmt(BigInt(c.total))} solutions` +
      `${c.total === "0" ? " (no completion: proved by exhaustive search)" : ""}, ${fmt(BigInt(c.nodes))} nodes, ${fmtMs(c.ms)}.`);
  } else if (m.type === "estimate-exact") {
    setExact(m.total);
  } else if (m.type === "estimate-progress") {
    addPoint(m.samples, m.mean, m.mean - 1.96 * m.stderr, m.mean + 1.96 * m.stderr);
    $("f-result").textContent = `${fmtNodes(m.mean)} ± ${fmtNodes(m.stderr)} nodes`;
    $("f-steps").textContent = `${fmt(m.samples)} probes`;
  } else if (m.type === "estimated") {
    const r = m.result as { mean: number; stderr: number; samples: number; ms: number; engine: string; n: number; exact: number | null };
    setFigures({ result: `${fmtNodes(r.mean)} ± ${fmtNodes(r.stderr)} nodes`, method: "estimate (Knuth)", engine: r.engine, steps: `${fmt(r.samples)} probes`, time: fmtMs(r.ms) });
    showJson(m.result);
    finish("done", `Knuth's estimate of the backtracking tree for n = ${r.n}: ${fmtNodes(r.mean)} ± ${fmtNodes(r.stderr)} nodes (${fmt(r.samples)} probes, ${fmtMs(r.ms)})` +
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

// ---------- Count ----------
// The GPU choice: enabled with the adapter's name where WebGPU has one, else disabled with the reason.
let gpu: GpuInfo | null = null;
gpuInfo().then((info) => {
  gpu = info;
  input("count-gpu").disabled = false;
  $("gpu-name").textContent = `(${[info.vendor, info.architecture].filter(Boolean).join(" ") || "unnamed adapter"}${info.fallback ? ", software: slow" : ""})`;
}, (error: Error) => {
  $("gpu-name").textContent = "(no WebGPU here)";
  $("gpu-choice").title = error.message;
});

function countOnGpu(n: number): void {
  const controller = new AbortController();
  const adapter = gpu ? [gpu.vendor, gpu.architecture].filter(Boolean).join(" ") : "GPU";
  const r = start("count", () => controller.abort(), { result: "counting", method: `count on the GPU (${adapter})`, engine: "webgpu" },
    { n, title: `Count, n = ${n}: no single board`, note: `Count finds every solution of the ${n} x ${n} board and shows how many; Solve shows one.`, show: false });
  linePlot("parts", "Tasks counted vs time (GPU)", "s", "tasks done");
  addPoint(0, 0);
  setStatus(`Counting n = ${n} on the GPU (${adapter})...`, "running");
  count(n, {
    engine: "webgpu", signal: controller.signal, progressIntervalMs: 100,
    onProgress: (progress) => {
      const p = progress as GpuCountProgress;
      if (run?.id !== r.id) return;
      addPoint(p.elapsedMs / 1000, p.tasksDone);
      setStatus(`Counting n = ${n} on the GPU (${adapter}): ${p.tasksDone} of ${p.tasksTotal} tasks, ${fmt(Math.round(p.tasksPerSecond))} tasks/s` +
        (Number.isFinite(p.etaMs) ? `, about ${fmtLeft(p.etaMs)} left` : ""), "running");
    },
  }).then((res) => {
    if (run?.id !== r.id) return;
    const rate = Number(res.total) / Math.max(res.ms / 1000, 1e-9);
    setFigures({ result: `${fmt(res.total)} solutions (${fmt(res.unique ?? 0n)} unique)`, method: `count on the GPU (${adapter})`, engine: res.engine, nodes: fmt(res.nodes), time: fmtMs(res.ms) });
    showJson(res);
    finish("done", `n = ${n}: ${fmt(res.total)} solutions, ${fmt(res.unique ?? 0n)} unique, ${fmt(res.nodes)} nodes, ${fmtMs(res.ms)} on the GPU (${fmt(Math.round(rate))} solutions/s).`);
  }, (error: Error) => {
    if (run?.id !== r.id) return;
    finish(error.name === "AbortError" ? "stopped" : "error", error.name === "AbortError" ? "Count stopped." : error.message);
  });
}

$("count").addEventListener("click", () => {
  const n = readN(32, "Count");
  if (n === null) return;
  // A constrained board is counted on the CPU (the GPU counts plain boards only).
  if (hasConstraints(n)) { countConstrained(n); return; }
  if (input("count-gpu").checked) return countOnGpu(n);
  const workers = Math.max(1, Math.min(64, Number(input("workers").value) || 2));
  const controller = new AbortController();
  const r = start("count", () => controller.abort(), { result: "counting", method: `countParallel, ${workers} workers`, engine: engine() },
    { n, title: `Count, n = ${n}: no single board`, note: `Count finds every solution of the ${n} x ${n} board and shows how many; Solve shows one.`, show: false });
  linePlot("parts", "Parts counted vs time", "s", "parts done");
  addPoint(0, 0); // nothing counted yet
  setStatus(`Counting n = ${n} on ${workers} Web Workers...`, "running");
  countParallel(n, {
    workers, engine: engine(), signal: controller.signal,
    progressIntervalMs: 0, // a point per part counted
    onProgress: (p) => {
      if (run?.id !== r.id) return;
      addPoint(p.elapsedMs / 1000, p.tasksDone);
      setStatus(`Counting n = ${n} on ${p.workers} Web Workers: ${p.tasksDone} of ${p.tasksTotal} parts` +
        (p.rate !== undefined ? `, ${p.rate.toFixed(1)} parts/s` : "") + (p.etaMs !== undefined ? `, about ${fmtLeft(p.etaMs)} left` : ""), "running");
      $("status").dataset.parts = `${p.tasksDone}/${p.tasksTotal}`;
    },
  }).then((res) => {
    if (run?.id !== r.id) return;
    setFigures({ result: `${fmt(res.total)} solutions (${fmt(res.unique ?? 0n)} unique)`, method: `countParallel, ${res.workers} workers, ${res.parts} parts`, engine: res.engine, nodes: fmt(res.nodes), time: fmtMs(res.ms) });
    showJson(res);
    finish("done", `n = ${n}: ${fmt(res.total)} solutions, ${fmt(res.unique ?? 0n)} unique, ${fmt(res.nodes)} nodes, ${fmtMs(res.ms)}.`);
  }, (error: Error) => {
    if (run?.id !== r.id) return;
    finish(error.name === "AbortError" ? "stopped" : "error", error.name === "AbortError" ? "Count stopped." : error.message);
  });
});

/** Count of a board with given queens or blocked squares: count() in the worker (the complete search; countParallel takes plain boards). */
function countConstrained(n: number): void {
  const marks = constraintOptions(n);
  const r = start("count", () => killWorker(), { result: "counting", method: "count (complete search)", engine: engine() },
    { n, title: `Count, n = ${n}: ${constraintsSummary(n)}`, note: "Count finds every completion of the marked board and shows how many; Solve shows one.", show: false });
  // This count reports no progress (one job in the worker): its plot is empty, never the last Solve's.
  linePlot("none", "No plot: a constrained count reports only its total", "x", "y");
  setStatus(`Counting the completions of n = ${n} with ${constraintsSummary(n)}...`, "running");
  getWorker().postMessage({ kind: "count", id: r.id, n, engine: engine(), ...marks } satisfies Job);
}

// ---------- Estimate ----------
$("estimate").addEventListener("click", () => {
  const n = readN(32, "Estimate");
  if (n === null) return;
  const r = start("estimate", () => killWorker(), { result: "estimating", method: "estimate (Knuth)", engine: engine() },
    { n, title: `Estimate, n = ${n}: no board`, note: "Knuth's estimate walks random paths down the backtracking tree; it finds no solution to show.", show: false });
  newPlot("estimate", "Knuth's estimate of the tree size vs probes (±1.96 se)", {
    height: 240,
    scales: { x: { time: false } },
    axes: [{ label: "probes", incrs: INTEGER_INCRS }, { label: "nodes (estimate)", size: 70 }],
    series: [
      // node counts in whole nodes, as the exact one
      { label: "probes" }, { label: "nodes (estimate)", stroke: "#1f5fbf", width: 2, points: { show: true, size: 4 }, value: wholeLegendValue },
      { label: "-1.96 se", stroke: "#9bb7e0", dash: [4, 4], value: wholeLegendValue }, { label: "+1.96 se", stroke: "#9bb7e0", dash: [4, 4], value: wholeLegendValue },
      { label: "exact (treeSize)", stroke: "#2e8b57", width: 2, dash: [8, 4], value: wholeLegendValue },
    ],
  });
  setStatus(`Estimating the backtracking tree for n = ${n}: 40 batches of 2500 probes...`, "running");
  getWorker().postMessage({ kind: "estimate", id: r.id, n, seed: seed(), engine: engine(), batches: 40, batchSamples: 2500 } satisfies Job);
});

// ---------- t against stopVegas (Brassard & Bratley's table) ----------
/** Largest n the page tabulates: above it the backtracking-heavy rows take minutes (n = 24: 100 s). */
const LV_TABLE_MAX_N = 20;
/** Monte Carlo tries per stopVegas above LAS_VEGAS_EXACT_MAX_N. */
const LV_TRIALS = 1000;
let lvN = 8;

function showLasVegasTable(result: Extract<FromWorker, { type: "lv-done" }>["result"]): void {
  const { n, exact, rows, best } = result;
  markBest(best);
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
  const n = readN(LV_TABLE_MAX_N, "t vs stopVegas");
  if (n === null) return;
  if (n < 4) {
    return showError(`t vs stopVegas takes 4 <= n <= ${LV_TABLE_MAX_N} here (exact up to n = ${LAS_VEGAS_EXACT_MAX_N}, Monte Carlo above).`);
  }
  const exact = n <= LAS_VEGAS_EXACT_MAX_N;
  lvN = n;
  const r = start("t vs stopVegas", () => killWorker(),
    { result: "computing", method: exact ? "lasVegasStats, exact" : `lasVegasStats, ${LV_TRIALS} tries per stopVegas`, engine: engine() },
    { n, title: `t vs stopVegas, n = ${n}: no board`, note: "The table describes one try of the hybrid method for every stopVegas; it solves nothing to show.", show: false });
  newLasVegasPlot(n);
  setStatus(`t vs stopVegas for n = ${n}${exact ? " (exact)" : ` (Monte Carlo, ${LV_TRIALS} tries each)`}...`, "running");
  getWorker().postMessage({ kind: "lv-table", id: r.id, n, seed: seed(), engine: engine(), trials: LV_TRIALS } satisfies Job);
});

// ---------- Stop ----------
$("stop").addEventListener("click", () => {
  if (!run) return;
  const { kind, stop, started } = run;
  stop();
  $("f-result").textContent = "stopped";
  $("f-time").textContent = fmtMs(performance.now() - started);
  finish("stopped", `${kind[0]!.toUpperCase()}${kind.slice(1)} stopped after ${fmtMs(performance.now() - started)}.`);
});

// ---------- Copy ----------
$("copy").addEventListener("click", async () => {
  const area = $<HTMLTextAreaElement>("json");
  try { await navigator.clipboard.writeText(area.value); } catch { area.select(); document.execCommand("copy"); }
  $("copy").textContent = "Copied";
  setTimeout(() => { $("copy").textContent = "Copy"; }, 1200);
});

// ---------- first paint ----------
linePlot("none", "Plot", "x", "y");
clearBoard(8, "Board", "Solve to see a board. Up to n = 64 it is a chessboard (click a square to move that row's queen; attacked queens turn red); beyond, a picture of the permutation, one dot per queen.");
enableClicks(() => run !== null, () => { try { return parseN(); } catch { return null; } });
// Editing the givens starts a new board: the figures, plot and JSON of the last action go with the old one.
input("edit-givens").addEventListener("change", () => {
  if (!input("edit-givens").checked || run !== null) return;
  setFigures({});
  showJson(null);
  $("lv-table").hidden = true;
  linePlot("none", "Plot", "x", "y");
  setStatus("Editing the givens: click the squares of the board, then Solve, Count or Step through.", "idle");
});
initStepper();
// stopVegas is used by the methods that take it (hybrid): in Solve, or in the step-through
const takesStopVegas = (method: string) => method in METHODS && METHODS[method as keyof typeof METHODS].stopVegas;
const stopVegasUsed = () => { input("stopVegas").disabled = !takesStopVegas(select("method").value) && !takesStopVegas(select("st-method").value); };
select("method").addEventListener("change", stopVegasUsed);
select("st-method").addEventListener("change", stopVegasUsed);
stopVegasUsed();
(window as unknown as { demo: unknown }).demo = { get lastResult() { return lastJson; } };
