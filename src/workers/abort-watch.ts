// One "abort" listener per signal, however many jobs wait on it: a count over many threads
// hands every part in hand the same signal, and a listener a part went past Node's limit of
// 10 on a machine of 5 cores or more (a MaxListenersExceededWarning on the user's stderr).

/** The jobs waiting on each signal; an abort calls `cancel` for each job still there. */
export class AbortWatch<J> {
  private readonly bySignal = new Map<AbortSignal, { jobs: Set<J>; onAbort: () => void }>();

  constructor(private readonly cancel: (job: J, reason: unknown) => void) {}

  /** `job` is cancelled when `signal` aborts (unless removed first). */
  add(signal: AbortSignal, job: J): void {
    let watched = this.bySignal.get(signal);
    if (watched === undefined) {
      const jobs = new Set<J>();
      const onAbort = (): void => {
        this.bySignal.delete(signal);
        for (const waiting of jobs) this.cancel(waiting, signal.reason);
      };
      watched = { jobs, onAbort };
      this.bySignal.set(signal, watched);
      signal.addEventListener("abort", onAbort, { once: true });
    }
    watched.jobs.add(job);
  }

  /** `job` no longer waits on `signal`; the signal's listener goes with its last job. */
  remove(signal: AbortSignal, job: J): void {
    const watched = this.bySignal.get(signal);
    if (watched === undefined || !watched.jobs.delete(job) || watched.jobs.size > 0) return;
    this.bySignal.delete(signal);
    signal.removeEventListener("abort", watched.onAbort);
  }
}
