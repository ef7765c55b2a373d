// The demo page for the Chromium tests (test/demo.test.ts, test/demo-constrained.test.ts,
// test/demo-layout.test.ts): built with Vite once per test run (test/demo-build.ts), served on
// 127.0.0.1, opened in Debian's Chromium, and torn down after the file's tests. Page errors and
// console errors are kept.
import type { Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { launchChromium } from "./chromium.js";
import { demoBuild } from "./demo-build.js";

/** Set once the file's beforeAll has run (only where Chromium is there: `enabled`). */
export type DemoPage = { browser: Browser; page: Page; base: string; outDir: string; errors: string[] };

/** Registers the beforeAll/afterAll that open the demo at `viewport`; call at the top of a test file. */
export function useDemoPage(viewport: { width: number; height: number }, enabled: boolean): DemoPage {
  const demo = { errors: [] as string[] } as DemoPage;
  let server: Server | undefined;
  beforeAll(async () => {
    if (!enabled) return;
    demo.outDir = await demoBuild();
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
  });
  return demo;
}
