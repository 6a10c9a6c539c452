// The analysis board's questions to the server: the analysis of the shown
// position, asked again with more time until stopped (on again with each
// new position), its thinking shown live; and what the rule says of the
// position (renju's forbidden points), asked on every change.
import { $, api, showError } from "./common.js";
import { winLine } from "./board.js";
import { apiStones, keepAnalysing } from "./analyse.js";
import { clearThinking, clientId, onThinking, showThinking } from "./thinking.js";
import { stopReview } from "./analysis-review.js";
import { nextColour } from "./analysis-draw.js";
import { engineSettings } from "./analysis-settings.js";

/**
 * Asks the server what the rule says of the shown position (renju): its
 * stones checked in the order put, each with its colour, and black's
 * forbidden points when the next stone is black's (the marks follow). A
 * stone that cannot stand is said at once, in the server's one line.
 */
export async function refreshForbidden(an) {
  const gen = ++an.posGen;
  const had = an.forbidden.size;
  an.forbidden = new Map();
  if (had) an.draw();
  const shown = an.shown();
  // A game over (a five made) has nothing forbidden: the analysis says it is over.
  if (an.rule !== "renju" || winLine(shown, an.rule).length) return;
  try {
    const r = await api("POST", "/api/position", {
      size: an.size, rule: an.rule, stones: shown.map(([x, y]) => [x, y]),
      colours: shown.map((s) => (s[2] === "B" ? "black" : "white")), next: nextColour(an) === "B" ? "black" : "white",
    });
    if (gen !== an.posGen) return;
    an.forbidden = new Map(r.forbidden.map((f) => [f.point[0] + "," + f.point[1], f.why]));
    an.draw();
  } catch (e) {
    if (gen === an.posGen) showError("an-error", e);
  }
}

/** Analysis turned off by a refusal: the button says Analyse again, the status says so, and the reason stands in the error line. */
function refused(an, error) {
  an.running = false;
  an.gen++;
  showError("an-error", error);
  clearThinking($("an-live"));
  an.draw();
  $("an-status").textContent = "Not analysing: the engine cannot take this position.";
}

/** Why a position the page shows is not one to analyse, without asking: a five made, or a full board; or null. */
function over(an, shown) {
  const win = winLine(shown, an.rule);
  if (win.length) {
    const [x, y] = win[0], last = shown.find((s) => s[0] === x && s[1] === y);
    return `The game is over: ${last[2] === "B" ? "black" : "white"} made five.`;
  }
  return shown.length >= an.size * an.size ? "The board is full." : null;
}

/**
 * Analyses the shown position, refreshed with more time until stopped. A
 * position the engine refuses (not in turn, or the server's one line)
 * turns analysis off; a game over is said without asking, and analysis
 * stays on for the next position.
 */
export async function analyseLoop(an) {
  const gen = ++an.gen;
  const still = () => an.running && gen === an.gen;
  const shown = an.shown();
  const ended = over(an, shown);
  if (ended) {
    an.draw();
    $("an-status").textContent = ended;
    return;
  }
  const asked = apiStones(shown);
  if (asked.error) return refused(an, asked.error);
  try {
    // The page's client id, so that the thinking comes back here and each
    // question replaces the last; the tag tells this loop's thinking apart.
    const question = {
      size: an.size, rule: an.rule, stones: asked.stones, lines: Number($("an-lines").value),
      client: clientId() || undefined, tag: gen, ...engineSettings(),
      // Read at each question: the heat map turned on during an analysis comes with its next answer.
      get heat() { return $("an-heat").checked; },
    };
    const ended = await keepAnalysing(question, still, {
      asking: (ms) => { an.asking = ms; $("an-status").textContent = `Analysing… (${(ms / 1000).toFixed(2)} s)`; },
      answered: (r) => {
        an.result = r;
        an.live = [];
        showError("an-error", null);
        an.draw();
      },
    }, Number($("an-time").value));
    if (!ended || !still()) return;
    // Nothing more to find here (proven), or the time chosen spent; the
    // next position is analysed again.
    if (ended.proven) an.proven = ended.answer;
    else an.spent = ended.answer;
    clearThinking($("an-live"));
    an.draw();
  } catch (e) {
    if (gen !== an.gen) return;
    refused(an, e);
  }
}

/** Analyse and Stop, the lines asked for, and this page's thinking shown live. */
export function setupEngine(an) {
  // This page's analysis thinking, live, while the question it belongs to stands.
  // Every line updated live: a report's search (from 1) is the line it is
  // searching (an analysis searches once a line, best first).
  onThinking((r) => {
    if (r.for !== "analysis" || !an.running || r.tag !== an.gen || an.proven || an.spent) return;
    const whose = apiStones(an.shown()).toMove === "W" ? "white" : "black";
    showThinking($("an-live"), r, { name: (p) => an.name(p), whose });
    if (r.best && r.search >= 1 && r.search <= Number($("an-lines").value)) {
      an.live[r.search - 1] = { move: r.best, score: r.score, win_rate: r.win_rate, decided: r.decided, pv: r.pv, depth: r.depth, live: true };
      an.draw();
    }
  });
  $("an-go").onclick = () => {
    an.running = !an.running;
    // One analysis at a time for this page: a review in progress stops.
    if (an.running) stopReview(an);
    if (an.running) { an.proven = an.spent = null; analyseLoop(an); } else { an.gen++; an.live = []; }
    an.draw();
  };
  $("an-lines").onchange = () => again(an);
  // Whose stone a click puts decides whose forbidden points are crossed.
  $("an-place").addEventListener("change", () => refreshForbidden(an));
}

/** The question changed (lines, time, table): a running analysis asks it again. */
export function again(an) {
  if (!an.running) return;
  an.proven = an.spent = null;
  an.live = [];
  analyseLoop(an);
}
