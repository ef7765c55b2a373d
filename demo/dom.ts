// Small helpers the demo's modules share: element lookup and number formatting.
export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
export const input = (id: string) => $<HTMLInputElement>(id);
export const select = (id: string) => $<HTMLSelectElement>(id);

export const fmt = (x: number | bigint) =>
  typeof x === "bigint" ? x.toLocaleString("en-US") : Number.isInteger(x) ? x.toLocaleString("en-US") : x.toFixed(1);
export const fmtMs = (ms: number) => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);
