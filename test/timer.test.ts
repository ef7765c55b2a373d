// A timeout longer than one setTimeout can hold (2^31 - 1 ms, about 24.8 days) fires when asked,
// not at once (Node's behaviour for a longer delay) and not never: the shared timer, the CLI's
// --timeout and the pacer's wait on work no chunk bounds, under fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterMs, LONGEST_TIMER_MS } from "../src/core/timer.js";
import { withTimeout } from "../src/cli/options.js";
import { Pacer } from "../src/core/pacer.js";

const DAY = 86_400_000;

describe("timers of any length", () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it("afterMs fires once at its time, past the longest setTimeout, and not before", () => {
    const fire = vi.fn();
    afterMs(60 * DAY, fire);
    vi.advanceTimersByTime(LONGEST_TIMER_MS + 1);
    expect(fire).not.toHaveBeenCalled(); // a plain setTimeout would have fired at once
    vi.advanceTimersByTime(60 * DAY - LONGEST_TIMER_MS - 2);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(fire).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100 * DAY);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("afterMs's cancel stops it, also after its first timer has run out", () => {
    const fire = vi.fn();
    const cancel = afterMs(30 * DAY, fire);
    vi.advanceTimersByTime(LONGEST_TIMER_MS + 5);
    cancel();
    vi.advanceTimersByTime(60 * DAY);
    expect(fire).not.toHaveBeenCalled();
    const short = vi.fn();
    afterMs(0, short);
    vi.advanceTimersByTime(0);
    expect(short).toHaveBeenCalledTimes(1);
  });

  it("the CLI's --timeout past 24.8 days aborts at its time (it set no timer at all before)", () => {
    const interrupt = new AbortController();
    const signal = withTimeout(interrupt.signal, 30 * DAY);
    vi.advanceTimersByTime(30 * DAY - 1);
    expect(signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(signal.aborted).toBe(true);
    expect((signal.reason as DOMException).name).toBe("TimeoutError");
    expect((signal.reason as DOMException).message).toBe(`--timeout ${30 * DAY} ms`);
  });

  it("the CLI's --timeout gives way to Ctrl-C, whose reason the run sees", () => {
    const interrupt = new AbortController();
    const signal = withTimeout(interrupt.signal, 30 * DAY);
    interrupt.abort(new DOMException("interrupted", "AbortError"));
    expect((signal.reason as DOMException).name).toBe("AbortError");
    vi.advanceTimersByTime(31 * DAY);
    expect((signal.reason as DOMException).name).toBe("AbortError");
  });

  it("the pacer's raceStop stops a wait on work that never ends at timeoutMs past 24.8 days", async () => {
    const pacer = new Pacer({ timeoutMs: 40 * DAY });
    const outcome = vi.fn();
    void pacer.raceStop(new Promise<never>(() => {})).then(outcome);
    await vi.advanceTimersByTimeAsync(40 * DAY - 10);
    expect(outcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(20);
    expect(outcome).toHaveBeenCalledWith({ stop: "timeout" });
  });
});
