// nqueens runs: the queue runs Redis holds; --remove deletes one.
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import { out, toJson, err, inline } from "../output.js";
import { queueConnection } from "../options.js";
import { plural } from "../progress.js";
import type { RunInfo } from "../../distributed/runs.js";

export function runsCommand(program: Command): void {
  program
    .command("runs")
    .description("list the `nqueens count N --queue URL` and `nqueens solve N --queue URL` runs held in Redis, or remove one (--remove NAME)")
    .requiredOption("--queue <URL>", "Redis holding the runs (redis://HOST:PORT)")
    .option("--remove <NAME>", "delete this run's queue, jobs and results (stop its coordinator first)")
    .option("--key-file <FILE>", "the cluster key (default: NQUEENS_KEY): each run's record is verified under it, and a record that does not verify shows no total")
    .option("--json", "print one JSON object")
    .action(async (opts: { queue: string; remove?: string; json?: boolean; keyFile?: string }) => {
      const { listRuns, removeRun } = await import("../../distributed/index.js");
      const connection = queueConnection(opts.queue);
      const runs = await listRuns({ connection, ...(opts.keyFile !== undefined ? { keyFile: opts.keyFile } : {}) });
      if (opts.remove !== undefined) {
        const run = runs.find((r) => r.queue === opts.remove);
        if (!run) {
          throw new UsageError(`no run named ${JSON.stringify(opts.remove)} in Redis at ${opts.queue}${runs.length ? ` (runs: ${runs.map((r) => inline(r.queue)).join(", ")})` : " (it holds no runs)"}`);
        }
        await removeRun(run.queue, { connection });
        if (opts.json) return out(toJson({ removed: run.queue }));
        return out(`removed ${inline(run.queue)} (n = ${run.n}, ${run.kind === "solve" ? `a solve, ${run.done}/${plural(run.parts, "task")} decided` : `${run.done}/${run.parts} parts done`})`);
      }
      if (opts.json) return out(toJson({ runs }));
      if (runs.length === 0) return out("no runs");
      // A solve's row: its tasks decided of its tasks, searching / solved / no solution, and its verdict.
      const state = (r: RunInfo): string => r.unreadable !== undefined ? "unreadable" : r.verified === false ? "unverified"
        : r.kind === "solve" ? (r.found !== undefined ? (r.found ? "solved" : "no solution") : r.open ? "searching" : "stopped")
        : r.total !== undefined ? "finished" : r.done >= r.parts ? "counted" : r.open ? "counting" : "stopped";
      const answer = (r: RunInfo): string => r.kind === "solve" ? (r.found === undefined ? "-" : r.found ? `a solution (board ${r.board ?? "?"})` : `none (board ${r.board ?? "?"})`)
        : r.total !== undefined ? (r.unique === null ? `${r.total} (board ${r.board ?? "?"})` : `${r.total} (${r.unique} unique)`) : "-";
      const rows = runs.map((r) => [
        r.queue, String(r.n), r.kind === "solve" ? `${r.done}/${r.parts} tasks` : `${r.done}/${r.parts}`, String(r.active), String(r.waiting), String(r.failed), String(r.workers),
        state(r), r.verified === null ? "no key" : r.verified ? "yes" : "NO", answer(r),
      ].map(inline)); // every cell may hold text from Redis
      const head = ["queue", "n", "done", "active", "waiting", "failed", "workers", "state", "verified", "total"];
      const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
      const line = (cells: string[]): string => cells.map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
      out(line(head));
      for (const row of rows) out(line(row));
      for (const r of runs) if (r.unreadable !== undefined) err(`nqueens: run ${inline(r.queue)} is unreadable: ${inline(r.unreadable)}\n`);
      for (const r of runs) if (r.verified === false) err(`nqueens: run ${inline(r.queue)}: its record does not verify under this key (changed in Redis, or made under another key or none): its total is not shown\n`);
      if (runs.some((r) => r.verified === null)) err("nqueens: no key (--key-file, NQUEENS_KEY): the records are not verified; anyone who can write to this Redis can have written them\n");
    });
}
