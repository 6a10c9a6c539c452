// The page while every event stream of the server is taken (docs/web.md,
// Limits): it says it is reconnecting, and goes live again once a place is
// free, without a reload.
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
