// The forecast of a constrained count (given queens, blocked squares), said before it has run
// long: Knuth's estimate of the complete search's tree (src/count/constrained-estimate.ts),
// divided by the rate the count runs at, gives an ETA from the first progress report on; a
// count forecast to take more than a minute says so at once, in one line on stderr.
import { checkConstraints, type Square } from "../board/constraints.js";
import { estimateConstrainedNodes } from "../count/constrained-estimate.js";
import { duration } from "./progress.js";

/** Past this forecast, the count says its estimate at once. */
export const LONG_COUNT_MS = 60_000;

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
    nodes = estimateConstrainedNodes(checkConstraints(n, givens, "count"), 300);
  } catch {
    return undefined;
  }
  const etaMs = (done: bigint, elapsedMs: number): number | undefined => {
    const rate = Number(done) / elapsedMs;
    return rate > 0 && elapsedMs > 0 && nodes > Number(done) ? (nodes - Number(done)) / rate : undefined;
  };
  return {
    nodes,
    etaMs,
    notice(done, elapsedMs) {
      const left = etaMs(done, elapsedMs);
      if (left === undefined || left < LONG_COUNT_MS) return undefined;
      const rate = (Number(done) / elapsedMs) * 1000;
      return `this count is estimated at about ${nodes.toPrecision(2)} queens placed (Knuth's estimate of its search tree); ` +
        `at ${rate.toPrecision(2)} a second here, about ${longDuration(left)}. Ctrl-C stops it`;
    },
  };
}
