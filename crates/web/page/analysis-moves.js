// The analysis board's game tree on the page: the buttons, slider and keys
// that step along the line, the move list with the variations played in a
// move's place, the next moves of the variations marked on the board, Main
// line and Delete move, the comment of the position shown, the board
// rotated and flipped, and the SGF of the whole tree to download.
import { $, el } from "./common.js";
import { stoneDot } from "./board.js";
import { toSgf } from "./record.js";
import { reviewMarks } from "./analysis-review.js";

/** Variation letters, A the main line's: where there is more than one next move, each is marked on the board. */
const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The buttons and slider that step along the line, where the line leaves the main line, and the SGF of the whole tree. */
export function drawNavigation(an) {
  const [at, end] = [an.cursor, an.moves.length];
  $("an-slider").max = end;
  $("an-slider").value = at;
  $("an-at").textContent = `${at} of ${end}`;
  $("an-first").disabled = $("an-prev").disabled = $("an-undo").disabled = $("an-delete").disabled = at === 0;
  $("an-last").disabled = $("an-next").disabled = $("an-redo").disabled = at === end;
  const branch = an.tree.branch();
  $("an-variation").textContent = branch ? `A variation from move ${branch}.` : "The main line.";
  $("an-mainline").disabled = !branch;
  sgfLink(an);
  // The comment of the position shown (the game's before the first move),
  // left alone while it is being written.
  const comment = $("an-comment");
  if (document.activeElement !== comment) comment.value = an.tree.node.comment || "";
}

/** The SGF download: the whole tree, its variations and comments. */
function sgfLink(an) {
  $("an-sgf").href = "data:application/x-go-sgf;charset=utf-8," + encodeURIComponent(toSgf(an.size, an.tree.root, an.rule));
}

/** The next moves of the variations at the shown position, by point, as marks on the board (none where there is one way on). */
export function nextMarks(an) {
  const next = an.tree.next(), marks = new Map();
  if (next.length < 2) return marks;
  for (const { move, k, on } of next) {
    const letter = LETTERS[k] || "+";
    marks.set(move[0] + "," + move[1], {
      child: el("span", { class: "stone next " + (move[2] === "B" ? "b" : "w") + (on ? " on" : ""), "data-variation": letter }, letter),
      label: `next move of variation ${letter}${k === 0 ? ", the main line" : ""}${on ? ", the one redo plays" : ""}`,
    });
  }
  return marks;
}

/** The line as a list: each move, the variations played in its place beside it (a click takes one), the moves off the main line set apart. */
export function drawMoves(an) {
  const list = $("an-moves");
  list.replaceChildren();
  const marks = reviewMarks(an);
  const branch = an.tree.branch(), alternatives = an.tree.lineAlternatives();
  an.moves.forEach((m, i) => {
    const li = el("li", { "data-n": i + 1 });
    li.append(stoneDot(m[2]), document.createTextNode(` ${an.name(m)}`));
    if (marks.has(i + 1)) {
      li.classList.add("blunder");
      li.append(el("small", { title: `lost ${(marks.get(i + 1) * 100).toFixed(0)}% of the winning chance` }, marks.get(i + 1) >= 0.3 ? " ??" : " ?"));
    }
    const alts = alternatives[i];
    if (alts.length > 1) {
      li.classList.add("branch");
      const span = el("span", { class: "alts" });
      for (const { move, k, on } of alts) {
        if (on) continue;
        const letter = LETTERS[k] || "+";
        const b = el("button", { class: "alt" + (k === 0 ? " main" : ""), "data-k": k, title: `variation ${letter}${k === 0 ? " (the main line)" : ""}: ${an.name(move)} as move ${i + 1}` },
          `${letter} ${an.name(move)}`);
        b.onclick = (e) => { e.stopPropagation(); an.step(() => an.tree.choose(i + 1, k)); };
        span.append(b);
      }
      li.append(span);
    }
    li.classList.toggle("variation", branch > 0 && i + 1 >= branch);
    li.classList.toggle("current", i + 1 === an.cursor);
    li.onclick = () => an.setCursor(i + 1);
    list.append(li);
  });
}

/** The buttons, slider and keys that step through the tree. */
export function setupNavigation(an) {
  $("an-undo").onclick = () => an.step(() => an.tree.back());
  $("an-redo").onclick = () => an.step(() => an.tree.forward());
  $("an-delete").onclick = () => an.step(() => an.tree.remove());
  $("an-mainline").onclick = () => an.step(() => an.tree.toMainLine());
  $("an-first").onclick = () => an.setCursor(0);
  $("an-prev").onclick = () => an.setCursor(an.cursor - 1);
  $("an-next").onclick = () => an.setCursor(an.cursor + 1);
  $("an-last").onclick = () => an.setCursor(an.moves.length);
  $("an-slider").oninput = () => an.setCursor(Number($("an-slider").value));
  // A comment written goes with the position shown, and into the SGF.
  $("an-comment").oninput = () => {
    const text = $("an-comment").value;
    if (text.trim()) an.tree.node.comment = text;
    else delete an.tree.node.comment;
    sgfLink(an);
  };
  // The board turned or mirrored: every line with it, the same position shown.
  const turned = (f) => {
    const n = an.size;
    an.tree.transform((x, y) => f(x, y, n - 1));
    an.positionChanged();
  };
  $("an-rotate").onclick = () => turned((x, y, last) => [last - y, x]);
  $("an-flip").onclick = () => turned((x, y, last) => [last - x, y]);
}

/**
 * The keys of game-record viewers: left and right (or Ctrl+Z and Ctrl+Y,
 * Ctrl+Shift+Z) undo and redo along the line, Home and End its ends, up
 * and down the variation before or after the one shown at this move.
 */
export function setupKeys(an) {
  document.addEventListener("keydown", (e) => {
    if ($("analysis").hidden || $("tab-gomoku").hidden || e.target.closest("input, textarea, select, .goban")) return;
    const ctrl = e.ctrlKey || e.metaKey, key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (e.altKey || (ctrl && !["z", "y"].includes(key))) return;
    if (key === "ArrowLeft" || (ctrl && key === "z" && !e.shiftKey)) an.step(() => an.tree.back());
    else if (key === "ArrowRight" || (ctrl && (key === "y" || key === "z"))) an.step(() => an.tree.forward());
    else if (key === "Home") an.setCursor(0);
    else if (key === "End") an.setCursor(Infinity);
    // Where the move shown has no variation, up and down scroll the page as ever.
    else if ((key === "ArrowUp" || key === "ArrowDown") && an.tree.alternatives(an.tree.depth).length > 1) an.step(() => an.tree.sideStep(key === "ArrowUp" ? -1 : 1));
    else return;
    e.preventDefault();
  });
}
