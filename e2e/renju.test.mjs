// Browser tests of renju on the page (issue 37): the rule in play and on the
// analysis board, an SGF with RU[Renju] loading as renju, black's forbidden
// points crossed while black is to move, a click on one refused in one line
// with the board unchanged, an unknown rule said in one line; a screenshot
// of the marked board at desktop width.
import { LOOKS, assert, lookAs, openAnalysis, shot, test, url } from "./harness.mjs";

const at = (board, x, y) => `#${board} button[data-x="${x}"][data-y="${y}"]`;
const stonesOn = (page) => page.$$eval("#an-board button", (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort());
/** The crossed points of `board` as "x,y why". */
const crosses = (page, board) => page.$$eval(`#${board} .forbidden`, (fs) =>
  fs.map((f) => `${f.closest("button").dataset.x},${f.closest("button").dataset.y} ${f.dataset.why}`).sort());

/**
 * Black (5,7), (6,7), (7,5), (7,6), white far away, black to move: h8,
 * (7,7), is a double three for black.
 */
const DOUBLE_THREE = "(;FF[4]GM[4]SZ[15]RU[Renju]PB[a]PW[b];B[fh];W[oo];B[gh];W[om];B[hf];W[ok];B[hg];W[aa])";

test("renju: an SGF with RU[Renju] loads as renju, black's double three is crossed and refused", async (page) => {
  await openAnalysis(page);
  assert(await page.$eval("#an-rule", (s) => s.value) === "freestyle", "the rule before loading");
  await page.fill("#an-text", DOUBLE_THREE.replace("RU[Renju]", "RU[renju]"));
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "8 of 8");
  assert(await page.$eval("#an-rule", (s) => s.value) === "renju", "RU[renju] did not load as renju");
  await page.waitForFunction(() => document.querySelectorAll("#an-board .forbidden").length > 0);
  assert((await crosses(page, "an-board")).join(" ") === "7,7 double three", `crosses: ${await crosses(page, "an-board")}`);
  assert(await page.$eval(at("an-board", 7, 7), (b) => b.getAttribute("aria-label")) === "h8: forbidden to black (double three)",
    "the crossed point's name for screen readers");
  await shot(page, "renju-forbidden-1400-light");
  // A click on the cross: the refusal beside the board, no stone put.
  const before = await stonesOn(page);
  await page.click(at("an-board", 7, 7));
  assert(await page.$eval("#an-error", (e) => e.textContent) === "h8 is forbidden to black under renju: double three",
    `refusal: ${await page.$eval("#an-error", (e) => e.textContent)}`);
  assert((await stonesOn(page)).join(" ") === before.join(" "), "a refused click put a stone");
  assert(await page.$eval("#an-at", (e) => e.textContent) === "8 of 8", "a refused click changed the moves");
  // The download keeps the rule.
  const href = await page.$eval("#an-sgf", (a) => decodeURIComponent(a.href.split(",").slice(1).join(",")));
  assert(href.includes("SZ[15]RU[Renju]AP["), `download ${href}`);
  // White to move (one move back): no cross, and white may take H8.
  await page.click("#an-prev");
  await page.waitForFunction(() => !document.querySelector("#an-board .forbidden"));
  await page.click("#an-last");
  await page.waitForFunction(() => document.querySelectorAll("#an-board .forbidden").length === 1);
  await page.selectOption("#an-place", "white");
  await page.click(at("an-board", 7, 7));
  assert((await stonesOn(page)).includes("7,7,W"), "white could not take h8");
  await page.click("#an-undo");
  await page.selectOption("#an-place", "alternate");
  // Freestyle has no forbidden points: the cross goes, and black may play there.
  await page.selectOption("#an-rule", "freestyle");
  await page.waitForFunction(() => !document.querySelector("#an-board .forbidden"));
  await page.click(at("an-board", 7, 7));
  assert((await stonesOn(page)).includes("7,7,B"), "black could not play h8 under freestyle");
  assert(await page.$eval("#an-error", (e) => e.textContent) === "", "an error under freestyle");
});

test("renju: an SGF with an unknown rule is refused in one line, the board kept", async (page) => {
  await openAnalysis(page);
  // Renju on an empty board: stones go down and come off as under any rule.
  await page.selectOption("#an-rule", "renju");
  await page.click(at("an-board", 7, 7));
  assert((await stonesOn(page)).join(" ") === "7,7,B", `renju's first stone: ${await stonesOn(page)}`);
  await page.click("#an-clear");
  assert((await stonesOn(page)).length === 0, "clear under renju");
  await page.fill("#an-text", DOUBLE_THREE);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "8 of 8");
  for (const ru of ["caro", "8"]) {
    await page.fill("#an-text", DOUBLE_THREE.replace("RU[Renju]", `RU[${ru}]`));
    await page.click("#an-load");
    const error = await page.$eval("#an-load-error", (e) => e.textContent);
    assert(error === `game 1: the rule RU[${ru}] is not one the page plays (freestyle, exact five, renju)`, `RU[${ru}]: ${error}`);
    assert(await page.$eval("#an-rule", (s) => s.value) === "renju", "the rule changed");
    assert((await stonesOn(page)).length === 8, "the board changed");
  }
  // Gomocup's number for renju loads as renju too.
  await page.selectOption("#an-rule", "exact");
  await page.fill("#an-text", DOUBLE_THREE.replace("RU[Renju]", "RU[4]"));
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-rule").value === "renju");
});

test("renju: chosen for a game against the engine, its rule said; the game's crosses drawn", async (page) => {
  await lookAs(page, LOOKS[0]);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.selectOption("#gomoku-opener", "you");
  await page.selectOption("#gomoku-rule", "renju");
  page.once("dialog", (d) => d.accept());
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-rule-text").dataset.rule === "renju");
  assert(/black wins by exactly five and may not play a double three/.test(await page.$eval("#gomoku-rule-text", (e) => e.textContent)),
    "the rule text");
  const state = await page.evaluate(async () => (await fetch("/api/gomoku")).json());
  assert(state.rule === "renju" && Array.isArray(state.forbidden), `the game: ${JSON.stringify(state)}`);
  // The play board draws the crosses the server lists (the server's list
  // and its refusal are tested in crates/web/tests/renju_api.rs).
  const stones = [[5, 7, "B"], [14, 14, "W"], [6, 7, "B"], [14, 12, "W"], [7, 5, "B"], [14, 10, "W"], [7, 6, "B"], [0, 0, "W"]];
  await page.evaluate(async (stones) => {
    const { drawGomoku } = await import("/page/gomoku.js");
    drawGomoku({
      game_id: 99, size: 15, rule: "renju", phase: "play", person_opens: true, person: "black", to_move: "black",
      time_ms: 1000, stones: stones.map(([x, y, colour]) => ({ x, y, colour, by: "you" })),
      forbidden: [{ x: 7, y: 7, why: "double three" }], thought: null, note: "Your move (black).", resigned: false,
      thinking_ms: null, can_take_back: true,
    });
  }, stones);
  assert((await crosses(page, "gomoku-board")).join(" ") === "7,7 double three", `play crosses: ${await crosses(page, "gomoku-board")}`);
  await shot(page, "renju-play-1400-light");
});

test("renju: a review of a game black lost on a forbidden point charts white's win there", async (page) => {
  await openAnalysis(page);
  // Black plays H8, its double three, as move 9: white wins, as the
  // record's result says (a record going on past it, or saying nothing of
  // it, is refused: e2e/hands.test.mjs).
  await page.fill("#an-text", DOUBLE_THREE.replace("PW[b]", "PW[b]RE[W+]").replace(/\)$/, ";B[hh])"));
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "9 of 9");
  await page.selectOption("#an-review-ms", "100");
  await page.click("#an-review");
  await page.waitForFunction(() => /^Reviewed/.test(document.querySelector("#an-review-status").textContent), null, { timeout: 60000 });
  assert(/^Reviewed 10 of 10/.test(await page.$eval("#an-review-status", (e) => e.textContent)), "the review stopped early");
  // The last position's foul is said beside the board; the review adds no error.
  const error = await page.$eval("#an-error", (e) => e.textContent);
  assert(error === "" || error === "stone 9: h8 is forbidden to black under renju: double three", `review error: ${error}`);
  const nine = await page.$eval('#an-chart circle[data-move="9"] title', (t) => t.textContent);
  assert(/after move 9: white wins by force/.test(nine), `position 9: ${nine}`);
  const marked = await page.$$eval("#an-moves li.blunder", (ls) => ls.map((l) => l.dataset.n));
  assert(marked.includes("9"), `the forbidden move is not marked: ${marked}`);
});
