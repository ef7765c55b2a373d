// nqueens tree N: the exact size of the backtracking tree.
import type { Command } from "commander";
import { treeSize } from "../../analysis/estimate.js";
import { engineOption, interruptSignal, number } from "../options.js";
import { out, toJson } from "../output.js";
import { etaText, progressBar } from "../progress.js";

export function treeCommand(program: Command): void {
  program
    .command("tree")
    .description("the exact size of the backtracking tree, depth by depth (1 <= N <= 17)")
    .argument("<N>", "board size", number("n"))
    .addOption(engineOption())
    .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
    .option("--json", "print one JSON object")
    .action(async (n: number, opts: { engine: "wasm" | "ts"; timeout?: number; json?: boolean }) => {
      const bar = await progressBar("tree");
      let started = false;
      const result = await treeSize(n, {
        engine: opts.engine,
        timeoutMs: opts.timeout,
        signal: interruptSignal(),
        onProgress: (p) => {
          if (!bar || p.elapsedMs < 500) return;
          const eta = etaText(p.tasksDone, p.tasksTotal, p.elapsedMs);
          if (!started) { bar.start(p.tasksTotal, 0, { n, etaText: eta }); started = true; }
          bar.update(p.tasksDone, { etaText: eta });
        },
      }).finally(() => bar?.stop());
      if (opts.json) return out(toJson(result));
      out(`n = ${n}: ${result.total} nodes in the backtracking tree (the empty board and every consistent partial placement)`);
      out("depth   nodes");
      result.perLevel.forEach((value, k) => out(`${String(k).padStart(5)}   ${value}`));
      out(`${result.ms.toFixed(1)} ms, engine ${result.engine}`);
    });
}
