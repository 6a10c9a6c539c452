// Browser tests of issue 38's live page: the engine's thinking shown as it
// searches (its move in a game, the analysis board), analysis going on
// with each new position (after a proven win too), and the free start
// against the engine (black in the centre, or from the analysis board's
// position). Updates are counted, never timed.
import { LOOKS, assert, lookAs, shot, test, url } from "./harness.mjs";

const at = (board, x, y) => `#${board} button[data-x="${x}"][data-y="${y}"]`;
const phase = (page) => page.$eval("#gomoku-note", (n) => n.dataset.phase);
const stonesOf = (page, board) => page.$$eval(`#${board} button`, (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort());

/** Records every value of `attr` the element `sel` takes, in `window.seen[key]`. */
async function record(page, sel, attr, key) {
  await page.evaluate(([sel, attr, key]) => {
    window.seen = window.seen || {};
    const seen = window.seen[key] = [];
    const e = document.querySelector(sel);
    new MutationObserver(() => { if (e.getAttribute(attr) !== null) seen.push(Number(e.getAttribute(attr))); })
      .observe(e, { attributes: true, attributeFilter: [attr] });
  }, [sel, attr, key]);
}

/** Waits until `key`'s record holds `n` values, some rising from one to the next. */
async function rising(page, key, n) {
  await page.waitForFunction(([key, n]) => {
    const s = window.seen[key];
    return s.length >= n && s.some((v, i) => i > 0 && v > s[i - 1]);
  }, [key, n], { timeout: 30000 });
}

/** Waits for `fn` as page.waitForFunction does; a timeout names where the game stood. */
async function waitGame(page, fn, arg = null, timeout = 30000) {
  try {
    await page.waitForFunction(fn, arg, { timeout });
  } catch (e) {
    const stood = await page.evaluate(async () => {
      const g = await (await fetch("/api/gomoku")).json();
      return JSON.stringify({ phase: g.phase, note: g.note, stones: g.stones.length, start: g.start,
        shown: document.querySelector("#gomoku-note").textContent, error: document.querySelector("#gomoku-error").textContent });
    });
    throw new Error(`${e.message.split("\n")[0]}; the game: ${stood}`);
  }
}

async function openGomoku(page, look = LOOKS[0]) {
  await lookAs(page, look);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.waitForFunction(() => document.querySelector("#live").textContent === "live");
}

test("live thinking: the engine's move shows its depth, nodes, speed, score and line as they grow (400 px too)", async (page) => {
  await openGomoku(page, LOOKS[3]);
  page.on("dialog", (d) => d.accept());
  await page.selectOption("#gomoku-start", "free");
  await page.selectOption("#gomoku-you", "black");
  await page.selectOption("#gomoku-rule", "freestyle");
  await page.selectOption("#gomoku-size", "15");
  await page.selectOption("#gomoku-time", "3000");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "play");
  await record(page, "#gomoku-live", "data-nodes", "game");
  await page.click(at("gomoku-board", 7, 7));
  await rising(page, "game", 3);
  const live = await page.$eval("#gomoku-live", (e) => ({
    text: e.textContent, hidden: e.hidden, reports: Number(e.dataset.reports),
    fits: e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= window.innerWidth,
  }));
  assert(!live.hidden && live.reports >= 3, `live line: ${JSON.stringify(live)}`);
  assert(/depth \d+/.test(live.text) && /[\d,]+ nodes/.test(live.text) && /nodes\/s/.test(live.text), `live text: ${live.text}`);
  assert(/(\d+% \([-+]?\d+\)|(win|loss) in \d+) for the engine/.test(live.text), `no win rate for the engine: ${live.text}`);
  assert(live.fits, "the live line runs past a 400 px screen");
  await shot(page, `live-thinking-${LOOKS[3].name}`);
  // The move made, the live line goes.
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase !== "thinking", null, { timeout: 30000 });
  assert(await page.$eval("#gomoku-live", (e) => e.hidden), "the live line stayed after the move");
});

test("live thinking: the analysis board shows its own progress, and analysis goes on after a move or a proof, off after a refusal", async (page) => {
  await openGomoku(page);
  await page.click("#mode-analysis");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length > 0);
  if ((await stonesOf(page, "an-board")).length) await page.click("#an-clear");
  await page.selectOption("#an-size", "15");
  await page.selectOption("#an-rule", "freestyle");
  for (const [x, y] of [[7, 7], [8, 7], [8, 8]]) await page.click(at("an-board", x, y));
  await record(page, "#an-live", "data-nodes", "an");
  await page.click("#an-go");
  await rising(page, "an", 3);
  const text = await page.$eval("#an-live", (e) => e.textContent);
  assert(/depth \d+/.test(text) && /nodes\/s/.test(text) && /for white/.test(text), `live analysis: ${text}`);
  // A stone put while analysing: the new position is analysed.
  const asked = [];
  page.on("request", (r) => { if (r.url().endsWith("/api/analyse")) asked.push(JSON.parse(r.postData()).stones.length); });
  await page.click(at("an-board", 6, 6));
  await page.waitForFunction(() => document.querySelectorAll("#an-result li").length > 0, null, { timeout: 20000 });
  assert(asked.includes(4), `the new position was not asked about: ${asked}`);

  // A black four open at both ends: proven, and the analysis stays on.
  await page.click("#an-clear");
  const four = [[3, 7], [3, 3], [4, 7], [4, 3], [5, 7], [10, 10], [6, 7], [12, 1]];
  for (const [x, y] of four) await page.click(at("an-board", x, y));
  await page.waitForFunction(() => /^Proven: black wins by force/.test(document.querySelector("#an-status").textContent), null, { timeout: 20000 });
  assert(await page.$eval("#an-go", (b) => b.textContent) === "Stop", "a proof turned analysis off");
  // Every line asked for, best first: both fives (wins in 1), then a third.
  const lines = await page.$$eval("#an-result li", (ls) => ls.map((l) => l.textContent));
  assert(lines.length === Number(await page.$eval("#an-lines", (e) => e.value)), `lines shown: ${lines}`);
  assert(lines.slice(0, 2).every((l) => /win in 1/.test(l)) && !/win in 1/.test(lines[2]), `lines in order: ${lines}`);
  assert(await page.$eval("#an-live", (e) => e.hidden), "the live line stayed after the proof");
  // Black plays elsewhere: the position, white to move, is analysed
  // again without a click on Analyse, and white is lost.
  asked.length = 0;
  await page.click(at("an-board", 12, 12));
  await page.waitForFunction(() => /^Proven: white loses by force/.test(document.querySelector("#an-status").textContent),
    null, { timeout: 20000 });
  assert(asked.includes(9), `the position after black's move was not asked about: ${asked}`);

  // A position the engine cannot take (black has two stones more): one
  // line, and analysis goes off, nothing left saying it runs; Analyse on a
  // position it takes analyses again.
  await page.click("#an-clear");
  await page.selectOption("#an-place", "black");
  await page.click(at("an-board", 7, 7));
  await page.click(at("an-board", 8, 8));
  await page.waitForFunction(() => /black has 2 stones and white 0/.test(document.querySelector("#an-error").textContent));
  await page.waitForFunction(() => document.querySelector("#an-go").textContent === "Analyse");
  assert(!/Analysing/.test(await page.$eval("#an-status", (e) => e.textContent)), "the status still says analysing");
  await page.selectOption("#an-place", "white");
  await page.click(at("an-board", 9, 9));
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-result li").length > 0 &&
    document.querySelector("#an-error").textContent === "", null, { timeout: 20000 });
  await page.selectOption("#an-place", "alternate");
  await page.click("#an-go");
  assert(await page.$eval("#an-go", (b) => b.textContent) === "Analyse", "Stop did not stop");
});

test("free start: black first in the centre, either colour, and a position from the analysis board under renju", async (page) => {
  await openGomoku(page);
  page.on("dialog", (d) => d.accept());
  await page.selectOption("#gomoku-start", "free");
  assert(await page.$eval("#gomoku-opener-pick", (e) => e.hidden), "the Swap2 opener shows for a free start");
  await page.selectOption("#gomoku-you", "black");
  await page.selectOption("#gomoku-rule", "freestyle");
  await page.selectOption("#gomoku-size", "15");
  await page.selectOption("#gomoku-time", "100");
  await page.click("#gomoku-new");
  await waitGame(page, () => document.querySelector("#gomoku-note").dataset.phase === "play" &&
    /centre/.test(document.querySelector("#gomoku-note").textContent));
  assert(!await page.$eval("#gomoku-free", (e) => e.hidden) && await page.$eval("#gomoku-swap2", (e) => e.hidden), "the start's text");
  // Anywhere but the centre is refused in one line.
  await page.click(at("gomoku-board", 2, 2));
  await waitGame(page, () => /^black's first stone goes in the centre/.test(document.querySelector("#gomoku-error").textContent));
  await page.click(at("gomoku-board", 7, 7));
  await waitGame(page, () => document.querySelector("#gomoku-note").dataset.phase === "play" &&
    [...document.querySelectorAll("#gomoku-board button")].filter((b) => b.dataset.stone).length === 2, null, 30000);
  // Playing white, the engine's black stone is in the centre at once.
  await page.selectOption("#gomoku-you", "white");
  await page.click("#gomoku-new");
  await waitGame(page, () => /opened in the centre/.test(document.querySelector("#gomoku-note").textContent));
  assert((await stonesOf(page, "gomoku-board")).join(" ") === "7,7,B", `engine's opening: ${await stonesOf(page, "gomoku-board")}`);

  // A renju position set up on the analysis board, played on as black:
  // black's double three at (7,7) is crossed and refused.
  await page.click("#mode-analysis");
  await waitGame(page, () => document.querySelectorAll("#an-board button").length > 0);
  await page.selectOption("#an-size", "15");
  if ((await stonesOf(page, "an-board")).length) await page.click("#an-clear");
  await page.selectOption("#an-rule", "renju");
  await page.selectOption("#an-place", "alternate");
  for (const [x, y] of [[7, 5], [0, 0], [7, 6], [0, 2], [5, 7], [0, 4], [6, 7], [0, 6]]) await page.click(at("an-board", x, y));
  await page.selectOption("#an-play-colour", "to-move");
  await page.click("#an-play");
  await waitGame(page, () => !document.querySelector("#gomoku-play").hidden &&
    document.querySelector("#gomoku-note").dataset.phase === "play" &&
    [...document.querySelectorAll("#gomoku-board button")].filter((b) => b.dataset.stone).length === 8);
  const state = await page.evaluate(async () => (await fetch("/api/gomoku")).json());
  assert(state.start === "free" && state.rule === "renju" && state.person === "black" && state.setup === 8,
    `the game: ${JSON.stringify({ start: state.start, rule: state.rule, person: state.person, setup: state.setup })}`);
  const shown = await page.evaluate(() => ["gomoku-you", "gomoku-rule", "gomoku-start"].map((id) => document.getElementById(id).value).join(" "));
  assert(shown === "black renju free", `the game's choices shown: ${shown}`);
  assert(/set up/.test(await page.$eval('#gomoku-moves li[data-n="1"]', (l) => l.textContent)), "set-up stones not marked so");
  await page.click(at("gomoku-board", 7, 7));
  await waitGame(page, () => /^h8 is forbidden to black under renju: double three$/.test(document.querySelector("#gomoku-error").textContent));
  assert((await stonesOf(page, "gomoku-board")).length === 8, "the forbidden stone stands");
  await shot(page, "free-start-renju-1400-light");
  await page.click("#gomoku-resign");
});
