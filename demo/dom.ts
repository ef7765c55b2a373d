// Small helpers the demo's modules share: element lookup and number formatting.
export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
export const input = (id: string) => $<HTMLInputElement>(id);
export const select = (id: string) => $<HTMLSelectElement>(id);

export const fmt = (x: number | bigint) =>
  typeof x === "bigint" ? x.toLocaleString("en-US") : Number.isInteger(x) ? x.toLocaleString("en-US") : x.toFixed(1);
export const fmtMs = (ms: number) => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);
/** Time left as people say it: "under a second", "32 s", "3 min 5 s", "2 h 7 min" (an estimate has no hundredths). */
export function fmtLeft(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 1) return "under a second";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  return `${Math.floor(s / 3600)} h${Math.floor(s / 60) % 60 ? ` ${Math.floor(s / 60) % 60} min` : ""}`;
}
