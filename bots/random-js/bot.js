// A random gomoku bot for the inarow judge, for Node.
//
// The judge starts it as `node bot.js OPPONENT SEED` in this folder. All its
// moves come from SEED. It remembers, across games, how many games it has
// played and won against each opponent in memory.json (in its own folder,
// written to a temporary file and renamed so a kill never leaves half a
// file). The memory only feeds a greeting on stderr, so the moves stay a
// function of the seed and tournaments stay reproducible.
"use strict";
const fs = require("fs");
const readline = require("readline");

const opponent = process.argv[process.argv.length - 2];
const seed = process.argv[process.argv.length - 1];
let state = BigInt.asUintN(64, BigInt(seed) ^ 0x9e3779b97f4a7c15n);

// splitmix64: small, seedable, the same on every machine.
function next() {
  state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
  let z = state;
  z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
  z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
  return z ^ (z >> 31n);
}
const below = (n) => Number(next() % BigInt(n));

const MEMORY = "memory.json";
let memory = {};
try {
  memory = JSON.parse(fs.readFileSync(MEMORY, "utf8"));
} catch (e) {
  memory = {};
}
const record = memory[opponent] || { played: 0, won: 0 };
process.stderr.write(`random-js: ${record.played} games, ${record.won} won against ${opponent} so far\n`);

function remember(won) {
  record.played += 1;
  record.won += won ? 1 : 0;
  memory[opponent] = record;
  // Named by the game's seed, not the pid: in the judge's sandbox every bot
  // is pid 2 of its own namespace.
  const tmp = `${MEMORY}.${seed}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(memory, null, 1) + "\n");
  fs.renameSync(tmp, MEMORY);
}

function board(text) {
  const stones = new Set();
  for (const m of text.matchAll(/\(\((\d+),(\d+)\),"[BW]"\)/g)) stones.add(`${m[1]},${m[2]}`);
  return stones;
}

function free(stones, count) {
  const cells = [];
  for (let x = 0; x < 15; x++) for (let y = 0; y < 15; y++) if (!stones.has(`${x},${y}`)) cells.push([x, y]);
  const out = [];
  for (let i = 0; i < count; i++) out.push(cells.splice(below(cells.length), 1)[0]);
  return out;
}

const fmt = (points) => points.map(([x, y]) => `(${x},${y})`).join(" ");

const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const space = line.indexOf(" ");
  const kind = space < 0 ? line : line.slice(0, space);
  const rest = space < 0 ? "" : line.slice(space + 1);
  if (kind === "EXIT") {
    remember(rest.trim() === "random-js");
    rl.close();
    return;
  }
  const stones = board(rest);
  let answer;
  if (kind === "A") answer = fmt(free(stones, 3));
  else if (kind === "B") {
    const form = below(3);
    answer = form === 0 ? "B" : form === 1 ? "W " + fmt(free(stones, 1)) : fmt(free(stones, 2));
  } else if (kind === "C") answer = below(2) === 0 ? "B" : "W";
  else answer = fmt(free(stones, 1));
  process.stdout.write(answer + "\n");
});
