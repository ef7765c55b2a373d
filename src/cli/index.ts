// The `nqueens` command line: a thin layer over the public API (src/index.ts).
// Exit codes: 0 success (also when no solution exists), 2 bad input, 130 Ctrl-C.
import { closeSync, openSync, writeSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import cliProgress from "cli-progress";
import {
  count, countParallel, estimate, gpuInfo, lasVegasStats, lasVegasTable, render, solutions, solve, trace, treeSize, METHOD_NAMES, TRACE_METHODS,
  type LasVegasProgress, type LasVegasStats, type ParallelResult, type SolveResult, type TraceEvent, type TraceMethod,
} from "../index.js";
import { DEFAULT_METHOD } from "../search/solve.js";
import { KERNEL_NAMES, crossCheck, describeReport } from "../analysis/crosscheck.js";
import { ENGINE_NAMES } from "../engine/select.js";

/** The package's version, put in by tsup at build time (tsup.config.ts). */
declare const __NQ_VERSION__: string;

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

/** JSON with bigints as decimal strings, typed arrays as plain arrays and times in ms to one decimal. */
function toJson(value: unknown): string {
  return JSON.stringify(value, (key, v) =>
    typeof v === "bigint" ? v.toString()
      : ArrayBuffer.isView(v) ? Array.from(v as Int32Array)
        : (key === "ms" || key === "elapsedMs") && typeof v === "number" ? Math.round(v * 10) / 10 // times to 0.1 ms
          : v,
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
  .version(__NQ_VERSION__, "-V, --version", "print the version")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

type CountCliOptions = { engine: "wasm" | "ts" | "webgpu"; timeout?: number; workers?: number; parts?: number; checkpoint?: string; json?: boolean; queue?: string; queueName?: string };

program
  .command("count")
  .description("count all solutions and the solutions distinct under symmetry (1 <= N <= 32)")
  .argument("<N>", "board size", number("N"))
  .addOption(new Option("--engine <name>", "engine (webgpu: this machine's GPU, docs/gpu.md)").choices([...ENGINE_NAMES, "webgpu"]).default("wasm"))
  .option("--workers <W>", "count on W worker threads (default: one thread, no workers)", number("--workers"))
  .option("--parts <P>", "with --workers or --queue: how many parts to split the count into (default: splitCount's; with --queue fewer from N = 11 to 17, 32 at N = 16, see defaultQueueParts)", number("--parts"))
  .option("--checkpoint <FILE>", "with --workers: record finished parts in FILE and resume from it")
  .option("--queue <URL>", "count on `nqueens worker` processes through Redis (redis://HOST:PORT); run again to resume")
  .option("--queue-name <NAME>", "with --queue: the queue's name (default: from N, the parts and the split version)")
  .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
  .option("--json", "print one JSON object")
  .action(async (n: number, opts: CountCliOptions, command: Command) => {
    const bar = progressBar("count {n} |{bar}| {percentage}% | {value}/{total} tasks | {duration_formatted} elapsed | ETA {eta_formatted}");
    let started = false;
    const tick = (p: { tasksDone: number; tasksTotal: number; elapsedMs: number }): void => {
      if (!bar || p.elapsedMs < 500) return;
      if (!started) { bar.start(p.tasksTotal, 0, { n }); started = true; }
      bar.update(p.tasksDone);
    };
    const interrupt = interruptSignal();
    if (opts.queue !== undefined) {
      if (opts.workers !== undefined || opts.checkpoint !== undefined) throw new UsageError("--queue counts on `nqueens worker` processes: it takes no --workers or --checkpoint");
      if (command.getOptionValueSource("engine") === "cli" && opts.engine !== "wasm") {
        throw new UsageError(`--engine ${opts.engine} does not apply with --queue: the workers count on the Wasm engine`);
      }
      const { countDistributed } = await import("../distributed/index.js");
      const queueBar = progressBar("count {n} |{bar}| {value}/{total} tasks | {rate} tasks/s | {workers} workers | {duration_formatted} elapsed | ETA {left}");
      let shown = false;
      const r = await countDistributed(n, {
        connection: opts.queue, parts: opts.parts, queue: opts.queueName,
        signal: opts.timeout === undefined ? interrupt : AbortSignal.any([interrupt, AbortSignal.timeout(opts.timeout)]),
        onProgress: (p) => {
          if (!queueBar) return;
          const left = p.etaMs === undefined ? "-" : `${Math.ceil(p.etaMs / 1000)}s`;
          const payload = { n, rate: p.rate === undefined ? "-" : p.rate.toFixed(1), workers: p.workers, left };
          if (!shown) { queueBar.start(p.tasksTotal, p.tasksDone, payload); shown = true; }
          queueBar.update(p.tasksDone, payload);
        },
      }).finally(() => queueBar?.stop());
      if (opts.json) return out(toJson(r));
      out(`n = ${r.n}: ${r.total} solutions, ${r.unique} unique (up to rotation and reflection)`);
      out(`${r.nodes} queens placed, ${r.ms.toFixed(1)} ms, engine ${r.engine}, queue ${r.queue}, ${r.parts} parts (${r.resumed} finished before this run)`);
      return;
    }
    const parallel = opts.workers !== undefined || opts.checkpoint !== undefined || opts.parts !== undefined;
    if (opts.engine === "webgpu") {
      if (parallel) throw new UsageError("--engine webgpu counts on this machine's GPU: it takes no --workers, --parts or --checkpoint");
      const gpu = await gpuInfo();
      process.stderr.write(`GPU: ${[gpu.vendor, gpu.architecture, gpu.description].filter(Boolean).join(", ")}${gpu.fallback ? " (software fallback: slow)" : ""}\n`);
    }
    const result = await (parallel
      ? countParallel(n, {
        engine: opts.engine as "wasm" | "ts", workers: opts.workers, parts: opts.parts, checkpoint: opts.checkpoint, onProgress: tick,
        signal: opts.timeout === undefined ? interrupt : AbortSignal.any([interrupt, AbortSignal.timeout(opts.timeout)]),
      })
      : count(n, { engine: opts.engine, timeoutMs: opts.timeout, signal: interrupt, onProgress: tick })
    ).finally(() => bar?.stop());
    if (opts.json) return out(toJson(result));
    out(`n = ${result.n}: ${result.total} solutions, ${result.unique} unique (up to rotation and reflection)`);
    const pool = parallel ? (result as ParallelResult) : undefined;
    const how = pool ? `, ${pool.workers} workers, ${pool.parts} parts (${pool.resumed} from the checkpoint)` : "";
    out(`${result.nodes} queens placed, ${result.ms.toFixed(1)} ms, engine ${result.engine}${how}`);
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

/** One trace event as a line of English, the way a teacher would say it. */
function describeEvent(e: TraceEvent): string {
  const figures = e.conflicts >= 0 ? `tries ${e.tries}, steps ${e.steps}, h ${e.conflicts}` : `nodes ${e.nodes}, tries ${e.tries}`;
  let text: string;
  switch (e.kind) {
    case "start":
      text = `${e.method}, n = ${e.n}${e.seed === null ? "" : `, seed ${e.seed}`}${e.stopVegas === null ? "" : `, stopVegas ${e.stopVegas}`}: ` +
        (e.method === "hill-climb" ? `a random permutation, h = ${e.conflicts}` : "an empty board");
      break;
    case "place":
      text = `row ${e.row}: queen at column ${e.column}` +
        (e.random ? `, drawn at random from the safe columns ${e.safe.join(" ")}`
          : e.previous === null ? `, the first safe column (safe: ${e.safe.join(" ") || "none"})`
            : `, the next safe column after ${e.previous} (safe: ${e.safe.join(" ")})`);
      break;
    case "backtrack":
      text = `row ${e.row}: no safe column left; back to row ${e.to}`;
      break;
    case "fail":
      text = e.cause === "exhausted"
        ? `row ${e.row}: no safe column, and backtracking found no other way below the random rows: the try fails`
        : `row ${e.row}: no safe column: the try fails`;
      break;
    case "restart":
      text = e.conflicts >= 0 ? `try ${e.tries}: a new random permutation, h = ${e.conflicts}` : `try ${e.tries}: an empty board`;
      break;
    case "stuck":
      text = `no swap lowers h = ${e.conflicts}: a local minimum, the try ends`;
      break;
    case "evaluate":
      text = `swap rows ${e.i} and ${e.j}: h would change by ${e.delta > 0 ? "+" : ""}${e.delta}${e.taken ? ": taken" : ""}`;
      break;
    case "solution":
      text = `solution: ${Array.from(e.columns).join(" ")}`;
      break;
    case "end":
      text = e.reason === "no-solution" ? "no solution exists" : "stopped: --max-events reached";
      break;
  }
  return `${text} (${figures})`;
}

/** A partial board: Q for a queen, . for an empty square, rows without a queen left empty. */
function partialBoard(columns: Int32Array): string {
  const n = columns.length;
  return Array.from(columns, (c) => Array.from({ length: n }, (_, j) => (j === c ? "Q" : ".")).join(" ")).join("\n");
}

program
  .command("trace")
  .description("follow one search step by step (backtrack, las-vegas, hybrid, hill-climb): every queen placed, backtrack, failed try and swap")
  .argument("<N>", "board size (1 to 32)", number("N"))
  .addOption(new Option("--method <M>", "the search to follow").choices(TRACE_METHODS).default("backtrack"))
  .option("--seed <S>", "u32 seed for randomized methods (default 1; 'random' for a fresh one)")
  .option("--stop-vegas <K>", "hybrid: rows placed at random before backtracking", number("--stop-vegas"))
  .option("--max-events <E>", "stop after E events", number("--max-events"))
  .option("--moves", "hill climbing: leave out the swaps evaluated but not taken")
  .option("--board", "draw the board after each event")
  .option("--json", "print one JSON object per event (JSON Lines)")
  .action((n: number, opts: { method: TraceMethod; seed?: string; stopVegas?: number; maxEvents?: number; moves?: boolean; board?: boolean; json?: boolean }) => {
    const events = trace(n, {
      method: opts.method, seed: seedOption(opts.seed), stopVegas: opts.stopVegas, maxEvents: opts.maxEvents,
    });
    for (const e of events) {
      if (opts.moves && e.kind === "evaluate" && !e.taken) continue;
      if (opts.json) { out(toJson(e)); continue; }
      out(describeEvent(e));
      if (opts.board) out(partialBoard(e.columns) + "\n");
    }
  });

/** A --seed value: a number, 'random', or undefined (the API's default). */
function seedOption(text: string | undefined): number | "random" | undefined {
  return text === undefined || text === "random" ? text : number("--seed")(text);
}

/** A number for a table cell: fixed decimals, '-' where undefined (NaN), 'inf' for Infinity. */
function cell(value: number, digits: number): string {
  if (Number.isNaN(value)) return "-";
  if (!Number.isFinite(value)) return "inf";
  return value.toFixed(digits);
}

program
  .command("estimate")
  .description("Knuth's random-probe estimate of the backtracking tree's size (1 <= N <= 32)")
  .argument("<N>", "board size", number("N"))
  .option("--samples <K>", "random probes (default 10000)", number("--samples"))
  .option("--seed <S>", "u32 seed (default 1; 'random' for a fresh one)")
  .addOption(engineOption())
  .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
  .option("--json", "print one JSON object")
  .action(async (n: number, opts: { samples?: number; seed?: string; engine: "wasm" | "ts"; timeout?: number; json?: boolean }) => {
    const bar = progressBar("estimate {n} |{bar}| {percentage}% | {value}/{total} probes | ETA {eta_formatted}");
    let started = false;
    const result = await estimate(n, {
      samples: opts.samples,
      seed: seedOption(opts.seed),
      engine: opts.engine,
      timeoutMs: opts.timeout,
      signal: interruptSignal(),
      onProgress: (p) => {
        if (!bar || p.elapsedMs < 500) return;
        if (!started) { bar.start(p.samples, 0, { n }); started = true; }
        bar.update(p.samplesDone);
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

program
  .command("tree")
  .description("the exact size of the backtracking tree, depth by depth (1 <= N <= 17)")
  .argument("<N>", "board size", number("N"))
  .addOption(engineOption())
  .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
  .option("--json", "print one JSON object")
  .action(async (n: number, opts: { engine: "wasm" | "ts"; timeout?: number; json?: boolean }) => {
    const bar = progressBar("tree {n} |{bar}| {percentage}% | {value}/{total} subtrees | ETA {eta_formatted}");
    let started = false;
    const result = await treeSize(n, {
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
    out(`n = ${n}: ${result.total} nodes in the backtracking tree (the empty board and every consistent partial placement)`);
    out("depth   nodes");
    result.perLevel.forEach((value, k) => out(`${String(k).padStart(5)}   ${value}`));
    out(`${result.ms.toFixed(1)} ms, engine ${result.engine}`);
  });

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

program
  .command("lv-stats")
  .description("what one try of the hybrid (Las Vegas + backtracking) method costs: p, s, e, t")
  .argument("<N>", "board size", number("N"))
  .addOption(new Option("--stop-vegas <K>", "rows placed at random (default 8, or N - 15 when N > 15)").argParser(number("--stop-vegas")))
  .addOption(new Option("--table", "every stopVegas from 0 to N").conflicts("stopVegas"))
  .option("--trials <T>", "Monte Carlo tries (default 10000)", number("--trials"))
  .addOption(new Option("--exact", "exact numbers by walking every random choice (N <= 14)").conflicts(["trials", "seed"]))
  .option("--seed <S>", "u32 seed of the Monte Carlo tries (default 1; 'random' for a fresh one)")
  .addOption(engineOption())
  .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
  .option("--json", "print one JSON object")
  .action(async (n: number, opts: LvStatsCliOptions) => {
    const bar = progressBar("lv-stats {n} |{bar}| {percentage}% | stopVegas {stopVegas} | ETA {eta_formatted}");
    let started = false;
    const common = {
      ...(opts.exact ? { exact: true } : { trials: opts.trials, seed: seedOption(opts.seed) }),
      engine: opts.engine,
      timeoutMs: opts.timeout,
      signal: interruptSignal(),
      onProgress: (p: LasVegasProgress) => {
        if (!bar || p.elapsedMs < 500) return;
        if (!started) { bar.start(1000, 0, { n, stopVegas: p.stopVegas }); started = true; }
        const fraction = (p.rowsDone + (p.total > 0 ? p.done / p.total : 1)) / p.rowsTotal;
        bar.update(Math.min(1000, Math.round(1000 * fraction)), { stopVegas: p.stopVegas });
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

type CrossCheckCliOptions = { kernels?: string[]; quick?: boolean; thorough?: boolean; budget?: number; json?: boolean };

program
  .command("crosscheck")
  .description("run every kernel on both engines over a sweep; exit 0 only if they agree bit for bit")
  .option("--kernels <names...>", `kernels to check (default all: ${KERNEL_NAMES.join(", ")})`)
  .addOption(new Option("--quick", "a small sweep (under 2 s)").conflicts("thorough"))
  .option("--thorough", "a large sweep (about a minute)")
  .option("--budget <ms>", "stop starting new cases after this many milliseconds", number("--budget"))
  .option("--json", "print the report as one JSON object")
  .action(async (opts: CrossCheckCliOptions) => {
    for (const k of opts.kernels ?? []) {
      if (!KERNEL_NAMES.includes(k)) throw new UsageError(`unknown kernel ${JSON.stringify(k)} (known: ${KERNEL_NAMES.join(", ")})`);
    }
    const budgetMs = opts.budget ?? (opts.quick ? 2_000 : opts.thorough ? 60_000 : 10_000);
    const bar = progressBar("crosscheck | {kernel} | {value}/{total} cases | {duration_formatted}");
    let current = "";
    const report = await crossCheck({
      kernels: opts.kernels,
      budgetMs,
      thorough: opts.thorough,
      sizes: opts.quick ? [1, 2, 3, 4, 5, 6, 8, 10, 12, 20, 50, 1000] : undefined,
      seeds: opts.quick ? [1, 2] : opts.thorough ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : undefined,
      onProgress: (p) => {
        if (!bar) return;
        if (p.kernel !== current) { bar.stop(); bar.start(p.casesTotal, 0, { kernel: p.kernel }); current = p.kernel; }
        bar.update(p.casesDone, { kernel: p.kernel });
      },
    }).finally(() => bar?.stop());
    const { table, problems, exitCode } = describeReport(report);
    out(opts.json ? toJson(report) : table);
    for (const line of problems) process.stderr.write(`nqueens: ${line}\n`);
    process.exitCode = exitCode;
  });

type WorkerCliOptions = { queue: string; queueName?: string; concurrency?: number; prefetch?: number; lockDuration?: number; stalledInterval?: number; quiet?: boolean; gpu?: boolean };

program
  .command("worker")
  .description("count parts for `nqueens count N --queue URL` runs, until stopped (SIGINT/SIGTERM finish the parts in hand; a second one hands them back and exits 130)")
  .requiredOption("--queue <URL>", "Redis holding the runs (redis://HOST:PORT)")
  .option("--queue-name <NAME>", "work on this queue only (default: every unfinished run)")
  .option("--concurrency <C>", "parts counted at once, each on a thread (default: the cores available)", number("--concurrency"))
  .option("--prefetch <P>", "parts taken ahead of the threads, so a thread never waits for Redis (default 1)", number("--prefetch"))
  .option("--lock-duration <ms>", "lock on a part in hand; a dead worker's part is retried after it (default 30000)", number("--lock-duration"))
  .option("--stalled-interval <ms>", "how often to look for parts of dead workers (default 30000)", number("--stalled-interval"))
  .option("--quiet", "print nothing but errors")
  .option("--gpu", "count the parts on this machine's GPU, one at a time (docs/gpu.md); a part whose device is lost is counted again on the CPU")
  .action(async (opts: WorkerCliOptions) => {
    const { startWorker } = await import("../distributed/index.js");
    const log = (line: string): void => { if (!opts.quiet) process.stderr.write(`nqueens worker: ${line}\n`); };
    // Signals are taken from the start: one that comes while the worker connects stops it as
    // soon as it is up, handing back any part it took meanwhile; a second one exits at once.
    let signals = 0;
    let onSignal = (): void => {
      signals++;
      if (signals > 1) process.exit(EXIT_INTERRUPTED);
      log("stopping as soon as the worker is up (signal again to exit now)");
    };
    const signalled = (): void => onSignal();
    process.on("SIGINT", signalled);
    process.on("SIGTERM", signalled);
    const worker = await startWorker({
      connection: opts.queue, queue: opts.queueName, concurrency: opts.concurrency, prefetch: opts.prefetch,
      lockDuration: opts.lockDuration, stalledInterval: opts.stalledInterval, gpu: opts.gpu,
      onEvent: (e) => {
        if (e.type === "joined") log(`working on ${e.queue}`);
        else if (e.type === "left") log(`left ${e.queue} (${e.reason === "unlisted" ? "no longer listed in nqueens:runs" : e.reason})`);
        else if (e.type === "error") process.stderr.write(`nqueens worker: ${e.queue ? `${e.queue}: ` : ""}${e.message}\n`);
      },
    });
    if (opts.gpu) {
      const info = await gpuInfo();
      log(`counting on the GPU: ${[info.vendor, info.architecture, info.description].filter(Boolean).join(", ")}${info.fallback ? " (software fallback: slow)" : ""}`);
    }
    log(`ready (pid ${process.pid})`);
    await new Promise<void>((resolve) => {
      let stopping = false;
      const stop = (): void => {
        if (stopping) {
          // Forced: stop counting, hand the parts in hand back to the queue (if Redis is gone,
          // their locks run out and another worker's stalled-job check does it) and exit now.
          log("stopping now: the parts in hand go back to the queue");
          const exit = (): never => process.exit(EXIT_INTERRUPTED);
          setTimeout(exit, 2000).unref();
          void worker.close(true).finally(exit);
          return;
        }
        stopping = true;
        log("stopping: finishing the parts in hand (signal again to stop at once)");
        void worker.close().finally(resolve);
      };
      onSignal = stop;
      if (signals > 0) {
        // A signal came while the worker was starting: it may already hold parts of open runs,
        // which go back to the queue rather than being counted to the end.
        stopping = true;
        log("stopping: handing back the parts taken while starting");
        void worker.close(true).finally(resolve);
      }
    });
    log(`stopped after ${worker.counted} parts`);
  });

program
  .command("runs")
  .description("list the `nqueens count N --queue URL` runs held in Redis, or remove one (--remove NAME)")
  .requiredOption("--queue <URL>", "Redis holding the runs (redis://HOST:PORT)")
  .option("--remove <NAME>", "delete this run's queue, jobs and results (stop its coordinator first)")
  .option("--json", "print one JSON object")
  .action(async (opts: { queue: string; remove?: string; json?: boolean }) => {
    const { listRuns, removeRun } = await import("../distributed/index.js");
    const runs = await listRuns({ connection: opts.queue });
    if (opts.remove !== undefined) {
      const run = runs.find((r) => r.queue === opts.remove);
      if (!run) {
        throw new UsageError(`no run named ${JSON.stringify(opts.remove)} in Redis at ${opts.queue}${runs.length ? ` (runs: ${runs.map((r) => r.queue).join(", ")})` : " (it holds no runs)"}`);
      }
      await removeRun(run.queue, { connection: opts.queue });
      if (opts.json) return out(toJson({ removed: run.queue }));
      return out(`removed ${run.queue} (n = ${run.n}, ${run.done}/${run.parts} parts done)`);
    }
    if (opts.json) return out(toJson({ runs }));
    if (runs.length === 0) return out("no runs");
    const rows = runs.map((r) => [
      r.queue, String(r.n), `${r.done}/${r.parts}`, String(r.active), String(r.waiting), String(r.failed), String(r.workers),
      r.unreadable !== undefined ? "unreadable" : r.total !== undefined ? "finished" : r.done >= r.parts ? "counted" : r.open ? "counting" : "stopped",
      r.total !== undefined ? `${r.total} (${r.unique} unique)` : "-",
    ]);
    const head = ["queue", "n", "done", "active", "waiting", "failed", "workers", "state", "total"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
    const line = (cells: string[]): string => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
    out(line(head));
    for (const row of rows) out(line(row));
    for (const r of runs) if (r.unreadable !== undefined) process.stderr.write(`nqueens: run ${r.queue} is unreadable: ${r.unreadable}\n`);
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
    if (error instanceof Error && ["NQ_TIMEOUT", "NQ_QUEUE_UNREACHABLE", "NQ_QUEUE_PART_FAILED", "NQ_ENGINE_UNAVAILABLE", "NQ_DEVICE_LOST"].includes((error as { code?: string }).code ?? "")) {
      process.stderr.write(`nqueens: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

main().then((code) => {
  process.exitCode = code;
});
