// nqueens count N: count(), countParallel() with --workers, countDistributed() with --queue.
import type { Command } from "commander";
import { count } from "../../count/count.js";
import type { ParallelResult } from "../../workers/parallel.js";
import { gpuInfo } from "../../engine/webgpu/device.js";
import { ENGINE_NAMES } from "../../engine/select.js";
import { engineCan } from "../../engine/contract.js";
import { InterruptedError, RuntimeError, UsageError } from "../errors.js";
import { checkWritableFile, choiceOption, defaultEngine, interruptSignal, number, sizedEngineOption, withTimeout, workersOption, queueConnection } from "../options.js";
import { out, toJson, err, inline } from "../output.js";
import { duration, etaText, plural, progressBar } from "../progress.js";
import { givensOptions, hasGivens, readGivens, type GivensCliOptions } from "../givens.js";
import { LONG_COUNT_MS, constrainedForecast, plainForecast } from "../forecast.js";
import { NO_KEY_HINT } from "../../distributed/auth.js";
import { lengthText } from "../../distributed/plan.js";
import { CONSTRAINED_MAX_N } from "../../count/constrained.js";

type CountCliOptions = { engine?: "wasm" | "ts" | "webgpu"; timeout?: number; workers?: number; parts?: number; checkpoint?: string; restart?: boolean; keyFile?: string; json?: boolean; queue?: string; queueName?: string } & GivensCliOptions;
type QueueCliOptions = { audit?: number; replicas?: number; identities?: "allowed" | "required"; revoked?: string[]; unauthenticated?: boolean; partsPerJob?: number };

/** A repeated --revoked adds its names to the earlier ones' (`--revoked a --revoked b,c` is a, b and c). */
const collectNames = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(",").map((name) => name.trim())];

// About 140 lines: the command's options (commander's declarations, one a line) and its one
// action, which picks the path (one thread, threads, the queue) and says what it does.
export function countCommand(program: Command): void {
  const command = program
    .command("count")
    .description(`count all solutions and the solutions distinct under symmetry (1 <= N <= 32; with given queens or blocked squares N <= ${CONSTRAINED_MAX_N}, total only)`)
    .argument("[N]", "board size (or from --board FILE)", number("n"))
    .addOption(sizedEngineOption("count", [...ENGINE_NAMES, "webgpu"], "engine (webgpu: this machine's GPU, docs/gpu.md; with --workers W the GPU is one of the W, the others CPU threads)"))
    .option("--workers <W>", "count on W worker threads, or 'auto' for one per core (default: one thread, no workers)", workersOption)
    .option("--parts <P>", "with --workers or --queue: how many parts to split the count into (default: splitCount's; with --queue fewer from N = 11 to 17, 32 at N = 16, see defaultQueueParts; with givens 64, --queue at most 4096)", number("--parts"))
    .option("--checkpoint <FILE>", "with --workers: record finished parts in FILE and resume from it (checked before the count starts)")
    .option("--restart", "with --checkpoint: ignore what FILE holds (even a file refused as corrupt), count from the start and overwrite it")
    .option("--key-file <FILE>", "with --checkpoint: the key its HMAC is made and checked under (default: NQUEENS_KEY, else ~/.config/nqueens/key, made at first use)")
    .option("--queue <URL>", "count on `nqueens worker` processes through Redis (redis://HOST:PORT); run again to resume")
    .option("--queue-name <NAME>", "with --queue: the queue's name (default: from N, the parts, the split version and, with givens, the board's digest)")
    .option("--audit <FRACTION>", "with --queue: the share of each worker's results the coordinator recounts itself, drawn at random, 0 to 1 (default 0.03; besides, each worker's least plausible result and any far from the coordinator's estimate; 0: no audit)", number("--audit"))
    .option("--replicas <R>", "with --queue: 2 has every part counted by two different workers, a disagreement settled by the coordinator's own count (default 1)", number("--replicas"))
    .option("--parts-per-job <K>", "with --queue: consecutive parts each job holds (default 1 up to 16,384 parts, else enough for 16,384 jobs; each part still checked and audited alone)", number("--parts-per-job"))
    .addOption(choiceOption("--identities <allowed|required>", "with --queue: required takes only results signed by worker identities (`nqueens key --worker NAME`), so replicas and the audit count proven identities (default allowed: the cluster key's too)", ["allowed", "required"]))
    .option("--revoked <NAME,...>", "with --queue: worker identities whose results are never taken (the coordinator counts their parts itself); repeated, the names add up", collectNames)
    .option("--unauthenticated", "with --queue: run without a cluster key, as asked (anyone who can write to this Redis can change the answer)")
    .option("--timeout <ms>", "give up after this many milliseconds", number("--timeout"))
    .option("--json", "print one JSON object");
  givensOptions(command)
    .action(async (nArgument: number | undefined, opts: CountCliOptions, command: Command) => {
      const givens = await readGivens(nArgument, opts);
      const n = givens.n;
      const engine = opts.engine ?? defaultEngine("count", n, { givens: hasGivens(givens), workers: opts.workers, queue: opts.queue });
      if (opts.restart && opts.checkpoint === undefined) {
        throw new UsageError("--restart starts a checkpointed count over: it applies with --workers W --checkpoint FILE");
      }
      // --parts and --checkpoint belong to a count on workers: without --workers or --queue
      // they are refused rather than silently switching to worker threads.
      if (opts.queue === undefined && opts.workers === undefined) {
        const orphan = opts.checkpoint !== undefined ? "--checkpoint" : opts.parts !== undefined ? "--parts" : undefined;
        if (orphan) throw new UsageError(`${orphan} applies to a count on workers: add --workers W (worker threads) or --queue URL (Redis workers)`);
      }
      if (opts.keyFile !== undefined && opts.checkpoint === undefined && opts.queue === undefined) {
        throw new UsageError("--key-file applies to a checkpoint (--workers W --checkpoint FILE) or a queue (--queue URL)");
      }
      const queueOpts = opts as CountCliOptions & QueueCliOptions;
      if (opts.queue === undefined) {
        const given = (["audit", "replicas", "identities", "revoked", "unauthenticated", "partsPerJob"] as const).find((name) => queueOpts[name] !== undefined);
        if (given) throw new UsageError(`--${given === "partsPerJob" ? "parts-per-job" : given} applies to a count on Redis workers: add --queue URL`);
      }
      if (queueOpts.unauthenticated && opts.keyFile !== undefined) throw new UsageError("--unauthenticated runs the count without a key: it does not go with --key-file");
      if (opts.checkpoint !== undefined) checkWritableFile("--checkpoint", opts.checkpoint);
      // The checkpoint's key: --key-file, else NQUEENS_KEY, else the local key, made at first use (said once, here).
      let key: Uint8Array | undefined;
      if (opts.checkpoint !== undefined && opts.queue === undefined) {
        // A device, FIFO or directory (or a link to one) is bad input: refused before a key is made or a thread starts.
        const { checkpointKey, checkpointTarget } = await import("../../count/checkpoint.js");
        await checkpointTarget(opts.checkpoint).catch((error: unknown) => { throw new UsageError((error as Error).message); });
        const resolved = checkpointKey({ keyFile: opts.keyFile });
        if (resolved.created) err(`nqueens: created a key for checkpoints at ${resolved.created} (mode 0600); keep it to resume them\n`);
        key = resolved.key;
      }
      const interrupt = interruptSignal();
      const signal = withTimeout(interrupt, opts.timeout);
      let last = { tasksDone: 0, tasksTotal: 0 };
      const bar = await progressBar("count");
      let started = false;
      // A constrained count on this thread: Knuth's estimate gives its ETA, and a long one says so at
      // once. Made at the first report past 500 ms, where both are first needed: its 300 probes
      // (10 to 45 ms of a short count's process at n = 8 to 10) are never made for a count done sooner.
      const wantsForecast = hasGivens(givens) && opts.queue === undefined && opts.workers === undefined;
      let forecast: ReturnType<typeof constrainedForecast> | null = null; // null: not made yet
      let forecastSaid = false;
      // A plain count on the Wasm engine (one thread or worker threads): the time model says a long one at once,
      // and gives the bar an ETA until the count's own tasks give one (at n = 24 a task takes about half an hour).
      const threads = opts.workers ?? 1;
      const plain = !hasGivens(givens) && opts.queue === undefined && engine === "wasm" && Number.isInteger(n) && n >= 4 && n <= 32 && Number.isInteger(threads) && threads >= 1 ? plainForecast(n, threads) : undefined;
      // (Not said where --timeout ends the count within the minute anyway.)
      if (plain?.notice && !(opts.timeout !== undefined && opts.timeout < LONG_COUNT_MS)) err(`nqueens: ${plain.notice}\n`);
      const tick = (p: { phase?: string; tasksDone: number; tasksTotal: number; tasksResumed?: number; elapsedMs: number; workers?: number; etaMs?: number; nodes?: bigint }): void => {
        if (p.phase === "split") return; // (its figures are parts made, not parts counted or saved)
        last = p;
        if (p.elapsedMs < 500) return;
        if (forecast === null) forecast = wantsForecast ? constrainedForecast(n, { fixed: givens.fixed, blocked: givens.blocked }) : undefined;
        const knuthEta = forecast && p.nodes !== undefined ? forecast.etaMs(p.nodes, p.elapsedMs)
          : plain && p.tasksDone === (p.tasksResumed ?? 0) ? plain.etaMs(p.tasksDone, p.tasksTotal, p.elapsedMs) : undefined;
        if (forecast && !forecastSaid && p.nodes !== undefined) {
          forecastSaid = true;
          const notice = forecast.notice(p.nodes, p.elapsedMs);
          if (notice) err(`nqueens: ${notice}\n`);
        }
        if (!bar) return;
        const payload = {
          n, workers: p.workers === undefined ? "" : `${plural(p.workers, "worker")} | `,
          unit: opts.workers !== undefined || opts.queue !== undefined ? "parts" : "tasks",
          elapsed: duration(p.elapsedMs),
          etaText: etaText(p.tasksDone, p.tasksTotal, p.elapsedMs, p.etaMs ?? knuthEta, p.tasksResumed),
        };
        if (!started) { bar.start(p.tasksTotal, p.tasksDone, payload); started = true; }
        bar.update(p.tasksDone, payload);
      };
      if (opts.queue !== undefined) {
        if (opts.workers !== undefined || opts.checkpoint !== undefined) throw new UsageError("--queue counts on `nqueens worker` processes: it takes no --workers or --checkpoint");
        if (command.getOptionValueSource("engine") === "cli" && opts.engine !== "wasm") {
          throw new UsageError(`--engine ${opts.engine} does not apply with --queue: the workers count on the Wasm engine`);
        }
        const { countDistributed } = await import("../../distributed/index.js");
        const r = await countDistributed(n, {
          connection: queueConnection(opts.queue), parts: opts.parts, queue: opts.queueName, signal, onProgress: tick, fixed: givens.fixed, blocked: givens.blocked,
          ...(opts.keyFile !== undefined ? { keyFile: opts.keyFile } : {}), // the cluster key (never silently dropped: an API without it refuses the option)
          audit: queueOpts.audit, replicas: queueOpts.replicas, identities: queueOpts.identities, revoked: queueOpts.revoked, partsPerJob: queueOpts.partsPerJob,
          ...(queueOpts.unauthenticated ? { unauthenticated: true } : {}),
          onPlan: (plan) => {
            // From n = 18 a run is long: say how it is cut and about how long it should take.
            if (n < 18) return;
            const on = plan.threads > 0 ? `on the ${plural(plan.threads, "worker thread")} seen now` : "on one thread (no worker seen yet)";
            err(`nqueens: n = ${n}: ${plural(plan.parts, "part")}${plan.from === "resumed" ? " (the run already in Redis)" : ""} of about ${lengthText(plan.partSeconds)} each on one thread; about ${lengthText(plan.runSeconds)} ${on} (an estimate)\n`);
          },
          onNotice: (message) => { bar?.stop(); started = false; err(`nqueens: ${inline(message)}\n`); },
        }).catch((error: unknown) => {
          const kept = `the run stays in Redis (${last.tasksDone} of ${last.tasksTotal || "?"} parts done): run the same command again to resume`;
          if (interrupt.aborted) throw new InterruptedError(`interrupted; ${kept}`);
          if (signal.aborted) throw new RuntimeError(`count ${n} did not finish within --timeout ${opts.timeout} ms; ${kept}`);
          throw error;
        }).finally(() => bar?.stop());
        if (!r.authenticated) err(`nqueens: ${NO_KEY_HINT}\n`);
        if (opts.json) return out(toJson(r));
        if (r.unique === null) out(`n = ${r.n}: ${plural(r.total, "solution")} with the given queens and blocked squares (no count up to symmetry: they break it)`);
        else out(`n = ${r.n}: ${plural(r.total, "solution")}, ${r.unique} unique (up to rotation and reflection)`);
        out(`${plural(r.nodes, "queen")} placed, ${r.ms.toFixed(1)} ms, engine ${r.engine}, queue ${inline(r.queue)}, ${plural(r.parts, "part")}${r.partsPerJob > 1 ? ` in jobs of ${r.partsPerJob}` : ""} (${r.resumed} finished before this run)`);
        out(`${r.authenticated ? "authenticated" : "not authenticated (no key)"}, ${plural(r.audited, "part")} recounted by the coordinator, ${plural(r.mismatches, "mismatch", "mismatches")}${r.suspects.length ? `; suspect workers (every result recounted): ${r.suspects.map(inline).join(", ")}` : ""}${r.replicas > 1 ? `, ${r.replicas} replicas` : ""}`);
        return;
      }
      const parallel = opts.workers !== undefined;
      if (engine === "webgpu") {
        if (parallel && hasGivens(givens) && !engineCan("webgpu", "constrained")) throw new UsageError("--engine webgpu counts plain boards only: count given queens or blocked squares with --engine wasm");
        const gpu = await gpuInfo();
        err(`GPU: ${[gpu.vendor, gpu.architecture, gpu.description].filter(Boolean).join(", ")}${gpu.fallback ? " (software fallback: slow)" : ""}\n`);
      }
      // The threads' module (with the counting thread's source) is loaded only for --workers.
      const result = await (parallel
        ? (await import("../../workers/parallel.js")).countParallel(n, { engine, workers: opts.workers, parts: opts.parts, checkpoint: opts.checkpoint, restart: opts.restart, key, onProgress: tick, signal, fixed: givens.fixed, blocked: givens.blocked })
        : count(n, { engine, timeoutMs: opts.timeout, signal: interrupt, onProgress: tick, fixed: givens.fixed, blocked: givens.blocked })
      ).catch((error: unknown) => {
        const kept = opts.checkpoint === undefined ? "" : `; ${last.tasksDone} of ${last.tasksTotal || "?"} parts are saved in the checkpoint ${opts.checkpoint}: run the same command again to resume`;
        if (interrupt.aborted && kept) throw new InterruptedError(`interrupted${kept}`);
        if (parallel && signal.aborted && !interrupt.aborted) throw new RuntimeError(`count ${n} did not finish within --timeout ${opts.timeout} ms${kept}`);
        throw error;
      }).finally(() => bar?.stop());
      if (opts.json) return out(toJson(result));
      if (result.unique === null) out(`n = ${result.n}: ${plural(result.total, "solution")} with the given queens and blocked squares (no count up to symmetry: they break it)`);
      else out(`n = ${result.n}: ${plural(result.total, "solution")}, ${result.unique} unique (up to rotation and reflection)`);
      const pool = parallel ? (result as ParallelResult) : undefined;
      if (pool && pool.parts > 0 && pool.resumed === pool.parts) {
        // Nothing was counted in this run: no engine or thread to name.
        out(`${plural(result.nodes, "queen")} placed, ${result.ms.toFixed(1)} ms, ${plural(pool.parts, "part")}, all from the checkpoint ${opts.checkpoint} (nothing left to count)`);
        return;
      }
      const notes = [...(pool?.resumed ? [`${pool.resumed} from the checkpoint`] : []), ...(pool?.gpuParts === undefined ? [] : [`${pool.gpuParts} counted on the GPU`])];
      const how = pool ? `, ${plural(pool.workers, "worker")}, ${plural(pool.parts, "part")}${notes.length ? ` (${notes.join(", ")})` : ""}` : "";
      out(`${plural(result.nodes, "queen")} placed, ${result.ms.toFixed(1)} ms, engine ${result.engine}${how}`);
    });
}
