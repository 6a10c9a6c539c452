// The analysis board's heat map: every point near the stones coloured by
// the side to move's win rate after a stone there (the server's `heat`),
// and the map asked for alone where no further answer is coming.
import { $, showError } from "./common.js";
import { apiStones, askEngine, verdict } from "./analyse.js";
import { clientId } from "./thinking.js";
import { engineSettings } from "./analysis-settings.js";

/**
 * The heat map turned on over an answer that came without one, where no
 * further answer is coming (the position proven, the time chosen spent,
 * or the analysis stopped): the shown position is asked again, lines and
 * map together (the map agrees with the lines it comes with), once.
 */
export async function heatOfShownAnswer(an) {
  const r = an.result;
  if (!$("an-heat").checked || !r || r.heat || (an.running && !an.proven && !an.spent)) return;
  const asked = apiStones(an.shown());
  if (asked.error) return;
  const gen = an.gen, shown = an.tree.node;
  try {
    const answer = await askEngine({
      size: an.size, rule: an.rule, stones: asked.stones, lines: r.lines.length, ms: Math.min(10000, Math.max(250, r.ms)),
      heat: true, client: clientId() || undefined, ...engineSettings(),
    }, () => gen === an.gen && shown === an.tree.node);
    if (gen !== an.gen || shown !== an.tree.node || an.result !== r) return;
    an.result = answer;
    an.draw();
  } catch (e) {
    if (gen === an.gen && shown === an.tree.node) showError("an-error", e);
  }
}

/**
 * The heat map's colours by point key: each point's win rate placed
 * between the lowest and the highest of the map, red above the middle
 * (the side to move's best point the deepest) and blue below it (its
 * worst the deepest), so that the wood shows through the middling ones.
 */
export function heatColours(an, r) {
  const colours = new Map();
  if (!r || !r.heat || !$("an-heat").checked) return colours;
  const rates = r.heat.points.map((p) => p.win_rate);
  const low = Math.min(...rates), high = Math.max(...rates);
  for (const p of r.heat.points) {
    const t = high > low ? (p.win_rate - low) / (high - low) : 1;
    const strength = Math.abs(t - 0.5) * 2;
    const colour = t >= 0.5 ? `rgba(215, 30, 45, ${(0.12 + 0.68 * strength).toFixed(2)})` : `rgba(30, 80, 220, ${(0.12 + 0.5 * strength).toFixed(2)})`;
    colours.set(p.point[0] + "," + p.point[1], { colour, rate: p.win_rate, title: `${an.name(p.point)}: ${verdict(p)} for ${r.to_move} after a stone here` });
  }
  return colours;
}
