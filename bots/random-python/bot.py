#!/usr/bin/env python3
"""A random gomoku bot for the inarow judge.

The judge starts it as `python3 bot.py OPPONENT SEED` in this folder and
talks to it one line at a time (see docs/judge.md). All randomness comes from
SEED, so the same seed gives the same game.
"""
import random
import re
import sys

seed = int(sys.argv[-1])
rng = random.Random(seed)
STONE = re.compile(r'\(\((\d+),(\d+)\),"([BW])"\)')


def board(text):
    return {(int(x), int(y)): c for x, y, c in STONE.findall(text)}


def free(stones, count):
    cells = [(x, y) for x in range(15) for y in range(15) if (x, y) not in stones]
    return rng.sample(cells, count)


def fmt(points):
    return " ".join("(%d,%d)" % p for p in points)


for line in sys.stdin:
    kind, _, rest = line.strip().partition(" ")
    if kind == "EXIT":
        break
    stones = board(rest)
    if kind == "A":
        answer = fmt(free(stones, 3))
    elif kind == "B":
        answer = rng.choice(["B", "W " + fmt(free(stones, 1)), fmt(free(stones, 2))])
    elif kind == "C":
        answer = rng.choice("BW")
    else:
        answer = fmt(free(stones, 1))
    print(answer, flush=True)
