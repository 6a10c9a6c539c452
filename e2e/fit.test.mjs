// Browser tests of the boards' fit (issue 38): the whole gomoku board with
// its coordinates shows without scrolling, in play and on the analysis
// board, from 5x5 to 20x20, on a laptop (1366x768), a desktop (1400x1000)
// and a phone (400x800), resized without a reload; candidate labels
// shrink on small points and show what the Labels setting picks, their
// score in the list.
// Screenshots of each in the harness's folder.
import { assert, shot, test, url } from "./harness.mjs";

const WINDOWS = [[1366, 768], [1400, 1000], [400, 800]];
const SIZES = [5, 15, 20];

/**
 * What of board `id` is out of the window at the top of the page: the
 * board, a coordinate outside it or too long for its place, a page
 * scrolling sideways; [] when all is in.
 */
const outside = (page, id) => page.evaluate((id) => {
  const w = document.documentElement.clientWidth, h = document.documentElement.clientHeight;
  const out = [];
  const check = (what, r) => {
    if (r.left < 0 || r.top < 0 || r.right > w || r.bottom > h) out.push(`${what} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)} in ${w}x${h}`);
  };
  const board = document.getElementById(id);
  check("the board", board.getBoundingClientRect());
  for (const c of board.querySelectorAll(".coord:not(:empty)")) {
    check(`coordinate ${c.textContent}`, c.getBoundingClientRect());
    const range = document.createRange();
    range.selectNodeContents(c);
    if (range.getBoundingClientRect().width > c.getBoundingClientRect().width + 0.5) out.push(`coordinate ${c.textContent} wider than its place`);
  }
  if (window.scrollY !== 0) out.push(`scrolled to ${window.scrollY}`);
  if (document.documentElement.scrollWidth > w) out.push("the page scrolls sideways");
  return out;
}, id);

/** Waits for board `id` to be refitted into the window (a resize is fitted at the next frame), then says what is still out. */
async function fitted(page, id, n) {
  await page.waitForFunction(([id, n]) => {
    const b = document.getElementById(id);
    return b.querySelectorAll("button").length === n * n &&
      b.getBoundingClientRect().bottom <= document.documentElement.clientHeight;
  }, [id, n]);
  return outside(page, id);
}

test("fit: the whole board with its coordinates in the window, 5x5 to 20x20, laptop, desktop and phone", async (page) => {
  page.on("dialog", (d) => d.accept());
  await page.setViewportSize({ width: WINDOWS[0][0], height: WINDOWS[0][1] });
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.selectOption("#gomoku-opener", "you");
  // One page, resized from one window to the next as a person would.
  for (const [width, height] of WINDOWS) {
    await page.setViewportSize({ width, height });
    await page.click("#mode-play");
    for (const n of SIZES) {
      await page.selectOption("#gomoku-size", String(n));
      await page.click("#gomoku-new");
      await page.waitForFunction((n) => document.querySelectorAll("#gomoku-board button").length === n * n &&
        document.querySelector("#gomoku-note").dataset.phase === "opening", n);
      const out = await fitted(page, "gomoku-board", n);
      assert(out.length === 0, `play ${n}x${n} at ${width}x${height}: ${out.join("; ")}`);
      const side = await page.$eval("#gomoku-board", (b) => b.getBoundingClientRect().width);
      assert(side >= 300, `play ${n}x${n} at ${width}x${height}: a board of ${side} px`);
      if (n !== 15) await shot(page, `fit-play-${n}x${n}-${width}x${height}`);
    }
    await page.click("#mode-analysis");
    for (const n of SIZES) {
      await page.selectOption("#an-size", String(n));
      const out = await fitted(page, "an-board", n);
      assert(out.length === 0, `analysis ${n}x${n} at ${width}x${height}: ${out.join("; ")}`);
      if (n !== 15) await shot(page, `fit-analysis-${n}x${n}-${width}x${height}`);
    }
  }
  // The game the other tests find: 15x15, as the page starts.
  await page.click("#mode-play");
  await page.selectOption("#gomoku-size", "15");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelectorAll("#gomoku-board button").length === 225);
});

/**
 * The candidates of the analysis board, best first: the text each shows,
 * its font size, whether it fits inside its ring, and its title (win rate
 * and score).
 */
const candidates = (page) => page.$$eval("#an-board .cand", (cs) => cs.map((c) => {
  const font = parseFloat(getComputedStyle(c).fontSize);
  const range = document.createRange();
  range.selectNodeContents(c);
  const fits = range.getBoundingClientRect().width <= c.clientWidth + 0.5;
  return { rank: c.dataset.rank, shown: c.textContent, font, fits, score: c.title.replace(/^\d+%, /, "") };
}).sort((a, b) => a.rank - b.rank));

/** Black four from (3,7) to (6,7) open at both ends, white scattered: black to move wins in 1 (W1). */
const FOUR = [[3, 7], [3, 3], [4, 7], [4, 3], [5, 7], [10, 10], [6, 7], [12, 1]];

/** The candidates of FOUR analysed on an `n` board in a `width` x `height` window (proven: its analysis ends). */
async function analyseFour(page, n, width, height) {
  await page.setViewportSize({ width, height });
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.click("#mode-analysis");
  await page.selectOption("#an-size", String(n));
  for (const [x, y] of FOUR) await page.click(`#an-board button[data-x="${x}"][data-y="${y}"]`);
  await page.selectOption("#an-lines", "5");
  await page.click("#an-go");
  // Proven, the position's analysis ends (the board stays ready for the next position).
  await page.waitForFunction(() => document.querySelector("#an-board .cand") &&
    document.querySelector("#an-status").textContent.startsWith("Proven"), null, { timeout: 20000 });
  return candidates(page);
}

test("fit: candidate labels readable on small points, shrunk rather than changed, the score in the list", async (page) => {
  // A phone and 20x20: points about 15 px; the win rate (the default label) shrinks to fit.
  let cands = await analyseFour(page, 20, 400, 800);
  for (const c of cands) {
    assert(c.font >= 7 && c.fits, `20x20 at 400 px: candidate ${c.rank} shows ${c.shown} at ${c.font} px, fits ${c.fits}`);
  }
  // A proven win shows as one (W1), never as a chance.
  assert(cands[0].rank === "1" && cands[0].score === "win in 1" && cands[0].shown === "W1",
    `20x20 at 400 px: the best candidate ${JSON.stringify(cands[0])}`);
  const lines = await page.$$eval("#an-result li", (ls) => ls.map((l) => l.textContent));
  assert(lines.length === cands.length, `${lines.length} lines for ${cands.length} candidates`);
  for (const c of cands) {
    assert(lines[Number(c.rank) - 1].includes(c.score), `candidate ${c.rank}'s score ${c.score} not in the list: ${lines}`);
  }
  assert((await outside(page, "an-board")).length === 0, "the 20x20 board is out of the window");
  await shot(page, "fit-candidates-20x20-400x800");
  // A desktop and 15x15: points of about 48 px show the same at full size.
  cands = await analyseFour(page, 15, 1400, 1000);
  for (const c of cands) assert(c.font >= 9 && c.fits, `15x15 at 1400 px: candidate ${c.rank} shows ${c.shown} at ${c.font} px`);
  assert(cands[0].shown === "W1", `15x15 at 1400 px: the best candidate ${JSON.stringify(cands[0])}`);
  await shot(page, "fit-candidates-15x15-1400x1000");
});
