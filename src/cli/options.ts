// Parsing of the CLI's arguments and options shared by the commands, checks of the files it
// will write, and its interrupt signal.
import { accessSync, constants, rmSync, statSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { availableParallelism } from "node:os";
import { InvalidArgumentError, Option } from "commander";
import { ENGINE_NAMES } from "../engine/select.js";
import { afterMs } from "../core/timer.js";
import { removeLiveTemporaries } from "../core/temporaries.js";
import { UsageError, shownNumber, typedNotANumber } from "./errors.js";
import { WORKERS_ALLOWED } from "../search/solve.js";

/** A decimal number as people write it (no 0x10, 0b1, 0o7, '1e3 ' with spaces); Infinity and NaN reach the API, which names the range. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?Infinity$|^NaN$/;

/**
 * A number argument as the user typed it, in decimal; the API then checks its range and names
 * it. Text that is no number goes on as NaN, which the API refuses naming the range, the message
 * showing the text typed (typedNotANumber); `allowed` (the API's range, from its own constant)
 * is said at once instead, for a flag whose value the CLI reads itself (--workers' "auto").
 */
export function number(name: string, allowed?: string): (text: string) => number {
  return (text: string) => {
    if (DECIMAL.test(text)) {
      typedNotANumber(name, undefined); // (a flag given twice: its last value counts)
      return Number(text);
    }
    if (/^[+-]?0[xXbBoO]/.test(text.trim())) throw new UsageError(`${name} must be a decimal number (no 0x, 0b or 0o prefix), got ${JSON.stringify(text)}`);
    if (allowed !== undefined) throw new UsageError(`${name} must be ${allowed}, got ${JSON.stringify(text)}`);
    typedNotANumber(name, text);
    return NaN;
  };
}

/** A --workers value as the API takes it: a number (the API checks its range), or 'auto' (solve turns it into one thread per core). */
export function solveWorkersOption(text: string): number | "auto" {
  return text.trim().toLowerCase() === "auto" ? "auto" : number("--workers", WORKERS_ALLOWED)(text);
}

/** A --workers value: a number (the API checks its range), or 'auto': one worker per core (os.availableParallelism). */
export function workersOption(text: string): number {
  return threadsOf(solveWorkersOption(text));
}

/** The threads a --workers value means: 'auto' one per core (os.availableParallelism). */
export function threadsOf(workers: number | "auto"): number {
  return workers === "auto" ? availableParallelism() : workers;
}

/** A --seed value: a number, 'random', or undefined (the API's default). */
export function seedOption(text: string | undefined): number | "random" | undefined {
  return text === undefined || text === "random" ? text : number("--seed")(text);
}

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), for "did you mean". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The choice a mistyped value most likely meant: close in spelling, or one it is the start of; undefined when none is. */
export function closest(value: string, choices: readonly string[]): string | undefined {
  const text = value.toLowerCase();
  const starts = choices.filter((c) => text.length >= 2 && (c.startsWith(text) || text.startsWith(c)));
  if (starts.length === 1) return starts[0];
  let best: string | undefined, bestDistance = Infinity;
  for (const c of choices) {
    const dist = distance(text, c);
    if (dist < bestDistance) { best = c; bestDistance = dist; }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(best.length / 3)) ? best : undefined;
}

/** The message for a value not among the choices: the choices, and the one probably meant. */
export function notAChoice(value: string, choices: readonly string[]): string {
  const guess = closest(value, choices);
  return `Allowed choices are ${choices.join(", ")}.${guess ? ` Did you mean ${guess}?` : ""}`;
}

/** An option restricted to `choices` (listed in --help) that says which one a misspelt value probably meant. */
export function choiceOption(flags: string, description: string, choices: readonly string[]): Option {
  return new Option(flags, description).choices(choices).argParser((value: string) => {
    if (!choices.includes(value)) throw new InvalidArgumentError(notAChoice(value, choices));
    return value;
  });
}

export const engineOption = () => choiceOption("--engine <name>", "engine", ENGINE_NAMES).default("wasm");

/**
 * The largest n that solve and count run on the TypeScript engine when no --engine is given
 * (a plain board, on this thread): compiling and instantiating the Wasm kernels costs a fresh
 * process about 4 ms of CPU, more than these searches take on the TS engine, which gives the
 * same answers (columns, nodes, counts). Past them, and for any board with given queens or
 * blocked squares (the TS complete search is slow cold: the 1929 nodes of an Excluded
 * Diagonals board at n = 12 cost 140 ms against 20), Wasm. From whole-process CPU, ts against
 * wasm (docs/cli.md, "Which engine runs").
 */
export const TS_ENGINE_MAX_N = { solve: 12, count: 8 } as const;

/** A command whose engine, when --engine is not given, depends on the job (TS_ENGINE_MAX_N). */
export type SizedCommand = keyof typeof TS_ENGINE_MAX_N;

/**
 * The engine of a job given no --engine: "ts" for a plain board (no given queens or blocked
 * squares) of n <= TS_ENGINE_MAX_N[command] on this thread (no --workers, no --queue), else "wasm".
 */
export function defaultEngine(command: SizedCommand, n: number, job: { givens: boolean; workers?: unknown; queue?: unknown }): "ts" | "wasm" {
  const tiny = !job.givens && job.workers === undefined && job.queue === undefined && Number.isInteger(n) && n >= 1 && n <= TS_ENGINE_MAX_N[command];
  return tiny ? "ts" : "wasm";
}

/** --engine of solve and count: no value unless given (the action then takes defaultEngine's), and --help says which. */
export function sizedEngineOption(command: SizedCommand, choices: readonly string[] = ENGINE_NAMES, about = "engine"): Option {
  return choiceOption("--engine <name>", `${about} (default: "wasm"; "ts" for a plain board up to n = ${TS_ENGINE_MAX_N[command]} on one thread, where compiling the Wasm costs more than the search)`, choices);
}

/**
 * An AbortSignal that fires on Ctrl-C (SIGINT) or SIGTERM. A second one exits at once (130),
 * after removing any temporary file being written (a checkpoint's last save, cut short: the
 * checkpoint keeps what the save before it held).
 */
export function interruptSignal(): AbortSignal {
  const controller = new AbortController();
  const now = (): void => {
    try {
      if (removeLiveTemporaries((path) => rmSync(path)) > 0) {
        writeSync(2, "nqueens: stopped at once; the checkpoint's last save was cut short, so it holds what the save before it held\n");
      }
    } catch { /* a full stderr pipe: exit all the same */ }
    process.exit(130);
  };
  const stop = (): void => {
    process.once("SIGINT", now); // before `stop` goes: never a moment without a listener (Node's default would kill)
    process.once("SIGTERM", now);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    controller.abort();
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return controller.signal;
}

/**
 * `interrupt`, and a --timeout checked as the API checks timeoutMs (an integer >= 0) and
 * named as the flag, rather than Node's own message about a "delay". The timeout is a plain
 * timer that aborts a controller (afterMs: of any length, unref'd so that it never keeps the
 * process up): a signal joined with AbortSignal.any and AbortSignal.timeout can be
 * garbage-collected on Node 20 before it fires, and the count then ran to its end, or for
 * ever, past --timeout.
 */
export function withTimeout(interrupt: AbortSignal, timeout: number | undefined): AbortSignal {
  if (timeout === undefined) return interrupt;
  if (!Number.isInteger(timeout) || timeout < 0) throw new UsageError(`--timeout must be an integer >= 0 (milliseconds), got ${shownNumber("--timeout", timeout)}`);
  const controller = new AbortController();
  const cancel = afterMs(timeout, () => controller.abort(new DOMException(`--timeout ${timeout} ms`, "TimeoutError")), { unref: true });
  if (interrupt.aborted) { cancel(); controller.abort(interrupt.reason); }
  else interrupt.addEventListener("abort", () => { cancel(); controller.abort(interrupt.reason); }, { once: true });
  return controller.signal;
}


/**
 * Checks, before any work, that `path` can be written as a file: its directory exists and
 * is writable, and it is not a directory itself (nor a file that cannot be written).
 * Bad input: a UsageError naming the flag and the path.
 */
export function checkWritableFile(flag: string, path: string): void {
  if (path.trim() === "") throw new UsageError(`${flag} needs a file name, got ""`);
  const full = resolve(path);
  const look = (where: string) => {
    try {
      return statSync(where, { throwIfNoEntry: false });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTDIR") return undefined; // a parent is a file: said below
      throw new UsageError(`${flag} ${path}: ${where} cannot be reached (${code === "EACCES" ? "no permission" : code ?? (error as Error).message})`);
    }
  };
  const existing = look(full);
  if (existing?.isDirectory()) throw new UsageError(`${flag} ${path} is a directory; give a file name in it`);
  if (existing) {
    try { accessSync(full, constants.W_OK); } catch { throw new UsageError(`${flag} ${path} cannot be written (no permission)`); }
    return;
  }
  const dir = dirname(full);
  const parent = look(dir);
  if (!parent) throw new UsageError(`${flag} ${path}: the directory ${dir} does not exist`);
  if (!parent.isDirectory()) throw new UsageError(`${flag} ${path}: ${dir} is not a directory`);
  try { accessSync(dir, constants.W_OK); } catch { throw new UsageError(`${flag} ${path}: the directory ${dir} cannot be written (no permission)`); }
}

/**
 * The Redis connection of --queue URL: the URL, or with the password from the environment
 * variable NQUEENS_REDIS_PASSWORD when the URL has none, put into the URL in this process only
 * (a password in the URL typed on the command line shows in `ps` and in shell history; the
 * environment of a process is its owner's to read). Messages never show it (redacted).
 */
export function queueConnection(url: string, env: NodeJS.ProcessEnv = process.env): string {
  const password = env.NQUEENS_REDIS_PASSWORD;
  if (password === undefined || password === "") return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // the library refuses it, naming it
  }
  if (parsed.password !== "") throw new UsageError("--queue's URL holds a password and NQUEENS_REDIS_PASSWORD is set too: give the password once (the variable keeps it out of `ps`)");
  parsed.password = encodeURIComponent(password);
  return parsed.href;
}
