// Browser tests of positions as text (issue 38): points named as gomoku
// players write them (h8), a board's stones copied as text and moves
// pasted back (names, x,y pairs, move numbers), a bad move refused in one
// line naming it, beside the box; and Clear forgetting what was loaded.
import { LOOKS, assert, lookAs, openAnalysis, test, url } from "./harness.mjs";

const stonesOn = (page) => page.$$eval("#an-board button", (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort().join(" "));
const at = (board, x, y) => `#${board} button[data-x="${x}"][data-y="${y}"]`;
const text = (page, sel) => page.$eval(sel, (e) => e.textContent);

/** Pastes `moves` into the analysis board's box and loads them. */
async function paste(page, moves) {
  await page.fill("#an-text", moves);
  await page.click("#an-load");
}

test("text: the analysis board's stones copied as h8 i9 j10, and moves pasted back", async (page, browser) => {
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  await openAnalysis(page);
  for (const [x, y] of [[7, 7], [8, 6], [9, 5]]) await page.click(at("an-board", x, y));
  // Points as players write them: on the board, its coordinates and the move list.
  assert(await page.$eval(at("an-board", 7, 7), (b) => b.getAttribute("aria-label")) === "h8: black stone 1", "h8's name");
  const cols = await page.$$eval("#an-board .coord.col", (cs) => cs.map((c) => c.textContent).join(""));
  assert(cols === "abcdefghijklmno", `columns ${cols}`);
  const listed = await page.$$eval("#an-moves li", (ls) => ls.map((l) => l.textContent.trim()).join(" "));
  assert(listed === "h8 i9 j10", `move list ${listed}`);

  await page.click("#an-copy");
  await page.waitForFunction(() => document.querySelector("#an-copied").textContent === "Copied: h8 i9 j10");
  assert(await page.evaluate(() => navigator.clipboard.readText()) === "h8 i9 j10", "the clipboard");
  // The position shown, not the whole game: one move back, two moves.
  await page.click("#an-prev");
  await page.click("#an-copy");
  await page.waitForFunction(() => document.querySelector("#an-copied").textContent === "Copied: h8 i9");

  // Pasted back in every way core's parse_moves reads: the same three stones.
  for (const moves of ["h8 i9 j10", "1. H8 2. I9 3. J10", "7,7 8, 6 9,5", "h8, i9; j10\n"]) {
    await page.click("#an-clear");
    await paste(page, moves);
    await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 3");
    assert(await stonesOn(page) === "7,7,B 8,6,W 9,5,B", `${moves}: ${await stonesOn(page)}`);
    assert(await text(page, "#an-load-error") === "", `${moves}: an error`);
  }
  // On the board's size: t20 is a corner of 20x20, a1 the bottom left.
  await page.selectOption("#an-size", "20");
  await paste(page, "a1 t20");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "2 of 2");
  assert(await stonesOn(page) === "0,19,B 19,0,W", `20x20: ${await stonesOn(page)}`);
  // Back to 15x15: t20 is off it, and the page asks before clearing.
  page.once("dialog", (d) => d.accept());
  await page.selectOption("#an-size", "15");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length === 225);

  // A bad move: one line naming it, beside the box; the board kept.
  await paste(page, "h8 i9 j10");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 3");
  for (const [moves, want] of [
    ["h8 p8", "move 2: p8 is off the 15x15 board: columns are a to o and rows 1 to 15"],
    ["h8 i9 h8", "move 3: h8 is already taken by move 1"],
    ["1. h8 2. 8h", 'move 2: expected a move such as h8 (a column letter, then a row number), got "8h"'],
    ["7,7 15,0", "move 2: 15,0 is off the 15x15 board: x and y are 0 to 14"],
  ]) {
    await paste(page, moves);
    await page.waitForFunction((want) => document.querySelector("#an-load-error").textContent === want, want);
    assert(await stonesOn(page) === "7,7,B 8,6,W 9,5,B", `${moves} changed the board`);
  }
  // A good paste clears the error.
  await paste(page, "h8");
  await page.waitForFunction(() => document.querySelector("#an-load-error").textContent === "" &&
    document.querySelector("#an-at").textContent === "1 of 1");

  // Stones that are not black's and white's in turn cannot be moves: said in one line.
  await page.click("#an-clear");
  await page.selectOption("#an-place", "black");
  await page.click(at("an-board", 1, 1));
  await page.click(at("an-board", 2, 2));
  await page.click("#an-copy");
  await page.waitForFunction(() => document.querySelector("#an-load-error").textContent ===
    "cannot write the position as moves: black has 2 stones and white 0: black must have as many as white or one more");
  assert(await text(page, "#an-copied") === "", "something was copied");

  // A browser that refuses the clipboard: the text is shown to copy by hand.
  await page.selectOption("#an-place", "alternate");
  await page.click("#an-clear");
  await page.click(at("an-board", 7, 7));
  await page.evaluate(() => { navigator.clipboard.writeText = () => Promise.reject(new Error("denied")); });
  await page.click("#an-copy");
  await page.waitForFunction(() => document.querySelector("#an-copied").textContent === "Copy by hand: h8");
});

test("text: the game against the engine copied as text, black and white in turn", async (page, browser) => {
  await browser.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(url).origin });
  await lookAs(page, LOOKS[0]);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.selectOption("#gomoku-opener", "you");
  await page.selectOption("#gomoku-size", "15");
  await page.selectOption("#gomoku-rule", "freestyle");
  await page.selectOption("#gomoku-time", "100");
  // Another test's game may be in progress: abandon it.
  page.on("dialog", (d) => d.accept());
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "opening" &&
    !document.querySelector("#gomoku-board button[data-stone=B]"));
  const blacks = (n) => page.waitForFunction((n) => document.querySelectorAll('#gomoku-board button[data-stone="B"]').length === n, n);
  await page.click(at("gomoku-board", 7, 7));
  await blacks(1);
  await page.click("#gomoku-copy");
  await page.waitForFunction(() => document.querySelector("#gomoku-copied").textContent === "Copied: h8");
  // Two black stones and no white one cannot be moves in turn: said in one line.
  await page.click(at("gomoku-board", 8, 8));
  await blacks(2);
  await page.click("#gomoku-copy");
  await page.waitForFunction(() => document.querySelector("#gomoku-error").textContent ===
    "cannot write the position as moves: black has 2 stones and white 0: black must have as many as white or one more");
  // White's stone, then the engine's answer: black's and white's stones in turn.
  await page.click(at("gomoku-board", 8, 6));
  await page.waitForFunction(() => ["colour", "play", "over"].includes(document.querySelector("#gomoku-note").dataset.phase), null, { timeout: 30000 });
  const want = await page.$$eval("#gomoku-board button[data-stone]:not([data-stone=''])", (bs) => {
    const byN = (c) => bs.filter((b) => b.dataset.stone === c)
      .sort((a, b) => a.querySelector(".stone").dataset.n - b.querySelector(".stone").dataset.n)
      .map((b) => b.getAttribute("aria-label").split(":")[0]);
    const [b, w] = [byN("B"), byN("W")];
    return b.flatMap((p, i) => (w[i] ? [p, w[i]] : [p])).join(" ");
  });
  assert(want.startsWith("h8 i9 i7"), `the stones on the board: ${want}`);
  await page.click("#gomoku-copy");
  await page.waitForFunction((want) => document.querySelector("#gomoku-copied").textContent === `Copied: ${want}`, want);
  assert(await page.evaluate(() => navigator.clipboard.readText()) === want, "the clipboard");
  assert(await text(page, "#gomoku-error") === "", "the error stayed");
});

test("analysis: Clear forgets the file, the pasted text, the games and the review", async (page) => {
  await openAnalysis(page);
  const sgf = "(;FF[4]GM[4]SZ[15];B[hh];W[ih];B[hi])\n(;FF[4]GM[4]SZ[15];B[aa])";
  await page.setInputFiles("#an-file", { name: "two.sgf", mimeType: "text/plain", buffer: Buffer.from(sgf) });
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 3");
  assert(!(await page.$eval("#an-games", (s) => s.hidden)), "the file's games are not offered");
  await page.fill("#an-text", "h8 i9");
  await page.selectOption("#an-review-ms", "100");
  await page.click("#an-review");
  await page.waitForFunction(() => /^Reviewed 4 of 4 positions/.test(document.querySelector("#an-review-status").textContent), null, { timeout: 30000 });
  await page.click("#an-copy");
  await page.waitForFunction(() => document.querySelector("#an-copied").textContent !== "");
  await paste(page, "h8 z9");
  await page.waitForFunction(() => document.querySelector("#an-load-error").textContent !== "");

  await page.click("#an-clear");
  const left = await page.evaluate(() => ({
    file: document.querySelector("#an-file").files.length, text: document.querySelector("#an-text").value,
    review: document.querySelector("#an-review-status").textContent, games: document.querySelector("#an-games").hidden,
    options: document.querySelector("#an-games").options.length, copied: document.querySelector("#an-copied").textContent,
    error: document.querySelector("#an-load-error").textContent, at: document.querySelector("#an-at").textContent,
    chart: document.querySelectorAll("#an-chart circle").length,
  }));
  assert(JSON.stringify(left) === JSON.stringify({ file: 0, text: "", review: "", games: true, options: 0, copied: "", error: "", at: "0 of 0", chart: 0 }),
    `after Clear: ${JSON.stringify(left)}`);
  // The same file opened again loads again (the field forgot it, so it changes).
  await page.setInputFiles("#an-file", { name: "two.sgf", mimeType: "text/plain", buffer: Buffer.from(sgf) });
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 3");
});
