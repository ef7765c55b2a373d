// Coded errors carry their facts as fields: a bad input names its parameter (`param`, as the
// API spells it) and the rest of its message (`detail`), so the CLI can say it with its flags
// without reading the message. A param that is not one of the function's own names (a typo at a
// throw site, a name from another function) would leave the CLI without a flag: caught here.
import { describe, expect, it } from "vitest";
import { count } from "../src/count/count.js";
import { countParallel } from "../src/workers/parallel.js";
import { splitCount } from "../src/count/split.js";
import { solve } from "../src/search/solve.js";
import { trace } from "../src/search/trace.js";
import { estimate } from "../src/analysis/estimate.js";
import { lasVegasStats } from "../src/analysis/las-vegas-stats.js";
import { crossCheck } from "../src/analysis/crosscheck.js";
import { countDistributed, listRuns, solveDistributed, startWorker } from "../src/distributed/index.js";
import { ErrorCode, invalid, rephrased, timeoutError, type CodedError } from "../src/core/errors.js";
import { PACED_OPTION_NAMES } from "../src/core/pacer.js";
import { describeFailure } from "../src/cli/errors.js";
import { parseBoard } from "../src/board/formats.js";
import { caught } from "./helpers.js";

/** Each function's parameters and options, as the API spells them (its signature and its options' names). */
const ACCEPTS: Record<string, readonly string[]> = {
  count: ["n", "options", "engine", "fixed", "blocked", ...PACED_OPTION_NAMES],
  solve: ["n", "options", "method", "engine", "seed", "stopVegas", "maxNodes", "maxSteps", "maxTries", "fixed", "blocked", ...PACED_OPTION_NAMES],
  countParallel: ["n", "options", "workers", "parts", "engine", "signal", "onProgress", "progressIntervalMs", "checkpoint", "restart", "key", "keyFile", "gpu", "fixed", "blocked"],
  splitCount: ["n", "options", "parts"],
  trace: ["n", "options", "method", "seed", "stopVegas", "maxEvents", "fixed", "blocked"],
  estimate: ["n", "options", "samples", "seed", "engine", ...PACED_OPTION_NAMES],
  lasVegasStats: ["n", "options", "stopVegas", "trials", "seed", "exact", "engine", ...PACED_OPTION_NAMES],
  crossCheck: ["options", "kernels", "sizes", "seeds", "budgetMs", "thorough", "onProgress", "runner", "signal"],
  countDistributed: ["n", "options", "connection", "parts", "queue", "signal", "onProgress", "connectTimeoutMs", "pollMs", "lostAfterMs", "onNotice", "fixed", "blocked", "key", "keyFile", "audit", "replicas", "onPlan", "stallNoticeMs", "identities", "revoked", "unauthenticated"],
  startWorker: ["options", "connection", "concurrency", "prefetch", "queue", "lockDuration", "stalledInterval", "pollMs", "gpu", "name", "graceMs", "key", "keyFile", "identity", "identityFile", "unauthenticated"],
  listRuns: ["options", "connection", "connectTimeoutMs"],
  solveDistributed: ["n", "options", "connection", "fixed", "blocked", "queue", "key", "keyFile", "unauthenticated", "audit", "replicas", "identities", "revoked", "signal", "timeoutMs", "onProgress", "onNotice", "connectTimeoutMs", "pollMs", "lostAfterMs", "stallNoticeMs"],
};

/** A bad call: the function, the call, and the parameter it is bad in. */
const BAD_CALLS: [keyof typeof ACCEPTS, () => unknown, string][] = [
  ["count", () => count(0), "n"],
  ["count", () => count(8.5), "n"],
  ["count", () => count(8, { timeoutMs: -1 }), "timeoutMs"],
  ["count", () => count(8, { timeoutMs: "1000" as unknown as number }), "timeoutMs"],
  ["count", () => count(8, { engine: "gpu" as "ts" }), "engine"],
  ["count", () => count(8, { signal: {} as AbortSignal }), "signal"],
  ["count", () => count(8, { onProgress: 3 as unknown as () => void }), "onProgress"],
  ["count", () => count(8, { progressIntervalMs: -5 }), "progressIntervalMs"],
  ["count", () => count(8, { fixed: [[9, 0]] }), "fixed"],
  ["count", () => count(8, { blocked: "a1" as unknown as [number, number][] }), "blocked"],
  ["count", () => count(8, 5 as unknown as object), "options"],
  ["solve", () => solve(8, { seed: -3 }), "seed"],
  ["solve", () => solve(8, { maxNodes: 0 }), "maxNodes"],
  ["solve", () => solve(8, { method: "backtrack", maxSteps: 5 }), "maxSteps"],
  ["solve", () => solve(8, { method: "hybrid", stopVegas: 9 }), "stopVegas"],
  ["solve", () => solve(8, { method: "nope" as "auto" }), "method"],
  ["solve", () => solve(8, { method: "backtrack", stopVegas: 3 }), "stopVegas"],
  ["solve", () => solve(0), "n"],
  ["countParallel", () => countParallel(10, { workers: 0 }), "workers"],
  ["countParallel", () => countParallel(10, { workers: 1.5 }), "workers"],
  ["countParallel", () => countParallel(10, { parts: 0 }), "parts"],
  ["countParallel", () => countParallel(10, { checkpoint: "" }), "checkpoint"],
  ["countParallel", () => countParallel(10, { restart: "yes" as unknown as boolean }), "restart"],
  ["countParallel", () => countParallel(10, { gpu: 1 as unknown as boolean }), "gpu"],
  ["countParallel", () => countParallel(10, { checkpoint: "c.json", keyFile: "" }), "keyFile"],
  ["splitCount", () => splitCount(10, { parts: 0 }), "parts"],
  ["splitCount", () => splitCount(40), "n"],
  ["trace", () => trace(8, { maxEvents: 0 }), "maxEvents"],
  ["trace", () => trace(8, { seed: 2 ** 32 }), "seed"],
  ["estimate", () => estimate(12, { samples: 0 }), "samples"],
  ["lasVegasStats", () => lasVegasStats(8, { exact: 1 as unknown as boolean }), "exact"],
  ["lasVegasStats", () => lasVegasStats(8, { exact: true, trials: 5 }), "trials"],
  ["lasVegasStats", () => lasVegasStats(8, { trials: 0 }), "trials"],
  ["crossCheck", () => crossCheck({ kernels: "count" as unknown as [] }), "kernels"],
  ["crossCheck", () => crossCheck({ budgetMs: -1 }), "budgetMs"],
  ["crossCheck", () => crossCheck({ thorough: 1 as unknown as boolean }), "thorough"],
  ["countDistributed", () => countDistributed(10, { connection: "http://h:1" }), "connection"],
  ["countDistributed", () => countDistributed(10, { connection: "redis://h:1/abc" }), "connection"],
  ["countDistributed", () => countDistributed(10, { connection: "redis://h:1", queue: "a b" }), "queue"],
  ["countDistributed", () => countDistributed(10, { connection: "redis://h:1", audit: 2 }), "audit"],
  ["countDistributed", () => countDistributed(10, { connection: "redis://h:1", parts: 0 }), "parts"],
  ["countDistributed", () => countDistributed(10, { connection: "redis://h:1", key: "k", revoked: ["a", "two words"] }), "revoked"],
  ["countDistributed", () => countDistributed(10, { connection: "redis://h:1", key: "k", unauthenticated: true }), "unauthenticated"],
  ["solveDistributed", () => solveDistributed(20, { connection: "http://h:1" }), "connection"],
  ["solveDistributed", () => solveDistributed(20, { connection: "redis://h:1", queue: "a b" }), "queue"],
  ["solveDistributed", () => solveDistributed(20, { connection: "redis://h:1", key: "k", audit: -1 }), "audit"],
  ["solveDistributed", () => solveDistributed(20, { connection: "redis://h:1", key: "k", replicas: 3 }), "replicas"],
  ["solveDistributed", () => solveDistributed(20, { connection: "redis://h:1", key: "k", timeoutMs: -1 }), "timeoutMs"],
  ["solveDistributed", () => solveDistributed(20, { connection: "redis://h:1", blocked: [[20, 0]] }), "blocked"],
  ["solveDistributed", () => solveDistributed(20, { connection: "redis://h:1", key: "k", unauthenticated: true }), "unauthenticated"],
  ["startWorker", () => startWorker({ connection: "redis://h:1", concurrency: 0 }), "concurrency"],
  ["startWorker", () => startWorker({ connection: "redis://h:1", graceMs: -1 }), "graceMs"],
  ["startWorker", () => startWorker({ connection: "redis://%zz@h:1" }), "connection"],
  ["startWorker", () => startWorker({ connection: "redis://h:1", unauthenticated: 1 as never }), "unauthenticated"],
  ["startWorker", () => startWorker({ connection: "redis://h:1", identityFile: "" }), "identityFile"],
  ["listRuns", () => listRuns({ connection: "redis://h:1?x=1" }), "connection"],
];

/** The error a call throws or rejects with. */
async function failure(call: () => unknown): Promise<CodedError> {
  try {
    await call();
  } catch (error) {
    return error as CodedError;
  }
  throw new Error("expected the call to fail");
}

describe("a bad input names its parameter as a field", () => {
  it.each(BAD_CALLS.map(([fn, call, param], i) => [`${fn} #${i}: ${param}`, fn, call, param] as const))(
    "%s", async (_name, fn, call, param) => {
      const error = await failure(call);
      expect(error.code).toBe(ErrorCode.invalidArgument);
      expect(ACCEPTS[fn]).toContain(error.param);
      expect(error.param).toBe(param);
      // The message is the parameter's name and the detail, exactly: the CLI's line is built from the two.
      expect(error.message).toBe(`${error.param}${error.detail}`);
    },
  );

  it("the CLI says every one of them with the flag of its param, or the API's name where it has no flag", async () => {
    const flags: Record<string, string> = {
      timeoutMs: "--timeout", workers: "--workers", parts: "--parts", seed: "--seed", connection: "--queue", concurrency: "--concurrency",
      graceMs: "--grace", maxNodes: "--max-nodes", maxSteps: "--max-steps", stopVegas: "--stop-vegas", maxEvents: "--max-events",
      samples: "--samples", trials: "--trials", checkpoint: "--checkpoint", budgetMs: "--budget", kernels: "--kernels",
      method: "--method", engine: "--engine", queue: "--queue-name", audit: "--audit", revoked: "--revoked", unauthenticated: "--unauthenticated",
      identityFile: "--identity-file", keyFile: "--key-file", replicas: "--replicas",
    };
    for (const [, call] of BAD_CALLS) {
      const error = await failure(call);
      const { line, exitCode } = describeFailure(error);
      expect(exitCode).toBe(2);
      expect(line).toBe(`nqueens: ${flags[error.param!] ?? error.param}${error.detail}`);
    }
  });
});

describe("the CLI's lines for real errors, word for word", () => {
  it("name the flag where the API names its option, and n as the API does", async () => {
    const line = async (call: () => unknown): Promise<string> => describeFailure(await failure(call)).line;
    expect(await line(() => count(8, { timeoutMs: -1 }))).toBe("nqueens: --timeout must be an integer >= 0, got -1");
    expect(await line(() => countParallel(10, { workers: 0 }))).toBe("nqueens: --workers must be an integer from 1 to 256, got 0");
    expect(await line(() => countDistributed(10, { connection: "redis://h:1/abc" })))
      .toMatch(/^nqueens: --queue's database must be a number such as \/0 after the port/);
    expect(await line(() => count(40))).toBe("nqueens: n must be an integer from 1 to 32, got 40");
    // Whatever words follow the parameter in the message:
    expect(await line(() => solve(8, { method: "backtrack", stopVegas: 3 }))).toBe('nqueens: --stop-vegas applies only to method "hybrid", not to "backtrack"');
    expect(await line(() => countDistributed(10, { connection: "redis://h:1", queue: "a b" })))
      .toBe("nqueens: --queue-name must be a name of letters, digits, '.', '_' and '-', got \"a b\"");
  });
});

describe("an error about a file's content names no parameter", () => {
  it("a board file's bad square keeps the file's name in the CLI's line", () => {
    const error = caught(() => parseBoard(JSON.stringify({ n: 6, blocks: [[9, 0]] }), "json", "bad.json")) as CodedError;
    expect(error.code).toBe(ErrorCode.invalidArgument);
    expect(error.param).toBeUndefined();
    expect(describeFailure(error).line).toMatch(/^nqueens: bad\.json \(JSON\): blocked\[0\] row must be an integer from 0 to 5/);
  });
});

describe("an error given another message drops the facts of the caller's parameter", () => {
  it("rephrased: the CLI says the new message, not the flag and the old detail", () => {
    const error = rephrased(invalid("part", " must be an object made by splitCount, got null", TypeError), "queue q: part must be an object made by splitCount, got null, again");
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe(ErrorCode.invalidArgument);
    expect([error.param, error.detail]).toEqual([undefined, undefined]);
    expect(describeFailure(error).line).toBe("nqueens: queue q: part must be an object made by splitCount, got null, again");
    const timeout = rephrased(timeoutError("count(20)", 500), "queue q: count(20) ran out of time");
    expect(describeFailure(timeout).line).toBe("nqueens: queue q: count(20) ran out of time");
  });
});
