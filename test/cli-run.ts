// Runs the built `nqueens` command as a user does: a fresh Node process on dist/cli.js.
import { spawn } from "node:child_process";

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/**
 * `killAfterMs`: send `signal` (SIGINT, Ctrl-C) that long after the start; `killOn`: send it once
 * stderr matches, which a busy machine cannot make come too early (a line the CLI writes once its
 * Ctrl-C handler is set); `killWhen`: send it once this returns true (asked every 50 ms), such as
 * once a checkpoint file the command writes exists.
 */
export function runCli(args: string[], options: { killAfterMs?: number; killOn?: RegExp; killWhen?: () => boolean; signal?: NodeJS.Signals; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["dist/cli.js", ...args], { stdio: ["ignore", "pipe", "pipe"], env: options.env ?? process.env });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    let sent = false;
    child.stderr.on("data", (d) => {
      stderr += d;
      if (options.killOn && !sent && options.killOn.test(stderr)) { sent = true; child.kill(options.signal ?? "SIGINT"); }
    });
    if (options.killAfterMs !== undefined) setTimeout(() => child.kill(options.signal ?? "SIGINT"), options.killAfterMs);
    const poll = options.killWhen && setInterval(() => {
      if (!sent && options.killWhen!()) { sent = true; child.kill(options.signal ?? "SIGINT"); }
    }, 50);
    child.on("close", (code, signal) => { if (poll) clearInterval(poll); resolve({ code, signal, stdout, stderr }); });
  });
}

