// The embedded Wasm survives a user's bundler: a tiny app (test/fixtures/consumer) that
// depends on the package by name, installed from the packed tarball into its node_modules
// (and nothing else with it), is bundled with `vite build` and run in Debian's Chromium.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { build } from "vite";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { serve } from "../scripts/serve.mjs";
import { solve } from "../src/index.js";
import { chromiumAvailable, launchChromium } from "./chromium.js";

const haveChromium = chromiumAvailable("bundler test");

let browser: Browser | undefined;
let server: Server | undefined;

afterAll(async () => {
  await browser?.close();
  server?.close();
});

describe.skipIf(!haveChromium)("a user's Vite build", () => {
  it("bundles the package from node_modules and runs it in Chromium with the Wasm engine", async () => {
    const app = mkdtempSync(join(tmpdir(), "nqueens-consumer-"));
    cpSync("test/fixtures/consumer", app, { recursive: true });
    // installed as a user installs it: the packed tarball, offline (it needs nothing else)
    const out = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", app], { encoding: "utf8" });
    const tarball = join(app, (JSON.parse(out) as { filename: string }[])[0]!.filename);
    execFileSync("npm", ["install", tarball, "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: app, encoding: "utf8" });
    expect(readdirSync(join(app, "node_modules")).filter((f) => !f.startsWith("."))).toEqual(["nqueens-wasm"]); // a light install
    const outDir = join(app, "dist");
    await build({ root: app, logLevel: "warn", configFile: false, build: { outDir, target: "es2022" } });
    let url: string;
    ({ server, url } = await serve(outDir));
    browser = await launchChromium();
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`${url}/index.html`);
    await page.waitForSelector("body[data-done]", { timeout: 20_000 });
    const result = JSON.parse((await page.textContent("#out"))!);
    const node = await solve(1000, { method: "min-conflicts", seed: 2 });
    expect(errors).toEqual([]);
    expect(result).toEqual({ total: "724", engine: "wasm", verified: true, method: "min-conflicts", steps: node.steps });
  });
});
