// Browser tests of issue 56, the analysis board as a player's hands feel
// it: the keys after clicking stones; a renju forbidden stone refused on
// every way in (click, paste, the link's glued form, SGF, link, set-up,
// Play from here, and a rule changed under the stones) in the page's words
// with no analysis left hanging; win rates that say what is proven; the
// heat map's hottest point the best line's move; every line updated live;
// the analysis time; rotate and flip; SGF comments kept and shown; Swap2's
// move numbers; the layouts at 1920x1080, 1366x768, 400x800 and 360x740,
// read from the page.
import { assert, openAnalysis, shot, test, url } from "./harness.mjs";

const at = (board, x, y) => `#${board} button[data-x="${x}"][data-y="${y}"]`;
const shownAt = (page) => page.$eval("#an-at", (e) => e.textContent);
const stonesOn = (page) => page.$$eval("#an-board button", (bs) =>
  bs.filter((b) => b.dataset.stone).map((b) => `${b.dataset.x},${b.dataset.y},${b.dataset.stone}`).sort());
const text = (page, id) => page.$eval(`#${id}`, (e) => e.textContent);

/** `h8 a1 i8 a3 j9 a5 j10 a7` on 15x15, black first: black's j8 (9,7) is then a double three. */
const BEFORE_J8 = [[7, 7], [0, 14], [8, 7], [0, 12], [9, 6], [0, 10], [9, 5], [0, 8]];
const J8 = [9, 7];
const J8_REFUSED = "j8 is forbidden to black under renju: double three";

/** Puts `stones` down in turn on the analysis board. */
async function setUp(page, stones) {
  for (const [x, y] of stones) await page.click(at("an-board", x, y));
}

/** The analysis board, cleared, under `rule` on 15x15. */
async function freshBoard(page, rule = "freestyle") {
  await openAnalysis(page);
  await page.selectOption("#an-rule", rule);
  await page.selectOption("#an-place", "alternate");
}

test("hands: after clicking stones the keys step through the moves; the board's cursor shows when it is used", async (page) => {
  await freshBoard(page);
  await setUp(page, [[7, 7], [8, 6], [8, 8]]);
  assert(await shownAt(page) === "3 of 3", `after three clicks: ${await shownAt(page)}`);
  const steps = [
    ["ArrowLeft", "2 of 3"], ["Control+z", "1 of 3"], ["ArrowRight", "2 of 3"], ["Control+y", "3 of 3"],
    ["Home", "0 of 3"], ["End", "3 of 3"], ["Control+Shift+z", "3 of 3"],
  ];
  for (const [key, want] of steps) {
    await page.keyboard.press(key);
    assert(await shownAt(page) === want, `${key} after clicks: ${await shownAt(page)}, not ${want}`);
  }
  // A variation played after stepping back: up and down change it, still after clicks.
  await page.keyboard.press("ArrowLeft");
  await page.click(at("an-board", 3, 3));
  assert((await stonesOn(page)).includes("3,3,B"), "the variation's stone");
  await page.keyboard.press("ArrowUp");
  assert((await stonesOn(page)).includes("8,8,B") && !(await stonesOn(page)).includes("3,3,B"), `up: ${await stonesOn(page)}`);
  await page.keyboard.press("ArrowDown");
  assert((await stonesOn(page)).includes("3,3,B"), `down: ${await stonesOn(page)}`);
  // No point keeps the focus after a click.
  assert(await page.evaluate(() => !document.activeElement.closest(".goban")), "a clicked point took the focus");
  // The keyboard's cursor: on the board itself, arrows move it, it is drawn, and the moves stay.
  await page.focus("#an-board");
  await page.keyboard.press("ArrowRight");
  const cursor = await page.$eval("#an-board button.cursor", (b) => ({ at: [b.dataset.x, b.dataset.y].join(","), ring: getComputedStyle(b).boxShadow }));
  assert(cursor.at === "8,7" && cursor.ring !== "none", `the cursor: ${JSON.stringify(cursor)}`);
  assert(await shownAt(page) === "3 of 3", "the cursor's arrow stepped the moves");
});

test("hands: a renju forbidden stone is refused on every way in, in the page's words, and no analysis hangs", async (page) => {
  await freshBoard(page, "renju");
  // A click.
  await setUp(page, BEFORE_J8);
  await page.waitForFunction(() => document.querySelectorAll("#an-board .forbidden").length > 0);
  await page.click(at("an-board", ...J8));
  assert(await text(page, "an-error") === J8_REFUSED, `click: ${await text(page, "an-error")}`);
  assert((await stonesOn(page)).length === 8, "the click put a stone");
  // Pasted, spaced and in the link's glued form.
  for (const moves of ["h8 a1 i8 a3 j9 a5 j10 a7 j8", "h8a1i8a3j9a5j10a7j8"]) {
    await page.fill("#an-text", moves);
    await page.click("#an-load");
    await page.waitForFunction((w) => document.querySelector("#an-load-error").textContent === w, `move 9: ${J8_REFUSED}`);
    assert((await stonesOn(page)).length === 8, `${moves}: the board changed`);
  }
  // An SGF: its main line, and a variation.
  const sgf = "(;FF[4]SZ[15]RU[Renju];B[hh];W[ao];B[ih];W[am];B[jg];W[ak];B[jf];W[ai]";
  for (const [record, words] of [[`${sgf};B[jh])`, `game 1: stone 9: ${J8_REFUSED}`], [`${sgf}(;B[aa])(;B[jh]))`, `game 1, a variation: stone 9: ${J8_REFUSED}`]]) {
    await page.fill("#an-text", record);
    await page.click("#an-load");
    await page.waitForFunction((w) => document.querySelector("#an-load-error").textContent === w, words);
    assert((await stonesOn(page)).length === 8, "an SGF refused changed the board");
  }
  // A link.
  await page.evaluate(() => { location.hash = "#/analysis?rule=renju&moves=h8a1i8a3j9a5j10a7j8"; });
  await page.waitForFunction((w) => document.querySelector("#an-error").textContent === `bad link: move 9: ${w}`, J8_REFUSED);
  // Set up by colour: black's four stones, then white's; black's next stone on j8 is refused.
  await page.click("#an-clear");
  await page.selectOption("#an-place", "black");
  await setUp(page, BEFORE_J8.filter((_, i) => i % 2 === 0));
  await page.selectOption("#an-place", "white");
  await setUp(page, BEFORE_J8.filter((_, i) => i % 2 === 1));
  await page.selectOption("#an-place", "black");
  await page.waitForFunction(() => document.querySelector('#an-board button[data-x="9"][data-y="7"] .forbidden'));
  await page.click(at("an-board", ...J8));
  assert(await text(page, "an-error") === J8_REFUSED, `set up: ${await text(page, "an-error")}`);
  assert((await stonesOn(page)).length === 8, "a set-up stone went on j8");
  // The stones put under freestyle, the rule then renju: said at once.
  await page.click("#an-clear");
  await page.selectOption("#an-place", "alternate");
  await page.selectOption("#an-rule", "freestyle");
  await setUp(page, [...BEFORE_J8, J8]);
  await page.selectOption("#an-rule", "renju");
  await page.waitForFunction((w) => document.querySelector("#an-error").textContent === `stone 9: ${w}`, J8_REFUSED);
  // Play from here: refused beside the board, which stays.
  page.on("dialog", (d) => d.accept());
  await page.click("#an-play");
  await page.waitForFunction((w) => document.querySelector("#an-error").textContent === `stone 9: ${w}`, J8_REFUSED);
  assert(!(await page.$eval("#analysis", (e) => e.hidden)), "Play from here left the board");
  // Analyse: refused, and analysis is off again, nothing left saying it runs.
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelector("#an-go").textContent === "Analyse");
  const after = await page.evaluate(() => ({
    pressed: document.querySelector("#an-go").getAttribute("aria-pressed"),
    status: document.querySelector("#an-status").textContent,
    error: document.querySelector("#an-error").textContent,
    live: document.querySelector("#an-live").hidden,
  }));
  assert(after.pressed === "false" && !/Analysing/.test(after.status) && after.live, `after a refusal: ${JSON.stringify(after)}`);
  assert(after.error === `stone 9: ${J8_REFUSED}`, `the refusal: ${after.error}`);
});

/** The analysis's answers the page gets, each as a promise of its body (kept as its headers come). */
function answersOf(page) {
  const answers = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/analyse") && r.status() === 200) answers.push(r.json().catch(() => null));
  });
  return answers;
}

/**
 * Recorded positions (as links) and what the heat map must agree with: a
 * quiet opening, black's open four (its fives), white facing black's four
 * (the block), a renju position with black's double three crossed.
 */
const HEAT_POSITIONS = [
  ["#/analysis?rule=freestyle&size=15&moves=h8i9i7", "freestyle", 3],
  ["#/analysis?rule=freestyle&size=15&moves=e8e12f8e4g8l11h8m3", "freestyle", 8],
  ["#/analysis?rule=freestyle&size=15&moves=e8e12f8e4g8l11h8", "freestyle", 7],
  ["#/analysis?rule=renju&size=15&moves=h8a1i8a3j9a5j10a7", "renju", 8],
];

/** Whether the board shows the position of `n` stones under `rule`, with a heat map and a best line drawn for it. */
const mapped = ([rule, n]) => document.querySelector("#an-rule").value === rule &&
  [...document.querySelectorAll("#an-board button")].filter((b) => b.dataset.stone).length === n &&
  document.querySelectorAll("#an-board button.heat").length > 0 && !!document.querySelector("#an-board .cand.best");

test("hands: the heat map's hottest point is the best line's move, on recorded positions, refreshed with each answer", async (page) => {
  const answers = answersOf(page);
  await openAnalysis(page);
  await page.check("#an-heat");
  await page.selectOption("#an-lines", "3");
  await page.selectOption("#an-time", "0");
  await page.click("#an-go");
  for (const [link, rule, n] of HEAT_POSITIONS) {
    answers.length = 0;
    await page.evaluate((l) => { location.hash = l; }, link);
    await page.waitForFunction(mapped, [rule, n], { timeout: 30000 });
    const shown = await page.evaluate(() => {
      const heat = [...document.querySelectorAll("#an-board button.heat")].map((b) => [`${b.dataset.x},${b.dataset.y}`, Number(b.dataset.heat)]);
      const best = document.querySelector("#an-board .cand.best").closest("button");
      return { heat, best: `${best.dataset.x},${best.dataset.y}` };
    });
    const hottest = Math.max(...shown.heat.map(([, r]) => r));
    const bestRate = (shown.heat.find(([k]) => k === shown.best) || [])[1];
    assert(bestRate === hottest, `${link}: the best line's move ${shown.best} (${bestRate}) is not the hottest (${hottest}): ${JSON.stringify(shown.heat)}`);
    // Every answer with a map agrees, and the map is not one stale picture.
    const got = (await Promise.all(answers)).filter((a) => a && a.heat && a.lines.length);
    for (const a of got) {
      const top = Math.max(...a.heat.points.map((p) => p.win_rate));
      const best = a.heat.points.find((p) => p.point[0] === a.lines[0].move[0] && p.point[1] === a.lines[0].move[1]);
      assert(best && best.win_rate === top, `${link}: an answer's map disagrees with its best line`);
    }
  }
  // Beside black's open four: its few moves, not a board of certain wins.
  await page.evaluate((l) => { location.hash = l; }, HEAT_POSITIONS[1][0]);
  await page.waitForFunction(mapped, HEAT_POSITIONS[1].slice(1), { timeout: 30000 });
  const count = await page.$$eval("#an-board button.heat", (bs) => bs.length);
  assert(count <= 5, `${count} points coloured beside an open four`);
  await page.click("#an-go");
  // The setting is remembered: off again for the tests after this one.
  await page.uncheck("#an-heat");
});

test("hands: a proven result reads win in N, an unproven score never 100% or 0%", async (page) => {
  // The server's answer for the shown position, replaced by one with a
  // proven win and scores next to certain but unproven.
  await page.route("**/api/analyse", async (route) => {
    const body = JSON.parse(route.request().postData());
    await route.fulfill({ json: {
      size: body.size, rule: body.rule, to_move: "black", scale: 0.003, depth: 9, nodes: 1000, ms: 250,
      lines: [
        { move: [9, 9], score: 999993, win_rate: 1, decided: { win: 7 }, pv: [[9, 9]], depth: 9, nodes: 500 },
        { move: [5, 5], score: 3726, win_rate: 0.99999, decided: null, pv: [[5, 5]], depth: 9, nodes: 300 },
        { move: [1, 1], score: -3726, win_rate: 0.00001, decided: null, pv: [[1, 1]], depth: 9, nodes: 200 },
      ],
    } });
  });
  await openAnalysis(page);
  await page.selectOption("#an-labels", "rate");
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-result li").length === 3);
  const rates = await page.$$eval("#an-result li .rate", (rs) => rs.map((r) => r.textContent));
  assert(JSON.stringify(rates) === '["win in 7","99%","1%"]', `rates: ${rates}`);
  const labels = await page.$$eval("#an-board .cand", (cs) => cs.map((c) => c.textContent).sort());
  assert(JSON.stringify(labels) === '["1","99","W7"]', `labels: ${labels}`);
  assert(/black wins by force/.test(await text(page, "an-evaltext")), `the bar: ${await text(page, "an-evaltext")}`);
  const all = await page.evaluate(() => document.querySelector("#analysis").textContent);
  assert(!/\b100%|\b0%/.test(all), "100% or 0% shown");
  await page.click("#an-go");
});

test("hands: every line of a multi-line analysis is updated live, and the analysis time ends it", async (page) => {
  await openAnalysis(page);
  await page.selectOption("#an-lines", "3");
  await page.selectOption("#an-time", "0");
  await setUp(page, [[7, 7], [8, 6], [8, 8], [6, 6]]);
  // Each line's row marked live at least once while its search reports.
  await page.evaluate(() => {
    window.liveSeen = new Set();
    new MutationObserver(() => {
      for (const li of document.querySelectorAll("#an-result li.live")) window.liveSeen.add(li.dataset.k);
    }).observe(document.querySelector("#an-result"), { childList: true, subtree: true, attributes: true });
  });
  await page.click("#an-go");
  await page.waitForFunction(() => window.liveSeen.size === 3, null, { timeout: 60000 });
  await page.click("#an-go");
  // One second in all: the analysis ends by itself, and a new position is analysed again.
  await page.selectOption("#an-time", "1000");
  const asked = [];
  page.on("request", (r) => { if (r.url().endsWith("/api/analyse")) asked.push(JSON.parse(r.postData())); });
  await page.click("#an-go");
  await page.waitForFunction(() => /^Analysed: depth \d+/.test(document.querySelector("#an-status").textContent), null, { timeout: 30000 });
  const total = asked.reduce((t, q) => t + q.ms, 0);
  assert(total === 1000, `the questions took ${total} ms, not the 1 s chosen: ${asked.map((q) => q.ms)}`);
  assert(asked.every((q) => q.hash === 32), `the table size asked: ${asked.map((q) => q.hash)}`);
  asked.length = 0;
  await page.click(at("an-board", 9, 9));
  await page.waitForFunction(() => /^Analysed: /.test(document.querySelector("#an-status").textContent), null, { timeout: 30000 });
  assert(asked.length >= 1 && asked[0].stones.length === 5, "the next position was not analysed");
  await page.click("#an-go");
  await page.selectOption("#an-time", "0");
});

test("hands: rotate and flip turn every line, the position shown kept", async (page) => {
  await freshBoard(page);
  await setUp(page, [[7, 7], [8, 6], [8, 8]]);
  await page.keyboard.press("ArrowLeft");
  await page.click(at("an-board", 3, 3));
  await page.click("#an-rotate");
  // A quarter clockwise: (x, y) to (14 - y, x).
  assert((await stonesOn(page)).join(" ") === "11,3,B 7,7,B 8,8,W", `rotated: ${await stonesOn(page)}`);
  assert(/moves=h8i7l12$/.test(await page.evaluate(() => location.hash)), `the link: ${await page.evaluate(() => location.hash)}`);
  // Mirrored left to right: (x, y) to (14 - x, y).
  await page.click("#an-flip");
  assert((await stonesOn(page)).join(" ") === "3,3,B 6,8,W 7,7,B", `flipped: ${await stonesOn(page)}`);
  // The other line turned with it.
  await page.keyboard.press("ArrowUp");
  assert((await stonesOn(page)).join(" ") === "6,8,W 7,7,B 8,8,B", `the other line, turned: ${await stonesOn(page)}`);
  // Four quarter turns are none; the flip undone and three more turns are the first board.
  for (let k = 0; k < 4; k++) await page.click("#an-rotate");
  assert((await stonesOn(page)).join(" ") === "6,8,W 7,7,B 8,8,B", "four quarter turns changed the board");
  await page.click("#an-flip");
  assert((await stonesOn(page)).join(" ") === "6,8,B 7,7,B 8,8,W", `flipped back: ${await stonesOn(page)}`);
  for (let k = 0; k < 3; k++) await page.click("#an-rotate");
  assert((await stonesOn(page)).join(" ") === "7,7,B 8,6,W 8,8,B", `turned back: ${await stonesOn(page)}`);
  assert(await shownAt(page) === "3 of 3", "the position shown moved");
});

test("hands: SGF comments are kept, shown with their move, written back and read again", async (page) => {
  await openAnalysis(page);
  const record = "(;FF[4]GM[4]SZ[15]C[a game of two lines];B[hh]C[the centre];W[ii]C[a \\] bracket and a \\\\ slash](;B[jj]C[main])(;B[gg]C[side]))";
  await page.fill("#an-text", record);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 3");
  const comments = async () => {
    const out = [];
    for (const n of [0, 1, 2, 3]) {
      await page.evaluate((k) => { const s = document.querySelector("#an-slider"); s.value = k; s.dispatchEvent(new Event("input")); }, n);
      out.push(await page.$eval("#an-comment", (c) => c.value));
    }
    return out;
  };
  const want = ["a game of two lines", "the centre", "a ] bracket and a \\ slash", "main"];
  const read = await comments();
  assert(JSON.stringify(read) === JSON.stringify(want), `comments shown: ${JSON.stringify(read)}`);
  // A comment written on the variation's move.
  await page.$eval("#an-moves", (l) => l.querySelector("button.alt").click());
  assert(await page.$eval("#an-comment", (c) => c.value) === "side", "the variation's comment");
  await page.fill("#an-comment", "side, looked at again");
  const sgf = await page.$eval("#an-sgf", (a) => decodeURIComponent(a.href.split(",").slice(1).join(",")));
  for (const part of ["C[a game of two lines]", ";B[hh]C[the centre]", "C[a \\] bracket and a \\\\ slash]", ";B[jj]C[main]", ";B[gg]C[side, looked at again]"]) {
    assert(sgf.includes(part), `the SGF lacks ${part}: ${sgf}`);
  }
  // Read back: the same comments.
  await page.click("#an-clear");
  await page.fill("#an-text", sgf);
  await page.click("#an-load");
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "3 of 3");
  const again = await comments();
  assert(JSON.stringify(again) === JSON.stringify(want), `comments read back: ${JSON.stringify(again)}`);
});

test("hands: a Swap2 game's moves are numbered as the game goes, alike in the list, the link and the SGF", async (page) => {
  await openAnalysis(page);
  await page.click("#mode-play");
  // A Swap2 game as the server lists it: black h8, black i10, white j8
  // placed by the opener, then white's i7.
  await page.evaluate(async () => {
    const { drawGomoku } = await import("/page/gomoku.js");
    const placed = [[7, 7, "B"], [8, 5, "B"], [9, 7, "W"], [8, 8, "W"]];
    drawGomoku({
      game_id: 98, size: 15, rule: "freestyle", start: "swap2", phase: "play", person: "black", to_move: "black", time_ms: 1000,
      stones: placed.map(([x, y, colour], i) => ({ x, y, colour, by: i < 3 ? "you" : "engine" })),
      forbidden: [], thought: null, note: "Your move (black).", resigned: false, thinking_ms: null, can_take_back: false,
    });
  });
  const playList = await page.$$eval("#gomoku-moves li", (ls) => ls.map((l) => `${l.dataset.n} ${l.textContent.trim()}`));
  assert(JSON.stringify(playList) === '["1 h8 you","2 j8 you","3 i10 you","4 i7 engine"]', `the game's list: ${playList}`);
  await page.click("#gomoku-to-analysis");
  await page.waitForFunction(() => !document.querySelector("#analysis").hidden);
  const list = await page.$$eval("#an-moves li", (ls) => ls.map((l) => `${l.dataset.n} ${l.querySelector(".dot").classList.contains("b") ? "B" : "W"} ${l.textContent.trim()}`));
  assert(JSON.stringify(list) === '["1 B h8","2 W j8","3 B i10","4 W i7"]', `the analysis list: ${list}`);
  assert((await page.evaluate(() => location.hash)).endsWith("moves=h8j8i10i7"), `the link: ${await page.evaluate(() => location.hash)}`);
  const sgf = await page.$eval("#an-sgf", (a) => decodeURIComponent(a.href.split(",").slice(1).join(",")));
  assert(sgf.includes(";B[hh];W[jh];B[if];W[ii])"), `the SGF: ${sgf}`);
});

/** The four sizes a player tries: two screens, two phones. */
const SIZES = [[1920, 1080], [1366, 768], [400, 800], [360, 740]];

test("hands: the layouts, read from the page: a phone's board the screen's width, a laptop's board, lines and moves on screen", async (page) => {
  await lookAsSize(page, 1366, 768);
  await page.goto(`${url}#/analysis?rule=freestyle&size=15&moves=h8i9i7g9j10k11f8`);
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length === 225 && document.querySelector("#an-at").textContent === "7 of 7");
  await page.selectOption("#an-lines", "3");
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-result li").length === 3, null, { timeout: 30000 });
  await page.click("#an-go");
  for (const [width, height] of SIZES) {
    await lookAsSize(page, width, height);
    await page.evaluate(() => window.scrollTo(0, 0));
    // The board refits on the next frame after the window changes: wait for it to settle.
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
    const m = await page.evaluate(() => {
      const box = (id) => { const r = document.getElementById(id).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width }; };
      return { w: window.innerWidth, h: window.innerHeight, scrollX: document.documentElement.scrollWidth > window.innerWidth,
        board: box("an-board"), lines: box("an-result"), moves: box("an-moves"), go: box("an-go"), nav: box("an-first") };
    });
    const name = `${width}x${height}`;
    assert(!m.scrollX, `${name}: the page scrolls sideways`);
    if (width <= 400) {
      assert(m.board.width >= 0.9 * m.w, `${name}: the board is ${m.board.width} px of ${m.w}`);
      assert(m.go.top >= m.board.bottom && m.lines.top >= m.board.bottom && m.nav.top >= m.board.bottom,
        `${name}: the controls and lines are not below the board: ${JSON.stringify(m)}`);
    } else {
      for (const part of ["board", "lines", "moves"]) {
        const r = m[part];
        assert(r.top >= 0 && r.bottom <= m.h && r.left >= 0 && r.right <= m.w, `${name}: the ${part} is off screen: ${JSON.stringify(r)} in ${m.w}x${m.h}`);
      }
      assert(m.board.width >= 450, `${name}: the board is only ${m.board.width} px`);
    }
    await shot(page, `hands-layout-${name}`);
  }
});

/** Shows `page` at `width` x `height`, light. */
async function lookAsSize(page, width, height) {
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme: "light" });
}
