// The analysis board's questions to the server: the analysis of the shown
// position, asked again with more time until stopped (on again with each
// new position), its thinking shown live; and what the rule says of the
// position (renju's forbidden points), asked on every change.
import { $, api, showError } from "./common.js";
import { apiStones, keepAnalysing } from "./analyse.js";
import { clearThinking, clientId, onThinking, showThinking } from "./thinking.js";
import { stopReview } from "./analysis-review.js";

/** Asks the server for black's forbidden points of the shown position (renju, black to move); the marks follow. */
export async function refreshForbidden(an) {
  const gen = ++an.posGen;
  const had = an.forbidden.size;
  an.forbidden = new Map();
  if (had) an.draw();
  if (an.rule !== "renju") return;
  const asked = apiStones(an.shown());
  if (asked.error || asked.toMove !== "B") return;
  try {
    const r = await api("POST", "/api/position", { size: an.size, rule: an.rule, stones: asked.stones });
    if (gen !== an.posGen) return;
    an.forbidden = new Map(r.forbidden.map((f) => [f.point[0] + "," + f.point[1], f.why]));
    an.draw();
  } catch (e) {
    if (gen === an.posGen) showError("an-error", e);
  }
}

/** Analyses the shown position, refreshed with more time until stopped. */
export async function analyseLoop(an) {
  const gen = ++an.gen;
  const still = () => an.running && gen === an.gen;
  const asked = apiStones(an.shown());
  if (asked.error) {
    // Analysis stays on: the next position may be one the engine takes.
    showError("an-error", asked.error);
    return an.draw();
  }
  try {
    // The page's client id, so that the thinking comes back here and each
    // question replaces the last; the tag tells this loop's thinking apart.
    const question = {
      size: an.size, rule: an.rule, stones: asked.stones, lines: Number($("an-lines").value),
      client: clientId() || undefined, tag: gen,
      // Read at each question: the heat map turned on during an analysis comes with its next answer.
      get heat() { return $("an-heat").checked; },
    };
    const proven = await keepAnalysing(question, still, {
      asking: (ms) => { $("an-status").textContent = `Analysing… (${(ms / 1000).toFixed(2)} s)`; },
      answered: (r) => {
        an.result = r;
        showError("an-error", null);
        an.draw();
      },
    });
    if (!proven || !still()) return;
    // Nothing more to find here; the next position is analysed again.
    an.proven = proven;
    clearThinking($("an-live"));
    an.draw();
  } catch (e) {
    if (gen !== an.gen) return;
    showError("an-error", e);
    clearThinking($("an-live"));
    an.draw();
  }
}

/** Analyse and Stop, the lines asked for, and this page's thinking shown live. */
export function setupEngine(an) {
  // This page's analysis thinking, live, while the question it belongs to stands.
  onThinking((r) => {
    if (r.for !== "analysis" || !an.running || r.tag !== an.gen || an.proven) return;
    const whose = apiStones(an.shown()).toMove === "W" ? "white" : "black";
    showThinking($("an-live"), r, { name: (p) => an.name(p), whose });
  });
  $("an-go").onclick = () => {
    an.running = !an.running;
    // One analysis at a time for this page: a review in progress stops.
    if (an.running) stopReview(an);
    if (an.running) { an.proven = null; analyseLoop(an); } else an.gen++;
    an.draw();
  };
  $("an-lines").onchange = () => { if (an.running) { an.proven = null; analyseLoop(an); } };
}
