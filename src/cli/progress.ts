// The CLI's progress bars (stderr, only on a terminal). cli-progress (and the readline it
// requires) is loaded only when a bar is drawn: a command whose stderr is not a terminal
// never loads it, which keeps it off a short command's start-up.
import { fstatSync } from "node:fs";
import type { SingleBar } from "cli-progress";

/**
 * Every command's bar, in one place. `{etaText}` is ours (etaText below): cli-progress fills
 * `{eta}` itself, overwriting a payload field of that name (so a bar once showed "elapsed0"),
 * hence BAR_OWN_FIELDS, which a test keeps out of these formats but for those we mean.
 */
export const BAR_FORMATS = {
  count: "count {n} |{bar}| {percentage}% | {value}/{total} {unit} | {workers}{elapsed} elapsed{etaText}",
  estimate: "estimate {n} |{bar}| {percentage}% | {value}/{total} probes{etaText}",
  tree: "tree {n} |{bar}| {percentage}% | {value}/{total} subtrees{etaText}",
  lvStats: "lv-stats {n} |{bar}| {percentage}% | stopVegas {stopVegas}{etaText}",
  crosscheck: "crosscheck | {kernel} | {value}/{total} cases | {duration_formatted}",
  solve: "solve {n} | {phase} | {figures}{elapsed}{etaText}",
} as const;

// (count and solve show their own elapsed time, `{elapsed}`, not cli-progress's {duration_formatted}:
// a bar stopped to say a notice above it starts again, and its own clock with it.)

/** The fields cli-progress computes and puts over any payload field of the same name. */
export const BAR_OWN_FIELDS = ["bar", "percentage", "total", "value", "eta", "eta_formatted", "duration", "duration_formatted"] as const;

/**
 * Whether file descriptor `fd` may be a terminal, from one fstat: a file, a pipe or a socket is
 * not, nor a memory device such as /dev/null (major 1 on Linux); anything else may be, and
 * process.stderr says. Asking process.stderr first would build its stream (about 3 ms of a
 * short command's start-up) for a bar that is not drawn.
 */
export function mayBeTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isCharacterDevice() && !(process.platform === "linux" && Math.floor(stat.rdev / 256) % 4096 === 1);
  } catch {
    return true; // not known here: the stream's isTTY decides
  }
}

/** A progress bar on `stream` (stderr), only when it is a terminal (cli-progress is loaded then, not before). */
export async function progressBar(kind: keyof typeof BAR_FORMATS, stream?: NodeJS.WriteStream): Promise<SingleBar | undefined> {
  if (stream === undefined && !mayBeTerminal(2)) return undefined;
  stream ??= process.stderr;
  if (!stream.isTTY) return undefined;
  const { default: cliProgress } = await import("cli-progress");
  return new cliProgress.SingleBar(
    { format: BAR_FORMATS[kind], stream, hideCursor: true, clearOnComplete: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
}

/** "1 worker", "2 workers", "0 tries": a count with its noun in the right number. */
export function plural(count: number | bigint | string, noun: string, nouns = noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`): string {
  return `${count} ${String(count) === "1" ? noun : nouns}`;
}

/** A duration as a bar shows it: 45s, 3m 05s, 2h 07m, 3d 04h, then years (1.2e+3y past 10,000). */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${String(Math.floor(s / 60) % 60).padStart(2, "0")}m`;
  if (s < 365 * 86_400) return `${Math.floor(s / 86_400)}d ${String(Math.floor(s / 3600) % 24).padStart(2, "0")}h`;
  const years = s / (365.25 * 86_400);
  return years < 10_000 ? `${Math.round(years)}y` : `${years.toPrecision(2)}y`;
}

/**
 * The ETA part of a search's bar, where its limits make one known: the soonest of --timeout's
 * end and the time to reach --max-nodes, --max-steps or --max-tries at the rate so far
 * (" | at most 3m 05s left"); empty without a limit. It is a bound: a search may end sooner.
 */
export function limitEtaText(
  p: { nodes: number; tries: number; steps: number; elapsedMs: number },
  limits: { timeoutMs?: number; maxNodes?: number; maxSteps?: number; maxTries?: number },
): string {
  const lefts: number[] = [];
  if (limits.timeoutMs !== undefined) lefts.push(limits.timeoutMs - p.elapsedMs);
  for (const [done, most] of [[p.nodes, limits.maxNodes], [p.steps, limits.maxSteps], [p.tries, limits.maxTries]] as const) {
    if (most !== undefined && done > 0 && Number.isFinite(most)) lefts.push((p.elapsedMs / done) * Math.max(0, most - done));
  }
  const left = lefts.filter(Number.isFinite);
  return left.length === 0 ? "" : ` | at most ${duration(Math.min(...left))} left`;
}

/**
 * The ETA part of a bar: empty until it is known (nothing done yet in this run), then
 * " | ETA 3m 05s". `etaMs`, when the job gives one, wins over the estimate from done/total.
 */
export function etaText(done: number, total: number, elapsedMs: number, etaMs?: number, doneBefore = 0): string {
  const here = done - doneBefore;
  const left = etaMs ?? (here > 0 && total > done ? (elapsedMs / here) * (total - done) : total <= done && here > 0 ? 0 : undefined);
  return left === undefined || !Number.isFinite(left) ? "" : ` | ETA ${duration(left)}`;
}
