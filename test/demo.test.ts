// The demo app (demo/, a Vite app importing "nqueens-wasm" as a user's app would) in a real
// browser: built with Vite's JS API into a temporary folder, served by scripts/serve.mjs and
// driven in Debian's Chromium through playwright-core, as test/browser.test.ts does.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { chromiumAvailable, launchChromium } from "./chromium.js";

const haveChromium = chromiumAvailable("demo tests");

let browser: Browser;
let server: Server;
let base: string;
let outDir: string;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  if (!haveChromium) return;
  outDir = mkdtempSync(join(tmpdir(), "nqueens-demo-"));
  await build({ configFile: resolve("demo/vite.config.ts"), logLevel: "warn", build: { outDir, emptyOutDir: true } });
  ({ server, url: base } = await serve(outDir));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1180, height: 1000 } });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(`${base}/index.html`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

async function solveIn(n: string, method = "auto"): Promise<void> {
  await page.fill("#n", n);
  await page.selectOption("#method", method);
  await page.click("#solve");
  await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
}

describe.skipIf(!haveChromium)("the demo in Chromium", () => {
  it("is a static build with relative paths that imports the package's dist", () => {
    const html = readFileSync(join(outDir, "index.html"), "utf8");
    expect(html).toMatch(/src="\.\/assets\/main-[^"]+\.js"/);
    expect(existsSync(join(outDir, "crosscheck.html"))).toBe(true);
  });

  it("solves n = 8 on a chessboard and verifies it", async () => {
    await solveIn("8", "backtrack");
    expect(await page.textContent("#badge")).toMatch(/^verified/);
    expect(await page.textContent("#f-nodes")).toBe("114");
    expect(await page.textContent("#f-engine")).toBe("wasm");
    const json = JSON.parse(await page.inputValue("#json"));
    expect(json.columns).toEqual([0, 4, 7, 5, 2, 6, 1, 3]);
    // clicking a square moves that row's queen: attacked queens are reported
    const box = (await page.locator("#board").boundingBox())!;
    await page.mouse.click(box.x + box.width * (1.5 / 8), box.y + box.height * (0.5 / 8)); // row 0 -> column 1
    expect(await page.getAttribute("#badge", "data-ok")).toBe("false");
    expect(errors).toEqual([]);
  });

  it("solves n = 10^5 in a worker and draws the permutation", async () => {
    await page.selectOption("#engine", "ts");
    await solveIn("10^5", "min-conflicts");
    await page.selectOption("#engine", "wasm");
    expect(await page.textContent("#badge")).toMatch(/^verified: 100,000 queens/);
    expect(await page.textContent("#board-title")).toMatch(/Permutation, n = 100,000/);
    expect(await page.textContent("#f-engine")).toBe("ts");
    // the canvas is not blank: some dark pixels (queens) are drawn
    const dark = await page.evaluate(() => {
      const c = document.getElementById("board") as HTMLCanvasElement;
      const d = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let k = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 150) k++;
      return k;
    });
    expect(dark).toBeGreaterThan(100);
  });

  it("plots the estimate converging", async () => {
    await page.fill("#n", "14");
    await page.click("#estimate");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    expect(Number(await page.getAttribute("#plot", "data-points"))).toBe(40);
    expect(await page.textContent("#status")).toMatch(/Knuth's estimate .* n = 14/);
  });

  it("counts with progress, and Stop cancels a long count within a second while the page stays responsive", async () => {
    await page.fill("#n", "12");
    await page.click("#count");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    expect(await page.textContent("#status")).toMatch(/n = 12: 14,200 solutions, 1,787 unique/);
    expect(Number(await page.getAttribute("#plot", "data-points"))).toBeGreaterThan(2);

    await page.fill("#n", "18");
    await page.click("#count");
    await page.waitForSelector('#status[data-state="running"]');
    // a timer on the page keeps ticking during the count: the main thread is free
    const ticks = await page.evaluate(() => new Promise<number>((done) => {
      let k = 0;
      const t = setInterval(() => k++, 20);
      setTimeout(() => { clearInterval(t); done(k); }, 1500);
    }));
    expect(ticks).toBeGreaterThan(40);
    expect(await page.textContent("#status")).toMatch(/Counting n = 18 on \d+ Web Workers/);
    const stopped = await page.evaluate(() => new Promise<number>((done) => {
      const t0 = performance.now();
      (document.getElementById("stop") as HTMLButtonElement).click();
      const poll = () => (document.getElementById("status")!.dataset.state === "stopped" ? done(performance.now() - t0) : setTimeout(poll, 5));
      poll();
    }));
    expect(stopped).toBeLessThan(1000);
    expect(await page.textContent("#status")).toMatch(/Count stopped/);
    // Stop also ends a long solve (its worker is terminated and a fresh one starts)
    await page.selectOption("#engine", "ts");
    await page.fill("#n", "30000");
    await page.selectOption("#method", "hill-climb");
    await page.click("#solve");
    await page.waitForTimeout(500);
    expect(await page.getAttribute("#status", "data-state")).toBe("running");
    await page.click("#stop");
    expect(await page.getAttribute("#status", "data-state")).toBe("stopped");
    expect(await page.textContent("#status")).toMatch(/Solve stopped/);
    await page.selectOption("#engine", "wasm");
    // and the page works right after
    await solveIn("8", "backtrack");
    expect(await page.textContent("#badge")).toMatch(/^verified/);
  });

  it("solves n = 10^6, plots conflicts left for hill climbing, steps through backtracking; screenshot", async () => {
    await solveIn("10^6", "min-conflicts");
    expect(await page.textContent("#badge")).toMatch(/^verified: 1,000,000 queens/);
    await page.selectOption("#engine", "ts");
    await solveIn("3000", "hill-climb");
    expect(await page.textContent("#plot-title")).toBe("Conflicts left vs steps");
    expect(Number(await page.getAttribute("#plot", "data-points"))).toBeGreaterThan(3);
    expect(await page.textContent("#badge")).toMatch(/^verified: 3,000 queens/);
    await page.fill("#n", "12");
    await page.click("#st-reset");
    for (let i = 0; i < 30; i++) await page.click("#st-step");
    expect(await page.textContent("#st-status")).toMatch(/Nodes \d+/);
    errors.length === 0 || console.warn(errors);
    expect(errors).toEqual([]);
    mkdirSync("test-artifacts", { recursive: true });
    await page.screenshot({ path: "test-artifacts/demo.png", fullPage: true });
    if (process.env.NQ_DEMO_SCREENSHOT) copyFileSync("test-artifacts/demo.png", "docs/demo.png");
  });
});
