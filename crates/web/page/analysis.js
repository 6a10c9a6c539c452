// The gomoku analysis board: any position, set up by hand or loaded from a
// game record, analysed by the engine with more time until stopped (on
// again with each new position, its thinking shown live); a review of a
// whole game as a chart. The game against the engine can be brought here,
// and a position played on against the engine from here. Every line played
// is kept in a game tree (tree.js): a stone put off the line shown starts a
// variation, undo and redo step along the line.
import { $, api, count, el, showError, showTab } from "./common.js";
import { Goban, aheadStone, forbiddenLine, forbiddenMark, lineAhead, nearBoardOnPhones, pointName, stoneDot, winLine } from "./board.js";
import { apiStones, askEngine, candidateLabel, evaluate, keepAnalysing, rateText, scoreText, winChance, worstMoves } from "./analyse.js";
import { MAX_RECORD, isRecord, parseRecord, toSgf } from "./record.js";
import { copyPosition, readMoves } from "./text.js";
import { reviewChart } from "./charts.js";
import { gomoku, startFree, stonesOf } from "./gomoku.js";
import { clearThinking, clientId, onThinking, showThinking } from "./thinking.js";
import { positionLink, readLink } from "./link.js";
import { GameTree } from "./tree.js";

/** Every line played on the board, and the position shown in it. */
let tree = new GameTree();
const an = {
  size: 15, rule: "freestyle",
  /** The line shown ([x, y, "B"|"W"] in order): the moves on the board, then on as redo would play them. */
  get moves() { return tree.line(); },
  /** How many moves of the line are on the board. */
  get cursor() { return tree.depth; },
  // running: analysis is on (the button says Stop): it goes on with every
  // new position until stopped, even after a proven result or a refusal.
  running: false, gen: 0, result: null, hover: null,
  proven: null, // the answer that proved the shown position, which ends its analysis
  review: null, // {gen, busy, evals: [black's win chance | null per position], ms}
  games: [],
  forbidden: new Map(), // under renju with black to move: point key → why it is forbidden to black
  posGen: 0, // the question about the rule's forbidden points now standing
};
const board = new Goban("an-board", "an-numbers", "inarow-an-numbers", anClick);
const anName = (p) => pointName(p, an.size);
// On a phone the engine's part (analyse, its lines) comes under the board.
nearBoardOnPhones("an-engine", "an-near-board");

// ----- settings of the drawing, remembered as the other settings are -----
/** A select or checkbox `id` that keeps its value in the browser under `stored`; `changed()` after each change. */
function remembered(id, stored, changed) {
  const input = $(id), box = input.type === "checkbox";
  const saved = localStorage.getItem(stored);
  if (saved !== null) {
    if (box) input.checked = saved === "1";
    else if ([...input.options].some((o) => o.value === saved)) input.value = saved;
  }
  input.addEventListener("change", () => {
    localStorage.setItem(stored, box ? (input.checked ? "1" : "0") : input.value);
    changed();
  });
}
remembered("an-labels", "inarow-an-labels", () => drawAnalysis());
remembered("an-heat", "inarow-an-heat", () => { drawAnalysis(); heatOfShownAnswer(); });

/**
 * The heat map turned on over an answer that came without one, where no
 * further answer is coming (the position proven, or the analysis stopped):
 * the map alone is asked for the shown position, once.
 */
async function heatOfShownAnswer() {
  const r = an.result;
  if (!$("an-heat").checked || !r || r.heat || (an.running && !an.proven)) return;
  const asked = apiStones(anShown());
  if (asked.error) return;
  const gen = an.gen, shown = tree.node;
  try {
    const answer = await askEngine({ size: an.size, rule: an.rule, stones: asked.stones, lines: 1, ms: 50, heat: true },
      () => gen === an.gen && shown === tree.node);
    if (gen !== an.gen || shown !== tree.node || an.result !== r) return;
    r.heat = answer.heat;
    drawAnalysis();
  } catch (e) {
    if (gen === an.gen && shown === tree.node) showError("an-error", e);
  }
}

/**
 * The heat map's colours by point key: each point's win rate placed
 * between the lowest and the highest of the map, red above the middle
 * (the side to move's best point the deepest) and blue below it (its
 * worst the deepest), so that the wood shows through the middling ones.
 */
function heatColours(r) {
  const colours = new Map();
  if (!r || !r.heat || !$("an-heat").checked) return colours;
  const rates = r.heat.points.map((p) => p.win_rate);
  const low = Math.min(...rates), high = Math.max(...rates);
  for (const p of r.heat.points) {
    const t = high > low ? (p.win_rate - low) / (high - low) : 1;
    const strength = Math.abs(t - 0.5) * 2;
    const colour = t >= 0.5 ? `rgba(215, 30, 45, ${(0.12 + 0.68 * strength).toFixed(2)})` : `rgba(30, 80, 220, ${(0.12 + 0.5 * strength).toFixed(2)})`;
    colours.set(p.point[0] + "," + p.point[1], { colour, rate: p.win_rate, title: `${anName(p.point)}: ${rateText(p.win_rate)} for ${r.to_move} after a stone here` });
  }
  return colours;
}
const anShown = () => tree.shown();

function buildBoard() {
  board.build(an.size, (x, y) => {
    const k = candidateAt(x, y);
    if (k !== an.hover) { an.hover = k; drawAnalysis(); }
  }, () => {
    if (an.hover !== null) { an.hover = null; drawAnalysis(); }
  });
}

function candidateAt(x, y) {
  const r = an.result;
  if (!r) return null;
  const k = r.lines.findIndex((l) => l.move[0] === x && l.move[1] === y);
  return k >= 0 ? k : null;
}

/**
 * The shown position changed: the analysis starts again from it, and the
 * address follows it as a new entry of the page's history (none for a
 * position taken from the address: `fromAddress`).
 */
function positionChanged(fromAddress = false) {
  if (!fromAddress) followAddress("push");
  an.result = null;
  an.proven = null;
  an.hover = null;
  clearThinking($("an-live"));
  showError("an-error", null);
  drawAnalysis();
  refreshForbidden();
  if (an.running) analyseLoop();
}

/** Asks the server for black's forbidden points of the shown position (renju, black to move); the marks follow. */
async function refreshForbidden() {
  const gen = ++an.posGen;
  const had = an.forbidden.size;
  an.forbidden = new Map();
  if (had) drawAnalysis();
  if (an.rule !== "renju") return;
  const asked = apiStones(anShown());
  if (asked.error || asked.toMove !== "B") return;
  try {
    const r = await api("POST", "/api/position", { size: an.size, rule: an.rule, stones: asked.stones });
    if (gen !== an.posGen) return;
    an.forbidden = new Map(r.forbidden.map((f) => [f.point[0] + "," + f.point[1], f.why]));
    drawAnalysis();
  } catch (e) {
    if (gen === an.posGen) showError("an-error", e);
  }
}

function anClick(x, y) {
  const shown = anShown();
  const i = shown.findIndex((s) => s[0] === x && s[1] === y);
  if (i >= 0) return step(() => tree.takeAway(i));
  const blacks = shown.filter((s) => s[2] === "B").length;
  const place = $("an-place").value;
  const colour = place === "black" ? "B" : place === "white" ? "W" : blacks === shown.length - blacks ? "B" : "W";
  const why = colour === "B" && an.forbidden.get(x + "," + y);
  if (why) return showError("an-error", forbiddenLine(why, anName([x, y])));
  step(() => tree.play([x, y, colour]));
}

/**
 * Changes the tree or the position shown in it by `change()`; a new
 * position is analysed, and a new line drops the review of the old one.
 */
function step(change) {
  const shown = tree.node, line = tree.lineEnd();
  change();
  const newLine = tree.lineEnd() !== line;
  if (newLine) an.review = null;
  if (tree.node !== shown) positionChanged();
  else if (newLine) drawAnalysis();
}

/** Shows the line's position after `n` moves. */
function setCursor(n) { step(() => tree.goTo(n)); }

/** A new tree (a game loaded, the board cleared): `moves` its one line, shown at its end, or a tree read from a record. */
function newTree(moves, plain) {
  tree = plain ? new GameTree(plain) : GameTree.ofLine(moves);
  if (plain) tree.goTo(Infinity);
  an.review = null;
}

function drawAnalysis() {
  if (!board.size) buildBoard();
  const shown = anShown();
  const r = an.result;
  const cands = new Map();
  if (r) r.lines.forEach((l, k) => cands.set(l.move[0] + "," + l.move[1], { l, k }));
  // The hovered line's continuation, in the colours that would play it.
  const line = r && an.hover !== null && r.lines[an.hover];
  const taken = new Set(shown.map(([x, y]) => x + "," + y));
  const pv = line ? lineAhead(line.pv, r.to_move === "black" ? "B" : "W", taken) : new Map();
  const heat = heatColours(r);
  const labels = $("an-labels").value;
  const next = nextMarks();
  board.draw(shown, {
    win: winLine(shown, an.rule),
    heat: (key) => heat.get(key) || null,
    mark: (key) => {
      if (pv.has(key)) {
        const q = pv.get(key);
        return { child: aheadStone(q), label: `move ${q.n} of the line` };
      }
      if (an.forbidden.has(key)) return forbiddenMark(an.forbidden.get(key));
      if (next.has(key)) return next.get(key);
      if (!cands.has(key)) return null;
      const { l, k } = cands.get(key);
      const about = `${rateText(l.win_rate)}, ${scoreText(l)}`;
      return {
        // The labels setting picks what it shows, whatever the point's size; the rest is in its title and the list.
        child: el("span", { class: "cand" + (k === 0 ? " best" : ""), "data-rank": k + 1, "data-label": labels, title: about }, candidateLabel(l, k, labels)),
        label: `candidate ${k + 1}, ${about}`,
      };
    },
  });
  drawNavigation();
  drawLines();
  drawMoves();
  drawReview();
  // A review of another game, or of none, says nothing.
  drawReviewStatus();
}

function drawLines() {
  const r = an.result;
  const list = $("an-result");
  list.replaceChildren();
  $("an-go").textContent = an.running ? "Stop" : "Analyse";
  $("an-go").setAttribute("aria-pressed", an.running);
  if (!an.running) clearThinking($("an-live"));
  if (!r) {
    $("an-evalfill").style.width = "50%";
    $("an-evaltext").textContent = "";
    if (!an.running) $("an-status").textContent = "Not analysing.";
    return;
  }
  const best = r.lines[0];
  const black = r.to_move === "black" ? winChance(best) : 1 - winChance(best);
  $("an-evalfill").style.width = `${(black * 100).toFixed(1)}%`;
  $("an-evaltext").textContent = `${r.to_move} to move: ${scoreText(best)} · black ${(black * 100).toFixed(0)}%`;
  const p = an.proven;
  $("an-status").textContent = p ? `Proven: ${p.to_move} ${p.lines[0].decided.win !== undefined ? "wins" : "loses"} by force.` :
    `${an.running ? "Analysing… " : ""}depth ${r.depth}, ${r.nodes.toLocaleString("en")} nodes in ${(r.ms / 1000).toFixed(1)} s`;
  r.lines.forEach((l, k) => {
    const li = el("li", { "data-k": k, tabindex: "0" });
    // Every line's win rate for the side to move, then its move, score and continuation.
    li.append(el("span", { class: "rate", "data-rate": l.win_rate, title: `${r.to_move}'s win rate after ${anName(l.move)}` }, rateText(l.win_rate)),
      el("b", {}, `${anName(l.move)} ${scoreText(l)}`), document.createTextNode(` ${l.pv.slice(1).map(anName).join(" ")}`));
    li.classList.toggle("hover", an.hover === k);
    li.onmouseenter = li.onfocus = () => { an.hover = k; drawAnalysis(); };
    li.onmouseleave = li.onblur = () => { an.hover = null; drawAnalysis(); };
    li.onclick = () => anClick(l.move[0], l.move[1]);
    list.append(li);
  });
}

// ----- the game tree: moving along the line, its variations -----
/** The buttons and slider that step along the line, where the line leaves the main line, and the SGF of the whole tree. */
function drawNavigation() {
  const [at, end] = [an.cursor, an.moves.length];
  $("an-slider").max = end;
  $("an-slider").value = at;
  $("an-at").textContent = `${at} of ${end}`;
  $("an-first").disabled = $("an-prev").disabled = $("an-undo").disabled = $("an-delete").disabled = at === 0;
  $("an-last").disabled = $("an-next").disabled = $("an-redo").disabled = at === end;
  const branch = tree.branch();
  $("an-variation").textContent = branch ? `A variation from move ${branch}.` : "The main line.";
  $("an-mainline").disabled = !branch;
  $("an-sgf").href = "data:application/x-go-sgf;charset=utf-8," + encodeURIComponent(toSgf(an.size, tree.root, an.rule));
}

/** Variation letters, A the main line's: where there is more than one next move, each is marked on the board. */
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The next moves of the variations at the shown position, by point, as marks on the board (none where there is one way on). */
function nextMarks() {
  const next = tree.next(), marks = new Map();
  if (next.length < 2) return marks;
  for (const { move, k, on } of next) {
    const letter = LETTERS[k] || "+";
    marks.set(move[0] + "," + move[1], {
      child: el("span", { class: "stone next " + (move[2] === "B" ? "b" : "w") + (on ? " on" : ""), "data-variation": letter }, letter),
      label: `next move of variation ${letter}${k === 0 ? ", the main line" : ""}${on ? ", the one redo plays" : ""}`,
    });
  }
  return marks;
}

/** The line as a list: each move, the variations played in its place beside it (a click takes one), the moves off the main line set apart. */
function drawMoves() {
  const list = $("an-moves");
  list.replaceChildren();
  const marks = reviewMarks();
  const branch = tree.branch(), alternatives = tree.lineAlternatives();
  an.moves.forEach((m, i) => {
    const li = el("li", { "data-n": i + 1 });
    li.append(stoneDot(m[2]), document.createTextNode(` ${anName(m)}`));
    if (marks.has(i + 1)) {
      li.classList.add("blunder");
      li.append(el("small", { title: `lost ${(marks.get(i + 1) * 100).toFixed(0)}% of the winning chance` }, marks.get(i + 1) >= 0.3 ? " ??" : " ?"));
    }
    const alts = alternatives[i];
    if (alts.length > 1) {
      li.classList.add("branch");
      const span = el("span", { class: "alts" });
      for (const { move, k, on } of alts) {
        if (on) continue;
        const letter = LETTERS[k] || "+";
        const b = el("button", { class: "alt" + (k === 0 ? " main" : ""), "data-k": k, title: `variation ${letter}${k === 0 ? " (the main line)" : ""}: ${anName(move)} as move ${i + 1}` },
          `${letter} ${anName(move)}`);
        b.onclick = (e) => { e.stopPropagation(); step(() => tree.choose(i + 1, k)); };
        span.append(b);
      }
      li.append(span);
    }
    li.classList.toggle("variation", branch > 0 && i + 1 >= branch);
    li.classList.toggle("current", i + 1 === an.cursor);
    li.onclick = () => setCursor(i + 1);
    list.append(li);
  });
}

// ----- analysis, refreshed with more time until stopped -----
async function analyseLoop() {
  const gen = ++an.gen;
  const still = () => an.running && gen === an.gen;
  const asked = apiStones(anShown());
  if (asked.error) {
    // Analysis stays on: the next position may be one the engine takes.
    showError("an-error", asked.error);
    return drawAnalysis();
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
        drawAnalysis();
      },
    });
    if (!proven || !still()) return;
    // Nothing more to find here; the next position is analysed again.
    an.proven = proven;
    clearThinking($("an-live"));
    drawAnalysis();
  } catch (e) {
    if (gen !== an.gen) return;
    showError("an-error", e);
    clearThinking($("an-live"));
    drawAnalysis();
  }
}

/** This page's analysis thinking, live, while the question it belongs to stands. */
onThinking((r) => {
  if (r.for !== "analysis" || !an.running || r.tag !== an.gen || an.proven) return;
  const whose = apiStones(anShown()).toMove === "W" ? "white" : "black";
  showThinking($("an-live"), r, { name: anName, whose });
});

$("an-go").onclick = () => {
  an.running = !an.running;
  // One analysis at a time for this page: a review in progress stops.
  if (an.running && an.review && an.review.busy) { an.review.busy = false; an.review.gen = -1; drawReviewStatus(); }
  if (an.running) { an.proven = null; analyseLoop(); } else an.gen++;
  drawAnalysis();
};
$("an-lines").onchange = () => { if (an.running) { an.proven = null; analyseLoop(); } };
$("an-undo").onclick = () => step(() => tree.back());
$("an-redo").onclick = () => step(() => tree.forward());
$("an-delete").onclick = () => step(() => tree.remove());
$("an-mainline").onclick = () => step(() => tree.toMainLine());
$("an-clear").onclick = () => {
  newTree([]);
  // A clear board is a fresh start: nothing of the game loaded before stays.
  an.games = [];
  $("an-games").replaceChildren();
  $("an-games").hidden = true;
  $("an-file").value = "";
  $("an-text").value = "";
  $("an-copied").textContent = "";
  showError("an-load-error", null);
  positionChanged();
};
$("an-first").onclick = () => setCursor(0);
$("an-prev").onclick = () => setCursor(an.cursor - 1);
$("an-next").onclick = () => setCursor(an.cursor + 1);
$("an-last").onclick = () => setCursor(an.moves.length);
$("an-slider").oninput = () => setCursor(Number($("an-slider").value));
for (let n = 5; n <= 20; n++) $("an-size").append(el("option", n === 15 ? { selected: "" } : {}, String(n)));
$("an-size").onchange = () => {
  const n = Number($("an-size").value);
  const outside = tree.allMoves().some(([x, y]) => x >= n || y >= n);
  if (outside && !confirm(`Stones lie outside a ${n}x${n} board: clear the board?`)) {
    $("an-size").value = an.size;
    return;
  }
  if (outside) newTree([]);
  an.size = n;
  an.review = null;
  buildBoard();
  positionChanged();
};
$("an-rule").onchange = () => { an.rule = $("an-rule").value; an.review = null; positionChanged(); };
// The keys of game-record viewers: left and right (or Ctrl+Z and Ctrl+Y,
// Ctrl+Shift+Z) undo and redo along the line, Home and End its ends, up
// and down the variation before or after the one shown at this move.
document.addEventListener("keydown", (e) => {
  if ($("analysis").hidden || $("tab-gomoku").hidden || e.target.closest("input, textarea, select, .goban")) return;
  const ctrl = e.ctrlKey || e.metaKey, key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (e.altKey || (ctrl && !["z", "y"].includes(key))) return;
  if (key === "ArrowLeft" || (ctrl && key === "z" && !e.shiftKey)) step(() => tree.back());
  else if (key === "ArrowRight" || (ctrl && (key === "y" || key === "z"))) step(() => tree.forward());
  else if (key === "Home") setCursor(0);
  else if (key === "End") setCursor(Infinity);
  // Where the move shown has no variation, up and down scroll the page as ever.
  else if ((key === "ArrowUp" || key === "ArrowDown") && tree.alternatives(tree.depth).length > 1) step(() => tree.sideStep(key === "ArrowUp" ? -1 : 1));
  else return;
  e.preventDefault();
});

// ----- the address: a link for every position (link.js) -----
/** The link of the shown position: its moves in turn from black, or its stones by colour where they are not a game in turn. */
function shownLink() {
  const shown = anShown();
  const asked = apiStones(shown);
  if (!asked.error) return positionLink({ rule: an.rule, size: an.size, moves: asked.stones.map(anName) });
  const of = (c) => shown.filter((s) => s[2] === c).map(anName);
  return positionLink({ rule: an.rule, size: an.size, black: of("B"), white: of("W") });
}

/** The address says what is shown: `how` is "push" (a new history entry) or "replace". */
function followAddress(how) {
  const link = shownLink();
  if (link !== location.hash) history[how === "push" ? "pushState" : "replaceState"](null, "", link);
}

/**
 * The address shows the analysis board's position while the board is in
 * view, and nothing of it elsewhere; called when the tab or mode changes.
 */
export function addressFollowsView() {
  if (!$("tab-gomoku").hidden && !$("analysis").hidden) followAddress("replace");
  else if (readLink(location.hash)) history.replaceState(null, "", location.pathname + location.search);
}

let linkGen = 0;
/**
 * Shows the position the address names (a link opened, pasted, or reached
 * by Back and Forward) on the analysis board. A position whose moves begin
 * the board's moves is stepped to, keeping the moves after it. A bad link
 * is one line on the board, which is left empty (under the link's rule
 * and size where those are good); the address is left as it is.
 */
async function openLink() {
  const link = readLink(location.hash);
  if (!link) return;
  const gen = ++linkGen;
  showTab("gomoku");
  if ($("analysis").hidden) gomokuMode(true, true);
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
  if (gen !== linkGen) return;
  const rule = link.rule || an.rule, size = link.size || an.size;
  const shown = tree.node, line = tree.lineEnd();
  // A position in the tree is stepped to, keeping every line; another is a new tree.
  const kept = rule === an.rule && size === an.size && !error && tree.show(moves);
  if (!kept) newTree(moves);
  else if (tree.lineEnd() !== line) an.review = null;
  if (!kept || tree.node !== shown) {
    an.rule = rule;
    $("an-rule").value = rule;
    if (size !== an.size || !board.size) { an.size = size; $("an-size").value = size; buildBoard(); }
    positionChanged(true);
  } else if (tree.lineEnd() !== line) drawAnalysis();
  if (error) showError("an-error", error);
  // A good link is written as the page writes it (h8 for H8).
  else followAddress("replace");
}
window.addEventListener("popstate", openLink);
window.addEventListener("hashchange", openLink);

// ----- game records, and moves written as text -----
/** Loads a game record, or moves written as text (h8 i9 j10) onto the board as it is; a bad one is one line beside the box. */
async function loadRecord(text) {
  try {
    const games = isRecord(text) ? parseRecord(text) : [await pastedMoves(text)];
    showError("an-load-error", null);
    an.games = games;
    const pick = $("an-games");
    pick.replaceChildren(...games.map((g, k) => el("option", { value: k }, `${k + 1}. ${g.name} (${count(g.moves.length, "move")})`)));
    pick.hidden = games.length < 2;
    showGame(0);
  } catch (e) {
    showError("an-load-error", e);
  }
}

/** Moves written as text, read by the server on the board's size, as a game of black and white in turn under the rule chosen. */
async function pastedMoves(text) {
  const moves = await readMoves(text, an.size);
  return { size: an.size, moves: moves.map(([x, y], i) => [x, y, i % 2 ? "W" : "B"]), name: "pasted moves" };
}

function showGame(k) {
  const g = an.games[k];
  an.size = g.size;
  $("an-size").value = g.size;
  // A record naming its rule is shown under it; one naming none, under the rule chosen.
  if (g.rule) { an.rule = g.rule; $("an-rule").value = g.rule; }
  // An SGF's variations come with it, the main line shown at its end.
  newTree(g.moves, g.tree);
  buildBoard();
  positionChanged();
}
$("an-games").onchange = () => showGame(Number($("an-games").value));
$("an-copy").onclick = () => copyPosition(anShown(), an.size, "an-copied", "an-load-error");
$("an-load").onclick = () => loadRecord($("an-text").value);
$("an-file").onchange = async () => {
  const f = $("an-file").files[0];
  if (!f) return;
  if (f.size > MAX_RECORD) return showError("an-load-error", `${f.name} is over ${MAX_RECORD >> 10} KiB`);
  loadRecord(await f.text());
};

// ----- review: the evaluation of every position of the game -----
$("an-review").onclick = async () => {
  if (an.review && an.review.busy) { an.review.busy = false; an.review.gen = -1; return drawReviewStatus(); }
  an.running = false;
  an.gen++;
  const gen = ++an.gen;
  const ms = Number($("an-review-ms").value);
  const review = an.review = { gen, busy: true, evals: [], ms };
  const still = () => an.review === review && review.busy;
  drawAnalysis();
  for (let n = 0; n <= an.moves.length && still(); n++) {
    drawReviewStatus();
    try {
      review.evals[n] = await evaluate(an.moves, n, { size: an.size, rule: an.rule, client: clientId() || undefined }, ms, still);
    } catch (e) {
      if (!still()) break;
      showError("an-error", e);
      break;
    }
    drawReview();
  }
  review.busy = false;
  drawReviewStatus();
  drawAnalysis();
};

/** Move number → the winning chance its player lost, for the worst moves of the review. */
const reviewMarks = () => (an.review ? worstMoves(an.review.evals, an.moves) : new Map());

function drawReviewStatus() {
  const r = an.review;
  $("an-review").textContent = r && r.busy ? "Stop review" : "Review the game";
  const done = r ? r.evals.filter((v) => v !== undefined).length : 0;
  $("an-review-status").textContent = !r ? "" : r.busy ? `Reviewing… ${done} of ${an.moves.length + 1} positions` :
    `Reviewed ${done} of ${an.moves.length + 1} positions.` + (reviewMarks().size ? " Moves that lost most are marked ? and ??." : "");
}

function drawReview() {
  reviewChart($("an-chart"), {
    evals: an.review && an.review.evals, marks: reviewMarks(), moves: an.moves.length, cursor: an.cursor, pick: setCursor,
  });
}

// ----- modes, and the game against the engine brought here -----
/** Shows the game (`analysis` false) or the analysis board; `fromAddress` when the address asked for it. */
function gomokuMode(analysis, fromAddress = false) {
  // The engine's time goes to the game again when the board is left.
  if (!analysis && an.running) { an.running = false; an.gen++; drawLines(); }
  $("gomoku-play").hidden = analysis;
  $("analysis").hidden = !analysis;
  $("mode-play").classList.toggle("active", !analysis);
  $("mode-analysis").classList.toggle("active", analysis);
  $("mode-play").setAttribute("aria-pressed", !analysis);
  $("mode-analysis").setAttribute("aria-pressed", analysis);
  if (analysis) drawAnalysis();
  if (!fromAddress) addressFollowsView();
}
$("mode-play").onclick = () => gomokuMode(false);
$("mode-analysis").onclick = () => gomokuMode(true);

/** Plays the engine from the shown position, as the colour chosen. */
$("an-play").onclick = async () => {
  const asked = apiStones(anShown());
  if (asked.error) return showError("an-error", asked.error);
  const pick = $("an-play-colour").value;
  const colour = pick === "to-move" ? (asked.toMove === "B" ? "black" : "white") : pick;
  gomokuMode(false);
  if (!await startFree({ stones: asked.stones, size: an.size, rule: an.rule, colour })) gomokuMode(true);
};

$("gomoku-to-analysis").onclick = () => {
  const s = gomoku.state;
  if (!s || !s.stones.length) return;
  an.size = s.size || 15;
  an.rule = s.rule || "freestyle";
  $("an-size").value = an.size;
  $("an-rule").value = an.rule;
  newTree(stonesOf(s));
  buildBoard();
  gomokuMode(true);
  positionChanged();
};

// A link opened: the position it names.
openLink();
