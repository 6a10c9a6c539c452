// Browser tests of the MENACE tab: readable boxes, the chart, the server's
// settings on every viewer, rules, reset, downloads, the layout in each look.
import { readFileSync } from "node:fs";
import { LOOKS, assert, lookAs, shot, statePath, test, url } from "./harness.mjs";

const loaded = (page) => page.waitForFunction(() => document.querySelectorAll("#menace-boxes .mbox").length === 304);
const noSideScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test("menace: every look has a favicon, no horizontal scroll, and colours from the browser's scheme", async (page) => {
  const missing = [];
  page.on("response", (r) => { if (r.status() === 404) missing.push(r.url()); });
  for (const look of LOOKS) {
    await lookAs(page, look);
    await page.goto(url);
    await loaded(page);
    const icon = await page.$eval('link[rel="icon"]', (l) => l.href);
    assert(icon.startsWith("data:image/svg+xml"), `favicon ${icon}`);
    assert(await noSideScroll(page), `horizontal scroll at ${look.name}`);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const dark = bg.match(/\d+/g).slice(0, 3).reduce((a, c) => a + Number(c), 0) < 200;
    assert(dark === (look.scheme === "dark"), `${look.name} background ${bg}`);
    await shot(page, `menace-${look.name}`);
  }
  assert(missing.length === 0, `404s: ${missing}`);
});

test("menace: the speed and opponent are the server's, for every viewer and after a reload", async (page, browser) => {
  await page.goto(url);
  await loaded(page);
  await page.selectOption("#menace-speed", "100000");
  await page.selectOption("#menace-opponent", "perfect");
  await page.waitForFunction(() => document.querySelector("#menace-opponent").value === "perfect");
  const other = await browser.newPage();
  try {
    await other.goto(url);
    await loaded(other);
    await other.waitForFunction(() => document.querySelector("#menace-speed").value === "100000" &&
      document.querySelector("#menace-opponent").value === "perfect");
    await page.reload();
    await loaded(page);
    assert(await page.$eval("#menace-speed", (s) => s.value) === "100000", "speed lost on reload");
    // Put it back for the other tests.
    await page.selectOption("#menace-speed", "1000");
    await page.selectOption("#menace-opponent", "random");
    await other.waitForFunction(() => document.querySelector("#menace-speed").value === "1000");
  } finally {
    await other.close();
  }
});

test("menace: training keeps the layout still, and the chart reads game numbers, a legend and opponent marks", async (page) => {
  for (const look of [LOOKS[0], LOOKS[3]]) {
    await lookAs(page, look);
    await page.goto(url);
    await loaded(page);
    await page.selectOption("#menace-opponent", "random");
    await page.selectOption("#menace-speed", "100000");
    const box = () => page.evaluate(() => ["#menace-chart", ".menace-rules", "#menace-boxes"].map((s) => {
      const r = document.querySelector(s).getBoundingClientRect();
      return [Math.round(r.x), Math.round(r.y), Math.round(r.width)].join(",");
    }).join(" "));
    const games = () => page.$eval("#menace-info", (i) => Number(i.dataset.games));
    const before = await games();
    await page.click("#menace-train");
    await page.waitForFunction((n) => Number(document.querySelector("#menace-info").dataset.games) > n + 2000, before, { timeout: 15000 });
    const early = await box();
    await page.waitForFunction((n) => Number(document.querySelector("#menace-info").dataset.games) > n + 20000, before, { timeout: 30000 });
    assert(await box() === early, `layout moved while training: ${early} -> ${await box()}`);
    assert(await noSideScroll(page), `horizontal scroll while training at ${look.name}`);
    await page.selectOption("#menace-opponent", "perfect");
    await page.waitForFunction(() => [...document.querySelectorAll("#menace-chart line.mark")].some((l) => l.dataset.opponent === "perfect"), null, { timeout: 10000 });
    await shot(page, `menace-training-${look.name}`);
    await page.click("#menace-stop");
    await page.waitForFunction(() => document.querySelector("#menace-stop").disabled);
  }
  // Past 10,000 games the game axis turns logarithmic by itself, with
  // powers of ten between the first and last game, labels apart.
  assert(await page.$eval("#menace-chart", (c) => c.dataset.scale) === "log", "the axis is not logarithmic past 10,000 games");
  const logTicks = await page.$$eval("#menace-chart text.tick", (t) => t.map((x) => Number(x.textContent.replace(/,/g, ""))));
  assert(logTicks.includes(1000) && logTicks[logTicks.length - 1] > 20000, `log axis game numbers ${logTicks}`);
  const apart = (sel) => page.$$eval(sel, (ts) => {
    const boxes = ts.map((t) => t.getBBox());
    return boxes.every((a, i) => boxes.every((b, j) => i >= j || a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y));
  });
  assert(await apart("#menace-chart text.tick"), "x-axis labels overlap");
  assert(await apart("#menace-chart text.mark-label"), "opponent labels overlap");
  await page.selectOption("#menace-chart-scale", "linear");
  const ticks = await page.$$eval("#menace-chart text.tick", (t) => t.map((x) => Number(x.textContent.replace(/,/g, ""))));
  assert(ticks.length === 3 && ticks[2] > 20000, `x-axis game numbers ${ticks}`);
  const legend = await page.$eval("#menace-legend", (l) => l.textContent);
  assert(/MENACE wins.*draw.*opponent wins/.test(legend), `legend ${legend}`);
  // The legend is not drawn over the curves: it is outside the chart.
  assert(!(await page.$eval("#menace-chart", (c) => c.textContent)).includes("wins"), "legend inside the chart");
  // Recent games: blocks follow the speed.
  await page.selectOption("#menace-chart-view", "recent");
  const axis = await page.$eval("#menace-chart text.axis", (t) => t.textContent);
  assert(axis.includes("block of 65,536"), `recent chart ${axis}`);
});

test("menace: bead counts are whole on hover, short in the box, and used boxes turn with the board", async (page) => {
  await page.goto(url);
  await loaded(page);
  for (const span of await page.$$eval("#menace-boxes .mbox span", (ss) => ss.map((s) => ({ text: s.textContent, title: s.title, w: s.scrollWidth, cw: s.clientWidth })))) {
    assert(span.w <= span.cw + 1, `bead count cut off: ${span.text}`);
    if (/\d/.test(span.text)) assert(/^\d[\d,]* beads? for square [LMR]{2} of the box$/.test(span.title), `title ${span.title}`);
  }
  await page.selectOption("#menace-opponent", "random");
  await page.click("#menace-new");
  await page.waitForFunction(() => document.querySelectorAll("#menace-steps li").length === 1);
  // Each used box is drawn turned so the drawn bead sits on the square played.
  for (let move = 0; move < 5; move++) {
    const steps = await page.$$eval("#menace-steps li", (l) => l.length);
    const used = await page.$$eval("#menace-steps li[data-box]", (l) => l.map((li) => li.dataset.box));
    const played = await page.$$eval("#menace-steps li[data-player=X]", (l) => l.map((li) => Number(li.dataset.square)));
    // Moves are logged with the challenge's square names.
    for (const t of await page.$$eval("#menace-steps li", (l) => l.map((li) => li.textContent))) {
      assert(/^(X on [LMR]{2}(: box \d+, bead [LMR]{2}| \(forced\))|O on [LMR]{2})$/.test(t), `step logged as ${t}`);
    }
    for (const [i, b] of used.entries()) {
      const at = await page.$eval(`.mbox[data-box="${b}"]`, (m) => [...m.children].findIndex((s) => s.classList.contains("drawn")));
      assert(at === played[i], `box ${b}: drawn bead drawn at ${at}, played ${played[i]}`);
    }
    if (await page.$eval("#menace-status", (s) => s.dataset.outcome)) break;
    await page.click("#menace-board button:not([disabled])");
    await page.waitForFunction((n) => document.querySelectorAll("#menace-steps li").length > n, steps);
  }
  await page.waitForFunction(() => document.querySelector("#menace-status").dataset.outcome !== "");
  const [outcome, text] = await page.$eval("#menace-status", (s) => [s.dataset.outcome, s.textContent]);
  const expected = { win: "MENACE wins", draw: "draw", loss: "you win" }[outcome];
  assert(text.endsWith(expected), `${outcome} reads ${text}`);
});

test("menace: rewards, preset and reset with confirmation, state and chart downloads", async (page) => {
  await page.goto(url);
  await loaded(page);
  await page.fill("#menace-win", "5");
  await page.fill("#menace-draw", "2");
  await page.fill("#menace-loss", "0");
  await page.click("#menace-rewards");
  await page.waitForFunction(() => document.querySelector("#menace-rules-now").textContent.includes("win 5, draw 2, loss 0"));
  let saved = JSON.parse(readFileSync(statePath, "utf8"));
  assert(saved.rules && saved.rules.win === 5, `saved rules ${JSON.stringify(saved.rules)}`);
  // State download.
  const [state] = await Promise.all([page.waitForEvent("download"), page.click("#menace-state")]);
  assert(state.suggestedFilename() === "menace.json", state.suggestedFilename());
  const text = readFileSync(await state.path(), "utf8");
  assert(JSON.parse(text).format === "inarow-menace", "downloaded state is not a state file");
  // Chart download.
  const [chart] = await Promise.all([page.waitForEvent("download"), page.click("#menace-chart-svg")]);
  assert(chart.suggestedFilename() === "menace-chart.svg", chart.suggestedFilename());
  assert(readFileSync(await chart.path(), "utf8").startsWith("<svg"), "chart is not an SVG");
  // Reset: dismissing the question changes nothing; accepting gives fresh scroggs boxes.
  const games = await page.$eval("#menace-info", (i) => Number(i.dataset.games));
  await page.selectOption("#menace-preset", "scroggs");
  assert(await page.inputValue("#menace-start-1") === "8", "preset did not fill its start beads");
  page.once("dialog", (d) => d.dismiss());
  await page.click("#menace-reset");
  await page.waitForTimeout(300);
  assert(await page.$eval("#menace-info", (i) => Number(i.dataset.games)) === games, "reset without confirmation");
  page.once("dialog", (d) => { assert(d.message().includes("Throw away"), d.message()); d.accept(); });
  await page.click("#menace-reset");
  await page.waitForFunction(() => document.querySelector("#menace-info").dataset.games === "0");
  assert((await page.$eval("#menace-rules-now", (r) => r.textContent)).includes("scroggs, start 8/4/2/1"), "rules after reset");
  saved = JSON.parse(readFileSync(statePath, "utf8"));
  assert(saved.preset === "scroggs" && saved.machines[0].games === 0, "reset not saved");
  const first = await page.$eval('.mbox[data-box="1"]', (b) => b.dataset.beads);
  assert(first === "8,8,0,0,8,0,0,0,0", `scroggs box 1 ${first}`);
  for (const look of LOOKS) {
    await lookAs(page, look);
    await shot(page, `menace-rules-${look.name}`);
  }
  // Put michie back for the tests in test.mjs.
  await page.selectOption("#menace-preset", "michie");
  page.once("dialog", (d) => d.accept());
  await page.click("#menace-reset");
  await page.waitForFunction(() => document.querySelector("#menace-rules-now").textContent.includes("michie"));
});

test("menace: empty rule fields are refused, and the second MENACE's boxes show", async (page) => {
  await page.goto(url);
  await loaded(page);
  const rules = await page.$eval("#menace-rules-now", (r) => r.textContent);
  await page.fill("#menace-win", "");
  await page.click("#menace-rewards");
  await page.waitForFunction(() => document.querySelector("#menace-rules-error").textContent === "the win reward is empty: give a whole number");
  await page.fill("#menace-start-2", " ");
  await page.click("#menace-reset");
  await page.waitForFunction(() => document.querySelector("#menace-rules-error").textContent === "the start beads for move 2 is empty: give a whole number");
  assert(await page.$eval("#menace-rules-now", (r) => r.textContent) === rules, "an empty field changed the rules");
  await page.reload();
  await loaded(page);
  // Training against a second MENACE shows its boxes (it plays O).
  assert(await page.$eval("#menace-second", (s) => s.hidden), "second MENACE shown before it exists");
  await page.selectOption("#menace-opponent", "menace");
  await page.click("#menace-train");
  await page.waitForFunction(() => !document.querySelector("#menace-second").hidden, null, { timeout: 15000 });
  await page.click("#menace-stop");
  await page.waitForFunction(() => document.querySelector("#menace-stop").disabled);
  const count = Number(await page.$eval("#menace-second-count", (c) => c.textContent));
  const drawn = await page.$$eval("#menace-second-boxes .mbox", (b) => b.length);
  assert(count > 0 && drawn === count, `second MENACE: ${count} boxes named, ${drawn} drawn`);
  const groups = await page.$$eval("#menace-second-boxes .group h3", (h) => h.map((x) => x.textContent));
  assert(groups[0] === "Before its move 1", `groups ${groups}`);
  await page.selectOption("#menace-opponent", "random");
});

test("menace: a rule's error beside the rules, not under New game", async (page) => {
  await lookAs(page, LOOKS[2]);
  await page.goto(url);
  await loaded(page);
  const rules = await page.$eval("#menace-rules-now", (r) => r.textContent);
  // Refused by the page (an empty field), then by the server (out of range).
  await page.fill("#menace-win", "");
  await page.click("#menace-rewards");
  await page.waitForFunction(() => document.querySelector("#menace-rules-error").textContent === "the win reward is empty: give a whole number");
  await page.fill("#menace-win", "3");
  await page.fill("#menace-loss", "-5");
  await page.click("#menace-rewards");
  await page.waitForFunction(() => document.querySelector("#menace-rules-error").textContent.includes("loss reward -5 is out of range"));
  assert(await page.$eval("#menace-error", (e) => e.textContent) === "", "the rules' error under New game");
  assert(await page.$eval("#menace-rules-now", (r) => r.textContent) === rules, "a refused reward changed the rules");
  // Beside the field: in the rules panel, at most a few lines below the rewards.
  const [field, error] = await page.evaluate(() => ["#menace-loss", "#menace-rules-error"].map((s) => document.querySelector(s).getBoundingClientRect().bottom));
  assert(error - field < 120, `the error is ${Math.round(error - field)} px below the field at 400 px`);
  assert(await page.$eval("#menace-rules-error", (e) => !!e.closest(".menace-rules")), "the error is not in the rules panel");
  await shot(page, "menace-rules-error-400-light");
  // Good rewards clear it.
  await page.fill("#menace-loss", "-1");
  await page.click("#menace-rewards");
  await page.waitForFunction(() => document.querySelector("#menace-rules-error").textContent === "");
});

test("menace: one game is one game learned, and the chart's game axis reads whole games, each once", async (page) => {
  await page.goto(url);
  await loaded(page);
  await page.selectOption("#menace-preset", "michie");
  page.once("dialog", (d) => { assert(d.message().startsWith("Throw away all "), d.message()); d.accept(); });
  await page.click("#menace-reset");
  await page.waitForFunction(() => document.querySelector("#menace-info").dataset.games === "0");
  const info = () => page.$eval("#menace-info", (i) => i.children[1].textContent);
  assert((await info()).startsWith("0 games learned"), await info());
  for (let game = 1; game <= 3; game++) {
    await page.click("#menace-new");
    // The new game, not the last one's end: MENACE has made its first move.
    await page.waitForFunction(() => document.querySelector("#menace-status").dataset.outcome === "" &&
      document.querySelectorAll("#menace-steps li").length === 1);
    for (;;) {
      const steps = await page.$$eval("#menace-steps li", (l) => l.length);
      if (await page.$eval("#menace-status", (s) => s.dataset.outcome)) break;
      await page.click("#menace-board button:not([disabled])");
      await page.waitForFunction((n) => document.querySelectorAll("#menace-steps li").length > n ||
        document.querySelector("#menace-status").dataset.outcome, steps);
    }
    await page.waitForFunction((g) => document.querySelector("#menace-info").dataset.games === String(g), game);
    const learned = await info();
    assert(learned.startsWith(game === 1 ? "1 game learned, " : `${game} games learned, `), `after game ${game}: ${learned}`);
    const ticks = await page.$$eval("#menace-chart text.tick", (t) => t.map((x) => x.textContent).join(" "));
    assert(ticks === ["1", "1 2", "1 2 3"][game - 1], `game axis after game ${game}: ${ticks}`);
  }
  // The same on a log axis.
  await page.selectOption("#menace-chart-scale", "log");
  const ticks = await page.$$eval("#menace-chart text.tick", (t) => t.map((x) => x.textContent).join(" "));
  assert(ticks === "1 3", `log game axis after 3 games: ${ticks}`);
  await page.selectOption("#menace-chart-scale", "auto");
});
