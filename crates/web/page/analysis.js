
// ---------- Gomoku analysis board ----------
// Any position, set up by hand or loaded from a game record, analysed by the
// engine through POST /api/analyse; a review of a whole game as a chart.
const AN_COLS = "ABCDEFGHJKLMNOPQRSTU";
const an = {
  size: 15, rule: "freestyle",
  moves: [], // [x, y, "B"|"W"] in the order put down
  cursor: 0, // how many of them are shown
  running: false, gen: 0, result: null, hover: null,
  review: null, // {gen, evals: [black's win chance | null per position], ms}
  games: [], focus: [7, 7],
};
const anName = ([x, y]) => `${AN_COLS[x]}${an.size - y}`;
const anShown = () => an.moves.slice(0, an.cursor);
/** The winning line through the last stone under the board's rule (exactly five under exact five), or []. */
const anWinLine = (stones) => { const l = winningLine(stones); return an.rule === "exact" && l.length !== 5 ? [] : l; };
const WIN_SCORE = 1000000, DECIDED_SCORE = WIN_SCORE - 1000;

/** The chance of winning that a score (centi-stones for the side to move) means. */
const winChance = (score) => Math.abs(score) >= DECIDED_SCORE ? (score > 0 ? 1 : 0) : 1 / (1 + Math.exp(-score / 600));

/** A score as text: a forced win or loss in plies, or centi-stones with a sign. */
function scoreText(line) {
  if (line.decided && line.decided.win !== undefined) return `win in ${line.decided.win}`;
  if (line.decided && line.decided.loss !== undefined) return `loss in ${line.decided.loss}`;
  return (line.score > 0 ? "+" : "") + line.score;
}
const scoreShort = (line) => line.decided ? (line.decided.win !== undefined ? "W" + line.decided.win : "L" + line.decided.loss) : (line.score > 0 ? "+" : "") + line.score;

/**
 * The stones in the order the API wants them (black first, alternating),
 * or a one-line reason why the position cannot be asked about.
 */
function apiStones(stones) {
  const black = stones.filter((s) => s[2] === "B"), white = stones.filter((s) => s[2] === "W");
  if (black.length !== white.length && black.length !== white.length + 1) {
    return { error: `black has ${black.length} stones and white ${white.length}: black must have as many as white or one more` };
  }
  const out = [];
  black.forEach((b, i) => { out.push([b[0], b[1]]); if (white[i]) out.push([white[i][0], white[i][1]]); });
  return { stones: out, toMove: black.length === white.length ? "B" : "W" };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const isBusy = (e) => String(e.message || e).includes("one at a time");

/** One question to the engine; retried while the engine is busy with another. */
async function askEngine(body, still) {
  for (;;) {
    try {
      return await api("POST", "/api/analyse", body);
    } catch (e) {
      if (!isBusy(e) || !still()) throw e;
      await sleep(300);
    }
  }
}

// ----- the board -----
function starPoints(n) {
  if (n < 9) return new Set([`${n >> 1},${n >> 1}`]);
  const e = n >= 13 ? 3 : 2, c = n >> 1, far = n - 1 - e;
  const pts = [[e, e], [far, e], [e, far], [far, far]];
  if (n % 2) pts.push([c, c]);
  return new Set(pts.map(([x, y]) => x + "," + y));
}

function buildAnBoard() {
  const board = $("an-board"), n = an.size;
  board.replaceChildren();
  board.style.gridTemplateColumns = `0.7fr repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr) 0.7fr`;
  board.style.aspectRatio = `${n + 0.7} / ${n + 0.7}`;
  board.classList.toggle("numbers", $("an-numbers").checked);
  const stars = starPoints(n);
  for (let y = 0; y < n; y++) {
    board.append(el("span", { class: "coord row" }, String(n - y)));
    for (let x = 0; x < n; x++) {
      const b = el("button", { "data-x": x, "data-y": y });
      if (stars.has(x + "," + y)) b.classList.add("star");
      if (y === n - 1) b.classList.add("edge-b");
      if (x === n - 1) b.classList.add("edge-r");
      b.onclick = () => anClick(x, y);
      b.onmouseenter = () => { const k = candidateAt(x, y); if (k !== an.hover) { an.hover = k; drawAnalysis(); } };
      board.append(b);
    }
  }
  board.append(el("span", { class: "coord" }));
  for (let x = 0; x < n; x++) board.append(el("span", { class: "coord col" }, AN_COLS[x]));
  board.onmouseleave = () => { if (an.hover !== null) { an.hover = null; drawAnalysis(); } };
  an.focus = [n >> 1, n >> 1];
  boardKeys(board, () => an.size, () => an.focus, (p) => { an.focus = p; });
}

/**
 * Arrow keys on a board of buttons: the board is one tab stop; arrows move a
 * cursor over its points (Home and End to the row's ends), Enter or space
 * presses the point under it. Screen readers follow the cursor
 * (aria-activedescendant).
 */
function boardKeys(board, size, get, set) {
  board.setAttribute("tabindex", "0");
  board.setAttribute("role", "group");
  const button = ([x, y]) => board.querySelector(`button[data-x="${x}"][data-y="${y}"]`);
  const mark = () => {
    for (const b of board.querySelectorAll("button.cursor")) b.classList.remove("cursor");
    const b = button(get());
    if (b) {
      b.classList.add("cursor");
      if (!b.id) b.id = `${board.id}-${b.dataset.x}-${b.dataset.y}`;
      board.setAttribute("aria-activedescendant", b.id);
    }
    return b;
  };
  for (const b of board.querySelectorAll("button")) b.setAttribute("tabindex", "-1");
  mark();
  board.onkeydown = (e) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const n = size();
    let [x, y] = get();
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      const b = button([x, y]);
      if (b && !b.disabled) b.click();
      return;
    }
    if (steps[e.key]) { x += steps[e.key][0]; y += steps[e.key][1]; }
    else if (e.key === "Home") x = 0;
    else if (e.key === "End") x = n - 1;
    else return;
    e.preventDefault();
    e.stopPropagation();
    set([Math.max(0, Math.min(n - 1, x)), Math.max(0, Math.min(n - 1, y))]);
    mark();
  };
  board.refreshKeys = mark;
}

function candidateAt(x, y) {
  const r = an.result;
  if (!r) return null;
  const k = r.lines.findIndex((l) => l.move[0] === x && l.move[1] === y);
  return k >= 0 ? k : null;
}

/** The shown position changed: the analysis starts again from it. */
function positionChanged() {
  an.result = null;
  an.hover = null;
  showError("an-error", null);
  drawAnalysis();
  if (an.running) analyseLoop();
}

function anClick(x, y) {
  const shown = anShown();
  const i = shown.findIndex((s) => s[0] === x && s[1] === y);
  if (i >= 0) {
    shown.splice(i, 1);
  } else {
    const blacks = shown.filter((s) => s[2] === "B").length;
    const place = $("an-place").value;
    const colour = place === "black" ? "B" : place === "white" ? "W" : blacks === shown.length - blacks ? "B" : "W";
    shown.push([x, y, colour]);
  }
  an.moves = shown;
  an.cursor = shown.length;
  an.review = null;
  positionChanged();
}

function setCursor(n) {
  n = Math.max(0, Math.min(an.moves.length, n));
  if (n === an.cursor) return;
  an.cursor = n;
  positionChanged();
}

function drawAnalysis() {
  const board = $("an-board");
  if (!board.children.length) buildAnBoard();
  const shown = anShown();
  const at = new Map(shown.map((s, i) => [s[0] + "," + s[1], { c: s[2], i }]));
  const last = shown[shown.length - 1];
  const win = new Set(anWinLine(shown).map(([x, y]) => x + "," + y));
  const r = an.result;
  const cands = new Map();
  if (r) r.lines.forEach((l, k) => cands.set(l.move[0] + "," + l.move[1], { l, k }));
  // The hovered line's continuation, in the colours that would play it.
  const pv = new Map();
  if (r && an.hover !== null && r.lines[an.hover]) {
    const mover = r.to_move === "black" ? "B" : "W";
    r.lines[an.hover].pv.forEach(([x, y], i) => {
      const key = x + "," + y;
      if (!at.has(key) && !pv.has(key)) pv.set(key, { n: i + 1, c: i % 2 === 0 ? mover : (mover === "B" ? "W" : "B") });
    });
  }
  for (const b of board.querySelectorAll("button")) {
    const key = b.dataset.x + "," + b.dataset.y;
    const p = [Number(b.dataset.x), Number(b.dataset.y)];
    const st = at.get(key);
    b.replaceChildren();
    b.classList.toggle("last", !!last && last[0] === p[0] && last[1] === p[1]);
    b.classList.toggle("win", win.has(key));
    b.dataset.stone = st ? st.c : "";
    if (st) {
      b.append(el("span", { class: "stone " + (st.c === "B" ? "b" : "w"), "data-n": st.i + 1 }, String(st.i + 1)));
      b.setAttribute("aria-label", `${anName(p)}: ${st.c === "B" ? "black" : "white"} stone ${st.i + 1}`);
    } else if (pv.has(key)) {
      const q = pv.get(key);
      b.append(el("span", { class: "stone pv " + (q.c === "B" ? "b" : "w"), "data-pv": q.n }, String(q.n)));
      b.setAttribute("aria-label", `${anName(p)}: move ${q.n} of the line`);
    } else if (cands.has(key)) {
      const { l, k } = cands.get(key);
      b.append(el("span", { class: "cand" + (k === 0 ? " best" : ""), "data-rank": k + 1 }, scoreShort(l)));
      b.setAttribute("aria-label", `${anName(p)}: candidate ${k + 1}, ${scoreText(l)}`);
    } else {
      b.setAttribute("aria-label", anName(p));
    }
  }
  if (board.refreshKeys) board.refreshKeys();
  // Navigation.
  $("an-slider").max = an.moves.length;
  $("an-slider").value = an.cursor;
  $("an-at").textContent = `${an.cursor} of ${an.moves.length}`;
  $("an-first").disabled = $("an-prev").disabled = an.cursor === 0;
  $("an-last").disabled = $("an-next").disabled = an.cursor === an.moves.length;
  $("an-undo").disabled = an.cursor === 0;
  $("an-sgf").href = "data:application/x-go-sgf;charset=utf-8," + encodeURIComponent(anSgf());
  drawLines();
  drawMoves();
  drawReviewChart();
}

function drawLines() {
  const r = an.result;
  const list = $("an-result");
  list.replaceChildren();
  $("an-go").textContent = an.running ? "Stop" : "Analyse";
  $("an-go").setAttribute("aria-pressed", an.running);
  if (!r) {
    $("an-evalfill").style.width = "50%";
    $("an-evaltext").textContent = "";
    if (!an.running) $("an-status").textContent = "Not analysing.";
    return;
  }
  const best = r.lines[0];
  const black = r.to_move === "black" ? winChance(best.score) : 1 - winChance(best.score);
  $("an-evalfill").style.width = `${(black * 100).toFixed(1)}%`;
  $("an-evaltext").textContent = `${r.to_move} to move: ${scoreText(best)} · black ${(black * 100).toFixed(0)}%`;
  $("an-status").textContent = `${an.running ? "Analysing… " : ""}depth ${r.depth}, ${r.nodes.toLocaleString("en")} nodes in ${(r.ms / 1000).toFixed(1)} s`;
  r.lines.forEach((l, k) => {
    const li = el("li", { "data-k": k, tabindex: "0" });
    li.append(el("b", {}, `${anName(l.move)} ${scoreText(l)}`), document.createTextNode(` ${l.pv.slice(1).map(anName).join(" ")}`));
    li.classList.toggle("hover", an.hover === k);
    li.onmouseenter = li.onfocus = () => { an.hover = k; drawAnalysis(); };
    li.onmouseleave = li.onblur = () => { an.hover = null; drawAnalysis(); };
    li.onclick = () => anClick(l.move[0], l.move[1]);
    list.append(li);
  });
}

function drawMoves() {
  const list = $("an-moves");
  list.replaceChildren();
  const marks = reviewMarks();
  an.moves.forEach((m, i) => {
    const li = el("li", { "data-n": i + 1 });
    li.append(stoneDot(m[2]), document.createTextNode(` ${anName(m)}`));
    if (marks.has(i + 1)) {
      li.classList.add("blunder");
      li.append(el("small", { title: `lost ${(marks.get(i + 1) * 100).toFixed(0)}% of the winning chance` }, marks.get(i + 1) >= 0.3 ? " ??" : " ?"));
    }
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
    showError("an-error", asked.error);
    an.running = false;
    return drawAnalysis();
  }
  let ms = 250;
  while (still()) {
    $("an-status").textContent = `Analysing… (${(ms / 1000).toFixed(2)} s)`;
    try {
      const r = await askEngine({ size: an.size, rule: an.rule, stones: asked.stones, lines: Number($("an-lines").value), ms }, still);
      if (!still()) return;
      an.result = r;
      showError("an-error", null);
      // A proven result stays as it is: no more time changes it.
      if (r.lines.length && r.lines[0].decided) {
        an.running = false;
        drawAnalysis();
        $("an-status").textContent = `Proven: ${r.to_move} ${r.lines[0].decided.win !== undefined ? "wins" : "loses"} by force.`;
        return;
      }
      drawAnalysis();
      if (r.ms < 100) await sleep(200);
    } catch (e) {
      if (gen !== an.gen) return;
      an.running = false;
      showError("an-error", e);
      return drawAnalysis();
    }
    ms = Math.min(ms * 2, 5000);
  }
}

$("an-go").onclick = () => {
  an.running = !an.running;
  if (an.running) analyseLoop(); else an.gen++;
  drawAnalysis();
};
$("an-lines").onchange = () => { if (an.running) analyseLoop(); };
$("an-undo").onclick = () => { an.moves = anShown().slice(0, -1); an.cursor = an.moves.length; an.review = null; positionChanged(); };
$("an-clear").onclick = () => { an.moves = []; an.cursor = 0; an.review = null; positionChanged(); };
$("an-first").onclick = () => setCursor(0);
$("an-prev").onclick = () => setCursor(an.cursor - 1);
$("an-next").onclick = () => setCursor(an.cursor + 1);
$("an-last").onclick = () => setCursor(an.moves.length);
$("an-slider").oninput = () => setCursor(Number($("an-slider").value));
for (let n = 5; n <= 20; n++) $("an-size").append(el("option", n === 15 ? { selected: "" } : {}, String(n)));
$("an-size").onchange = () => {
  const n = Number($("an-size").value);
  if (an.moves.some(([x, y]) => x >= n || y >= n) && !confirm(`Stones lie outside a ${n}x${n} board: clear the board?`)) {
    $("an-size").value = an.size;
    return;
  }
  if (an.moves.some(([x, y]) => x >= n || y >= n)) { an.moves = []; an.cursor = 0; }
  an.size = n;
  an.review = null;
  buildAnBoard();
  positionChanged();
};
$("an-rule").onchange = () => { an.rule = $("an-rule").value; an.review = null; positionChanged(); };
$("an-numbers").checked = localStorage.getItem("inarow-an-numbers") === "1";
$("an-numbers").onchange = () => {
  localStorage.setItem("inarow-an-numbers", $("an-numbers").checked ? "1" : "0");
  $("an-board").classList.toggle("numbers", $("an-numbers").checked);
};
document.addEventListener("keydown", (e) => {
  if ($("analysis").hidden || $("tab-gomoku").hidden || e.target.closest("input, textarea, select, .goban")) return;
  if (e.key === "ArrowLeft") setCursor(an.cursor - 1);
  else if (e.key === "ArrowRight") setCursor(an.cursor + 1);
  else if (e.key === "Home") setCursor(0);
  else if (e.key === "End") setCursor(an.moves.length);
  else return;
  e.preventDefault();
});

// ----- game records: SGF (ours, c-gomoku-cli's, Piskvork's) and Piskvork's PSQ -----
const MAX_RECORD = 1 << 20;

/** The games of an SGF collection: [{size, moves, name}], main lines only. */
function parseSgf(text) {
  let i = 0;
  const fail = (why) => { throw new Error(`SGF: ${why} (character ${i + 1})`); };
  const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  const value = () => {
    let v = "";
    for (i++; i < text.length && text[i] !== "]"; i++) v += text[i] === "\\" ? text[++i] ?? "" : text[i];
    if (i >= text.length) fail("a value has no closing ]");
    i++;
    return v;
  };
  const node = () => {
    const props = [];
    for (;;) {
      ws();
      const m = /^[A-Za-z]+/.exec(text.slice(i, i + 16));
      if (!m) return props;
      i += m[0].length;
      ws();
      if (text[i] !== "[") fail(`property ${m[0]} has no value`);
      const values = [];
      while (text[i] === "[") { values.push(value()); ws(); }
      props.push([m[0].toUpperCase(), values]);
    }
  };
  const tree = (depth) => {
    if (depth > 64) fail("variations nested too deep");
    i++; // (
    const nodes = [];
    let variation = false;
    for (;;) {
      ws();
      if (i >= text.length) fail("the game has no closing )");
      const c = text[i];
      if (c === ";") { i++; nodes.push(node()); }
      else if (c === "(") { const sub = tree(depth + 1); if (!variation) nodes.push(...sub); variation = true; }
      else if (c === ")") { i++; return nodes; }
      else fail(`unexpected '${c}'`);
    }
  };
  const games = [];
  for (;;) {
    ws();
    if (i >= text.length) break;
    if (text[i] !== "(") fail("a game must start with (;");
    games.push(sgfGame(tree(0), games.length + 1));
  }
  if (!games.length) throw new Error("SGF: no game in the file");
  return games;
}

function sgfGame(nodes, number) {
  let size = 15;
  const info = {};
  for (const [k, v] of nodes[0] || []) info[k] = v[0];
  if (info.SZ !== undefined) {
    const [w, h] = info.SZ.split(":").map(Number);
    if (h !== undefined && h !== w) throw new Error(`game ${number}: the board is ${w}x${h}; only square boards are supported`);
    size = w;
  }
  if (!(size >= 5 && size <= 20)) throw new Error(`game ${number}: board size ${info.SZ} is not supported (5 to 20)`);
  const moves = [];
  const put = (v, c) => {
    if (v === "" || (v === "tt" && size <= 19)) return; // a pass
    const x = v.charCodeAt(0) - 97, y = v.charCodeAt(1) - 97;
    if (v.length !== 2 || !(x >= 0 && x < size && y >= 0 && y < size)) throw new Error(`game ${number}: point [${v}] is off the ${size}x${size} board`);
    if (moves.some((m) => m[0] === x && m[1] === y)) throw new Error(`game ${number}: point [${v}] holds two stones`);
    moves.push([x, y, c]);
  };
  for (const props of nodes) {
    for (const [k, values] of props) {
      if (k === "AB" || k === "AW") for (const v of values) put(v, k[1]);
      if (k === "B" || k === "W") put(values[0], k);
    }
  }
  const names = info.PB || info.PW ? `${info.PB || "?"} (black) – ${info.PW || "?"} (white)` : info.GN || `game ${number}`;
  return { size, moves, name: `${names}${info.RE ? ", " + info.RE : ""}` };
}

/** Piskvork's PSQ: a header `Piskvorky WxH, ...`, then `x,y,time` lines from 1, black first. */
function parsePsq(text) {
  const lines = text.split(/\r?\n/);
  const m = /^Piskvorky (\d+)x(\d+)/.exec(lines[0]);
  if (!m || m[1] !== m[2]) throw new Error("PSQ: the first line must read Piskvorky NxN (a square board)");
  const size = Number(m[1]);
  if (size < 5 || size > 20) throw new Error(`PSQ: board size ${size} is not supported (5 to 20)`);
  const moves = [];
  for (const line of lines.slice(1)) {
    const p = /^\s*(\d+),(\d+)(,\d+)?\s*$/.exec(line);
    if (!p) break;
    const x = Number(p[1]) - 1, y = Number(p[2]) - 1;
    if (!(x >= 0 && x < size && y >= 0 && y < size)) throw new Error(`PSQ: point ${p[1]},${p[2]} is off the ${size}x${size} board`);
    if (moves.some((q) => q[0] === x && q[1] === y)) throw new Error(`PSQ: point ${p[1]},${p[2]} holds two stones`);
    moves.push([x, y, moves.length % 2 ? "W" : "B"]);
  }
  return [{ size, moves, name: "Piskvork game" }];
}

function parseRecord(text) {
  if (text.length > MAX_RECORD) throw new Error(`the record is over ${MAX_RECORD >> 10} KiB`);
  const t = text.replace(/^\uFEFF/, "").trim();
  if (t.startsWith("(")) return parseSgf(t);
  if (t.startsWith("Piskvorky")) return parsePsq(t);
  throw new Error("not a game record: an SGF starts with (; and a PSQ with Piskvorky");
}

function loadRecord(text) {
  try {
    const games = parseRecord(text);
    an.games = games;
    const pick = $("an-games");
    pick.replaceChildren(...games.map((g, k) => el("option", { value: k }, `${k + 1}. ${g.name} (${g.moves.length} moves)`)));
    pick.hidden = games.length < 2;
    showGame(0);
  } catch (e) {
    showError("an-error", e);
  }
}

function showGame(k) {
  const g = an.games[k];
  an.size = g.size;
  $("an-size").value = g.size;
  an.moves = g.moves.slice();
  an.cursor = an.moves.length;
  an.review = null;
  buildAnBoard();
  positionChanged();
}
$("an-games").onchange = () => showGame(Number($("an-games").value));
$("an-load").onclick = () => loadRecord($("an-text").value);
$("an-file").onchange = async () => {
  const f = $("an-file").files[0];
  if (!f) return;
  if (f.size > MAX_RECORD) return showError("an-error", `${f.name} is over ${MAX_RECORD >> 10} KiB`);
  loadRecord(await f.text());
};

/** The moves on the board as SGF, in the judge's form. */
function anSgf() {
  const p = ([x, y]) => String.fromCharCode(97 + x, 97 + y);
  return `(;FF[4]GM[4]CA[UTF-8]SZ[${an.size}]AP[inarow serve analysis]${an.moves.map((m) => `;${m[2]}[${p(m)}]`).join("")})\n`;
}

// ----- review: the evaluation of every position of the game -----
/** Black's winning chance in the position after `n` moves, or null (not a position the engine answers). */
async function evaluate(n, ms, still) {
  const stones = an.moves.slice(0, n);
  const line = anWinLine(stones);
  if (line.length) return stones[stones.length - 1][2] === "B" ? 1 : 0;
  const asked = apiStones(stones);
  if (asked.error) return null;
  if (stones.length >= an.size * an.size) return 0.5;
  const r = await askEngine({ size: an.size, rule: an.rule, stones: asked.stones, lines: 1, ms }, still);
  const c = winChance(r.lines[0].score);
  return r.to_move === "black" ? c : 1 - c;
}

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
      review.evals[n] = await evaluate(n, ms, still);
    } catch (e) {
      if (!still()) break;
      showError("an-error", e);
      break;
    }
    drawReviewChart();
  }
  review.busy = false;
  drawReviewStatus();
  drawAnalysis();
};

function drawReviewStatus() {
  const r = an.review;
  $("an-review").textContent = r && r.busy ? "Stop review" : "Review the game";
  const done = r ? r.evals.filter((v) => v !== undefined).length : 0;
  $("an-review-status").textContent = !r ? "" : r.busy ? `Reviewing… ${done} of ${an.moves.length + 1} positions` :
    `Reviewed ${done} of ${an.moves.length + 1} positions.` + (reviewMarks().size ? " Moves that lost most are marked ? and ??." : "");
}

/** Move number → the winning chance its player lost, for the worst moves (at most 3, each losing 10% or more). */
function reviewMarks() {
  const r = an.review;
  const marks = new Map();
  if (!r) return marks;
  const losses = [];
  for (let n = 1; n < r.evals.length; n++) {
    const before = r.evals[n - 1], after = r.evals[n];
    if (before == null || after == null) continue;
    const black = an.moves[n - 1][2] === "B";
    const lost = black ? before - after : after - before;
    if (lost >= 0.1) losses.push([n, lost]);
  }
  losses.sort((a, b) => b[1] - a[1]);
  for (const [n, lost] of losses.slice(0, 3)) marks.set(n, lost);
  return marks;
}

function drawReviewChart() {
  const svg = $("an-chart");
  svg.replaceChildren();
  const r = an.review;
  const W = 300, H = 120, n = Math.max(1, an.moves.length);
  const X = (i) => 4 + (i / n) * (W - 8), Y = (v) => 4 + (1 - v) * (H - 8);
  const ns = "http://www.w3.org/2000/svg";
  const add = (tag, attrs, text) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  add("rect", { x: 0, y: 0, width: W, height: H, class: "chart-bg" });
  add("line", { x1: 0, x2: W, y1: Y(0.5), y2: Y(0.5), class: "chart-mid" });
  add("line", { x1: X(an.cursor), x2: X(an.cursor), y1: 0, y2: H, class: "chart-cursor" });
  if (!r) {
    add("text", { x: W / 2, y: H / 2 - 6, "text-anchor": "middle", class: "chart-note" }, "Review the game to chart black's winning chance");
    return;
  }
  add("text", { x: 6, y: 12, class: "chart-note" }, "black wins");
  add("text", { x: 6, y: H - 6, class: "chart-note" }, "white wins");
  let d = "";
  r.evals.forEach((v, i) => { if (v != null) d += `${d ? "L" : "M"}${X(i).toFixed(1)},${Y(v).toFixed(1)}`; });
  add("path", { d, class: "chart-line" });
  const marks = reviewMarks();
  r.evals.forEach((v, i) => {
    if (v == null) return;
    const c = add("circle", { cx: X(i), cy: Y(v), r: marks.has(i) ? 4 : 2, class: marks.has(i) ? "chart-blunder" : "chart-point", "data-move": i });
    c.append(document.createElementNS(ns, "title"));
    c.firstChild.textContent = `after move ${i}: black ${(v * 100).toFixed(0)}%` + (marks.has(i) ? ` (this move lost ${(marks.get(i) * 100).toFixed(0)}%)` : "");
    c.onclick = () => setCursor(i);
  });
}

// ----- modes, and the game against the engine brought here -----
function gomokuMode(analysis) {
  // The engine's time goes to the game again when the board is left.
  if (!analysis && an.running) { an.running = false; an.gen++; drawLines(); }
  $("gomoku-play").hidden = analysis;
  $("analysis").hidden = !analysis;
  $("mode-play").classList.toggle("active", !analysis);
  $("mode-analysis").classList.toggle("active", analysis);
  $("mode-play").setAttribute("aria-pressed", !analysis);
  $("mode-analysis").setAttribute("aria-pressed", analysis);
  if (analysis) drawAnalysis();
}
$("mode-play").onclick = () => gomokuMode(false);
$("mode-analysis").onclick = () => gomokuMode(true);

$("gomoku-to-analysis").onclick = () => {
  const s = gomoku.state;
  if (!s || !s.stones.length) return;
  an.size = s.size || 15;
  an.rule = s.rule || "freestyle";
  $("an-size").value = an.size;
  $("an-rule").value = an.rule;
  an.moves = s.stones.map((st) => [st.x, st.y, st.colour]);
  an.cursor = an.moves.length;
  an.review = null;
  buildAnBoard();
  gomokuMode(true);
  positionChanged();
};

/** A hint in play: the engine's best move for the person, marked on the board. */
$("gomoku-hint").onclick = async () => {
  const s = gomoku.state;
  if (!s) return;
  const asked = apiStones(s.stones.map((st) => [st.x, st.y, st.colour]));
  if (asked.error) return showError("gomoku-error", asked.error);
  const count = s.stones.length, id = s.game_id;
  $("gomoku-hint").disabled = true;
  $("gomoku-hint-text").textContent = "Thinking of a hint…";
  try {
    const r = await askEngine({ size: s.size || 15, rule: s.rule || "freestyle", stones: asked.stones, lines: 1, ms: 1000 }, () => true);
    const now = gomoku.state;
    if (!now || now.game_id !== id || now.stones.length !== count) return;
    gomoku.hint = { move: r.lines[0].move, count, id };
    $("gomoku-hint-text").textContent = `Hint: ${gname(r.lines[0].move)} (${scoreText(r.lines[0])} for you).`;
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
    const b = $("gomoku-board").querySelector(`button[data-x="${h.move[0]}"][data-y="${h.move[1]}"]`);
    if (b) b.classList.add("hint-point");
  }
  $("gomoku-hint").disabled = !(s.phase === "play" && s.to_move === s.person) || $("gomoku-hint-text").textContent === "Thinking of a hint…";
  $("gomoku-to-analysis").disabled = !s.stones.length;
}
