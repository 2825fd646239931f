"""Has a network's scale moved? The check `docs/wdl.md` asks of every network that ships.

The win/draw/loss model and the search's tuned margins read the network's scores in pawns,
so a new network that scores the same positions larger or smaller moves both. This compares
the static evaluations of two or more networks on the same 400 positions (every 997th line
of `../shared/data/tuning/sf15_5k_nodes.txt.xz`, Stockfish-labelled positions no network
trained on), each by `eval` over UCI with `EvalFile`:

    python3 tools/net_scale.py nets/default.nnue nets/gen30.nnue nets/gen17.nnue

It prints each network's median |eval| in pawns, and the first network's least-squares slope
through zero against each other one over the positions both score within six pawns. A slope
within a few per cent of 1 leaves the fit and the tuned values standing (`docs/wdl.md` says
how far a 2% change moves a chance). `generation.py` runs it when a generation ships and
writes the lines in the generation's record.
"""

import argparse
import lzma
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POSITIONS = ROOT.parent / "shared" / "data" / "tuning" / "sf15_5k_nodes.txt.xz"
EVERY = 997
COUNT = 400
WITHIN_PAWNS = 6.0
MARK = "NNUE evaluation:"


class ScaleError(Exception):
    """The engine could not evaluate the positions with a network."""


def positions(path=POSITIONS, every=EVERY, count=COUNT):
    """The FENs of every `every`-th line (from the first), `count` of them."""
    fens = []
    with lzma.open(path, "rt") as f:
        for i, line in enumerate(f):
            if i % every == 0:
                fens.append(line.split("|")[0].strip())
                if len(fens) == count:
                    break
    return fens


def evaluations(engine, net, fens):
    """The network's static evaluation of each position in pawns, White's view."""
    script = [f"setoption name EvalFile value {Path(net).resolve()}", "isready"]
    for fen in fens:
        script += [f"position fen {fen}", "eval"]
    script.append("quit")
    try:
        out = subprocess.run([str(engine)], input="\n".join(script) + "\n", capture_output=True,
                             text=True, check=True, timeout=600).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise ScaleError(f"{engine}: {e}") from e
    bad = [line for line in out.splitlines() if line.startswith("info string error")]
    if bad:
        raise ScaleError(f"{net}: {bad[0]}")
    values = [float(line.split(MARK)[1].split()[0]) for line in out.splitlines() if MARK in line]
    if len(values) != len(fens):
        raise ScaleError(f"{net}: {len(values)} evaluations for {len(fens)} positions")
    return values


def slope(new, old, within=WITHIN_PAWNS):
    """Least-squares slope through zero of `new` on `old`, and how many positions it used."""
    both = [(n, o) for n, o in zip(new, old) if abs(n) <= within and abs(o) <= within]
    return sum(n * o for n, o in both) / sum(o * o for _, o in both), len(both)


def measure(engine, nets, fens=None):
    """Median |eval| of each network, and the first one's slope against each other one:
    {"median": {net: m}, "slope": {net: (s, positions)}}."""
    fens = fens or positions()
    evals = {str(net): evaluations(engine, net, fens) for net in nets}
    first = str(nets[0])
    return {"positions": len(fens),
            "median": {net: statistics.median(abs(v) for v in e) for net, e in evals.items()},
            "slope": {net: slope(evals[first], e) for net, e in evals.items() if net != first}}


def describe(result, names):
    """One sentence for a record, networks by `names` (file -> name)."""
    med = ", ".join(f"{names[n]} {m:.3f}" for n, m in result["median"].items())
    slopes = "; ".join(f"{s:.3f} against {names[n]} ({k} positions within {WITHIN_PAWNS:g} pawns)"
                       for n, (s, k) in result["slope"].items())
    return (f"median |eval| over {result['positions']} positions (pawns): {med}; "
            f"slope of {names[next(iter(result['median']))]}: {slopes}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("nets", nargs="+", help="the network to check first, then those to compare it with")
    ap.add_argument("--engine", default=ROOT / "target" / "release" / "ladya")
    args = ap.parse_args()
    if len(args.nets) < 2:
        ap.error("give at least two networks")
    if not POSITIONS.exists():
        sys.exit(f"no {POSITIONS}: the positions come from ../shared beside the clone")
    try:
        result = measure(args.engine, args.nets)
    except ScaleError as e:
        sys.exit(str(e))
    print(describe(result, {str(n): Path(n).name for n in args.nets}))


if __name__ == "__main__":
    main()
