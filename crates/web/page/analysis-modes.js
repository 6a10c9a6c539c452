// The gomoku tab's two modes, the game against the engine and the analysis
// board, and what crosses between them: a position played on against the
// engine, and the game brought to the board.
import { $, showError } from "./common.js";
import { apiStones } from "./analyse.js";
import { gomoku, startFree, stonesOf } from "./gomoku.js";
import { addressFollowsView } from "./analysis-address.js";
import { buildBoard, drawLines } from "./analysis-draw.js";

/** Shows the game (`analysis` false) or the analysis board; `fromAddress` when the address asked for it. */
export function gomokuMode(an, analysis, fromAddress = false) {
  // The engine's time goes to the game again when the board is left.
  if (!analysis && an.running) { an.running = false; an.gen++; an.live = []; drawLines(an); }
  $("gomoku-play").hidden = analysis;
  $("analysis").hidden = !analysis;
  $("mode-play").classList.toggle("active", !analysis);
  $("mode-analysis").classList.toggle("active", analysis);
  $("mode-play").setAttribute("aria-pressed", !analysis);
  $("mode-analysis").setAttribute("aria-pressed", analysis);
  if (analysis) an.draw();
  if (!fromAddress) addressFollowsView(an);
}

/** The mode buttons, Play the engine from here, and Analyse this game. */
export function setupModes(an) {
  $("mode-play").onclick = () => gomokuMode(an, false);
  $("mode-analysis").onclick = () => gomokuMode(an, true);

  // Plays the engine from the shown position, as the colour chosen: the
  // game shows once it started; a refusal stays beside the board it is about.
  $("an-play").onclick = async () => {
    const asked = apiStones(an.shown());
    if (asked.error) return showError("an-error", asked.error);
    const pick = $("an-play-colour").value;
    const colour = pick === "to-move" ? (asked.toMove === "B" ? "black" : "white") : pick;
    if (await startFree({ stones: asked.stones, size: an.size, rule: an.rule, colour, errorId: "an-error" })) gomokuMode(an, false);
  };

  $("gomoku-to-analysis").onclick = () => {
    const s = gomoku.state;
    if (!s || !s.stones.length) return;
    an.size = s.size || 15;
    an.rule = s.rule || "freestyle";
    $("an-size").value = an.size;
    $("an-rule").value = an.rule;
    an.newTree(stonesOf(s));
    buildBoard(an);
    gomokuMode(an, true);
    an.positionChanged();
  };
}
