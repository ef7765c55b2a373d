// The page's live plot (uPlot): one plot at a time under "Plot", fed a point per chunk of
// work and redrawn at most 10 times a second. It takes the width of its container, so it
// fits a phone screen, and follows the container when the page is resized.
import uPlot from "uplot";
import { $, fmt } from "./dom";
import "uplot/dist/uPlot.min.css";

/** What the plot shows: each action of the page that plots has its own kind. */
export type PlotKind = "none" | "nodes" | "conflicts" | "swaps" | "parts" | "estimate" | "lv";

const MAX_WIDTH = 560;
const container = () => $("plot");

let plot: uPlot | null = null;
let kind: PlotKind = "none";
/** Column 0 is x; one column per series after it (null: no value at that x). */
let columns: (number | null)[][] = [[]];
let dirty = false;
/** The estimate plot's exact tree size (a flat line), once the worker has computed it. */
let exactY: number | null = null;

function width(): number {
  return Math.max(220, Math.min(MAX_WIDTH, Math.floor(container().clientWidth || MAX_WIDTH)));
}

new ResizeObserver(() => {
  if (plot && plot.width !== width()) plot.setSize({ width: width(), height: plot.height });
}).observe(container());

/** Replaces the plot: a title, uPlot's options (less width), and no points yet. */
export function newPlot(next: PlotKind, title: string, options: Omit<uPlot.Options, "width">): void {
  plot?.destroy();
  kind = next;
  columns = options.series.map(() => []);
  exactY = null;
  dirty = false;
  $("plot-title").textContent = title;
  container().dataset.kind = next;
  container().dataset.points = "0";
  delete container().dataset.exact;
  delete container().dataset.yMax;
  delete container().dataset.yDataMax;
  const hooks = { ...options.hooks, draw: [...(options.hooks?.draw ?? []), drawn] };
  // uPlot ranges y over the points inside the x range it finds by search, which leaves out a
  // last point that shares its x with the one before (a solve's final report often does): the
  // line then ran off the top. The y scale spans every point instead.
  const y = options.scales?.y;
  const scales = y?.range === undefined ? { ...options.scales, y: { ...y, range: (u: uPlot) => yRange(u, y?.distr === 3) } } : options.scales;
  const series = options.series.map((one) => ({ value: legendValue, ...one }));
  plot = new uPlot({ ...options, series, scales, hooks, width: width() }, columns as uPlot.AlignedData, container());
}

/**
 * A series' value in the legend: the one under the cursor, or, with no cursor on the plot,
 * the series' last value (uPlot's default then shows "--" for every series).
 */
function legendValue(u: uPlot, value: number | null, series: number, idx: number | null, whole = false): string {
  if (idx === null) {
    const column = u.data[series] ?? [];
    for (let i = column.length - 1; i >= 0 && value === null; i--) value = column[i] ?? null;
  }
  if (value === null) return "-";
  if (whole) return fmt(Math.round(value));
  return Number.isInteger(value) || Math.abs(value) >= 1 ? fmt(value) : String(Number(value.toPrecision(3)));
}

/** The legend's value in whole units (estimated node counts), written as the exact count beside it. */
export const wholeLegendValue = (u: uPlot, value: number | null, series: number, idx: number | null) => legendValue(u, value, series, idx, true);

/** Every finite y of the series on scale y (on a log scale, the positive ones). */
function yValues(u: uPlot, log: boolean): { lo: number; hi: number } {
  let lo = Infinity, hi = -Infinity;
  u.series.forEach((series, i) => {
    if (i === 0 || (series.scale ?? "y") !== "y") return;
    for (const v of u.data[i] ?? []) {
      if (typeof v !== "number" || !Number.isFinite(v) || (log && v <= 0)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  });
  return { lo, hi };
}

function yRange(u: uPlot, log: boolean): uPlot.Range.MinMax {
  const { lo, hi } = yValues(u, log);
  if (lo > hi) return log ? [1, 10] : [0, 1];
  return log ? uPlot.rangeLog(lo, hi, 10, true) : uPlot.rangeNum(lo, hi, 0.1, true);
}

/** Tick steps for an axis of whole numbers (parts, nodes, swaps, stopVegas): never 2.5 or 7.5. */
export const INTEGER_INCRS = Array.from({ length: 16 }, (_, e) => [1, 2, 5].map((m) => m * 10 ** e)).flat();

/** After each draw: the y scale's top and the largest y it shows, for the tests (a point above the top is cut off); the ticks drawn. */
function drawn(u: uPlot): void {
  // (uPlot keeps each axis's tick values in _splits; the tests read them to check whole-number axes.)
  const splits = (u.axes as { _splits?: number[] }[]).map((a) => a._splits ?? []);
  container().dataset.xTicks = JSON.stringify(splits[0] ?? []);
  container().dataset.yTicks = JSON.stringify(splits[1] ?? []);
  const y = u.scales.y;
  if (!y || y.max === undefined || y.max === null) return;
  container().dataset.yMax = String(y.max);
  container().dataset.yDataMax = String(yValues(u, false).hi);
}

/** A simple line plot of y (a count: whole-number ticks) against x (whole numbers too unless it is a time, ms or s), with a dot per point. */
export function linePlot(next: PlotKind, title: string, xLabel: string, yLabel: string, logY = false): void {
  const time = xLabel === "ms" || xLabel === "s";
  newPlot(next, title, {
    height: 240,
    scales: { x: { time: false }, y: logY ? { distr: 3 } : {} },
    axes: [{ label: xLabel, ...(time ? {} : { incrs: INTEGER_INCRS }) }, { label: yLabel, size: 70, ...(logY ? {} : { incrs: INTEGER_INCRS }) }],
    series: [{ label: xLabel }, { label: yLabel, stroke: "#1f5fbf", width: 2, points: { show: true, size: 5 } }],
  });
}

export const plotKind = () => kind;
export const pointCount = () => columns[0]!.length;
export const lastX = () => columns[0]!.at(-1) ?? null;

/** One point: x, then a value (or null) for each series. */
export function addPoint(x: number, ...ys: (number | null)[]): void {
  columns[0]!.push(x);
  for (let s = 1; s < columns.length; s++) columns[s]!.push(ys[s - 1] ?? null);
  dirty = true;
}

/**
 * The run's final point: added at x, or, where the last point already stands at x (a run that
 * ended within a report's resolution), its values replaced, so the line always ends at the
 * result the figures show.
 */
export function endAt(x: number, ...ys: (number | null)[]): void {
  const last = columns[0]!.length - 1;
  if (last < 0 || columns[0]![last] !== x) return addPoint(x, ...ys);
  for (let s = 1; s < columns.length; s++) columns[s]![last] = ys[s - 1] ?? null;
  dirty = true;
}

/** Every column at once (the Las Vegas table's plot, redrawn as its rows come). */
export function setColumns(next: (number | null)[][]): void {
  columns = next;
  dirty = true;
  flushPlot();
}

/** The estimate plot's exact line. */
export function setExact(y: number): void {
  exactY = y;
  dirty = true;
}

export function flushPlot(): void {
  if (!plot || !dirty) return;
  dirty = false;
  if (kind === "estimate") columns[4] = columns[0]!.map(() => exactY);
  plot.setData(columns as uPlot.AlignedData);
  if (exactY !== null) container().dataset.exact = String(exactY);
  container().dataset.points = String(columns[0]!.length);
  container().dataset.yLast = String(columns[1]?.at(-1) ?? "");
  container().dataset.x0 = String(columns[0]![0] ?? "");
}

setInterval(flushPlot, 100);
