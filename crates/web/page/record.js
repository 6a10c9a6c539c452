// Game records: SGF (ours, c-gomoku-cli's, Piskvork's) and Piskvork's PSQ,
// read into games of moves ([x, y, "B"|"W"] in order) and written as SGF;
// an SGF's variations read into a tree of moves and written back as SGF
// keeps them, `(;B[hh];W[ig](;B[ii])(;B[dd]))`; its rule (RU) and comments
// (C, on a move or on the game) read and written too.
// No page in here: node runs it as it is (e2e/record.test.mjs).
/** The largest record read: a file of more bytes, or a text of more characters, is refused. */
export const MAX_RECORD = 1 << 20;

/**
 * The rules an SGF's RU names, by the lower-cased name: ours as we write
 * them, the common English names, and c-gomoku-cli's numbers (Gomocup's
 * rule codes: 0 freestyle, 1 exactly five, 4 renju).
 */
const SGF_RULES = {
  freestyle: "freestyle", free: "freestyle", gomoku: "freestyle", 0: "freestyle",
  exact: "exact", standard: "exact", 1: "exact",
  renju: "renju", 4: "renju",
};
/** A rule as our SGF writes it in RU. */
const SGF_RULE_NAMES = { freestyle: "Freestyle", exact: "Exact", renju: "Renju" };

/**
 * How deep an SGF's variations may nest: a line has at most 400 stones
 * (20x20), so no line branches more often; deeper is refused, not a stack
 * run out.
 */
const MAX_NESTING = 400;

/**
 * The games of an SGF collection: [{size, moves, tree, name, rule, result}], with
 * `moves` the main line, `tree` every variation as a tree of moves
 * ({children}, each {move, children}; the first child the main line), and
 * `rule` and `result` (RE) only where the record names them.
 */
export function parseSgf(text) {
  let i = 0;
  const fail = (why) => { throw new Error(`SGF: ${why} (character ${i + 1})`); };
  const ws = () => { while (i < text.length && /\s/.test(text[i])) i++; };
  const value = () => {
    let v = "";
    for (i++; i < text.length && text[i] !== "]"; i++) v += text[i] === "\\" ? text[++i] ?? "" : text[i];
    if (i >= text.length) fail("a value has no closing ]");
    i++;
    return v;
  };
  const node = () => {
    const props = [];
    for (;;) {
      ws();
      const m = /^[A-Za-z]+/.exec(text.slice(i, i + 16));
      if (!m) return props;
      i += m[0].length;
      ws();
      if (text[i] !== "[") fail(`property ${m[0]} has no value`);
      const values = [];
      while (text[i] === "[") { values.push(value()); ws(); }
      props.push([m[0].toUpperCase(), values]);
    }
  };
  // A game tree: its sequence of nodes, then its variations.
  const tree = (depth) => {
    if (depth > MAX_NESTING) fail("variations nested too deep");
    i++; // (
    const t = { nodes: [], variations: [] };
    for (;;) {
      ws();
      if (i >= text.length) fail("the game has no closing )");
      const c = text[i];
      if (c === ";") {
        if (t.variations.length) fail("a node after the variations of a game tree");
        i++;
        t.nodes.push(node());
      } else if (c === "(") t.variations.push(tree(depth + 1));
      else if (c === ")") { i++; return t; }
      else fail(`unexpected '${c}'`);
    }
  };
  const games = [];
  for (;;) {
    ws();
    if (i >= text.length) break;
    if (text[i] !== "(") fail("a game must start with (;");
    games.push(sgfGame(tree(0), games.length + 1));
  }
  if (!games.length) throw new Error("SGF: no game in the file");
  return games;
}

function sgfGame(game, number) {
  let size = 15;
  const info = {};
  for (const [k, v] of game.nodes[0] || []) info[k] = v[0];
  if (info.SZ !== undefined) {
    const [w, h] = info.SZ.split(":").map(Number);
    if (h !== undefined && h !== w) throw new Error(`game ${number}: the board is ${w}x${h}; only square boards are supported`);
    size = w;
  }
  if (!(size >= 5 && size <= 20)) throw new Error(`game ${number}: board size ${info.SZ} is not supported (5 to 20)`);
  // The stones on the board along the line being read: a point holds one
  // stone in a line, though variations may each put one there.
  const taken = new Set();
  const put = (at, v, c, added) => {
    if (v === "" || (v === "tt" && size <= 19)) return at; // a pass
    const x = v.charCodeAt(0) - 97, y = v.charCodeAt(1) - 97;
    if (v.length !== 2 || !(x >= 0 && x < size && y >= 0 && y < size)) throw new Error(`game ${number}: point [${v}] is off the ${size}x${size} board`);
    if (taken.has(v)) throw new Error(`game ${number}: point [${v}] holds two stones`);
    taken.add(v);
    added.push(v);
    const n = { move: [x, y, c], children: [] };
    at.children.push(n);
    return n;
  };
  // Each variation from where its game tree's sequence ends; its points are
  // free again once it is read.
  // A node's comment goes with the last move it holds (or, holding none,
  // with the move before it: the first node's is the game's).
  const walk = (t, at) => {
    const added = [];
    for (const props of t.nodes) {
      for (const [k, values] of props) {
        if (k === "AB" || k === "AW") for (const v of values) at = put(at, v, k[1], added);
        if (k === "B" || k === "W") at = put(at, values[0], k, added);
      }
      for (const [k, values] of props) {
        if (k === "C" && values[0].trim()) at.comment = at.comment ? `${at.comment}\n${values[0]}` : values[0];
      }
    }
    for (const v of t.variations) walk(v, at);
    for (const v of added) taken.delete(v);
  };
  const root = { children: [] };
  walk(game, root);
  const moves = [];
  for (let n = root; n.children.length; n = n.children[0]) moves.push(n.children[0].move);
  let rule;
  if (info.RU !== undefined) {
    rule = SGF_RULES[info.RU.trim().toLowerCase()];
    // A rule we do not play is said, never read as freestyle.
    if (!rule) throw new Error(`game ${number}: the rule RU[${info.RU.slice(0, 40)}] is not one the page plays (freestyle, exact five, renju)`);
  }
  const names = info.PB || info.PW ? `${info.PB || "?"} (black) – ${info.PW || "?"} (white)` : info.GN || `game ${number}`;
  return { size, moves, tree: root, name: `${names}${info.RE ? ", " + info.RE : ""}`, rule, result: info.RE };
}

/** Piskvork's PSQ: a header `Piskvorky WxH, ...`, then `x,y,time` lines from 1, black first. */
export function parsePsq(text) {
  const lines = text.split(/\r?\n/);
  const m = /^Piskvorky (\d+)x(\d+)/.exec(lines[0]);
  if (!m || m[1] !== m[2]) throw new Error("PSQ: the first line must read Piskvorky NxN (a square board)");
  const size = Number(m[1]);
  if (size < 5 || size > 20) throw new Error(`PSQ: board size ${size} is not supported (5 to 20)`);
  const moves = [];
  for (const line of lines.slice(1)) {
    const p = /^\s*(\d+),(\d+)(,\d+)?\s*$/.exec(line);
    if (!p) break;
    const x = Number(p[1]) - 1, y = Number(p[2]) - 1;
    if (!(x >= 0 && x < size && y >= 0 && y < size)) throw new Error(`PSQ: point ${p[1]},${p[2]} is off the ${size}x${size} board`);
    if (moves.some((q) => q[0] === x && q[1] === y)) throw new Error(`PSQ: point ${p[1]},${p[2]} holds two stones`);
    moves.push([x, y, moves.length % 2 ? "W" : "B"]);
  }
  return [{ size, moves, name: "Piskvork game" }];
}

/** Whether `text` is a game record (an SGF or a PSQ, told by its first characters) rather than moves written as text. */
export const isRecord = (text) => /^\uFEFF?\s*(\(|Piskvorky)/.test(text);

/** The games of a record, SGF or PSQ told by its first characters: [{size, moves, name}]; a bad record throws one line. */
export function parseRecord(text) {
  if (text.length > MAX_RECORD) throw new Error(`the record is over ${MAX_RECORD >> 10} KiB`);
  const t = text.replace(/^\uFEFF/, "").trim();
  if (t.startsWith("(")) return parseSgf(t);
  if (t.startsWith("Piskvorky")) return parsePsq(t);
  throw new Error("not a game record: an SGF starts with (; and a PSQ with Piskvorky");
}

/** A text as an SGF value holds it: `\` and `]` escaped. */
const sgfText = (text) => text.replace(/[\\\]]/g, (c) => "\\" + c);

/**
 * A game on a board of `size` under `rule` as SGF, in the judge's form with
 * the rule as the server writes it: `game` is its moves ([x, y, colour] in
 * order), or a tree of moves as parseSgf reads it ({children}, each
 * {move, children}), written with its variations, the first child the
 * main line.
 */
export function toSgf(size, game, rule = "freestyle") {
  const p = ([x, y]) => String.fromCharCode(97 + x, 97 + y);
  const said = (n) => (n.comment ? `C[${sgfText(n.comment)}]` : "");
  const put = (n) => `;${n.move[2]}[${p(n.move)}]${said(n)}`;
  // A node's moves on: one after another while there is one, then each
  // variation a game tree of its own.
  const on = (n) => {
    let s = "";
    for (; n.children.length === 1; n = n.children[0]) s += put(n.children[0]);
    return s + n.children.map((c) => `(${put(c)}${on(c)})`).join("");
  };
  const moves = Array.isArray(game) ? game.map((m) => put({ move: m })).join("") : on(game);
  const gameComment = Array.isArray(game) ? "" : said(game);
  return `(;FF[4]GM[4]CA[UTF-8]SZ[${size}]RU[${SGF_RULE_NAMES[rule]}]AP[inarow serve analysis]${gameComment}${moves})\n`;
}
