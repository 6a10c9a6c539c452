// The review of a game on the analysis board: every position of the line
// evaluated in turn, charted as black's winning chance, its worst moves
// marked.
import { $, showError } from "./common.js";
import { evaluate, worstMoves } from "./analyse.js";
import { reviewChart } from "./charts.js";
import { clientId } from "./thinking.js";
import { engineSettings } from "./analysis-settings.js";

/** Move number → the winning chance its player lost, for the worst moves of the review. */
export const reviewMarks = (an) => (an.review ? worstMoves(an.review.evals.map((e) => (e ? e.black : e)), an.moves) : new Map());

/** The review's button and its progress. */
export function drawReviewStatus(an) {
  const r = an.review;
  $("an-review").textContent = r && r.busy ? "Stop review" : "Review the game";
  const done = r ? r.evals.filter((v) => v !== undefined).length : 0;
  $("an-review-status").textContent = !r ? "" : r.busy ? `Reviewing… ${done} of ${an.moves.length + 1} positions` :
    `Reviewed ${done} of ${an.moves.length + 1} positions.` + (reviewMarks(an).size ? " Moves that lost most are marked ? and ??." : "");
}

/** The review's chart: a click on a position shows it. */
export function drawReview(an) {
  reviewChart($("an-chart"), {
    evals: an.review && an.review.evals, marks: reviewMarks(an), moves: an.moves.length, cursor: an.cursor, pick: (n) => an.setCursor(n),
  });
}

/** Stops a review in progress, if any. */
export function stopReview(an) {
  if (an.review && an.review.busy) { an.review.busy = false; an.review.gen = -1; drawReviewStatus(an); }
}

/** Review the game: one position after another, until the line's end or Stop review. */
export function setupReview(an) {
  $("an-review").onclick = async () => {
    if (an.review && an.review.busy) { an.review.busy = false; an.review.gen = -1; return drawReviewStatus(an); }
    an.running = false;
    an.live = [];
    an.gen++;
    const gen = ++an.gen;
    const ms = Number($("an-review-ms").value);
    const review = an.review = { gen, busy: true, evals: [], ms };
    const still = () => an.review === review && review.busy;
    an.draw();
    for (let n = 0; n <= an.moves.length && still(); n++) {
      drawReviewStatus(an);
      try {
        review.evals[n] = await evaluate(an.moves, n, { size: an.size, rule: an.rule, client: clientId() || undefined, ...engineSettings() }, ms, still);
      } catch (e) {
        if (!still()) break;
        showError("an-error", e);
        break;
      }
      drawReview(an);
    }
    review.busy = false;
    drawReviewStatus(an);
    an.draw();
  };
}
