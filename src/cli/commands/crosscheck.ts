// nqueens crosscheck: both engines over a sweep, bit for bit.
import { Option, type Command } from "commander";
import { KERNEL_NAMES, crossCheck, describeReport, verdictLine } from "../../analysis/crosscheck.js";
import { UsageError } from "../errors.js";
import { interruptSignal, notAChoice, number } from "../options.js";
import { out, toJson, err } from "../output.js";
import { progressBar } from "../progress.js";

/** The exit code of a sweep that did not run every case (none diverged): not agreement, not disagreement. */
export const EXIT_INCOMPLETE = 3;

type CrossCheckCliOptions = { kernels?: string[]; quick?: boolean; thorough?: boolean; budget?: number; json?: boolean };

export function crossCheckCommand(program: Command): void {
  program
    .command("crosscheck")
    .description("run every kernel on both engines over a sweep; exit 0 only if every case ran and agreed bit for bit (1: they disagree, 3: incomplete, raise --budget)")
    .option("--kernels <names...>", `kernels to check (default all: ${KERNEL_NAMES.join(", ")})`)
    .addOption(new Option("--quick", "a small sweep (about 2 s; up to 30 s allowed)").conflicts("thorough"))
    .option("--thorough", "a large sweep (about a minute)")
    .option("--budget <ms>", "stop starting new cases after this many milliseconds", number("--budget"))
    .option("--json", "print the report as one JSON object")
    .action(async (opts: CrossCheckCliOptions) => {
      for (const k of opts.kernels ?? []) {
        if (!KERNEL_NAMES.includes(k)) throw new UsageError(`--kernels: unknown kernel ${JSON.stringify(k)}. ${notAChoice(k, KERNEL_NAMES)}`);
      }
      // --quick is small enough to finish: its budget is room for a loaded machine, not a target.
      const budgetMs = opts.budget ?? (opts.quick ? 30_000 : opts.thorough ? 60_000 : 10_000);
      const bar = await progressBar("crosscheck");
      let current = "";
      const report = await crossCheck({
        kernels: opts.kernels,
        budgetMs,
        signal: interruptSignal(), // Ctrl-C: exit 130, "interrupted"
        thorough: opts.thorough,
        sizes: opts.quick ? [1, 2, 3, 4, 5, 6, 8, 10, 12, 20, 50, 1000] : undefined,
        seeds: opts.quick ? [1, 2] : opts.thorough ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : undefined,
        onProgress: (p) => {
          if (!bar) return;
          if (p.kernel !== current) { bar.stop(); bar.start(p.casesTotal, 0, { kernel: p.kernel }); current = p.kernel; }
          bar.update(p.casesDone, { kernel: p.kernel });
        },
      }).finally(() => bar?.stop());
      const { table, problems } = describeReport(report, "--budget");
      out(opts.json ? toJson(report) : table);
      for (const line of problems) err(`nqueens: ${line}\n`);
      if (opts.json && report.verdict !== "agree") err(`nqueens: ${verdictLine(report, "--budget")}\n`);
      // 0 only when every case ran and agreed; 1 when the engines disagree; 3 when incomplete.
      process.exitCode = report.verdict === "agree" ? 0 : report.verdict === "disagree" ? 1 : EXIT_INCOMPLETE;
    });
}
