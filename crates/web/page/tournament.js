// Tournaments: starting one, standings, games live and finished, replays.
import { $, api, el, showError } from "./common.js";
import { miniBoard, winningLine } from "./board.js";

const tour = { record: null, step: 0, timer: null };

$("tour-start").onclick = async () => {
  // The seed goes as the digits typed (a number would be rounded past 2^53);
  // an empty field asks for a fresh seed, shown with the run.
  const body = { seed: $("tour-seed").value.trim(), jobs: Number($("tour-jobs").value), timeout_ms: Number($("tour-timeout").value) };
  try { drawTournament(await api("POST", "/api/tournament/start", body)); showError("tour-error", null); }
  catch (e) { showError("tour-error", e); }
};

/** Shows the tournament as the server sends it (GET /api/tournament). */
export function drawTournament(v) {
  const run = v.run;
  $("tour-start").disabled = v.running;
  $("tour-status").textContent = !run ? "No tournament yet." :
    `${v.running ? "Running" : "Finished"}: seed ${run.seed}, ${run.played} of ${run.total} games played.` +
    (run.left_out || []).map((l) => ` Left out: ${l.folder} (${l.reason}).`).join("");
  $("tour-status").dataset.running = v.running;
  $("tour-files").textContent = !run ? "" : filesNote(run);
  if (run && run.save_error) showError("tour-error", run.save_error);
  const body = $("tour-standings").querySelector("tbody");
  body.replaceChildren();
  for (const s of run ? run.standings : []) {
    const tr = el("tr");
    for (const c of [s.rank, s.name, s.points, s.wins, s.ties, s.losses, s.forfeits]) tr.append(el("td", {}, String(c)));
    body.append(tr);
  }
  const games = $("tour-games").querySelector("tbody");
  games.replaceChildren();
  for (const g of run ? run.games : []) {
    const tr = el("tr", { "data-game": g.index });
    tr.append(el("td", {}, `#${g.index}`), el("td", {}, players(g)), el("td", {}, result(g)),
      el("td", {}, `${g.stones} stones`));
    const td = el("td");
    // A game over before its first stone has nothing to replay: its row
    // says who forfeited and why.
    if (g.stones > 0) {
      const b = el("button", {}, "Replay");
      b.onclick = () => openReplay(g.index);
      td.append(b);
    }
    tr.append(td);
    games.append(tr);
  }
  const live = $("tour-live");
  live.replaceChildren();
  if (!run || !run.live.length) live.textContent = "No game in progress.";
  for (const g of run ? run.live : []) {
    const box = el("div", { "data-live": g.index });
    box.append(el("div", {}, `#${g.index} ${g.a} vs ${g.b}: ${g.asking} to answer`), miniBoard(g.stones));
    live.append(box);
  }
}

/** Who played: by colour once the opening gave them out, else who opened. */
function players(g) {
  return g.black && g.white ? `${g.black} (black) – ${g.white} (white)` : `${g.a} (opening) – ${g.b}, no colours chosen`;
}

/** How a game ended; a forfeit names who forfeited and why. */
function result(g) {
  if (g.forfeit) return `${g.forfeit_by} forfeits: ${g.forfeit}; ${g.winner} wins`;
  return g.winner ? `${g.winner} wins (${g.reason})` : `tie (${g.reason})`;
}

/** Where the run's files go or went, and where they were read back from. */
function filesNote(run) {
  if (run.save_error) return "";
  const w = run.writes;
  // A numbered name: earlier results are kept, never written over.
  const kept = w && w.numbered ? " Earlier results are kept: each tournament from the page writes files of its own." : "";
  if (run.saved) return `Written: ${run.saved}.${kept}`;
  if (w) return `Results will be written to ${w.results}, SGF records to ${w.sgf}.${kept}`;
  return run.restored ? `Read back from ${run.restored}: replay its games below.` : "";
}

async function openReplay(index) {
  try {
    tour.record = await api("GET", `/api/tournament/games/${index}`);
    tour.step = Math.min(1, tour.record.stones.length);
    autoplay(false);
    $("tour-replay").hidden = false;
    drawReplay();
    showError("tour-error", null);
  } catch (e) { showError("tour-error", e); }
}

function drawReplay() {
  const r = tour.record;
  const stones = r.stones.slice(0, tour.step).map((s) => [s.x, s.y, s.colour]);
  const end = tour.step === r.stones.length;
  const win = end && r.reason === "five" ? winningLine(stones) : [];
  $("tour-replay-title").textContent = `Game #${r.index}: ${players(r)}`;
  const grid = miniBoard(stones, { id: "tour-replay-grid", "data-total": r.stones.length }, win, true);
  grid.classList.add("big");
  $("tour-slider").max = r.stones.length;
  $("tour-slider").value = tour.step;
  grid.classList.toggle("numbers", $("tour-numbers").checked);
  $("tour-replay-board").replaceChildren(grid);
  $("tour-replay-step").textContent = `stone ${tour.step} of ${r.stones.length}`;
  $("tour-replay-result").textContent = tour.step === r.stones.length
    ? (r.winner ? `${r.winner} wins: ${r.reason}` : `tie: ${r.reason}`) + (r.forfeit ? ` (${r.forfeit.reason})` : "") : "";
}
const stepTo = (n) => { if (tour.record) { tour.step = Math.max(0, Math.min(tour.record.stones.length, n)); drawReplay(); } };
$("tour-first").onclick = () => { autoplay(false); stepTo(0); };
$("tour-prev").onclick = () => { autoplay(false); stepTo(tour.step - 1); };
$("tour-next").onclick = () => { autoplay(false); stepTo(tour.step + 1); };
$("tour-last").onclick = () => { autoplay(false); stepTo(Infinity); };
$("tour-numbers").onchange = () => { if (tour.record) drawReplay(); };
$("tour-slider").oninput = () => { autoplay(false); stepTo(Number($("tour-slider").value)); };
$("tour-speed").onchange = () => { if (tour.timer) autoplay(true, true); };

/** Starts (from the first stone if at the end, unless `keep`) or stops stepping on by itself, at the chosen speed. */
function autoplay(on, keep = false) {
  clearInterval(tour.timer);
  tour.timer = null;
  $("tour-play").textContent = on ? "\u23F8 Pause" : "\u25B6 Play";
  $("tour-play").dataset.playing = on;
  if (!on || !tour.record) return;
  if (!keep && tour.step >= tour.record.stones.length) stepTo(0);
  tour.timer = setInterval(() => {
    stepTo(tour.step + 1);
    if (tour.step >= tour.record.stones.length) autoplay(false);
  }, Number($("tour-speed").value));
}
$("tour-play").onclick = () => autoplay(!tour.timer);

// Keys step the replay while the tournament tab shows it (not while typing).
document.addEventListener("keydown", (e) => {
  if (!tour.record || $("tour-replay").hidden || $("tab-tournament").hidden) return;
  const target = e.target.closest ? e.target : document.body;
  if (target.closest('input:not([type="checkbox"]), select, textarea')) return;
  // A focused button takes space itself.
  if (e.key === " " && target.closest("button")) return;
  const keys = {
    ArrowLeft: () => stepTo(tour.step - 1), ArrowRight: () => stepTo(tour.step + 1),
    Home: () => stepTo(0), End: () => stepTo(Infinity), " ": () => autoplay(!tour.timer),
  };
  if (!keys[e.key] || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  if (e.key !== " ") autoplay(false);
  keys[e.key]();
});

