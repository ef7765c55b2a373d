// The demo app (demo/, a Vite app importing "nqueens-wasm" as a user's app would) in a real
// browser: built with Vite's JS API into a temporary folder, served by scripts/serve.mjs and
// driven in Debian's Chromium through playwright-core, as test/browser.test.ts does.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { count, KERNEL_NAMES, solve, trace, treeSize, verify, type TraceMethod } from "../src/index.js";
import { fmtLeft } from "../demo/dom.js";
import { chromiumAvailable } from "./chromium.js";
import { useDemoPage } from "./demo-page.js";
import { ENGINES, isSolution } from "./helpers.js";

const haveChromium = chromiumAvailable("demo tests");

const demo = useDemoPage({ width: 1280, height: 900 }, haveChromium);
const errors = demo.errors;
let browser: Browser;
let base: string;
let outDir: string;
let page: Page;
beforeAll(() => ({ browser, base, outDir, page } = demo));

async function solveIn(n: string, method = "auto"): Promise<void> {
  await page.fill("#n", n);
  await page.selectOption("#method", method);
  await page.click("#solve");
  await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
}

/** What the main board shows: a solution's columns (chessboards) or nothing, and the badge. */
async function boardState() {
  const columns = await page.getAttribute("#board-panel", "data-columns");
  const badgeHidden = await page.locator("#badge").isHidden();
  return {
    shows: await page.getAttribute("#board-panel", "data-shows"),
    columns: columns === null ? null : (JSON.parse(columns) as number[]),
    badge: badgeHidden ? null : await page.getAttribute("#badge", "data-ok"),
  };
}

async function figures() {
  const out: Record<string, string> = {};
  for (const k of ["result", "method", "engine", "nodes", "tries", "steps", "time"]) out[k] = (await page.textContent(`#f-${k}`))!;
  return out;
}

/** The live plot: its kind, its points and its first x, from the page's uPlot data. */
async function plotState() {
  await page.waitForTimeout(150); // the plot redraws within 100 ms
  return {
    kind: await page.getAttribute("#plot", "data-kind"),
    points: Number(await page.getAttribute("#plot", "data-points")),
    x0: Number(await page.getAttribute("#plot", "data-x0")),
    yMax: Number(await page.getAttribute("#plot", "data-y-max")),
    yDataMax: Number(await page.getAttribute("#plot", "data-y-data-max")),
    yLast: await page.getAttribute("#plot", "data-y-last"),
  };
}

/** The step-through's figures and board as the page shows them. */
async function stepperState() {
  const num = async (id: string) => Number((await page.textContent(id))!.replace(/,/g, ""));
  return {
    kind: await page.getAttribute("#st-status", "data-kind"),
    columns: JSON.parse((await page.getAttribute("#st-board", "data-columns"))!) as number[],
    nodes: await num("#st-nodes"), tries: await num("#st-tries"), steps: await num("#st-steps"), fails: await num("#st-fails"),
  };
}

/** Sets n, seed and stopVegas in the controls and restarts the step-through with `method`. */
async function resetStepper(n: number, method: TraceMethod, seed: number, stopVegas = ""): Promise<void> {
  await page.fill("#n", String(n));
  await page.fill("#seed", String(seed));
  await page.selectOption("#st-method", method);
  if (method === "hybrid") await page.fill("#stopVegas", stopVegas); // the field is enabled for hybrid only
  await page.click("#st-reset");
  expect(await page.getAttribute("#st-status", "data-kind")).toBe("start");
}

/** Red over green in the middle of the left half of a cell of the step-through board (a tinted row is red). */
async function rowRedness(row: number, n: number): Promise<number> {
  return page.evaluate(([row, n]) => {
    const c = document.getElementById("st-board") as HTMLCanvasElement;
    const cell = c.width / n;
    const [r, g] = c.getContext("2d")!.getImageData(Math.floor(cell * 0.15), Math.floor((row + 0.15) * cell), 1, 1).data;
    return r - g;
  }, [row, n]);
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
    // The exact tree size is drawn as a line and said in the status, as treeSize gives it in Node.
    const exact = Number((await treeSize(14)).total);
    expect(Number(await page.getAttribute("#plot", "data-exact"))).toBe(exact);
    expect(await page.textContent("#status")).toContain(`the exact size is ${exact.toLocaleString("en-US")} nodes`);
    // 100,000 probes land within a few percent of it (the estimate is unbiased, its standard error about 0.3 % here).
    const json = JSON.parse(await page.inputValue("#json")) as { mean: number; exact: number };
    expect(json.exact).toBe(exact);
    expect(Math.abs(json.mean / exact - 1)).toBeLessThan(0.05);
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
    // once a part is done the status gives the rate and the time left
    await page.waitForFunction(() => /parts\/s/.test(document.getElementById("status")!.textContent ?? ""), undefined, { timeout: 20_000 });
    expect(await page.textContent("#status")).toMatch(/Counting n = 18 on \d+ Web Workers: \d+ of 256 parts, [\d.]+ parts\/s, about (under a second|\d+ s|\d+ min( \d+ s)?|\d+ h( \d+ min)?) left/);
    const stopped = await page.evaluate(() => new Promise<number>((done) => {
      const t0 = performance.now();
      (document.getElementById("stop") as HTMLButtonElement).click();
      const poll = () => (document.getElementById("status")!.dataset.state === "stopped" ? done(performance.now() - t0) : setTimeout(poll, 5));
      poll();
    }));
    expect(stopped).toBeLessThan(10_000); // a hang guard: the count of n = 18 takes far longer; a loaded machine must not fail it
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

  it("steps through Las Vegas past a failed try (its dead row in red) to the board solve() returns", async () => {
    // a seed whose run has a failed try, found with the library, not written in
    const n = 8;
    const seed = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((s) => [...trace(n, { method: "las-vegas", seed: s })].some((e) => e.kind === "fail"))!;
    expect(seed).toBeDefined();
    const events = [...trace(n, { method: "las-vegas", seed })];
    const firstFail = events.findIndex((e) => e.kind === "fail");
    await resetStepper(n, "las-vegas", seed);
    for (let i = 0; i < firstFail; i++) await page.click("#st-step");
    const failed = await stepperState();
    expect(failed.kind).toBe("fail");
    expect(failed.fails).toBe(1);
    const dead = Number((await page.textContent("#st-status"))!.match(/row (\d+) has no safe column/)![1]);
    expect(failed.columns.filter((c) => c >= 0)).toHaveLength(dead); // the board before the reset
    expect(await rowRedness(dead, n)).toBeGreaterThan(70);
    expect(await rowRedness(0, n)).toBeLessThan(60);
    await page.click("#st-step");
    expect((await stepperState()).kind).toBe("restart");
    await page.click("#st-end");
    const end = await stepperState();
    expect(end.kind).toBe("solution");
    expect(await page.getAttribute("#st-badge", "data-ok")).toBe("true");
    expect(isSolution(end.columns)).toBe(true);
    for (const engine of ENGINES) {
      const r = await solve(n, { method: "las-vegas", seed, engine });
      expect({ columns: end.columns, nodes: end.nodes, tries: end.tries }).toEqual({ columns: Array.from(r.columns!), nodes: r.nodes, tries: r.tries });
    }
    expect(end.tries).toBeGreaterThan(1);
    // and the page's own Solve (Wasm, in the worker) agrees
    await solveIn(String(n), "las-vegas");
    expect(JSON.parse(await page.inputValue("#json")).columns).toEqual(end.columns);
    expect(Number(await page.textContent("#f-tries"))).toBe(end.tries);
  });

  it("steps through hill climbing (the swapped rows, h) and hybrid to the boards solve() returns", async () => {
    for (const [method, n, seed, stopVegas] of [["hill-climb", 8, 5, ""], ["hybrid", 10, 4, "3"], ["backtrack", 8, 1, ""]] as const) {
      await resetStepper(n, method, seed, stopVegas);
      if (method === "hill-climb") {
        await page.click("#st-step");
        expect((await stepperState()).kind).toBe("evaluate");
        expect(await page.textContent("#st-status")).toMatch(/^Swap the queens of rows 0 and 1: h would go from \d+ to \d+/);
        expect(Number(await page.textContent("#st-h"))).toBeGreaterThan(0);
      }
      await page.click("#st-end");
      const end = await stepperState();
      expect(end.kind, method).toBe("solution");
      expect(await page.getAttribute("#st-badge", "data-ok")).toBe("true");
      for (const engine of ENGINES) {
        const r = await solve(n, { method, seed, engine, ...(method === "hybrid" ? { stopVegas: Number(stopVegas) } : {}) });
        expect({ columns: end.columns, nodes: end.nodes, tries: end.tries, steps: end.steps }, `${method} ${engine}`)
          .toEqual({ columns: Array.from(r.columns!), nodes: r.nodes, tries: r.tries, steps: r.steps });
      }
      if (method === "hill-climb") expect(end.steps).toBeGreaterThan(0);
      if (method === "backtrack") expect(end.nodes).toBe(114);
    }
  });

  it("plots t against stopVegas in the worker and marks the best, stopVegas = 2 for n = 8", async () => {
    await page.fill("#n", "8");
    await page.click("#lvtable");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    expect(await page.getAttribute("#lv-table", "data-best")).toBe("2");
    expect(await page.textContent("#status")).toMatch(/t is smallest at stopVegas = 2 \(28\.20 nodes; backtracking 114\.00, pure Las Vegas 55\.93\)/);
    expect(Number(await page.getAttribute("#plot", "data-points"))).toBe(9);
    expect(await page.textContent("#lv-table tr.best")).toMatch(/^20\.875028\.20$/);
    const json = JSON.parse(await page.inputValue("#json"));
    expect(json.rows).toHaveLength(9);
    expect(json.best).toBe(2);
    expect(errors).toEqual([]);
  });

  it("keeps the board and the figures to the last action: Count, Estimate and t vs stopVegas clear a Solve's board", async () => {
    await page.selectOption("#engine", "wasm");
    await solveIn("8", "backtrack");
    expect(await boardState()).toEqual({ shows: "solution", columns: [0, 4, 7, 5, 2, 6, 1, 3], badge: "true" });
    expect(await figures()).toMatchObject({ result: "found", nodes: "114", tries: "1", steps: "0" });

    await page.fill("#n", "9");
    await page.click("#count");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    const c = await count(9);
    expect(await boardState()).toEqual({ shows: "none", columns: null, badge: null });
    expect(await page.textContent("#board-title")).toBe("Count, n = 9: no single board");
    expect(await figures()).toEqual({
      result: `${c.total.toLocaleString("en-US")} solutions (${c.unique!.toLocaleString("en-US")} unique)`, method: expect.stringMatching(/^countParallel, \d+ workers, \d+ parts$/),
      engine: "wasm", nodes: c.nodes.toLocaleString("en-US"), tries: "-", steps: "-", time: expect.stringMatching(/ m?s$/),
    });
    expect(JSON.parse(await page.inputValue("#json"))).toMatchObject({ n: 9, total: String(c.total), unique: String(c.unique) });

    await solveIn("6", "las-vegas");
    const six = await boardState();
    expect(six.shows).toBe("solution");
    expect(verify(Int32Array.from(six.columns!)).ok).toBe(true);
    expect(JSON.parse(await page.inputValue("#json")).columns).toEqual(six.columns);

    await page.fill("#n", "8");
    await page.click("#estimate");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    expect(await boardState()).toEqual({ shows: "none", columns: null, badge: null });
    expect(await figures()).toMatchObject({ result: expect.stringMatching(/ ± .* nodes$/), method: "estimate (Knuth)", nodes: "-", tries: "-", steps: "100,000 probes" });
    expect(JSON.parse(await page.inputValue("#json"))).toMatchObject({ n: 8, samples: 100_000 });

    await solveIn("8", "backtrack");
    await page.click("#lvtable");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    expect(await boardState()).toEqual({ shows: "none", columns: null, badge: null });
    expect(await figures()).toMatchObject({ result: expect.stringMatching(/^best stopVegas = 2: t = 28\.20 nodes/), nodes: "-", tries: "-", steps: "-" });

    expect(await page.locator("#lv-table").isVisible()).toBe(true);

    // a Solve that is stopped leaves no board either, and no JSON of an earlier result
    await solveIn("8", "backtrack");
    expect(await page.locator("#lv-table").isVisible(), "the t vs stopVegas table goes with its plot").toBe(false);
    await page.selectOption("#engine", "ts");
    await page.fill("#n", "30000");
    await page.selectOption("#method", "hill-climb");
    await page.click("#solve");
    expect(await boardState()).toEqual({ shows: "none", columns: null, badge: null });
    await page.click("#stop");
    expect(await boardState()).toEqual({ shows: "none", columns: null, badge: null });
    expect(await page.inputValue("#json")).toBe("");
    expect(await page.textContent("#f-result")).toBe("stopped");
    await page.selectOption("#engine", "wasm");
    expect(errors).toEqual([]);
  });

  it("plots a point per chunk of work from the start: solves, a count", async () => {
    await page.selectOption("#engine", "wasm");
    for (const [n, method, kind] of [["22", "backtrack", "nodes"], ["10^5", "min-conflicts", "swaps"], ["2000", "hill-climb", "conflicts"], ["8", "backtrack", "nodes"]] as const) {
      await solveIn(n, method);
      const plot = await plotState();
      const reports = Number(await page.getAttribute("#plot", "data-reports"));
      expect(plot.kind, `${method} ${n}`).toBe(kind);
      expect(reports, `${method} ${n}`).toBeGreaterThan(0);
      // every report is a point; the tree searches' and min-conflicts' plots start at time 0
      expect(plot.points, `${method} ${n}`).toBeGreaterThanOrEqual(reports + (kind === "conflicts" ? 0 : 1));
      expect(plot.points, `${method} ${n}`).toBeGreaterThanOrEqual(2);
      if (kind !== "conflicts") expect(plot.x0).toBe(0);
      // the y axis reaches the highest point (the last one included: it once ended below it)
      expect(plot.yDataMax, `${method} ${n}: highest point`).toBeGreaterThan(0);
      expect(plot.yMax, `${method} ${n}: y axis top vs highest point`).toBeGreaterThanOrEqual(plot.yDataMax);
      if (n !== "8") expect(reports, `${method} ${n}: several chunks`).toBeGreaterThan(3);
      // the line ends at the result the figures show (a solve ending within a report's resolution once ended at that report)
      if (kind === "nodes") expect(Number(plot.yLast), `${method} ${n}: last point vs figures`).toBe(Number((await figures()).nodes.replace(/\D/g, "")));
    }
    // a count: a point per part counted, after the origin
    await page.fill("#n", "11");
    await page.click("#count");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    const parts = Number((await page.getAttribute("#status", "data-parts"))!.split("/")[1]);
    expect(parts).toBeGreaterThan(8);
    const plot = await plotState();
    expect(plot.kind).toBe("parts");
    expect(plot.points).toBeGreaterThanOrEqual(parts + 1);
    expect(plot.x0).toBe(0);
    expect(plot.yDataMax, "count: highest point").toBeGreaterThan(0);
    expect(plot.yMax, "count: y axis top vs highest point").toBeGreaterThanOrEqual(plot.yDataMax);
    expect(errors).toEqual([]);
  });

  it("always shows the last action: ticking 'edit givens' clears the figures, plot and JSON; a constrained Count after a Solve has its own (empty) plot", async () => {
    await page.selectOption("#engine", "wasm");
    await solveIn("8", "backtrack");
    expect((await plotState()).points).toBeGreaterThan(1);
    await page.check("#edit-givens");
    expect(await figures()).toEqual({ result: "-", method: "-", engine: "-", nodes: "-", tries: "-", steps: "-", time: "-" });
    expect(await page.inputValue("#json")).toBe("");
    expect(await plotState()).toMatchObject({ kind: "none", points: 0 });
    const box = (await page.locator("#board").boundingBox())!;
    await page.mouse.click(box.x + box.width / 16, box.y + box.height / 16); // a given queen at (0, 0)
    await solveIn("8", "backtrack");
    expect((await plotState()).points).toBeGreaterThan(1);
    await page.click("#count");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    const c = await count(8, { fixed: [[0, 0]] });
    expect(await page.textContent("#f-nodes")).toBe(c.nodes.toLocaleString("en-US"));
    expect(await plotState(), "Count's plot, not the Solve's").toMatchObject({ kind: "none", points: 0 });
    await page.click("#clear-givens");
    await page.uncheck("#edit-givens");
    expect(errors).toEqual([]);
  });

  it("integer axes get integer ticks; time left is said in whole units; the cross-check page fits a 390 px phone", async () => {
    await page.selectOption("#engine", "wasm");
    await page.fill("#n", "8");
    await page.click("#lvtable");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    const ticks = async (axis: "xTicks" | "yTicks") => JSON.parse((await page.getAttribute("#plot", `data-${axis === "xTicks" ? "x-ticks" : "y-ticks"}`))!) as number[];
    await page.waitForTimeout(150);
    const stopVegas = await ticks("xTicks");
    expect(stopVegas.length).toBeGreaterThan(2);
    expect(stopVegas.every(Number.isInteger), `stopVegas ticks ${stopVegas}`).toBe(true);
    await solveIn("12", "backtrack");
    await page.waitForTimeout(150);
    const nodes = await ticks("yTicks");
    expect(nodes.length).toBeGreaterThan(1);
    expect(nodes.every(Number.isInteger), `node ticks ${nodes}`).toBe(true);
    expect([fmtLeft(32_040), fmtLeft(400), fmtLeft(185_000), fmtLeft(7_620_000)]).toEqual(["32 s", "under a second", "3 min 5 s", "2 h 7 min"]);
    // The cross-check page with its table filled (one row per kernel, the widest cells it shows) on a phone.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(`${base}/crosscheck.html`);
    await phone.evaluate((kernels) => {
      const table = document.getElementById("table") as HTMLTableElement;
      table.hidden = false;
      for (const k of kernels) {
        const row = table.tBodies[0]!.insertRow();
        for (const cell of [k, "1234", "1234", "0", "0", "12.34", "diverges at columns[12]"]) row.insertCell().textContent = cell;
      }
    }, [...KERNEL_NAMES]);
    const width = await phone.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
    expect(width.scroll).toBeLessThanOrEqual(width.inner);
    await phone.close();
  });

  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    it(`fits ${viewport.width} x ${viewport.height} without horizontal scrolling, after every action; screenshot`, async () => {
      const small = await browser.newPage({ viewport });
      const pageErrors: string[] = [];
      small.on("pageerror", (e) => pageErrors.push(String(e)));
      await small.goto(`${base}/index.html`);
      const overflow = async (after: string) => {
        const { scroll, inner } = await small.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        expect(scroll, `page width after ${after} at ${viewport.width} px`).toBeLessThanOrEqual(inner);
        const wide = await small.evaluate((w) => Array.from(document.querySelectorAll("body *"))
          .filter((el) => el.getBoundingClientRect().right > w + 0.5).map((el) => el.id || el.className || el.tagName), inner);
        expect(wide, `elements past the right edge after ${after}`).toEqual([]);
      };
      await overflow("loading");
      const act = async (button: string, n: string, method?: string) => {
        await small.fill("#n", n);
        if (method) await small.selectOption("#method", method);
        await small.click(`#${button}`);
        await small.waitForSelector('#status[data-state="done"]', { timeout: 30_000 });
        await small.waitForTimeout(150); // the plot redraws within 100 ms
        await overflow(`${button} ${n}`);
        // a plot on a y scale reaches its highest point (the Las Vegas table's plot has its own t and p scales)
        const y = await small.evaluate(() => ({ ...(document.querySelector("#plot") as HTMLElement).dataset }));
        if (y.kind !== "lv") {
          expect(Number(y.yDataMax), `${button} ${n}: highest point`).toBeGreaterThan(0);
          expect(Number(y.yMax), `${button} ${n}: y axis top vs highest point`).toBeGreaterThanOrEqual(Number(y.yDataMax));
        }
      };
      await act("solve", "8", "backtrack");
      const board = await small.locator("#board").boundingBox();
      expect(board!.width).toBeGreaterThan(Math.min(300, viewport.width - 60));
      expect(Math.abs(board!.width - board!.height)).toBeLessThan(2);
      await act("count", "10");
      await act("estimate", "10");
      await act("lvtable", "8");
      await act("solve", "10^5", "min-conflicts");
      await small.selectOption("#st-method", "las-vegas");
      for (let i = 0; i < 12; i++) await small.click("#st-step");
      await overflow("stepping");
      await act("solve", "12", "backtrack");
      mkdirSync("test-artifacts", { recursive: true });
      // The screen as a phone or a projector shows it first, after a Solve of n = 8 (docs/browser.md's are taken by scripts/demo-screenshots.mjs).
      await act("solve", "8", "backtrack");
      await small.evaluate(() => window.scrollTo(0, 0));
      await small.screenshot({ path: `test-artifacts/demo-screen-${viewport.width}.png` });
      await small.screenshot({ path: `test-artifacts/demo-${viewport.width}.png`, fullPage: true });
      expect(pageErrors).toEqual([]);
      await small.close();
    });
  }

  it("solves n = 10^6, plots conflicts left for hill climbing, steps through Las Vegas; screenshot", async () => {
    await solveIn("10^6", "min-conflicts");
    expect(await page.textContent("#badge")).toMatch(/^verified: 1,000,000 queens/);
    await page.selectOption("#engine", "ts");
    await solveIn("3000", "hill-climb");
    expect(await page.textContent("#plot-title")).toBe("Conflicts left (h) vs swaps");
    expect(Number(await page.getAttribute("#plot", "data-points"))).toBeGreaterThan(3);
    expect(await page.textContent("#badge")).toMatch(/^verified: 3,000 queens/);
    await resetStepper(8, "las-vegas", 3);
    for (let i = 0; i < 30; i++) await page.click("#st-step");
    const state = await stepperState();
    expect(state.nodes).toBeGreaterThan(20);
    expect(state.fails).toBeGreaterThan(0);
    expect(await page.textContent("#f-engine")).toBe("ts"); // the Solve above is still shown
    errors.length === 0 || console.warn(errors);
    expect(errors).toEqual([]);
    mkdirSync("test-artifacts", { recursive: true });
    await page.screenshot({ path: "test-artifacts/demo.png", fullPage: true });
  });
});
