"""The project's one match runner: fastchess (github.com/Disservin/fastchess, MIT licence), the
tournament manager OpenBench and most engine developers use. Every tool here plays its games
through it: the generations' quick matches and SPRTs, SPSA's iterations and verification,
the `UCI_Elo` calibration, `make sprt`.

Which fastchess: `--fastchess PATH` where a tool takes it, else `$FASTCHESS`, else `fastchess`
on `PATH`, else one built earlier at `/var/tmp/fastchess-bin/fastchess`, else one built there
from the source snapshot in `../shared/tools/fastchess` when that is beside the clone.
Nothing else is needed from outside the repository but openings (and tablebases), by path.

Games are played in pairs (each opening twice, colours swapped: games 2k-1 and 2k), so an
SPRT counts game pairs (pentanomial), and `sprt_pairs.py` keeps them across runs.
"""

import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILT = Path("/var/tmp/fastchess-bin/fastchess")
SNAPSHOT = ROOT.parent / "shared" / "tools" / "fastchess" / "build.sh"

FINISHED = re.compile(r"^Finished game (\d+) \((\S+) vs (\S+)\): (1-0|0-1|1/2-1/2) \{([^}]*)\}", re.M)
GAMES = re.compile(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+)")
ELO = re.compile(r"^Elo: (\S+) \+/- (\S+?),", re.M)
PENTA = re.compile(r"Ptnml\(0-2\): \[([\d, ]+)\]")
LLR = re.compile(r"^LLR: (\S+) ", re.M)
VERDICT = re.compile(r"^SPRT \(.*\) completed - (H[01]) was accepted", re.M)
FORFEITS = ("loses on time", "illegal move", "disconnects", "connection stalls")


def find(path=None):
    """The fastchess binary to use, building it from the snapshot beside the clone when
    none is found (about 3 minutes on 2 cores)."""
    for candidate in (path, os.environ.get("FASTCHESS"), shutil.which("fastchess"), BUILT):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return str(Path(candidate).resolve())
    if path:
        sys.exit(f"no fastchess at {path}")
    if SNAPSHOT.exists():
        print(f"building fastchess into {BUILT} (about 3 minutes)", file=sys.stderr, flush=True)
        subprocess.run([str(SNAPSHOT), str(BUILT)], check=True, stdout=subprocess.DEVNULL)
        return str(BUILT)
    sys.exit("fastchess not found: put it on PATH, set FASTCHESS, or pass --fastchess "
             "(source: github.com/Disservin/fastchess, `make -j`)")


def engine(name, cmd, options=None):
    """fastchess's `-engine` arguments: a name without spaces, the command, UCI options."""
    return ["-engine", f"cmd={cmd}", f"name={name}",
            *[f"option.{k}={v}" for k, v in (options or {}).items()]]


def match(fastchess, engines, openings, seed, rounds, concurrency, tc=None, nodes=None,
          options=None, pgn=None, sprt=None, extra=()):
    """The command of a two-engine match in game pairs: at a clock `tc` ("8+0.08"), or at
    `nodes` a move (with a loose clock as a backstop); `options` go to both engines;
    `sprt` = (elo0, elo1) makes fastchess stop on its own pentanomial SPRT (alpha = beta =
    0.05, normalised Elo as OpenBench's)."""
    limits = [f"tc={tc}"] if tc else ["tc=100+1", f"nodes={nodes}"]
    cmd = [fastchess, *engines, "-each", *limits,
           *[f"option.{k}={v}" for k, v in (options or {}).items()],
           "-openings", f"file={openings}", f"format={Path(openings).suffix.lstrip('.') or 'epd'}",
           "order=random", "-srand", str(seed), "-rounds", str(rounds), "-games", "2", "-repeat",
           "-concurrency", str(concurrency), *extra]
    if pgn:
        # fastchess saves its state (to resume with `-config file=`) beside the games, not
        # as config.json in whatever folder it was started from.
        cmd += ["-pgnout", f"file={pgn}", "-config", f"outname={Path(pgn).with_suffix('.json')}"]
    if sprt:
        cmd += ["-sprt", f"elo0={sprt[0]}", f"elo1={sprt[1]}", "alpha=0.05", "beta=0.05",
                "model=normalized"]
    return [str(c) for c in cmd]


def games(text, name):
    """The finished games of a fastchess output for engine `name`: {game id: its points}."""
    points = {}
    for m in FINISHED.finditer(text):
        white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[m[4]]
        if m[2] == name:
            points[int(m[1])] = white
        elif m[3] == name:
            points[int(m[1])] = 1.0 - white
    return points


def forfeits(text, name):
    """How many games engine `name` lost by time, an illegal move, a crash or a stall."""
    count = 0
    for m in FINISHED.finditer(text):
        colour = "White" if m[2] == name else "Black" if m[3] == name else None
        if colour and m[5].startswith(colour) and any(f in m[5] for f in FORFEITS):
            count += 1
    return count


def score_elo(score):
    """The logistic Elo difference of a score (0 to 1); infinite at 0 and 1."""
    if 0 < score < 1:
        return -400 * math.log10(1 / score - 1)
    return math.copysign(math.inf, score - 0.5)


def summary(text):
    """The last score of a fastchess output, from the first engine's side: games, wins,
    losses, draws, Elo and its error, the pentanomial counts, the LLR and the SPRT's
    verdict when there was one."""
    found = GAMES.findall(text)
    if not found:
        return None
    n, w, l, d = map(int, found[-1])
    elo, penta, ratio, verdict = ELO.findall(text), PENTA.findall(text), LLR.findall(text), VERDICT.findall(text)
    return {"games": n, "w": w, "l": l, "d": d,
            "elo": elo[-1][0] if elo else "?", "err": elo[-1][1] if elo else "?",
            "penta": [int(x) for x in penta[-1].split(",")] if penta else None,
            "llr": float(ratio[-1]) if ratio else None, "verdict": verdict[-1] if verdict else None}


if __name__ == "__main__":
    # `python3 tools/runner.py` prints the fastchess it finds (the Makefile's `sprt` uses it).
    print(find(sys.argv[1] if len(sys.argv) > 1 else None))
