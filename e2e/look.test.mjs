// Browser tests of issue 48's look of the boards: the heat map under the
// stones (drawn, gone when turned off, remembered), every line's win rate
// as the server gives it, candidate labels that show what the setting
// picks at any size, the phone layout (the board and the engine's
// thinking on screen together in a game at 400x800, Analyse under the
// analysis board) and grid lines
// without gaps at any zoom, read back from screenshots. Screenshots of the
// heat map at desktop and phone widths.
import { assert, lookAs, openAnalysis, shot, test, url } from "./harness.mjs";

const at = (board, x, y) => `#${board} button[data-x="${x}"][data-y="${y}"]`;

/** A quiet position: black h8 (7,7), white i9 (8,8), black i7 (8,6); white to move. */
const QUIET = [[7, 7], [8, 8], [8, 6]];

/** Puts `stones` down in turn on the analysis board. */
async function setUp(page, stones) {
  for (const [x, y] of stones) await page.click(at("an-board", x, y));
}

/**
 * The answers of /api/analyse the page gets, in order, each as a promise
 * of its body: kept as each answer's headers come, before the page reads
 * the body, so an answer the page shows is always there.
 */
function listen(page) {
  const answers = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/analyse") && r.status() === 200) answers.push(r.json().catch(() => null));
  });
  return answers;
}

/** The points the heat map colours: key "x,y" → {rate, image}. */
const heated = (page) => page.$$eval("#an-board button.heat", (bs) => Object.fromEntries(bs.map((b) => [
  `${b.dataset.x},${b.dataset.y}`,
  { rate: Number(b.dataset.heat), image: getComputedStyle(b).backgroundImage, stone: b.dataset.stone },
])));

test("look: the heat map is drawn under the stones from the server's values, gone when turned off, and remembered", async (page) => {
  const answers = listen(page);
  await openAnalysis(page);
  assert(!(await page.$eval("#an-heat", (c) => c.checked)), "the heat map is on before it is asked for");
  await setUp(page, QUIET);
  await page.check("#an-heat");
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button.heat").length > 10, null, { timeout: 20000 });
  const heat = await heated(page);
  // The answer that drew it: every point it values, and nothing else, coloured.
  const answer = (await Promise.all(answers)).filter((a) => a && a.heat).at(-1);
  assert(answer, "no answer brought a heat map");
  const sent = new Map(answer.heat.points.map((p) => [`${p.point[0]},${p.point[1]}`, p.win_rate]));
  const drawn = await heated(page);
  assert(Object.keys(drawn).length === sent.size, `${Object.keys(drawn).length} points coloured for ${sent.size} sent`);
  for (const [k, rate] of sent) {
    assert(drawn[k] && Math.abs(drawn[k].rate - rate) < 1e-9, `point ${k}: drawn ${JSON.stringify(drawn[k])}, sent ${rate}`);
    assert(/radial-gradient/.test(drawn[k].image), `point ${k} has no colour: ${drawn[k].image}`);
    assert(!drawn[k].stone, `a stone at ${k} is coloured`);
  }
  // Hot and cold differ: the best point's colour is not the worst's.
  const byRate = Object.values(heat).sort((a, b) => a.rate - b.rate);
  assert(byRate[0].image !== byRate.at(-1).image, "every point has the same colour");
  await page.mouse.move(0, 0);
  await shot(page, "analysis-heat-1400-light");
  // Off: gone at once, whatever the analysis does next.
  await page.uncheck("#an-heat");
  assert(Object.keys(await heated(page)).length === 0, "the heat map stayed when turned off");
  await page.click("#an-go");
  // Remembered as the other settings are.
  await page.reload();
  await page.click('header button[data-tab="gomoku"]');
  await page.click("#mode-analysis");
  assert(!(await page.$eval("#an-heat", (c) => c.checked)), "the heat map came back on after a reload");
  await page.check("#an-heat");
  await page.reload();
  await page.click('header button[data-tab="gomoku"]');
  await page.click("#mode-analysis");
  assert(await page.$eval("#an-heat", (c) => c.checked), "the heat map setting was not remembered");
  // At a phone's width, the same drawing.
  await lookAs(page, { width: 400, scheme: "light" });
  await page.setViewportSize({ width: 400, height: 800 });
  // The address brought the position back: a fresh board for the same stones.
  await page.click("#an-clear");
  await setUp(page, QUIET);
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button.heat").length > 10, null, { timeout: 20000 });
  await shot(page, "analysis-heat-400-light");
  await page.click("#an-go");
  await page.uncheck("#an-heat");
});

test("look: the heat map turned on over a proven position comes for that position", async (page) => {
  await openAnalysis(page);
  // Black's open four, white to move: proven at once, so no answer follows.
  await setUp(page, [[7, 7], [0, 0], [8, 7], [0, 2], [9, 7], [0, 4], [10, 7]]);
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelector("#an-status").textContent.startsWith("Proven"), null, { timeout: 20000 });
  assert(await page.$$eval("#an-board button.heat", (bs) => bs.length) === 0, "a heat map before it was asked for");
  await page.check("#an-heat");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button.heat").length > 0, null, { timeout: 20000 });
  // A decided position shows its few moves that matter (issue 56): white's
  // block and the lines' moves, each lost.
  const rates = await page.$$eval("#an-board button.heat", (bs) => bs.map((b) => Number(b.dataset.heat)));
  assert(rates.length <= 5 && rates.every((r) => r === 0), `rates ${rates}`);
  const blocks = await page.$$eval("#an-board button.heat", (bs) => bs.map((b) => `${b.dataset.x},${b.dataset.y}`));
  assert(blocks.includes("6,7") || blocks.includes("11,7"), `no block in the map: ${blocks}`);
  await page.uncheck("#an-heat");
  await page.click("#an-go");
});

test("look: every line shows its win rate for the side to move, as the server sends it", async (page) => {
  const answers = listen(page);
  await openAnalysis(page);
  await setUp(page, QUIET);
  await page.selectOption("#an-lines", "4");
  await page.click("#an-go");
  // An answer's four lines (the lines may show live before it comes).
  await page.waitForFunction(() => document.querySelectorAll("#an-result li:not(.live)").length === 4, null, { timeout: 20000 });
  await page.click("#an-go");
  const shown = await page.$$eval("#an-result li", (ls) => ls.map((l) => {
    const r = l.querySelector(".rate");
    return { text: r && r.textContent, rate: r && Number(r.dataset.rate), line: l.textContent };
  }));
  // The answer shown (one asked as Stop was pressed may come after it, unshown): its moves are the lines'.
  const name = ([x, y]) => `${"abcdefghijklmno"[x]}${15 - y}`;
  const all = (await Promise.all(answers)).filter((a) => a && a.lines.length === shown.length);
  const answer = all.reverse().find((a) => a.lines.every((l, k) => shown[k].line.includes(`${name(l.move)} `)));
  assert(answer, `no answer has the lines shown: ${shown.map((s) => s.line).join(" | ")}`);
  assert(shown.length === answer.lines.length, `${shown.length} lines shown for ${answer.lines.length}`);
  answer.lines.forEach((l, k) => {
    assert(typeof l.win_rate === "number" && l.win_rate >= 0 && l.win_rate <= 1, `line ${k + 1}: win rate ${l.win_rate}`);
    // An unproven score reads 1% to 99%, a proven one as a win or loss in so many plies.
    const words = l.decided ? (l.decided.win !== undefined ? `win in ${l.decided.win}` : `loss in ${l.decided.loss}`) :
      `${Math.min(99, Math.max(1, Math.round(l.win_rate * 100)))}%`;
    assert(shown[k].rate === l.win_rate && shown[k].text === words,
      `line ${k + 1} shows ${JSON.stringify(shown[k])} for a win rate of ${l.win_rate}`);
  });
  // The bar gives black's chance from the first line's win rate (white is to move here).
  const bar = await page.$eval("#an-evaltext", (e) => e.textContent);
  const black = Math.min(99, Math.max(1, Math.round((1 - answer.lines[0].win_rate) * 100)));
  assert(bar.endsWith(`black ${black}%`), `evaluation bar "${bar}" for black's ${black}%`);
  // A proven win says so: win in 1, never a chance of 100%.
  await page.click("#an-clear");
  await setUp(page, [[3, 7], [3, 3], [4, 7], [4, 3], [5, 7], [10, 10], [6, 7], [12, 1]]);
  await page.click("#an-go");
  await page.waitForFunction(() => /^Proven/.test(document.querySelector("#an-status").textContent), null, { timeout: 20000 });
  const first = await page.$eval("#an-result li .rate", (r) => r.textContent);
  assert(first === "win in 1", `a win in 1 shows ${first}`);
  await page.click("#an-go");
});

/** The candidates' labels, by rank: the text shown, its font size, and the line's win rate and score from the list. */
const labels = (page) => page.$$eval("#an-board .cand", (cs) => cs.map((c) => ({
  rank: Number(c.dataset.rank), text: c.textContent, font: parseFloat(getComputedStyle(c).fontSize),
})).sort((a, b) => a.rank - b.rank));

test("look: candidate labels show what the setting picks, rank, win rate or score, on a desktop and a phone", async (page) => {
  page.on("dialog", (d) => d.accept());
  const answers = listen(page);
  for (const [width, height, size] of [[1400, 1000, 15], [400, 800, 20]]) {
    await page.setViewportSize({ width, height });
    await page.goto(url);
    await page.click('header button[data-tab="gomoku"]');
    await page.click("#mode-analysis");
    await page.selectOption("#an-size", String(size));
    // An open four: the two fives win in 1, the third line loses or wins later.
    await setUp(page, [[3, 7], [3, 3], [4, 7], [4, 3], [5, 7], [10, 10], [6, 7], [12, 1]]);
    await page.selectOption("#an-lines", "3");
    await page.click("#an-go");
    await page.waitForFunction(() => /^Proven/.test(document.querySelector("#an-status").textContent), null, { timeout: 20000 });
    const lines = (await answers.at(-1)).lines;
    const short = (l) => l.decided ? (l.decided.win !== undefined ? `W${l.decided.win}` : `L${l.decided.loss}`) : (l.score > 0 ? "+" : "") + l.score;
    for (const [what, expect] of [
      ["rank", (l, k) => String(k + 1)],
      ["rate", (l) => (l.decided ? short(l) : String(Math.min(99, Math.max(1, Math.round(l.win_rate * 100)))))],
      ["score", short],
    ]) {
      await page.selectOption("#an-labels", what);
      const shown = await labels(page);
      assert(shown.length === lines.length, `${what} at ${width} px: ${shown.length} labels for ${lines.length} lines`);
      shown.forEach((c, k) => {
        assert(c.text === expect(lines[k], k), `${what} at ${width} px: candidate ${k + 1} shows ${c.text}, not ${expect(lines[k], k)}`);
        assert(c.font >= 7, `${what} at ${width} px: candidate ${k + 1} at ${c.font} px`);
      });
      if (width === 400) await shot(page, `labels-${what}-20x20-400x800`);
    }
    // Remembered: the setting stays after a reload.
    await page.reload();
    assert(await page.$eval("#an-labels", (s) => s.value) === "score", "the labels setting was not remembered");
    await page.selectOption("#an-labels", "rate");
  }
});

/** Whether the element `sel` lies wholly within the window. */
const inView = (page, sel) => page.$eval(sel, (e) => {
  const r = e.getBoundingClientRect();
  return { in: r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 0,
    box: [r.left, r.top, r.right, r.bottom].map(Math.round) };
});

test("look: at 400x800 the board and the engine's thinking are on screen together in a game, Analyse under the analysis board", async (page) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto(url);
  page.on("dialog", (d) => d.accept());
  await page.click('header button[data-tab="gomoku"]');
  await page.waitForFunction(() => document.querySelector("#live").textContent === "live");
  await page.click("#mode-play");
  await page.selectOption("#gomoku-start", "free");
  await page.selectOption("#gomoku-you", "black");
  await page.selectOption("#gomoku-size", "15");
  await page.selectOption("#gomoku-time", "3000");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "play");
  await page.click(at("gomoku-board", 7, 7));
  // The engine thinks: its live line shows, under the board, with the board.
  await page.waitForFunction(() => Number(document.querySelector("#gomoku-live").dataset.reports) >= 2, null, { timeout: 30000 });
  const board = await inView(page, "#gomoku-board"), live = await inView(page, "#gomoku-live");
  assert(board.in && live.in, `in play at 400x800: the board at ${board.box}, the live line at ${live.box}`);
  assert(await page.evaluate(() => window.scrollY) === 0, "the page scrolled");
  await shot(page, "phone-play-thinking-400x800");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase !== "thinking", null, { timeout: 30000 });
  // The analysis board: the board and its lines.
  await page.click("#mode-analysis");
  await page.waitForFunction(() => document.querySelectorAll("#an-board button").length === 225);
  await setUp(page, QUIET);
  await page.selectOption("#an-lines", "3");
  await page.click("#an-go");
  await page.waitForFunction(() => document.querySelectorAll("#an-result li").length === 3, null, { timeout: 20000 });
  // The board takes the screen's width (issue 56), Analyse in view under
  // it, the lines right after (hands.test.mjs reads the layouts).
  const an = await inView(page, "#an-board"), lines = await inView(page, "#an-result"), go = await inView(page, "#an-go");
  assert(an.in && go.in && lines.box[1] >= an.box[3], `analysis at 400x800: the board at ${an.box}, the lines at ${lines.box}, Analyse at ${go.box}`);
  await shot(page, "phone-analysis-lines-400x800");
  await page.click("#an-go");
  // A wide window puts them back beside the board.
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.waitForFunction(() => document.querySelector("#an-engine").closest(".gomoku-side") !== null);
  assert(await page.$eval("#gomoku-engine-now", (e) => e.closest(".gomoku-side") !== null), "the thinking stayed under the board at 1400 px");
});

/**
 * Gaps in the grid lines of board `id`, read from a screenshot at zoom
 * `dpr`: for every line, the points along it (between its first and last
 * point's centres) where no pixel within two device pixels of it is dark.
 * The board must hold no stone and no mark.
 */
async function gridGaps(page, cdp, id, dpr) {
  const box = await page.$eval(`#${id}`, (b) => { const r = b.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; });
  // In device pixels: Playwright's own screenshot scales to its idea of the zoom, 1 here.
  const png = Buffer.from((await cdp.send("Page.captureScreenshot", { format: "png", clip: { ...box, scale: 1 } })).data, "base64");
  return page.evaluate(async ([id, data, dpr]) => {
    const b0 = document.getElementById(id).getBoundingClientRect();
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width;
    c.height = img.height;
    if (Math.abs(img.width - (b0.width * dpr)) > 2) return [`a screenshot ${img.width} px wide for ${b0.width} px at zoom ${dpr}`];
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    // The wood is light, the lines dark: a pixel is of a line when its red is well below the wood's.
    const dark = (x, y) => px[4 * (y * c.width + x)] < 150;
    const board = document.getElementById(id), b = board.getBoundingClientRect(), n = Number(board.dataset.size);
    const centre = (x, y) => {
      const r = board.querySelector(`button[data-x="${x}"][data-y="${y}"]`).getBoundingClientRect();
      return [(r.left + r.width / 2 - b.left) * dpr, (r.top + r.height / 2 - b.top) * dpr];
    };
    const [x0, y0] = centre(0, 0), [x1, y1] = centre(n - 1, n - 1);
    const gaps = [];
    for (let i = 0; i < n; i++) {
      const [, y] = centre(0, i), [x] = centre(i, 0);
      for (let u = Math.ceil(x0) + 1; u < Math.floor(x1) - 1; u++) {
        let seen = false;
        for (let v = Math.round(y) - 2; v <= Math.round(y) + 2 && !seen; v++) seen = dark(u, v);
        if (!seen) { gaps.push(`row ${n - i} at x=${u}`); break; }
      }
      for (let v = Math.ceil(y0) + 1; v < Math.floor(y1) - 1; v++) {
        let seen = false;
        for (let u = Math.round(x) - 2; u <= Math.round(x) + 2 && !seen; u++) seen = dark(u, v);
        if (!seen) { gaps.push(`column ${i + 1} at y=${v}`); break; }
      }
    }
    return gaps;
  }, [id, png.toString("base64"), dpr]);
}

test("look: grid lines without gaps at any zoom, 15x15 and 20x20", async (page) => {
  const cdp = await page.context().newCDPSession(page);
  try {
    for (const dpr of [1, 1.25, 1.5, 2]) {
      for (const [width, height] of [[1366, 768], [400, 800]]) {
        await openAnalysis(page, { width, scheme: "light" });
        await page.setViewportSize({ width, height });
        // A browser zoom is a device scale factor to the page; each size
        // chosen after it builds the board anew.
        await cdp.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: dpr, mobile: false });
        for (const n of [20, 15]) {
          await page.selectOption("#an-size", String(n));
          await page.waitForFunction(([n, dpr]) => {
            const c = document.querySelector("#an-board canvas.grid");
            return document.querySelectorAll("#an-board button").length === n * n && c && Number(c.dataset.dpr) === dpr;
          }, [n, dpr]);
          await page.mouse.move(0, 0);
          const gaps = await gridGaps(page, cdp, "an-board", dpr);
          assert(gaps.length === 0, `${n}x${n} at ${width}x${height}, zoom ${dpr}: gaps at ${gaps.slice(0, 4).join("; ")}`);
        }
      }
    }
  } finally {
    await cdp.send("Emulation.clearDeviceMetricsOverride");
  }
});
