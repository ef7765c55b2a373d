// The error codes (src/core/errors.ts): one table that every module and docs/errors.md use,
// and the codes reach the caller however the failure happens: an allocation the runtime
// refuses (out of memory, on either engine, in a thread of the pool), a file that cannot be
// written (NQ_IO).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ErrorCode, codeOutOfMemory, isOutOfMemory } from "../src/core/errors.js";
import { countParallel } from "../src/workers/parallel.js";
import { splitCount } from "../src/count/split.js";
import * as distributed from "../src/distributed/index.js";
import { tsEngine } from "../src/engine/ts/index.js";
import { wasmEngine } from "../src/engine/wasm/index.js";
import { WorkerPool } from "../src/workers/pool.js";
import { describeFailure } from "../src/cli/errors.js";
import { caught } from "./helpers.js";

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("error codes: one table", () => {
  it("ErrorCode is the only table: no module writes a code of its own or exports a second table (DistributedErrorCode)", () => {
    expect("DistributedErrorCode" in distributed).toBe(false);
    const elsewhere: string[] = [];
    for (const file of sources("src").filter((f) => f !== join("src", "core", "errors.ts"))) {
      const source = readFileSync(file, "utf8");
      for (const m of source.matchAll(/["'`](NQ_[A-Z_]+)["'`]/g)) elsewhere.push(`${file}: ${m[1]}`);
      for (const m of source.matchAll(/export const (\w*ErrorCode\w*)/g)) elsewhere.push(`${file}: exports ${m[1]}`);
    }
    expect(elsewhere).toEqual([]);
  });

  it("docs/errors.md has one row for every ErrorCode value, and none other", () => {
    const doc = readFileSync("docs/errors.md", "utf8");
    const rows = [...doc.matchAll(/^\| `(NQ_[A-Z_]+)` \| (.+)$/gm)];
    const documented = rows.map((m) => m[1]);
    expect([...documented].sort()).toEqual(Object.values(ErrorCode).sort());
    expect(new Set(documented).size).toBe(documented.length);
    // each row says when, which error class, and what to do (four cells, none empty)
    for (const [, code, rest] of rows) {
      const cells = rest!.split(" | ").map((c) => c.replace(/\|\s*$/, "").trim());
      expect(cells, code).toHaveLength(3);
      for (const cell of cells) expect(cell.length, `${code}: ${cells.join(" / ")}`).toBeGreaterThan(5);
    }
  });
});

describe("out of memory", () => {
  it("an allocation the runtime refuses is NQ_OUT_OF_MEMORY naming the job, on the TS engine as on the Wasm engine", () => {
    // 2^40 draws: a typed array longer than V8 allows; the TS twin asks for it, the Wasm
    // kernel's allocate refuses it. Both: a RangeError coded NQ_OUT_OF_MEMORY, not bad input.
    const count = 2 ** 40;
    const ts = caught(() => tsEngine.randomSequence(1, 0, count));
    expect(ts).toBeInstanceOf(RangeError);
    expect(ts.code).toBe(ErrorCode.outOfMemory);
    expect(ts.message).toMatch(new RegExp(`^out of memory for ${count} random draws on engine ts \\(Invalid typed array length`));
    const wasm = caught(() => wasmEngine.randomSequence(1, 0, count));
    expect(wasm).toBeInstanceOf(RangeError);
    expect(wasm.code).toBe(ErrorCode.outOfMemory);
    expect(wasm.message).toContain(`out of Wasm memory for ${count} random draws`);
    expect(Array.from(tsEngine.randomSequence(1, 0, 3))).toEqual(Array.from(wasmEngine.randomSequence(1, 0, 3))); // and jobs run on
  });

  it("codeOutOfMemory codes V8's allocation failure and leaves other errors (and coded ones) as they are", () => {
    const failed = caught(() => new ArrayBuffer(2 ** 52)); // "Array buffer allocation failed"
    expect(isOutOfMemory(failed)).toBe(true);
    expect(codeOutOfMemory(failed, "a test buffer")).toMatchObject({ code: ErrorCode.outOfMemory, message: "out of memory for a test buffer (Array buffer allocation failed)" });
    const negative = caught(() => new Int32Array(-1)); // "Invalid typed array length: -1": a bug, not memory
    expect(isOutOfMemory(negative)).toBe(false);
    expect(isOutOfMemory(caught(() => new Int32Array(2 ** 40)))).toBe(true);
    const bad = new RangeError("n must be an integer from 1 to 32, got 33");
    expect(codeOutOfMemory(bad, "x")).toBe(bad);
    expect("code" in bad).toBe(false);
    const coded = Object.assign(new RangeError("out of Wasm memory for y (at most 4 GiB)"), { code: ErrorCode.outOfMemory });
    expect((codeOutOfMemory(coded, "z") as Error).message).toBe("out of Wasm memory for y (at most 4 GiB)");
  });

  it("the CLI reports a coded out-of-memory by its code: one line naming the job, exit 1", () => {
    const error = caught(() => tsEngine.randomSequence(1, 0, 2 ** 40));
    const { line, exitCode } = describeFailure(error);
    expect(exitCode).toBe(1);
    expect(line).toMatch(/^nqueens: out of memory for 1099511627776 random draws on engine ts \(/);
  });

  it("solve(4e8, construct) on the TS engine under a memory limit (ulimit -v): the API and the CLI say NQ_OUT_OF_MEMORY, naming the job", () => {
    // The limit is the process's own size plus 1 GB: 4n = 1.6 GB of columns cannot be had.
    // (The TS engine: Wasm reserves far more address space than it uses, so it cannot start under such a limit.)
    const size = spawnSync(process.execPath, ["--input-type=module", "-e",
      `await import(${JSON.stringify(join(process.cwd(), "dist/index.js"))});
       console.log(/VmSize:\\s+(\\d+)/.exec((await import("node:fs")).readFileSync("/proc/self/status", "utf8"))[1]);`,
    ], { encoding: "utf8" });
    expect(size.status, size.stderr).toBe(0);
    const limitKb = Number(size.stdout.trim()) + 1_000_000;
    const limited = (args: string[]) => spawnSync("sh", ["-c", `ulimit -v ${limitKb} && exec "$0" "$@"`, process.execPath, ...args], { encoding: "utf8", timeout: 60_000 });

    const api = limited(["--input-type=module", "-e",
      `const { solve } = await import(${JSON.stringify(join(process.cwd(), "dist/index.js"))});
       try { await solve(4e8, { engine: "ts", method: "construct" }); console.log("solved"); }
       catch (e) { console.log(JSON.stringify({ name: e.name, code: e.code, message: e.message })); }`,
    ]);
    expect(api.status, api.stderr).toBe(0);
    const error = JSON.parse(api.stdout.trim()) as { name: string; code?: string; message: string };
    expect(error).toEqual({
      name: "RangeError", code: ErrorCode.outOfMemory,
      message: "out of memory for method construct with n = 400000000 on engine ts (Array buffer allocation failed)",
    });

    const cli = limited([join(process.cwd(), "dist/cli.js"), "solve", "400000000", "--engine", "ts", "--method", "construct"]);
    expect(cli.stderr.trim()).toBe("nqueens: out of memory for method construct with n = 400000000 on engine ts (Array buffer allocation failed)");
    expect(cli.status).toBe(1);
  }, 120_000);

  it("a thread's coded error reaches the caller of the pool with its code (as a thread's out of memory would)", async () => {
    const pool = new WorkerPool({ size: 1 });
    try {
      const part = splitCount(10, { parts: 8 })[3];
      await pool.run(part); // the thread keeps this split: a part with other prefixes is refused there
      const error = (await pool.run({ ...part, prefixes: part.prefixes.slice(1) }).catch((e: unknown) => e)) as Error & { code?: string };
      expect(error.message).toMatch(/^counting part 3 of 8 \(n = 10\) failed: RangeError: /);
      expect(error.code).toBe(ErrorCode.partMismatch);
    } finally {
      await pool.close();
    }
  });
});

describe("NQ_IO", () => {
  const dir = mkdtempSync(join(tmpdir(), "nq-errors-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a checkpoint that cannot be written (its directory is missing) rejects countParallel with NQ_IO, naming the file and the reason", async () => {
    const path = join(dir, "no-such-directory", "count.json");
    const error = (await countParallel(9, { workers: 1, parts: 4, checkpoint: path }).catch((e: unknown) => e)) as Error & { code?: string; cause?: unknown };
    expect(error.code).toBe(ErrorCode.io);
    expect(error.message).toBe(`checkpoint ${path} could not be written (ENOENT)`);
    expect((error.cause as { code?: string }).code).toBe("ENOENT");
  });
});

describe("junk that once escaped as uncoded errors (BigInt in a message, a part's prefixes not a list)", () => {
  it("countParallel's checkpoint as a bigint, countTask with bigint prefixes, a constrained part whose prefixes are a number: coded, naming what is wrong", async () => {
    await expect(countParallel(24, { checkpoint: -11n as never })).rejects.toMatchObject({ code: ErrorCode.invalidArgument, name: "TypeError", param: "checkpoint", message: "checkpoint must be a file path, got -11n" });
    const { countTask, countConstrainedPart, splitConstrainedCount } = await import("../src/index.js");
    const [part] = splitCount(10, { parts: 4 });
    expect(() => countTask({ ...part, prefixes: [[1n, 2n]] } as never)).toThrow(expect.objectContaining({ code: ErrorCode.partMismatch, message: expect.stringContaining('prefixes[0] is malformed: ["1n","2n"]') }));
    const [constrained] = splitConstrainedCount(8, { blocked: [[0, 0]] }, 2);
    for (const prefixes of [9, [9], [[[0n, 1]]]]) {
      expect(() => countConstrainedPart({ ...constrained, prefixes } as never)).toThrow(expect.objectContaining({ code: ErrorCode.partMismatch, message: expect.stringContaining("its prefixes must be a list of lists of [row, col] pairs") }));
    }
  });
});
