// Debian's Chromium for the browser tests (test/browser, demo, bundler): where it is,
// whether these tests may run, and how to launch it on this closed network.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** True when Chromium is there; in CI (CI set) a missing Chromium fails the file at once. */
export function chromiumAvailable(what: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: .ci/run must install Debian's chromium`);
  console.warn(`${what} skipped: ${CHROMIUM} not found (apt-get install -y chromium)`);
  return false;
}

/** Headless, with a fresh user-data dir (playwright's default) and no background networking. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}
