// Shared pieces of the benchmarks: timing, medians, the C yardsticks, tables.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

export const REFS = new URL("../../shared/refs/", import.meta.url).pathname;

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median wall time (ms) of `repeats` awaited runs of fn, and its last result. */
export async function time(fn, repeats) {
  const times = [];
  let result;
  for (let i = 0; i < repeats; i++) {
    globalThis.gc?.();
    const t0 = performance.now();
    result = await fn(i);
    times.push(performance.now() - t0);
  }
  return { ms: median(times), result };
}

let buildDir;
/** Builds ../shared/refs/NAME.c with gcc -O3 -march=native; undefined where gcc or the file is missing. */
export function buildRef(name) {
  const source = join(REFS, `${name}.c`);
  if (!existsSync(source)) return undefined;
  try {
    execFileSync("gcc", ["--version"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  buildDir ??= mkdtempSync(join(tmpdir(), "nqueens-bench-"));
  const binary = join(buildDir, name);
  execFileSync("gcc", ["-O3", "-march=native", "-o", binary, source]);
  return binary;
}

/** Runs a binary, returning stdout, stderr and the wall time in ms. */
export function runBinary(binary, args) {
  const t0 = performance.now();
  const out = execFileSync(binary, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30 });
  return { stdout: out, ms: performance.now() - t0 };
}

/** Runs a binary and captures stderr too (spawnSync keeps both). */
export async function runBinaryBoth(binary, args) {
  const { spawnSync } = await import("node:child_process");
  const t0 = performance.now();
  const r = spawnSync(binary, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, ms: performance.now() - t0 };
}

export function printTable(title, rows) {
  console.log(`\n${title}`);
  if (rows.length === 0) return;
  const keys = Object.keys(rows[0]);
  const cells = rows.map((row) => keys.map((k) => format(row[k])));
  const widths = keys.map((k, i) => Math.max(k.length, ...cells.map((c) => c[i].length)));
  console.log(keys.map((k, i) => k.padStart(widths[i])).join("  "));
  for (const c of cells) console.log(c.map((v, i) => v.padStart(widths[i])).join("  "));
}

function format(v) {
  if (v === undefined || v === null) return "-";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3);
  return String(v);
}

export const round = (x, digits = 3) => (x === undefined ? undefined : Number(x.toFixed(digits)));
