// crossCheck(): every kernel on both engines over a sweep of sizes and seeds. Says
// whether every output field agrees bit for bit, verifies every solution with a check
// of its own (not the engines' verify kernel), times both engines, and reports the
// first divergence in full. An error on one engine only, or a timeout, is never
// counted as agreement: the verdict is 'agree' only when every case of every kernel ran
// and agreed, 'disagree' on any divergence, 'incomplete' when cases timed out or were
// skipped for the budget (and none diverged). This file is the runner and the report; the
// case table, what each kernel runs and how its outputs are checked, is ./crosscheck-kernels.ts.
import type { CountEngineName, EngineName } from "../engine/contract.js";
import { gpuInfo } from "../engine/webgpu/device.js";
import { Pacer, now } from "../core/pacer.js";
import { checkInteger, checkOptions, describe, optionalFunction, optionalSignal } from "../core/validate.js";
import { typeError, invalid } from "../core/errors.js";
import { KERNELS, KERNEL_NAMES, type CrossCheckCase, type Sweep } from "./crosscheck-kernels.js";

export { KERNELS, KERNEL_NAMES, type CrossCheckCase } from "./crosscheck-kernels.js";

/**
 * The largest board size crossCheck takes: both engines' answers are held at once (a
 * construct or min-conflicts board is 4 bytes per queen, so 40 MB each at the cap), and
 * compared element by element.
 */
export const CROSSCHECK_MAX_N = 10_000_000;

/** What is compared: the result without its timing and engine name (typed arrays stay as they are). */
function comparable(value: unknown): unknown {
  if (value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return value.map(comparable);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== "ms" && k !== "engine") out[k] = comparable(v);
  return out;
}

/** The path of the first field where a and b differ ("" when they agree). */
export function firstDifference(a: unknown, b: unknown, path = ""): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a === "bigint" || typeof b === "bigint" || typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return path || "(value)";
  }
  // Arrays and typed arrays element by element, never through a list of their keys.
  const aList = Array.isArray(a) || ArrayBuffer.isView(a), bList = Array.isArray(b) || ArrayBuffer.isView(b);
  if (aList || bList) {
    if (!aList || !bList || Array.isArray(a) !== Array.isArray(b)) return path || "(value)";
    const x = a as ArrayLike<unknown>, y = b as ArrayLike<unknown>;
    if (x.length !== y.length) return `${path || "(value)"}.length`;
    for (let i = 0; i < x.length; i++) {
      if (Object.is(x[i], y[i])) continue;
      const d = firstDifference(x[i], y[i], `${path}[${i}]`);
      if (d !== undefined) return d;
    }
    return undefined;
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const d = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], path ? `${path}.${key}` : key);
    if (d !== undefined) return d;
  }
  return undefined;
}

export type Divergence = {
  kernel: string;
  /** The engines compared: `wasm` holds the first one's output, `ts` the second's ('wasm' and 'ts' but for count:webgpu). */
  engines: [CountEngineName, CountEngineName];
  input: CrossCheckCase;
  /** The first differing field ('error' when one engine threw and the other did not). */
  field: string;
  wasm: unknown;
  ts: unknown;
  /** The `nqueens` commands that show the case, on each engine. */
  reproduce: [string, string];
};

export type KernelReport = {
  kernel: string;
  /** The engines compared (wasmMs, tsMs and tsOverWasm are the first's and the second's). */
  engines: [CountEngineName, CountEngineName];
  cases: number;
  agree: number;
  /** Cases whose outputs differ (the first is `divergence`). */
  disagree: number;
  /** Cases where an engine ran past the per-case time limit (not counted as agreement). */
  timedOut: number;
  /** Cases not run because the budget ran out. */
  skipped: number;
  /** 'agree': every case ran and agreed; 'disagree': some case diverged; 'incomplete': none diverged, some did not run to the end (timed out, skipped). */
  verdict: CrossCheckVerdict;
  wasmMs: number;
  tsMs: number;
  /** tsMs / wasmMs over the cases run (how much faster Wasm is here). */
  tsOverWasm: number;
  divergence?: Divergence;
};

/** What a cross-check showed: see CrossCheckReport.verdict. */
export type CrossCheckVerdict = "agree" | "disagree" | "incomplete";

export type CrossCheckReport = {
  /** True only when `verdict` is 'agree': every case of every kernel ran, and all agreed. */
  ok: boolean;
  /**
   * 'agree': every case of every kernel ran and agreed (and there was at least one);
   * 'disagree': some case's outputs differ, or one engine threw and the other did not;
   * 'incomplete': none diverged, but cases timed out or were skipped when the budget ran out
   * (what did not run is not agreement: raise `budgetMs`).
   */
  verdict: CrossCheckVerdict;
  /** Cases compared to the end (agreed or diverged), over every kernel. */
  casesRun: number;
  /** Cases of the sweep, over every kernel. */
  casesTotal: number;
  kernels: KernelReport[];
  ms: number;
};

/** The verdict of cases: 'disagree' if any diverged, 'incomplete' if any timed out or was skipped (or none ran), else 'agree'. */
function verdictOf(parts: { cases: number; disagree: number; timedOut: number; skipped: number }[]): CrossCheckVerdict {
  if (parts.some((p) => p.disagree > 0)) return "disagree";
  if (parts.some((p) => p.timedOut > 0 || p.skipped > 0)) return "incomplete";
  return "agree";
}

export type CrossCheckProgress = { kernel: string; casesDone: number; casesTotal: number; elapsedMs: number };

/**
 * Runs one engine of one case: its output, or the error it threw, and the time it took.
 * `signal` is crossCheck's own (absent when it was given none): a runner that honours it
 * lets an abort stop a long case at once, else the abort waits for the case to end.
 */
export type Runner = (kernel: string, input: CrossCheckCase, engine: CountEngineName, timeoutMs: number, signal?: AbortSignal) => Promise<unknown>;

// (A kernel is only ever run on its own `engines`: 'webgpu' reaches count:webgpu alone.)
export const defaultRunner: Runner = (kernel, input, engine, timeoutMs, signal) => KERNELS[kernel].run(input, engine as EngineName, timeoutMs, signal);

export type CrossCheckOptions = {
  /** Which kernels (default all: see KERNEL_NAMES). */
  kernels?: string[];
  /** Board sizes of the sweep (each kernel keeps those it can run quickly). */
  sizes?: number[];
  seeds?: number[];
  /** Stop starting new cases after this many milliseconds (default 10000). */
  budgetMs?: number;
  /** Bigger sample counts for the statistical kernels. */
  thorough?: boolean;
  onProgress?: (progress: CrossCheckProgress) => void;
  /** Runs one case on one engine (default: the public functions). For tests and custom engines. */
  runner?: Runner;
  /**
   * Stops the sweep: the promise rejects with the signal's reason (an AbortError by default),
   * checked before each case and passed to the functions each case calls, so an abort acts
   * within about 100 ms, inside a long case too. No partial report.
   */
  signal?: AbortSignal;
};

export const DEFAULT_SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 20, 24, 32, 50, 100, 200, 1000, 10_000, 100_000];
export const DEFAULT_SEEDS = [1, 2, 3, 4, 5];

async function attempt(run: () => Promise<unknown>): Promise<{ value?: unknown; error?: string; ms: number }> {
  const t0 = now();
  try {
    const value = await run();
    return { value, ms: now() - t0 };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), ms: now() - t0 };
  }
}

/**
 * Runs every kernel on the 'wasm' and 'ts' engines over a sweep and compares them; where WebGPU
 * has an adapter, also count on 'webgpu' against 'wasm' (kernel count:webgpu).
 * `signal` stops the sweep within about 100 ms (inside a long case too): the promise rejects
 * with its reason.
 * @example const report = await crossCheck({ budgetMs: 5000 }); report.ok // true when all agree
 */
export async function crossCheck(options?: CrossCheckOptions): Promise<CrossCheckReport> {
  const opts = checkOptions<CrossCheckOptions>("crossCheck", options, ["kernels", "sizes", "seeds", "budgetMs", "thorough", "onProgress", "runner", "signal"]);
  const signal = optionalSignal(opts.signal);
  signal?.throwIfAborted();
  // The GPU kernel runs by default only where WebGPU has an adapter; asked for by name, it must run.
  const kernels = opts.kernels ?? (await gpuInfo().then(() => true, () => false) ? KERNEL_NAMES : KERNEL_NAMES.filter((k) => k !== "count:webgpu"));
  if (!Array.isArray(kernels)) throw invalid("kernels", ` must be an array of names (${KERNEL_NAMES.join(", ")})`, TypeError);
  for (const k of kernels) {
    if (!KERNEL_NAMES.includes(k)) throw typeError(`kernels: unknown kernel ${JSON.stringify(k)} (known: ${KERNEL_NAMES.join(", ")})`);
  }
  if (opts.sizes !== undefined && !Array.isArray(opts.sizes)) throw invalid("sizes", ` must be an array of board sizes, got ${describe(opts.sizes)}`, TypeError);
  if (opts.seeds !== undefined && !Array.isArray(opts.seeds)) throw invalid("seeds", ` must be an array of u32 seeds, got ${describe(opts.seeds)}`, TypeError);
  const sizes = (opts.sizes ?? DEFAULT_SIZES).map((n, i) => checkInteger(`sizes[${i}]`, n, 1, CROSSCHECK_MAX_N));
  const seeds = (opts.seeds ?? DEFAULT_SEEDS).map((s, i) => checkInteger(`seeds[${i}]`, s, 0, 0xffffffff));
  const budgetMs = opts.budgetMs === undefined ? 10_000 : checkInteger("budgetMs", opts.budgetMs, 1, Number.MAX_SAFE_INTEGER);
  const onProgress = optionalFunction<(p: CrossCheckProgress) => void>("onProgress", opts.onProgress);
  const runner = optionalFunction<Runner>("runner", opts.runner) ?? defaultRunner;
  if (opts.thorough !== undefined && typeof opts.thorough !== "boolean") throw invalid("thorough", ` must be true or false, got ${describe(opts.thorough)}`, TypeError);
  signal?.throwIfAborted(); // (an abort during the look for a GPU adapter)
  const sweep: Sweep = { sizes, seeds, thorough: opts.thorough === true };
  const start = now();
  // Lets the event loop run every 25 ms or so between cases: most cases end within their
  // first chunk and never yield, and an abort from a timer or Ctrl-C must get through.
  const pacer = new Pacer<undefined>({ signal });
  const caseTimeoutMs = Math.max(1000, Math.min(budgetMs / 2, 20_000));
  const reports: KernelReport[] = [];

  // Each kernel gets an equal share of the budget, so every kernel is covered.
  const share = budgetMs / kernels.length;
  for (const [index, kernel] of kernels.entries()) {
    const cases = KERNELS[kernel].cases(sweep);
    const deadline = start + share * (index + 1);
    const [first, second] = KERNELS[kernel].engines ?? ["wasm", "ts"];
    const report: KernelReport = {
      kernel, engines: [first, second], cases: cases.length, agree: 0, disagree: 0, timedOut: 0, skipped: 0, verdict: "incomplete", wasmMs: 0, tsMs: 0, tsOverWasm: NaN,
    };
    for (const [i, input] of cases.entries()) {
      await pacer.between(() => undefined);
      signal?.throwIfAborted();
      if (now() > deadline) { report.skipped = cases.length - i; break; }
      // An error that the abort caused is no engine's answer: the sweep rejects instead.
      const wasm = await attempt(() => runner(kernel, input, first, caseTimeoutMs, signal));
      signal?.throwIfAborted();
      const ts = await attempt(() => runner(kernel, input, second, caseTimeoutMs, signal));
      signal?.throwIfAborted();
      report.wasmMs += wasm.ms;
      report.tsMs += ts.ms;
      onProgress?.({ kernel, casesDone: i + 1, casesTotal: cases.length, elapsedMs: now() - start });
      const timedOut = [wasm.error, ts.error].some((e) => e !== undefined && /TimeoutError|timed out/.test(e));
      if (timedOut) { report.timedOut++; continue; }
      let field: string | undefined;
      if (wasm.error !== undefined || ts.error !== undefined) field = wasm.error === ts.error ? undefined : "error";
      else field = firstDifference(comparable(wasm.value), comparable(ts.value));
      if (field === undefined) { report.agree++; continue; }
      report.disagree++;
      report.divergence ??= {
        kernel, engines: [first, second], input, field,
        wasm: wasm.error !== undefined ? { error: wasm.error } : wasm.value,
        ts: ts.error !== undefined ? { error: ts.error } : ts.value,
        reproduce: [`${KERNELS[kernel].command(input)} --engine ${first}`, `${KERNELS[kernel].command(input)} --engine ${second}`],
      };
    }
    report.tsOverWasm = report.wasmMs > 0 ? report.tsMs / report.wasmMs : NaN;
    report.verdict = verdictOf([report]);
    reports.push(report);
  }
  // Only what ran and agreed is agreement: a timeout or a case skipped for the budget makes the
  // sweep incomplete, a divergence makes it disagree; a sweep that compared nothing is incomplete.
  const casesRun = reports.reduce((sum, r) => sum + r.agree + r.disagree, 0);
  const casesTotal = reports.reduce((sum, r) => sum + r.cases, 0);
  const verdict = casesRun === 0 && verdictOf(reports) === "agree" ? "incomplete" : verdictOf(reports);
  return { ok: verdict === "agree", verdict, casesRun, casesTotal, kernels: reports, ms: now() - start };
}

/** Refuses anything but a report crossCheck made (the fields describeReport and verdictLine read). */
function checkReport(report: CrossCheckReport): void {
  const kernelsOk = typeof report === "object" && report !== null && Array.isArray(report.kernels)
    && report.kernels.every((k) => typeof k === "object" && k !== null);
  if (!kernelsOk || typeof report.ms !== "number" || !["agree", "disagree", "incomplete"].includes(report.verdict as string)) {
    throw invalid("report", ` must be what crossCheck returned ({ ok, verdict, kernels: [...], ms, ... }), got ${describe(report)}`, TypeError);
  }
}

/**
 * The verdict in one line, in words: "agree: all 1034 cases ran and agreed (3.2 s)",
 * "incomplete: 412 of 1034 cases ran, all agreed; 3 timed out, 619 skipped for the budget; raise
 * the budget", "DISAGREE: solve:hybrid diverges at nodes (1 of 412 cases run)". `raise` names
 * the way to give it more time (the CLI's "--budget").
 */
export function verdictLine(report: CrossCheckReport, raise = "budgetMs"): string {
  checkReport(report);
  if (typeof raise !== "string") throw invalid("raise", ` must be the name of the budget option to raise, a string, got ${describe(raise)}`, TypeError);
  const seconds = `${(report.ms / 1000).toFixed(1)} s`;
  if (report.verdict === "agree") return `agree: all ${report.casesTotal} cases ran and agreed (${seconds})`;
  if (report.verdict === "disagree") {
    const diverging = report.kernels.filter((k) => k.disagree > 0);
    const cases = diverging.reduce((sum, k) => sum + k.disagree, 0);
    const where = diverging.map((k) => `${k.kernel} diverges at ${k.divergence?.field ?? "?"}`).join(", ");
    return `DISAGREE: ${where} (${cases} of ${report.casesRun} cases run differ; ${seconds})`;
  }
  const timedOut = report.kernels.reduce((sum, k) => sum + k.timedOut, 0);
  const skipped = report.kernels.reduce((sum, k) => sum + k.skipped, 0);
  const why = [timedOut > 0 ? `${timedOut} timed out` : "", skipped > 0 ? `${skipped} skipped for the budget` : ""].filter(Boolean).join(", ");
  const ran = report.casesRun === 0 ? "no case ran" : `${report.casesRun} of ${report.casesTotal} cases ran, all agreed`;
  return `incomplete: ${ran}${why ? `; ${why}` : ""}; raise ${raise}${timedOut > 0 ? " (a case that timed out is not agreement)" : ""} (${seconds})`;
}

/**
 * The report as the CLI prints it: a table (kernel, cases, agree, timeouts, skipped,
 * ts/wasm, result), its last line the verdict in words (verdictLine), and the lines for stderr
 * (each divergence with its reproducer, each timeout). Whether the engines agree is `report.ok`
 * (`report.verdict` says why not).
 */
export function describeReport(report: CrossCheckReport, raise = "budgetMs"): { table: string; problems: string[] } {
  checkReport(report);
  const head = ["kernel", "cases", "agree", "timeouts", "skipped", "ts/wasm", "result"];
  const rows = report.kernels.map((k) => [
    k.kernel, String(k.cases), String(k.agree), String(k.timedOut), String(k.skipped),
    Number.isFinite(k.tsOverWasm) ? k.tsOverWasm.toFixed(2) : "-",
    k.divergence ? `DIVERGES at ${k.divergence.field}` : k.verdict === "incomplete" ? `incomplete: ${k.agree} of ${k.cases} ran${k.timedOut ? `, ${k.timedOut} timed out` : ""}` : "ok",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 || i === 6 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  const summary = verdictLine(report, raise);
  const problems: string[] = [];
  for (const k of report.kernels) {
    if (k.timedOut) problems.push(`${k.kernel}: ${k.timedOut} case(s) timed out (not counted as agreement)`);
    if (!k.divergence) continue;
    problems.push(`${k.kernel} diverges at field ${k.divergence.field} for n = ${k.divergence.input.n} ${JSON.stringify(k.divergence.input.options)}`);
    problems.push(`reproduce: ${k.divergence.reproduce[0]}`);
    problems.push(`      and: ${k.divergence.reproduce[1]}`);
  }
  return { table: [line(head), ...rows.map(line), summary].join("\n"), problems };
}
