// The analysis board's game tree (issue 48): the tree module
// (crates/web/page/tree.js, run in node as the browser runs it) with SGF's
// variations written and read back by record.js; in the browser, a stone
// played after stepping back keeps both lines, shown in the move list and
// on the board, undo and redo follow the line chosen (buttons and keys),
// and both lines go out in the SGF download and come back in when it is
// loaded.
import { readFileSync } from "node:fs";
import { LOOKS, assert, lookAs, openAnalysis, shot, test } from "./harness.mjs";

const load = async (file) => import("data:text/javascript," +
  encodeURIComponent(readFileSync(new URL(`../crates/web/page/${file}`, import.meta.url), "utf8")));
const { GameTree } = await load("tree.js");
const { parseSgf, toSgf } = await load("record.js");

const same = (got, want, what) => assert(JSON.stringify(got) === JSON.stringify(want), `${what}: ${JSON.stringify(got)}`);
// h8 i9 i7 g9 and d12 on 15x15, as [x, y, colour] from the top left.
const H8 = [7, 7, "B"], I9 = [8, 6, "W"], I7 = [8, 8, "B"], G9 = [6, 6, "W"], D12 = [3, 3, "W"], J10 = [9, 5, "B"];
const names = (moves) => moves.map(([x, y]) => "abcdefghijklmno"[x] + (15 - y)).join(" ");

test("tree: a move after stepping back starts a variation; undo and redo follow the line chosen", async () => {
  const t = GameTree.ofLine([H8, I9, I7, G9]);
  same([t.depth, names(t.line())], [4, "h8 i9 i7 g9"], "the line played");
  assert(t.back() && t.depth === 3, "undo steps back");
  same(names(t.line()), "h8 i9 i7 g9", "undo keeps the move for redo");
  assert(t.play(D12), "d12 is a new move");
  same(names(t.line()), "h8 i9 i7 d12", "the line shown follows the new move");
  same(t.alternatives(4).map((a) => [names([a.move]), a.k, a.on]), [["g9", 0, false], ["d12", 1, true]], "both moves 4 kept");
  same(t.branch(), 4, "the line leaves the main line at move 4");
  // Redo follows the line last chosen at each move.
  t.back();
  same(t.next().map((a) => [names([a.move]), a.on]), [["g9", false], ["d12", true]], "the next moves at move 3");
  assert(t.forward() && names(t.shown()) === "h8 i9 i7 d12", "redo follows d12");
  // Playing the next move of a line that is there follows it, adding nothing.
  t.back();
  assert(!t.play(G9) && names(t.line()) === "h8 i9 i7 g9", "g9 played again is the main line");
  t.back();
  t.forward();
  same(names(t.shown()), "h8 i9 i7 g9", "redo now follows g9");
  assert(!t.forward(), "no redo at the end of the line");
  t.goTo(0);
  assert(!t.back() && t.depth === 0, "no undo on the empty board");
  t.goTo(Infinity);
  same(t.depth, 4, "the end of the line");
});

test("tree: choosing a variation, stepping between variations, back to the main line, deleting", async () => {
  const t = GameTree.ofLine([H8, I9, I7, G9]);
  t.goTo(3);
  t.play(D12);
  t.play(J10);
  t.goTo(1);
  // Choosing from the list: the main line's move 4, then the variation's.
  assert(t.choose(4, 0) && names(t.shown()) === "h8 i9 i7 g9", "variation A at move 4");
  same(t.branch(), 0, "on the main line");
  assert(t.choose(4, 1) && names(t.line()) === "h8 i9 i7 d12 j10", "variation B at move 4, the line on");
  assert(!t.choose(4, 5) && !t.choose(9, 0), "no such variation");
  // Up and down: the variation before and after the one shown.
  assert(t.sideStep(-1) && names(t.shown()) === "h8 i9 i7 g9", "up");
  assert(!t.sideStep(-1), "none before the first");
  assert(t.sideStep(1) && names(t.shown()) === "h8 i9 i7 d12", "down");
  // Back to the main line, at the move where the variation left it.
  t.forward();
  assert(t.toMainLine() && names(t.shown()) === "h8 i9 i7" && names(t.line()) === "h8 i9 i7 g9", "back to the main line");
  assert(!t.toMainLine(), "already on it");
  // A position stepped to by its moves, in order or not (an address).
  assert(t.show([H8, I9, I7, D12]) && names(t.line()) === "h8 i9 i7 d12 j10", "shown by its moves");
  assert(t.show([I7, D12, H8, I9]) && names(t.shown()) === "h8 i9 i7 d12", "shown by its stones in another order");
  assert(!t.show([H8, D12]) && names(t.shown()) === "h8 i9 i7 d12", "a position the tree does not hold changes nothing");
  // Deleting the variation: the main line is left, stepped back to move 3.
  assert(t.remove() && names(t.shown()) === "h8 i9 i7" && names(t.line()) === "h8 i9 i7 g9", "deleted");
  same(t.alternatives(4).length, 1, "one move 4 left");
  same(t.allMoves().length, 4, "every move of the tree");
});

test("tree: a stone taken away is a step back, or the rest of the line played without it beside it", async () => {
  const t = GameTree.ofLine([H8, I9, I7, G9]);
  t.takeAway(3);
  same(names(t.shown()), "h8 i9 i7", "the last stone: a step back");
  same(names(t.line()), "h8 i9 i7 g9", "kept for redo");
  t.goTo(4);
  t.takeAway(1);
  same(names(t.shown()), "h8 i7 g9", "i9 taken away");
  same(t.alternatives(2).map((a) => names([a.move])), ["i9", "i7"], "a variation from move 2, the old line kept");
});

test("tree: variations written as SGF and read back, the main line first", async () => {
  const t = GameTree.ofLine([H8, I9, I7, G9]);
  t.goTo(3);
  t.play(D12);
  t.play(J10);
  t.goTo(0);
  t.play([0, 0, "B"]);
  const sgf = toSgf(15, t.root, "renju");
  same(sgf, "(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Renju]AP[inarow serve analysis](;B[hh];W[ig];B[ii](;W[gg])(;W[dd];B[jf]))(;B[aa]))\n", "written");
  const [g] = parseSgf(sgf);
  same(names(g.moves), "h8 i9 i7 g9", "the main line read back");
  const back = new GameTree(g.tree);
  same(toSgf(15, back.root, "renju"), sgf, "read back, written again");
  assert(back.show([H8, I9, I7, D12, J10]), "the variation read back");
  same(back.alternatives(1).map((a) => names([a.move])), ["h8", "a15"], "the first move's variation read back");
  // Only one line: no variations written, as before the tree.
  same(toSgf(15, GameTree.ofLine([H8, I9]).root), "(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Freestyle]AP[inarow serve analysis];B[hh];W[ig])\n", "one line");
});

// ----- in the browser -----
const at = (x, y) => `#an-board button[data-x="${x}"][data-y="${y}"]`;
const stonesOn = (page) => page.$$eval("#an-board button", (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort().join(" "));
/** The move list: each move's name, its variations after a bar, the current one starred. */
const listed = (page) => page.$$eval("#an-moves li", (ls) => ls.map((li) => {
  const name = li.childNodes[1].textContent.trim();
  const alts = [...li.querySelectorAll("button.alt")].map((b) => b.textContent).join(",");
  return (li.classList.contains("current") ? "*" : "") + name + (alts ? `|${alts}` : "");
}).join(" "));
const text = (page, sel) => page.$eval(sel, (e) => e.textContent);
const sgfOf = (page) => page.$eval("#an-sgf", (a) => decodeURIComponent(a.href.split(",").slice(1).join(",")));

test("tree: rotated and flipped, every line turned, the position shown and the comments kept", async () => {
  const t = GameTree.ofLine([H8, I9, I7]);
  t.back();
  t.play(D12);
  t.node.comment = "d12 instead";
  const shown = t.node;
  // A quarter clockwise on 15x15: (x, y) to (14 - y, x).
  t.transform((x, y) => [14 - y, x]);
  same(t.shown(), [[7, 7, "B"], [8, 8, "W"], [11, 3, "W"]], "the line shown, turned");
  assert(t.node === shown && t.node.comment === "d12 instead", "the position shown or its comment changed");
  same(t.alternatives(3).map((a) => a.move), [[6, 8, "B"], [11, 3, "W"]], "the other line turned too");
  // Four turns are none; a flip twice is none.
  for (let k = 0; k < 3; k++) t.transform((x, y) => [14 - y, x]);
  for (let k = 0; k < 2; k++) t.transform((x, y) => [14 - x, y]);
  same(t.shown(), [H8, I9, D12], "turned back");
});

test("tree: play, step back, play another move: both lines kept, listed, on the board, redo and keys follow the line chosen, SGF round trip", async (page) => {
  await openAnalysis(page);
  // h8 i9 i7 g9, one step back, then d12.
  for (const [x, y] of [[7, 7], [8, 6], [8, 8], [6, 6]]) await page.click(at(x, y));
  await page.click("#an-undo");
  assert(await text(page, "#an-at") === "3 of 4", `undo keeps the move: ${await text(page, "#an-at")}`);
  await page.click(at(3, 3));
  assert(await stonesOn(page) === "3,3,W 7,7,B 8,6,W 8,8,B", `the board: ${await stonesOn(page)}`);
  assert(await listed(page) === "h8 i9 i7 *d12|A g9", `the list: ${await listed(page)}`);
  assert(await text(page, "#an-variation") === "A variation from move 4.", await text(page, "#an-variation"));
  // Stepped back to move 3: the next move of each line lettered on the board, redo's the one chosen.
  await page.click("#an-undo");
  const marks = await page.$$eval("#an-board .stone.next", (ss) => ss.map((s) =>
    `${s.closest("button").dataset.x},${s.closest("button").dataset.y},${s.dataset.variation}${s.classList.contains("on") ? "*" : ""}`).sort().join(" "));
  assert(marks === "3,3,B* 6,6,A", `next moves marked: ${marks}`);
  assert(await page.$eval(at(6, 6), (b) => b.getAttribute("aria-label")) === "g9: next move of variation A, the main line",
    "a next move's name for screen readers");
  for (const look of LOOKS) {
    await lookAs(page, look);
    await shot(page, `analysis-variations-${look.name}`);
    if (look.width === 400) {
      const right = await page.$eval("#tab-gomoku", (s) =>
        Math.max(...[...s.querySelectorAll("*")].map((e) => Math.ceil(e.getBoundingClientRect().right + window.scrollX))));
      assert(right <= 400, `the board with variations overflows 400 px: ${right}`);
    }
  }
  await lookAs(page, LOOKS[0]);
  // A click on a lettered stone follows its line, adding no move.
  await page.click(at(6, 6));
  assert(await listed(page) === "h8 i9 i7 *g9|B d12", `the A stone clicked: ${await listed(page)}`);
  await page.click("#an-undo");
  await page.click(at(3, 3));
  assert(await listed(page) === "h8 i9 i7 *d12|A g9", `the B stone clicked: ${await listed(page)}`);
  await page.click("#an-undo");
  await page.click("#an-redo");
  assert(await stonesOn(page) === "3,3,W 7,7,B 8,6,W 8,8,B", `redo follows d12: ${await stonesOn(page)}`);
  // The main line's g9 picked from the list: shown, and redo follows it from then on.
  await page.click("#an-moves button.alt");
  assert(await stonesOn(page) === "6,6,W 7,7,B 8,6,W 8,8,B", `g9 chosen: ${await stonesOn(page)}`);
  assert(await listed(page) === "h8 i9 i7 *g9|B d12", `the list on the main line: ${await listed(page)}`);
  assert(await text(page, "#an-variation") === "The main line.", await text(page, "#an-variation"));
  await page.click("#an-first");
  for (let i = 0; i < 4; i++) await page.click("#an-redo");
  assert(await stonesOn(page) === "6,6,W 7,7,B 8,6,W 8,8,B", `redo along the main line: ${await stonesOn(page)}`);
  assert(await page.$eval("#an-redo", (b) => b.disabled), "redo at the end of the line");

  // Keys away from the board: down and up change the variation of the move shown, left and right step.
  await page.focus("#an-go");
  await page.keyboard.press("ArrowDown");
  assert(await stonesOn(page) === "3,3,W 7,7,B 8,6,W 8,8,B", `down: ${await stonesOn(page)}`);
  await page.keyboard.press("ArrowUp");
  assert(await stonesOn(page) === "6,6,W 7,7,B 8,6,W 8,8,B", `up: ${await stonesOn(page)}`);
  await page.keyboard.press("Control+z");
  assert(await text(page, "#an-at") === "3 of 4", `Ctrl+Z: ${await text(page, "#an-at")}`);
  await page.keyboard.press("Control+y");
  assert(await text(page, "#an-at") === "4 of 4", `Ctrl+Y: ${await text(page, "#an-at")}`);
  await page.keyboard.press("Home");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("End");
  assert(await stonesOn(page) === "6,6,W 7,7,B 8,6,W 8,8,B", `End follows the main line: ${await stonesOn(page)}`);

  // The download holds both lines; loaded back, both are there.
  const sgf = await sgfOf(page);
  assert(sgf.endsWith(";B[hh];W[ig];B[ii](;W[gg])(;W[dd]))\n"), `the SGF: ${sgf}`);
  await page.click("#an-clear");
  assert(await listed(page) === "", "cleared");
  await page.fill("#an-text", sgf);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "4 of 4");
  assert(await listed(page) === "h8 i9 i7 *g9|B d12", `loaded: ${await listed(page)}`);
  await page.click("#an-moves button.alt");
  assert(await stonesOn(page) === "3,3,W 7,7,B 8,6,W 8,8,B", `the variation loaded: ${await stonesOn(page)}`);
  // Back to the main line, where the variation left it; then the variation deleted.
  await page.click("#an-mainline");
  assert(await text(page, "#an-at") === "3 of 4" && await listed(page) === "h8 i9 *i7 g9|B d12", `main line: ${await listed(page)}`);
  await page.click("#an-redo");
  await page.keyboard.press("ArrowDown");
  await page.click("#an-delete");
  assert(await listed(page) === "h8 i9 *i7 g9", `the variation deleted: ${await listed(page)}`);
  assert((await sgfOf(page)).endsWith(";B[hh];W[ig];B[ii];W[gg])\n"), `the SGF after deleting: ${await sgfOf(page)}`);
});

test("tree: Back and Forward reach a position of another variation, keeping every line", async (page) => {
  await openAnalysis(page);
  for (const [x, y] of [[7, 7], [8, 6], [8, 8], [6, 6]]) await page.click(at(x, y));
  await page.click("#an-undo");
  await page.click(at(3, 3));
  await page.waitForFunction(() => location.hash.endsWith("moves=h8i9i7d12"));
  // Back: i7 (undo), then g9's position, in the main line.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 4");
  await page.goBack();
  await page.waitForFunction(() => location.hash.endsWith("moves=h8i9i7g9") && document.querySelector("#an-at").textContent === "4 of 4");
  assert(await stonesOn(page) === "6,6,W 7,7,B 8,6,W 8,8,B", `Back to g9: ${await stonesOn(page)}`);
  assert(await listed(page) === "h8 i9 i7 *g9|B d12", `both lines kept: ${await listed(page)}`);
  await page.goForward();
  await page.goForward();
  // Before it, g9's position was 4 of 4 too: d12's stone is what tells it.
  await page.waitForFunction(() => document.querySelector('#an-board button[data-x="3"][data-y="3"]').dataset.stone === "W");
  assert(await listed(page) === "h8 i9 i7 *d12|A g9", `Forward to d12: ${await listed(page)}`);
});
