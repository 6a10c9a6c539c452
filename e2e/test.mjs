// Browser tests of `inarow serve`, run by scripts/e2e.sh with plain node:
// INAROW_URL is the server, INAROW_STATE its state file (preset michie).
// Tests of one part of the page may live in a file of their own,
// `e2e/NAME.test.mjs`, registering with the harness's `test`.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { assert, playNearCentre, run, statePath, test, url } from "./harness.mjs";

// Bead change per drawn bead under the michie preset (docs/menace.md).
const MICHIE = { win: 3, draw: 1, loss: -1 };

async function boxBeads(page) {
  return page.$$eval("#menace-boxes .mbox", (boxes) =>
    Object.fromEntries(boxes.map((b) => [b.dataset.box, b.dataset.beads.split(",").map(Number)])));
}

test("a whole MENACE game by clicking changes the boxes used by the reward", async (page) => {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll("#menace-boxes .mbox").length === 304);
  const groups = await page.$$eval("#menace-boxes .group", (gs) => gs.map((g) => g.querySelectorAll(".mbox").length));
  assert(JSON.stringify(groups) === "[1,12,108,183]", `boxes per move: ${groups}`);
  const before = await boxBeads(page);

  await page.click("#menace-new");
  await page.waitForFunction(() => document.querySelectorAll("#menace-steps li").length === 1);
  // The box in use and its drawn bead are highlighted while the game goes on.
  assert(await page.$eval('.mbox[data-box="1"]', (b) => b.classList.contains("current")), "box 1 not highlighted");
  assert((await page.$$('.mbox[data-box="1"] span.drawn')).length === 1, "drawn bead not outlined");

  for (let move = 0; move < 5; move++) {
    const outcome = await page.$eval("#menace-status", (s) => s.dataset.outcome);
    if (outcome) break;
    const steps = await page.$$eval("#menace-steps li", (l) => l.length);
    // By selector, so a redraw from a live update between finding and
    // clicking the square does not matter.
    await page.click("#menace-board button:not([disabled])");
    await page.waitForFunction((n) => document.querySelectorAll("#menace-steps li").length > n, steps);
  }
  await page.waitForFunction(() => document.querySelector("#menace-status").dataset.outcome !== "");
  const outcome = await page.$eval("#menace-status", (s) => s.dataset.outcome);
  assert(outcome in MICHIE, `outcome ${outcome}`);
  const used = await page.$$eval("#menace-steps li[data-box]", (l) =>
    l.map((li) => ({ box: li.dataset.box, bead: Number(li.dataset.bead) })));
  assert(used.length >= 1, "MENACE drew no bead");
  const after = await boxBeads(page);
  let changed = 0;
  for (const [box, beads] of Object.entries(before)) {
    const expected = [...beads];
    const u = used.find((x) => x.box === box);
    if (u) expected[u.bead] += MICHIE[outcome];
    assert(JSON.stringify(after[box]) === JSON.stringify(expected),
      `box ${box}: ${after[box]} after a ${outcome}, expected ${expected}`);
    if (u) changed++;
  }
  assert(changed === used.length, "a used box is missing from the view");
  // Every board square is now locked.
  assert((await page.$$("#menace-board button:not([disabled])")).length === 0, "board still open");
  // The game was saved to the state file.
  const saved = JSON.parse(readFileSync(statePath, "utf8"));
  assert(saved.machines[0].games === 1, `state file holds ${saved.machines[0].games} games`);
  const box1 = saved.machines[0].boxes[0].beads;
  assert(JSON.stringify(box1) === JSON.stringify(after["1"]), `saved box 1 ${box1} != shown ${after["1"]}`);
});

test("a second viewer sees the game live", async (page, browser) => {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelector("#live").textContent === "live");
  const other = await browser.newPage();
  try {
    await other.goto(url);
    await other.waitForFunction(() => document.querySelector("#live").textContent === "live");
    await other.click("#menace-new");
    await page.waitForFunction(() =>
      document.querySelector("#menace-status").textContent === "Your move (O)." &&
      document.querySelectorAll("#menace-steps li").length === 1, null, { timeout: 5000 });
  } finally {
    await other.close();
  }
});

test("training against a random player grows the learning chart", async (page) => {
  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll("#menace-boxes .mbox").length === 304);
  await page.selectOption("#menace-opponent", "random");
  await page.selectOption("#menace-speed", "1000");
  await page.click("#menace-train");
  await page.waitForFunction(() => Number(document.querySelector("#menace-info").dataset.games) > 200, null, { timeout: 15000 });
  assert(await page.$eval("#menace-new", (b) => b.disabled), "new game allowed while training");
  await page.click("#menace-stop");
  await page.waitForFunction(() => document.querySelector("#menace-stop").disabled);
  const lines = await page.$$eval("#menace-chart polyline", (ls) => ls.map((l) => l.dataset.series));
  assert(JSON.stringify(lines) === '["wins","draws","losses"]', `chart lines ${lines}`);
});

test("gomoku: open with three stones and play a few moves against the engine", async (page) => {
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.selectOption("#gomoku-opener", "you");
  await page.selectOption("#gomoku-time", "100");
  await page.click("#gomoku-new");
  await page.waitForFunction(() => document.querySelector("#gomoku-note").dataset.phase === "opening");
  for (const [x, y] of [[7, 7], [8, 8], [8, 6]]) {
    await page.click(`#gomoku-board button[data-x="${x}"][data-y="${y}"]:not([disabled])`);
    await page.waitForFunction(([x, y]) =>
      document.querySelector(`#gomoku-board button[data-x="${x}"][data-y="${y}"]`).dataset.stone !== "", [x, y]);
  }
  const colours = await page.$$eval("#gomoku-board button", (bs) => bs.map((b) => b.dataset.stone).join(""));
  assert(colours === "WBB", `opening stones in board order: ${colours}`);
  await page.waitForFunction(() => !["thinking", "opening"].includes(document.querySelector("#gomoku-note").dataset.phase), null, { timeout: 30000 });
  if (await page.$eval("#gomoku-note", (n) => n.dataset.phase) === "colour") await page.click("#gomoku-black");
  const count = () => page.$$eval("#gomoku-board button", (bs) => bs.filter((b) => b.dataset.stone).length);
  for (let move = 0; move < 3; move++) {
    await page.waitForFunction(() => {
      const phase = document.querySelector("#gomoku-note").dataset.phase;
      return phase === "over" || (phase === "play" && document.querySelector("#gomoku-board button:not([disabled])"));
    }, null, { timeout: 30000 });
    if (await page.$eval("#gomoku-note", (n) => n.dataset.phase) === "over") break;
    const before = await count();
    await playNearCentre(page);
    await page.waitForFunction((n) => {
      const stones = [...document.querySelectorAll("#gomoku-board button")].filter((b) => b.dataset.stone).length;
      return stones >= n + 2 || document.querySelector("#gomoku-note").dataset.phase === "over";
    }, before, { timeout: 30000 });
    const thought = await page.$eval("#gomoku-thought", (t) => t.textContent);
    assert(/(Win rate \d+% for the engine \(score [-+]?\d+\)|The engine (wins|loses) by force in \d+ pl(y|ies)) \(depth \d+, [\d,]+ nodes\)\. Principal variation: [a-o]\d+/.test(thought), `engine info: ${thought}`);
  }
});

test("tournament: run two bots, see standings, replay a game", async (page) => {
  await page.goto(url);
  await page.click('header button[data-tab="tournament"]');
  await page.fill("#tour-seed", "4");
  await page.click("#tour-start");
  await page.waitForFunction(() => document.querySelector("#tour-status").textContent.startsWith("Finished"), null, { timeout: 60000 });
  const rows = await page.$$eval("#tour-standings tbody tr", (rs) => rs.map((r) => r.children[1].textContent).sort());
  assert(JSON.stringify(rows) === '["alice","bob"]', `standings ${rows}`);
  const points = await page.$$eval("#tour-standings tbody tr", (rs) => rs.reduce((a, r) => a + Number(r.children[2].textContent), 0));
  assert(points === 4, `points ${points}`);
  await page.click('#tour-games tr[data-game="0"] button');
  await page.waitForSelector("#tour-replay-grid");
  const total = Number(await page.$eval("#tour-replay-grid", (b) => b.dataset.total));
  assert(total >= 3, `the game has ${total} stones`);
  assert(await page.$eval("#tour-replay-grid", (b) => b.dataset.stones) === "1", "the replay does not open at the first stone");
  await page.click("#tour-last");
  await page.click("#tour-prev");
  const fewer = Number(await page.$eval("#tour-replay-grid", (b) => b.dataset.stones));
  assert(fewer === total - 1, `one step back shows ${fewer}`);
  await page.click("#tour-first");
  assert(await page.$eval("#tour-replay-grid", (b) => b.querySelectorAll("span.b, span.w").length) === 0, "first step not empty");
});

// Another site, served by a second server on another port and reached by
// name (evil.test, mapped to 127.0.0.1 by the browser's resolver rules):
// its forms and fetches to the inarow server must change nothing.
const EVIL_PAGE = (target) => `<!doctype html><title>evil</title>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe><iframe name="sink3"></iframe><iframe name="sink4"></iframe>
<form id="f1" target="sink1" method="POST" action="${target}/api/menace/new"><input name="a" value="1"></form>
<form id="f2" target="sink2" method="POST" enctype="text/plain" action="${target}/api/menace/train"><input name='{"opponent":"perfect","speed":7,"x":"' value='"}'></form>
<form id="f3" target="sink3" method="POST" enctype="multipart/form-data" action="${target}/api/tournament/start"><input name="seed" value="99"></form>
<form id="f4" target="sink4" method="POST" action="${target}/api/menace/stop"></form>
<script>
async function attack() {
  const forms = ["f1", "f2", "f3", "f4"].map((id, i) => {
    const loaded = new Promise((r) => document.querySelector("iframe[name=sink" + (i + 1) + "]").addEventListener("load", r, { once: true }));
    document.getElementById(id).submit();
    return loaded;
  });
  const T = ${JSON.stringify(target)};
  const fetches = [
    fetch(T + "/api/menace/stop", { method: "POST", mode: "no-cors" }),
    fetch(T + "/api/menace/new", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: "{}" }),
    fetch(T + "/api/gomoku/new", { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: '{"opener":"engine","time_ms":100}' }),
    // Preflighted: the server grants no CORS, so it is never sent.
    fetch(T + "/api/menace/train", { method: "POST", headers: { "content-type": "application/json" }, body: '{"opponent":"perfect","speed":7}' }),
  ].map((p) => p.then(() => "sent", (e) => "failed"));
  await Promise.all(forms);
  return Promise.all(fetches);
}
</script>`;

test("another site cannot change anything: forms, fetches, DNS rebinding", async (page) => {
  const api = async (method, path, body) => {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await fetch(new URL(path, url), init);
    assert(res.ok, `${method} ${path}: ${res.status}`);
    return res.json();
  };
  // What another site might change, and whether training runs.
  const snapshot = async (whole) => {
    const m = await api("GET", "/api/menace");
    const g = await api("GET", "/api/gomoku");
    const t = await api("GET", "/api/tournament");
    const seen = { training: m.training, speed: m.speed, opponent: m.opponent,
      gomoku: [g.game_id, g.phase], tournament: [t.running, t.run && t.run.seed] };
    // While training, the games and the game on show change by themselves.
    if (whole) Object.assign(seen, { game: m.game, games: m.games, beads: m.beads });
    return JSON.stringify(seen);
  };
  const inarow = url.replace(/\/$/, "");
  const refused = [];
  page.on("response", (r) => {
    if (r.url().startsWith(inarow) && r.request().method() === "POST") refused.push(r.status());
  });
  const evil = createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(EVIL_PAGE(inarow));
  });
  await new Promise((r) => evil.listen(0, "127.0.0.1", r));
  try {
    const evilUrl = `http://evil.test:${evil.address().port}/`;
    for (const training of [false, true]) {
      if (training) await api("POST", "/api/menace/train", { opponent: "random", speed: 5 });
      const before = await snapshot(!training);
      const mtime = statSync(statePath, { throwIfNoEntry: false })?.mtimeMs;
      refused.length = 0;
      await page.goto(evilUrl);
      const fetches = await page.evaluate(() => attack());
      assert(JSON.stringify(fetches) === '["sent","sent","sent","failed"]', `fetches ${fetches}`);
      // Every form and no-cors fetch reached the server and was refused.
      assert(refused.length >= 7 && refused.every((s) => s === 403), `answers ${refused}`);
      await new Promise((r) => setTimeout(r, 300));
      const after = await snapshot(!training);
      assert(after === before, `changed: ${before} -> ${after}`);
      if (!training) {
        const now = statSync(statePath, { throwIfNoEntry: false })?.mtimeMs;
        assert(now === mtime, "the state file was written");
      }
    }
    await api("POST", "/api/menace/stop");
  } finally {
    evil.close();
  }

  // DNS rebinding: a name of the attacker's now points at this machine;
  // the browser calls the page same-origin, the server sees a foreign Host.
  const before = await snapshot(true);
  const port = new URL(url).port;
  const res = await page.goto(`http://rebind.test:${port}/`);
  assert(res.status() === 421, `rebound page: ${res.status()}`);
  const status = await page.evaluate(async () => (await fetch("/api/menace/new", { method: "POST" })).status);
  assert(status === 421, `rebound POST: ${status}`);
  assert(await snapshot(true) === before, "rebinding changed something");
});

for (const file of readdirSync(new URL(".", import.meta.url)).filter((f) => f.endsWith(".test.mjs")).sort()) {
  await import(`./${file}`);
}
await run();
