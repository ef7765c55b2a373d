// The WebGPU engine in a real browser: Debian's Chromium, headless, with
// --enable-unsafe-webgpu, the ESM bundle in a plain page served from http://127.0.0.1 (a
// secure origin: navigator.gpu exists there). Without a GPU its adapter is SwiftShader.
// Where Chromium is missing the file is skipped (in CI it fails: test/chromium.ts); where it
// is there but WebGPU cannot start, the tests fail: nothing here skips quietly.
import type { Server } from "node:http";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { count } from "../src/index.js";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./chromium.js";
import { demoBuild } from "./demo-build.js";
import { A000170, A002562 } from "./fixtures/oeis.js";

const haveChromium = chromiumAvailable("WebGPU browser tests");

let browser: Browser;
let server: Server;
let page: Page;

type Nq = typeof import("../src/index.js");

beforeAll(async () => {
  if (!haveChromium) return;
  let base: string;
  ({ server, url: base } = await serve(process.cwd()));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox", "--enable-unsafe-webgpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/test/fixtures/browser/page.html`);
  await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  expect(errors).toEqual([]);
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe.skipIf(!haveChromium)("engine 'webgpu' in Chromium", () => {
  it("finds an adapter through navigator.gpu and reports it", async () => {
    const info = await page.evaluate(async () => {
      const { gpuInfo } = (window as unknown as { nqueens: Nq }).nqueens;
      return gpuInfo().catch((e: Error & { code?: string }) => ({ error: `${e.code}: ${e.message}` }));
    });
    expect(info).not.toHaveProperty("error");
    expect(info).toMatchObject({ source: "navigator.gpu" });
    if (/swiftshader/i.test(JSON.stringify(info))) expect(info).toMatchObject({ fallback: true });
  });

  it("counts OEIS A000170 and A002562 for n = 1..12, with the nodes of count(n) on the reference engine", async () => {
    const got = await page.evaluate(async () => {
      const { count } = (window as unknown as { nqueens: Nq }).nqueens;
      const out: { n: number; total: string; unique: string; nodes: string; engine: string }[] = [];
      for (let n = 1; n <= 12; n++) {
        const r = await count(n, { engine: "webgpu" });
        out.push({ n, total: String(r.total), unique: String(r.unique), nodes: String(r.nodes), engine: r.engine });
      }
      return out;
    });
    for (let n = 1; n <= 12; n++) {
      // the constellation counter's nodes: the GPU counts count(n)'s tasks (below n = 4 every engine answers directly)
      const ts = await count(n, { engine: "ts" });
      expect(got[n - 1]).toEqual({ n, total: String(A000170[n]), unique: String(A002562[n]), nodes: String(ts.nodes), engine: "webgpu" });
    }
  });

  it("aborts mid-count quickly, and the next count is right", async () => {
    const outcome = await page.evaluate(async () => {
      const { count } = (window as unknown as { nqueens: Nq }).nqueens;
      const controller = new AbortController();
      let abortedAt = 0;
      let tasksDoneAtAbort = 0;
      const error = await count(13, {
        engine: "webgpu",
        signal: controller.signal,
        progressIntervalMs: 0,
        onProgress: (p) => {
          if (!abortedAt && p.phase !== "split" && p.tasksDone > 0) { // (split reports count tasks made)
            abortedAt = performance.now();
            tasksDoneAtAbort = p.tasksDone;
            controller.abort();
          }
        },
      }).then(() => "resolved", (e: Error) => e.name);
      const latencyMs = performance.now() - abortedAt;
      const next = await count(11, { engine: "webgpu" });
      return { error, abortedAt, tasksDoneAtAbort, latencyMs, total: String(next.total), unique: String(next.unique) };
    });
    expect(outcome.error).toBe("AbortError");
    expect(outcome.abortedAt).toBeGreaterThan(0);
    expect(outcome.latencyMs).toBeLessThan(500); // at most one dispatch (tens of ms), with a wide margin
    expect({ total: outcome.total, unique: outcome.unique }).toEqual({ total: String(A000170[11]), unique: String(A002562[11]) });
  });

  it("the demo: Count on the GPU names the adapter, counts, and shows the result; without WebGPU the choice is disabled with the reason", async () => {
    let demo: Server | undefined;
    let plain: Browser | undefined;
    try {
      let url: string;
      ({ server: demo, url } = await serve(await demoBuild()));
      const p = await browser.newPage();
      const errors: string[] = [];
      p.on("pageerror", (e) => errors.push(String(e)));
      await p.goto(`${url}/index.html`);
      await p.waitForFunction(() => !(document.getElementById("count-gpu") as HTMLInputElement).disabled, undefined, { timeout: 20_000 });
      expect(await p.textContent("#gpu-name")).toMatch(/swiftshader|google|\w/i);
      await p.fill("#n", "10");
      await p.check("#count-gpu");
      await p.click("#count");
      await p.waitForSelector('#status[data-state="done"]', { timeout: 60_000 });
      expect(await p.textContent("#f-result")).toBe("724 solutions (92 unique)");
      expect(await p.textContent("#f-engine")).toBe("webgpu");
      expect(await p.textContent("#status")).toMatch(/on the GPU/);
      expect(errors).toEqual([]);
      await p.close();

      plain = await launchChromium(); // no --enable-unsafe-webgpu: no adapter here
      const q = await plain.newPage();
      await q.goto(`${url}/index.html`);
      await q.waitForFunction(() => document.getElementById("gpu-name")!.textContent !== "(looking for one...)", undefined, { timeout: 20_000 });
      expect(await q.isDisabled("#count-gpu")).toBe(true);
      expect(await q.textContent("#gpu-name")).toBe("(no WebGPU here)");
      expect(await q.getAttribute("#gpu-choice", "title")).toMatch(/NQ_ENGINE_UNAVAILABLE|not available|no adapter|navigator\.gpu/i);
    } finally {
      await plain?.close();
      demo?.close();
    }
  });
});
