// The analysis board drawn: its stones, the candidates of the answer shown
// (labelled as the settings say), the line hovered as numbered see-through
// stones, the heat map, renju's crosses, the variations' next moves; the
// lines beside it with their win rates and the evaluation bar; a click on
// a point.
import { $, el, showError } from "./common.js";
import { aheadStone, forbiddenLine, forbiddenMark, lineAhead, winLine } from "./board.js";
import { apiStones, candidateLabel, rateText, scoreText, verdict, winChance } from "./analyse.js";
import { clearThinking } from "./thinking.js";
import { heatColours } from "./analysis-heat.js";
import { drawMoves, drawNavigation, nextMarks } from "./analysis-moves.js";
import { drawReview, drawReviewStatus } from "./analysis-review.js";

/** Lays out the board at the size chosen, the hovered candidate following the mouse. */
export function buildBoard(an) {
  an.board.build(an.size, (x, y) => {
    const k = candidateAt(an, x, y);
    if (k !== an.hover) { an.hover = k; an.draw(); }
  }, () => {
    if (an.hover !== null) { an.hover = null; an.draw(); }
  });
}

/**
 * The answer shown: the last one, each of its lines replaced by the live
 * report of that line's search in the question standing, so that every
 * line is updated live; the first lines live alone before any answer. Null
 * when there is neither.
 */
export function shownResult(an) {
  const live = an.live.filter(Boolean);
  if (!an.result && !live.length) return null;
  const r = an.result || { to_move: apiStones(an.shown()).toMove === "W" ? "white" : "black", depth: live[0].depth, nodes: 0, ms: 0 };
  const lines = an.result ? [...an.result.lines] : [];
  an.live.forEach((l, k) => { if (l) lines[k] = l; });
  return { ...r, lines: lines.filter(Boolean) };
}

function candidateAt(an, x, y) {
  const r = an.result;
  if (!r) return null;
  const k = r.lines.findIndex((l) => l.move[0] === x && l.move[1] === y);
  return k >= 0 ? k : null;
}

/** The colour a click puts next: the one the Place setting chose, or in turn (black on equal counts). */
export function nextColour(an) {
  const place = $("an-place").value;
  if (place !== "alternate") return place === "black" ? "B" : "W";
  const shown = an.shown(), blacks = shown.filter((s) => s[2] === "B").length;
  return blacks === shown.length - blacks ? "B" : "W";
}

/** A click on point (x, y): a stone put (in turn, or of the colour chosen), or one taken away; black's on a point renju forbids refused at once. */
export function click(an, x, y) {
  const shown = an.shown();
  const i = shown.findIndex((s) => s[0] === x && s[1] === y);
  if (i >= 0) return an.step(() => an.tree.takeAway(i));
  const colour = nextColour(an);
  const why = colour === "B" && an.forbidden.get(x + "," + y);
  if (why) return showError("an-error", forbiddenLine(why, an.name([x, y])));
  an.step(() => an.tree.play([x, y, colour]));
}

/** Draws the whole analysis board: the board, the lines, the move list, the review. */
export function drawAnalysis(an) {
  if (!an.board.size) buildBoard(an);
  const shown = an.shown();
  // The board shows the last answer whole (its candidates and heat map
  // agree); the list beside it follows each line live.
  const r = an.result;
  const cands = new Map();
  if (r) r.lines.forEach((l, k) => cands.set(l.move[0] + "," + l.move[1], { l, k }));
  // The hovered line's continuation, in the colours that would play it.
  const line = r && an.hover !== null && r.lines[an.hover];
  const taken = new Set(shown.map(([x, y]) => x + "," + y));
  const pv = line ? lineAhead(line.pv, r.to_move === "black" ? "B" : "W", taken) : new Map();
  const heat = heatColours(an, r);
  const labels = $("an-labels").value;
  const next = nextMarks(an);
  an.board.draw(shown, {
    win: winLine(shown, an.rule),
    heat: (key) => heat.get(key) || null,
    mark: (key) => {
      if (pv.has(key)) {
        const q = pv.get(key);
        return { child: aheadStone(q), label: `move ${q.n} of the line` };
      }
      if (an.forbidden.has(key)) return forbiddenMark(an.forbidden.get(key));
      if (next.has(key)) return next.get(key);
      if (!cands.has(key)) return null;
      const { l, k } = cands.get(key);
      const about = l.decided ? scoreText(l) : `${rateText(l.win_rate)}, ${scoreText(l)}`;
      return {
        // The labels setting picks what it shows, whatever the point's size; the rest is in its title and the list.
        child: el("span", { class: "cand" + (k === 0 ? " best" : ""), "data-rank": k + 1, "data-label": labels, title: about }, candidateLabel(l, k, labels)),
        label: `candidate ${k + 1}, ${about}`,
      };
    },
  });
  drawNavigation(an);
  drawLines(an);
  drawMoves(an);
  drawReview(an);
  // A review of another game, or of none, says nothing.
  drawReviewStatus(an);
}

/** The other side: "black" for "white". */
const other = (side) => (side === "black" ? "white" : "black");

/** The engine's lines beside the board: the button, the status, the evaluation bar and each line with its win rate. */
export function drawLines(an) {
  const r = shownResult(an);
  const list = $("an-result");
  list.replaceChildren();
  $("an-go").textContent = an.running ? "Stop" : "Analyse";
  $("an-go").setAttribute("aria-pressed", an.running);
  if (!an.running) clearThinking($("an-live"));
  if (!r) {
    $("an-evalfill").style.width = "50%";
    $("an-evaltext").textContent = "";
    if (!an.running) $("an-status").textContent = "Not analysing.";
    return;
  }
  const best = r.lines[0];
  const black = r.to_move === "black" ? winChance(best) : 1 - winChance(best);
  $("an-evalfill").style.width = `${(black * 100).toFixed(1)}%`;
  // A proven result is said as one; a chance never reads certain.
  $("an-evaltext").textContent = `${r.to_move} to move: ${scoreText(best)} · ` +
    (best.decided ? `${best.decided.win !== undefined ? r.to_move : other(r.to_move)} wins by force` : `black ${rateText(black)}`);
  // While a question stands, the status says what is asked, then what the last answer found.
  const p = an.proven, asking = an.running && !p && !an.spent && an.asking;
  const done = an.spent ? "Analysed: " : asking ? `Analysing… (${(an.asking / 1000).toFixed(2)} s) · ` : an.running ? "Analysing… " : "";
  // Lines live before the first answer leave the status saying what is asked.
  if (an.result) $("an-status").textContent = p ? `Proven: ${p.to_move} ${p.lines[0].decided.win !== undefined ? "wins" : "loses"} by force.` :
    `${done}depth ${r.depth}, ${r.nodes.toLocaleString("en")} nodes in ${(r.ms / 1000).toFixed(1)} s`;
  r.lines.forEach((l, k) => {
    const li = el("li", { "data-k": k, tabindex: "0" });
    // Every line's win rate for the side to move (a proven result said as one), then its move, score and continuation.
    li.append(el("span", { class: "rate", "data-rate": l.win_rate, title: `${r.to_move}'s win rate after ${an.name(l.move)}` }, verdict(l)),
      el("b", {}, l.decided ? an.name(l.move) : `${an.name(l.move)} ${scoreText(l)}`), document.createTextNode(` ${l.pv.slice(1).map((q) => an.name(q)).join(" ")}`));
    li.classList.toggle("hover", an.hover === k);
    li.classList.toggle("live", !!l.live);
    li.onmouseenter = li.onfocus = () => { an.hover = k; an.draw(); };
    li.onmouseleave = li.onblur = () => { an.hover = null; an.draw(); };
    li.onclick = () => click(an, l.move[0], l.move[1]);
    list.append(li);
  });
}
