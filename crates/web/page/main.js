// The page's entry: the tabs, every part, and live updates from the server.
import { start } from "./live.js";
import "./analysis.js";

for (const b of document.querySelectorAll("header button[data-tab]")) {
  b.addEventListener("click", () => {
    for (const o of document.querySelectorAll("header button[data-tab]")) o.classList.toggle("active", o === b);
    for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== "tab-" + b.dataset.tab;
  });
}
start();
