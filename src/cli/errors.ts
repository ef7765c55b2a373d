// The CLI's errors and exit codes: every failure is one line on stderr, `nqueens: ...`,
// in the CLI's own words (flag names, not the API's option names), credentials redacted;
// the exit code follows the error's code, never its class.
import { ErrorCode, type ErrorFacts } from "../core/errors.js";
import { redact } from "../distributed/redact.js";
import { KEY_HINT, SAME_KEY_HINT } from "../distributed/auth.js";

export const EXIT_RUNTIME = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** Raised for bad command-line input: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** Ctrl-C (or SIGTERM) stopped a command; the message says what was kept and how to resume. Exit 130. */
export class InterruptedError extends Error {}

/** A runtime failure found by the CLI itself (the answer kept elsewhere, say): one line, exit 1. */
export class RuntimeError extends Error {}

/** The API's option names as the CLI's flags, for messages. */
const FLAG_NAMES: Record<string, string> = {
  timeoutMs: "--timeout", maxNodes: "--max-nodes", maxSteps: "--max-steps", maxTries: "--max-tries", stopVegas: "--stop-vegas",
  maxEvents: "--max-events", samples: "--samples", trials: "--trials", seed: "--seed", workers: "--workers", parts: "--parts",
  limit: "--limit", connection: "--queue", concurrency: "--concurrency", prefetch: "--prefetch", lockDuration: "--lock-duration",
  stalledInterval: "--stalled-interval", budgetMs: "--budget", kernels: "--kernels", checkpoint: "--checkpoint", method: "--method",
  engine: "--engine", queue: "--queue-name", graceMs: "--grace", keyFile: "--key-file", name: "--name", identityFile: "--identity-file",
  identities: "--identities", revoked: "--revoked", unauthenticated: "--unauthenticated", audit: "--audit", replicas: "--replicas",
  partsPerJob: "--parts-per-job",
};

/** The way out of a queue run refused for want of a key (the API's keyMissing), in the CLI's words. */
export const CLI_KEY_HINT =
  "set NQUEENS_KEY (export NQUEENS_KEY=$(head -c 32 /dev/urandom | base64)) or give --key-file FILE, the same key on the coordinator and every worker " +
  "(a worker may hold its own identity instead: --identity-file FILE, from nqueens key --worker NAME); or add --unauthenticated to run without one";

/** The ways out of a queue run's key errors (NQ_KEY, `param` "key"), from the API's words (`hint`) to the CLI's. */
const CLI_KEY_HINTS = new Map<string, string>([
  [KEY_HINT, CLI_KEY_HINT],
  [SAME_KEY_HINT, "give the key it was made under (NQUEENS_KEY or --key-file FILE), without --unauthenticated"],
]);

/**
 * Number flags (and n) given text that is no number, by the names the CLI says them by: the
 * text goes on as NaN, which the API refuses naming the parameter's range (its own words, one
 * place), and the message then shows the text as typed instead of NaN.
 */
const notNumbers = new Map<string, string>();

/** Notes that `flag` was given `text`, no number, passed on as NaN (see notNumbers); undefined: its latest value was a number. */
export function typedNotANumber(flag: string, text: string | undefined): void {
  if (text === undefined) notNumbers.delete(flag);
  else notNumbers.set(flag, text);
}

/** A coded error's facts (see ErrorFacts): read as fields, never from its message. */
function factsOf(error: Error): ErrorFacts {
  const { param, detail, hint, operation, timeoutMs } = error as ErrorFacts;
  return { param, detail, hint, operation, timeoutMs };
}

/** A parameter as the CLI names it: its flag, or the API's name where the CLI has no flag for it (n). */
function flagOf(param: string): string {
  return Object.hasOwn(FLAG_NAMES, param) ? FLAG_NAMES[param] : param;
}

/**
 * Bad input in the CLI's words: the flag, then the message after the parameter (`detail`), so
 * `timeoutMs must be ...` reads `--timeout must be ...`, and a flag given text that is no number
 * shows that text, not the NaN it became. An error without both fields is said as it is.
 */
function invalidLine(error: Error): string {
  const { param, detail } = factsOf(error);
  if (param === undefined || detail === undefined) return error.message;
  const flag = flagOf(param), typed = notNumbers.get(flag);
  return `${flag}${typed === undefined ? detail : detail.replace(/got NaN$/, `got ${JSON.stringify(typed)}`)}`;
}

/** A number flag's value as a message of the CLI's own shows it: the text typed where it was no number (see notNumbers). */
export function shownNumber(flag: string, value: number): string {
  const typed = Number.isNaN(value) ? notNumbers.get(flag) : undefined;
  return typed === undefined ? String(value) : JSON.stringify(typed);
}

/** A timeout in the CLI's words: `count(20) did not finish within --timeout 500 ms`. */
function timeoutLine(error: Error): string {
  const { param, operation, timeoutMs } = factsOf(error);
  return param !== undefined && operation !== undefined && timeoutMs !== undefined
    ? `${operation} did not finish within ${flagOf(param)} ${timeoutMs} ms`
    : error.message;
}

/** Out-of-memory failures that come without a code (V8's and Wasm's RangeErrors). */
function isOutOfMemory(error: Error): boolean {
  return /allocation failed|out of memory|Invalid (typed )?array length|Array buffer allocation|WebAssembly\.Memory\.grow|could not allocate/i.test(error.message);
}

/** The line to print and the exit code for an error that ended a command. */
export function describeFailure(error: unknown): { line: string; exitCode: number } {
  const oneLine = (text: string): string => `nqueens: ${redact(text).replace(/\s*\n\s*/g, "; ").trim()}`;
  if (error instanceof InterruptedError) return { line: oneLine(error.message), exitCode: EXIT_INTERRUPTED };
  if (error instanceof UsageError) return { line: oneLine(error.message), exitCode: EXIT_USAGE };
  if (error instanceof RuntimeError) return { line: oneLine(error.message), exitCode: EXIT_RUNTIME };
  if (!(error instanceof Error)) return { line: oneLine(String(error)), exitCode: EXIT_RUNTIME };
  if (error.name === "AbortError") return { line: oneLine("interrupted"), exitCode: EXIT_INTERRUPTED };
  const code = (error as { code?: unknown }).code;
  if (code === ErrorCode.invalidArgument) return { line: oneLine(invalidLine(error)), exitCode: EXIT_USAGE };
  if (code === ErrorCode.queueMismatch) return { line: oneLine(error.message), exitCode: EXIT_USAGE };
  // A checkpoint file that fails its checks is the user's input: refused, its reason (`detail`)
  // followed by the way to start over in the CLI's words (--restart) instead of the API's (`hint`).
  const facts = factsOf(error);
  const why = facts.hint !== undefined && facts.detail !== undefined ? facts.detail : error.message;
  if (code === ErrorCode.checkpointCorrupt) {
    return { line: oneLine(`${why}; it is not used: add --restart to count from the start and overwrite it, or give another --checkpoint`), exitCode: EXIT_USAGE };
  }
  // A checkpoint whose MAC does not verify is refused input too (exit 2), with the same way out.
  if (code === ErrorCode.tampered && facts.param === "checkpoint") {
    return { line: oneLine(`${why}; nothing of it is used: add --restart to count from the start and overwrite it, or give the key it was made under (--key-file, NQUEENS_KEY)`), exitCode: EXIT_USAGE };
  }
  // A queue run without a key that was not asked for, or a keyed run met without its key: the user's choice to make (exit 2), said with the flags.
  if (code === ErrorCode.key && facts.param === "key" && facts.hint !== undefined) return { line: oneLine(`${why}; ${CLI_KEY_HINTS.get(facts.hint) ?? facts.hint}`), exitCode: EXIT_USAGE };
  // A key file named by --key-file (or an identity file by --identity-file) that is missing, unreadable or not a key: bad input (exit 2).
  if (code === ErrorCode.key && (facts.param === "keyFile" || facts.param === "identityFile")) return { line: oneLine(error.message), exitCode: EXIT_USAGE };
  if (code === ErrorCode.timeout || error.name === "TimeoutError") return { line: oneLine(timeoutLine(error)), exitCode: EXIT_RUNTIME };
  if (code === undefined && isOutOfMemory(error)) return { line: oneLine(`out of memory: ${error.message}`), exitCode: EXIT_RUNTIME };
  if (typeof code === "string" && code.startsWith("NQ_")) return { line: oneLine(error.message), exitCode: EXIT_RUNTIME };
  // Anything else is a fault of this program or of the system, not of the input: said in one line.
  const system = typeof code === "string" ? ` (${code})` : "";
  return { line: oneLine(`${error.message}${system}`), exitCode: EXIT_RUNTIME };
}
