// nqueens all N: every solution in lexicographic order.
import type { Command } from "commander";
import { render } from "../../board/render.js";
import { solutionsPaced } from "../../count/solutions.js";
import { UsageError, shownNumber } from "../errors.js";
import { engineOption, interruptSignal, number } from "../options.js";
import { out, stdout } from "../output.js";
import { givensOptions, hasGivens, readGivens, type GivensCliOptions } from "../givens.js";
import { drawBoard } from "../../board/formats.js";
import { CONSTRAINED_MAX_N } from "../../count/constrained.js";

export function allCommand(program: Command): void {
  const command = program
    .command("all")
    .description(`list every solution in lexicographic order (1 <= N <= 32; with given queens or blocked squares N <= ${CONSTRAINED_MAX_N}, in the complete search's order)`)
    .argument("[N]", "board size (or from --board FILE)", number("n"))
    .option("--limit <L>", "stop after L solutions", number("--limit"))
    .option("--draw", "draw each solution as a board")
    .addOption(engineOption())
    .option("--json", "print one JSON object")
    .option("--jsonl", "print each solution as a JSON array of columns on a line of its own, as it is found");
  givensOptions(command)
    .action(async (nArgument: number | undefined, opts: { limit?: number; engine: "wasm" | "ts"; json?: boolean; jsonl?: boolean; draw?: boolean } & GivensCliOptions) => {
      const givens = await readGivens(nArgument, opts);
      const n = givens.n;
      const constrained = hasGivens(givens);
      if (opts.limit !== undefined && !(Number.isInteger(opts.limit) && opts.limit >= 1)) {
        throw new UsageError(`--limit must be an integer >= 1 (leave it out to list every solution), got ${shownNumber("--limit", opts.limit)}`);
      }
      if (opts.json && opts.jsonl) throw new UsageError("--json and --jsonl are two forms of the same list: give one");
      const signal = interruptSignal();
      const { n: _, ...lists } = givens;
      // Paced: a board with givens may be hours of search from its next solution, and Ctrl-C must get through.
      const iterable = solutionsPaced(n, { limit: opts.limit, engine: opts.engine, ...lists }, signal);
      let listed = 0;
      if (opts.json) stdout().write(`{"n":${n},"solutions":[`);
      let full = false; // stdout's buffer is full: wait for it to drain rather than hold the list in memory
      for await (const columns of iterable) {
        if (opts.jsonl) full = !stdout().write(`[${columns.join(",")}]\n`);
        else if (opts.json) full = !stdout().write((listed ? "," : "") + `[${columns.join(",")}]`);
        else if (opts.draw) out((listed ? "\n" : "") + (constrained ? drawBoard(n, givens, columns) : render(columns)));
        else out(columns.join(" "));
        listed++;
        if (full) {
          await new Promise((resolve) => stdout().once("drain", resolve));
          full = false;
          signal.throwIfAborted();
        }
        if (listed % 1024 === 0) {
          await new Promise((resolve) => setImmediate(resolve)); // let Ctrl-C through
          signal.throwIfAborted();
        }
      }
      if (opts.json) out(`],"total":${listed}}`); // "total" as in count --json: the solutions listed (all of them unless --limit)
      else if (listed === 0 && !opts.jsonl) out(`n = ${n}: no solution`);
    });
}
