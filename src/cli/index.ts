// The `nqueens` command line: a thin layer over the public API (src/index.ts), one file per
// command in commands/. Exit codes: 0 success (also when no solution exists), 1 runtime
// failure, 2 bad input, 130 Ctrl-C. Errors: one line each (errors.ts), NQUEENS_DEBUG=1
// adds the stack.
import { Command, CommanderError } from "commander";
import { EXIT_RUNTIME, EXIT_USAGE, describeFailure } from "./errors.js";
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
import { keyCommand } from "./commands/key.js";
import { err } from "./output.js";

/** The package's version, put in by tsup at build time (tsup.config.ts). */
declare const __NQ_VERSION__: string;

const program = new Command("nqueens")
  .description("N-Queens solver: WebAssembly kernels with a TypeScript reference engine")
  .version(__NQ_VERSION__, "-V, --version", "print the version")
  .exitOverride()
  // Commander's own errors in the CLI's one style: one line, `nqueens: ...`, a pointer to --help.
  .configureOutput({
    writeErr: (s) => err(s),
    outputError: (s, write) => write(`nqueens: ${s.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").trim()} (see --help)\n`),
  });

for (const add of [countCommand, allCommand, solveCommand, traceCommand, estimateCommand, treeCommand, lvStatsCommand, crossCheckCommand, workerCommand, runsCommand, keyCommand]) add(program);

async function main(): Promise<number> {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(0); // the reader (e.g. head) has gone
    err(`nqueens: cannot write to stdout (${error.code ?? error.message})\n`);
    process.exit(EXIT_RUNTIME);
  });
  try {
    await program.parseAsync(process.argv);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : EXIT_USAGE;
    }
    const { line, exitCode } = describeFailure(error);
    err(`${line}\n`);
    if (process.env.NQUEENS_DEBUG && error instanceof Error && error.stack) err(`${error.stack}\n`);
    return exitCode;
  }
}

main().then((code) => {
  process.exitCode = code;
});
