// The README's pictures (issue 56): the analysis board and MENACE's page,
// written into docs/ by the browser tests. Each is made the same way every
// time: a fixed window, the light scheme, a position from a link, and the
// server's answers replaced by recorded ones (e2e/fixtures/: an analysis
// with its heat map, and a MENACE that learned some 13,000 games), so that a
// picture changes only when the page does. A file is written only when its
// picture differs from the one there: another size, or pixels that differ
// by more than a shade (an edge's smoothing may differ by one level from
// one run to the next).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { assert, test, url } from "./harness.mjs";

const fixture = (name) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");
const docs = (name) => new URL(`../docs/${name}`, import.meta.url);

/** Writes `png` to docs/NAME unless the file there shows the same picture (`alike`); says which. */
async function keep(page, name, png) {
  const path = docs(name);
  const same = existsSync(path) && await alike(page, readFileSync(path), png);
  if (!same) writeFileSync(path, png);
  return same ? "unchanged" : "written";
}

/** Whether two PNGs show the same picture: the same size, and no pixel's colour more than 2 levels apart in any channel. */
async function alike(page, a, b) {
  if (Buffer.compare(a, b) === 0) return true;
  return page.evaluate(async ([a, b]) => {
    const pixels = async (src) => {
      const img = new Image();
      await new Promise((done, fail) => { img.onload = done; img.onerror = fail; img.src = src; });
      const c = document.createElement("canvas");
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext("2d");
      g.drawImage(img, 0, 0);
      return { w: img.width, h: img.height, data: g.getImageData(0, 0, img.width, img.height).data };
    };
    const [p, q] = [await pixels(a), await pixels(b)];
    if (p.w !== q.w || p.h !== q.h) return false;
    for (let i = 0; i < p.data.length; i++) if (Math.abs(p.data[i] - q.data[i]) > 2) return false;
    return true;
  }, [a, b].map((png) => "data:image/png;base64," + png.toString("base64")));
}

/** The part of element `selector` in the window (the window's first screen, scrolled to the top). */
async function onScreen(page, selector) {
  return page.$eval(selector, (e) => {
    window.scrollTo(0, 0);
    const r = e.getBoundingClientRect();
    const top = Math.max(0, Math.floor(r.top)), left = Math.max(0, Math.floor(r.left));
    return { x: left, y: top, width: Math.min(window.innerWidth, Math.ceil(r.right)) - left, height: Math.min(window.innerHeight, Math.ceil(r.bottom)) - top };
  });
}

/** The analysis board's position in the picture: a game of 9 moves, white to move, quiet (no line proven). */
const POSITION = "#/analysis?rule=freestyle&size=15&moves=h8i8h9h7g8i10j9g10i6";

test("docs: the README's pictures of the analysis board and of MENACE, made the same way every time", async (page) => {
  const answer = JSON.parse(fixture("analysis-answer.json"));
  const menace = fixture("menace.json");
  // No live thinking or update comes: the stream is refused and the page shows what the fixtures hold.
  await page.route("**/api/events", (route) => route.abort());
  await page.route("**/api/analyse", (route) => route.fulfill({ json: answer }));
  await page.route("**/api/menace", (route) => route.fulfill({ body: menace, contentType: "application/json" }));
  await page.setViewportSize({ width: 1200, height: 660 });
  await page.emulateMedia({ colorScheme: "light" });

  await page.goto(url);
  await page.waitForFunction(() => document.querySelectorAll("#menace-boxes .mbox").length === 304);
  const menacePng = await page.screenshot({ clip: await onScreen(page, "#tab-menace > .row"), animations: "disabled" });

  await page.goto(`${url}${POSITION}`);
  await page.waitForFunction(() => document.querySelector("#an-at").textContent === "9 of 9");
  // The settings the picture shows, whatever earlier tests left remembered.
  await page.evaluate(() => {
    for (const [id, value] of [["an-labels", "rate"], ["an-lines", "3"], ["an-time", "1000"], ["an-hash", "32"]]) {
      const e = document.getElementById(id);
      e.value = value;
      e.dispatchEvent(new Event("change"));
    }
    for (const [id, on] of [["an-heat", true], ["an-numbers", true]]) {
      const e = document.getElementById(id);
      e.checked = on;
      e.dispatchEvent(new Event("change"));
    }
  });
  await page.click("#an-go");
  await page.waitForFunction(() => /^Analysed: /.test(document.querySelector("#an-status").textContent));
  await page.mouse.move(0, 0);
  assert(await page.$$eval("#an-board button.heat", (bs) => bs.length) === answer.heat.points.length, "the heat map is not drawn");
  const analysisPng = await page.screenshot({ clip: await onScreen(page, "#analysis"), animations: "disabled" });
  // Put back what this test changed.
  await page.evaluate(() => {
    for (const [id, value] of [["an-time", "0"]]) {
      const e = document.getElementById(id);
      e.value = value;
      e.dispatchEvent(new Event("change"));
    }
    for (const [id, on] of [["an-heat", false], ["an-numbers", false]]) {
      const e = document.getElementById(id);
      e.checked = on;
      e.dispatchEvent(new Event("change"));
    }
  });
  for (const [name, png] of [["analysis.png", analysisPng], ["menace.png", menacePng]]) {
    assert(png.length < 400 * 1024, `${name} is ${png.length} bytes`);
    console.log(`  docs/${name}: ${await keep(page, name, png)} (${png.length} bytes)`);
  }
});
