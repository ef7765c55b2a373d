// nqueens estimate N: Knuth's estimate of the backtracking tree.
import type { Command } from "commander";
import { estimate } from "../../analysis/estimate.js";
import { engineOption, interruptSignal, number, seedOption } from "../options.js";
import { cell, out, toJson } from "../output.js";
import { etaText, progressBar } from "../progress.js";

export function estimateCommand(program: Command): void {
  program
    .command("estimate")
    .description("Knuth's random-probe estimate of the backtracking tree's size (1 <= N <= 32)")
    .argument("<N>", "board size", number("n"))
    .option("--samples <K>", "random probes (default 10000)", number("--samples"))
    .option("--seed <S>", "u32 seed (default 1; 'random' for a fresh one)")
    .addOption(engineOption())
    .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
    .option("--json", "print one JSON object")
    .action(async (n: number, opts: { samples?: number; seed?: string; engine: "wasm" | "ts"; timeout?: number; json?: boolean }) => {
      const bar = await progressBar("estimate");
      let started = false;
      const result = await estimate(n, {
        samples: opts.samples,
        seed: seedOption(opts.seed),
        engine: opts.engine,
        timeoutMs: opts.timeout,
        signal: interruptSignal(),
        onProgress: (p) => {
          if (!bar || p.elapsedMs < 500) return;
          const eta = etaText(p.samplesDone, p.samples, p.elapsedMs);
          if (!started) { bar.start(p.samples, 0, { n, etaText: eta }); started = true; }
          bar.update(p.samplesDone, { etaText: eta });
        },
      }).finally(() => bar?.stop());
      if (opts.json) return out(toJson(result));
      const [lo, hi] = result.ci95;
      out(`n = ${n}: about ${cell(result.mean, 1)} nodes in the backtracking tree, +- ${cell(result.stderr, 1)} ` +
        `(95% interval ${cell(lo, 1)} .. ${cell(hi, 1)}); Knuth's estimate, ${result.samples} probes, seed ${result.seed}`);
      out("depth   estimated nodes        stderr");
      result.perLevel.forEach((value, k) => {
        out(`${String(k).padStart(5)}   ${cell(value, 1).padStart(15)}   ${cell(result.perLevelStderr[k], 1).padStart(11)}`);
      });
      out(`${result.ms.toFixed(1)} ms, engine ${result.engine}`);
    });
}
