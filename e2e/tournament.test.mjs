// Browser tests of the tournament seeds (issue #28): a seed past 2^53 goes
// to the server and comes back digit for digit, and an empty seed field
// plays a fresh seed, shown with the run.
import { assert, test, url } from "./harness.mjs";

const seedShown = (page) => page.$eval("#tour-status", (s) => (/seed (\S+),/.exec(s.textContent) || [])[1]);

/** Runs a tournament with `seed` typed in; the seed it shows once finished. */
async function start(page, seed) {
  await page.waitForFunction(() => !document.querySelector("#tour-start").disabled, null, { timeout: 60000 });
  const before = await seedShown(page);
  await page.fill("#tour-seed", seed);
  await page.click("#tour-start");
  // The run asked for, not the one before it, has finished.
  await page.waitForFunction(([seed, before]) => {
    const m = /^Finished: seed (\S+),/.exec(document.querySelector("#tour-status").textContent);
    return m && (seed ? m[1] === seed : m[1] !== before);
  }, [seed, before], { timeout: 60000 });
  return seedShown(page);
}

test("tournament: seeds as strings end to end, an empty seed picks a fresh one", async (page) => {
  await page.goto(url);
  await page.click('header button[data-tab="tournament"]');
  const big = "8059172584571767658";
  assert(await start(page, big) === big, "the seed came back changed");
  const run = await page.evaluate(async () => (await (await fetch("/api/tournament")).json()).run);
  assert(run.seed === big, `the API's seed ${JSON.stringify(run.seed)}`);
  if (process.env.INAROW_RESULTS) {
    const { readFileSync } = await import("node:fs");
    const text = readFileSync(process.env.INAROW_RESULTS, "utf8");
    assert(new RegExp(`"seed": ?${big}\\b`).test(text), "the results file holds another seed");
  }
  const fresh = await start(page, "");
  assert(/^\d+$/.test(fresh) && fresh !== big && fresh !== "3", `fresh seed ${fresh}`);
  // A seed that is no number is refused in one line, nothing started.
  await page.fill("#tour-seed", "12a");
  await page.click("#tour-start");
  await page.waitForFunction(() => /seed "12a" is not a whole number/.test(document.querySelector("#tour-error").textContent));
  assert(await seedShown(page) === fresh, "a refused seed changed the run");
});
