// Live updates: the server names the part that changed (GET /api/events,
// `menace`, `gomoku`, `tournament` or `all`) and the page fetches it again;
// it also greets the page with a client id and streams the engine's
// thinking (thinking.js).
import { $, api } from "./common.js";
import { heard, hello } from "./thinking.js";
import { drawMenace } from "./menace.js";
import { drawGomoku } from "./gomoku.js";
import { drawTournament } from "./tournament.js";

const loaders = {
  menace: async () => drawMenace(await api("GET", "/api/menace")),
  gomoku: async () => drawGomoku(await api("GET", "/api/gomoku")),
  tournament: async () => drawTournament(await api("GET", "/api/tournament")),
};
const pending = new Set();
let timer = null;
function refresh(topic) {
  for (const t of topic === "all" ? Object.keys(loaders) : [topic]) if (loaders[t]) pending.add(t);
  // Fetch at most five times a second however fast updates come.
  if (!timer) timer = setTimeout(fetchPending, 200);
}
async function fetchPending() {
  const topics = [...pending];
  pending.clear();
  for (const t of topics) await loaders[t]().catch(() => {});
  // Updates heard while fetching may be newer than what came: fetched in turn.
  timer = pending.size ? setTimeout(fetchPending, 200) : null;
}
// A browser retries a dropped stream itself, but gives up on a refused one
// (the server answers 503 when its event streams are all taken): then the
// page polls every few seconds and tries the stream again.
let polling = null;
function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("open", () => {
    $("live").textContent = "live";
    clearInterval(polling);
    polling = null;
    refresh("all");
  });
  es.addEventListener("update", (e) => refresh(e.data));
  es.addEventListener("hello", (e) => hello(e.data));
  es.addEventListener("thinking", (e) => heard(e.data));
  es.addEventListener("error", () => {
    // A new stream is a new client id: the old one names nothing.
    hello(null);
    $("live").textContent = "reconnecting…";
    if (es.readyState === EventSource.CLOSED) {
      if (!polling) polling = setInterval(() => refresh("all"), 3000);
      setTimeout(connect, 10000);
    }
  });
}

/** Shows every part as it is now and follows their changes. */
export function start() {
  for (const t of Object.keys(loaders)) loaders[t]();
  connect();
}
