
// ---------- Gomoku ----------
const gomoku = { state: null, marked: [], seen: 0, timer: null, focus: [7, 7], hint: null };
const COLS = "ABCDEFGHJKLMNOPQRSTU";
/** The board side of the game on show (15 before the first game). */
const gsize = () => (gomoku.state && gomoku.state.size) || 15;
const gname = ([x, y]) => `${COLS[x]}${gsize() - y}`;
for (let n = 5; n <= 20; n++) $("gomoku-size").append(el("option", n === 15 ? { value: n, selected: "" } : { value: n }, `${n}x${n}`));
const IN_PROGRESS = ["opening", "answer", "colour", "thinking", "play"];

/** The five (or more) in a row through the last of `stones` ([x, y, colour] in order), or []. */
function winningLine(stones) {
  if (!stones.length) return [];
  const at = new Map(stones.map(([x, y, c]) => [x + "," + y, c]));
  const [lx, ly, lc] = stones[stones.length - 1];
  for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    const line = [[lx, ly]];
    for (const s of [1, -1]) {
      for (let x = lx + s * dx, y = ly + s * dy; at.get(x + "," + y) === lc; x += s * dx, y += s * dy) line.push([x, y]);
    }
    if (line.length >= 5) return line;
  }
  return [];
}

async function gomokuAction(path, body) {
  try {
    drawGomoku(await api("POST", path, body));
    showError("gomoku-error", null);
  } catch (e) {
    showError("gomoku-error", e);
  }
}
$("gomoku-new").onclick = () => {
  const s = gomoku.state;
  if (s && IN_PROGRESS.includes(s.phase) && !confirm("Abandon the game in progress and start a new one?")) return;
  gomoku.marked = [];
  gomokuAction("/api/gomoku/new", {
    opener: $("gomoku-opener").value, time_ms: Number($("gomoku-time").value),
    rule: $("gomoku-rule").value, size: Number($("gomoku-size").value),
  });
};
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
$("gomoku-numbers").checked = localStorage.getItem("inarow-gomoku-numbers") === "1";
$("gomoku-numbers").onchange = () => {
  localStorage.setItem("inarow-gomoku-numbers", $("gomoku-numbers").checked ? "1" : "0");
  $("gomoku-board").classList.toggle("numbers", $("gomoku-numbers").checked);
};

function gomokuClick(x, y) {
  const s = gomoku.state;
  if (s && s.phase === "answer") {
    const i = gomoku.marked.findIndex(([a, b]) => a === x && b === y);
    if (i >= 0) gomoku.marked.splice(i, 1); else gomoku.marked = [...gomoku.marked, [x, y]].slice(-2);
    return drawGomoku(s);
  }
  gomokuAction("/api/gomoku/move", { x, y });
}

/** The board's n x n points (buttons) with coordinates on the left and at the bottom. */
function buildGoban(board, n) {
  board.replaceChildren();
  board.dataset.size = n;
  board.style.gridTemplateColumns = `0.7fr repeat(${n}, 1fr)`;
  board.style.gridTemplateRows = `repeat(${n}, 1fr) 0.7fr`;
  board.style.aspectRatio = `${n + 0.7} / ${n + 0.7}`;
  board.classList.toggle("numbers", $("gomoku-numbers").checked);
  const stars = starPoints(n);
  for (let y = 0; y < n; y++) {
    board.append(el("span", { class: "coord row" }, String(n - y)));
    for (let x = 0; x < n; x++) {
      const b = el("button", { "data-x": x, "data-y": y, "aria-label": `${COLS[x]}${n - y}` });
      if (stars.has(x + "," + y)) b.classList.add("star");
      if (y === n - 1) b.classList.add("edge-b");
      if (x === n - 1) b.classList.add("edge-r");
      b.onclick = () => gomokuClick(x, y);
      board.append(b);
    }
  }
  board.append(el("span", { class: "coord" }));
  for (let x = 0; x < n; x++) board.append(el("span", { class: "coord col" }, COLS[x]));
  gomoku.focus = [n >> 1, n >> 1];
  boardKeys(board, () => n, () => gomoku.focus, (p) => { gomoku.focus = p; });
}

const stoneDot = (colour) => el("span", { class: "dot " + (colour === "B" ? "b" : "w") });

function drawGomoku(s) {
  if (s.phase !== "answer") gomoku.marked = [];
  gomoku.state = s;
  gomoku.seen = performance.now();
  const board = $("gomoku-board");
  const n = s.size || 15;
  if (Number(board.dataset.size) !== n) buildGoban(board, n);
  const at = new Map(s.stones.map((st, i) => [st.x + "," + st.y, { ...st, i }]));
  const over = s.phase === "over" && !s.resigned;
  const line = over ? winningLine(s.stones.map((st) => [st.x, st.y, st.colour])) : [];
  // Under exact five only a line of exactly five wins.
  const win = new Set((s.rule === "exact" && line.length !== 5 ? [] : line).map(([x, y]) => x + "," + y));
  $("gomoku-rule-text").textContent = s.rule === "exact" ? "exactly five in a row wins (six or more do not)" : "five or more in a row wins";
  $("gomoku-rule-text").dataset.rule = s.rule || "freestyle";
  // The principal variation after the move played, in the colours that would play it.
  const pv = new Map();
  const t = s.thought;
  if (t && s.phase !== "thinking" && s.phase !== "over") {
    const best = at.get(t.best[0] + "," + t.best[1]);
    const engine = best ? best.colour : "W";
    t.pv.slice(1).forEach(([x, y], i) => {
      if (!at.has(x + "," + y) && !pv.has(x + "," + y)) pv.set(x + "," + y, { n: i + 1, colour: i % 2 === 0 ? (engine === "B" ? "W" : "B") : engine });
    });
  }
  const open = s.phase === "opening" || s.phase === "answer" || (s.phase === "play" && s.to_move === s.person);
  for (const b of board.querySelectorAll("button")) {
    const key = b.dataset.x + "," + b.dataset.y;
    const st = at.get(key);
    b.replaceChildren();
    b.classList.toggle("last", !!st && st.i === s.stones.length - 1);
    b.classList.toggle("win", win.has(key));
    b.dataset.stone = st ? st.colour : "";
    if (st) {
      b.append(el("span", { class: "stone " + (st.colour === "B" ? "b" : "w"), "data-n": st.i + 1 }, String(st.i + 1)));
      b.setAttribute("aria-label", `${gname([st.x, st.y])}: ${st.colour === "B" ? "black" : "white"} stone ${st.i + 1}`);
    } else {
      b.setAttribute("aria-label", gname([Number(b.dataset.x), Number(b.dataset.y)]));
      const m = gomoku.marked.findIndex(([x, y]) => x + "," + y === key);
      if (m >= 0) b.append(el("span", { class: "stone marked" }, m ? "W" : "B"));
      else if (pv.has(key)) {
        const p = pv.get(key);
        b.append(el("span", { class: "stone pv " + (p.colour === "B" ? "b" : "w"), "data-pv": p.n }, String(p.n)));
      }
    }
    b.disabled = !open || !!st;
  }
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
    `Played ${gname(t.best)}. Evaluation ${t.decided ? (t.decided.win !== undefined ? "won by force" : "lost by force") :
      (t.score > 0 ? "+" : "") + t.score} for the engine (depth ${t.depth}, ${t.nodes.toLocaleString("en")} nodes). ` +
    `Principal variation: ${t.pv.map(gname).join(" ")}`;
  $("gomoku-thought").dataset.pv = t ? t.pv.length : 0;
  const pvList = $("gomoku-pv");
  pvList.replaceChildren();
  if (t) {
    const best = at.get(t.best[0] + "," + t.best[1]);
    const engine = best ? best.colour : "W";
    t.pv.forEach((p, i) => {
      const colour = i % 2 === 0 ? engine : (engine === "B" ? "W" : "B");
      const li = el("li", { "data-i": i });
      li.append(stoneDot(colour), document.createTextNode(` ${gname(p)}${i === 0 ? " (played)" : ""}`));
      pvList.append(li);
    });
  }
  const moves = $("gomoku-moves");
  moves.replaceChildren();
  s.stones.forEach((st, i) => {
    const li = el("li", { "data-n": i + 1 });
    li.append(stoneDot(st.colour), document.createTextNode(` ${gname([st.x, st.y])} `), el("small", {}, st.by));
    moves.append(li);
  });
  moves.scrollTop = moves.scrollHeight;
  drawPlayExtras(s);
}

/** The thinking indicator: shown while the engine thinks, with the time so far. */
function drawThinking() {
  const s = gomoku.state;
  const thinking = !!s && s.phase === "thinking";
  const box = $("gomoku-thinking");
  box.dataset.thinking = thinking;
  if (!thinking) {
    $("gomoku-elapsed").textContent = "";
    clearInterval(gomoku.timer);
    gomoku.timer = null;
    return;
  }
  const ms = (s.thinking_ms || 0) + (performance.now() - gomoku.seen);
  $("gomoku-elapsed").textContent = `Engine thinking… ${(ms / 1000).toFixed(1)} s of ${(s.time_ms / 1000).toFixed(1)} s`;
  if (!gomoku.timer) gomoku.timer = setInterval(drawThinking, 100);
}
