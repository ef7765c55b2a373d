// The forecasts of long work. A count's, said before it has run long, in one line on stderr when it is
// over a minute. A constrained count (given queens, blocked squares): Knuth's estimate of the
// complete search's tree (src/count/constrained-estimate.ts), divided by the rate the count
// runs at, gives an ETA from the first progress report on. A plain count: the time model of
// one Wasm thread (threadSeconds, measured at n = 17 and scaled by the solutions), until its
// own first parts finish and their rate takes over. A constrained solve's (proofForecast):
// Knuth's estimate of a proof that the board has no solution (src/search/proof-estimate.ts),
// made on a thread of its own once the solve has run a second, and said when the proof would
// take over a minute at the solve's rate.
import { checkConstraints, type Square } from "../board/constraints.js";
import { estimateConstrainedNodes } from "../count/constrained-estimate.js";
import { NARROW_MAX_N } from "../engine/ts/complete.js";
import { builtinModule } from "../core/platform.js";
import { threadSeconds } from "../distributed/plan.js";
import { duration, plural } from "./progress.js";

/** Past this forecast, the count says its estimate at once. */
export const LONG_COUNT_MS = 60_000;
/** The most a constrained count's forecast probes for (it is made between two of the count's slices, so abort waits for it). */
const FORECAST_BUDGET_MS = 100;

/** A duration for a forecast: the bar's form up to a day, then days, then years (two figures). */
export function longDuration(ms: number): string {
  const days = ms / 86_400_000;
  if (days < 1) return duration(ms);
  if (days < 365) return `${Math.round(days)} days`;
  const years = days / 365.25;
  return years < 1e6 ? `${Number(years.toPrecision(2)).toLocaleString("en-US")} years` : `${years.toPrecision(2)} years`;
}

export type Forecast = {
  /** The estimated nodes (queens placed) of the whole count. */
  nodes: number;
  /** Milliseconds left at the rate so far, or undefined before any rate (or once the count passed the estimate). */
  etaMs(nodesDone: bigint, elapsedMs: number): number | undefined;
  /** The one line to say at once, or undefined when the forecast is under LONG_COUNT_MS. */
  notice(nodesDone: bigint, elapsedMs: number): string | undefined;
};

/** The forecast of count(n, givens), or undefined for a board the count will refuse (it names why). */
export function constrainedForecast(n: number, givens: { fixed?: readonly Square[]; blocked?: readonly Square[] }): Forecast | undefined {
  let nodes: number;
  try {
    nodes = estimateConstrainedNodes(checkConstraints(n, givens, "count"), 300, 1, FORECAST_BUDGET_MS);
  } catch {
    return undefined;
  }
  const etaMs = (done: bigint, elapsedMs: number): number | undefined => {
    const rate = Number(done) / elapsedMs;
    return Number.isFinite(nodes) && rate > 0 && elapsedMs > 0 && nodes > Number(done) ? (nodes - Number(done)) / rate : undefined;
  };
  return {
    nodes,
    etaMs,
    notice(done, elapsedMs) {
      if (!Number.isFinite(nodes)) return "this count is estimated at more than 1e+308 queens placed (Knuth's estimate of its search tree): it will not finish. Ctrl-C stops it";
      const left = etaMs(done, elapsedMs);
      if (left === undefined || left < LONG_COUNT_MS) return undefined;
      const rate = (Number(done) / elapsedMs) * 1000;
      return `this count is estimated at about ${nodes.toPrecision(2)} queens placed (Knuth's estimate of its search tree); ` +
        `at ${rate.toPrecision(2)} a second here, about ${longDuration(left)}. Ctrl-C stops it`;
    },
  };
}

export type PlainForecast = {
  /** The whole count's forecast length, in ms, on the threads it runs on. */
  ms: number;
  /** Milliseconds left by the model, for a count with `done` of `total` tasks done before this run and `elapsedMs` into it. */
  etaMs(doneBefore: number, total: number, elapsedMs: number): number;
  /** The one line to say at once, or undefined when the forecast is under LONG_COUNT_MS. */
  notice: string | undefined;
};

/** The forecast of a plain count(n) on the Wasm engine, on `threads` threads. */
export function plainForecast(n: number, threads = 1): PlainForecast {
  const ms = (threadSeconds(n) * 1000) / Math.max(1, threads);
  const on = threads > 1 ? `on ${plural(threads, "thread")}` : "on one thread";
  return {
    ms,
    etaMs: (doneBefore, total, elapsedMs) => Math.max(0, ms * (total > 0 ? 1 - doneBefore / total : 1) - elapsedMs),
    notice: ms < LONG_COUNT_MS ? undefined
      : `count ${n} is estimated at about ${longDuration(ms)} ${on} (a model: n = 17 takes about 15 s on one Wasm thread, ` +
        `and the time grows with the solutions); the ETA follows this count's own rate once its first tasks finish. Ctrl-C stops it`,
  };
}

/** From this many ms into a constrained solve, the forecast of a proof starts (a solve decided sooner never makes it). */
export const PROOF_FORECAST_FROM_MS = 1000;

/** What the forecast's thread (src/cli/forecast-thread.ts) is given, and what it answers. */
export type ProofThreadInput = { n: number; fixed?: readonly Square[]; blocked?: readonly Square[]; threads: number };
export type ProofThreadAnswer = { nodes: number; probes: number };

export type ProofForecast = {
  /** The estimated nodes of a proof (undefined until the thread has made it). */
  readonly nodes: number | undefined;
  /** Milliseconds to that many nodes at the solve's rate so far, or undefined (not made, no rate, or already past it). */
  etaMs(nodesDone: number, elapsedMs: number): number | undefined;
  /** The one line to say once it is made, or undefined when the proof would take under LONG_COUNT_MS. */
  notice(nodesDone: number, elapsedMs: number): string | undefined;
  /** Stops the thread (the solve is over). */
  close(): void;
};

/** The forecast's figures once its estimate is in (`made` undefined before): the ETA and the notice. */
export function proofFigures(made: () => ProofThreadAnswer | undefined): Omit<ProofForecast, "close"> {
  const etaMs = (done: number, elapsedMs: number): number | undefined => {
    const total = made()?.nodes, perMs = done / elapsedMs;
    return total !== undefined && perMs > 0 && elapsedMs > 0 && total > done ? (total - done) / perMs : undefined;
  };
  return {
    get nodes() { return made()?.nodes; },
    etaMs,
    notice(done, elapsedMs) {
      const left = etaMs(done, elapsedMs), answer = made();
      if (left === undefined || answer === undefined || left < LONG_COUNT_MS) return undefined;
      const perSecond = (done / elapsedMs) * 1000;
      return `a proof that this board has no solution is estimated at about ${answer.nodes.toPrecision(2)} nodes (Knuth's estimate of the complete ` +
        `search's tree, ${answer.probes} probes: a guide, often several times under); at ${perSecond.toPrecision(2)} a second here, about ` +
        `${longDuration(left)}. A solution, where the board has one, can come sooner. Ctrl-C stops it`;
    },
  };
}

/**
 * The forecast of a proof that a constrained board has no solution (Knuth's estimate of solve's
 * complete search, src/search/proof-estimate.ts), made on a thread of its own (`threadFile`, the
 * build of src/cli/forecast-thread.ts), so its probes never hold the solve's thread (nor its
 * abort). Undefined past n = 64 (the restarting wide
 * path), for a board solve refuses at once, and where no thread can be started.
 */
export function proofForecast(input: ProofThreadInput, threadFile: string): ProofForecast | undefined {
  try {
    const constraints = checkConstraints(input.n, { fixed: input.fixed, blocked: input.blocked }, "solve");
    if (constraints.conflict !== null || input.n > NARROW_MAX_N) return undefined;
  } catch {
    return undefined;
  }
  const threads = builtinModule<typeof import("node:worker_threads")>("node:worker_threads");
  if (threads === undefined) return undefined;
  let answer: ProofThreadAnswer | undefined;
  let thread: import("node:worker_threads").Worker;
  try {
    thread = new threads.Worker(threadFile, { workerData: input });
  } catch {
    return undefined;
  }
  thread.unref(); // never keeps the process alive
  thread.once("message", (m: ProofThreadAnswer) => {
    answer = m;
  });
  thread.once("error", () => {}); // no forecast, nothing else lost
  const figures = proofFigures(() => answer);
  // (not spread: a spread would copy the getter's value, undefined, once)
  return { get nodes() { return figures.nodes; }, etaMs: figures.etaMs, notice: figures.notice, close: () => void thread.terminate() };
}
