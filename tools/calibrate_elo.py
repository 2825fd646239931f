#!/usr/bin/env python3
"""Calibrates UCI_Elo on Stockfish 15.1's scale: plays Ladya at UCI_Elo X against Stockfish
at UCI_Elo X for each X, and fits the table `CALIBRATION` in src/search/strength.rs that maps
a setting to the strength the engine plays at (on strength.rs's own scale), so that each
setting scores near 50%.

Usage: tools/calibrate_elo.py [--engine target/release/ladya] [--games 60]
           [--levels 1400,1700,2000,2300,2600] [--tc 10+0.1] [--concurrency 2]
       tools/calibrate_elo.py --fit-only            (no games: refit the record)
       ... --apply                                  (also writes the table into strength.rs)
Needs fastchess (tools/runner.py finds it) and Debian's stockfish (/usr/games/stockfish).

Every level played is kept in tools/calibration/record.json, under the network it was
played with (the sha-256 of `--net`, by default nets/default.nnue, which the build embeds),
as soon as its match ends. The fit uses every recorded point of that network, from every
pass: a few dozen games leave about ±120 Elo on each point, so a table read point by point
chases the noise, and a least-squares line through all of them (weighted by games) does
not. Each setting is read off the line. With fewer than two distinct points the table is
read off the measured points instead (slope 1 beyond them).
Prints the table of docs/playing-weaker.md and the new CALIBRATION lines; rerun after every
change of strength (a new network moves the scale: its points start a new fit).
"""
import argparse
import datetime
import hashlib
import json
import os
import re
import subprocess
import sys

import runner

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OPENINGS = os.path.join(ROOT, "..", "shared", "data", "openings", "noob_3moves_sample.epd")
STRENGTH_RS = os.path.join(ROOT, "src", "search", "strength.rs")
RECORD = os.path.join(HERE, "calibration", "record.json")
NET = os.path.join(ROOT, "nets", "default.nnue")
TABLE = re.compile(r"(CALIBRATION: \[\(u32, u32\); )\d+(\] = \[)(.*?)(\];)", re.S)


def current_table():
    """The (setting, internal) pairs of CALIBRATION in strength.rs."""
    block = TABLE.search(open(STRENGTH_RS).read()).group(3)
    return [(int(a), int(b)) for a, b in re.findall(r"\((\d+), (\d+)\)", block)]


def full_strength_elo():
    """strength.rs's FULL_STRENGTH_ELO: the table's last setting."""
    return int(re.search(r"FULL_STRENGTH_ELO: u32 = (\d+);", open(STRENGTH_RS).read()).group(1))


def interpolate(table, x):
    if x <= table[0][0]:
        return table[0][1]
    for (x0, y0), (x1, y1) in zip(table, table[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return table[-1][1]


def net_id(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def load_record():
    if not os.path.exists(RECORD):
        return {"points": []}
    with open(RECORD) as f:
        return json.load(f)


def save_point(point):
    """Appends one played level to the record at once, so an interrupted pass keeps it."""
    record = load_record()
    record["points"].append(point)
    os.makedirs(os.path.dirname(RECORD), exist_ok=True)
    with open(RECORD, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


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


def played_at(point):
    """The Stockfish Elo the point's strength played at: its opponent's plus the result."""
    n = point["w"] + point["l"] + point["d"]
    # A clean sweep is read as 99%, so that one lopsided level cannot throw the fit to infinity.
    score = min(max((point["w"] + point["d"] / 2) / n, 0.01), 0.99)
    return point["setting"] + runner.score_elo(score)


def fit_line(points):
    """(a, b) of played = a + b × internal, least squares weighted by games; None where the
    points do not span two strengths or the line does not rise."""
    xs = [(p["internal"], played_at(p), p["w"] + p["l"] + p["d"]) for p in points]
    total = sum(n for *_, n in xs)
    mx = sum(x * n for x, _, n in xs) / total
    my = sum(y * n for _, y, n in xs) / total
    sxx = sum(n * (x - mx) ** 2 for x, _, n in xs)
    if sxx == 0:
        return None
    b = sum(n * (x - mx) * (y - my) for x, y, n in xs) / sxx
    return (my - b * mx, b) if b > 0 else None


def invert(measured, target):
    """The internal strength that plays at `target`, read off the measured curve
    (internal, played) by piecewise-linear interpolation; beyond its ends the curve is
    continued with slope 1. The curve is made monotone first."""
    monotone = []
    for internal, played in sorted(measured):
        if monotone and played <= monotone[-1][1]:
            played = monotone[-1][1] + 1
        monotone.append((internal, played))
    if target <= monotone[0][1]:
        return monotone[0][0] + target - monotone[0][1]
    for (i0, p0), (i1, p1) in zip(monotone, monotone[1:]):
        if target <= p1:
            return i0 + (i1 - i0) * (target - p0) / (p1 - p0)
    return monotone[-1][0] + target - monotone[-1][1]


def new_table(points, settings):
    """The fitted (setting, internal) pairs, and a line describing how they were read."""
    line = fit_line(points)
    if line:
        a, b = line
        how = f"least-squares line over {len(points)} points: Stockfish = {a:.0f} + {b:.3f} × internal"
        return [(s, max(round((s - a) / b), 1)) for s in settings], how
    measured = [(p["internal"], played_at(p)) for p in points]
    return ([(s, max(round(invert(measured, s)), 1)) for s in settings],
            "read off the measured points (too few for a line)")


def apply(table):
    """Writes `table` into strength.rs's CALIBRATION (its settings may change too)."""
    text = open(STRENGTH_RS).read()
    body = "".join(f"\n    ({s}, {i})," for s, i in table) + "\n"
    text = TABLE.sub(lambda m: f"{m[1]}{len(table)}{m[2]}{body}{m[4]}", text, count=1)
    with open(STRENGTH_RS, "w") as f:
        f.write(text)


def print_points(points):
    print("\n| setting | plays at (module's scale) | games | W-L-D | score | plays at (Stockfish's) |")
    print("|---|---|---|---|---|---|")
    for p in points:
        n = p["w"] + p["l"] + p["d"]
        score = (p["w"] + p["d"] / 2) / n
        print(f"| {p['setting']} | {p['internal']} | {n} | {p['w']}-{p['l']}-{p['d']} | "
              f"{100 * score:.1f}% | {played_at(p):.0f} |")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "ladya"))
    p.add_argument("--net", default=NET, help="the network the engine embeds (names the record's points)")
    p.add_argument("--stockfish", default="/usr/games/stockfish")
    p.add_argument("--games", type=int, default=60)
    p.add_argument("--levels", default="1400,1700,2000,2300,2600")
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default=OPENINGS, help="an EPD (or PGN) book of openings")
    p.add_argument("--fastchess", help="fastchess binary (default: as tools/runner.py finds it)")
    p.add_argument("--fit-only", action="store_true", help="play nothing: refit the recorded points")
    p.add_argument("--apply", action="store_true", help="write the fitted table into strength.rs")
    args = p.parse_args()
    net = net_id(args.net)
    table = current_table()
    if not args.fit_only:
        args.fastchess = runner.find(args.fastchess)
        for level in map(int, args.levels.split(",")):
            w, l, d, forfeits = play(args, level)
            point = {"net": net, "setting": level, "internal": round(interpolate(table, level)),
                     "w": w, "l": l, "d": d, "forfeits": forfeits, "tc": args.tc,
                     "date": datetime.date.today().isoformat()}
            save_point(point)
            n = w + l + d
            print(f"UCI_Elo {level}: {w}-{l}-{d}, {100 * (w + d / 2) / n:.1f}%, "
                  f"plays at {played_at(point):.0f}; forfeits {forfeits}", flush=True)
    points = [p for p in load_record()["points"] if p["net"] == net]
    if not points:
        sys.exit(f"no recorded points for network {net}: play some levels first")
    print_points(points)
    settings = sorted({s for s, _ in table} | {full_strength_elo()})
    fitted, how = new_table(points, settings)
    print(f"\nNew CALIBRATION for src/search/strength.rs (setting, strength played), {how}:")
    for s, i in fitted:
        print(f"    ({s}, {i}),")
    if args.apply:
        apply(fitted)
        print(f"written into {os.path.relpath(STRENGTH_RS, ROOT)}")


if __name__ == "__main__":
    main()
