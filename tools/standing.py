"""Where Ladya stands: the README's matches against other engines, played the same way
every time, so that a row of the strength table can be made again by anyone.

    python3 tools/standing.py                       # every opponent found, in order
    python3 tools/standing.py --only ethereal12     # one of them
    python3 tools/standing.py --show                # the table of what has been played

The conditions are the ladder's: 10 s + 0.1 s a game, one thread and Hash 16 each, balanced
openings (`noob_3moves_sample.epd`, each played with both colours), two games at a time,
fastchess (tools/runner.py finds or builds it). The opponents are Debian's `stockfish` held
to `UCI_Elo` 2850 and `ethereal-chess` (`apt-get install stockfish ethereal-chess`), and
the sparring partners that `../shared/tools/anchors/build.sh` compiles (`stash-37`,
`berserk-851`), each where it is installed; one that is not is skipped, and said so.

Each match writes its games, fastchess's state and its output under `--out` (by default
/var/tmp/ladya-standing/<commit>), and `standing.json` there gathers the results. A match
that was stopped (Ctrl-C, the time running out) goes on from fastchess's saved state when
the same command runs again; a finished one is not played twice.
"""

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path

import runner

ROOT = runner.ROOT
OPENINGS = ROOT.parent / "shared" / "data" / "openings" / "noob_3moves_sample.epd"

# name, where to look, UCI options beyond Hash and Threads, games, rating on the ladder
# (Stockfish 15.1's own UCI_Elo scale; None where the ladder has no figure yet).
OPPONENTS = [
    ("sf2850", ["/usr/games/stockfish", "stockfish"],
     {"UCI_LimitStrength": "true", "UCI_Elo": 2850}, 200, 2670),
    ("ethereal12", ["/usr/games/ethereal-chess", "ethereal-chess"], {}, 200, 2500),
    ("stash37", ["/usr/local/bin/stash-37", "stash-37"], {}, 100, 2605),
    ("berserk851", ["/usr/local/bin/berserk-851", "berserk-851"], {}, 100, None),
]


def locate(candidates):
    """The first candidate that is an executable file, by path or on PATH."""
    for c in candidates:
        found = c if Path(c).is_file() else shutil.which(c)
        if found:
            return found
    return None


def play(args, name, cmd, options, games):
    """One match, resumed from fastchess's saved state when there is one; its summary."""
    pgn = args.out / f"{name}.pgn"
    state = pgn.with_suffix(".json")
    log = args.out / f"{name}.log"
    if state.exists():
        command = [args.fastchess, "-config", f"file={state}"]
    else:
        engines = [*runner.engine("ladya", args.engine),
                   *runner.engine(name, cmd, options)]
        command = runner.match(args.fastchess, engines, args.openings, args.seed, games // 2,
                               args.concurrency, tc=args.tc,
                               options={"Hash": 16, "Threads": 1}, pgn=pgn)
    print(f"{name}: {' '.join(map(str, command))}", flush=True)
    with open(log, "a") as out:
        subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=False)
    text = log.read_text()
    score = runner.summary(text)
    if score:
        score["forfeits"] = runner.forfeits(text, "ladya")
    return score


def row(name, result, ladder):
    """The README's row for one finished match: score, Elo difference, where that puts Ladya."""
    w, l, d, n = result["w"], result["l"], result["d"], result["games"]
    percent = 100 * (w + d / 2) / n if n else 0
    try:
        elo = float(result["elo"])
    except ValueError:
        elo = float("nan")
    stands = f"≈ {ladder + round(elo)}" if ladder and abs(elo) < 1000 else "—"
    return (f"| {name} | {percent:.1f}% ({w}-{l}-{d}, {n} games) | {result['elo']} ± {result['err']}"
            f" | {stands} | {result['forfeits']} |")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--engine", default=str(ROOT / "target" / "release" / "ladya"),
                   help="the Ladya binary (default: target/release/ladya, built by cargo)")
    p.add_argument("--only", nargs="+", choices=[o[0] for o in OPPONENTS], help="these opponents only")
    p.add_argument("--games", type=int, help="games a match, instead of each opponent's default")
    p.add_argument("--tc", default="10+0.1")
    p.add_argument("--seed", type=int, default=2030, help="fastchess's -srand: the openings drawn")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", type=Path, default=OPENINGS)
    p.add_argument("--out", type=Path, help="where the games go (default /var/tmp/ladya-standing/<commit>)")
    p.add_argument("--fastchess", help="fastchess binary (default: as tools/runner.py finds it)")
    p.add_argument("--show", action="store_true", help="print the table of the matches played")
    args = p.parse_args()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "unknown"
    args.out = args.out or Path("/var/tmp/ladya-standing") / commit
    args.out.mkdir(parents=True, exist_ok=True)
    record_path = args.out / "standing.json"
    record = json.loads(record_path.read_text()) if record_path.exists() else {}

    if not args.show:
        if not Path(args.engine).is_file():
            sys.exit(f"no engine at {args.engine}: cargo build --release first")
        if not args.openings.is_file():
            sys.exit(f"no openings at {args.openings}: pass --openings FILE.epd")
        args.fastchess = runner.find(args.fastchess)
        for name, where, options, games, _ in OPPONENTS:
            if args.only and name not in args.only:
                continue
            wanted = args.games or games
            done = record.get(name, {})
            if done.get("games", 0) >= wanted:
                print(f"{name}: already played ({done['games']} games)")
                continue
            if done and done.get("planned") != wanted:
                sys.exit(f"{name}: {args.out} holds a match of {done.get('planned')} games, not "
                         f"{wanted}: pass another --out")
            cmd = locate(where)
            if not cmd:
                print(f"{name}: not installed (looked for {', '.join(where)}), skipped")
                continue
            score = play(args, name, cmd, options, wanted)
            if score:
                record[name] = {**score, "planned": wanted, "engine": args.engine, "tc": args.tc, "seed": args.seed}
                record_path.write_text(json.dumps(record, indent=1) + "\n")

    print(f"\nLadya at {commit}, {args.tc}, Hash 16, one thread each ({record_path}):\n")
    print("| opponent | score | Elo difference | Ladya on the ladder | Ladya's forfeits |")
    print("|---|---|---|---|---|")
    for name, _, _, _, ladder in OPPONENTS:
        if name in record:
            print(row(name, record[name], ladder))


if __name__ == "__main__":
    main()
