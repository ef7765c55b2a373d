// nqueens worker: counts parts of queue runs, and searches the tasks of queue solves, until stopped.
import type { Command } from "commander";
import { EXIT_INTERRUPTED, UsageError } from "../errors.js";
import { choiceOption, number, queueConnection } from "../options.js";
import { plural } from "../progress.js";
import { gpuInfo } from "../../engine/webgpu/device.js";
import { NO_KEY_HINT } from "../../distributed/auth.js";
import { err, inline } from "../output.js";

type WorkerCliOptions = { queue: string; queueName?: string; concurrency?: number; prefetch?: number; lockDuration?: number; stalledInterval?: number; grace?: number; quiet?: boolean; engine: "wasm" | "webgpu"; gpu?: boolean; keyFile?: string; name?: string; identityFile?: string; unauthenticated?: boolean };

export function workerCommand(program: Command): void {
  program
    .command("worker")
    .description("count parts for `nqueens count N --queue URL` runs and search tasks for `nqueens solve N --queue URL` ones, until stopped (SIGINT/SIGTERM finish the parts in hand, handing back within --grace ms those not done; a second one hands them back at once and exits 130)")
    .requiredOption("--queue <URL>", "Redis holding the runs (redis://HOST:PORT)")
    .option("--queue-name <NAME>", "work on this queue only (default: every unfinished run)")
    .option("--concurrency <C>", "parts counted at once, each on a thread (default: the cores available)", number("--concurrency"))
    .option("--prefetch <P>", "parts taken ahead of the threads, so a thread never waits for Redis (default 1)", number("--prefetch"))
    .option("--lock-duration <ms>", "lock on a part in hand; a dead worker's part is retried after it (default 30000)", number("--lock-duration"))
    .option("--stalled-interval <ms>", "how often to look for parts of dead workers (default 30000)", number("--stalled-interval"))
    .option("--grace <ms>", "on SIGINT/SIGTERM, how long the parts in hand may take to finish before they go back to the queue (default 1000)", number("--grace"))
    .option("--key-file <FILE>", "the cluster key (default: NQUEENS_KEY): count only runs signed with it, refuse jobs whose MAC does not verify, sign the results")
    .option("--identity-file <FILE>", "this worker's own identity (from `nqueens key --worker NAME`): its results are signed under its own key, and its name is the identity's")
    .option("--name <NAME>", "this worker's name in results and audit reports (default: host name, pid and 4 random hex digits; with --identity-file, the identity's)")
    .option("--unauthenticated", "run without a key or identity (counts only runs made without a key: anyone who can write to this Redis can change their answers)")
    .option("--quiet", "print nothing but errors")
    .addOption(choiceOption("--engine <name>", "wasm: count the parts on CPU threads; webgpu: on this machine's GPU, one at a time, node for node as the CPU counts them (docs/gpu.md); a part whose device is lost is counted again on the CPU, as are the parts of boards with given queens or blocked squares", ["wasm", "webgpu"]).default("wasm"))
    .option("--gpu", "deprecated: --engine webgpu")
    .action(async (opts: WorkerCliOptions) => {
      if (opts.gpu) {
        err("nqueens worker: --gpu is deprecated: use --engine webgpu\n");
        opts.engine = "webgpu";
      }
      if (opts.unauthenticated && (opts.keyFile !== undefined || opts.identityFile !== undefined)) {
        throw new UsageError(`--unauthenticated runs the worker without a key: it does not go with ${opts.keyFile !== undefined ? "--key-file" : "--identity-file"}`);
      }
      const { startWorker } = await import("../../distributed/index.js");
      const log = (line: string): void => { if (!opts.quiet) err(`nqueens worker: ${line}\n`); };
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
        connection: queueConnection(opts.queue), queue: opts.queueName, concurrency: opts.concurrency, prefetch: opts.prefetch,
        lockDuration: opts.lockDuration, stalledInterval: opts.stalledInterval, graceMs: opts.grace, engine: opts.engine,
        ...(opts.keyFile !== undefined ? { keyFile: opts.keyFile } : {}), ...(opts.name !== undefined ? { name: opts.name } : {}),
        ...(opts.identityFile !== undefined ? { identityFile: opts.identityFile } : {}), ...(opts.unauthenticated ? { unauthenticated: true } : {}),
        onEvent: (e) => {
          if (e.type === "joined") log(`working on ${inline(e.queue)}`);
          else if (e.type === "left") log(`left ${inline(e.queue)} (${e.reason === "unlisted" ? "no longer listed in nqueens:runs" : inline(e.reason)})`);
          else if (e.type === "error") err(`nqueens worker: ${e.queue ? `${inline(e.queue)}: ` : ""}${inline(e.message)}\n`);
        },
      });
      if (opts.engine === "webgpu") {
        const info = await gpuInfo();
        log(`counting on the GPU: ${[info.vendor, info.architecture, info.description].filter(Boolean).join(", ")}${info.fallback ? " (software fallback: slow)" : ""}`);
      }
      if (!worker.authenticated) err(`nqueens worker: ${NO_KEY_HINT}\n`);
      log(`ready (pid ${process.pid}, ${opts.identityFile !== undefined ? "identity" : "name"} ${worker.name})`);
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
          log("stopping: finishing the parts in hand, handing back those not done within the grace time (signal again to stop at once)");
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
      log(`stopped after ${plural(worker.counted, "part")}${worker.searched > 0 ? ` and ${plural(worker.searched, "solve job")}` : ""}`);
    });
}
