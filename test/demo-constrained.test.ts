// The demo page on constrained boards in Chromium, as test/demo.test.ts drives the
// page: in edit mode a click cycles a square free -> given queen -> blocked; Solve, Count and
// the step-through then honour them; "no completion" is shown with its reason. Every board
// the page shows is checked here (a solution, the given queens kept, no blocked square used),
// and the figures are compared with the library's own answers in Node.
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { count, solve, trace } from "../src/index.js";
import { chromiumAvailable } from "./chromium.js";
import { useDemoPage } from "./demo-page.js";
import { isSolution } from "./helpers.js";

const haveChromium = chromiumAvailable("demo tests");

const demo = useDemoPage({ width: 1180, height: 1000 }, haveChromium);
const errors = demo.errors;
let page: Page;
beforeAll(() => ({ page } = demo));

type Pair = [number, number];

/** A solution that keeps the given queens and uses no blocked square (written here, independent of the package). */
function honours(columns: number[], n: number, fixed: Pair[], blocked: Pair[]): boolean {
  return columns.length === n && isSolution(columns) && fixed.every(([r, c]) => columns[r] === c) && blocked.every(([r, c]) => columns[r] !== c);
}

/** Click square (row, col) of a canvas showing an n x n board. */
async function clickSquare(canvas: string, n: number, row: number, col: number): Promise<void> {
  const box = (await page.locator(canvas).boundingBox())!;
  await page.mouse.click(box.x + box.width * ((col + 0.5) / n), box.y + box.height * ((row + 0.5) / n));
}

/** Starts editing an n x n board with nothing marked. */
async function editBoard(n: number): Promise<void> {
  await page.fill("#n", String(n));
  if (!(await page.isChecked("#edit-givens"))) await page.check("#edit-givens");
  await page.click("#clear-givens");
  expect(await page.getAttribute("#board-panel", "data-n")).toBe(String(n));
}

/** Marks squares: each given square clicked once, each blocked one twice. */
async function mark(n: number, fixed: Pair[], blocked: Pair[]): Promise<void> {
  for (const [r, c] of fixed) await clickSquare("#board", n, r, c);
  for (const [r, c] of blocked) { await clickSquare("#board", n, r, c); await clickSquare("#board", n, r, c); }
}

async function marked(): Promise<{ fixed: Pair[]; blocked: Pair[] }> {
  return {
    fixed: JSON.parse((await page.getAttribute("#board-panel", "data-given"))!) as Pair[],
    blocked: JSON.parse((await page.getAttribute("#board-panel", "data-blocked"))!) as Pair[],
  };
}

async function solveIn(method: string): Promise<void> {
  await page.selectOption("#method", method);
  await page.click("#solve");
  await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
}

describe.skipIf(!haveChromium)("the demo on constrained boards", () => {
  it("a click cycles free -> given -> blocked -> free, shown on the board and in the summary", async () => {
    await editBoard(8);
    expect(await marked()).toEqual({ fixed: [], blocked: [] });
    await clickSquare("#board", 8, 2, 5);
    expect(await marked()).toEqual({ fixed: [[2, 5]], blocked: [] });
    expect(await page.textContent("#givens-summary")).toMatch(/1 given queen, 0 blocked squares/);
    await clickSquare("#board", 8, 2, 5);
    expect(await marked()).toEqual({ fixed: [], blocked: [[2, 5]] });
    await clickSquare("#board", 8, 2, 5);
    expect(await marked()).toEqual({ fixed: [], blocked: [] });
    // the given square is drawn blue, the blocked one dark
    await clickSquare("#board", 8, 0, 0);
    await mark(8, [], [[7, 7]]);
    const [given, blocked] = await page.evaluate(() => {
      const c = document.getElementById("board") as HTMLCanvasElement;
      const cell = c.width / 8;
      const g = c.getContext("2d")!;
      const at = (row: number, col: number) => Array.from(g.getImageData(Math.floor(col * cell + 2), Math.floor(row * cell + 2), 1, 1).data);
      return [at(0, 0), at(7, 7)];
    });
    expect(given[2]).toBeGreaterThan(given[0] + 40); // blue over red
    expect(Math.max(blocked[0], blocked[1], blocked[2])).toBeLessThan(90); // dark
    expect(errors).toEqual([]);
  });

  it("Solve honours given queens and blocked squares with every method, the same board as solve() in Node", async () => {
    const n = 10;
    const fixed: Pair[] = [[0, 2], [6, 1]];
    const blocked: Pair[] = [[1, 4], [2, 0], [3, 3], [9, 9]];
    await editBoard(n);
    await mark(n, fixed, blocked);
    expect(await marked()).toEqual({ fixed, blocked });
    await page.fill("#seed", "3");
    for (const method of ["complete", "las-vegas", "hybrid", "hill-climb", "min-conflicts", "backtrack"]) {
      await solveIn(method);
      const columns = JSON.parse((await page.getAttribute("#board-panel", "data-columns"))!) as number[];
      expect(honours(columns, n, fixed, blocked), method).toBe(true);
      expect(await page.getAttribute("#badge", "data-ok")).toBe("true");
      const node = await solve(n, { method: method as "complete", fixed, blocked, ...(method === "complete" || method === "backtrack" ? {} : { seed: 3 }) });
      expect(columns, method).toEqual(Array.from(node.columns!));
      // the givens stay marked after the solve
      expect(await marked()).toEqual({ fixed, blocked });
    }
    await page.screenshot({ path: join(tmpdir(), "nqueens-demo-constrained.png") }); // left there for a look
    expect(errors).toEqual([]);
  });

  it("no completion: the attacking pair is named; a closed board is proved by exhaustive search", async () => {
    await editBoard(8);
    await mark(8, [[2, 3], [5, 6]], []);
    await solveIn("las-vegas");
    const note = (await page.textContent("#board-note"))!;
    expect(note).toMatch(/No completion/);
    expect(note).toContain("(2, 3)");
    expect(note).toContain("(5, 6)");
    expect(await page.getAttribute("#board-panel", "data-shows")).toBe("none");

    // Two given queens that leave no room for the rest: 'complete' proves it by trying everything.
    const fixed: Pair[] = [[0, 0], [1, 2]];
    const node = await solve(8, { method: "complete", fixed });
    expect(node.reason).toBe("no-solution");
    await editBoard(8);
    await mark(8, fixed, []);
    await solveIn("complete");
    expect(await page.textContent("#board-note")).toMatch(/No completion: proved by exhaustive search/);
    expect(errors).toEqual([]);
  });

  it("Count counts the completions of the marked board (as count() in Node)", async () => {
    const n = 8;
    const fixed: Pair[] = [[0, 0]];
    const blocked: Pair[] = [[4, 2], [5, 5]];
    await editBoard(n);
    await mark(n, fixed, blocked);
    await page.click("#count");
    await page.waitForSelector('#status[data-state="done"]', { timeout: 20_000 });
    const node = await count(n, { fixed, blocked });
    expect(node.total).toBeGreaterThan(0n);
    expect(await page.textContent("#status")).toContain(`${node.total} solutions`);
    expect(errors).toEqual([]);
  });

  it("Step through keeps the given queens and ends on solve()'s board", async () => {
    const n = 8;
    const fixed: Pair[] = [[3, 4]];
    const blocked: Pair[] = [[0, 0], [0, 1], [1, 3]];
    await editBoard(n);
    await mark(n, fixed, blocked);
    await page.fill("#seed", "5");
    await page.selectOption("#method", "hybrid"); // the stopVegas field is enabled for hybrid only
    await page.fill("#stopVegas", "4");
    for (const method of ["backtrack", "las-vegas", "hybrid", "hill-climb"] as const) {
      await page.selectOption("#st-method", method);
      await page.click("#st-reset");
      expect(await page.getAttribute("#st-status", "data-kind")).toBe("start");
      await page.click("#st-step");
      await page.click("#st-end");
      expect(await page.getAttribute("#st-status", "data-kind")).toBe("solution");
      const columns = JSON.parse((await page.getAttribute("#st-board", "data-columns"))!) as number[];
      expect(honours(columns, n, fixed, blocked), method).toBe(true);
      const events = [...trace(n, { method, seed: 5, fixed, blocked, ...(method === "hybrid" ? { stopVegas: 4 } : {}) })];
      expect(columns, method).toEqual(Array.from(events[events.length - 1].columns));
      if (method === "las-vegas") await page.locator("#stepper").screenshot({ path: join(tmpdir(), "nqueens-demo-constrained-step.png") });
    }
    await page.fill("#stopVegas", "");
    await page.selectOption("#method", "auto");
    await page.uncheck("#edit-givens");
    await page.click("#clear-givens");
    expect(errors).toEqual([]);
  });
});
