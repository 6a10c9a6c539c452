// Positions as text: a board's stones written as gomoku players write moves
// (h8 i9 j10, black first), copied to the clipboard; and moves pasted as
// text read by the server (POST /api/moves, core's parse_moves), so that
// the page and the rest of the toolkit read them one way.
import { $, api, showError } from "./common.js";
import { pointName } from "./board.js";
import { apiStones } from "./analyse.js";
import { gomoku, stonesOf } from "./gomoku.js";

/**
 * The position of `stones` ([x, y, colour]) on a board of side `n` as
 * text, black's and white's stones in turn from black: `h8 i9 j10`; or
 * `{error}`, one line, where the colours cannot be told that way.
 */
export function positionText(stones, n) {
  const asked = apiStones(stones);
  if (asked.error) return { error: `cannot write the position as moves: ${asked.error}` };
  return { text: asked.stones.map((p) => pointName(p, n)).join(" ") };
}

/**
 * The moves of `text` on a board of side `n` as [x, y] in order; a bad move
 * throws the server's one line naming it. Given a `rule`, they are a game
 * under it from black: a move it forbids is bad.
 */
export async function readMoves(text, n, rule) {
  return (await api("POST", "/api/moves", { size: n, text, rule })).moves;
}

/**
 * Puts the position's text on the clipboard and shows it in `outId`; where
 * the browser refuses the clipboard, the text is shown to copy by hand.
 * A position that cannot be written is shown as its one line in `errorId`.
 */
export async function copyPosition(stones, n, outId, errorId) {
  const { text, error } = positionText(stones, n);
  showError(errorId, error);
  $(outId).textContent = "";
  if (error) return;
  $(outId).dataset.text = text;
  try {
    await navigator.clipboard.writeText(text);
    $(outId).textContent = text ? `Copied: ${text}` : "Copied: no stones";
  } catch {
    $(outId).textContent = `Copy by hand: ${text}`;
  }
}

// The game against the engine: its stones, copied the same way.
$("gomoku-copy").onclick = () => {
  const s = gomoku.state;
  copyPosition(s ? stonesOf(s) : [], (s && s.size) || 15, "gomoku-copied", "gomoku-error");
};
