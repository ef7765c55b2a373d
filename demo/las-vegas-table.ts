// The demo's t vs stopVegas view (Brassard & Bratley's table): the plot of t and p against
// stopVegas and the table under it, row by row as the worker reports them, then the best
// marked. main.ts runs the job and shows its figures.
import { $ } from "./dom";
import { INTEGER_INCRS, newPlot, setColumns } from "./plot";
import type { LasVegasRow } from "./protocol";

let lvRows: LasVegasRow[] = [];
const finite = (x: number) => (Number.isFinite(x) ? x : null);

/** A new plot and an empty table for n. */
export function newLasVegasPlot(n: number): void {
  lvRows = [];
  newPlot("lv", `Expected nodes t until a success vs stopVegas, n = ${n}`, {
    height: 260,
    scales: { x: { time: false }, t: { distr: 3 }, p: { range: [0, 1] } },
    axes: [
      { label: "stopVegas (rows placed at random)", incrs: INTEGER_INCRS },
      { scale: "t", label: "t (nodes, log scale)", size: 70 },
      { scale: "p", side: 1, label: "p (one try succeeds)", size: 60, grid: { show: false } },
    ],
    series: [
      { label: "stopVegas" },
      { label: "t", scale: "t", stroke: "#1f5fbf", width: 2, points: { show: true, size: 5 } },
      { label: "p", scale: "p", stroke: "#b07b00", width: 1.5, dash: [5, 4] },
      { label: "best", scale: "t", paths: () => null, points: { show: true, size: 14, width: 2, stroke: "#c5221f", fill: "rgba(197,34,31,0.25)" } },
    ],
  });
  const table = $("lv-table");
  table.hidden = false;
  delete table.dataset.best;
  table.querySelector("tbody")!.replaceChildren();
}

function drawLasVegas(best: number | null): void {
  setColumns([
    lvRows.map((r) => r.stopVegas), lvRows.map((r) => finite(r.t)), lvRows.map((r) => r.p),
    lvRows.map((r) => (r.stopVegas === best ? finite(r.t) : null)),
  ]);
}

/** One stopVegas more: a point of the plot and a row of the table. */
export function addLasVegasRow(row: LasVegasRow): void {
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

/** The best stopVegas marked, in the plot and in the table. */
export function markBest(best: number): void {
  drawLasVegas(best);
  $("lv-table").dataset.best = String(best);
  $("lv-table").querySelector(`tr[data-stop-vegas="${best}"]`)?.classList.add("best");
}
