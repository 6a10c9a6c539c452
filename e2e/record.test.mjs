// Unit tests of the page's game records (crates/web/page/record.js), run in
// node as the browser runs the file: SGF collections, variations, set-up
// stones, passes and escapes; variations read as a tree of moves; PSQ;
// refusals in one line; SGF written back; rules read and written (RU).
// (e2e/tree.test.mjs writes and reads back the board's tree of moves.)
import { readFileSync } from "node:fs";
import { assert, test } from "./harness.mjs";

const source = readFileSync(new URL("../crates/web/page/record.js", import.meta.url), "utf8");
const { parseRecord, parsePsq, parseSgf, toSgf, MAX_RECORD } =
  await import("data:text/javascript," + encodeURIComponent(source));

const same = (got, want, what) => assert(JSON.stringify(got) === JSON.stringify(want), `${what}: ${JSON.stringify(got)}`);
const refusal = (text) => { try { parseRecord(text); } catch (e) { return e.message; } return null; };

test("records: SGF main lines, set-up stones, passes, escapes and names", async () => {
  const [g] = parseSgf("(;FF[4]SZ[9]PB[a\\]b]PW[c]RE[B+]AB[aa][bb]AW[cc];W[dd];B[];W[ee](;B[ff])(;B[gg]))");
  same(g.size, 9, "size");
  same(g.moves, [[0, 0, "B"], [1, 1, "B"], [2, 2, "W"], [3, 3, "W"], [4, 4, "W"], [5, 5, "B"]], "moves of the main line");
  same(g.name, "a]b (black) – c (white), B+", "name");
  const games = parseSgf("(;SZ[15];B[hh])\n(;GN[second];B[aa];W[tt])");
  same(games.map((x) => [x.name, x.moves.length]), [["game 1", 1], ["second", 1]], "a collection, tt a pass");
  same(parseSgf("(;SZ[20];B[tt])")[0].moves, [[19, 19, "B"]], "tt a point on 20x20");
});

test("records: SGF variations read as a tree of moves, each line on its own board", async () => {
  // Sabaki's and Gomocalc's nesting: a variation inside a variation, one at the first move.
  const [g] = parseSgf("(;FF[4]SZ[15](;B[hh];W[ii](;B[jj](;W[kk])(;W[ll]))(;B[gg];W[jj]))(;B[aa]))");
  const lines = [];
  const walk = (n, line) => {
    if (!n.children.length) lines.push(line.join(" "));
    for (const c of n.children) walk(c, [...line, c.move.join(",")]);
  };
  walk(g.tree, []);
  same(lines, ["7,7,B 8,8,W 9,9,B 10,10,W", "7,7,B 8,8,W 9,9,B 11,11,W", "7,7,B 8,8,W 6,6,B 9,9,W", "0,0,B"], "every line");
  same(g.moves, [[7, 7, "B"], [8, 8, "W"], [9, 9, "B"], [10, 10, "W"]], "the main line: each first variation");
  // A point taken in one variation is free in another (jj above); set-up stones and passes in a variation.
  const [h] = parseSgf("(;SZ[9]AB[aa];W[bb](;B[];W[cc])(;AW[dd][ee]))");
  same(h.tree.children[0].children[0].children.map((c) => c.move), [[2, 2, "W"], [3, 3, "W"]], "a pass skipped, set-up stones as moves");
  same(h.moves, [[0, 0, "B"], [1, 1, "W"], [2, 2, "W"]], "its main line");
});

test("records: PSQ, told apart from SGF by its first line", async () => {
  const [g] = parseRecord("\uFEFFPiskvorky 15x15, 11:11, 0\r\n8,8,0\r\n9,9,120\r\n8,9\r\n-1\r\nbrain.exe\r\n");
  same(g, { size: 15, moves: [[7, 7, "B"], [8, 8, "W"], [7, 8, "B"]], name: "Piskvork game" }, "PSQ game");
  same(parsePsq("Piskvorky 5x5\n")[0].moves, [], "no moves");
});

test("records: bad records are refused in one line", async () => {
  for (const [text, want] of [
    ["(;SZ[15];B[hh];W[hh])", "game 1: point [hh] holds two stones"],
    ["(;SZ[15];B[zz])", "point [zz] is off the 15x15 board"],
    ["(;SZ[15:13])", "only square boards are supported"],
    ["(;SZ[4])", "board size 4 is not supported (5 to 20)"],
    ["(;SZ[15];B[hh", "a value has no closing ]"],
    ["(;SZ[15];B", "property B has no value"],
    ["(;B[aa]) x", "a game must start with (;"],
    ["(;SZ[15]" + "(;B[aa]".repeat(401), "variations nested too deep"],
    ["(;SZ[15];B[hh](;W[ii]);B[jj])", "a node after the variations of a game tree (character 23)"],
    ["(;SZ[15];B[hh](;W[ii])(;W[jj];B[hh]))", "game 1: point [hh] holds two stones"],
    ["Piskvorky 15x13\n1,1", "PSQ: the first line must read Piskvorky NxN"],
    ["Piskvorky 21x21\n", "PSQ: board size 21 is not supported"],
    ["Piskvorky 15x15\n16,1,0\n", "PSQ: point 16,1 is off the 15x15 board"],
    ["Piskvorky 15x15\n1,1,0\n1,1,0\n", "PSQ: point 1,1 holds two stones"],
    ["hello", "not a game record"],
    ["(;" + " ".repeat(MAX_RECORD) + ")", "the record is over 1024 KiB"],
  ]) {
    const why = refusal(text);
    assert(why !== null && why.includes(want) && !why.includes("\n"), `${text.slice(0, 40)}: ${why}`);
  }
});

test("records: the board written as SGF reads back as the same game under the same rule", async () => {
  const moves = [[7, 7, "B"], [8, 7, "W"], [19, 0, "B"]];
  const sgf = toSgf(20, moves);
  assert(sgf.startsWith("(;FF[4]GM[4]CA[UTF-8]SZ[20]RU[Freestyle]AP[inarow serve analysis];B[hh];W[ih];B[ta])"), sgf);
  same(parseRecord(sgf)[0].moves, moves, "read back");
  for (const [rule, written] of [["freestyle", "RU[Freestyle]"], ["exact", "RU[Exact]"], ["renju", "RU[Renju]"]]) {
    const text = toSgf(15, moves.slice(0, 2), rule);
    assert(text.includes(`SZ[15]${written}AP[`), text);
    same(parseRecord(text)[0].rule, rule, `${rule} read back`);
  }
});

test("records: an SGF's rule, by name in any case or by Gomocup's number; an unknown rule refused", async () => {
  for (const [ru, rule] of [
    ["Renju", "renju"], ["RENJU", "renju"], [" renju ", "renju"], ["4", "renju"],
    ["Freestyle", "freestyle"], ["gomoku", "freestyle"], ["0", "freestyle"],
    ["Exact", "exact"], ["standard", "exact"], ["1", "exact"],
  ]) {
    same(parseSgf(`(;FF[4]SZ[15]RU[${ru}];B[hh])`)[0].rule, rule, `RU[${ru}]`);
  }
  same(parseSgf("(;SZ[15];B[hh])")[0].rule, undefined, "no RU: no rule");
  for (const ru of ["caro", "8", "Swap2 renju", ""]) {
    const why = refusal(`(;FF[4]SZ[15]RU[${ru}];B[hh])`);
    assert(why === `game 1: the rule RU[${ru}] is not one the page plays (freestyle, exact five, renju)`, `RU[${ru}]: ${why}`);
  }
});

test("records: comments read with their move (the first node's the game's), written back escaped, and the result kept", async () => {
  const [g] = parseSgf("(;FF[4]SZ[15]RE[W+]C[the game];B[hh]C[centre];W[ii]C[a \\] and a \\\\](;B[jj];W[kk]C[main])(;B[gg]C[side]))");
  same([g.tree.comment, g.tree.children[0].comment, g.tree.children[0].children[0].comment], ["the game", "centre", "a ] and a \\"], "comments");
  const [main, side] = g.tree.children[0].children[0].children;
  same([main.comment, main.children[0].comment, side.comment], [undefined, "main", "side"], "the variations' comments");
  same(g.result, "W+", "the result");
  const text = toSgf(15, g.tree, "freestyle");
  assert(text.includes("AP[inarow serve analysis]C[the game];B[hh]C[centre];W[ii]C[a \\] and a \\\\](;B[jj];W[kk]C[main])(;B[gg]C[side]))"), text);
  const [back] = parseSgf(text);
  same(back.tree.children[0].children[0].comment, "a ] and a \\", "read back");
  // A node with a comment and no move: with the move before it.
  const [h] = parseSgf("(;SZ[15];B[hh];C[after black's first])");
  same(h.tree.children[0].comment, "after black's first", "a comment alone");
});
