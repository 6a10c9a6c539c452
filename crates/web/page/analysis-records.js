// Game records on the analysis board: an SGF or PSQ opened or pasted (a
// collection's games to choose from), moves pasted as text, the stones
// copied as text, and Clear, which forgets them all.
import { $, api, count, el, showError } from "./common.js";
import { winLine } from "./board.js";
import { MAX_RECORD, isRecord, parseRecord } from "./record.js";
import { copyPosition, readMoves } from "./text.js";
import { buildBoard } from "./analysis-draw.js";

/** Loads a game record, or moves written as text (h8 i9 j10) onto the board as it is; a bad one is one line beside the box, the board kept. */
async function loadRecord(an, text) {
  try {
    const games = isRecord(text) ? parseRecord(text) : [await pastedMoves(an, text)];
    await checkLines(an, games[0], 0);
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

/** Moves written as text, read by the server on the board's size, as a game of black and white in turn under the rule chosen (renju's forbidden moves refused there). */
async function pastedMoves(an, text) {
  const moves = await readMoves(text, an.size, an.rule);
  return { size: an.size, moves: moves.map(([x, y], i) => [x, y, i % 2 ? "W" : "B"]), name: "pasted moves" };
}

/** Every line of game `g`, from the first move to the end of a variation: the main line first. */
function linesOf(g) {
  if (!g.tree) return [g.moves];
  const lines = [], stack = [[g.tree, []]];
  while (stack.length) {
    const [node, line] = stack.pop();
    if (!node.children.length) lines.push(line);
    // The first child last onto the stack, so that the main line comes first.
    for (const c of [...node.children].reverse()) stack.push([c, [...line, c.move]]);
  }
  return lines;
}

/** The stones of `line` before the one that ends its game (a five, or the last point), all of them where none does. */
function untilOver(line, rule, size) {
  for (let i = 0; i < line.length; i++) {
    if (winLine(line.slice(0, i + 1), rule).length || i + 1 >= size * size) return line.slice(0, i);
  }
  return line;
}

/**
 * Under renju, each line of game `g` (number `k` of its record) checked by
 * the server, its stones in the order played, each with its colour: a
 * black stone on a point the rule forbade when it was played throws the
 * server's one line, naming the game and whether the line is a variation.
 * A record of a game black lost by such a stone (its result white's, RE[W+],
 * as the judge writes it) holds it as its main line's last move: that one
 * stands, the page saying why once it is shown. (The other rules forbid no
 * point; the record's reader refuses a point taken twice or off the board.)
 */
async function checkLines(an, g, k) {
  const rule = g.rule || an.rule;
  if (rule !== "renju") return;
  const lostOnAFoul = /^W\+/i.test(g.result || "");
  for (const [i, line] of linesOf(g).entries()) {
    let stones = untilOver(line, rule, g.size);
    if (i === 0 && lostOnAFoul && stones.length === line.length && stones.at(-1)?.[2] === "B") stones = stones.slice(0, -1);
    try {
      await api("POST", "/api/position", {
        size: g.size, rule, stones: stones.map(([x, y]) => [x, y]), colours: stones.map((s) => (s[2] === "B" ? "black" : "white")),
      });
    } catch (e) {
      throw new Error(`game ${k + 1}${i ? ", a variation" : ""}: ${e.message}`);
    }
  }
}

/** Shows game `k` of the record loaded, its size and rule with it. */
function showGame(an, k) {
  const g = an.games[k];
  an.gameShown = k;
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
  $("an-games").onchange = async () => {
    const k = Number($("an-games").value);
    try {
      await checkLines(an, an.games[k], k);
      showError("an-load-error", null);
      showGame(an, k);
    } catch (e) {
      // A game refused: the one shown stays, and stays chosen.
      showError("an-load-error", e);
      $("an-games").value = an.gameShown;
    }
  };
  $("an-copy").onclick = () => copyPosition(an.shown(), an.size, "an-copied", "an-load-error");
  $("an-load").onclick = () => loadRecord(an, $("an-text").value);
  $("an-file").onchange = async () => {
    const f = $("an-file").files[0];
    if (!f) return;
    if (f.size > MAX_RECORD) return showError("an-load-error", `${f.name} is over ${MAX_RECORD >> 10} KiB`);
    loadRecord(an, await f.text());
  };
}
