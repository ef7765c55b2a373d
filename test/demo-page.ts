// The demo page for the Chromium tests (test/demo.test.ts, test/demo-constrained.test.ts):
// built with Vite into a temporary directory, served on 127.0.0.1, opened in Debian's
// Chromium, and torn down after the file's tests. Page errors and console errors are kept.
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Browser, Page } from "playwright-core";
import { build } from "vite";
import { afterAll, beforeAll } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { launchChromium } from "./chromium.js";

/** Set once the file's beforeAll has run (only where Chromium is there: `enabled`). */
export type DemoPage = { browser: Browser; page: Page; base: string; outDir: string; errors: string[] };

/** Registers the beforeAll/afterAll that open the demo at `viewport`; call at the top of a test file. */
export function useDemoPage(prefix: string, viewport: { width: number; height: number }, enabled: boolean): DemoPage {
  const demo = { errors: [] as string[] } as DemoPage;
  let server: Server | undefined;
  beforeAll(async () => {
    if (!enabled) return;
    demo.outDir = mkdtempSync(join(tmpdir(), prefix));
    await build({ configFile: resolve("demo/vite.config.ts"), logLevel: "warn", build: { outDir: demo.outDir, emptyOutDir: true } });
    ({ server, url: demo.base } = await serve(demo.outDir));
    demo.browser = await launchChromium();
    demo.page = await demo.browser.newPage({ viewport });
    demo.page.on("pageerror", (e) => demo.errors.push(String(e)));
    demo.page.on("console", (m) => { if (m.type() === "error") demo.errors.push(m.text()); });
    await demo.page.goto(`${demo.base}/index.html`);
  }, 60_000);
  afterAll(async () => {
    await demo.browser?.close();
    server?.close();
    if (demo.outDir) rmSync(demo.outDir, { recursive: true, force: true });
  });
  return demo;
}
