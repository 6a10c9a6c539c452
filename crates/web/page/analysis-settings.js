// The analysis board's settings: the board's size and rule, how the
// answers are drawn (labels, the heat map) and the engine's time and table
// (hash) and threads, remembered by the browser. What a change sets off
// (the heat map asked, the analysis started again, the board rebuilt) is
// handed in by analysis.js, so that the parts that read the settings need
// not be imported here.
import { $, el } from "./common.js";

/** A select or checkbox `id` that keeps its value in the browser under `stored`; `changed()` after each change. */
export function remembered(id, stored, changed) {
  const input = $(id), box = input.type === "checkbox";
  const saved = localStorage.getItem(stored);
  if (saved !== null) {
    if (box) input.checked = saved === "1";
    else if ([...input.options].some((o) => o.value === saved)) input.value = saved;
  }
  input.addEventListener("change", () => {
    localStorage.setItem(stored, box ? (input.checked ? "1" : "0") : input.value);
    changed();
  });
}

/**
 * The settings of the drawing and of the engine (time and table), remembered:
 * `heat(an)` after the heat map is turned on or off, `again(an)` after the
 * engine's time, table or threads change.
 */
export function setupDrawingSettings(an, { heat, again }) {
  remembered("an-labels", "inarow-an-labels", () => an.draw());
  remembered("an-heat", "inarow-an-heat", () => { an.draw(); heat(an); });
  remembered("an-time", "inarow-an-time", () => again(an));
  remembered("an-hash", "inarow-an-hash", () => again(an));
  remembered("an-threads", "inarow-an-threads", () => again(an));
}

/** The engine's table (MB) and threads as the page's settings ask them, for each question. */
export function engineSettings() {
  return { hash: Number($("an-hash").value), threads: Number($("an-threads").value) };
}

/** The board's size (5 to 20; stones outside a smaller board clear it, asked first; `rebuild(an)` redraws it) and rule. */
export function setupBoardSettings(an, { rebuild }) {
  for (let n = 5; n <= 20; n++) $("an-size").append(el("option", n === 15 ? { selected: "" } : {}, String(n)));
  $("an-size").onchange = () => {
    const n = Number($("an-size").value);
    const outside = an.tree.allMoves().some(([x, y]) => x >= n || y >= n);
    if (outside && !confirm(`Stones lie outside a ${n}x${n} board: clear the board?`)) {
      $("an-size").value = an.size;
      return;
    }
    if (outside) an.newTree([]);
    an.size = n;
    an.review = null;
    rebuild(an);
    an.positionChanged();
  };
  $("an-rule").onchange = () => { an.rule = $("an-rule").value; an.review = null; an.positionChanged(); };
}
