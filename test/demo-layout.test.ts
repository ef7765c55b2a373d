// The demo as a phone shows it (390 x 844): what the page shows after an error or an action
// that makes no board, how it writes its figures, and the cross-check page's look and way
// back. Each test saves a screenshot under test-artifacts/ to look at when it fails.
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { treeSize } from "../src/index.js";
import { chromiumAvailable } from "./chromium.js";
import { useDemoPage, type DemoPage } from "./demo-page.js";

const haveChromium = chromiumAvailable("demo layout tests");
const PHONE = { width: 390, height: 844 };
const demo: DemoPage = useDemoPage(PHONE, haveChromium);
let page: Page;
beforeAll(() => {
  ({ page } = demo);
  mkdirSync("test-artifacts", { recursive: true });
});

/** Clicks an action and waits for it to end (a hang guard far above its few seconds). */
async function act(button: string, n: string, method?: string, state = "done"): Promise<void> {
  await page.fill("#n", n);
  if (method) await page.selectOption("#method", method);
  await page.click(`#${button}`);
  await page.waitForSelector(`#status[data-state="${state}"]`, { timeout: 60_000 })
    .catch(async (e: Error) => { throw new Error(`${button} n = ${n} did not end (${state}): status "${await page.textContent("#status")}"; ${e.message}`); });
  await page.waitForTimeout(150); // the plot redraws within 100 ms
}

async function figures(): Promise<string[]> {
  return page.$$eval("#figures td", (tds) => tds.map((td) => td.textContent ?? ""));
}

/** Where the page would scroll sideways: its width against the window's. */
const pageWidth = (p: Page) => p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));

describe.skipIf(!haveChromium)("the demo on a phone", () => {
  it("an error replaces the last result: no board, heading, figures, plot or JSON of an earlier action stay", async () => {
    for (const [button, n] of [["solve", "abc"], ["count", "40"], ["estimate", "0"]] as const) {
      await act("solve", "8", "backtrack");
      expect(await page.getAttribute("#board-panel", "data-shows")).toBe("solution");
      await act(button, n, undefined, "error");
      await page.screenshot({ path: `test-artifacts/demo-layout-error-${button}.png` });
      const what = `${button} with n = "${n}"`;
      expect(await page.textContent("#status"), what).toMatch(/n/);
      expect(await page.getAttribute("#board-panel", "data-shows"), what).toBe("none");
      expect(await page.locator("#board").isVisible(), `${what}: the empty board is hidden`).toBe(false);
      expect(await page.locator("#badge").isVisible(), what).toBe(false);
      expect(await page.textContent("#board-title"), `${what}: the old heading goes`).not.toMatch(/n = 8/);
      expect((await figures()).filter((f) => f !== "-"), `${what}: figures`).toEqual(["error"]);
      expect(await page.inputValue("#json"), `${what}: JSON`).toBe("");
      expect(await page.getAttribute("#plot", "data-points"), `${what}: plot`).toBe("0");
    }
  });

  it("Count and Estimate, which make no board, show no empty board: their figures are on the first screen", async () => {
    for (const button of ["count", "estimate"]) {
      await act("solve", "8", "backtrack");
      expect(await page.locator("#board").isVisible(), "a Solve shows its board").toBe(true);
      await act(button, "10");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `test-artifacts/demo-layout-${button}.png` });
      expect(await page.getAttribute("#board-panel", "data-shows")).toBe("none");
      expect(await page.locator("#board").isVisible(), `${button}: the empty board is hidden`).toBe(false);
      expect(await page.textContent("#board-title")).toMatch(/no (single )?board/);
      const result = (await page.locator("#f-result").boundingBox())!;
      expect(result.y + result.height, `${button}: the result's bottom against the screen's height`).toBeLessThanOrEqual(PHONE.height);
      expect((await pageWidth(page)).scroll).toBeLessThanOrEqual(PHONE.width);
    }
  });

  it("figures: JSON times to 0.1 ms, the plot's legend gives values, an estimate and the exact count written alike", async () => {
    for (const [button, n, method] of [["solve", "8", "backtrack"], ["solve", "2000", "hill-climb"], ["count", "9", undefined], ["estimate", "10", undefined]] as const) {
      await act(button, n, method);
      const what = `${button} n = ${n}`;
      const json = await page.inputValue("#json");
      const times = [...json.matchAll(/"(ms|\w+Ms)": ([^,\n}]+)/g)].map((m) => `${m[1]}: ${m[2]}`);
      expect(times.length, `${what}: times in the JSON`).toBeGreaterThan(0);
      expect(times.filter((t) => !/: -?\d+(\.\d)?$/.test(t)), `${what}: times with more than one decimal`).toEqual([]);
      // with no cursor on the plot, each series' last value (uPlot's default shows "--")
      const legend = await page.$$eval("#plot .u-legend .u-series", (rows) => rows.map((r) => ({
        label: r.querySelector(".u-label")?.textContent ?? "", value: r.querySelector(".u-value")?.textContent ?? "",
      })));
      expect(legend.length, `${what}: legend rows`).toBeGreaterThan(1);
      expect(legend.filter((l) => !/^-?\d[\d,]*(\.\d+)?$/.test(l.value)), `${what}: legend entries without a number`).toEqual([]);
    }
    await page.screenshot({ path: "test-artifacts/demo-layout-figures.png", fullPage: true });
    // the last action was Estimate, n = 10: the estimate and the exact tree size in whole nodes, with thousands separators
    const exact = Number((await treeSize(10)).total);
    const status = (await page.textContent("#status"))!;
    const m = status.match(/: (\S+) ± (\S+) nodes .*the exact size is (\S+) nodes/);
    expect(m, status).not.toBeNull();
    expect(m![3]).toBe(exact.toLocaleString("en-US"));
    const grouped = /^\d{1,3}(,\d{3})*$/;
    expect([m![1], m![2], m![3]].filter((x) => !grouped.test(x!)), `${status}: numbers not written as whole nodes`).toEqual([]);
    expect(await page.textContent("#f-result")).toMatch(/^\d{1,3}(,\d{3})* ± \d{1,3}(,\d{3})* nodes$/);
    // and so does the plot's legend beside the exact line (probes, the estimate, its band, the exact size)
    const legend = await page.$$eval("#plot .u-legend .u-series .u-value", (cells) => cells.map((c) => c.textContent ?? ""));
    expect(legend).toHaveLength(5);
    expect(legend.filter((v) => !grouped.test(v)), "the estimate's legend in whole nodes").toEqual([]);
  });

  it("the cross-check page: the demo's style, a link back to the demo, its table fits 390 px after a run", async () => {
    const phone = await demo.browser.newPage({ viewport: PHONE });
    try {
      await phone.goto(`${demo.base}/crosscheck.html`);
      // styled by demo/style.css: the demo's page width and its accent colour on the links
      const look = async (p: Page) => p.evaluate(() => ({
        font: getComputedStyle(document.body).fontFamily, maxWidth: getComputedStyle(document.body).maxWidth,
        link: getComputedStyle(document.querySelector("header nav a")!).color,
      }));
      const main = await look(page);
      expect(await look(phone).catch((e: Error) => e.message), "the cross-check page looks like the demo").toEqual(main);
      const back = phone.locator('header nav a[href="./index.html"]');
      expect(await back.count(), "a link back to the demo").toBe(1);
      await phone.selectOption("#sweep", "quick");
      await phone.click("#run");
      await phone.waitForSelector("body[data-done]", { timeout: 110_000 })
        .catch(async (e: Error) => { throw new Error(`the quick cross-check did not end: "${await phone.textContent("#status")}"; ${e.message}`); });
      await phone.evaluate(() => window.scrollTo(0, 0));
      await phone.screenshot({ path: "test-artifacts/demo-layout-crosscheck.png", fullPage: true });
      expect(await phone.locator("#table tbody tr").count()).toBeGreaterThan(3);
      expect((await pageWidth(phone)).scroll, "the page's width").toBeLessThanOrEqual(PHONE.width);
      const table = await phone.evaluate(() => {
        const t = document.getElementById("table")!;
        const box = t.parentElement!;
        return { right: t.getBoundingClientRect().right, scroll: box.scrollWidth, client: box.clientWidth };
      });
      expect(table.right, "the table's right edge").toBeLessThanOrEqual(PHONE.width);
      expect(table.scroll, "the table needs no sideways scrolling in its box").toBeLessThanOrEqual(table.client);
      await back.click();
      await phone.waitForURL(/\/index\.html$/, { timeout: 30_000 });
      expect(await phone.title()).toBe("nqueens-wasm demo");
    } finally {
      await phone.close();
    }
    expect(demo.errors).toEqual([]);
  });
});
