// The `nqueens` command line: a thin layer over the public API (src/index.ts), one file per
// command in commands/. Exit codes: 0 success (also when no solution exists), 1 runtime
// failure, 2 bad input, 130 Ctrl-C. Errors: one line each (errors.ts), NQUEENS_DEBUG=1
// adds the stack.
//
// Start-up: a command's module (and the library it pulls in: engines, Wasm bytes, threads,
// the queue) is imported only when that command runs. The command named on the command
// line is the only one registered; --help, a mistyped or missing command and `help`
// register them all, in the order below, so what commander prints is the same.
import { Command, CommanderError } from "commander";
import { EXIT_USAGE, describeFailure } from "./errors.js";
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

type AddCommand = (program: Command) => void;

/** Every command, in the order --help lists them: its name and how its module is loaded. */
const COMMANDS: Record<string, () => Promise<AddCommand>> = {
  count: async () => (await import("./commands/count.js")).countCommand,
  all: async () => (await import("./commands/all.js")).allCommand,
  solve: async () => (await import("./commands/solve.js")).solveCommand,
  trace: async () => (await import("./commands/trace.js")).traceCommand,
  estimate: async () => (await import("./commands/estimate.js")).estimateCommand,
  tree: async () => (await import("./commands/tree.js")).treeCommand,
  "lv-stats": async () => (await import("./commands/lv-stats.js")).lvStatsCommand,
  crosscheck: async () => (await import("./commands/crosscheck.js")).crossCheckCommand,
  worker: async () => (await import("./commands/worker.js")).workerCommand,
  runs: async () => (await import("./commands/runs.js")).runsCommand,
  key: async () => (await import("./commands/key.js")).keyCommand,
};

/**
 * The commands to register for these arguments: the one named (the program's own options,
 * -V and -h, take no value, so the first argument not starting with "-" is the command);
 * none for a bare --version; every one otherwise (help, a missing or unknown command).
 */
function commandsFor(args: readonly string[]): string[] {
  const named = args.find((arg) => !arg.startsWith("-"));
  if (named !== undefined && Object.hasOwn(COMMANDS, named)) return [named];
  if (named === undefined && args.length === 1 && (args[0] === "-V" || args[0] === "--version")) return [];
  return Object.keys(COMMANDS);
}

async function main(): Promise<number> {
  try {
    const adders = await Promise.all(commandsFor(process.argv.slice(2)).map((name) => COMMANDS[name]()));
    for (const add of adders) add(program);
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
