// The analysis board's address: while the board is in view, the page's
// address is the shown position's link (link.js), a new history entry
// with each new position, so that Back and Forward step through them; a
// link opened (or reached by Back and Forward) shows its position.
import { $, showError, showTab } from "./common.js";
import { pointName } from "./board.js";
import { apiStones } from "./analyse.js";
import { positionLink, readLink } from "./link.js";
import { readMoves } from "./text.js";
import { buildBoard } from "./analysis-draw.js";

/** The link of the shown position: its moves in turn from black, or its stones by colour where they are not a game in turn. */
function shownLink(an) {
  const shown = an.shown();
  const asked = apiStones(shown);
  const name = (p) => an.name(p);
  if (!asked.error) return positionLink({ rule: an.rule, size: an.size, moves: asked.stones.map(name) });
  const of = (c) => shown.filter((s) => s[2] === c).map(name);
  return positionLink({ rule: an.rule, size: an.size, black: of("B"), white: of("W") });
}

/** The address says what is shown: `how` is "push" (a new history entry) or "replace". */
export function followAddress(an, how) {
  const link = shownLink(an);
  if (link !== location.hash) history[how === "push" ? "pushState" : "replaceState"](null, "", link);
}

/**
 * The address shows the analysis board's position while the board is in
 * view, and nothing of it elsewhere; called when the tab or mode changes.
 */
export function addressFollowsView(an) {
  if (!$("tab-gomoku").hidden && !$("analysis").hidden) followAddress(an, "replace");
  else if (readLink(location.hash)) history.replaceState(null, "", location.pathname + location.search);
}

/**
 * Shows the position the address names (a link opened, pasted, or reached
 * by Back and Forward) on the analysis board. A position whose moves begin
 * the board's moves is stepped to, keeping the moves after it. A bad link
 * is one line on the board, which is left empty (under the link's rule
 * and size where those are good); the address is left as it is.
 */
export async function openLink(an) {
  const link = readLink(location.hash);
  if (!link) return;
  const gen = ++an.linkGen;
  showTab("gomoku");
  if ($("analysis").hidden) an.openBoard();
  let moves = link.error ? [] : null, error = link.error;
  if (!error && link.moves) {
    // The server reads them as a game under the rule: renju's forbidden moves are refused there.
    try {
      await readMoves(link.moves.map((p) => pointName(p, link.size)).join(" "), link.size, link.rule);
      moves = link.moves.map(([x, y], i) => [x, y, i % 2 ? "W" : "B"]);
    } catch (e) {
      error = `bad link: ${e.message}`;
      moves = [];
    }
  } else if (!error) {
    moves = [...link.black.map(([x, y]) => [x, y, "B"]), ...link.white.map(([x, y]) => [x, y, "W"])];
  }
  if (gen !== an.linkGen) return;
  const rule = link.rule || an.rule, size = link.size || an.size;
  const shown = an.tree.node, line = an.tree.lineEnd();
  // A position in the tree is stepped to, keeping every line; another is a new tree.
  const kept = rule === an.rule && size === an.size && !error && an.tree.show(moves);
  if (!kept) an.newTree(moves);
  else if (an.tree.lineEnd() !== line) an.review = null;
  if (!kept || an.tree.node !== shown) {
    an.rule = rule;
    $("an-rule").value = rule;
    if (size !== an.size || !an.board.size) { an.size = size; $("an-size").value = size; buildBoard(an); }
    an.positionChanged(true);
  } else if (an.tree.lineEnd() !== line) an.draw();
  if (error) showError("an-error", error);
  // A good link is written as the page writes it (h8 for H8).
  else followAddress(an, "replace");
}

/** A link reached by Back and Forward, or pasted into the address bar, is opened. */
export function setupAddress(an) {
  window.addEventListener("popstate", () => openLink(an));
  window.addEventListener("hashchange", () => openLink(an));
}
