// Gomoku against the engine: the Swap2 opening or a free start, play, the
// engine's thoughts (live while it thinks), hints.
import { $, api, el, showError } from "./common.js";
import { Goban, aheadStone, forbiddenMark, lineAhead, nearBoardOnPhones, other, pointName, stoneDot, winLine } from "./board.js";
import { apiStones, askEngine, inTurn, rateText, scoreText } from "./analyse.js";
import { clearThinking, onThinking, showThinking } from "./thinking.js";

/** The game on show as the server sent it, the points marked in the opening, the hint standing. */
export const gomoku = { state: null, marked: [], seen: 0, timer: null, hint: null };
const board = new Goban("gomoku-board", "gomoku-numbers", "inarow-gomoku-numbers", gomokuClick);
// On a phone the engine's thinking, live, comes under the board.
nearBoardOnPhones("gomoku-engine-now", "gomoku-near-board");
/** A proven result's distance as the page says it: "1 ply", "3 plies". */
const plies = (n) => (n === 1 ? "1 ply" : `${n} plies`);
/** The board side of the game on show (15 before the first game). */
const gsize = () => (gomoku.state && gomoku.state.size) || 15;
const gname = (p) => pointName(p, gsize());
/** The game's stones as the server lists them, in the game's order (black's and white's in turn: a Swap2 opening's stones are numbered as played, not as placed). */
const inGameOrder = (s) => inTurn(s.stones, (st) => st.colour) || s.stones;
/** The game's stones as [x, y, colour] in the game's order. */
export const stonesOf = (s) => inGameOrder(s).map((st) => [st.x, st.y, st.colour]);
for (let n = 5; n <= 20; n++) $("gomoku-size").append(el("option", n === 15 ? { value: n, selected: "" } : { value: n }, `${n}x${n}`));
const IN_PROGRESS = ["opening", "answer", "colour", "thinking", "play"];
/** What wins under each rule, after the opening. */
const RULE_TEXT = {
  freestyle: "five or more in a row wins",
  exact: "exactly five in a row wins (six or more do not)",
  renju: "under renju black wins by exactly five and may not play a double three, a double four or an overline (such points are crossed while black is to move), and white wins by five or more",
};

async function gomokuAction(path, body) {
  try {
    drawGomoku(await api("POST", path, body));
    showError("gomoku-error", null);
  } catch (e) {
    showError("gomoku-error", e);
  }
}
/** Whether a new game may replace the one on show (asked when one is in progress). */
function mayStartNew() {
  const s = gomoku.state;
  return !(s && IN_PROGRESS.includes(s.phase) && !confirm("Abandon the game in progress and start a new one?"));
}
$("gomoku-new").onclick = () => {
  if (!mayStartNew()) return;
  gomoku.marked = [];
  const game = { time_ms: Number($("gomoku-time").value), rule: $("gomoku-rule").value, size: Number($("gomoku-size").value) };
  if ($("gomoku-start").value === "free") gomokuAction("/api/gomoku/new", { ...game, start: "free", colour: $("gomoku-you").value });
  else gomokuAction("/api/gomoku/new", { ...game, opener: $("gomoku-opener").value });
};
/** The pickers of the start chosen: who opens a Swap2 game, the colour of a free one. */
function drawStartPick() {
  const free = $("gomoku-start").value === "free";
  $("gomoku-opener-pick").hidden = free;
  $("gomoku-you-pick").hidden = !free;
}
$("gomoku-start").onchange = drawStartPick;
drawStartPick();

/**
 * Starts a free game from a position set up elsewhere (the analysis
 * board): `stones` as [x, y] black first and alternating, the person
 * playing `colour`, with the time per move chosen here. Resolves to
 * whether it started; a refusal shows in the error line `errorId` (the
 * game's unless another is named).
 */
export async function startFree({ stones, size, rule, colour, errorId = "gomoku-error" }) {
  if (!mayStartNew()) return false;
  gomoku.marked = [];
  // The choices shown are the game's.
  $("gomoku-start").value = "free";
  $("gomoku-you").value = colour;
  $("gomoku-rule").value = rule;
  $("gomoku-size").value = size;
  drawStartPick();
  try {
    drawGomoku(await api("POST", "/api/gomoku/new", { start: "free", colour, stones, size, rule, time_ms: Number($("gomoku-time").value) }));
    showError(errorId, null);
    return true;
  } catch (e) {
    showError(errorId, e);
    return false;
  }
}
$("gomoku-undo").onclick = () => gomokuAction("/api/gomoku/takeback", {});
$("gomoku-resign").onclick = () => { if (confirm("Resign this game?")) gomokuAction("/api/gomoku/resign", {}); };
$("gomoku-take-black").onclick = () => gomokuAction("/api/gomoku/answer", { choice: "black" });
$("gomoku-take-white").onclick = () => {
  const m = gomoku.marked;
  if (m.length !== 1) return showError("gomoku-error", "mark exactly one point for the white stone");
  gomokuAction("/api/gomoku/answer", { choice: "white", x: m[0][0], y: m[0][1] });
};
$("gomoku-place").onclick = () => {
  const m = gomoku.marked;
  if (m.length !== 2) return showError("gomoku-error", "mark two points: the black stone, then the white");
  gomokuAction("/api/gomoku/answer", { choice: "place", black: m[0], white: m[1] });
};
$("gomoku-black").onclick = () => gomokuAction("/api/gomoku/colour", { colour: "black" });
$("gomoku-white").onclick = () => gomokuAction("/api/gomoku/colour", { colour: "white" });

function gomokuClick(x, y) {
  const s = gomoku.state;
  if (s && s.phase === "answer") {
    const i = gomoku.marked.findIndex(([a, b]) => a === x && b === y);
    if (i >= 0) gomoku.marked.splice(i, 1); else gomoku.marked = [...gomoku.marked, [x, y]].slice(-2);
    return drawGomoku(s);
  }
  gomokuAction("/api/gomoku/move", { x, y });
}

/** Shows the game as the server sends it (GET /api/gomoku). */
export function drawGomoku(s) {
  if (s.phase !== "answer") gomoku.marked = [];
  gomoku.state = s;
  gomoku.seen = performance.now();
  const n = s.size || 15;
  if (board.size !== n) board.build(n);
  const stones = stonesOf(s);
  const taken = new Set(stones.map(([x, y]) => x + "," + y));
  const over = s.phase === "over" && !s.resigned;
  $("gomoku-rule-text").textContent = RULE_TEXT[s.rule] || RULE_TEXT.freestyle;
  $("gomoku-rule-text").dataset.rule = s.rule || "freestyle";
  $("gomoku-free-rule").textContent = RULE_TEXT[s.rule] || RULE_TEXT.freestyle;
  $("gomoku-swap2").hidden = s.start === "free";
  $("gomoku-free").hidden = s.start !== "free";
  // The principal variation after the move played, in the colours that would play it.
  const t = s.thought;
  const engine = t ? engineColour(s, t) : "W";
  const pv = t && s.phase !== "thinking" && s.phase !== "over" ? lineAhead(t.pv.slice(1), other(engine), taken) : new Map();
  // Black's forbidden points under renju, while black is to move (the server says which).
  const forbidden = new Map((s.forbidden || []).map((f) => [f.x + "," + f.y, f.why]));
  const open = s.phase === "opening" || s.phase === "answer" || (s.phase === "play" && s.to_move === s.person);
  board.draw(stones, {
    win: over ? winLine(stones, s.rule) : [],
    mark: (key) => {
      const m = gomoku.marked.findIndex(([x, y]) => x + "," + y === key);
      if (m >= 0) return { child: el("span", { class: "stone marked" }, m ? "W" : "B") };
      if (forbidden.has(key)) return forbiddenMark(forbidden.get(key));
      return pv.has(key) ? { child: aheadStone(pv.get(key)) } : null;
    },
    open: (stone) => open && !stone,
  });
  $("gomoku-note").textContent = s.note;
  $("gomoku-note").dataset.phase = s.phase;
  $("gomoku-answer").hidden = s.phase !== "answer";
  $("gomoku-colour").hidden = s.phase !== "colour";
  $("gomoku-marked").textContent = gomoku.marked.length ? gomoku.marked.map(gname).join(", ") : "none";
  $("gomoku-undo").disabled = !s.can_take_back;
  $("gomoku-resign").disabled = !IN_PROGRESS.includes(s.phase);
  $("gomoku-sgf").hidden = s.phase === "idle";
  $("gomoku-sgf").setAttribute("download", `inarow-gomoku-${s.game_id}.sgf`);
  drawThinking();
  $("gomoku-thought").textContent = !t ? "No move yet." :
    (t.decided ? `Played ${gname(t.best)}. The engine ${t.decided.win !== undefined ?
      `wins by force in ${plies(t.decided.win)}` : `loses by force in ${plies(t.decided.loss)}`}` :
      `Played ${gname(t.best)}. Win rate ${rateText(t.win_rate)} for the engine (score ${(t.score > 0 ? "+" : "") + t.score})`) +
    ` (depth ${t.depth}, ${t.nodes.toLocaleString("en")} nodes). ` +
    `Principal variation: ${t.pv.map(gname).join(" ")}`;
  $("gomoku-thought").dataset.pv = t ? t.pv.length : 0;
  const pvList = $("gomoku-pv");
  pvList.replaceChildren();
  if (t) {
    t.pv.forEach((p, i) => {
      const li = el("li", { "data-i": i });
      li.append(stoneDot(i % 2 === 0 ? engine : other(engine)), document.createTextNode(` ${gname(p)}${i === 0 ? " (played)" : ""}`));
      pvList.append(li);
    });
  }
  const moves = $("gomoku-moves");
  moves.replaceChildren();
  inGameOrder(s).forEach((st, i) => {
    const li = el("li", { "data-n": i + 1 });
    li.append(stoneDot(st.colour), document.createTextNode(` ${gname([st.x, st.y])} `), el("small", {}, st.by === "setup" ? "set up" : st.by));
    moves.append(li);
  });
  moves.scrollTop = moves.scrollHeight;
  drawPlayExtras(s);
}

/** The engine's colour: that of the stone it played last (white before it has played). */
function engineColour(s, t) {
  const best = s.stones.find((st) => st.x === t.best[0] && st.y === t.best[1]);
  return best ? best.colour : "W";
}

/** The thinking indicator: shown while the engine thinks, with the time so far. */
function drawThinking() {
  const s = gomoku.state;
  const thinking = !!s && s.phase === "thinking";
  const box = $("gomoku-thinking");
  box.dataset.thinking = thinking;
  if (!thinking) {
    $("gomoku-elapsed").textContent = "";
    clearThinking($("gomoku-live"));
    clearInterval(gomoku.timer);
    gomoku.timer = null;
    return;
  }
  const ms = (s.thinking_ms || 0) + (performance.now() - gomoku.seen);
  $("gomoku-elapsed").textContent = `Engine thinking… ${(ms / 1000).toFixed(1)} s of ${(s.time_ms / 1000).toFixed(1)} s`;
  if (!gomoku.timer) gomoku.timer = setInterval(drawThinking, 100);
}

/**
 * The engine's thinking in this game, live: depth, nodes, speed and (when
 * it searches its move, not the opening) its score and line.
 */
onThinking((r) => {
  const s = gomoku.state;
  if (r.for !== "game" || !s || r.game_id !== s.game_id) return;
  // The game ended while the engine thought (resigned): its think stopped.
  if (r.stopped) return clearThinking($("gomoku-live"));
  if (s.phase !== "thinking") return;
  showThinking($("gomoku-live"), r, { name: gname, line: r.stage === "play", whose: "the engine" });
});

/** A hint in play: the engine's best move for the person, marked on the board. */
$("gomoku-hint").onclick = async () => {
  const s = gomoku.state;
  if (!s) return;
  const asked = apiStones(stonesOf(s));
  if (asked.error) return showError("gomoku-error", asked.error);
  const count = s.stones.length, id = s.game_id;
  $("gomoku-hint").disabled = true;
  $("gomoku-hint-text").textContent = "Thinking of a hint…";
  try {
    const r = await askEngine({ size: s.size || 15, rule: s.rule || "freestyle", stones: asked.stones, lines: 1, ms: 1000 }, () => true);
    const now = gomoku.state;
    if (!now || now.game_id !== id || now.stones.length !== count) return;
    gomoku.hint = { move: r.lines[0].move, count, id };
    const best = r.lines[0];
    $("gomoku-hint-text").textContent =
      `Hint: ${gname(best.move)} (${best.decided ? scoreText(best) : `${rateText(best.win_rate)}, ${scoreText(best)}`} for you).`;
    drawGomoku(now);
  } catch (e) {
    $("gomoku-hint-text").textContent = "";
    showError("gomoku-error", e);
  } finally {
    if (gomoku.state) drawGomoku(gomoku.state);
  }
};

/** The play board's extras: the hint marked while it stands, the buttons. */
function drawPlayExtras(s) {
  const h = gomoku.hint;
  const stands = h && h.id === s.game_id && h.count === s.stones.length;
  if (!stands) { gomoku.hint = null; if (h) $("gomoku-hint-text").textContent = ""; }
  for (const b of $("gomoku-board").querySelectorAll("button.hint-point")) b.classList.remove("hint-point");
  if (stands) {
    const b = board.button(h.move);
    if (b) b.classList.add("hint-point");
  }
  $("gomoku-hint").disabled = !(s.phase === "play" && s.to_move === s.person) || $("gomoku-hint-text").textContent === "Thinking of a hint…";
  $("gomoku-to-analysis").disabled = !s.stones.length;
}
