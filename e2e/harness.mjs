// The harness of the browser tests of `inarow serve`: a registry of tests,
// and one headless Chromium that runs them in turn, a fresh page each.
// scripts/e2e.sh runs test.mjs, which registers its tests and every
// `*.test.mjs` file's, then calls run().
import { chromium } from "playwright-core";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The server under test (INAROW_URL) and its state file (INAROW_STATE). */
export const url = process.env.INAROW_URL;
export const statePath = process.env.INAROW_STATE;
if (!url) throw new Error("INAROW_URL is not set: run scripts/e2e.sh");

export function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Where screenshots go: CI keeps this folder as an artifact. */
export const shotsDir = process.env.INAROW_SHOTS || "target/e2e-screenshots";

/** Saves a full-page screenshot of `page` as `shotsDir/NAME.png`. */
export async function shot(page, name) {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}.png`), fullPage: true });
}

/** The looks every page test is seen in: wide and narrow, light and dark. */
export const LOOKS = [1400, 400].flatMap((width) =>
  ["light", "dark"].map((scheme) => ({ width, scheme, name: `${width}-${scheme}` })));

/** Shows `page` in `look` (viewport width and colour scheme). */
export async function lookAs(page, look) {
  await page.setViewportSize({ width: look.width, height: 900 });
  await page.emulateMedia({ colorScheme: look.scheme });
}

/** Opens the page's analysis board (15x15) in `look`. */
export async function openAnalysis(page, look = LOOKS[0]) {
  await lookAs(page, look);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.click("#mode-analysis");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length === 225);
}

/** Clicks the empty gomoku point nearest the centre of the board. */
export async function playNearCentre(page) {
  const target = await page.$$eval("#gomoku-board button:not([disabled])", (bs) => {
    const d = (b) => Math.abs(b.dataset.x - 7) + Math.abs(b.dataset.y - 7);
    const b = bs.sort((a, c) => d(a) - d(c))[0];
    return [b.dataset.x, b.dataset.y];
  });
  await page.click(`#gomoku-board button[data-x="${target[0]}"][data-y="${target[1]}"]`);
}

const tests = [];
// INAROW_E2E_ONLY (a regular expression) runs only the tests whose names
// match it, for a quick round while working on one part of the page.
const only = process.env.INAROW_E2E_ONLY ? new RegExp(process.env.INAROW_E2E_ONLY) : null;
/** Registers a test: `fn(page, browser)` throws to fail. */
export const test = (name, fn) => { if (!only || only.test(name)) tests.push({ name, fn }); };

/**
 * How many times longer than written every wait may take: a wait's limit
 * only guards against a hang (the tests wait for events, never for time),
 * so a busy machine, slow by a few times, must not fail them.
 * INAROW_E2E_PATIENCE sets it (default 4).
 */
export const PATIENCE = Number(process.env.INAROW_E2E_PATIENCE || 4);

/** `page` with every wait's limit (the default's and each one written) PATIENCE times longer. */
function slowTolerant(page) {
  page.setDefaultTimeout(20000 * PATIENCE);
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = (fn, arg, options) =>
    waitForFunction(fn, arg, options && options.timeout ? { ...options, timeout: options.timeout * PATIENCE } : options);
  return page;
}

/** Runs every registered test (see INAROW_E2E_ONLY); exits non-zero if one failed. */
export async function run() {
  const chosen = tests;
  const profile = mkdtempSync(join(tmpdir(), "inarow-e2e-"));
  // A persistent context is how Playwright takes a fresh, empty --user-data-dir.
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      // Other sites for the safety tests: names the browser resolves to this machine.
      "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1",
      "--disable-features=HttpsUpgrades"],
  });
  let passed = 0, failed = 0;
  try {
    for (const { name, fn } of chosen) {
      const page = slowTolerant(await browser.newPage());
      try {
        await fn(page, browser);
        passed++;
        console.log(`ok - ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAIL - ${name}: ${e.message.split("\n")[0]}`);
        // INAROW_E2E_STACK=1: where in the test it failed, too.
        if (process.env.INAROW_E2E_STACK) console.log(e.stack);
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
