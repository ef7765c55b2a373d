// nqueens solve N: one solution by any method; --workers W: the complete search on W threads;
// --queue URL: on `nqueens worker` processes through Redis (./solve-queue.ts).
import type { Command } from "commander";
import { closeSync, openSync, statSync, writeSync } from "node:fs";
import { render } from "../../board/render.js";
import type { Square } from "../../board/constraints.js";
import { solve, DEFAULT_METHOD, METHOD_NAMES, type SolveProgress, type SolveResult } from "../../search/solve.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InterruptedError, RuntimeError } from "../errors.js";
import { monotonicMs } from "../../core/platform.js";
import { checkWritableFile, choiceOption, defaultEngine, interruptSignal, number, sizedEngineOption, solveWorkersOption, threadsOf } from "../options.js";
import { out, toJson, err } from "../output.js";
import { duration, limitEtaText, plural, progressBar } from "../progress.js";
import { givensOptions, hasGivens, readGivens, type GivensCliOptions } from "../givens.js";
import { drawBoard } from "../../board/formats.js";
import { METHODS, type SearchMethod } from "../../engine/registry.js";
import { checkQueueSolveFlags, queueText, queueTimeoutText, solveOnQueue, type QueueSolveCliOptions } from "./solve-queue.js";
import { PROOF_FORECAST_FROM_MS, proofForecast, type ProofForecast } from "../forecast.js";

/**
 * The figures that mean something for a method: nodes for the tree searches, steps for the
 * local searches, tries for the randomized ones; the construction has none ("0 steps" of
 * backtracking or "0 nodes" of min-conflicts would say nothing).
 */
export function methodFigures(method: SearchMethod, f: { nodes: number; tries: number; steps: number }): string[] {
  const spec = METHODS[method];
  if (method === "construct") return [];
  return [
    ...(spec.local ? [] : [plural(f.nodes, "node")]),
    ...(spec.seeded ? [plural(f.tries, "try")] : []),
    ...(spec.local ? [plural(f.steps, "step")] : []),
  ];
}

/** Why no solution was found, in the CLI's words: the limit that stopped the search, with its flag and value. */
function stopText(reason: SolveResult["reason"], n: number, opts: { timeout?: number; maxNodes?: number; maxSteps?: number; maxTries?: number }): string {
  switch (reason) {
    case "no-solution": return n === 2 || n === 3 ? `no solution exists (the ${n} x ${n} board has none)` : "no solution exists (proved by exhaustive search)";
    case "timeout": return `no solution found within --timeout ${opts.timeout} ms`;
    case "max-nodes": return `no solution found within --max-nodes ${opts.maxNodes}`;
    case "max-steps": return `no solution found within --max-steps ${opts.maxSteps}`;
    case "max-tries": return `no solution found within --max-tries ${opts.maxTries}`;
    default: return `no solution found (${reason})`;
  }
}

/**
 * Writes the columns to `path`; when that fails after the work (disk full, /dev/full, the
 * directory gone), keeps them in a file beside it, or in the temporary directory, or on
 * stdout, and returns where they are and why.
 */
function keepColumns(path: string, columns: Int32Array, n: number): { where: string; failure?: string } {
  try {
    writeColumns(path, columns);
    return { where: path };
  } catch (error) {
    const failure = `could not write ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    // Beside the file when it is (or was to be) a plain file; else (a device such as /dev/full) in the temporary directory.
    const plain = statSync(path, { throwIfNoEntry: false })?.isFile() ?? true;
    const places = [...(plain ? [`${path}.nqueens-${process.pid}.txt`] : []), join(tmpdir(), `nqueens-solve-${n}-${process.pid}.txt`)];
    for (const fallback of places) {
      try {
        writeColumns(fallback, columns);
        return { where: fallback, failure };
      } catch { /* try the next place */ }
    }
    return { where: "stdout", failure };
  }
}

/**
 * Writes columns (0-based, one per line) to a file as ASCII digits encoded straight into a
 * 1 MiB buffer, written as it fills: no string a row (`join` made one per column, and at
 * n = 10^7 its garbage took 1.3 s, three times the solve; this takes about 0.3 s).
 */
export function writeColumns(path: string, columns: Int32Array): void {
  const fd = openSync(path, "w");
  try {
    const buffer = new Uint8Array(1 << 20);
    const digits = new Uint8Array(11);
    let at = 0;
    for (let i = 0; i < columns.length; i++) {
      if (at > buffer.length - 13) { // room for a sign, ten digits and the newline
        writeAll(fd, buffer, at);
        at = 0;
      }
      let value = columns[i];
      if (value < 0) { buffer[at++] = 45; value = -value; } // (never a column; kept exact all the same)
      let k = 0;
      do {
        digits[k++] = 48 + (value % 10);
        value = Math.floor(value / 10);
      } while (value > 0);
      while (k > 0) buffer[at++] = digits[--k];
      buffer[at++] = 10;
    }
    writeAll(fd, buffer, at);
  } finally {
    closeSync(fd);
  }
}

/** writeSync until every byte of buffer[0, length) is written (a short write is not an error). */
function writeAll(fd: number, buffer: Uint8Array, length: number): void {
  for (let done = 0; done < length; ) done += writeSync(fd, buffer, done, length - done);
}

/**
 * Where a method is hopeless (minutes to forever for its first solution) and what to use
 * instead, said at once. From solve's medians on this package's Wasm engine: backtracking's
 * first solution takes 0.4 s at n = 28 and over 4 s (36 million nodes, not found) at n = 30,
 * growing exponentially; pure Las Vegas practically never succeeds at n = 1000; hill climbing
 * takes 0.7 s at n = 5,000, quadratic in n.
 */
export const HOPELESS_FROM: Partial<Record<(typeof METHOD_NAMES)[number], number>> = { backtrack: 30, "las-vegas": 1000, "hill-climb": 20_000 };

/** The warning for a method hopeless at n (none on a constrained board: the complete search serves it). */
export function hopelessHint(method: string, n: number, constrained: boolean): string | undefined {
  const from = HOPELESS_FROM[method as keyof typeof HOPELESS_FROM];
  if (constrained || from === undefined || !(n >= from)) return undefined;
  const instead = n < 50 ? "--method hybrid (or leave --method out: auto)" : "--method min-conflicts (or leave --method out: auto)";
  return `--method ${method} is hopeless at n = ${n} (its first solution may take hours from n = ${from} on); use ${instead}`;
}

type SolveCliOptions = {
  method: (typeof METHOD_NAMES)[number];
  seed?: string;
  stopVegas?: number;
  /** Undefined unless given: the action then takes defaultEngine's. */
  engine?: "wasm" | "ts";
  maxNodes?: number;
  maxSteps?: number;
  maxTries?: number;
  timeout?: number;
  out?: string;
  json?: boolean;
  workers?: number | "auto";
} & GivensCliOptions & QueueSolveCliOptions;

/** A repeated --revoked adds its names to the earlier ones' (`--revoked a --revoked b,c` is a, b and c). */
const collectNames = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(",").map((name) => name.trim())];


/**
 * "on 2 threads, 64 tasks" for a solve with --workers (its root decided here: "at its root, no
 * thread"); nothing without. A solve stopped undecided says the tasks decided of those open
 * (`last`, its last report): "on 2 threads, 3 of 10 tasks decided".
 */
function threadsText(r: { workers?: number; tasks?: number }, last?: SolveProgress): string[] {
  if (r.workers === undefined) return [];
  if (r.workers === 0) return ["at its root, no thread"];
  const tasks = last?.tasksTotal !== undefined ? `${last.tasksDone} of ${plural(last.tasksTotal, "task")} decided` : plural(r.tasks ?? 0, "task");
  return [`on ${plural(r.workers, "thread")}, ${tasks}`];
}

/** "; a proof that it has none: about 5.0e+9 nodes (Knuth's estimate)" once the forecast is made, else "". */
function proofText(watch: SolveWatch): string {
  const nodes = watch.forecast?.nodes;
  return nodes === undefined ? "" : `; a proof that it has none: about ${nodes.toPrecision(2)} nodes (Knuth's estimate)`;
}

/**
 * A constrained solve's forecast of a proof (cli/forecast.ts): made on a thread of its own,
 * started at the solve's first report past PROOF_FORECAST_FROM_MS (a solve decided sooner never
 * starts it), said at the first report after it is in, once, on stderr where the proof would
 * take over a minute, then shown on the bar and in the summary of a solve stopped by a limit.
 * `forecast` is null until it is started; `last` is the solve's last report, for what a
 * stopped or interrupted solve says it did.
 */
type SolveWatch = { forecast: ProofForecast | undefined | null; said: boolean; last?: SolveProgress };

/** The solve in this process: one thread, or the complete search on --workers threads; a progress bar on a terminal. */
async function solveHere(n: number, givens: { fixed?: Square[]; blocked?: Square[] }, seed: number | "random" | undefined, opts: SolveCliOptions & { engine: "wasm" | "ts" }, proof: SolveWatch): Promise<SolveResult> {
  const bar = await progressBar("solve");
  let started = false;
  const wantsProof = hasGivens(givens);
  const interrupt = interruptSignal();
  const startedAt = monotonicMs();
  // The thread pool is loaded only for --workers (a plain solve starts without it: see cli/index.ts).
  const solveWith = opts.workers === undefined ? solve : (await import("../../workers/solve-parallel.js")).solve;
  return await solveWith(n, {
    method: opts.method,
    engine: opts.engine,
    seed,
    stopVegas: opts.stopVegas,
    maxNodes: opts.maxNodes,
    maxSteps: opts.maxSteps,
    maxTries: opts.maxTries,
    timeoutMs: opts.timeout,
    ...(opts.workers === undefined ? {} : { workers: opts.workers }),
    ...(givens.fixed ? { fixed: givens.fixed } : {}),
    ...(givens.blocked ? { blocked: givens.blocked } : {}),
    signal: interrupt,
    onProgress: (p) => {
      proof.last = p;
      if (wantsProof && p.method === "complete" && p.elapsedMs >= PROOF_FORECAST_FROM_MS && !proof.said) {
        proof.forecast ??= proofForecast({ n, fixed: givens.fixed, blocked: givens.blocked, threads: opts.workers === undefined ? 0 : threadsOf(opts.workers) }, join(__dirname, "cli-forecast.cjs"));
        if (proof.forecast === undefined || proof.forecast.nodes !== undefined) {
          proof.said = true;
          const notice = proof.forecast?.notice(p.nodes, p.elapsedMs);
          if (notice) {
            bar?.stop();
            started = false;
            err(`nqueens: ${notice}\n`);
          }
        }
      }
      if (!bar || p.elapsedMs < 500) return;
      const limits = { timeoutMs: opts.timeout, maxNodes: opts.maxNodes, maxSteps: opts.maxSteps, maxTries: opts.maxTries };
      const tasks = p.tasksTotal === undefined ? [] : [`${p.tasksDone}/${p.tasksTotal} tasks`, plural(p.workers ?? 0, "thread")];
      const proofNodes = proof.forecast?.nodes, proofEta = proof.forecast?.etaMs(p.nodes, p.elapsedMs);
      const shown = [...tasks, ...methodFigures(p.method, p), ...(p.conflicts >= 0 ? [plural(p.conflicts, "conflict")] : []),
        ...(proofNodes === undefined ? [] : [`a proof ~${proofNodes.toPrecision(2)} nodes${proofEta === undefined ? "" : `, ~${duration(proofEta)}`}`])];
      // (its own elapsed time, not the bar's: the bar starts again after the notice above)
      const payload = { n, phase: p.phase, figures: shown.length ? `${shown.join(" | ")} | ` : "", elapsed: duration(p.elapsedMs), etaText: limitEtaText(p, limits) };
      // The payload from the first draw on: started without it, the bar once drew its raw template ({n} | {phase} ...).
      if (!started) { bar.start(1, 0, payload); started = true; }
      bar.update(0, payload);
    },
  }).catch((error: unknown) => {
    // Ctrl-C: what the search had done (nothing of it is kept: a solve starts from its root again).
    const p = proof.last;
    if (!interrupt.aborted) throw error;
    if (p === undefined) throw new InterruptedError(`interrupted after ${((monotonicMs() - startedAt) / 1000).toFixed(1)} s, before the search's first report`);
    const done = [...methodFigures(p.method, p), ...threadsText({ workers: p.workers }, p), `${(p.elapsedMs / 1000).toFixed(1)} s`];
    throw new InterruptedError(`interrupted after ${done.join(", ")}${proofText(proof)}`);
  }).finally(() => {
    bar?.stop();
    proof.forecast?.close();
  });
}

export function solveCommand(program: Command): void {
  const command = program
    .command("solve")
    .description("find one solution (with --fixed, --blocked or --board: complete a constrained board, or prove it has none)")
    .argument("[N]", "board size (or from --board FILE)", number("n"))
    .addOption(choiceOption("--method <M>", "algorithm", METHOD_NAMES).default(DEFAULT_METHOD))
    .option("--seed <S>", "u32 seed for randomized methods (default 1; 'random' for a fresh one)")
    .option("--stop-vegas <K>", "hybrid: rows placed at random before backtracking (default 8, or N - 15 when N > 15)", number("--stop-vegas"))
    .addOption(sizedEngineOption("solve"))
    .option("--max-nodes <X>", "stop after X nodes (tree searches)", number("--max-nodes"))
    .option("--max-steps <X>", "stop after X moves (local search)", number("--max-steps"))
    .option("--max-tries <X>", "stop after X tries or restarts (randomized methods)", number("--max-tries"))
    .option("--timeout <ms>", "stop after this many milliseconds", number("--timeout"))
    .option("--workers <W>", "the complete search on W worker threads, or 'auto' for one per core (--method complete, or auto on a board with givens)", solveWorkersOption)
    .option("--queue <URL>", "with --method complete: search the tasks on `nqueens worker` processes through Redis (redis://HOST:PORT); run again to resume")
    .option("--queue-name <NAME>", "with --queue: the queue's name (default: from N, the board's digest and its tasks)")
    .option("--key-file <FILE>", "with --queue: the cluster key (default: NQUEENS_KEY)")
    .option("--audit <FRACTION>", "with --queue: the share of the workers' \"no solution here\" answers the coordinator searches again itself, 0 to 1 (default 0.03, and one of each worker's; 0: no audit)", number("--audit"))
    .option("--replicas <R>", "with --queue: 2 has each task's \"none\" said by two different workers (default 1)", number("--replicas"))
    .addOption(choiceOption("--identities <allowed|required>", "with --queue: required takes only answers signed by worker identities (default allowed)", ["allowed", "required"]))
    .option("--revoked <NAME,...>", "with --queue: worker identities whose answers are never taken (the coordinator searches their tasks itself); repeated, the names add up", collectNames)
    .option("--unauthenticated", "with --queue: run without a cluster key, as asked (anyone who can write to this Redis can change the answer)")
    .option("--out <FILE>", "write the columns (0-based, one per line) to FILE instead of drawing the board")
    .option("--json", "print one JSON object");
  givensOptions(command)
    .action(async (nArgument: number | undefined, opts: SolveCliOptions, command: Command) => {
      const givens = await readGivens(nArgument, opts);
      const n = givens.n;
      checkQueueSolveFlags(command, opts, hasGivens(givens));
      const seed = opts.seed === undefined || opts.seed === "random" ? opts.seed : number("--seed")(opts.seed);
      if (opts.out !== undefined) checkWritableFile("--out", opts.out); // before the search, not after it
      const hopeless = hopelessHint(opts.method, n, hasGivens(givens));
      if (hopeless) err(`nqueens: ${hopeless}\n`);
      const queued = opts.queue === undefined ? undefined : await solveOnQueue(n, givens, opts);
      const engine = opts.engine ?? defaultEngine("solve", n, { givens: hasGivens(givens), workers: opts.workers, queue: opts.queue });
      const proof: SolveWatch = { forecast: null, said: false };
      const result: SolveResult = queued ?? await solveHere(n, givens, seed, { ...opts, engine }, proof);
      const proofNodes = proof.forecast?.nodes;
      // A seed given to a method without randomness (the complete search, backtracking, the construction) is said, not silently dropped.
      if (opts.seed !== undefined && result.seed === null && !queued) err(`nqueens: --seed ${opts.seed} was not used: method ${result.method} has no randomness\n`);
      // How it ran: on threads ("on 2 threads, 14 tasks"), or on the queue (its name, tasks, passes, workers, the audit).
      const how = (r: SolveResult): string[] => (queued ? [queueText(queued)] : threadsText(r, r.found || r.reason === "no-solution" ? undefined : proof.last));
      // The answer is never lost: a write that fails after the search keeps the columns elsewhere.
      const kept = opts.out && result.columns ? keepColumns(opts.out, result.columns, n) : undefined;
      const lost = kept?.failure !== undefined;
      if (opts.json) {
        const estimated = !result.found && result.reason !== "no-solution" && proofNodes !== undefined ? { proofEstimate: proofNodes } : {};
        out(toJson(kept && kept.where !== "stdout" ? { ...result, ...estimated, columns: undefined, out: kept.where } : { ...result, ...estimated }));
      } else if (!result.found || !result.columns) {
        if (result.conflict) return out(`n = ${n}: no completion: ${result.conflict.reason}`);
        if (hasGivens(givens) && result.reason === "no-solution") {
          out(`n = ${n}: no completion (proved by exhaustive search); ${[plural(result.nodes, "node"), ...how(result), `${result.ms.toFixed(1)} ms`].join(", ")}`);
          return;
        }
        const kept = queued && result.reason === "timeout" ? queueTimeoutText(queued) : "";
        out(`n = ${n}: ${stopText(result.reason, n, opts)}${kept}; ${[...(result.nodes + result.tries + result.steps > 0 ? methodFigures(result.method, result) : []), ...how(result), `${result.ms.toFixed(1)} ms`].join(", ")}${proofText(proof)}`);
        return;
      } else {
        if (kept?.where === "stdout") out(Array.from(result.columns).join("\n"));
        else if (kept) out(`${n} columns written to ${kept.where}`);
        else if (hasGivens(givens) && n <= 64) out(`${drawBoard(n, givens, result.columns)}\n(Q given, q placed, # blocked)`);
        else out(render(result.columns));
        out(`method ${result.method}, engine ${result.engine}${result.seed === null ? "" : `, seed ${result.seed}`}: ` +
          [...methodFigures(result.method, result), ...how(result), `${result.ms.toFixed(1)} ms`].join(", "));
      }
      if (lost) {
        throw new RuntimeError(`${kept!.failure}; the solution is kept ${kept!.where === "stdout" ? "on stdout above" : `in ${kept!.where}`}`);
      }
    });
}
