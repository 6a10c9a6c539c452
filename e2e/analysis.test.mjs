// Browser tests of the gomoku analysis board (issue #28): setting up a
// position, the engine's lines on the board and their continuations, sizes
// and rules, loading SGF and PSQ records and stepping through them, the
// review chart with the worst moves marked, the keyboard on both boards,
// and the hint in play; screenshots in each look.
import { LOOKS, assert, lookAs, openAnalysis, shot, test, url } from "./harness.mjs";

const points = (page) => page.$$eval("#an-board button", (bs) => bs.length);
const stonesOn = (page) => page.$$eval("#an-board button", (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort());
const at = (x, y) => `#an-board button[data-x="${x}"][data-y="${y}"]`;

/** Black four from (3,7) to (6,7) open at both ends, white scattered: black to move. */
const FOUR = [[3, 7, "B"], [3, 3, "W"], [4, 7, "B"], [4, 3, "W"], [5, 7, "B"], [10, 10, "W"], [6, 7, "B"], [12, 1, "W"]];

test("analysis: set up, undo, clear, analyse with lines and continuations, sizes and rules", async (page) => {
  await openAnalysis(page);
  assert(await page.$eval("#gomoku-play", (e) => e.hidden), "the game board still shows in analysis mode");
  // Alternate: black, white, black; then only white.
  for (const [x, y] of [[7, 7], [8, 8], [9, 9]]) await page.click(at(x, y));
  assert((await stonesOn(page)).join(" ") === "7,7,B 8,8,W 9,9,B", `alternate placing: ${await stonesOn(page)}`);
  await page.selectOption("#an-place", "white");
  await page.click(at(1, 1));
  await page.click(at(2, 1));
  assert((await stonesOn(page)).filter((s) => s.endsWith("W")).length === 3, "white placing");
  await page.click("#an-undo");
  assert((await stonesOn(page)).length === 4, "undo");
  // A click on a stone takes it away.
  await page.click(at(1, 1));
  assert((await stonesOn(page)).length === 3, "a stone clicked stays");
  await page.click("#an-clear");
  assert((await stonesOn(page)).length === 0, "clear");
  assert(await page.$eval("#an-at", (e) => e.textContent) === "0 of 0", "move count after clear");

  // The winning four: black's five comes first with a winning score.
  await page.selectOption("#an-place", "alternate");
  for (const [x, y] of FOUR) await page.click(at(x, y));
  await page.selectOption("#an-lines", "3");
  await page.click("#an-go");
  // The lines may show live before the first answer; the board's candidates come with it.
  await page.waitForFunction(() => document.querySelector('#an-board .cand[data-rank="1"]'), null, { timeout: 20000 });
  const best = await page.evaluate(() => {
    const c = document.querySelector('#an-board .cand[data-rank="1"]');
    return [c.closest("button").dataset.x, c.closest("button").dataset.y, c.textContent].join(",");
  });
  // Labelled by the Labels setting's default, the win rate: a proven win says so.
  assert(best === "2,7,W1" || best === "7,7,W1", `best candidate ${best}`);
  assert(/win in 1/.test(await page.$eval("#an-result li", (l) => l.textContent)), "the first line is not a win in 1");
  assert(/black to move: win in 1 · black wins by force/.test(await page.$eval("#an-evaltext", (e) => e.textContent)), "evaluation bar");
  // A proven win ends the questions, but not analysis: the next position
  // would be analysed (thinking.test.mjs); stopped here.
  await page.waitForFunction(() => /^Proven: black wins by force/.test(document.querySelector("#an-status").textContent));
  assert(await page.$eval("#an-go", (b) => b.textContent) === "Stop", "a proof turned analysis off");
  await page.click("#an-go");

  // A quiet position: several lines, each a candidate on the board, its
  // continuation drawn on hover.
  await page.click("#an-clear");
  for (const [x, y] of [[7, 7], [8, 7], [8, 8]]) await page.click(at(x, y));
  await page.selectOption("#an-lines", "4");
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-board .cand").length === 4, null, { timeout: 20000 });
  const ranks = await page.evaluate(() => [...document.querySelectorAll("#an-board .cand")].map((c) => c.dataset.rank).sort().join(""));
  assert(ranks === "1234", `candidate ranks ${ranks}`);
  // It goes on analysing, with more time, until stopped.
  await page.waitForFunction(() => /Analysing… \(0\.50 s\)/.test(document.querySelector("#an-status").textContent), null, { timeout: 20000 });
  // The board is drawn again with each deeper answer: point the mouse by place.
  const centre = (sel) => page.evaluate((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return [r.x + r.width / 2, r.y + r.height / 2];
  }, sel);
  await page.mouse.move(...await centre('#an-board .cand[data-rank="1"]'));
  await page.waitForFunction(() => document.querySelectorAll("#an-board .stone.pv").length > 0, null, { timeout: 5000 })
    .catch(() => { throw new Error("no continuation drawn on hover"); });
  await page.mouse.move(...await centre("#an-result li:nth-child(2)"));
  await page.waitForFunction(() => document.querySelector("#an-result li:nth-child(2)").classList.contains("hover"));
  await page.mouse.move(0, 0);
  await page.hover("#an-go");
  await shot(page, "analysis-1400-light");
  // Going back to the game stops the analysis.
  await page.click("#mode-play");
  await page.click("#mode-analysis");
  assert(await page.$eval("#an-go", (b) => b.textContent) === "Analyse", "the analysis ran on behind the game");

  // Sizes 5 to 20 with their coordinates, and exact five.
  const sizes = await page.$$eval("#an-size option", (os) => os.map((o) => o.value).join(","));
  assert(sizes === "5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", `sizes ${sizes}`);
  page.on("dialog", (d) => d.accept());
  await page.selectOption("#an-size", "9");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length === 81);
  const cols = await page.$$eval("#an-board .coord.col", (cs) => cs.map((c) => c.textContent).join(""));
  assert(cols === "abcdefghi", `9x9 columns ${cols}`);
  await page.selectOption("#an-size", "20");
  assert(await points(page) === 400, "20x20");
  assert(await page.$eval("#an-board .coord.row", (c) => c.textContent) === "20", "row numbers of 20x20");
  // Under exact five a six is no win: black's six-to-be is no candidate win.
  await page.selectOption("#an-rule", "exact");
  await page.click(at(19, 19));
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-board .cand").length > 0, null, { timeout: 20000 });
  await page.click("#an-go");
});

test("analysis: a position the engine cannot take is one line on the page", async (page) => {
  await openAnalysis(page);
  await page.selectOption("#an-place", "black");
  await page.click(at(7, 7));
  await page.click(at(8, 8));
  await page.click("#an-go");
  await page.waitForFunction(() => /black has 2 stones and white 0/.test(document.querySelector("#an-error").textContent));
  // A refused analysis is off again: nothing says it runs (issue 56; thinking.test.mjs).
  assert(await page.$eval("#an-go", (b) => b.textContent) === "Analyse", "a refusal left analysis on");
  assert(!/Analysing/.test(await page.$eval("#an-status", (e) => e.textContent)), "the status says analysing");
});

test("analysis: two pages analyse at once, each answered and shown its own thinking", async (page, browser) => {
  const other = await browser.newPage();
  try {
    const answers = [];
    for (const p of [page, other]) {
      p.on("response", (r) => { if (r.url().endsWith("/api/analyse")) answers.push(r.status()); });
      await openAnalysis(p);
      await p.waitForFunction(() => document.querySelector("#live").textContent === "live");
    }
    for (const [x, y] of [[7, 7], [8, 7], [8, 8]]) await page.click(at(x, y));
    for (const [x, y] of [[3, 3], [4, 4]]) await other.click(at(x, y));
    await page.click("#an-go");
    await other.click("#an-go");
    // Both are answered and both see thinking reports while both analyse.
    for (const p of [page, other]) {
      await p.waitForFunction(() => document.querySelectorAll("#an-result li").length > 0 &&
        Number(document.querySelector("#an-live").dataset.reports) >= 2, null, { timeout: 30000 });
    }
    for (const p of [page, other]) {
      assert(await p.$eval("#an-go", (b) => b.textContent) === "Stop", "an analysis stopped by itself");
      assert(await p.$eval("#an-error", (e) => e.textContent) === "", `an error: ${await p.$eval("#an-error", (e) => e.textContent)}`);
    }
    // Each page's thinking is its own: for white here, for black there.
    assert(/for white/.test(await page.$eval("#an-live", (e) => e.textContent)), "this page shows another's thinking");
    assert(/for black/.test(await other.$eval("#an-live", (e) => e.textContent)), "the other page shows another's thinking");
    assert(answers.every((s) => s === 200 || s === 409), `answers: ${answers}`);
    assert(!answers.includes(503), `the engine was held: ${answers}`);
    await page.click("#an-go");
    await other.click("#an-go");
  } finally {
    await other.close();
  }
});

// Our own SGF (the page's and the judge's form), c-gomoku-cli's (a
// collection with comments and results), Piskvork's PSQ.
const OURS = "(;FF[4]GM[4]CA[UTF-8]SZ[15]AP[inarow serve]GN[game 0: you opens against engine]PB[you]PW[engine];B[hh];W[ih];B[hi];W[ii];B[hj])\n";
const CGOMOKU = `(;GM[4]FF[4]SZ[15]PB[inarow]PW[rapfi]RE[W+]TE[five connected]
;B[hh]C[opening move];W[ig]C[opening move];B[jh]C[opening move];W[ii]C[0.2s];B[gh]C[0.2s])
(;GM[4]FF[4]SZ[15]PB[rapfi]PW[inarow]RE[B+]
;B[aa];W[bb];B[cc])
`;
const PSQ = "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,0\n10,11,0\n-1\npbrain-a.exe\npbrain-b.exe\n";

test("analysis: SGF and PSQ records load, step with buttons, slider and keys", async (page) => {
  await openAnalysis(page);
  await page.fill("#an-text", OURS);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "5 of 5");
  assert((await stonesOn(page)).join(" ") === "7,7,B 7,8,B 7,9,B 8,7,W 8,8,W", `our SGF: ${await stonesOn(page)}`);
  await page.click("#an-first");
  assert((await stonesOn(page)).length === 0, "first move");
  await page.click("#an-next");
  await page.click("#an-next");
  assert(await page.$eval("#an-at", (e) => e.textContent) === "2 of 5", "next");
  await page.$eval("#an-slider", (s) => { s.value = 4; s.dispatchEvent(new Event("input")); });
  assert((await stonesOn(page)).length === 4, "slider");
  // Keys away from the board: left, right, Home, End.
  await page.focus("#an-go");
  await page.keyboard.press("ArrowLeft");
  assert((await stonesOn(page)).length === 3, "left arrow");
  await page.keyboard.press("End");
  assert((await stonesOn(page)).length === 5, "End");
  await page.keyboard.press("Home");
  assert((await stonesOn(page)).length === 0, "Home");
  await page.click("#an-last");
  // The download is the same game back.
  const href = await page.$eval("#an-sgf", (a) => decodeURIComponent(a.href.split(",").slice(1).join(",")));
  assert(href.includes(";B[hh];W[ih];B[hi];W[ii];B[hj])"), `download ${href}`);

  await page.fill("#an-text", CGOMOKU);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "5 of 5");
  assert(!(await page.$eval("#an-games", (s) => s.hidden)), "two games, no choice");
  const names = await page.$$eval("#an-games option", (os) => os.map((o) => o.textContent));
  assert(names.length === 2 && /inarow \(black\) – rapfi \(white\), W\+/.test(names[0]), `game names ${names}`);
  await page.selectOption("#an-games", "1");
  assert((await stonesOn(page)).join(" ") === "0,0,B 1,1,W 2,2,B", `second game ${await stonesOn(page)}`);

  // A file: Piskvork's PSQ on 20x20.
  await page.setInputFiles("#an-file", { name: "game.psq", mimeType: "text/plain", buffer: Buffer.from(PSQ) });
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length === 400);
  assert((await stonesOn(page)).join(" ") === "10,10,W 9,10,B 9,9,B" || (await stonesOn(page)).join(" ") === "10,10,W 9,9,B 9,10,B",
    `PSQ stones ${await stonesOn(page)}`);
  assert(await page.$eval("#an-size", (s) => s.value) === "20", "size from the PSQ");

  // Bad records: one line each, the board kept.
  for (const [text, want] of [
    ["(;SZ[15];B[hh];W[hh])", "point [hh] holds two stones"],
    ["(;SZ[15];B[zz])", "point [zz] is off the 15x15 board"],
    ["(;SZ[25];B[aa])", "board size 25 is not supported"],
    ["(;SZ[15];B[hh]", "the game has no closing )"],
    // Neither an SGF nor a PSQ: read as moves, and refused as moves.
    ["hello", 'move 1: expected a move such as h8 (a column letter, then a row number), got "hello"'],
  ]) {
    await page.fill("#an-text", text);
    await page.click("#an-load");
    // Beside the box it was pasted in.
    await page.waitForFunction((want) => document.querySelector("#an-load-error").textContent.includes(want), want);
    const error = await page.$eval("#an-load-error", (e) => e.textContent);
    assert(!error.includes("\n"), `${text}: ${error}`);
  }
  assert(await points(page) === 400, "a bad record changed the board");
});

// Black makes a four closed at one end (move 7); white does not block it
// (move 8), and black, with a five to make, plays in the corner (move 9):
// the win thrown away is the worst move of the game.
const BLUNDER = "(;FF[4]GM[4]SZ[15];B[hh];W[gh];B[ih];W[ii];B[jh];W[kk];B[kh];W[jj];B[aa];W[lh])";

test("analysis: review charts every move and marks the moves that lost most", async (page) => {
  await openAnalysis(page);
  await page.fill("#an-text", BLUNDER);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "10 of 10");
  await page.selectOption("#an-review-ms", "100");
  await page.click("#an-review");
  await page.waitForFunction(() => /^Reviewed 11 of 11/.test(document.querySelector("#an-review-status").textContent), null, { timeout: 60000 });
  assert((await page.$$("#an-chart circle")).length === 11, "a point per position");
  // Position 8: black to move with a five to make, shown as a sure win.
  const eight = await page.$eval('#an-chart circle[data-move="8"] title', (t) => t.textContent);
  assert(/after move 8: black wins by force/.test(eight), `position 8: ${eight}`);
  const marked = await page.$$eval("#an-moves li.blunder", (ls) => ls.map((l) => l.dataset.n));
  assert(marked.includes("9"), `move 9 not marked: ${marked}`);
  assert(marked.length <= 3, `too many marked: ${marked}`);
  // Move 9 lost most: the biggest loss of those marked, marked ??.
  const lost = await page.$$eval("#an-moves li.blunder small", (ss) => ss.map((s) => [s.closest("li").dataset.n, Number(/lost (\d+)%/.exec(s.title)[1]), s.textContent.trim()]));
  const worst = lost.sort((a, b) => b[1] - a[1])[0];
  assert(worst[0] === "9" && worst[1] >= 30 && worst[2] === "??", `the worst move is ${worst}`);
  assert((await page.$$("#an-chart circle.chart-blunder")).length === marked.length, "chart marks");
  // A chart point jumps to its position.
  await page.click('#an-chart circle[data-move="5"]');
  assert(await page.$eval("#an-at", (e) => e.textContent) === "5 of 10", "chart point does not jump");
  for (const look of LOOKS) {
    await lookAs(page, look);
    await shot(page, `analysis-review-${look.name}`);
    if (look.width === 400) {
      const right = await page.$eval("#tab-gomoku", (s) =>
        Math.max(...[...s.querySelectorAll("*")].map((e) => Math.ceil(e.getBoundingClientRect().right + window.scrollX))));
      assert(right <= 400, `analysis board overflows 400 px: ${right}`);
    }
  }
});

test("keyboard: one tab stop per board, arrows move, Enter plays", async (page) => {
  await openAnalysis(page);
  const focusable = await page.$$eval("#an-board button", (bs) => bs.filter((b) => b.tabIndex >= 0).length);
  assert(focusable === 0, `${focusable} tab stops among the points`);
  assert(await page.$eval("#an-board", (b) => b.tabIndex) === 0, "the board is no tab stop");
  await page.focus("#an-board");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowUp");
  const cursor = await page.$eval("#an-board button.cursor", (b) => [b.dataset.x, b.dataset.y].join(","));
  assert(cursor === "9,6", `cursor at ${cursor}`);
  assert(await page.$eval("#an-board", (b) => b.getAttribute("aria-activedescendant")) === "an-board-9-6", "active descendant");
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press(" ");
  assert((await stonesOn(page)).join(" ") === "8,6,W 9,6,B", `keyboard stones ${await stonesOn(page)}`);
  await page.keyboard.press("Home");
  assert(await page.$eval("#an-board button.cursor", (b) => b.dataset.x) === "0", "Home");
  // The game board too.
  await page.click("#mode-play");
  const playStops = await page.$$eval("#gomoku-board button", (bs) => bs.filter((b) => b.tabIndex >= 0).length);
  assert(playStops === 0, `${playStops} tab stops on the game board`);
  assert(await page.$eval("#gomoku-board", (b) => b.tabIndex) === 0, "the game board is no tab stop");
});

test("hint in play, and the game taken to the analysis board", async (page) => {
  await lookAs(page, LOOKS[0]);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  page.on("dialog", (d) => d.accept());
  await page.selectOption("#gomoku-opener", "engine");
  await page.selectOption("#gomoku-time", "100");
  // Exact five, chosen with the new game.
  await page.selectOption("#gomoku-rule", "exact");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-rule-text").dataset.rule === "exact");
  assert(/exactly five in a row wins/.test(await page.$eval("#gomoku-swap2", (e) => e.textContent)), "the rule is not explained");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "answer", null, { timeout: 30000 });
  assert(await page.$eval("#gomoku-hint", (b) => b.disabled), "hint offered in the opening");
  await page.click("#gomoku-take-black");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "play" &&
    !document.querySelector("#gomoku-hint").disabled, null, { timeout: 30000 });
  await page.click("#gomoku-hint");
  await page.waitForFunction(() => /^Hint: [a-o]\d+ /.test(document.querySelector("#gomoku-hint-text").textContent), null, { timeout: 20000 });
  const hinted = await page.$eval("#gomoku-board button.hint-point", (b) => [b.dataset.x, b.dataset.y, b.dataset.stone, b.getAttribute("aria-label")]);
  assert(hinted[2] === "", "the hint is on a stone");
  const text = await page.$eval("#gomoku-hint-text", (e) => e.textContent);
  assert(text.includes(hinted[3]), `hint text ${text} names another point than ${hinted[3]}`);
  assert(/\((\d+%, [-+]?\d+|(win|loss) in \d+) for you\)\.$/.test(text), `the hint's win rate: ${text}`);
  await shot(page, "hint-1400-light");
  // Playing it clears the hint.
  await page.click(`#gomoku-board button[data-x="${hinted[0]}"][data-y="${hinted[1]}"]`);
  await page.waitForFunction(() => !document.querySelector("#gomoku-board button.hint-point"));
  const stones = await page.$$eval("#gomoku-board button", (bs) => bs.filter((b) => b.dataset.stone).length);
  await page.click("#gomoku-to-analysis");
  await page.waitForFunction(() => !document.querySelector("#analysis").hidden);
  const shown = await stonesOn(page);
  assert(shown.length >= stones, `analysis board has ${shown.length} stones, the game ${stones}`);
  assert(shown.includes(`${hinted[0]},${hinted[1]},B`), "the hinted move is not in the game taken over");
  assert(await page.$eval("#an-rule", (s) => s.value) === "exact", "the game's rule is not taken over");
  // In the review a move played after stepping back is a variation beside the game's own move, which is kept.
  const n = shown.length;
  const last = await page.$eval("#an-board button.last", (b) => [b.dataset.x, b.dataset.y]);
  await page.click("#an-undo");
  const elsewhere = await page.$$eval("#an-board button", (bs, last) => {
    const b = bs.find((b) => !b.dataset.stone && !(b.dataset.x === last[0] && b.dataset.y === last[1]));
    return `#an-board button[data-x="${b.dataset.x}"][data-y="${b.dataset.y}"]`;
  }, last);
  await page.click(elsewhere);
  assert(await page.$eval("#an-at", (e) => e.textContent) === `${n} of ${n}`, `a variation's move: ${await page.$eval("#an-at", (e) => e.textContent)}`);
  const alts = await page.$$eval("#an-moves li.branch", (ls) => ls.map((l) => [l.dataset.n, l.querySelectorAll("button.alt.main").length]));
  assert(JSON.stringify(alts) === JSON.stringify([[String(n), 1]]), `the game's move ${n} beside the variation: ${JSON.stringify(alts)}`);
  await page.click("#mode-play");
  await page.selectOption("#gomoku-rule", "freestyle");
});

/** The contrast ratio of two CSS colours `rgb(r, g, b)`. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map((v) => {
      const s = Number(v) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("every look: board coordinates readable (4.5:1), headings in order on every tab", async (page) => {
  for (const look of LOOKS) {
    await lookAs(page, look);
    await page.goto(url);
    for (const tab of ["menace", "gomoku", "tournament"]) {
      await page.click(`header button[data-tab="${tab}"]`);
      // Heading levels never skip one on the way down (h1, then h2, then h3).
      const levels = await page.evaluate((tab) => [document.querySelector("h1"), ...document.querySelectorAll(`#tab-${tab} h1, #tab-${tab} h2, #tab-${tab} h3, #tab-${tab} h4`)]
        .map((h) => Number(h.tagName[1])), tab);
      levels.forEach((l, i) => assert(i === 0 || l <= levels[i - 1] + 1, `${tab}: heading h${l} after h${levels[i - 1]} (${levels})`));
    }
    await page.click('header button[data-tab="gomoku"]');
    await page.waitForFunction(() => document.querySelectorAll("#gomoku-board .coord").length > 0);
    const [fg, bg] = await page.$eval("#gomoku-board .coord.col", (c) => [getComputedStyle(c).color, getComputedStyle(c.parentElement).backgroundColor]);
    const ratio = contrast(fg, bg);
    assert(ratio >= 4.5, `${look.name}: coordinates at ${ratio.toFixed(2)}:1 (${fg} on ${bg})`);
  }
});
