#!/usr/bin/env node
// Retakes the demo's screenshots in docs/ (docs/browser.md shows them): the demo built with
// Vite into a temporary folder, served on 127.0.0.1 and driven in Debian's Chromium, on a
// phone (390 x 844) and a projector or laptop (1280 x 900), the first screen after each main
// action: Solve, Count, Estimate, an error, and the cross-check page after a quick sweep;
// then the whole page after hill climbing. The demo imports dist/, so run `npm run build`
// first (`npm run docs:screenshots` does both). Screenshots are not packed into the tarball.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { build } from "vite";
import { serve } from "./serve.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const docs = join(root, "docs");
const VIEWPORTS = [{ width: 390, height: 844 }, { width: 1280, height: 900 }];
/** Hang guards: each action takes a few seconds at most. */
const ACTION_MS = 60_000;

const outDir = mkdtempSync(join(tmpdir(), "nqueens-demo-shots-"));
await build({ configFile: join(root, "demo/vite.config.ts"), logLevel: "warn", build: { outDir, emptyOutDir: true } });
const { server, url } = await serve(outDir);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const written = [];
try {
  for (const viewport of VIEWPORTS) {
    const page = await browser.newPage({ viewport });
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${url}/index.html`);
    const shot = async (name, fullPage = false) => {
      await page.evaluate(() => window.scrollTo(0, 0));
      const path = join(docs, `${name}.png`);
      await page.screenshot({ path, fullPage });
      written.push(path);
    };
    const act = async (button, n, { method, engine = "wasm", state = "done" } = {}) => {
      await page.fill("#n", n);
      await page.selectOption("#engine", engine);
      if (method) await page.selectOption("#method", method);
      await page.click(`#${button}`);
      await page.waitForSelector(`#status[data-state="${state}"]`, { timeout: ACTION_MS });
      await page.waitForTimeout(300); // the plot redraws within 100 ms
    };
    await act("solve", "8", { method: "backtrack" });
    await shot(`demo-solve-${viewport.width}`);
    await act("count", "10");
    await shot(`demo-count-${viewport.width}`);
    await act("estimate", "12");
    await shot(`demo-estimate-${viewport.width}`);
    await act("solve", "abc", { state: "error" });
    await shot(`demo-error-${viewport.width}`);
    if (viewport.width === 1280) {
      await act("solve", "3000", { method: "hill-climb", engine: "ts" });
      await shot("demo", true);
    }
    await page.goto(`${url}/crosscheck.html`);
    await page.selectOption("#sweep", "quick");
    await page.click("#run");
    await page.waitForSelector("body[data-done]", { timeout: 120_000 });
    await shot(`demo-crosscheck-${viewport.width}`);
    if (errors.length) throw new Error(`errors on the page at ${viewport.width} px: ${errors.join("; ")}`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
  rmSync(outDir, { recursive: true, force: true });
}
for (const path of written) console.log(path.slice(root.length));
