// Game records on the analysis board: an SGF or PSQ opened or pasted (a
// collection's games to choose from), moves pasted as text, the stones
// copied as text, and Clear, which forgets them all.
import { $, count, el, showError } from "./common.js";
import { MAX_RECORD, isRecord, parseRecord } from "./record.js";
import { copyPosition, readMoves } from "./text.js";
import { buildBoard } from "./analysis-draw.js";

/** Loads a game record, or moves written as text (h8 i9 j10) onto the board as it is; a bad one is one line beside the box. */
async function loadRecord(an, text) {
  try {
    const games = isRecord(text) ? parseRecord(text) : [await pastedMoves(an, text)];
    showError("an-load-error", null);
    an.games = games;
    const pick = $("an-games");
    pick.replaceChildren(...games.map((g, k) => el("option", { value: k }, `${k + 1}. ${g.name} (${count(g.moves.length, "move")})`)));
    pick.hidden = games.length < 2;
    showGame(an, 0);
  } catch (e) {
    showError("an-load-error", e);
  }
}

/** Moves written as text, read by the server on the board's size, as a game of black and white in turn under the rule chosen. */
async function pastedMoves(an, text) {
  const moves = await readMoves(text, an.size);
  return { size: an.size, moves: moves.map(([x, y], i) => [x, y, i % 2 ? "W" : "B"]), name: "pasted moves" };
}

/** Shows game `k` of the record loaded, its size and rule with it. */
function showGame(an, k) {
  const g = an.games[k];
  an.size = g.size;
  $("an-size").value = g.size;
  // A record naming its rule is shown under it; one naming none, under the rule chosen.
  if (g.rule) { an.rule = g.rule; $("an-rule").value = g.rule; }
  // An SGF's variations come with it, the main line shown at its end.
  an.newTree(g.moves, g.tree);
  buildBoard(an);
  an.positionChanged();
}

/** The record's box, file and games, Copy as text and Clear. */
export function setupRecords(an) {
  $("an-clear").onclick = () => {
    an.newTree([]);
    // A clear board is a fresh start: nothing of the game loaded before stays.
    an.games = [];
    $("an-games").replaceChildren();
    $("an-games").hidden = true;
    $("an-file").value = "";
    $("an-text").value = "";
    $("an-copied").textContent = "";
    showError("an-load-error", null);
    an.positionChanged();
  };
  $("an-games").onchange = () => showGame(an, Number($("an-games").value));
  $("an-copy").onclick = () => copyPosition(an.shown(), an.size, "an-copied", "an-load-error");
  $("an-load").onclick = () => loadRecord(an, $("an-text").value);
  $("an-file").onchange = async () => {
    const f = $("an-file").files[0];
    if (!f) return;
    if (f.size > MAX_RECORD) return showError("an-load-error", `${f.name} is over ${MAX_RECORD >> 10} KiB`);
    loadRecord(an, await f.text());
  };
}
