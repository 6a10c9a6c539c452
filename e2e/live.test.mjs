// The page while every event stream of the server is taken (docs/web.md,
// Limits): it says it is reconnecting, and goes live again once a place is
// free, without a reload; and an update heard while the page fetches the
// last one is fetched in turn.
import { get } from "node:http";
import { assert, test, url } from "./harness.mjs";

// Opens `n` event streams and keeps them until `release` is called; resolves
// once each has its answer (held: 200, refused: 503).
function holdStreams(n) {
  const requests = [];
  const answered = Array.from({ length: n }, () => new Promise((resolve) => {
    const req = get(new URL("/api/events", url), (res) => {
      resolve(res.statusCode);
      if (res.statusCode !== 200) res.resume();
    });
    req.on("error", () => resolve(0));
    requests.push(req);
  }));
  return { answered: Promise.all(answered), release: () => requests.forEach((r) => r.destroy()) };
}

test("with every event stream taken the page waits, then goes live again by itself", async (page) => {
  // More than the server's 64 places, so every place is surely taken.
  const held = holdStreams(70);
  const codes = await held.answered;
  assert(codes.filter((c) => c === 200).length >= 60, `held streams: ${codes}`);
  assert(codes.includes(503), `no stream refused: ${codes}`);
  try {
    await page.goto(url);
    await page.waitForFunction(() => document.querySelector("#live").textContent.startsWith("reconnecting"),
      { timeout: 10000 });
  } finally {
    held.release();
  }
  // The page tries the stream again on its own (every 10 s).
  await page.waitForFunction(() => document.querySelector("#live").textContent === "live", { timeout: 20000 });
});

test("an update heard while the page fetches the last one is fetched in turn", async (page) => {
  // The page's updates counted as they come.
  await page.addInitScript(() => {
    window.updates = 0;
    const Stream = window.EventSource;
    window.EventSource = class extends Stream {
      constructor(u) { super(u); this.addEventListener("update", () => window.updates++); }
    };
  });
  await page.goto(url);
  await page.click('header button[data-tab="gomoku"]');
  await page.waitForFunction(() => document.querySelector("#live").textContent === "live");
  const newGame = async () => {
    const res = await fetch(new URL("/api/gomoku/new", url), {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ start: "free", time_ms: 100 }),
    });
    assert(res.ok, `new game: ${res.status}`);
    return (await res.json()).game_id;
  };
  // The page's next fetch of the game is answered late, with the game as
  // it stood when asked.
  let held;
  const answered = new Promise((resolve) => { held = resolve; });
  let asked = 0;
  await page.route("**/api/gomoku", async (route) => {
    if (asked++) return route.continue();
    const then = await route.fetch();
    await answered;
    await route.fulfill({ response: then });
  });
  const heard = await page.evaluate(() => window.updates);
  const first = await newGame();
  // Looked at again now and then (a condition, not a time): the page asks
  // for the game once the update is in.
  while (asked < 1) await new Promise((r) => setTimeout(r, 20));
  // The second game's update comes while that fetch is held.
  const second = await newGame();
  await page.waitForFunction((n) => window.updates >= n + 2, heard);
  held();
  await page.waitForFunction((id) => document.querySelector("#gomoku-sgf").getAttribute("download") === `inarow-gomoku-${id}.sgf`,
    second, { timeout: 10000 }).catch(() => { throw new Error(`the page stayed at an older game than ${second} (first ${first})`); });
  await page.unroute("**/api/gomoku");
});
