// A timer of any length. Node's and the browsers' setTimeout hold at most 2^31 - 1 ms (about
// 24.8 days); a longer delay fires at once (Node warns and takes 1 ms). A timeout the caller
// asked for must fire when asked, so a longer wait is several timers, one after the other.
import { monotonicMs } from "./platform.js";

/** The most one setTimeout can wait. */
export const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fire` once, `ms` milliseconds from now (any length >= 0: past LONGEST_TIMER_MS it
 * waits in several timers, measured on the monotonic clock). Returns what cancels it. With
 * `unref`, the timer never keeps a Node process up (ignored where timers have no unref).
 */
export function afterMs(ms: number, fire: () => void, options: { unref?: boolean } = {}): () => void {
  const end = monotonicMs() + ms;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const arm = (): void => {
    if (cancelled) return;
    const left = end - monotonicMs();
    timer = left > LONGEST_TIMER_MS ? setTimeout(arm, LONGEST_TIMER_MS) : setTimeout(fire, Math.max(0, left));
    if (options.unref) (timer as { unref?: () => void }).unref?.();
  };
  arm();
  return () => {
    cancelled = true;
    clearTimeout(timer);
  };
}
