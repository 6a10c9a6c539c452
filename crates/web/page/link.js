// A link for every position of the analysis board: the page's address
// holds the rule, the size and the moves, `#/analysis?rule=renju&size=15&moves=h8i9j10`
// (points named as the board names them, column letter then row from 1 at
// the bottom, run together); a position whose colours are not a game in
// turn from black holds its stones by colour, `black=h8i9&white=j10`.
// No page in here: node runs it as it is (e2e/link.test.mjs).

/** The rules a link may name. */
export const RULES = ["freestyle", "exact", "renju"];
/** The least and largest board side. */
export const MIN_SIZE = 5, MAX_SIZE = 20;
const COLS = "abcdefghijklmnopqrst";
/** Where the analysis board's links start. */
const ROUTE = "#/analysis";

/**
 * The address of a position: `rule`, `size`, and either `moves` (point
 * names in the order played, black first) or `black` and `white` (point
 * names by colour).
 */
export function positionLink({ rule, size, moves, black, white }) {
  const join = (names) => names.join("");
  const stones = moves ? `moves=${join(moves)}` : `black=${join(black)}&white=${join(white)}`;
  return `${ROUTE}?rule=${rule}&size=${size}&${stones}`;
}

/** The column and row of point name `name` on a board of side `n` as [x, y] from the top left, or null off the board. */
function pointOf(name, n) {
  const x = COLS.indexOf(name[0]), row = Number(name.slice(1));
  return x >= 0 && x < n && row >= 1 && row <= n ? [x, n - row] : null;
}

/**
 * The point names run together in `text` (`h8i9j10`), or a line naming the
 * first that is not one; `what` names the field in the line.
 */
function splitNames(text, what) {
  const names = [];
  const re = /[a-z](?:[1-9][0-9]?)/y;
  while (re.lastIndex < text.length) {
    const at = re.lastIndex;
    const m = re.exec(text);
    if (!m) return { error: `${what}: "${text.slice(at, at + 8)}" at point ${names.length + 1} is not a point such as h8` };
    names.push(m[0]);
  }
  return { names };
}

/**
 * What an address (`location.hash`) asks of the analysis board: null when
 * it is not a link to it (no hash, or another); else `{rule, size, moves}`
 * or `{rule, size, black, white}` (moves as [x, y] from the top left), or
 * `{error}`, one line naming what is wrong, with `rule` and `size` where
 * those were good. A missing rule is freestyle, a missing size 15, missing
 * moves none.
 */
export function readLink(hash) {
  if (hash !== ROUTE && !hash.startsWith(ROUTE + "?")) return null;
  const params = new URLSearchParams(hash.slice(ROUTE.length + 1));
  const out = {};
  const bad = (why) => ({ error: `bad link: ${why}`, rule: out.rule, size: out.size });
  const seen = new Set();
  for (const k of params.keys()) {
    if (!["rule", "size", "moves", "black", "white"].includes(k)) return bad(`unknown field "${k}" (fields: rule, size, moves, or black and white)`);
    if (seen.has(k)) return bad(`${k} is given twice`);
    seen.add(k);
  }
  const rule = params.has("rule") ? params.get("rule").toLowerCase() : "freestyle";
  if (!RULES.includes(rule)) return bad(`unknown rule "${params.get("rule")}" (rules: ${RULES.join(", ")})`);
  out.rule = rule;
  const sizeText = params.has("size") ? params.get("size") : "15";
  const size = /^[0-9]{1,3}$/.test(sizeText) ? Number(sizeText) : NaN;
  if (!(size >= MIN_SIZE && size <= MAX_SIZE)) return bad(`size must be ${MIN_SIZE} to ${MAX_SIZE}, not "${sizeText}"`);
  out.size = size;
  const byColour = params.has("black") || params.has("white");
  if (byColour && params.has("moves")) return bad("give moves, or black and white, not both");
  const fields = byColour ? ["black", "white"] : ["moves"];
  const taken = new Map();
  for (const f of fields) {
    const split = splitNames((params.get(f) || "").toLowerCase(), f);
    if (split.error) return bad(split.error);
    const points = [];
    for (const [i, name] of split.names.entries()) {
      const p = pointOf(name, size);
      const which = `${f}: point ${i + 1}, ${name}`;
      if (!p) return bad(`${which}, is off the ${size}x${size} board: columns are a to ${COLS[size - 1]} and rows 1 to ${size}`);
      if (taken.has(name)) return bad(`${which}, is taken twice (${taken.get(name)})`);
      taken.set(name, `${f} point ${i + 1}`);
      points.push(p);
    }
    out[f] = points;
  }
  return out;
}
