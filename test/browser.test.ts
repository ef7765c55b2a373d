// The package in a real browser: Debian's Chromium driven by playwright-core. CI installs
// Chromium (.ci/run) and these tests must run there; on a machine without it they are
// skipped with a message saying how to get it.
import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { solve, type Method } from "../src/index.js";
import { isSolutionLarge } from "./helpers.js";
import { chromiumAvailable, launchChromium } from "./chromium.js";

const haveChromium = chromiumAvailable("browser tests");

let browser: Browser;
let server: Server;
let base: string;

beforeAll(async () => {
  if (!haveChromium) return;
  ({ server, url: base } = await serve(process.cwd()));
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

async function openPage(path: string): Promise<Page> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/${path}`);
  expect(errors).toEqual([]);
  return page;
}

describe.skipIf(!haveChromium)("in Chromium", () => {
  it("the ESM bundle in a plain page counts on both engines", async () => {
    const page = await openPage("test/fixtures/browser/page.html");
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const totals = await page.evaluate(async () => {
      const { count } = (window as unknown as { nqueens: typeof import("../src/index.js") }).nqueens;
      const [wasm, ts] = [await count(10, { engine: "wasm" }), await count(10, { engine: "ts" })];
      return { wasm: wasm.total === 724n, ts: ts.total === 724n, engines: [wasm.engine, ts.engine] };
    });
    expect(totals).toEqual({ wasm: true, ts: true, engines: ["wasm", "ts"] });
    await page.close();
  });

  it("gives the same columns and figures as Node for a table of (n, method, seed)", async () => {
    const table = [
      [8, "backtrack", 1], [30, "las-vegas", 3], [30, "hybrid", 9], [100, "hill-climb", 2],
      [1000, "min-conflicts", 4], [100_000, "min-conflicts", 1], [999, "construct", 1], [25, "auto", 6],
    ] as const;
    const page = await openPage("test/fixtures/browser/page.html");
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const inBrowser = await page.evaluate(async (cases) => {
      const { solve } = (window as unknown as { nqueens: typeof import("../src/index.js") }).nqueens;
      const out = [];
      for (const [n, method, seed] of cases) {
        for (const engine of ["wasm", "ts"] as const) {
          const r = await solve(n, { method, seed, engine });
          out.push({ n, method: r.method, engine, nodes: r.nodes, tries: r.tries, steps: r.steps, columns: Array.from(r.columns!) });
        }
      }
      return out;
    }, table as unknown as [number, Method, number][]);
    let i = 0;
    for (const [n, method, seed] of table) {
      for (const engine of ["wasm", "ts"] as const) {
        const node = await solve(n, { method, seed, engine });
        expect(inBrowser[i++]).toEqual({
          n, method: node.method, engine, nodes: node.nodes, tries: node.tries, steps: node.steps, columns: Array.from(node.columns!),
        });
        expect(isSolutionLarge(node.columns!)).toBe(true);
      }
    }
    await page.close();
  });

  it("a module Web Worker importing the bundle counts correctly", async () => {
    const page = await openPage("test/fixtures/browser/page.html");
    const result = await page.evaluate(() => new Promise((resolve, reject) => {
      const worker = new Worker("/test/fixtures/browser/worker.js", { type: "module" });
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => reject(new Error(e.message));
      worker.postMessage({ n: 11, engine: "wasm" });
    }));
    const node = await solve(11, { method: "hybrid", seed: 5 });
    expect(result).toEqual({ total: "2680", engine: "wasm", columns: Array.from(node.columns!) });
    await page.close();
  });

  it("countParallel runs on Web Workers started from the embedded source", async () => {
    const page = await openPage("test/fixtures/browser/page.html");
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const result = await page.evaluate(async () => {
      const { countParallel } = (window as unknown as { nqueens: typeof import("../src/index.js") }).nqueens;
      const r = await countParallel(12, { workers: 2 });
      return { total: String(r.total), unique: String(r.unique), workers: r.workers, engine: r.engine };
    });
    // on 'wasm': the threads instantiate the module the page posted them (their bundle has no Wasm bytes)
    expect(result).toEqual({ total: "14200", unique: "1787", workers: 2, engine: "wasm" });
    await page.close();
  });

  it("solve with workers runs the complete search's tasks on Web Workers: the one thread's verdict, a verified board", async () => {
    const page = await openPage("test/fixtures/browser/page.html");
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const result = await page.evaluate(async () => {
      const { solve, verify, excludedDiagonalsBoard } = (window as unknown as { nqueens: typeof import("../src/index.js") }).nqueens;
      const found = await solve(20, { method: "complete", blocked: excludedDiagonalsBoard(20, 16, { seed: 1 }).blocked, workers: 2 });
      const none = await solve(20, { method: "complete", blocked: excludedDiagonalsBoard(20, 18, { seed: 1 }).blocked, workers: 2 });
      return { found: found.found, ok: found.found && verify(found.columns).ok, workers: found.workers, none: [none.found, none.reason] };
    });
    expect(result).toEqual({ found: true, ok: true, workers: 2, none: [false, "no-solution"] });
    await page.close();
  });

  it("the cross-check page runs the whole report in the browser and says the engines agree", async () => {
    const page = await openPage("demo/crosscheck.html");
    await page.selectOption("#sweep", "quick");
    await page.click("#run");
    await page.waitForSelector("body[data-done]", { timeout: 30_000 });
    expect(await page.getAttribute("body", "data-done")).toBe("ok");
    expect(await page.textContent("#status")).toMatch(/engines agree/);
    expect(await page.locator("#table tbody tr").count()).toBeGreaterThanOrEqual(10);
    mkdirSync("test-artifacts", { recursive: true }); // git-ignored; for a person to look at
    await page.screenshot({ path: "test-artifacts/crosscheck.png", fullPage: true });
    await page.close();
  });

  it("a budget too short for the sweep says 'Incomplete: N of M cases ran', amber, not agree nor DISAGREE", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${base}/demo/crosscheck.html?budget=50`);
    await page.selectOption("#sweep", "quick");
    await page.click("#run");
    await page.waitForSelector("body[data-done]", { timeout: 30_000 });
    expect(errors).toEqual([]);
    expect(await page.getAttribute("body", "data-verdict")).toBe("incomplete");
    expect(await page.getAttribute("body", "data-done")).toBe("incomplete");
    const status = (await page.textContent("#status"))!;
    expect(status).toMatch(/^◐ Incomplete: \d+ of \d+ cases ran, all agreed; the rest timed out or did not fit the budget/);
    expect(status).not.toMatch(/agree:|DISAGREE/);
    const colours = await page.$eval("#status", (el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    expect(colours).toEqual(["rgb(254, 247, 224)", "rgb(122, 65, 0)"]); // amber, not the green of agree or the red of DISAGREE
    const cells = await page.$$eval("#table tbody td:last-child", (tds) => tds.map((td) => [td.textContent, td.className]));
    expect(cells.some(([text, cls]) => /^incomplete: \d+ of \d+ ran/.test(text ?? "") && cls === "incomplete")).toBe(true);
    expect(cells.every(([text]) => !/DISAGREE/.test(text ?? ""))).toBe(true);
    await page.close();
  });
});
