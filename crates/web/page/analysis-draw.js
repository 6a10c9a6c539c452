// The analysis board drawn: its stones, the candidates of the answer shown
// (labelled as the settings say), the line hovered as numbered see-through
// stones, the heat map, renju's crosses, the variations' next moves; the
// lines beside it with their win rates and the evaluation bar; a click on
// a point.
import { $, el, showError } from "./common.js";
import { aheadStone, forbiddenLine, forbiddenMark, lineAhead, winLine } from "./board.js";
import { candidateLabel, rateText, scoreText, winChance } from "./analyse.js";
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

function candidateAt(an, x, y) {
  const r = an.result;
  if (!r) return null;
  const k = r.lines.findIndex((l) => l.move[0] === x && l.move[1] === y);
  return k >= 0 ? k : null;
}

/** A click on point (x, y): a stone put (in turn, or of the colour chosen), or one taken away. */
export function click(an, x, y) {
  const shown = an.shown();
  const i = shown.findIndex((s) => s[0] === x && s[1] === y);
  if (i >= 0) return an.step(() => an.tree.takeAway(i));
  const blacks = shown.filter((s) => s[2] === "B").length;
  const place = $("an-place").value;
  const colour = place === "black" ? "B" : place === "white" ? "W" : blacks === shown.length - blacks ? "B" : "W";
  const why = colour === "B" && an.forbidden.get(x + "," + y);
  if (why) return showError("an-error", forbiddenLine(why, an.name([x, y])));
  an.step(() => an.tree.play([x, y, colour]));
}

/** Draws the whole analysis board: the board, the lines, the move list, the review. */
export function drawAnalysis(an) {
  if (!an.board.size) buildBoard(an);
  const shown = an.shown();
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
      const about = `${rateText(l.win_rate)}, ${scoreText(l)}`;
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

/** The engine's lines beside the board: the button, the status, the evaluation bar and each line with its win rate. */
export function drawLines(an) {
  const r = an.result;
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
  $("an-evaltext").textContent = `${r.to_move} to move: ${scoreText(best)} · black ${(black * 100).toFixed(0)}%`;
  const p = an.proven;
  $("an-status").textContent = p ? `Proven: ${p.to_move} ${p.lines[0].decided.win !== undefined ? "wins" : "loses"} by force.` :
    `${an.running ? "Analysing… " : ""}depth ${r.depth}, ${r.nodes.toLocaleString("en")} nodes in ${(r.ms / 1000).toFixed(1)} s`;
  r.lines.forEach((l, k) => {
    const li = el("li", { "data-k": k, tabindex: "0" });
    // Every line's win rate for the side to move, then its move, score and continuation.
    li.append(el("span", { class: "rate", "data-rate": l.win_rate, title: `${r.to_move}'s win rate after ${an.name(l.move)}` }, rateText(l.win_rate)),
      el("b", {}, `${an.name(l.move)} ${scoreText(l)}`), document.createTextNode(` ${l.pv.slice(1).map((p) => an.name(p)).join(" ")}`));
    li.classList.toggle("hover", an.hover === k);
    li.onmouseenter = li.onfocus = () => { an.hover = k; an.draw(); };
    li.onmouseleave = li.onblur = () => { an.hover = null; an.draw(); };
    li.onclick = () => click(an, l.move[0], l.move[1]);
    list.append(li);
  });
}
