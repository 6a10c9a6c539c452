// The gomoku analysis board: any position, set up by hand or loaded from a
// game record, analysed by the engine with more time until stopped (on
// again with each new position, its thinking shown live); a review of a
// whole game as a chart. The game against the engine can be brought here,
// and a position played on against the engine from here. Every line played
// is kept in a game tree (tree.js): a stone put off the line shown starts a
// variation, undo and redo step along the line.
//
// This module makes the board's one state (analysis-state.js) and hands it
// to each part, one idea a module: settings, heat map, drawing, navigation,
// the analysis loop, the address, records, review and modes.
import { $, showError } from "./common.js";
import { Goban, nearBoardOnPhones } from "./board.js";
import { clearThinking } from "./thinking.js";
import { AnalysisBoard } from "./analysis-state.js";
import { setupBoardSettings, setupDrawingSettings } from "./analysis-settings.js";
import { buildBoard, click, drawAnalysis } from "./analysis-draw.js";
import { heatOfShownAnswer } from "./analysis-heat.js";
import { setupKeys, setupNavigation } from "./analysis-moves.js";
import { again, analyseLoop, refreshForbidden, setupEngine } from "./analysis-engine.js";
import { addressFollowsView as follows, followAddress, openLink, setupAddress } from "./analysis-address.js";
import { setupRecords } from "./analysis-records.js";
import { setupReview } from "./analysis-review.js";
import { gomokuMode, setupModes } from "./analysis-modes.js";

const an = new AnalysisBoard();
an.board = new Goban("an-board", "an-numbers", "inarow-an-numbers", (x, y) => click(an, x, y), { hug: true });
an.draw = () => drawAnalysis(an);
/**
 * The shown position changed: the analysis starts again from it, and the
 * address follows it as a new entry of the page's history (none for a
 * position taken from the address: `fromAddress`).
 */
an.positionChanged = (fromAddress = false) => {
  if (!fromAddress) followAddress(an, "push");
  an.result = null;
  an.proven = an.spent = null;
  an.live = [];
  an.hover = null;
  clearThinking($("an-live"));
  showError("an-error", null);
  an.draw();
  refreshForbidden(an);
  if (an.running) analyseLoop(an);
};
an.openBoard = () => gomokuMode(an, true, true);

// On a phone the engine's part (analyse, its lines), then the board's
// controls, come under the board.
nearBoardOnPhones("an-engine", "an-near-board");
nearBoardOnPhones("an-controls", "an-near-board");
setupDrawingSettings(an, { heat: heatOfShownAnswer, again });
setupEngine(an);
setupNavigation(an);
setupRecords(an);
setupBoardSettings(an, { rebuild: buildBoard });
setupKeys(an);
setupAddress(an);
setupReview(an);
setupModes(an);

/** The address shows the analysis board's position while the board is in view (main.js calls it when the tab changes). */
export const addressFollowsView = () => follows(an);

// A link opened: the position it names.
openLink(an);
