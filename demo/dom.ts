// Small helpers the demo's modules share: element lookup and number formatting.
export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
export const input = (id: string) => $<HTMLInputElement>(id);
export const select = (id: string) => $<HTMLSelectElement>(id);

/** A figure as people read it: thousands separators, and one decimal where it is not whole. */
export const fmt = (x: number | bigint) =>
  typeof x === "bigint" || Number.isInteger(x) ? x.toLocaleString("en-US")
    : x.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** An estimated count of nodes, in whole nodes: written as the exact count beside it is. */
export const fmtNodes = (x: number) => fmt(Math.round(x));
/** Times in the JSON shown to users: to 0.1 ms (performance.now() differences carry float noise, 104.80000000000004). */
export const roundMs = (ms: number) => Math.round(ms * 10) / 10;
export const fmtMs = (ms: number) => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);
/** Time left as people say it: "under a second", "32 s", "3 min 5 s", "2 h 7 min" (an estimate has no hundredths). */
export function fmtLeft(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 1) return "under a second";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  return `${Math.floor(s / 3600)} h${Math.floor(s / 60) % 60 ? ` ${Math.floor(s / 60) % 60} min` : ""}`;
}
