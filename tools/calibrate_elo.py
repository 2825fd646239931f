#!/usr/bin/env python3
"""Calibrates UCI_Elo on Stockfish 15.1's scale: plays Ladya at UCI_Elo X against Stockfish
at UCI_Elo X for each X, and fits the table `CALIBRATION` in src/search/strength.rs that maps
a setting to the strength the engine plays at, so that each setting scores near 50%.

Usage: tools/calibrate_elo.py [--engine target/release/ladya] [--games 60]
           [--levels 1400,1700,2000,2300,2600] [--tc 10+0.1] [--concurrency 2]
Needs fastchess (tools/runner.py finds it) and Debian's stockfish (/usr/games/stockfish).
Prints the table of docs/playing-weaker.md and the new CALIBRATION lines; rerun after every change of strength.
"""
import argparse
import math
import os
import re
import subprocess
import sys

import runner

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "noob_3moves_sample.epd")
STRENGTH_RS = os.path.join(ROOT, "src", "search", "strength.rs")


def current_table():
    """The (setting, internal) pairs of CALIBRATION in strength.rs."""
    text = open(STRENGTH_RS).read()
    block = re.search(r"CALIBRATION: \[\(u32, u32\); \d+\] = \[(.*?)\];", text, re.S).group(1)
    return [(int(a), int(b)) for a, b in re.findall(r"\((\d+), (\d+)\)", block)]


def interpolate(table, x):
    if x <= table[0][0]:
        return table[0][1]
    for (x0, y0), (x1, y1) in zip(table, table[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return table[-1][1]


def play(args, level):
    pgn = f"/tmp/ladya-calibrate-{level}.pgn"
    weak = {"UCI_LimitStrength": "true", "UCI_Elo": level}
    name = f"ladya{level}"
    cmd = runner.match(args.fastchess, [*runner.engine(name, args.engine, weak),
                                        *runner.engine(f"sf{level}", args.stockfish, {**weak, "Threads": 1})],
                       args.openings, level, (args.games + 1) // 2, args.concurrency, tc=args.tc,
                       options={"Hash": 16}, pgn=pgn)
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    score = runner.summary(out)
    if not score:
        sys.exit(f"match at {level} failed:\n{out[-2000:]}")
    return score["w"], score["l"], score["d"], runner.forfeits(out, name)


def invert(measured, target):
    """The internal strength that plays at `target`, read off the measured curve
    (internal, played) by piecewise-linear interpolation; beyond its ends the curve is
    continued with slope 1. The curve is made monotone first, because a few dozen games
    per point leave noise of ±50 Elo or more."""
    points = sorted(measured)
    monotone = []
    for internal, played in points:
        if monotone and played <= monotone[-1][1]:
            played = monotone[-1][1] + 1
        monotone.append((internal, played))
    if target <= monotone[0][1]:
        return monotone[0][0] + target - monotone[0][1]
    for (i0, p0), (i1, p1) in zip(monotone, monotone[1:]):
        if target <= p1:
            return i0 + (i1 - i0) * (target - p0) / (p1 - p0)
    return monotone[-1][0] + target - monotone[-1][1]


def elo(score):
    score = min(max(score, 0.01), 0.99)
    return -400 * math.log10(1 / score - 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "ladya"))
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--levels", default="1400,1700,2000,2300,2600")
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default=OPENINGS, help="an EPD (or PGN) book of openings")
    p.add_argument("--fastchess", help="fastchess binary (default: as tools/runner.py finds it)")
    args = p.parse_args()
    args.fastchess = runner.find(args.fastchess)
    table = current_table()
    rows, measured = [], []
    for level in map(int, args.levels.split(",")):
        w, l, d, forfeits = play(args, level)
        n = w + l + d
        score = (w + d / 2) / n
        diff = elo(score)
        rows.append((level, n, w, l, d, score, diff, forfeits))
        # The engine at this setting plays about `diff` above the target: ask it for that
        # much less (a linear step on the current table).
        # The engine asked for `internal` plays at about `level + diff`.
        measured.append((interpolate(table, level), level + diff))
        print(f"UCI_Elo {level}: {w}-{l}-{d}, {100 * score:.1f}%, {diff:+.0f} Elo; forfeits {forfeits}",
              flush=True)
    print("\n| setting | opponent | games | W-L-D | score | Elo difference |")
    print("|---|---|---|---|---|---|")
    for level, n, w, l, d, score, diff, _ in rows:
        print(f"| {level} | Stockfish 15.1 `UCI_Elo={level}` | {n} | {w}-{l}-{d} | "
              f"{100 * score:.1f}% | {diff:+.0f} |")
    print("\nNew CALIBRATION for src/search/strength.rs (setting, strength played):")
    for level in sorted({lv for lv, *_ in rows}):
        print(f"    ({level}, {max(round(invert(measured, level)), 1)}),")


if __name__ == "__main__":
    main()
