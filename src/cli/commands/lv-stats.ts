// nqueens lv-stats N: what one try of the hybrid method costs.
import { Option, type Command } from "commander";
import { lasVegasStats, lasVegasTable, type LasVegasProgress, type LasVegasStats } from "../../analysis/las-vegas-stats.js";
import { engineOption, interruptSignal, number, seedOption } from "../options.js";
import { cell, out, toJson } from "../output.js";
import { etaText, progressBar } from "../progress.js";

type LvStatsCliOptions = {
  stopVegas?: number;
  table?: boolean;
  trials?: number;
  exact?: boolean;
  seed?: string;
  engine: "wasm" | "ts";
  timeout?: number;
  json?: boolean;
};

/** One row of the lv-stats table; Monte Carlo rows carry their standard errors. */
function lvRow(r: LasVegasStats, best: boolean): string {
  const pm = (value: number, se: number, digits: number) =>
    r.exact || Number.isNaN(value) ? cell(value, digits) : `${cell(value, digits)} +- ${cell(se, digits)}`;
  return [
    `${String(r.stopVegas).padStart(9)}${best ? "*" : " "}`,
    pm(r.p, r.stderr.p, 4).padStart(r.exact ? 8 : 18),
    pm(r.s, r.stderr.s, 2).padStart(r.exact ? 10 : 20),
    pm(r.e, r.stderr.e, 2).padStart(r.exact ? 10 : 20),
    pm(r.t, r.stderr.t, 2).padStart(r.exact ? 10 : 20),
  ].join(" ");
}

function lvHeader(exact: boolean): string {
  const w = exact ? [8, 10, 10, 10] : [18, 20, 20, 20];
  return ["stopVegas ", "p".padStart(w[0]), "s".padStart(w[1]), "e".padStart(w[2]), "t".padStart(w[3])].join(" ");
}

export function lvStatsCommand(program: Command): void {
  program
    .command("lv-stats")
    .description("what one try of the hybrid (Las Vegas + backtracking) method costs: p, s, e, t")
    .argument("<N>", "board size", number("n"))
    .addOption(new Option("--stop-vegas <K>", "rows placed at random (default 8, or N - 15 when N > 15)").argParser(number("--stop-vegas")))
    .addOption(new Option("--table", "every stopVegas from 0 to N").conflicts("stopVegas"))
    .option("--trials <T>", "Monte Carlo tries (default 10000)", number("--trials"))
    .addOption(new Option("--exact", "exact numbers by walking every random choice (N <= 14)").conflicts(["trials", "seed"]))
    .option("--seed <S>", "u32 seed of the Monte Carlo tries (default 1; 'random' for a fresh one)")
    .addOption(engineOption())
    .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
    .option("--json", "print one JSON object")
    .action(async (n: number, opts: LvStatsCliOptions) => {
      const bar = await progressBar("lvStats");
      let started = false;
      const common = {
        ...(opts.exact ? { exact: true } : { trials: opts.trials, seed: seedOption(opts.seed) }),
        engine: opts.engine,
        timeoutMs: opts.timeout,
        signal: interruptSignal(),
        onProgress: (p: LasVegasProgress) => {
          if (!bar || p.elapsedMs < 500) return;
          const fraction = (p.rowsDone + (p.total > 0 ? p.done / p.total : 1)) / p.rowsTotal;
          const eta = etaText(Math.round(1000 * fraction), 1000, p.elapsedMs);
          if (!started) { bar.start(1000, 0, { n, stopVegas: p.stopVegas, etaText: eta }); started = true; }
          bar.update(Math.min(1000, Math.round(1000 * fraction)), { stopVegas: p.stopVegas, etaText: eta });
        },
      };
      const source = (exact: boolean, trials: number | null, seed: number | null) =>
        exact ? "exact" : `Monte Carlo, ${trials} tries, seed ${seed}`;
      if (opts.table) {
        const table = await lasVegasTable(n, common).finally(() => bar?.stop());
        if (opts.json) return out(toJson(table));
        out(`n = ${n}, one try of the hybrid method (${source(table.exact, table.trials, table.seed)}):`);
        out(lvHeader(table.exact));
        for (const r of table.rows) out(lvRow(r, r.stopVegas === table.best));
        out(`* smallest t (expected nodes until a success): stopVegas ${table.best}, t = ${cell(table.rows[table.best].t, 2)}`);
        out(`${table.ms.toFixed(1)} ms, engine ${table.engine}`);
        return;
      }
      const r = await lasVegasStats(n, { ...common, stopVegas: opts.stopVegas }).finally(() => bar?.stop());
      if (opts.json) return out(toJson(r));
      out(`n = ${n}, stopVegas ${r.stopVegas}, one try of the hybrid method (${source(r.exact, r.trials, r.seed)}):`);
      out(lvHeader(r.exact));
      out(lvRow(r, false));
      out("p: a try succeeds; s, e: nodes of a successful, failed try; t: expected nodes until a success");
      out(`${r.ms.toFixed(1)} ms, engine ${r.engine}`);
    });
}
