// The page's entry: the tabs, every part, and live updates from the server.
import { showTab } from "./common.js";
import { start } from "./live.js";
import { addressFollowsView } from "./analysis.js";

for (const b of document.querySelectorAll("header button[data-tab]")) {
  b.addEventListener("click", () => {
    showTab(b.dataset.tab);
    addressFollowsView();
  });
}
start();
