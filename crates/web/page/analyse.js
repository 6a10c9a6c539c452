// Questions to the engine (POST /api/analyse) and what its answers mean:
// the analysis loop that asks again with more time, the evaluation of a
// whole game and its worst moves.
import { api, sleep } from "./common.js";
import { winLine } from "./board.js";

/** The status of an answer refused because the engine's queue of analyses is full. */
const BUSY = 503;
/** The refusal of a client id no open stream holds (its status and the server's line). */
const STALE = 409, STALE_LINE = "client names no open event stream";
/** The status of a position refused (a bad one, or a game already over). */
const BAD = 400;

/** One question to the engine; asked again while its queue is full and `still()` holds. */
export async function askEngine(body, still) {
  for (;;) {
    try {
      return await api("POST", "/api/analyse", body);
    } catch (e) {
      // The page's stream closed since its hello (the server gives the
      // next stream a new id): asked again as a client of its own.
      if (e.status === STALE && body.client && String(e.message).startsWith(STALE_LINE) && still()) {
        body = { ...body, client: undefined };
        continue;
      }
      if (e.status !== BUSY || !still()) throw e;
      await sleep(300);
    }
  }
}

/**
 * The stones in the order the API wants them (black first, alternating),
 * or a one-line reason why the position cannot be asked about.
 */
export function apiStones(stones) {
  const black = stones.filter((s) => s[2] === "B"), white = stones.filter((s) => s[2] === "W");
  const ordered = inTurn(stones, (s) => s[2]);
  if (!ordered) {
    return { error: `black has ${black.length} stones and white ${white.length}: black must have as many as white or one more` };
  }
  return { stones: ordered.map(([x, y]) => [x, y]), toMove: black.length === white.length ? "B" : "W" };
}

/**
 * `items` in the game's order, black's and white's in turn from black,
 * each colour's in the order placed (`colourOf(item)`: "B" or "W"), so
 * that a Swap2 opening placed black, black, white numbers its moves 1, 3
 * and 2 as the game plays them; null where black has neither as many
 * stones as white nor one more.
 */
export function inTurn(items, colourOf) {
  const black = items.filter((s) => colourOf(s) === "B"), white = items.filter((s) => colourOf(s) !== "B");
  if (black.length !== white.length && black.length !== white.length + 1) return null;
  const out = [];
  black.forEach((b, i) => { out.push(b); if (white[i]) out.push(white[i]); });
  return out;
}

/**
 * The chance of winning that a line means for the side to move, as the
 * server gives it (`win_rate`): 1 and 0 when the engine decided it, else
 * its score through the logistic scale the evaluation was fitted with.
 */
export const winChance = (line) => line.win_rate;

/**
 * A win rate (0 to 1) of a score the engine has not proven, as a whole
 * percentage that never says certain: 1% to 99% ("62%"). A proven result
 * is said as one (`verdict`), never as 100% or 0%.
 */
export const rateText = (rate) => `${percent(rate)}%`;
/** A win rate of a score not proven in whole percent, 1 to 99. */
const percent = (rate) => Math.min(99, Math.max(1, Math.round(rate * 100)));

/** What a line (or a thinking report) says for the side to move: a proven result as such ("win in 3"), else its win rate ("62%"). */
export const verdict = (line) => (line.decided ? scoreText(line) : rateText(line.win_rate));

/** What a candidate's label on the board shows, by the labels setting: its rank, its win rate (percent, no sign; a proven result W3 or L4) or its score. */
export function candidateLabel(line, k, what) {
  if (what === "rank") return String(k + 1);
  if (what === "rate") return line.decided ? scoreShort(line) : String(percent(line.win_rate));
  return scoreShort(line);
}

/** A line's score as text: a forced win or loss in plies, or centi-stones with a sign. */
export function scoreText(line) {
  if (line.decided && line.decided.win !== undefined) return `win in ${line.decided.win}`;
  if (line.decided && line.decided.loss !== undefined) return `loss in ${line.decided.loss}`;
  return (line.score > 0 ? "+" : "") + line.score;
}
/** A line's score in a few characters, for the board: W3, L2, +120. */
export const scoreShort = (line) => line.decided ? (line.decided.win !== undefined ? "W" + line.decided.win : "L" + line.decided.loss) : (line.score > 0 ? "+" : "") + line.score;

/**
 * Analyses a position again and again, each time with twice the time (up to
 * 5 s), while `still()` holds: `asking(ms)` before each question,
 * `answered(r)` after it. Ends by itself on a proven result (no more time
 * changes it), or, given a `limit` in milliseconds (0: none), once the
 * questions have taken that long in all; resolves to `{answer, proven}`
 * then, null when stopped. A refusal throws.
 */
export async function keepAnalysing(question, still, { asking, answered }, limit = 0) {
  let ms = 250, spent = 0;
  while (still()) {
    // The last question takes what is left of the limit (the server's least is 10 ms).
    const now = limit ? Math.max(10, Math.min(ms, limit - spent)) : ms;
    asking(now);
    const r = await askEngine({ ...question, ms: now }, still);
    if (!still()) return null;
    answered(r);
    spent += now;
    if (r.lines.length && r.lines[0].decided) return { answer: r, proven: true };
    if (limit && spent >= limit) return { answer: r, proven: false };
    if (r.ms < 100) await sleep(200);
    ms = Math.min(ms * 2, 5000);
  }
  return null;
}

/**
 * Black's winning chance after the first `n` of `moves` ([x, y, colour])
 * on a board of `size` under `rule`, and who has won by force if that is
 * proven: `{black, won}` (`won` "black", "white" or null), or null (no
 * position the engine answers). A five made is decided without asking,
 * and black's stone on a point renju forbids is white's win. `client`
 * names the page to the engine (see thinking.js), if given, `hash` the
 * size of its table (MB) and `threads` its search threads.
 */
export async function evaluate(moves, n, { size, rule, client, hash, threads }, ms, still) {
  const stones = moves.slice(0, n);
  const proven = (won) => ({ black: won === "black" ? 1 : 0, won });
  if (winLine(stones, rule).length) return proven(stones[stones.length - 1][2] === "B" ? "black" : "white");
  const asked = apiStones(stones);
  if (asked.error) return null;
  if (stones.length >= size * size) return { black: 0.5, won: null };
  let r;
  try {
    r = await askEngine({ size, rule, stones: asked.stones, lines: 1, ms, client, hash, threads }, still);
  } catch (e) {
    // Under renju black's last stone may have stood on a forbidden point: white won there.
    if (e.status === BAD && rule === "renju" && await fouled(stones, size)) return proven("white");
    throw e;
  }
  const best = r.lines[0], c = winChance(best);
  const other = r.to_move === "black" ? "white" : "black";
  const won = best.decided ? (best.decided.win !== undefined ? r.to_move : other) : null;
  return { black: r.to_move === "black" ? c : 1 - c, won };
}

/** Whether the last of `stones` is black's on a point renju forbade it (the server says which). */
async function fouled(stones, size) {
  const last = stones[stones.length - 1];
  const before = apiStones(stones.slice(0, -1));
  if (!last || last[2] !== "B" || before.error || before.toMove !== "B") return false;
  const r = await api("POST", "/api/position", { size, rule: "renju", stones: before.stones });
  return r.forbidden.some((f) => f.point[0] === last[0] && f.point[1] === last[1]);
}

/**
 * The worst moves of a reviewed game: move number → the winning chance
 * its player lost, for at most 3 moves each losing 10% or more. `evals`
 * holds black's chance after each number of moves (null: unknown).
 */
export function worstMoves(evals, moves) {
  const marks = new Map();
  const losses = [];
  for (let n = 1; n < evals.length; n++) {
    const before = evals[n - 1], after = evals[n];
    if (before == null || after == null) continue;
    const black = moves[n - 1][2] === "B";
    const lost = black ? before - after : after - before;
    if (lost >= 0.1) losses.push([n, lost]);
  }
  losses.sort((a, b) => b[1] - a[1]);
  for (const [n, lost] of losses.slice(0, 3)) marks.set(n, lost);
  return marks;
}
