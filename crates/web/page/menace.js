// MENACE: the game on show, training, the rules, the learning curve and the
// matchboxes.
import { $, api, count, el, fmt, showError } from "./common.js";
import { learningCurve } from "./charts.js";

const menace = { state: null, queue: Promise.resolve(), rulesEdited: false };

// Requests go one after another, in the order they were made. A refusal
// shows in the error line `errorId`: the game's under New game, the
// rules' beside their fields (a screen away from New game on a phone).
function menaceAction(method, path, body, errorId = "menace-error") {
  menace.queue = menace.queue.then(async () => {
    try {
      drawMenace(await api(method, path, body));
      showError(errorId, null);
    } catch (e) {
      showError(errorId, e);
    }
  });
  return menace.queue;
}

const trainerBody = () => ({ opponent: $("menace-opponent").value, speed: Number($("menace-speed").value) });
$("menace-new").onclick = () => menaceAction("POST", "/api/menace/new");
$("menace-train").onclick = () => menaceAction("POST", "/api/menace/train", trainerBody());
$("menace-stop").onclick = () => menaceAction("POST", "/api/menace/stop");
// Settings are the server's: every viewer sees a change at once. Only the
// setting changed is sent, so a stale value of the other cannot undo a change.
$("menace-opponent").onchange = () => menaceAction("POST", "/api/menace/trainer", { opponent: $("menace-opponent").value });
$("menace-speed").onchange = () => menaceAction("POST", "/api/menace/trainer", { speed: Number($("menace-speed").value) });
$("menace-chart-view").onchange = () => menace.state && drawChart(menace.state.chart);
$("menace-chart-scale").onchange = () => menace.state && drawChart(menace.state.chart);

/** A square's name as the challenge gives it: row then column, each L, M or R (LL top left, MM centre). */
const squareName = (i) => "LMR"[Math.floor(i / 3)] + "LMR"[i % 3];

const START = [1, 2, 3, 4].map((m) => "menace-start-" + m);
const REWARDS = ["win", "draw", "loss"];
for (const id of [...START, ...REWARDS.map((r) => "menace-" + r)]) $(id).oninput = () => { menace.rulesEdited = true; };
$("menace-preset").onchange = () => {
  const p = menace.state.settings.presets.find((x) => x.name === $("menace-preset").value);
  fillRules(p.rules);
  menace.rulesEdited = true;
};
function fillRules(r) {
  START.forEach((id, i) => { $(id).value = r.start[i]; });
  for (const k of REWARDS) $("menace-" + k).value = r[k];
}
/** The number in field `id`, or an error naming it when it is empty or not a whole number. */
function fieldNumber(id, what) {
  const text = $(id).value.trim();
  if (text === "") throw new Error(`${what} is empty: give a whole number`);
  if (!/^-?\d+$/.test(text)) throw new Error(`${what} is not a whole number: ${text}`);
  return Number(text);
}
const rewardsBody = () => Object.fromEntries(REWARDS.map((k) => [k, fieldNumber("menace-" + k, `the ${k} reward`)]));
$("menace-rewards").onclick = async () => {
  let body;
  try { body = rewardsBody(); } catch (e) { return showError("menace-rules-error", e); }
  await menaceAction("POST", "/api/menace/rewards", body, "menace-rules-error");
  if (!$("menace-rules-error").textContent) menace.rulesEdited = false;
};
$("menace-reset").onclick = async () => {
  const preset = $("menace-preset").value;
  let start, rewards;
  try {
    start = START.map((id, i) => fieldNumber(id, `the start beads for move ${i + 1}`));
    rewards = rewardsBody();
  } catch (e) { return showError("menace-rules-error", e); }
  if (!confirm(`Throw away all ${count(menace.state.games, "game")} MENACE learned and start fresh ${preset} boxes?`)) return;
  await menaceAction("POST", "/api/menace/reset",
    { preset, start, ...rewards }, "menace-rules-error");
  if (!$("menace-rules-error").textContent) menace.rulesEdited = false;
};
$("menace-chart-svg").onclick = () => {
  const svg = $("menace-chart").cloneNode(true);
  svg.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  svg.setAttribute("width", 420); svg.setAttribute("height", 190);
  const a = el("a", { href: URL.createObjectURL(new Blob([svg.outerHTML], { type: "image/svg+xml" })), download: "menace-chart.svg" });
  document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
};

/** A count in at most four characters: 999, 1.2k, 17k, 1.7M, 17M, 1.7G. */
function short(n) {
  for (const [unit, size] of [["G", 1e9], ["M", 1e6], ["k", 1e3]]) {
    if (n >= size) { const v = n / size; return (v < 10 ? Math.floor(v * 10) / 10 : Math.floor(v)) + unit; }
  }
  return String(n);
}
/** Sets the select to `value`, adding an option the page does not list. */
function setSelect(sel, value, label) {
  if (document.activeElement === sel) return;
  value = String(value);
  if (![...sel.options].some((o) => o.value === value)) sel.append(el("option", { value }, label(value)));
  sel.value = value;
}

/** The learning curve as the chart's settings ask. */
const drawChart = (chart) => learningCurve($("menace-chart"), chart, $("menace-chart-view").value === "recent", $("menace-chart-scale").value);

/** Shows MENACE as the server sends it (GET /api/menace). */
export function drawMenace(s) {
  menace.state = s;
  const g = s.game;
  const board = $("menace-board");
  board.replaceChildren();
  const cells = g ? g.board : ".........";
  const last = g && g.steps.length ? g.steps[g.steps.length - 1].square : -1;
  const canPlay = g && g.person && !g.over && !s.training;
  for (let i = 0; i < 9; i++) {
    const c = cells[i] === "." ? "" : cells[i];
    const b = el("button", { "data-square": i, "aria-label": "square " + squareName(i) }, c);
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
      ? (st.matchbox !== null ? `X on ${squareName(st.square)}: box ${st.matchbox + 1}, bead ${squareName(st.bead)}` : `X on ${squareName(st.square)} (forced)`)
      : `O on ${squareName(st.square)}`;
    const li = el("li", { "data-player": st.player, "data-square": st.square }, text);
    if (st.matchbox !== null) { li.dataset.box = st.matchbox + 1; li.dataset.bead = st.bead; }
    steps.append(li);
  }
  const set = s.settings;
  $("menace-train").disabled = s.training;
  $("menace-train").textContent = s.training ? "Training…" : "Start training";
  $("menace-stop").disabled = !s.training;
  $("menace-new").disabled = s.training;
  $("menace-reset").disabled = s.training;
  setSelect($("menace-opponent"), set.opponent, (v) => v);
  setSelect($("menace-speed"), set.speed, (v) => `${fmt(v)} games/s`);
  if (!menace.rulesEdited && !document.activeElement.closest(".menace-rules")) {
    $("menace-preset").value = set.preset;
    fillRules(set.rules);
  }
  const r = set.rules;
  $("menace-rules-now").textContent = `Now: ${set.preset}, start ${r.start.join("/")}, win ${r.win}, draw ${r.draw}, loss ${r.loss}`;
  const t = s.tally;
  const info = $("menace-info");
  info.replaceChildren(
    el("div", {}, `Preset ${s.preset}, seed ${s.seed}`),
    el("div", { class: "num" }, `${count(s.games, "game")} learned, ${count(s.beads, "bead")}`),
    el("div", { class: "num" }, `MENACE wins ${fmt(t.wins)}, draw ${fmt(t.draws)}, opponent wins ${fmt(t.losses)}`),
    el("div", {}, s.training ? `Training against ${s.opponent}` : "Not training"));
  info.dataset.games = s.games;
  drawChart(s.chart);
  drawBoxes(s);
  drawSecond(s.second);
}

/** The second MENACE's boxes, grouped by its move, as stored. */
function drawSecond(boxes) {
  $("menace-second").hidden = !boxes;
  if (!boxes) return;
  $("menace-second-count").textContent = boxes.length;
  const root = $("menace-second-boxes");
  const moves = Math.max(...boxes.map((b) => b.move));
  if (root.querySelectorAll(".mbox").length !== boxes.length) {
    root.replaceChildren();
    for (let m = 1; m <= moves; m++) {
      const g = el("div", { class: "group", "data-move": m });
      g.append(el("h3", {}, `Before its move ${m}`), el("div", { class: "boxes" }));
      root.append(g);
    }
    const groups = root.querySelectorAll(".group .boxes");
    for (const b of boxes) {
      const box = el("div", { class: "mbox", "data-box": b.number });
      for (let i = 0; i < 9; i++) box.append(el("span"));
      groups[b.move - 1].append(box);
    }
  }
  const all = root.querySelectorAll(".mbox");
  boxes.forEach((b, idx) => {
    const box = all[idx];
    const text = b.beads.join(",");
    if (box.dataset.beads === text) return;
    box.dataset.beads = text;
    box.title = `box ${b.number} (its move ${b.move}): ${count(b.beads.reduce((a, c) => a + c, 0), "bead")}`;
    for (let i = 0; i < 9; i++) {
      const c = b.image[i], span = box.children[i];
      span.className = c === "X" ? "x" : c === "O" ? "o" : b.beads[i] ? "" : "nb";
      span.textContent = c === "." ? (b.beads[i] ? short(b.beads[i]) : "") : c;
      span.title = c === "." ? `${fmt(b.beads[i])} bead${b.beads[i] === 1 ? "" : "s"} for square ${squareName(i)} of the box` : "";
    }
  });
}

// The 8 turns and mirror images of the board, as maps from a board square
// to the square of the image it shows.
const SYMS = (() => {
  const rot = (i) => { const r = Math.floor(i / 3), c = i % 3; return c * 3 + (2 - r); };
  const mir = (i) => { const r = Math.floor(i / 3), c = i % 3; return r * 3 + (2 - c); };
  const out = [];
  let f = (i) => i;
  for (let k = 0; k < 4; k++) {
    const g = f;
    out.push([...Array(9).keys()].map(g), [...Array(9).keys()].map((i) => g(mir(i))));
    f = ((h) => (i) => h(rot(i)))(g);
  }
  return out;
})();

/** How box `image` is turned to show `board`: board square i shows image square map[i]. */
function turnOf(image, board, bead, square) {
  return SYMS.find((p) => p.every((j, i) => board[i] === image[j]) && p[square] === bead) ||
    SYMS.find((p) => p.every((j, i) => board[i] === image[j])) || SYMS[0];
}

function drawBoxes(s) {
  const used = new Map();
  const steps = s.game ? s.game.steps : [];
  let board = ".........".split("");
  let lastUsed = null;
  for (const st of steps) {
    if (st.matchbox !== null) {
      used.set(st.matchbox, { bead: st.bead, map: null, board: board.join(""), square: st.square });
      lastUsed = st.matchbox;
    }
    board[st.square] = st.player;
  }
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
    box.classList.toggle("current", !!u && idx === lastUsed);
    const key = u ? `${u.bead}@${u.board}` : "";
    if (box.dataset.beads === beadsText && box.dataset.key === key) return;
    box.dataset.beads = beadsText;
    box.dataset.key = key;
    box.dataset.drawn = u ? u.bead : "";
    const total = b.beads.reduce((a, c) => a + c, 0);
    box.title = `box ${b.number} (move ${b.move}): ${count(total, "bead")}` + (u ? ", turned to match the board" : "");
    // Board square i of the drawing shows image square map[i].
    const map = u ? turnOf(b.image, u.board, u.bead, u.square) : SYMS[0];
    box.dataset.turned = u && map !== SYMS[0] ? "yes" : "";
    for (let i = 0; i < 9; i++) {
      const j = map[i], c = b.image[j];
      const span = box.children[i];
      span.dataset.square = j;
      span.className = c === "X" ? "x" : c === "O" ? "o" : b.beads[j] ? "" : "nb";
      span.textContent = c === "." ? (b.beads[j] ? short(b.beads[j]) : "") : c;
      span.title = c === "." ? `${fmt(b.beads[j])} bead${b.beads[j] === 1 ? "" : "s"} for square ${squareName(j)} of the box` : "";
      if (u && u.bead === j) span.classList.add("drawn");
    }
  });
}
