// nqueens all N: every solution in lexicographic order.
import type { Command } from "commander";
import { render, solutions } from "../../index.js";
import { UsageError } from "../errors.js";
import { engineOption, interruptSignal, number } from "../options.js";
import { out } from "../output.js";

export function allCommand(program: Command): void {
  program
    .command("all")
    .description("list every solution in lexicographic order (1 <= N <= 32)")
    .argument("<N>", "board size", number("N"))
    .option("--limit <L>", "stop after L solutions", number("--limit"))
    .option("--board", "draw each solution as a board")
    .addOption(engineOption())
    .option("--json", "print one JSON object")
    .action(async (n: number, opts: { limit?: number; board?: boolean; engine: "wasm" | "ts"; json?: boolean }) => {
      if (opts.limit === 0) throw new UsageError("--limit must be an integer >= 1 (leave it out to list every solution), got 0");
      const signal = interruptSignal();
      const iterable = solutions(n, { limit: opts.limit, engine: opts.engine });
      let listed = 0;
      if (opts.json) process.stdout.write(`{"n":${n},"solutions":[`);
      for (const columns of iterable) {
        if (opts.json) process.stdout.write((listed ? "," : "") + `[${columns.join(",")}]`);
        else if (opts.board) out((listed ? "\n" : "") + render(columns));
        else out(columns.join(" "));
        listed++;
        if (listed % 1024 === 0) {
          await new Promise((resolve) => setImmediate(resolve)); // let Ctrl-C through
          signal.throwIfAborted();
        }
      }
      if (opts.json) out(`],"count":${listed}}`);
      else if (listed === 0) out(`n = ${n}: no solution`);
    });
}
