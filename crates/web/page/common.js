// What every part of the page uses: elements by id, new elements, the API,
// one-line errors.
export const $ = (id) => document.getElementById(id);
export const el = (tag, attrs = {}, text) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
};

/** Shows tab `name` of the page (`menace`, `gomoku`, `tournament`), its header button marked. */
export function showTab(name) {
  for (const o of document.querySelectorAll("header button[data-tab]")) o.classList.toggle("active", o.dataset.tab === name);
  for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== "tab-" + name;
}

/** A refused request: the server's one line, and its HTTP status. */
export class Refused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the API; a refusal throws Refused with the server's one line. */
export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) throw new Refused(res.status, data.error || res.statusText);
  return data;
}

/** Shows `err` (an Error or a line) in the error line `id`; none clears it. */
export function showError(id, err) { $(id).textContent = err ? String(err.message || err) : ""; }

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A number with thousands separated: 12,345. */
export const fmt = (n) => Number(n).toLocaleString("en");

/** A count and its noun, singular for one: "1 game", "2 games", "1,000 games". */
export const count = (n, noun) => `${fmt(n)} ${noun}${Number(n) === 1 ? "" : "s"}`;
