// Runs the built `nqueens` command as a user does: a fresh Node process on dist/cli.cjs, the
// package's bin (test/startup.test.ts checks that `node dist/cli.js` runs the same program).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { onTestFinished } from "vitest";

type Run = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

const SIGINT_MARKER = join(import.meta.dirname, "fixtures", "sigint-marker.cjs");

/**
 * `killAfterMs`: send `signal` (SIGINT, Ctrl-C) that long after the start; `killOn`: send it once
 * stderr matches, which a busy machine cannot make come too early (a line the CLI writes once its
 * Ctrl-C handler is set); `killWhen`: send it once this returns true (asked every 50 ms), such as
 * once a checkpoint file the command writes exists; `killOnceHandled`: send it that many ms after
 * the program adds its Ctrl-C handler (a preloaded test/fixtures/sigint-marker.cjs says when, on
 * fd 3), so that the long job has begun and no load can make the Ctrl-C come before the handler.
 */
export function runCli(args: string[], options: { killAfterMs?: number; killOn?: RegExp; killWhen?: () => boolean; killOnceHandled?: number; signal?: NodeJS.Signals; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const marked = options.killOnceHandled !== undefined;
    const child = spawn(process.execPath, [...(marked ? ["-r", SIGINT_MARKER] : []), "dist/cli.cjs", ...args],
      { stdio: ["ignore", "pipe", "pipe", ...(marked ? ["pipe" as const] : [])], env: options.env ?? process.env });
    // A test that ends first (its timeout, a failed assertion before the await) leaves no
    // process behind: killed when the test finishes, and waited for. (Outside a test, in a
    // hook, there is no test to finish: the hook's own timeout ends the file's worker.)
    let closed = false;
    try {
      onTestFinished(() => closed ? undefined : new Promise<void>((done) => { child.once("close", () => done()); child.kill("SIGKILL"); }));
    } catch { /* not inside a test */ }
    let stdout = "", stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    let sent = false;
    const kill = (): void => {
      if (!sent) { sent = true; child.kill(options.signal ?? "SIGINT"); }
    };
    child.stderr!.on("data", (d) => {
      stderr += d;
      if (options.killOn && options.killOn.test(stderr)) kill();
    });
    if (marked) {
      const marker = child.stdio[3] as NodeJS.ReadableStream;
      marker.once("data", () => setTimeout(kill, options.killOnceHandled));
      marker.resume();
    }
    if (options.killAfterMs !== undefined) setTimeout(() => child.kill(options.signal ?? "SIGINT"), options.killAfterMs);
    const poll = options.killWhen && setInterval(() => {
      if (options.killWhen!()) kill();
    }, 50);
    child.on("close", (code, signal) => { closed = true; if (poll) clearInterval(poll); resolve({ code, signal, stdout, stderr }); });
  });
}
