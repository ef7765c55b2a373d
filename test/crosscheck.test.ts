// crossCheck: right when the engines agree (a real sweep) and when they do not (a
// deliberately wrong engine), never hiding an error on one side or a timeout.
import { describe, expect, it } from "vitest";
import { crossCheck, defaultRunner, describeReport, type Runner } from "../src/analysis/crosscheck.js";
import { runCli } from "./cli-run.js";

describe("crossCheck", () => {
  it("a real sweep over every kernel agrees, with timings", async () => {
    // About 2 s on an idle machine; the budget leaves room for a loaded one (every kernel must get its cases).
    const report = await crossCheck({ sizes: [1, 2, 3, 4, 6, 8, 12, 50], seeds: [1, 2], budgetMs: 90_000 });
    expect(report.ok).toBe(true);
    expect(report.verdict).toBe("agree");
    expect(report.casesRun).toBe(report.casesTotal);
    expect(describeReport(report).table).toMatch(new RegExp(`agree: all ${report.casesTotal} cases ran and agreed \\([\\d.]+ s\\)$`));
    expect(report.kernels.map((k) => k.kernel)).toContain("solve:min-conflicts");
    for (const k of report.kernels) {
      expect(k.cases).toBeGreaterThan(0);
      expect(k.agree).toBe(k.cases);
      expect(k.divergence).toBeUndefined();
      expect(k.tsOverWasm).toBeGreaterThan(0);
    }
  }, 180_000);

  it("finds exactly the one case a wrong engine alters, and names the field and inputs", async () => {
    // wasm's 'hybrid' result for n = 12, seed 2 reports one node too many
    const wrong: Runner = async (kernel, input, engine, timeoutMs) => {
      const value = await defaultRunner(kernel, input, engine, timeoutMs);
      if (engine === "wasm" && kernel === "solve:hybrid" && input.n === 12 && input.options.seed === 2) {
        return { ...(value as object), nodes: (value as { nodes: number }).nodes + 1 };
      }
      return value;
    };
    const report = await crossCheck({ kernels: ["solve:hybrid", "count"], sizes: [8, 12, 13], seeds: [1, 2, 3], runner: wrong });
    expect(report.ok).toBe(false);
    const hybrid = report.kernels.find((k) => k.kernel === "solve:hybrid")!;
    expect(hybrid.cases).toBe(9);
    expect(hybrid.agree).toBe(8);
    expect(hybrid.divergence).toMatchObject({ field: "nodes", input: { n: 12, options: { method: "hybrid", seed: 2 } } });
    expect((hybrid.divergence!.wasm as { nodes: number }).nodes).toBe((hybrid.divergence!.ts as { nodes: number }).nodes + 1);
    expect(hybrid.divergence!.reproduce).toEqual([
      "nqueens solve 12 --method hybrid --seed 2 --json --engine wasm",
      "nqueens solve 12 --method hybrid --seed 2 --json --engine ts",
    ]);
    expect(report.kernels.find((k) => k.kernel === "count")!.divergence).toBeUndefined();
    expect(report.ok).toBe(false);
    const { problems, table } = describeReport(report);
    expect(report.verdict).toBe("disagree");
    expect(hybrid).toMatchObject({ verdict: "disagree", disagree: 1 });
    expect(table).toMatch(/\nDISAGREE: solve:hybrid diverges at nodes \(1 of \d+ cases run differ; [\d.]+ s\)$/);
    expect(table).toMatch(/solve:hybrid\s+9\s+8 .*DIVERGES at nodes/);
    expect(problems).toContain("reproduce: nqueens solve 12 --method hybrid --seed 2 --json --engine wasm");
  });

  it("an error on one engine only is a divergence; the same error on both is agreement", async () => {
    const oneSided: Runner = async (kernel, input, engine, timeoutMs) => {
      if (engine === "ts" && input.n === 10) throw new RangeError("boom");
      return defaultRunner(kernel, input, engine, timeoutMs);
    };
    const report = await crossCheck({ kernels: ["count"], sizes: [9, 10], runner: oneSided });
    expect(report.kernels[0].divergence).toMatchObject({ field: "error", ts: { error: "RangeError: boom" } });
    expect(report.verdict).toBe("disagree");
    const bothSides: Runner = async () => { throw new RangeError("same"); };
    expect(await crossCheck({ kernels: ["count"], sizes: [9], runner: bothSides })).toMatchObject({ ok: true, verdict: "agree" });
  });

  it("a timeout is reported as such, not as agreement", async () => {
    const slow: Runner = async (kernel, input, engine, timeoutMs) => {
      if (engine === "wasm") throw Object.assign(new Error("count did not finish"), { name: "TimeoutError" });
      return defaultRunner(kernel, input, engine, timeoutMs);
    };
    const report = await crossCheck({ kernels: ["count"], sizes: [8], runner: slow });
    expect(report.ok).toBe(false);
    expect(report.verdict).toBe("incomplete");
    expect(report.kernels[0]).toMatchObject({ cases: 1, agree: 0, timedOut: 1, verdict: "incomplete" });
    expect(describeReport(report).problems[0]).toMatch(/timed out/);
    expect(describeReport(report).table).toMatch(/\nincomplete: no case ran; 1 timed out; raise budgetMs/);
  });

  it("a small budget is incomplete, never agreement: ok false, the cases that ran counted (it said ok with las-vegas at 0 of 95)", async () => {
    const report = await crossCheck({ kernels: ["count", "solve:las-vegas", "solve:hybrid"], budgetMs: 300 });
    expect(report.verdict).toBe("incomplete");
    expect(report.ok).toBe(false);
    expect(report.casesRun).toBeLessThan(report.casesTotal);
    expect(report.casesRun).toBe(report.kernels.reduce((s, k) => s + k.agree, 0));
    expect(report.kernels.some((k) => k.skipped > 0 && k.verdict === "incomplete")).toBe(true);
    const { table } = describeReport(report, "--budget");
    expect(table).toMatch(new RegExp(`\\nincomplete: ${report.casesRun} of ${report.casesTotal} cases ran, all agreed; .*skipped for the budget; raise --budget`));
    expect(table).not.toMatch(/\nagree: /);
  });

  it("a budget that runs out under slow cases is incomplete however many agreed", async () => {
    const slow: Runner = async (kernel, input, engine, timeoutMs) => {
      await new Promise((resolve) => setTimeout(resolve, 15));
      return defaultRunner(kernel, input, engine, timeoutMs);
    };
    const report = await crossCheck({ kernels: ["count"], sizes: [4, 5, 6, 7, 8, 9, 10, 11], runner: slow, budgetMs: 100 });
    expect(report.kernels[0].skipped).toBeGreaterThan(0);
    expect(report.kernels[0].agree).toBeGreaterThan(0);
    expect(report).toMatchObject({ ok: false, verdict: "incomplete" });
  });

  it("a GPU case that only timed out is incomplete, not a disagreement", async () => {
    // A stand-in GPU that agrees with Wasm but for one case that times out.
    const gpu: Runner = async (kernel, input, engine, timeoutMs) => {
      if (engine === "webgpu" && input.n === 10) throw Object.assign(new Error("count(10) did not finish within timeoutMs = 20000"), { name: "TimeoutError" });
      return defaultRunner("count", input, "wasm", timeoutMs);
    };
    const report = await crossCheck({ kernels: ["count:webgpu"], sizes: [6, 8, 10, 12], runner: gpu });
    expect(report.kernels[0]).toMatchObject({ cases: 4, agree: 3, timedOut: 1, disagree: 0, verdict: "incomplete" });
    expect(report).toMatchObject({ ok: false, verdict: "incomplete", casesRun: 3, casesTotal: 4 });
    expect(describeReport(report).table).not.toMatch(/DISAGREE|DIVERGES/);
  });

  it("signal: an abort between cases rejects with the signal's reason and starts no further case", async () => {
    const controller = new AbortController();
    const reason = new Error("enough");
    const seen: (AbortSignal | undefined)[] = [];
    const runner: Runner = async (kernel, input, engine, timeoutMs, signal) => {
      seen.push(signal);
      return defaultRunner(kernel, input, engine, timeoutMs);
    };
    const run = crossCheck({
      kernels: ["count"], sizes: [4, 5, 6, 7, 8], runner, signal: controller.signal,
      onProgress: (p) => { if (p.casesDone === 2) controller.abort(reason); },
    });
    await expect(run).rejects.toBe(reason);
    expect(seen.length).toBe(4); // two cases, each on both engines; none after the abort
    expect(seen.every((s) => s === controller.signal)).toBe(true); // handed to the runner, for inside a case
    await expect(crossCheck({ kernels: ["count"], sizes: [4], signal: AbortSignal.abort() })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("signal: an abort inside a case is not an engine's answer: the sweep rejects, no divergence or timeout is made of it", async () => {
    const controller = new AbortController();
    const runner: Runner = async (kernel, input, engine, timeoutMs, signal) => {
      if (engine === "ts") { controller.abort(); signal!.throwIfAborted(); }
      return defaultRunner(kernel, input, engine, timeoutMs);
    };
    await expect(crossCheck({ kernels: ["count"], sizes: [6], runner, signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });

  it("checks its input", async () => {
    await expect(crossCheck({ signal: { aborted: false } } as never)).rejects.toThrow(/signal must be an AbortSignal/);
    await expect(crossCheck({ kernels: ["nope"] })).rejects.toThrow(/unknown kernel "nope"/);
    await expect(crossCheck({ sizes: [0] })).rejects.toThrow(/sizes\[0\] must be an integer/);
    await expect(crossCheck({ budget: 5 } as never)).rejects.toThrow(/unknown option "budget"/);
  });
});

describe("nqueens crosscheck", () => {
  it("Ctrl-C stops a sweep with exit code 130", async () => {
    const run = await runCli(["crosscheck", "--thorough"], { killOnceHandled: 300 }); // (about a minute; the Ctrl-C 300 ms after its handler is set)
    expect(run.code).toBe(130);
    expect(run.stderr).toContain("interrupted");
  });

  it("prints the table and exits 0 when the engines agree; --json gives the report", async () => {
    const run = await runCli(["crosscheck", "--quick", "--kernels", "count", "solve:hybrid"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/kernel\s+cases\s+agree\s+timeouts\s+skipped\s+ts\/wasm\s+result/);
    expect(run.stdout).toMatch(/\nagree: all \d+ cases ran and agreed/);
    const json = await runCli(["crosscheck", "--quick", "--kernels", "estimate", "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, verdict: "agree", kernels: [{ kernel: "estimate", verdict: "agree" }] });
  });

  it("exits 3 when the budget leaves cases unrun, saying how many ran and to raise --budget", async () => {
    const run = await runCli(["crosscheck", "--kernels", "count", "solve:las-vegas", "--budget", "200"]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/\nincomplete: (\d+ of \d+ cases ran, all agreed|no case ran); .*raise --budget/);
    const json = await runCli(["crosscheck", "--kernels", "solve:las-vegas", "--budget", "1", "--json"]);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, verdict: "incomplete" });
    expect(json.stderr).toMatch(/^nqueens: incomplete: /m);
  });

  it("exits 2 on bad input", async () => {
    expect((await runCli(["crosscheck", "--kernels", "nope"])).code).toBe(2);
    expect((await runCli(["crosscheck", "--quick", "--thorough"])).code).toBe(2);
  });
});
