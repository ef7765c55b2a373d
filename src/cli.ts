// The `nqueens` command line: a thin layer over the public API (src/index.ts).
// Exit codes: 0 success (also when no solution exists), 2 bad input, 130 Ctrl-C.
import { closeSync, openSync, writeSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import cliProgress from "cli-progress";
import { count, render, solutions, solve, METHOD_NAMES, type SolveResult } from "./index.js";
import { DEFAULT_METHOD } from "./solve.js";
import { ENGINE_NAMES } from "./engines.js";

const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

/** Raised for bad command-line input: printed as one line, exit code 2. */
class UsageError extends Error {}

/** A number argument as the user typed it; the API then checks its range and names it. */
function number(name: string): (text: string) => number {
  return (text: string) => {
    const value = Number(text);
    if (text.trim() === "" || (Number.isNaN(value) && text.trim() !== "NaN")) {
      throw new UsageError(`${name} must be a number, got ${JSON.stringify(text)}`);
    }
    return value;
  };
}

/** JSON with bigints as decimal strings and typed arrays as plain arrays. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    typeof v === "bigint" ? v.toString() : ArrayBuffer.isView(v) ? Array.from(v as Int32Array) : v,
  );
}

function out(line: string): void {
  process.stdout.write(line + "\n");
}

/** An AbortSignal that fires on Ctrl-C (SIGINT) or SIGTERM. */
function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return controller.signal;
}

/** A progress bar on stderr, only when stderr is a terminal. */
function progressBar(format: string): cliProgress.SingleBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  return new cliProgress.SingleBar(
    { format, stream: process.stderr, hideCursor: true, clearOnComplete: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
}

const engineOption = () => new Option("--engine <name>", "engine").choices(ENGINE_NAMES).default("wasm");

const program = new Command("nqueens")
  .description("N-Queens solver: WebAssembly kernels with a TypeScript reference engine")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

program
  .command("count")
  .description("count all solutions and the solutions distinct under symmetry (1 <= N <= 32)")
  .argument("<N>", "board size", number("N"))
  .addOption(engineOption())
  .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
  .option("--json", "print one JSON object")
  .action(async (n: number, opts: { engine: "wasm" | "ts"; timeout?: number; json?: boolean }) => {
    const bar = progressBar("count {n} |{bar}| {percentage}% | {value}/{total} tasks | ETA {eta_formatted}");
    let started = false;
    const result = await count(n, {
      engine: opts.engine,
      timeoutMs: opts.timeout,
      signal: interruptSignal(),
      onProgress: (p) => {
        if (!bar || p.elapsedMs < 500) return;
        if (!started) { bar.start(p.tasksTotal, 0, { n }); started = true; }
        bar.update(p.tasksDone);
      },
    }).finally(() => bar?.stop());
    if (opts.json) return out(toJson(result));
    out(`n = ${result.n}: ${result.total} solutions, ${result.unique} unique (up to rotation and reflection)`);
    out(`${result.nodes} queens placed, ${result.ms.toFixed(1)} ms, engine ${result.engine}`);
  });

program
  .command("all")
  .description("list every solution in lexicographic order (1 <= N <= 32)")
  .argument("<N>", "board size", number("N"))
  .option("--limit <L>", "stop after L solutions", number("--limit"))
  .option("--board", "draw each solution as a board")
  .addOption(engineOption())
  .option("--json", "print one JSON object")
  .action(async (n: number, opts: { limit?: number; board?: boolean; engine: "wasm" | "ts"; json?: boolean }) => {
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
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.version" ? 0 : EXIT_USAGE;
    }
    if (isAbort(error)) {
      process.stderr.write("nqueens: interrupted\n");
      return EXIT_INTERRUPTED;
    }
    if (error instanceof UsageError || error instanceof RangeError || error instanceof TypeError) {
      process.stderr.write(`nqueens: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof Error && (error as { code?: string }).code === "NQ_TIMEOUT") {
      process.stderr.write(`nqueens: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

main().then((code) => {
  process.exitCode = code;
});
