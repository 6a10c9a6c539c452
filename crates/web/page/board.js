// The gomoku board, one component for every board of the page: the game
// against the engine and the analysis board (points as buttons, a goban),
// tournament games live and replayed (a small grid). Column letters,
// coordinates, star points and the winning line live here alone.
import { $, el } from "./common.js";

/**
 * Column letters as gomoku players write them (renju literature, Piskvork
 * and Gomocalc records, core's notation): a from the left, i included, up
 * to t on 20x20; lower case, as the server's refusals and the moves pasted
 * as text write them.
 */
export const COLS = "abcdefghijklmnopqrst";
/** A point's name on a board of side `n`: its column letter, then its row counted from 1 at the bottom (h8 the centre of 15x15). */
export const pointName = ([x, y], n) => `${COLS[x]}${n - y}`;
const key = (x, y) => x + "," + y;
/** The other colour. */
export const other = (colour) => (colour === "B" ? "W" : "B");

export function starPoints(n) {
  if (n < 9) return new Set([key(n >> 1, n >> 1)]);
  const e = n >= 13 ? 3 : 2, c = n >> 1, far = n - 1 - e;
  const pts = [[e, e], [far, e], [e, far], [far, far]];
  if (n % 2) pts.push([c, c]);
  return new Set(pts.map(([x, y]) => key(x, y)));
}

/** The five (or more) in a row through the last of `stones` ([x, y, colour] in order), or []. */
export function winningLine(stones) {
  if (!stones.length) return [];
  const at = new Map(stones.map(([x, y, c]) => [key(x, y), c]));
  const [lx, ly, lc] = stones[stones.length - 1];
  for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [1, -1]]) {
    const line = [[lx, ly]];
    for (const s of [1, -1]) {
      for (let x = lx + s * dx, y = ly + s * dy; at.get(key(x, y)) === lc; x += s * dx, y += s * dy) line.push([x, y]);
    }
    if (line.length >= 5) return line;
  }
  return [];
}

/** The winning line through the last stone under `rule` (exactly five under exact five, and for renju's black), or []. */
export function winLine(stones, rule) {
  const line = winningLine(stones);
  if (!line.length) return line;
  const exact = rule === "exact" || (rule === "renju" && stones[stones.length - 1][2] === "B");
  return exact && line.length !== 5 ? [] : line;
}

/** The line that refuses black's stone on a forbidden point, as the server words it. */
export const forbiddenLine = (why, name) => `${name} is forbidden to black under renju: ${why}`;

/** A point forbidden to black under renju, drawn as renju boards mark it: a small cross. */
export const forbiddenMark = (why) => ({
  child: el("span", { class: "forbidden", "data-why": why, title: `forbidden to black: ${why}` }),
  label: `forbidden to black (${why})`,
});

/** A stone's colour as a dot in a list. */
export const stoneDot = (colour) => el("span", { class: "dot " + (colour === "B" ? "b" : "w") });

/**
 * The moves of a line that are not on the board yet, by point: numbered
 * from 1, in the colours that would play them, `first` playing the first.
 */
export function lineAhead(moves, first, taken) {
  const ahead = new Map();
  moves.forEach(([x, y], i) => {
    const k = key(x, y);
    if (!taken.has(k) && !ahead.has(k)) ahead.set(k, { n: i + 1, c: i % 2 === 0 ? first : other(first) });
  });
  return ahead;
}

/** A move of `lineAhead` drawn on a point: a see-through numbered stone. */
export const aheadStone = (q) => el("span", { class: "stone pv " + (q.c === "B" ? "b" : "w"), "data-pv": q.n }, String(q.n));

/** The n x n points that `point(x, y)` makes, with row numbers on the left and column letters below when `coords`. */
function layOut(board, n, point, coords) {
  for (let y = 0; y < n; y++) {
    if (coords) board.append(el("span", { class: "coord row" }, String(n - y)));
    for (let x = 0; x < n; x++) board.append(point(x, y));
  }
  if (!coords) return;
  board.append(el("span", { class: "coord" }));
  for (let x = 0; x < n; x++) board.append(el("span", { class: "coord col" }, COLS[x]));
}

/** The largest board side, in CSS pixels: past it the points only grow further apart. */
const MAX_SIDE = 820;
/** The smallest: on a window too low for more, the board is this big and scrolls. */
const MIN_SIDE = 200;
/** The least width of the row numbers' band (and height of the letters'), in CSS pixels: two digits at 9 px. */
const COORD_MIN = 13;
/** Room kept below the board: the panel's padding and border, and the page's. */
const BELOW = 26;
/** The smallest font a candidate's label shrinks to, in CSS pixels, before it may run over its ring. */
const MIN_LABEL = 7;
/** Windows this narrow or narrower are phones: what shows the engine's thinking goes under the board (style.css's breakpoint). */
const PHONE = "(max-width: 760px)";

/**
 * On a phone, the element `id` (the engine's thinking, the analysis's
 * lines) moves into `placeId` under the board, so that the board and it
 * are on screen together; on a wider window it goes back where the page
 * put it, beside the board.
 */
export function nearBoardOnPhones(id, placeId) {
  const block = $(id), place = $(placeId);
  const home = block.parentElement, next = block.nextSibling;
  const phone = window.matchMedia(PHONE);
  const follow = () => {
    if (phone.matches) place.append(block);
    else home.insertBefore(block, next);
    place.hidden = !phone.matches;
  };
  phone.addEventListener("change", follow);
  follow();
}

/**
 * A board whose points are buttons, with its move-numbers box. The board is
 * one tab stop: while it has the focus, arrows move a cursor over its
 * points, drawn whenever the board has the focus (Home and End to the row's
 * ends), Enter or space presses the point under it; screen readers follow
 * the cursor (aria-activedescendant). A point clicked takes no focus. It takes the space the window
 * gives it (`fit`), and a label too long for its point shows its short form.
 */
export class Goban {
  /**
   * The board `id`, its move-numbers box `numbersId` remembered under
   * `stored`; `click(x, y)` when a point is pressed. With `hug`, a wide
   * window's panel is narrowed to the board, so that the panels beside it
   * take the rest (its panel holds nothing above the board that wraps).
   */
  constructor(id, numbersId, stored, click, { hug = false } = {}) {
    this.board = $(id);
    this.hug = hug;
    this.numbers = $(numbersId);
    this.click = click;
    this.size = 0;
    this.focus = [7, 7];
    this.numbers.checked = localStorage.getItem(stored) === "1";
    this.numbers.onchange = () => {
      localStorage.setItem(stored, this.numbers.checked ? "1" : "0");
      this.board.classList.toggle("numbers", this.numbers.checked);
    };
    // The space changes with the window, with what is above the board (a
    // note of two lines, an error) and when the board comes into view
    // (a hidden one has none): its panel's size follows all of them. The
    // fit waits for the next frame, so that resizing the board is not
    // itself a size change inside the observer's round.
    let queued = false;
    const refit = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => { queued = false; this.fit(); });
    };
    new ResizeObserver(refit).observe(this.board.parentElement);
    window.addEventListener("resize", refit);
    // The grid's colour is the scheme's: drawn again when the scheme changes.
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", refit);
  }

  /**
   * Sizes the board to the space it has: its panel's width, and the
   * window's height below the board's top, so that the whole board with
   * its coordinates shows without scrolling, from 5x5 to 20x20 and down
   * to phones; then labels that no longer fit their points are shortened.
   */
  fit() {
    const board = this.board, panel = board.parentElement;
    if (!board.offsetParent || !this.size) return; // hidden: nothing to measure
    // The panel as wide as its layout lets it be, to measure; narrowed to the board below.
    panel.style.maxWidth = "";
    const css = getComputedStyle(panel);
    const wide = panel.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
    const frame = panel.offsetWidth - wide;
    const phone = window.matchMedia(PHONE).matches;
    // On a phone the board takes the screen's width, what goes with it
    // below (the page scrolls); elsewhere the window's height too, and a
    // board that hugs narrows its panel to it.
    const side = Math.floor(phone ? Math.min(wide, MAX_SIDE) : Math.max(MIN_SIDE, Math.min(wide, this.height(), MAX_SIDE)));
    if (this.hug && !phone && side < wide) panel.style.maxWidth = `${Math.ceil(frame + side)}px`;
    if (board.style.width !== `${side}px`) board.style.width = `${side}px`;
    // A point's side (the padding is 1.5% each way; coordinates take 0.7 of a point):
    // what the labels on the points are sized by.
    board.style.setProperty("--cell", `${(side * 0.97 / (this.size + 0.7)).toFixed(1)}px`);
    this.drawGrid();
    this.squeeze();
  }

  /** The board's greatest side for the window's height: from its top to the window's bottom, less what follows it in its panel. */
  height() {
    const board = this.board;
    // The top in the page, not the window, so the size does not change as the page scrolls.
    const top = board.getBoundingClientRect().top + window.scrollY;
    // What follows the board in its panel (the engine's thinking, on a narrow window) stays in view too.
    let after = 0;
    for (let e = board.nextElementSibling; e; e = e.nextElementSibling) {
      const css = getComputedStyle(e);
      after += e.getBoundingClientRect().height + parseFloat(css.marginTop) + parseFloat(css.marginBottom);
    }
    return document.documentElement.clientHeight - top - BELOW - after;
  }

  /**
   * Draws the grid lines on the canvas under the points: each line one
   * rectangle from its first point's centre to its last's, on whole device
   * pixels and a whole number of them wide, so that no zoom leaves a gap
   * or a blurred step (a line drawn point by point met its neighbour at a
   * fraction of a pixel and showed faint gaps).
   */
  drawGrid() {
    const canvas = this.grid, n = this.size;
    if (!canvas || !n) return;
    const dpr = window.devicePixelRatio || 1;
    const box = this.board.getBoundingClientRect();
    canvas.width = Math.round(box.width * dpr);
    canvas.height = Math.round(box.height * dpr);
    const first = this.button([0, 0]).getBoundingClientRect();
    const last = this.button([n - 1, n - 1]).getBoundingClientRect();
    const x0 = first.left + first.width / 2 - box.left, y0 = first.top + first.height / 2 - box.top;
    const step = n > 1 ? (last.left + last.width / 2 - box.left - x0) / (n - 1) : 0;
    const stepY = n > 1 ? (last.top + last.height / 2 - box.top - y0) / (n - 1) : 0;
    const wide = Math.max(1, Math.round(dpr));
    const at = (v) => Math.round(v * dpr - wide / 2);
    const ctx = canvas.getContext("2d");
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = getComputedStyle(this.board).getPropertyValue("--g-line").trim() || "#3b2a10";
    const left = at(x0), right = at(x0 + step * (n - 1)), top = at(y0), bottom = at(y0 + stepY * (n - 1));
    for (let i = 0; i < n; i++) {
      ctx.fillRect(at(x0 + step * i), top, wide, bottom - top + wide);
      ctx.fillRect(left, at(y0 + stepY * i), right - left + wide, wide);
    }
    canvas.dataset.lines = 2 * n;
    canvas.dataset.dpr = dpr;
  }

  /**
   * A candidate's label too wide for its point shrinks to fit it (down to
   * MIN_LABEL px, past which its ring widens into a pill): it always shows
   * what the labels setting picked, never something else in its place.
   */
  squeeze() {
    for (const label of this.board.querySelectorAll(".cand")) {
      label.style.fontSize = "";
      const range = document.createRange();
      range.selectNodeContents(label);
      // The ring's inside: 90% of the point, less its border and padding.
      const css = getComputedStyle(label);
      const inside = parseFloat(css.borderLeftWidth) + parseFloat(css.borderRightWidth) + parseFloat(css.paddingLeft) + parseFloat(css.paddingRight);
      const text = range.getBoundingClientRect().width, room = label.parentElement.clientWidth * 0.9 - inside;
      if (text <= room || !text) continue;
      const font = parseFloat(getComputedStyle(label).fontSize);
      label.style.fontSize = `${Math.max(MIN_LABEL, Math.floor(font * room / text * 2) / 2)}px`;
    }
  }

  /** Lays out an empty board of side `n`; `enter(x, y)` and `leave()` follow the mouse over its points. */
  build(n, enter, leave) {
    const board = this.board;
    this.size = n;
    board.replaceChildren();
    board.dataset.size = n;
    // The coordinates' band: 0.7 of a point, and never too narrow for "20"
    // on small points; the same each way, so points stay square.
    board.style.gridTemplateColumns = `minmax(${COORD_MIN}px, 0.7fr) repeat(${n}, 1fr)`;
    board.style.gridTemplateRows = `repeat(${n}, 1fr) minmax(${COORD_MIN}px, 0.7fr)`;
    board.style.aspectRatio = `${n + 0.7} / ${n + 0.7}`;
    board.classList.toggle("numbers", this.numbers.checked);
    // The grid lines, under the points (drawGrid).
    this.grid = el("canvas", { class: "grid", "aria-hidden": "true" });
    board.append(this.grid);
    const stars = starPoints(n);
    layOut(board, n, (x, y) => {
      const b = el("button", { "data-x": x, "data-y": y, "aria-label": pointName([x, y], n), tabindex: "-1" });
      if (stars.has(key(x, y))) b.classList.add("star");
      b.onclick = () => this.click(x, y);
      if (enter) b.onmouseenter = () => enter(x, y);
      return b;
    }, true);
    board.onmouseleave = leave || null;
    // A point clicked takes no focus, and takes it from whatever had it
    // (the board itself too): after a click the page's keys (stepping
    // through the moves) work as before it; the board's own cursor is for
    // the keyboard, from a Tab into the board.
    board.onmousedown = (e) => {
      if (!e.target.closest("button")) return;
      e.preventDefault();
      const active = document.activeElement;
      if (active && active !== document.body) active.blur();
    };
    board.setAttribute("tabindex", "0");
    board.setAttribute("role", "group");
    board.onkeydown = (e) => this.key(e);
    this.focus = [n >> 1, n >> 1];
    this.showCursor();
    this.fit();
  }

  /** The button of point `p`. */
  button([x, y]) {
    return this.board.querySelector(`button[data-x="${x}"][data-y="${y}"]`);
  }

  showCursor() {
    for (const b of this.board.querySelectorAll("button.cursor")) b.classList.remove("cursor");
    const b = this.button(this.focus);
    if (!b) return;
    b.classList.add("cursor");
    if (!b.id) b.id = `${this.board.id}-${b.dataset.x}-${b.dataset.y}`;
    this.board.setAttribute("aria-activedescendant", b.id);
  }

  key(e) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const n = this.size;
    let [x, y] = this.focus;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      const b = this.button([x, y]);
      if (b && !b.disabled) b.click();
      return;
    }
    if (steps[e.key]) { x += steps[e.key][0]; y += steps[e.key][1]; }
    else if (e.key === "Home") x = 0;
    else if (e.key === "End") x = n - 1;
    else return;
    e.preventDefault();
    e.stopPropagation();
    this.focus = [Math.max(0, Math.min(n - 1, x)), Math.max(0, Math.min(n - 1, y))];
    this.showCursor();
  }

  /**
   * Draws `stones` ([x, y, colour] in order, numbered), the last ringed and
   * the points of `win` highlighted. An empty point shows what `mark(key)`
   * gives ({child, label}: an element, and words after the point's name)
   * if anything, over the colour `heat(key)` gives ({colour, rate, title}:
   * a CSS colour, the win rate it stands for and words) if any; `open(stone)`
   * says whether a point takes a click.
   */
  draw(stones, { win = [], mark = () => null, heat = () => null, open = () => true } = {}) {
    const n = this.size;
    const at = new Map(stones.map(([x, y, c], i) => [key(x, y), { c, i }]));
    const line = new Set(win.map(([x, y]) => key(x, y)));
    for (const b of this.board.querySelectorAll("button")) {
      const p = [Number(b.dataset.x), Number(b.dataset.y)];
      const k = key(...p), st = at.get(k), name = pointName(p, n);
      b.replaceChildren();
      b.classList.toggle("last", !!st && st.i === stones.length - 1);
      b.classList.toggle("win", line.has(k));
      b.dataset.stone = st ? st.c : "";
      const h = st ? null : heat(k);
      b.classList.toggle("heat", !!h);
      if (h) {
        b.style.setProperty("--heat", h.colour);
        b.dataset.heat = h.rate;
        b.title = h.title;
      } else if (b.dataset.heat !== undefined) {
        b.style.removeProperty("--heat");
        delete b.dataset.heat;
        b.removeAttribute("title");
      }
      if (st) {
        b.append(el("span", { class: "stone " + (st.c === "B" ? "b" : "w"), "data-n": st.i + 1 }, String(st.i + 1)));
        b.setAttribute("aria-label", `${name}: ${st.c === "B" ? "black" : "white"} stone ${st.i + 1}`);
      } else {
        const m = mark(k);
        if (m) b.append(m.child);
        b.setAttribute("aria-label", m && m.label ? `${name}: ${m.label}` : name);
      }
      b.disabled = !open(st);
    }
    this.showCursor();
    this.squeeze();
  }
}

/** A small board of `stones` ([x, y, colour] in order) with its grid;
 * `win` lists the points of a winning line to highlight. */
export function miniBoard(stones, attrs = {}, win = [], coords = false, n = 15) {
  const board = el("div", { class: "mini" + (coords ? " coords" : ""), ...attrs });
  const at = new Map(stones.map(([x, y, c], i) => [key(x, y), [c, i]]));
  const line = new Set(win.map(([x, y]) => key(x, y)));
  layOut(board, n, (x, y) => {
    const st = at.get(key(x, y));
    const cell = el("span", { "data-x": x, "data-y": y });
    if (st) {
      cell.className = st[0] === "B" ? "b" : "w";
      cell.dataset.n = st[1] + 1;
      if (st[1] === stones.length - 1) cell.classList.add("last");
      if (line.has(key(x, y))) cell.classList.add("win");
    }
    return cell;
  }, coords);
  board.dataset.stones = stones.length;
  return board;
}
