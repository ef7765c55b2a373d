// nqueens count N: count(), countParallel() with --workers, countDistributed() with --queue.
import type { Command } from "commander";
import { count, countParallel, type ParallelResult } from "../../index.js";
import { UsageError } from "../errors.js";
import { engineOption, interruptSignal, number } from "../options.js";
import { out, toJson } from "../output.js";
import { progressBar } from "../progress.js";

type CountCliOptions = { engine: "wasm" | "ts"; timeout?: number; workers?: number; parts?: number; checkpoint?: string; json?: boolean; queue?: string; queueName?: string };

export function countCommand(program: Command): void {
  program
    .command("count")
    .description("count all solutions and the solutions distinct under symmetry (1 <= N <= 32)")
    .argument("<N>", "board size", number("N"))
    .addOption(engineOption())
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
        const { countDistributed } = await import("../../distributed/index.js");
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
      const result = await (parallel
        ? countParallel(n, {
          engine: opts.engine, workers: opts.workers, parts: opts.parts, checkpoint: opts.checkpoint, onProgress: tick,
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
}
