// The page's charts, drawn as SVG: MENACE's learning curve and the review
// of a gomoku game.
import { fmt } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";

/** Empties `svg` and gives what adds an element to it (or to `parent`), with its attributes and text. */
function drawer(svg) {
  svg.replaceChildren();
  return (tag, attrs, text, parent = svg) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    parent.append(e);
    return e;
  };
}

/**
 * MENACE's learning curve in `svg`: the share of wins, draws and losses by
 * blocks of games, `recent` blocks or all of them, on a `scale` of games
 * ("linear", "log", or "auto": log past 10,000 games), with the marks where
 * the opponent changed.
 */
export function learningCurve(svg, chart, recent, scale) {
  const W = 420, H = 190, L = 34, R = 12, T = 8, B = 34;
  const mk = drawer(svg);
  const blocks = recent ? chart.recent.blocks : chart.blocks;
  const block = recent ? chart.recent.block : chart.block;
  const first = recent ? chart.recent.first : chart.before + 1;
  const n = blocks.length;
  const games = blocks.reduce((a, b) => a + b.wins + b.draws + b.losses, 0);
  // The axis spans two games at least, so that one game is not a point.
  const lastPlayed = first + games - 1;
  const x0 = first, x1 = Math.max(lastPlayed, first + 1);
  // A log axis keeps the first games' learning readable however many follow.
  const log = scale === "log" || (scale === "auto" && x1 - x0 > 10000);
  const X = log
    ? (game) => L + (W - L - R) * Math.log(Math.max(game, x0) / x0) / Math.log(x1 / x0)
    : (game) => L + (W - L - R) * (game - x0) / (x1 - x0);
  svg.dataset.scale = log ? "log" : "linear";
  const Y = (p) => H - B - (H - B - T) * p;
  const grey = "#888";
  for (const p of [0, 0.5, 1]) {
    mk("line", { x1: L, x2: W - R, y1: Y(p), y2: Y(p), stroke: grey, "stroke-opacity": 0.3 });
    mk("text", { x: L - 4, y: Y(p) + 3, "text-anchor": "end", fill: grey }, p * 100 + "%");
  }
  if (n && !log) {
    // The first game, the last one played and the one halfway, each a
    // whole game number and each once: one game is one tick, two are two.
    const ticks = [...new Set([x0, Math.round((x0 + lastPlayed) / 2), lastPlayed])].filter((g) => g >= x0 && g <= x1);
    for (const game of ticks) {
      const anchor = game === x0 ? "start" : game === x1 ? "end" : "middle";
      mk("text", { x: X(game), y: H - B + 12, "text-anchor": anchor, fill: grey, class: "tick" }, fmt(game));
    }
  } else if (n) {
    // The first and last game, and the powers of ten between that leave room for their labels.
    const ticks = [x0];
    for (let p = 10 ** Math.ceil(Math.log10(x0 + 1)); p < lastPlayed; p *= 10) ticks.push(p);
    if (lastPlayed > x0) ticks.push(lastPlayed);
    const spans = ticks.map((game, i) => {
      const label = fmt(Math.round(game)), x = X(game), w = label.length * 6.5 + 2;
      const anchor = i === 0 ? "start" : i === ticks.length - 1 ? "end" : "middle";
      const left = anchor === "start" ? x : anchor === "end" ? x - w : x - w / 2;
      return { label, x, anchor, left, right: left + w };
    });
    // The first and last always; one between only where it clears its neighbours.
    const last = spans[spans.length - 1];
    const kept = [spans[0]];
    for (const s of spans.slice(1, -1)) {
      if (s.left > kept[kept.length - 1].right + 6 && s.right + 6 < last.left) kept.push(s);
    }
    if (last.left > spans[0].right + 6) kept.push(last);
    for (const s of kept) {
      mk("text", { x: s.x, y: H - B + 12, "text-anchor": s.anchor, fill: grey, class: "tick" }, s.label);
      mk("line", { x1: s.x, x2: s.x, y1: H - B, y2: H - B + 3, stroke: grey });
    }
  }
  mk("text", { x: L, y: H - 4, fill: grey, class: "axis" },
    n ? `game number${log ? " (log scale)" : ""}; each point a block of ${fmt(block)} game${block === 1 ? "" : "s"}` : "no games yet");
  const series = [["wins", "#2a9d3a"], ["draws", "#8a8a8a"], ["losses", "#d0383a"]];
  // Each block at the game number of its middle.
  let at = first;
  const mids = blocks.map((b) => { const k = b.wins + b.draws + b.losses; const m = at + (k - 1) / 2; at += k; return m; });
  for (const [key, colour] of series) {
    const pts = blocks.map((b, i) => {
      const total = b.wins + b.draws + b.losses;
      return `${X(n === 1 ? x0 : mids[i]).toFixed(1)},${Y(total ? b[key] / total : 0).toFixed(1)}`;
    });
    if (n) mk("polyline", { points: pts.join(" "), fill: "none", stroke: colour, "stroke-width": 2, "data-series": key });
  }
  // Labels of marks close together go on rows of their own, so none is drawn over another.
  const rows = [];
  for (const m of chart.marks) {
    if (!n || m.game < x0 || m.game > x1) continue;
    const x = X(m.game);
    mk("line", { x1: x, x2: x, y1: T, y2: H - B, stroke: "#e05d00", "stroke-dasharray": "3 3", class: "mark", "data-opponent": m.opponent });
    const t = mk("text", { x: x + 2, y: T + 9, fill: "#e05d00", class: "mark-label" }, m.opponent);
    // Measured where the chart is shown, estimated where it is not.
    const w = (t.getComputedTextLength() || m.opponent.length * 6.5) + 6;
    const end = x + 2 + w > W;
    if (end) { t.setAttribute("text-anchor", "end"); t.setAttribute("x", x - 2); }
    const left = end ? x - 2 - w : x + 2;
    let row = rows.findIndex((r) => r <= left);
    if (row < 0) { row = rows.length; rows.push(0); }
    rows[row] = left + w;
    t.setAttribute("y", T + 9 + 13 * (row % 8));
  }
}

/**
 * A game's review in `svg`: black's winning chance after each move
 * (`evals`, each `{black, won}`: the chance, and who has won by force if
 * that is proven; null where unknown; none before a review), its worst moves
 * (`marks`, move number → chance lost) larger, the move shown (`cursor`)
 * as a line; `pick(n)` when a point is clicked.
 */
export function reviewChart(svg, { evals, marks, moves, cursor, pick }) {
  const W = 300, H = 120, n = Math.max(1, moves);
  const X = (i) => 4 + (i / n) * (W - 8), Y = (v) => 4 + (1 - v) * (H - 8);
  const add = drawer(svg);
  add("rect", { x: 0, y: 0, width: W, height: H, class: "chart-bg" });
  add("line", { x1: 0, x2: W, y1: Y(0.5), y2: Y(0.5), class: "chart-mid" });
  add("line", { x1: X(cursor), x2: X(cursor), y1: 0, y2: H, class: "chart-cursor" });
  if (!evals) {
    add("text", { x: W / 2, y: H / 2 - 6, "text-anchor": "middle", class: "chart-note" }, "Review the game to chart black's winning chance");
    return;
  }
  add("text", { x: 6, y: 12, class: "chart-note" }, "black wins");
  add("text", { x: 6, y: H - 6, class: "chart-note" }, "white wins");
  let d = "";
  evals.forEach((e, i) => { if (e != null) d += `${d ? "L" : "M"}${X(i).toFixed(1)},${Y(e.black).toFixed(1)}`; });
  add("path", { d, class: "chart-line" });
  evals.forEach((e, i) => {
    if (e == null) return;
    const v = e.black;
    const c = add("circle", { cx: X(i), cy: Y(v), r: marks.has(i) ? 4 : 2, class: marks.has(i) ? "chart-blunder" : "chart-point", "data-move": i });
    // A proven result said as one; a chance never reads certain.
    const said = e.won ? `${e.won} wins by force` : `black ${Math.min(99, Math.max(1, Math.round(v * 100)))}%`;
    add("title", {}, `after move ${i}: ${said}` + (marks.has(i) ? ` (this move lost ${(marks.get(i) * 100).toFixed(0)}%)` : ""), c);
    c.onclick = () => pick(i);
  });
}
