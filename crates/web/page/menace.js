// ---------- MENACE ----------
const menace = { state: null, busy: false };

function showError(id, err) { $(id).textContent = err ? String(err.message || err) : ""; }

async function menaceAction(method, path, body) {
  if (menace.busy) return;
  menace.busy = true;
  try {
    drawMenace(await api(method, path, body));
    showError("menace-error", null);
  } catch (e) {
    showError("menace-error", e);
  } finally {
    menace.busy = false;
  }
}

$("menace-new").onclick = () => menaceAction("POST", "/api/menace/new");
$("menace-train").onclick = () => menaceAction("POST", "/api/menace/train", {
  opponent: $("menace-opponent").value, speed: Number($("menace-speed").value) });
$("menace-stop").onclick = () => menaceAction("POST", "/api/menace/stop");

function drawMenace(s) {
  menace.state = s;
  const g = s.game;
  const board = $("menace-board");
  board.replaceChildren();
  const cells = g ? g.board : ".........";
  const last = g && g.steps.length ? g.steps[g.steps.length - 1].square : -1;
  const canPlay = g && g.person && !g.over && !s.training;
  for (let i = 0; i < 9; i++) {
    const c = cells[i] === "." ? "" : cells[i];
    const b = el("button", { "data-square": i, "aria-label": "square " + i }, c);
    if (i === last) b.classList.add("last");
    b.disabled = !canPlay || c !== "";
    b.onclick = () => menaceAction("POST", "/api/menace/move", { square: i });
    board.append(b);
  }
  const status = $("menace-status");
  status.dataset.outcome = g && g.outcome ? g.outcome : "";
  status.textContent = !g ? "No game yet." : g.over ? g.result : (g.person ? "Your move (O)." : "");
  const steps = $("menace-steps");
  steps.replaceChildren();
  for (const st of (g ? g.steps : [])) {
    const text = st.player === "X"
      ? (st.matchbox !== null ? `X on ${st.square}: box ${st.matchbox + 1}, bead ${st.bead}` : `X on ${st.square} (forced)`)
      : `O on ${st.square}`;
    const li = el("li", { "data-player": st.player }, text);
    if (st.matchbox !== null) { li.dataset.box = st.matchbox + 1; li.dataset.bead = st.bead; }
    steps.append(li);
  }
  $("menace-train").disabled = false;
  $("menace-train").textContent = s.training ? "Apply" : "Start training";
  $("menace-stop").disabled = !s.training;
  $("menace-new").disabled = s.training;
  if (document.activeElement !== $("menace-opponent")) $("menace-opponent").value = s.opponent;
  const t = s.tally;
  $("menace-info").textContent = `Preset ${s.preset}, seed ${s.seed}: ${s.games} games learned, ${s.beads} beads. ` +
    `Since the server started: ${t.wins} won, ${t.draws} drawn, ${t.losses} lost` + (s.training ? ` (training vs ${s.opponent})` : "");
  $("menace-info").dataset.games = s.games;
  drawChart(s.chart);
  drawBoxes(s);
}

function drawChart(chart) {
  const svg = $("menace-chart"), W = 420, H = 180, L = 30, B = 20;
  svg.replaceChildren();
  const NS = "http://www.w3.org/2000/svg";
  const mk = (tag, attrs, text) => {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
  };
  for (const p of [0, 50, 100]) {
    const y = H - B - (H - B - 10) * p / 100;
    mk("line", { x1: L, x2: W, y1: y, y2: y, stroke: "#ddd" });
    mk("text", { x: 2, y: y + 3 }, p + "%");
  }
  const n = chart.blocks.length;
  mk("text", { x: L, y: H - 4 }, n ? `games in blocks of ${chart.block} (${n} blocks)` : "no games yet");
  const series = [["wins", "#2a9d3a"], ["draws", "#888"], ["losses", "#c33"]];
  for (const [key, colour] of series) {
    const pts = chart.blocks.map((b, i) => {
      const total = b.wins + b.draws + b.losses;
      const x = L + (n === 1 ? 0 : (W - L - 10) * i / (n - 1));
      const y = H - B - (H - B - 10) * (total ? b[key] / total : 0);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    });
    if (n) mk("polyline", { points: pts.join(" "), fill: "none", stroke: colour, "stroke-width": 2, "data-series": key });
  }
  let x = W - 150;
  for (const [key, colour] of series) { mk("text", { x, y: 12, fill: colour }, key); x += 45; }
}

function drawBoxes(s) {
  const used = new Map();
  const steps = s.game ? s.game.steps.filter((st) => st.matchbox !== null) : [];
  steps.forEach((st, i) => used.set(st.matchbox, { bead: st.bead, current: i === steps.length - 1 }));
  const root = $("menace-boxes");
  let groups = root.querySelectorAll(".group");
  if (groups.length === 0) {
    for (let m = 1; m <= 4; m++) {
      const g = el("div", { class: "group", "data-move": m });
      g.append(el("h3", {}, `Before MENACE's move ${m}`), el("div", { class: "boxes" }));
      root.append(g);
    }
    groups = root.querySelectorAll(".group");
    for (const b of s.boxes) {
      const box = el("div", { class: "mbox", "data-box": b.number });
      for (let i = 0; i < 9; i++) box.append(el("span"));
      groups[b.move - 1].querySelector(".boxes").append(box);
    }
  }
  const all = root.querySelectorAll(".mbox");
  s.boxes.forEach((b, idx) => {
    const box = all[idx];
    const beadsText = b.beads.join(",");
    const u = used.get(idx);
    box.classList.toggle("used", !!u);
    box.classList.toggle("current", !!(u && u.current));
    if (box.dataset.beads === beadsText && box.dataset.drawn === String(u ? u.bead : "")) return;
    box.dataset.beads = beadsText;
    box.dataset.drawn = u ? u.bead : "";
    const total = b.beads.reduce((a, c) => a + c, 0);
    box.title = `box ${b.number} (move ${b.move}): ${total} beads`;
    b.image.split("").forEach((c, i) => {
      const span = box.children[i];
      span.className = c === "X" ? "x" : c === "O" ? "o" : b.beads[i] ? "" : "nb";
      span.textContent = c === "." ? (b.beads[i] || "") : c;
      if (u && u.bead === i) span.classList.add("drawn");
    });
  });
}

