// ---------- Gomoku ----------
const gomoku = { state: null, marked: [] };
const COLS = "ABCDEFGHJKLMNOP";
const gname = ([x, y]) => `${COLS[x]}${15 - y}`;

async function gomokuAction(path, body) {
  try {
    drawGomoku(await api("POST", path, body));
    showError("gomoku-error", null);
  } catch (e) {
    showError("gomoku-error", e);
  }
}
$("gomoku-new").onclick = () => { gomoku.marked = []; gomokuAction("/api/gomoku/new",
  { opener: $("gomoku-opener").value, time_ms: Number($("gomoku-time").value) }); };
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

function drawGomoku(s) {
  if (!gomoku.state || gomoku.state.game_id !== s.game_id || s.phase !== "answer") {
    if (s.phase !== "answer") gomoku.marked = [];
  }
  gomoku.state = s;
  const board = $("gomoku-board");
  if (!board.children.length) {
    for (let y = 0; y < 15; y++) for (let x = 0; x < 15; x++) {
      const b = el("button", { "data-x": x, "data-y": y, "aria-label": gname([x, y]) });
      b.onclick = () => gomokuClick(x, y);
      board.append(b);
    }
  }
  const at = new Map(s.stones.map((st, i) => [st.x + "," + st.y, { ...st, i }]));
  const pv = new Map();
  if (s.thought && s.phase !== "thinking") s.thought.pv.slice(1).forEach(([x, y], i) => {
    if (!at.has(x + "," + y)) pv.set(x + "," + y, i + 1);
  });
  const open = s.phase === "opening" || s.phase === "answer" || (s.phase === "play" && s.to_move === s.person);
  for (const b of board.children) {
    const key = b.dataset.x + "," + b.dataset.y;
    const st = at.get(key);
    b.replaceChildren();
    b.className = st && st.i === s.stones.length - 1 ? "last" : "";
    b.dataset.stone = st ? st.colour : "";
    if (st) b.append(el("span", { class: "stone " + (st.colour === "B" ? "b" : "w") }));
    else if (gomoku.marked.some(([x, y]) => x + "," + y === key))
      b.append(el("span", { class: "stone pv", style: "border-color:#06c;color:#06c" }, gomoku.marked.findIndex(([x, y]) => x + "," + y === key) ? "W" : "B"));
    else if (pv.has(key)) b.append(el("span", { class: "stone pv" }, pv.get(key)));
    b.disabled = !open || !!st;
  }
  $("gomoku-note").textContent = s.note;
  $("gomoku-note").dataset.phase = s.phase;
  $("gomoku-answer").hidden = s.phase !== "answer";
  $("gomoku-colour").hidden = s.phase !== "colour";
  $("gomoku-marked").textContent = gomoku.marked.length ? gomoku.marked.map(gname).join(", ") : "none";
  const t = s.thought;
  $("gomoku-thought").textContent = !t ? "No move yet." :
    `Played ${gname(t.best)}. Evaluation ${Math.abs(t.score) >= 999000 ? (t.score > 0 ? "won by force" : "lost by force") :
      (t.score > 0 ? "+" : "") + t.score} for the engine (depth ${t.depth}, ${t.nodes} nodes). ` +
    `Principal variation: ${t.pv.map(gname).join(" ")}`;
  $("gomoku-thought").dataset.pv = t ? t.pv.length : 0;
}

