// nqueens solve N: one solution by any method.
import { Option, type Command } from "commander";
import { closeSync, openSync, writeSync } from "node:fs";
import { render, solve, METHOD_NAMES, type SolveResult } from "../../index.js";
import { DEFAULT_METHOD } from "../../search/solve.js";
import { engineOption, interruptSignal, number } from "../options.js";
import { out, toJson } from "../output.js";
import { progressBar } from "../progress.js";

/** Writes columns (0-based, one per line) to a file, a million rows at a time. */
function writeColumns(path: string, columns: Int32Array): void {
  const fd = openSync(path, "w");
  try {
    const rows = 1 << 20;
    for (let start = 0; start < columns.length; start += rows) {
      writeSync(fd, columns.subarray(start, start + rows).join("\n") + "\n");
    }
  } finally {
    closeSync(fd);
  }
}

type SolveCliOptions = {
  method: (typeof METHOD_NAMES)[number];
  seed?: string;
  stopVegas?: number;
  engine: "wasm" | "ts";
  maxNodes?: number;
  maxSteps?: number;
  maxTries?: number;
  timeout?: number;
  out?: string;
  json?: boolean;
};

export function solveCommand(program: Command): void {
  program
    .command("solve")
    .description("find one solution")
    .argument("<N>", "board size", number("N"))
    .addOption(new Option("--method <M>", "algorithm").choices(METHOD_NAMES).default(DEFAULT_METHOD))
    .option("--seed <S>", "u32 seed for randomized methods (default 1; 'random' for a fresh one)")
    .option("--stop-vegas <K>", "hybrid: rows placed at random before backtracking (default 8, or N - 15 when N > 15)", number("--stop-vegas"))
    .addOption(engineOption())
    .option("--max-nodes <X>", "stop after X nodes (tree searches)", number("--max-nodes"))
    .option("--max-steps <X>", "stop after X moves (local search)", number("--max-steps"))
    .option("--max-tries <X>", "stop after X tries or restarts (randomized methods)", number("--max-tries"))
    .option("--timeout <ms>", "stop after this many milliseconds", number("--timeout"))
    .option("--out <FILE>", "write the columns (0-based, one per line) to FILE instead of drawing the board")
    .option("--json", "print one JSON object")
    .action(async (n: number, opts: SolveCliOptions) => {
      const seed = opts.seed === undefined || opts.seed === "random" ? opts.seed : number("--seed")(opts.seed);
      const bar = progressBar("solve {n} | {phase} | {nodes} nodes | {tries} tries | {steps} steps | {conflicts} conflicts | {duration_formatted}");
      let started = false;
      const result: SolveResult = await solve(n, {
        method: opts.method,
        engine: opts.engine,
        seed,
        stopVegas: opts.stopVegas,
        maxNodes: opts.maxNodes,
        maxSteps: opts.maxSteps,
        maxTries: opts.maxTries,
        timeoutMs: opts.timeout,
        signal: interruptSignal(),
        onProgress: (p) => {
          if (!bar || p.elapsedMs < 500) return;
          if (!started) { bar.start(1, 0); started = true; }
          const conflicts = p.conflicts < 0 ? "-" : p.conflicts;
          bar.update(0, { n, phase: p.phase, nodes: p.nodes, tries: p.tries, steps: p.steps, conflicts });
        },
      }).finally(() => bar?.stop());
      if (opts.out && result.columns) writeColumns(opts.out, result.columns);
      if (opts.json) {
        return out(toJson(opts.out ? { ...result, columns: undefined, out: opts.out } : result));
      }
      if (!result.found || !result.columns) {
        out(`n = ${n}: no solution found (${result.reason}); ${result.nodes} nodes, ${result.tries} tries, ${result.steps} steps, ${result.ms.toFixed(1)} ms`);
        return;
      }
      out(opts.out ? `${n} columns written to ${opts.out}` : render(result.columns));
      out(`method ${result.method}, engine ${result.engine}${result.seed === null ? "" : `, seed ${result.seed}`}: ` +
        `${result.nodes} nodes, ${result.tries} tries, ${result.steps} steps, ${result.ms.toFixed(1)} ms`);
    });
}
