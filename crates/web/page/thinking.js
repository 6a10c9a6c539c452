// Live thinking: how the engine's searches stand while they run (the
// event stream's `thinking` events: the game's engine for every viewer,
// this page's own analyses for it alone), and the client id the server
// gave this page's stream (its `hello`), which the page's analyses name so
// that their thinking comes back here and each replaces the page's last.
import { el, fmt } from "./common.js";
import { rateText, scoreText } from "./analyse.js";

const live = { client: null, listeners: [] };

/** This page's client id, once its event stream said hello (null before, or while it is down). */
export const clientId = () => live.client;

/** The stream said hello (`data`: {"client": ID}); none: the stream is down. */
export function hello(data) {
  live.client = null;
  if (!data) return;
  try {
    const id = JSON.parse(data).client;
    if (typeof id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(id)) live.client = id;
  } catch { /* a garbled hello: the page asks as a client of its own */ }
}

/** Calls `fn(report)` with every thinking report the stream brings. */
export function onThinking(fn) { live.listeners.push(fn); }

/** A thinking event came (`data`: the report as JSON). */
export function heard(data) {
  let report;
  try { report = JSON.parse(data); } catch { return; }
  for (const fn of live.listeners) fn(report);
}

/** Nodes a second, short: 812k, 1.2M. */
const speed = (n) => n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${Math.round(n / 1e3)}k` : String(n);

/**
 * Shows `report` in the live line `box`: depth, nodes, nodes a second,
 * and (unless `line` is false) the side to move's win rate and score
 * (`whose` names the side; a proven result as such) and the best line, its points named by `name`. Each part wraps
 * as a whole, so the line reads on a narrow screen. The box counts the
 * reports it showed (data-reports) and keeps the last nodes and depth
 * (data-nodes, data-depth).
 */
export function showThinking(box, report, { name, line = true, whose = "" }) {
  const parts = [
    ["depth", `depth ${report.depth}`],
    ["nodes", `${fmt(report.nodes)} nodes`],
    ["nps", `${speed(report.nps)} nodes/s`],
  ];
  if (line && report.best) {
    const value = report.decided ? scoreText(report) : `${rateText(report.win_rate)} (${scoreText(report)})`;
    parts.push(["score", value + (whose ? ` for ${whose}` : "")]);
    parts.push(["pv", report.pv.map(name).join(" ")]);
  }
  box.replaceChildren(...parts.map(([k, text]) => el("span", { class: "live-" + k }, text)));
  box.dataset.reports = Number(box.dataset.reports || 0) + 1;
  box.dataset.nodes = report.nodes;
  box.dataset.depth = report.depth;
  box.hidden = false;
}

/** Empties the live line `box` and hides it. */
export function clearThinking(box) {
  box.replaceChildren();
  box.dataset.reports = 0;
  delete box.dataset.nodes;
  delete box.dataset.depth;
  box.hidden = true;
}
