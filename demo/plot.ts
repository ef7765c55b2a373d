// The page's live plot (uPlot): one plot at a time under "Plot", fed a point per chunk of
// work and redrawn at most 10 times a second. It takes the width of its container, so it
// fits a phone screen, and follows the container when the page is resized.
import uPlot from "uplot";
import { $ } from "./dom";
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
  plot = new uPlot({ ...options, width: width() }, columns as uPlot.AlignedData, container());
}

/** A simple line plot of y against x, with a dot per point. */
export function linePlot(next: PlotKind, title: string, xLabel: string, yLabel: string, logY = false): void {
  newPlot(next, title, {
    height: 240,
    scales: { x: { time: false }, y: logY ? { distr: 3 } : {} },
    axes: [{ label: xLabel }, { label: yLabel, size: 70 }],
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
  container().dataset.x0 = String(columns[0]![0] ?? "");
}

setInterval(flushPlot, 100);
