// Runs the built `nqueens` command as a user does: a fresh Node process on dist/cli.js.
import { spawn } from "node:child_process";

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

export function runCli(args: string[], options: { killAfterMs?: number; signal?: NodeJS.Signals } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["dist/cli.js", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "", stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    if (options.killAfterMs !== undefined) setTimeout(() => child.kill(options.signal ?? "SIGINT"), options.killAfterMs);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

