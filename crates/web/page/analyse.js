// Questions to the engine (POST /api/analyse) and what its answers mean:
// the analysis loop that asks again with more time, the evaluation of a
// whole game and its worst moves.
import { api, sleep } from "./common.js";
import { winLine } from "./board.js";

/** The status of an answer refused because the engine's queue of analyses is full. */
const BUSY = 503;
/** The status of a position refused (a bad one, or a game already over). */
const BAD = 400;

/** One question to the engine; asked again while its queue is full and `still()` holds. */
export async function askEngine(body, still) {
  for (;;) {
    try {
      return await api("POST", "/api/analyse", body);
    } catch (e) {
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
  if (black.length !== white.length && black.length !== white.length + 1) {
    return { error: `black has ${black.length} stones and white ${white.length}: black must have as many as white or one more` };
  }
  const out = [];
  black.forEach((b, i) => { out.push([b[0], b[1]]); if (white[i]) out.push([white[i][0], white[i][1]]); });
  return { stones: out, toMove: black.length === white.length ? "B" : "W" };
}

/**
 * The chance of winning that a line means for the side to move, as the
 * server gives it (`win_rate`): 1 and 0 when the engine decided it, else
 * its score through the logistic scale the evaluation was fitted with.
 */
export const winChance = (line) => line.win_rate;

/** A win rate (0 to 1) as a whole percentage: "62%". */
export const rateText = (rate) => `${Math.round(rate * 100)}%`;

/** What a candidate's label on the board shows, by the labels setting: its rank, its win rate (percent, no sign) or its score. */
export function candidateLabel(line, k, what) {
  if (what === "rank") return String(k + 1);
  if (what === "rate") return String(Math.round(line.win_rate * 100));
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
 * changes it), which it returns; a refusal throws.
 */
export async function keepAnalysing(question, still, { asking, answered }) {
  let ms = 250;
  while (still()) {
    asking(ms);
    const r = await askEngine({ ...question, ms }, still);
    if (!still()) return null;
    answered(r);
    if (r.lines.length && r.lines[0].decided) return r;
    if (r.ms < 100) await sleep(200);
    ms = Math.min(ms * 2, 5000);
  }
  return null;
}

/**
 * Black's winning chance after the first `n` of `moves` ([x, y, colour])
 * on a board of `size` under `rule`, or null (no position the engine
 * answers): a five made is decided without asking, and black's stone on a
 * point renju forbids is a loss. `client` names the page to the engine
 * (see thinking.js), if given.
 */
export async function evaluate(moves, n, { size, rule, client }, ms, still) {
  const stones = moves.slice(0, n);
  if (winLine(stones, rule).length) return stones[stones.length - 1][2] === "B" ? 1 : 0;
  const asked = apiStones(stones);
  if (asked.error) return null;
  if (stones.length >= size * size) return 0.5;
  let r;
  try {
    r = await askEngine({ size, rule, stones: asked.stones, lines: 1, ms, client }, still);
  } catch (e) {
    // Under renju black's last stone may have stood on a forbidden point: white won there.
    if (e.status === BAD && rule === "renju" && await fouled(stones, size)) return 0;
    throw e;
  }
  const c = winChance(r.lines[0]);
  return r.to_move === "black" ? c : 1 - c;
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
