// The CLI's progress bars (stderr, only on a terminal).
import cliProgress from "cli-progress";

/** A progress bar on stderr, only when stderr is a terminal. */
export function progressBar(format: string): cliProgress.SingleBar | undefined {
  if (!process.stderr.isTTY) return undefined;
  return new cliProgress.SingleBar(
    { format, stream: process.stderr, hideCursor: true, clearOnComplete: true, etaBuffer: 50 },
    cliProgress.Presets.shades_classic,
  );
}
