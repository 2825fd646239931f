"""An SPRT whose game pairs outlive the run that played them.

fastchess decides an SPRT within one run; the time at hand often runs out first. These helpers
read the finished game pairs of a fastchess log, keep them as a string of quarter points
(one digit, 0 to 4, a pair), and decide with a GSPRT over the pairs of every run together
(the normal approximation on pair scores, as OpenBench's pentanomial test), so that a later run plays on where an earlier one stopped. Used by
`generation.py --resume-sprt` (networks) and `spsa.py --verify` (tuned search constants).

    python3 tools/sprt_pairs.py nets/candidates/gen42-sprt.json

prints where a kept SPRT stands: each run's pairs and Elo, and the pooled LLR.
"""

import json
import math
import os
import signal
import subprocess
import sys
import time

from runner import games, score_elo

SPRT_HI = math.log(0.95 / 0.05)  # alpha = beta = 0.05, as fastchess and OpenBench


def pair_scores(log_text, name):
    """The finished game pairs of a fastchess log: the mean score of engine `name` in each
    (`-games 2 -repeat` plays each opening twice, games 2k-1 and 2k, colours swapped)."""
    pairs = {}
    for g, points in games(log_text, name).items():
        pairs.setdefault((g - 1) // 2, []).append(points)
    return [sum(v) / 2 for _, v in sorted(pairs.items()) if len(v) == 2]


def encode(pairs):
    """Pair scores as quarter points, one digit a pair (a pair scores 0, 0.25, ..., 1)."""
    return "".join(str(round(x * 4)) for x in pairs)


def decode(digits):
    return [int(q) / 4 for q in digits]


def llr(pairs, elo0, elo1):
    """The GSPRT log-likelihood ratio over game pairs (normal approximation, logistic
    Elo), so that pairs from several runs add up to one test."""
    n = len(pairs)
    if n < 10:
        return 0.0
    mu = sum(pairs) / n
    var = sum((x - mu) ** 2 for x in pairs) / n or 1e-3
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    return n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)


def pair_elo(pairs):
    """Elo and its 95% half-interval from pair scores (the pentanomial figure)."""
    n = len(pairs)
    if n < 2:
        return 0.0, math.inf
    mu = sum(pairs) / n
    se = math.sqrt(sum((x - mu) ** 2 for x in pairs) / n / n)
    lo, hi = score_elo(mu - 1.959964 * se), score_elo(mu + 1.959964 * se)
    return score_elo(mu), (hi - lo) / 2


def recorder(rec, path, run):
    """Appends `run` (a dict: the run's seed and such) to the SPRT record `rec`, writes it
    to `path` at once and returns the `on_pairs` callback for `play_on` that rewrites it
    with the run's pairs as they finish: a run killed from outside loses nothing."""
    rec["runs"].append({**run, "pairs": ""})

    def keep(pairs):
        rec["runs"][-1]["pairs"] = encode(pairs)
        path.write_text(json.dumps(rec, indent=1) + "\n")
    keep([])
    return keep


def play_on(cmd, log_path, name, prior, bounds, end, cwd, on_pairs=None):
    """Runs fastchess `cmd` (without `-sprt`: the decision is taken here) with its output
    appended to `log_path`, until the pairs of `prior` and of this run decide the SPRT
    `bounds` for engine `name`, until time `end`, or until this process is sent SIGTERM or
    SIGINT (the match is then stopped and its finished pairs kept). `on_pairs(pairs)` is
    called whenever this run's finished pairs grow, so that a caller can record them
    before anything could kill it. Returns ("H1" | "H0" | None, this run's pairs)."""
    verdict, stopped, seen = None, [], 0

    def stop(*_):
        stopped.append(True)
    handlers = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        with open(log_path, "a") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=cwd,
                                    preexec_fn=lambda: os.nice(2))
            while proc.poll() is None:
                time.sleep(5)
                pairs = pair_scores(log_path.read_text(), name)
                if on_pairs and len(pairs) > seen:
                    seen = len(pairs)
                    on_pairs(pairs)
                ratio = llr(prior + pairs, *bounds)
                if abs(ratio) >= SPRT_HI:
                    verdict = "H1" if ratio > 0 else "H0"
                if verdict or stopped or time.time() >= end:
                    proc.send_signal(signal.SIGTERM)
                    try:
                        proc.wait(timeout=120)
                    except subprocess.TimeoutExpired:
                        proc.kill()
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
    pairs = pair_scores(log_path.read_text(), name)
    if on_pairs:
        on_pairs(pairs)
    return verdict, pairs


def status(path):
    """Each run of an SPRT record and all of them together: pairs, Elo and its error, and
    the pooled log-likelihood ratio against the record's bounds."""
    rec = json.loads(open(path).read())
    bounds = rec.get("bounds", [0.0, 10.0])
    lines, pooled = [], []
    for run in rec["runs"]:
        pairs = decode(run["pairs"])
        pooled += pairs
        elo, err = pair_elo(pairs)
        lines.append(f"  seed {run.get('seed', '?')}: {len(pairs)} pairs, {elo:+.1f} ± {err:.1f}")
    elo, err = pair_elo(pooled)
    ratio = llr(pooled, *bounds)
    verdict = "H1" if ratio >= SPRT_HI else "H0" if ratio <= -SPRT_HI else "undecided"
    lines.append(f"  all: {len(pooled)} pairs, {elo:+.1f} ± {err:.1f}, "
                 f"LLR {ratio:.2f} of ±{SPRT_HI:.2f}, SPRT {bounds}: {verdict}")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python3 tools/sprt_pairs.py RECORD.json [...]   "
                 "(e.g. nets/candidates/gen42-sprt.json, tools/spsa/run4-verify.json)")
    for record in sys.argv[1:]:
        print(record)
        print(status(record))
