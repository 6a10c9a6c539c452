// A link for every position of the analysis board (issue 48): the address
// read and written (crates/web/page/link.js, run in node as the browser
// runs it); in the browser, a link opened in a new page shows the same
// position, Back and Forward step through the positions played, and a bad
// link is one line on an empty board.
import { readFileSync } from "node:fs";
import { assert, openAnalysis, test, url } from "./harness.mjs";

const source = readFileSync(new URL("../crates/web/page/link.js", import.meta.url), "utf8");
const { positionLink, readLink } = await import("data:text/javascript," + encodeURIComponent(source));

const same = (got, want, what) => assert(JSON.stringify(got) === JSON.stringify(want), `${what}: ${JSON.stringify(got)}`);

test("link: addresses written and read back", async () => {
  const link = positionLink({ rule: "renju", size: 15, moves: ["h8", "i9", "j10"] });
  same(link, "#/analysis?rule=renju&size=15&moves=h8i9j10", "written");
  same(readLink(link), { rule: "renju", size: 15, moves: [[7, 7], [8, 6], [9, 5]] }, "read back");
  // Row 1 is the bottom whatever the size; t20 the top right of 20x20; upper case read.
  same(readLink("#/analysis?size=20&moves=A1T20").moves, [[0, 19], [19, 0]], "a1 and t20 on 20x20");
  same(readLink("#/analysis"), { rule: "freestyle", size: 15, moves: [] }, "the empty board");
  const byColour = positionLink({ rule: "exact", size: 9, black: ["e5", "a1"], white: [] });
  same(byColour, "#/analysis?rule=exact&size=9&black=e5a1&white=", "by colour");
  same(readLink(byColour), { rule: "exact", size: 9, black: [[4, 4], [0, 8]], white: [] }, "by colour read back");
  // Not a link to the board: the page's other addresses are left alone.
  for (const hash of ["", "#", "#/", "#/analysisx", "#menace"]) same(readLink(hash), null, hash);
});

test("link: a bad address is one line naming what is wrong", async () => {
  for (const [hash, want] of [
    ["#/analysis?rule=caro", 'bad link: unknown rule "caro" (rules: freestyle, exact, renju)'],
    ["#/analysis?size=4", 'bad link: size must be 5 to 20, not "4"'],
    ["#/analysis?size=21", 'bad link: size must be 5 to 20, not "21"'],
    ["#/analysis?size=1e1", 'bad link: size must be 5 to 20, not "1e1"'],
    ["#/analysis?moves=h8p8", "bad link: moves: point 2, p8, is off the 15x15 board: columns are a to o and rows 1 to 15"],
    ["#/analysis?size=9&moves=e10", "bad link: moves: point 1, e10, is off the 9x9 board: columns are a to i and rows 1 to 9"],
    ["#/analysis?moves=h8i9h8", "bad link: moves: point 3, h8, is taken twice (moves point 1)"],
    ["#/analysis?black=h8&white=h8", "bad link: white: point 1, h8, is taken twice (black point 1)"],
    ["#/analysis?moves=h8%20i9", 'bad link: moves: " i9" at point 2 is not a point such as h8'],
    ["#/analysis?moves=h0", 'bad link: moves: "h0" at point 1 is not a point such as h8'],
    ["#/analysis?moves=h8&black=i9", "bad link: give moves, or black and white, not both"],
    ["#/analysis?moves=h8&moves=i9", "bad link: moves is given twice"],
    ["#/analysis?colour=black", 'bad link: unknown field "colour" (fields: rule, size, moves, or black and white)'],
  ]) same(readLink(hash).error, want, hash);
  // What was good of it is kept: the board is left empty under it.
  same(readLink("#/analysis?rule=renju&size=9&moves=zz"), {
    error: 'bad link: moves: "zz" at point 1 is not a point such as h8', rule: "renju", size: 9,
  }, "rule and size kept");
});

const stonesOn = (page) => page.$$eval("#an-board button", (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort().join(" "));
const at = (x, y) => `#an-board button[data-x="${x}"][data-y="${y}"]`;
const hash = (page) => page.evaluate(() => location.hash);
/** Waits for the analysis board to show `n` stones, on a board of side `size`. */
const showing = (page, n, size = 15) => page.waitForFunction(([n, size]) =>
  document.querySelectorAll("#an-board button").length === size * size &&
  [...document.querySelectorAll("#an-board button")].filter((b) => b.dataset.stone).length === n, [n, size]);

test("link: a link opened in a new page shows the same position", async (page, browser) => {
  await openAnalysis(page);
  await page.selectOption("#an-size", "13");
  await page.selectOption("#an-rule", "renju");
  for (const [x, y] of [[6, 6], [7, 5], [5, 7]]) await page.click(at(x, y));
  await showing(page, 3, 13);
  const link = await hash(page);
  assert(link === "#/analysis?rule=renju&size=13&moves=g7h8f6", `the address follows: ${link}`);
  const want = await stonesOn(page);

  const other = await browser.newPage();
  try {
    await other.goto(url + link);
    await showing(other, 3, 13);
    assert(await stonesOn(other) === want, `stones: ${await stonesOn(other)}, not ${want}`);
    assert(await other.$eval("#an-rule", (s) => s.value) === "renju", "the rule");
    assert(await other.$eval("#an-size", (s) => s.value) === "13", "the size");
    assert(await other.$eval("#an-at", (s) => s.textContent) === "3 of 3", "the moves");
    assert(!await other.$eval("#tab-gomoku", (s) => s.hidden) && !await other.$eval("#analysis", (s) => s.hidden), "the analysis board in view");
    // Renju's forbidden marks come with the position, as they do for stones placed.
    const colours = await other.$$eval("#an-moves .dot", (ds) => ds.map((d) => d.className).join(" "));
    assert(colours === "dot b dot w dot b", `colours in turn from black: ${colours}`);
    // Pasted into the address bar of a page already open: the position it names.
    await other.evaluate(() => { location.hash = "#/analysis?rule=freestyle&size=15&moves=h8"; });
    await showing(other, 1, 15);
    assert(await stonesOn(other) === "7,7,B", `pasted link: ${await stonesOn(other)}`);
    assert(await other.$eval("#an-rule", (s) => s.value) === "freestyle", "the pasted link's rule");
  } finally {
    await other.close();
  }
});

test("link: Back and Forward step through the positions", async (page) => {
  await openAnalysis(page);
  const start = await hash(page);
  assert(start === "#/analysis?rule=freestyle&size=15&moves=", `the empty board's address: ${start}`);
  for (const [x, y] of [[7, 7], [8, 6], [9, 5]]) await page.click(at(x, y));
  await showing(page, 3);
  assert(await hash(page) === "#/analysis?rule=freestyle&size=15&moves=h8i9j10", `after three stones: ${await hash(page)}`);
  await page.goBack();
  await showing(page, 2);
  assert(await hash(page) === "#/analysis?rule=freestyle&size=15&moves=h8i9", `Back: ${await hash(page)}`);
  // Stepped back, the later move is kept, as the board's own < keeps it.
  assert(await page.$eval("#an-at", (s) => s.textContent) === "2 of 3", "Back steps to move 2 of 3");
  await page.goBack();
  await showing(page, 1);
  await page.goBack();
  await showing(page, 0);
  await page.goForward();
  await showing(page, 1);
  assert(await stonesOn(page) === "7,7,B", `Forward: ${await stonesOn(page)}`);
  await page.goForward();
  await page.goForward();
  await showing(page, 3);
  assert(await stonesOn(page) === "7,7,B 8,6,W 9,5,B", `Forward to the end: ${await stonesOn(page)}`);
  // A stone taken back (Undo) is a new position too: Back brings it again.
  await page.click("#an-undo");
  await showing(page, 2);
  await page.goBack();
  await showing(page, 3);
  assert(await page.$eval("#an-at", (s) => s.textContent) === "3 of 3", "Back after Undo");
});

test("link: a bad link is one line, on an empty board", async (page) => {
  for (const [link, want, size] of [
    ["#/analysis?rule=caro&moves=h8", 'bad link: unknown rule "caro" (rules: freestyle, exact, renju)', 15],
    ["#/analysis?size=30", 'bad link: size must be 5 to 20, not "30"', 15],
    ["#/analysis?size=9&moves=e5j1", "bad link: moves: point 2, j1, is off the 9x9 board: columns are a to i and rows 1 to 9", 9],
    ["#/analysis?moves=h8i9h8", "bad link: moves: point 3, h8, is taken twice (moves point 1)", 15],
    ["#/analysis?moves=h8,i9", 'bad link: moves: ",i9" at point 2 is not a point such as h8', 15],
    // The server reads the moves as a game under renju: h8 is a double three for black.
    ["#/analysis?rule=renju&moves=f8o1g8o3h10o5h9a15h8", "bad link: move 9: h8 is forbidden to black under renju: double three", 15],
  ]) {
    await page.goto(url + link);
    await page.waitForFunction((want) => document.querySelector("#an-error").textContent === want, want)
      .catch(async () => { throw new Error(`${link}: the error line says "${await page.$eval("#an-error", (e) => e.textContent)}"`); });
    await showing(page, 0, size);
    assert(!await page.$eval("#analysis", (s) => s.hidden), `${link}: the analysis board in view`);
    // The address is left as it was, to be mended.
    assert(await hash(page) === link, `${link}: the address became ${await hash(page)}`);
  }
  // The renju link without its forbidden move opens.
  await page.goto(url + "#/analysis?rule=renju&moves=f8o1g8o3h10o5h9a15");
  await showing(page, 8);
  assert(await page.$eval("#an-error", (e) => e.textContent) === "", "no error for a good link");
  // Black to move: h8 is crossed as forbidden, as on a board set up by hand.
  await page.waitForSelector(`${at(7, 7)} .forbidden`);
});
