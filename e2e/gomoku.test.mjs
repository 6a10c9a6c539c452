// Browser tests of the gomoku board against the engine and of tournament
// replays: every feature of issue #12's section 2, with screenshots in
// each look (1400 and 400 px, light and dark).
import { readFileSync } from "node:fs";
import { LOOKS, assert, lookAs, playNearCentre, shot, test, url } from "./harness.mjs";

const phase = (page) => page.$eval("#gomoku-note", (n) => n.dataset.phase);
const stoneCount = (page) => page.$$eval("#gomoku-board button", (bs) => bs.filter((b) => b.dataset.stone).length);

/** How far right the part's content reaches (the header is MENACE's part's concern). */
const sectionWidth = (page, part) => page.$eval(`#tab-${part}`, (s) =>
  Math.max(...[...s.querySelectorAll("*")].map((e) => Math.ceil(e.getBoundingClientRect().right + window.scrollX))));

/** Waits until the engine is done and it is the person's turn (or the game is over). */
async function settle(page, timeout = 30000) {
  await page.waitForFunction(() => !["thinking"].includes(document.querySelector("#gomoku-note").dataset.phase), null, { timeout });
}

/** Plays the empty point nearest the centre and waits for the engine's reply. */
async function playAndWait(page) {
  const before = await stoneCount(page);
  await playNearCentre(page);
  await page.waitForFunction((n) => {
    const stones = [...document.querySelectorAll("#gomoku-board button")].filter((b) => b.dataset.stone).length;
    const phase = document.querySelector("#gomoku-note").dataset.phase;
    return (stones >= n + 2 && phase === "play") || phase === "over";
  }, before, { timeout: 30000 });
}

test("gomoku: coordinates, thinking, move list, numbers, PV, take back, SGF, new game and resign", async (page) => {
  await lookAs(page, LOOKS[0]);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.waitForFunction(() => document.querySelectorAll("#gomoku-board button").length === 225);
  const cols = await page.$$eval("#gomoku-board .coord.col", (cs) => cs.map((c) => c.textContent).join(""));
  assert(cols === "abcdefghijklmno", `column letters ${cols}`);
  const rows = await page.$$eval("#gomoku-board .coord.row", (cs) => cs.map((c) => c.textContent).join(","));
  assert(rows === "15,14,13,12,11,10,9,8,7,6,5,4,3,2,1", `row numbers ${rows}`);
  assert(/Swap2/.test(await page.$eval("#gomoku-swap2", (e) => e.textContent)), "Swap2 not explained");
  // A game may be on from an earlier test: a new game asks first.
  const dialogs = [];
  page.on("dialog", (d) => { dialogs.push(d.message()); (page.acceptNext ? d.accept() : d.dismiss()); page.acceptNext = false; });
  page.acceptNext = true;
  await page.selectOption("#gomoku-opener", "engine");
  await page.selectOption("#gomoku-time", "500");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "answer", null, { timeout: 30000 });
  assert(await page.$eval("#gomoku-thinking", (t) => t.dataset.thinking) === "false", "shown as thinking");
  await page.click("#gomoku-take-black");
  // White (the engine) moves: the indicator shows it thinking, with the time so far.
  await page.waitForFunction(() => document.querySelector("#gomoku-thinking").dataset.thinking === "true");
  await page.waitForFunction(() => /Engine thinking… \d+\.\d s of 0\.5 s/.test(document.querySelector("#gomoku-elapsed").textContent));
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "play", null, { timeout: 30000 });
  assert(await stoneCount(page) === 4, "the engine's first move is missing");
  assert(await page.$eval("#gomoku-undo", (b) => b.disabled), "take back offered before any move of yours");
  assert(!(await page.$eval("#gomoku-resign", (b) => b.disabled)), "resign not offered");

  // The engine panel stays put while the engine thinks and answers.
  const side = () => page.$eval(".gomoku-side", (s) => { const r = s.getBoundingClientRect(); return [r.x, r.y, r.width].join(","); });
  const board = () => page.$eval("#gomoku-board", (s) => { const r = s.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round).join(","); });
  const [sideBefore, boardBefore] = [await side(), await board()];
  await playAndWait(page);
  assert(await side() === sideBefore, `engine panel moved: ${sideBefore} -> ${await side()}`);
  assert(await board() === boardBefore, `board moved: ${boardBefore} -> ${await board()}`);
  const boardSize = await page.$eval("#gomoku-board", (b) => b.getBoundingClientRect().width);
  assert(boardSize >= 600, `the board fills the space: ${boardSize} px wide at 1400 px`);

  // Move list and move numbers on the stones.
  const moves = await page.$$eval("#gomoku-moves li", (ls) => ls.map((l) => l.textContent.trim()));
  assert(moves.length === 6, `move list: ${moves}`);
  assert(moves.every((m) => /^[a-o]\d+ (you|engine)$/.test(m)), `move names: ${moves}`);
  assert(moves[4].endsWith("you"), `your move: ${moves[4]}`);
  const hidden = await page.$eval('#gomoku-board .stone[data-n="1"]', (s) => getComputedStyle(s).color);
  await page.check("#gomoku-numbers");
  const shown = await page.$eval('#gomoku-board .stone[data-n="1"]', (s) => getComputedStyle(s).color);
  assert(hidden === "rgba(0, 0, 0, 0)" && shown !== hidden, `numbers ${hidden} -> ${shown}`);
  assert(await page.$eval("#gomoku-board", (b) => b.classList.contains("numbers")), "numbers not on");
  // The principal variation: listed in colour and drawn as numbered stones.
  const pv = Number(await page.$eval("#gomoku-thought", (t) => t.dataset.pv));
  assert(pv >= 1, "no principal variation");
  const listed = await page.$$eval("#gomoku-pv li", (ls) => ls.map((l) => l.textContent.trim()));
  assert(listed.length === pv && listed[0].endsWith("(played)"), `PV list ${listed}`);
  const drawn = await page.$$eval("#gomoku-board .stone.pv", (s) => s.map((x) => x.dataset.pv));
  assert(drawn.length <= pv - 1 && drawn.every((n) => Number(n) >= 1), `PV stones ${drawn}`);

  for (const look of LOOKS) {
    await lookAs(page, look);
    await page.waitForTimeout(100);
    const width = await sectionWidth(page, "gomoku");
    assert(width <= look.width, `${look.name}: the gomoku part is ${width} px wide`);
    await shot(page, `gomoku-game-${look.name}`);
  }
  await lookAs(page, LOOKS[0]);

  // Take back: your move and the engine's reply go.
  await page.click("#gomoku-undo");
  await page.waitForFunction(() => document.querySelectorAll("#gomoku-moves li").length === 4);
  assert(/taken back/.test(await page.$eval("#gomoku-note", (n) => n.textContent)), "no take-back note");
  assert(await page.$eval("#gomoku-undo", (b) => b.disabled), "take back still offered");

  // SGF download of the game so far.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#gomoku-sgf")]);
  const sgf = readFileSync(await download.path(), "utf8");
  assert(sgf.startsWith("(;FF[4]GM[4]CA[UTF-8]SZ[15]RU[Freestyle]AP[inarow serve]"), `SGF ${sgf}`);
  assert((sgf.match(/;[BW]\[[a-o]{2}\]/g) || []).length === 4, `SGF stones ${sgf}`);

  // New game mid-game asks; saying no keeps the game.
  page.acceptNext = false;
  await page.click("#gomoku-new");
  assert(dialogs.length >= 1 && /Abandon/.test(dialogs[dialogs.length - 1]), `dialogs ${dialogs}`);
  assert(await stoneCount(page) === 4 && await phase(page) === "play", "the game was abandoned");

  // Resign (confirmed).
  page.acceptNext = true;
  await page.click("#gomoku-resign");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "over");
  assert(/You resigned/.test(await page.$eval("#gomoku-note", (n) => n.textContent)), "no resign note");
  assert(await page.$eval("#gomoku-resign", (b) => b.disabled), "resign offered after the game");
  assert((await page.$$("#gomoku-board button:not([disabled])")).length === 0, "board open after resigning");
});

test("gomoku: the winning five is highlighted", async (page) => {
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.waitForFunction(() => document.querySelectorAll("#gomoku-board button").length === 225);
  // The page draws a finished game as the server would send it; the
  // server's answer for the tab may still arrive and draw over it (seen
  // once in CI), so it is drawn again until it holds.
  let win = "";
  for (let tries = 0; tries < 30 && win !== "d8 e8 f8 g8 h8"; tries++) {
    if (tries) await new Promise((done) => setTimeout(done, 100));
    await page.evaluate(async () => {
      const { drawGomoku } = await import("/page/gomoku.js");
      const stones = [];
      for (let i = 0; i < 5; i++) {
        stones.push({ x: 3 + i, y: 7, colour: "B", by: "you" });
        if (i < 4) stones.push({ x: 3 + i, y: 8, colour: "W", by: "engine" });
      }
      drawGomoku({ game_id: 99, size: 15, phase: "over", person_opens: true, person: "black", to_move: null, time_ms: 1000,
        stones, thought: null, note: "Five in a row: you win.", resigned: false, thinking_ms: null, can_take_back: true });
    });
    win = await page.$$eval("#gomoku-board button.win", (bs) => bs.map((b) => b.getAttribute("aria-label").split(":")[0]).join(" "));
  }
  assert(win === "d8 e8 f8 g8 h8", `winning five ${win}`);
  for (const look of LOOKS) {
    await lookAs(page, look);
    await shot(page, `gomoku-five-${look.name}`);
  }
});

test("tournament replay: files written, grid, numbers, arrow keys, autoplay, winning line", async (page) => {
  await lookAs(page, LOOKS[0]);
  await page.goto(url);
  await page.click('header button[data-tab="tournament"]');
  // The tournament test of test.mjs ran one; run one here if not.
  if (!(await page.$eval("#tour-status", (s) => s.textContent.startsWith("Finished")))) {
    await page.fill("#tour-seed", "4");
    await page.click("#tour-start").catch(() => {});
  }
  await page.waitForFunction(() => document.querySelector("#tour-status").textContent.startsWith("Finished"), null, { timeout: 60000 });
  const files = await page.$eval("#tour-files", (f) => f.textContent);
  assert(/^Written: results in .*results\.json, SGF records in .*sgf\.$/.test(files), `files: ${files}`);
  if (process.env.INAROW_RESULTS) {
    const results = JSON.parse(readFileSync(process.env.INAROW_RESULTS, "utf8"));
    assert(results.games.length === 2, `results file holds ${results.games.length} games`);
  }
  // Prefer a game won by five, to see its line.
  const games = await page.$$eval("#tour-games tr", (rs) => rs.map((r) => [r.dataset.game, r.textContent]));
  const five = games.find(([, t]) => /wins \(five\)/.test(t));
  const index = five ? five[0] : games[0][0];
  await page.click(`#tour-games tr[data-game="${index}"] button`);
  await page.waitForSelector("#tour-replay-grid");
  const total = Number(await page.$eval("#tour-replay-grid", (b) => b.dataset.total));
  // It opens at the first stone, with coordinates as the engine names points.
  assert(await page.$eval("#tour-replay-grid", (b) => b.dataset.stones) === "1", "the replay does not open at the first stone");
  const coords = await page.$$eval("#tour-replay-grid span.coord", (cs) => cs.map((c) => c.textContent).join(""));
  assert(coords === "151413121110987654321abcdefghijklmno", `replay coordinates ${coords}`);
  // The slider goes anywhere; End goes to the last stone.
  await page.$eval("#tour-slider", (s) => { s.value = 2; s.dispatchEvent(new Event("input")); });
  assert(await page.$eval("#tour-replay-grid", (b) => b.dataset.stones) === "2", "the slider does not step");
  await page.click("#tour-last");
  assert(await page.$eval("#tour-slider", (s) => s.value) === String(total), "the slider does not follow");
  const grid = await page.$eval("#tour-replay-grid span[data-x]", (s) => getComputedStyle(s).backgroundImage);
  assert(/linear-gradient/.test(grid), `no grid lines: ${grid}`);
  if (five) {
    const line = await page.$$eval("#tour-replay-grid span.win", (s) => s.length);
    assert(line >= 5, `winning line of ${line} stones`);
  } else {
    console.log("  (no game won by five in this run: the winning line is not seen)");
  }
  // Move numbers on the stones.
  await page.check("#tour-numbers");
  const number = await page.$eval('#tour-replay-grid span[data-n="1"]', (s) => getComputedStyle(s, "::after").content);
  assert(number === '"1"', `first stone shows ${number}`);
  for (const look of LOOKS) {
    await lookAs(page, look);
    await page.waitForTimeout(100);
    const width = await sectionWidth(page, "tournament");
    assert(width <= look.width, `${look.name}: the tournament part is ${width} px wide`);
    await shot(page, `tournament-replay-${look.name}`);
  }
  await lookAs(page, LOOKS[0]);
  // Arrow keys, Home and End.
  const shown = () => page.$eval("#tour-replay-grid", (b) => Number(b.dataset.stones));
  await page.keyboard.press("ArrowLeft");
  assert(await shown() === total - 1, "left arrow did not step back");
  await page.keyboard.press("ArrowRight");
  assert(await shown() === total, "right arrow did not step on");
  await page.keyboard.press("Home");
  assert(await shown() === 0, "Home did not go to the start");
  await page.keyboard.press("End");
  assert(await shown() === total, "End did not go to the end");
  // Autoplay from the start steps on by itself at the speed chosen, and pauses.
  await page.selectOption("#tour-speed", "100");
  await page.click("#tour-play");
  await page.waitForFunction(() => Number(document.querySelector("#tour-replay-grid").dataset.stones) >= 2, null, { timeout: 5000 });
  await page.click("#tour-play");
  const paused = await shown();
  await page.waitForTimeout(900);
  assert(await shown() === paused && paused < total, `autoplay did not pause: ${paused} -> ${await shown()}`);
  assert(await page.$eval("#tour-play", (b) => b.dataset.playing) === "false", "play button still pauses");
});

test("gomoku: a 9x9 game against the engine", async (page) => {
  await lookAs(page, LOOKS[0]);
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  page.on("dialog", (d) => d.accept());
  const sizes = await page.$$eval("#gomoku-size option", (os) => os.map((o) => o.value).join(","));
  assert(sizes === "5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20", `board sizes ${sizes}`);
  assert(await page.$eval("#gomoku-size", (s) => s.value) === "15", "15x15 is not the default");
  await page.selectOption("#gomoku-size", "9");
  await page.selectOption("#gomoku-opener", "you");
  await page.selectOption("#gomoku-time", "100");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelectorAll("#gomoku-board button").length === 81);
  const cols = await page.$$eval("#gomoku-board .coord.col", (cs) => cs.map((c) => c.textContent).join(""));
  assert(cols === "abcdefghi", `column letters ${cols}`);
  const rows = await page.$$eval("#gomoku-board .coord.row", (cs) => cs.map((c) => c.textContent).join(","));
  assert(rows === "9,8,7,6,5,4,3,2,1", `row numbers ${rows}`);
  const stars = await page.$$eval("#gomoku-board button.star", (bs) => bs.map((b) => b.getAttribute("aria-label")).join(" "));
  assert(stars === "c7 g7 e5 c3 g3", `star points ${stars}`);
  // The grid: nine lines each way, drawn whole (look.test.mjs reads them back from screenshots).
  assert(await page.$eval("#gomoku-board canvas.grid", (c) => c.dataset.lines) === "18", "the grid is not 9 lines each way");
  // The opening: two black stones and a white one, then the engine answers.
  for (const [i, [x, y]] of [[4, 4], [5, 5], [5, 3]].entries()) {
    await page.click(`#gomoku-board button[data-x="${x}"][data-y="${y}"]`);
    await page.waitForFunction((n) => [...document.querySelectorAll("#gomoku-board button")].filter((b) => b.dataset.stone).length > n, i);
  }
  await page.waitForFunction(() => !["opening", "thinking"].includes(document.querySelector("#gomoku-note").dataset.phase), null, { timeout: 30000 });
  if (await phase(page) === "colour") await page.click("#gomoku-black");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "play", null, { timeout: 30000 });
  // A move of ours, and the engine's answer on the 9x9 board.
  const before = await stoneCount(page);
  const target = await page.$$eval("#gomoku-board button:not([disabled])", (bs) => {
    const d = (b) => Math.abs(b.dataset.x - 4) + Math.abs(b.dataset.y - 4);
    const b = bs.sort((a, c) => d(a) - d(c))[0];
    return [b.dataset.x, b.dataset.y];
  });
  await page.click(`#gomoku-board button[data-x="${target[0]}"][data-y="${target[1]}"]`);
  await page.waitForFunction((n) => {
    const stones = [...document.querySelectorAll("#gomoku-board button")].filter((b) => b.dataset.stone).length;
    const phase = document.querySelector("#gomoku-note").dataset.phase;
    return (stones >= n + 2 && phase === "play") || phase === "over";
  }, before, { timeout: 30000 });
  assert(await page.$$eval("#gomoku-board button", (bs) => bs.length) === 81, "the board is not 9x9 any more");
  const thought = await page.$eval("#gomoku-thought", (t) => t.textContent);
  assert(/^Played [a-i][1-9]\. /.test(thought), `the engine's move ${thought}`);
  const moves = await page.$$eval("#gomoku-moves li", (ls) => ls.map((l) => l.textContent.trim()));
  assert(moves.length === before + 2 && moves.every((m) => /^[a-i][1-9] /.test(m)), `move list ${moves}`);
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#gomoku-sgf")]);
  const sgf = readFileSync(await download.path(), "utf8");
  assert(sgf.startsWith("(;FF[4]GM[4]CA[UTF-8]SZ[9]RU[Freestyle]AP[inarow serve]"), `SGF ${sgf}`);
  assert((sgf.match(/;[BW]\[[a-i]{2}\]/g) || []).length === before + 2, `SGF stones ${sgf}`);
  for (const look of LOOKS) {
    await lookAs(page, look);
    await shot(page, `gomoku-9x9-${look.name}`);
  }
  // The game on the analysis board keeps its size.
  await page.click("#gomoku-to-analysis");
  await page.waitForFunction(() => !document.querySelector("#analysis").hidden);
  assert(await page.$eval("#an-size", (s) => s.value) === "9", "the analysis board is not 9x9");
  assert(await page.$$eval("#an-board button", (bs) => bs.length) === 81, "the analysis board has another size");
  // Back to 15x15 for whatever comes next.
  await page.click("#mode-play");
  await page.selectOption("#gomoku-size", "15");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelectorAll("#gomoku-board button").length === 225);
});
