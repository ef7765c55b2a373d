// The `nqueens` command line: a thin layer over the public API (src/index.ts), one file per
// command in commands/. Exit codes: 0 success (also when no solution exists), 1 runtime
// failure, 2 bad input, 130 Ctrl-C.
import { Command, CommanderError } from "commander";
import { EXIT_INTERRUPTED, EXIT_USAGE, UsageError } from "./errors.js";
import { countCommand } from "./commands/count.js";
import { allCommand } from "./commands/all.js";
import { solveCommand } from "./commands/solve.js";
import { traceCommand } from "./commands/trace.js";
import { estimateCommand } from "./commands/estimate.js";
import { treeCommand } from "./commands/tree.js";
import { lvStatsCommand } from "./commands/lv-stats.js";
import { crossCheckCommand } from "./commands/crosscheck.js";
import { workerCommand } from "./commands/worker.js";
import { runsCommand } from "./commands/runs.js";

/** The package's version, put in by tsup at build time (tsup.config.ts). */
declare const __NQ_VERSION__: string;

const program = new Command("nqueens")
  .description("N-Queens solver: WebAssembly kernels with a TypeScript reference engine")
  .version(__NQ_VERSION__, "-V, --version", "print the version")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

for (const add of [countCommand, allCommand, solveCommand, traceCommand, estimateCommand, treeCommand, lvStatsCommand, crossCheckCommand, workerCommand, runsCommand]) add(program);

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === "AbortError";
}

async function main(): Promise<number> {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0); // the reader (e.g. head) has gone
    throw error;
  });
  try {
    await program.parseAsync(process.argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : EXIT_USAGE;
    }
    if (error instanceof Error && error.name === "TimeoutError") {
      process.stderr.write(`nqueens: ${error.message}\n`);
      return 1;
    }
    if (isAbort(error)) {
      process.stderr.write("nqueens: interrupted\n");
      return EXIT_INTERRUPTED;
    }
    if (error instanceof UsageError || error instanceof RangeError || error instanceof TypeError) {
      process.stderr.write(`nqueens: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof Error && ["NQ_TIMEOUT", "NQ_QUEUE_UNREACHABLE", "NQ_QUEUE_PART_FAILED"].includes((error as { code?: string }).code ?? "")) {
      process.stderr.write(`nqueens: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

main().then((code) => {
  process.exitCode = code;
});
