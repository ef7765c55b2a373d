// nqueens trace N: one search told step by step.
import type { Command } from "commander";
import { trace, TRACE_METHODS, type TraceEvent, type TraceMethod } from "../../search/trace.js";
import { choiceOption, number, seedOption } from "../options.js";
import { out, toJson } from "../output.js";

/** One trace event as a line of English, the way a teacher would say it. */
function describeEvent(e: TraceEvent): string {
  const figures = e.conflicts >= 0 ? `tries ${e.tries}, steps ${e.steps}, h ${e.conflicts}` : `nodes ${e.nodes}, tries ${e.tries}`;
  let text: string;
  switch (e.kind) {
    case "start":
      text = `${e.method}, n = ${e.n}${e.seed === null ? "" : `, seed ${e.seed}`}${e.stopVegas === null ? "" : `, stopVegas ${e.stopVegas}`}: ` +
        (e.method === "hill-climb" ? `a random permutation, h = ${e.conflicts}` : "an empty board");
      break;
    case "place":
      text = `row ${e.row}: queen at column ${e.column}` +
        (e.random ? `, drawn at random from the safe columns ${e.safe.join(" ")}`
          : e.previous === null ? `, the first safe column (safe: ${e.safe.join(" ") || "none"})`
            : `, the next safe column after ${e.previous} (safe: ${e.safe.join(" ")})`);
      break;
    case "backtrack":
      text = `row ${e.row}: no safe column left; back to row ${e.to}`;
      break;
    case "fail":
      text = e.cause === "exhausted"
        ? `row ${e.row}: no safe column, and backtracking found no other way below the random rows: the try fails`
        : `row ${e.row}: no safe column: the try fails`;
      break;
    case "restart":
      text = e.conflicts >= 0 ? `try ${e.tries}: a new random permutation, h = ${e.conflicts}` : `try ${e.tries}: an empty board`;
      break;
    case "stuck":
      text = `no swap lowers h = ${e.conflicts}: a local minimum, the try ends`;
      break;
    case "evaluate":
      text = `swap rows ${e.i} and ${e.j}: h would change by ${e.delta > 0 ? "+" : ""}${e.delta}${e.taken ? ": taken" : ""}`;
      break;
    case "solution":
      text = `solution: ${Array.from(e.columns).join(" ")}`;
      break;
    case "end":
      text = e.reason === "no-solution" ? "no solution exists" : "stopped: --max-events reached";
      break;
  }
  return `${text} (${figures})`;
}

/** A partial board: Q for a queen, . for an empty square, rows without a queen left empty. */
function partialBoard(columns: Int32Array): string {
  const n = columns.length;
  return Array.from(columns, (c) => Array.from({ length: n }, (_, j) => (j === c ? "Q" : ".")).join(" ")).join("\n");
}

export function traceCommand(program: Command): void {
  program
    .command("trace")
    .description("follow one search step by step (backtrack, las-vegas, hybrid, hill-climb): every queen placed, backtrack, failed try and swap")
    .argument("<N>", "board size (1 to 32)", number("n"))
    .addOption(choiceOption("--method <M>", "the search to follow", TRACE_METHODS).default("backtrack"))
    .option("--seed <S>", "u32 seed for randomized methods (default 1; 'random' for a fresh one)")
    .option("--stop-vegas <K>", "hybrid: rows placed at random before backtracking", number("--stop-vegas"))
    .option("--max-events <E>", "stop after E events", number("--max-events"))
    .option("--moves", "hill climbing: leave out the swaps evaluated but not taken")
    .option("--draw", "draw the board after each event")
    .option("--json", "print one JSON object per event (JSON Lines)")
    .action((n: number, opts: { method: TraceMethod; seed?: string; stopVegas?: number; maxEvents?: number; moves?: boolean; draw?: boolean; json?: boolean }) => {
      const events = trace(n, {
        method: opts.method, seed: seedOption(opts.seed), stopVegas: opts.stopVegas, maxEvents: opts.maxEvents,
      });
      for (const e of events) {
        if (opts.moves && e.kind === "evaluate" && !e.taken) continue;
        if (opts.json) { out(toJson(e)); continue; }
        out(describeEvent(e));
        if (opts.draw) out(partialBoard(e.columns) + "\n");
      }
    });
}
