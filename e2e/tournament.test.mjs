// Browser tests of the tournament seeds (issue #28): a seed past 2^53 goes
// to the server and comes back digit for digit, an empty seed field plays a
// fresh seed, shown with the run, and each run writes files of its own
// (issue #38); a game forfeited before its first stone names who and why.
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
  // The run's own results file, named on the page, holds its seed; one
  // written by an earlier run (another test's) is kept as it was.
  const files = await page.$eval("#tour-files", (d) => d.textContent);
  assert(files.startsWith(`Written: results in ${run.writes.results}, SGF records in ${run.writes.sgf}.`), `files: ${files}`);
  const { existsSync, readFileSync } = await import("node:fs");
  const seedIn = (path) => new RegExp(`"seed": ?${big}\\b`).test(readFileSync(path, "utf8"));
  assert(seedIn(run.writes.results), "the results file holds another seed");
  if (process.env.INAROW_RESULTS && run.writes.results !== process.env.INAROW_RESULTS) {
    assert(run.writes.numbered && /-\d+\.json$/.test(run.writes.results), `numbered: ${JSON.stringify(run.writes)}`);
    assert(files.endsWith("Earlier results are kept: each tournament from the page writes files of its own."), files);
    assert(existsSync(process.env.INAROW_RESULTS) && !seedIn(process.env.INAROW_RESULTS), "an earlier results file was written over");
  }
  const fresh = await start(page, "");
  assert(/^\d+$/.test(fresh) && fresh !== big && fresh !== "3", `fresh seed ${fresh}`);
  // A seed that is no number is refused in one line, nothing started.
  await page.fill("#tour-seed", "12a");
  await page.click("#tour-start");
  await page.waitForFunction(() => /seed "12a" is not a whole number/.test(document.querySelector("#tour-error").textContent));
  assert(await seedShown(page) === fresh, "a refused seed changed the run");
});

test("tournament: a game forfeited before its first stone says who and why, with nothing to replay", async (page) => {
  await page.goto(url);
  await page.click('header button[data-tab="tournament"]');
  await page.waitForFunction(() => !document.querySelector("#tour-start").disabled, null, { timeout: 60000 });
  // The page draws what the server sends: here a finished run with such a
  // game (a bot that left before its first answer) beside a played one.
  await page.evaluate(async () => {
    const { drawTournament } = await import("/page/tournament.js");
    const game = (index, a, b, more) => ({ index, a, b, black: null, white: null, winner: "alice", reason: "forfeit", forfeit: null, forfeit_by: null, stones: 0, ...more });
    drawTournament({ running: false, run: {
      seed: "1", jobs: 2, timeout_ms: 500, bots: ["alice", "mute"], left_out: [], total: 2, played: 2,
      standings: [], live: [], saved: null, save_error: null, restored: null, writes: null,
      games: [
        game(0, "mute", "alice", { forfeit: "EOF: closed its output without answering", forfeit_by: "mute" }),
        game(1, "alice", "mute", { black: "alice", white: "mute", reason: "five", stones: 9 }),
      ],
    } });
  });
  const rows = await page.$$eval("#tour-games tbody tr", (rs) => rs.map((r) => ({
    cells: [...r.children].map((c) => c.textContent), replay: !!r.querySelector("button"),
  })));
  assert(rows.length === 2, `rows ${JSON.stringify(rows)}`);
  const [forfeited, played] = rows;
  assert(forfeited.cells[1] === "mute (opening) – alice, no colours chosen", `players: ${forfeited.cells[1]}`);
  assert(forfeited.cells[2] === "mute forfeits: EOF: closed its output without answering; alice wins", `result: ${forfeited.cells[2]}`);
  assert(!forfeited.replay, "a game without stones offers a replay");
  assert(!/\?/.test(forfeited.cells.join(" ")), `a "?" for a name: ${forfeited.cells}`);
  assert(played.cells[1] === "alice (black) – mute (white)" && played.replay, `played: ${JSON.stringify(played)}`);
});
