// The cross-check page (demo/crosscheck.html) in Chromium: a sweep cut short by its budget is
// shown as incomplete, in words and in its own colour, never as agreement or disagreement.
// (The page's agreeing run is checked in test/browser.test.ts.)
import type { Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { chromiumAvailable, launchChromium } from "./chromium.js";

const haveChromium = chromiumAvailable("cross-check page tests");
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

describe.skipIf(!haveChromium)("the cross-check page", () => {
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
