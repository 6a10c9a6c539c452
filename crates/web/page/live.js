// ---------- live updates ----------
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
  if (!timer) timer = setTimeout(async () => {
    const topics = [...pending];
    pending.clear();
    for (const t of topics) await loaders[t]().catch(() => {});
    timer = null;
  }, 200);
}
function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("open", () => { $("live").textContent = "live"; refresh("all"); });
  es.addEventListener("update", (e) => refresh(e.data));
  es.addEventListener("error", () => { $("live").textContent = "reconnecting…"; });
}
for (const t of Object.keys(loaders)) loaders[t]();
connect();
