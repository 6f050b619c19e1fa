/**
 * Headless Chromium for the browser tests: Debian's `chromium` package, driven by playwright-core.
 * Without it the tests fail (loudly, saying how to install it); they never skip.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { PROJECT_ROOT } from "../e2e/server";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const RESULTS_DIR = join(PROJECT_ROOT, "test-results");

const ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The browser tests need Chromium at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true, timeout: 60_000 });
}

/** Saves a screenshot as a test artifact: test-results/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = join(RESULTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
