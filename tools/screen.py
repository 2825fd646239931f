#!/usr/bin/env python3
"""A search change's first screen: commit REV against another commit (its parent unless
`--base` says otherwise) at a fixed number of nodes a move, before any clock SPRT.

    python3 tools/screen.py REV                        # 800 games at 10,000 nodes, against REV^
    python3 tools/screen.py REV --base main --games 1600 --seed 7 --net nets/default.nnue

At a fixed number of nodes a game takes about a tenth of the CPU of one at 8+0.08 (800
adjudicated games in about 10 minutes on two cores), and both sides search the same number
of nodes whatever else the machine is doing, so a screen may share the CPU with other work.
It sees what a change does to the tree (a change that prunes more reaches deeper in the
same nodes), not what it costs in speed: measure that beside it, and let the clock decide
(`python3 tools/spsa.py --verify REV --record tools/spsa/<name>.json ...` plays REV against
its parent at 8+0.08, SPRT [0, 5]). `make sprt STEP=USE_... SPRT_NODES=10000` screens one
of the search's switches the same way without a commit.

Both commits are built once each in a git worktree under /var/tmp (as `spsa.py --verify`
builds them; the repository's own checkout is left alone), and both engines load
`--net` when it is given, else the network each commit embeds. The games: fastchess
(`tools/runner.py`), UHO openings in pairs with colours swapped, Hash 16, decided games
adjudicated (`spsa.ADJUDICATION`). The result is printed as `docs/strength.md`'s screen
tables give it; the log and the games stay under /var/tmp/ladya-spsa-verify.
"""

import argparse
import subprocess
import sys
from pathlib import Path

import runner
from spsa import ADJUDICATION, UHO, VERIFY_WORK, bench, build

GAMES = 800
NODES = 10_000


def result_line(text):
    """The screen's result from the first engine's side, as the docs' tables give it, with
    both engines' forfeits; None before the first finished game."""
    s = runner.summary(text)
    if s is None:
        return None
    forfeits = runner.forfeits(text, "new") + runner.forfeits(text, "base")
    return (f"{s['games']} games: W{s['w']} L{s['l']} D{s['d']}, {s['elo']} ± {s['err']} Elo, "
            f"pentanomial {s['penta']}; forfeits: {forfeits}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the commit with the change")
    ap.add_argument("--base", help="the commit it plays against (default: REV's parent)")
    ap.add_argument("--games", type=int, default=GAMES, help="games, an even number (pairs)")
    ap.add_argument("--nodes", type=int, default=NODES, help="nodes a move")
    ap.add_argument("--seed", type=int, default=1, help="fastchess's -srand (the openings)")
    ap.add_argument("--net", metavar="FILE", help="the network both engines load (EvalFile)")
    ap.add_argument("--openings", default=str(UHO), help="EPD openings")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--fastchess", help="fastchess binary (default: as tools/runner.py finds it)")
    args = ap.parse_args()
    if args.games < 2 or args.games % 2:
        sys.exit("--games: an even number of at least 2 (each opening is played twice)")
    if args.nodes < 1:
        sys.exit("--nodes: at least 1")
    if not Path(args.openings).is_file():
        sys.exit(f"no openings at {args.openings}")
    fastchess = runner.find(args.fastchess)
    try:
        new, new_bin = build(args.rev)
        base, base_bin = build(args.base or f"{new}^")
    except subprocess.CalledProcessError as e:  # git names the bad revision, cargo the error
        sys.exit(f"could not build both commits: {' '.join(map(str, e.cmd))} failed"
                 + (f": {e.stderr.strip()}" if e.stderr else ""))
    options = {"Hash": 16}
    if args.net:
        net = Path(args.net).resolve()
        if not net.is_file():
            sys.exit(f"no network at {net}")
        options["EvalFile"] = net
    pgn = VERIFY_WORK / f"screen-{new[:10]}-{base[:10]}-{args.seed}.pgn"
    log = pgn.with_suffix(".log")
    for stale in (pgn, log, pgn.with_suffix(".json")):  # of an earlier screen of the same pair
        stale.unlink(missing_ok=True)
    cmd = runner.match(fastchess, [*runner.engine("new", new_bin), *runner.engine("base", base_bin)],
                       args.openings, args.seed, args.games // 2, args.concurrency, nodes=args.nodes,
                       options=options, pgn=pgn, extra=ADJUDICATION)
    print(f"{new[:10]} (bench {bench(new_bin):,}) against {base[:10]} (bench {bench(base_bin):,}): "
          f"{args.games} games at {args.nodes:,} nodes a move, -srand {args.seed}; log {log}", flush=True)
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        try:
            proc.wait()
        except KeyboardInterrupt:  # fastchess got the interrupt too: report what was played
            proc.wait()
    line = result_line(log.read_text())
    if line is None:
        sys.exit(f"no game finished: see {log}")
    print(line)
    if proc.returncode not in (0, -2, 130):  # an interrupt is a screen cut short, not a failure
        sys.exit(f"fastchess ended with {proc.returncode}: see {log}")


if __name__ == "__main__":
    main()
