#!/usr/bin/env python3
"""SPSA tuning of Ladya's search constants, resumable where it stopped.

    cargo build --release --features tune    # the tuning build: tunables as UCI options
    python3 tools/spsa.py --minutes 60       # play SPSA iterations for an hour
    python3 tools/spsa.py --show             # start and current value of every parameter
    python3 tools/spsa.py --apply            # writes the current values into params/mod.rs
    python3 tools/spsa.py --verify REV --minutes 60 --seed S   # SPRT: REV against its parent
    python3 tools/spsa.py --verify REV --bounds -5 0 --record tools/spsa/<name>.json --seed S
                                             # non-regression SPRT, its own record
    python3 tools/spsa.py --verify REV --net nets/default.nnue ...
                                             # both sides with the network that ships

The standard algorithm (Spall), with OpenBench's parametrisation, so that the numbers
mean the same as on an OpenBench instance: every parameter has a range, `c_end` (its
perturbation at the end) and `r_end` (0.002), and for a run planned to N iterations

    c = c_end * N^gamma            c_k = c / k^gamma
    a = r_end * c_end^2 * (A + N)^alpha    a_k = a / (A + k)^alpha     (A = N / 10)

Iteration k draws a random sign d_i for every parameter, plays a batch of game pairs
(each opening with both colours) between theta + c_k d and theta - c_k d, and moves
every parameter by a_k / c_k * (wins - losses) * d_i, within its range. Values stay
floats in the state; the engines get them rounded.

Games: fastchess, two at once, UHO openings, at a fixed number of nodes a move (10,000
by default; `--tc 4+0.04` plays a clock instead). Fixed nodes because the CPU for
tuning is scarce: a 10,000-node game, adjudicated, takes about 1.3 seconds of a core
(94 games a minute on two, engine start-ups included) where a 4+0.04 game takes about
15, so a run of 1,500 iterations (6,000 games) fits in an hour of both cores instead of
two days. The tunables are pruning and reduction margins, whose cost
shows in nodes (a margin that prunes less reaches a shallower depth for the same nodes)
as well as in time; none of them is a time-management constant, which fixed nodes could
not see. The price: the values are tuned at depth 8 to 10, not the 15 to 20 of a real
game, so the result is checked at a clock (8+0.08) before it ships.

The learning rate: OpenBench's r_end of 0.002 suits its runs of tens of thousands of
games; a 1,500-iteration plan with it moves a parameter by about a tenth of its c_end
for a 5-Elo gradient, less than the noise. A new local state uses `--r-end` (0.005 by
default), which trades some noise for a run that can finish.

State: `state.json` in `tools/spsa/` (iteration, values, a, c, A, alpha, gamma, seed,
planned iterations, games), rewritten after every batch, and `log.csv` beside it (the
values after each iteration; a finished run's pair moves to a folder of its own, such as
`tools/spsa/run2/`). Both are committed each time the tuning stops; the next start continues
where it stopped. The parameters come from `ladya tunables` of the tuning build, so a
new tunable joins at its default value.

Verification: `--apply`, commit the values on a side branch, and keep that commit
reachable from main without its changes (`git merge -s ours REV`: only main lasts from one
machine to the next, and a branch that did not land is gone), then `--verify REV` builds
that commit and its parent (the untuned search) in git worktrees under /var/tmp and plays
them at 8+0.08 on the UHO openings (fastchess, SPRT [0, 5] on game pairs). Each game pair
goes to `tools/spsa/verify.json` as it finishes (SIGTERM or Ctrl-C stops the match and
keeps them), so an SPRT that the time at hand cuts short goes on in a later run with a new
seed, and the pairs of every run decide together (`sprt_pairs.py`).
"""

import argparse
import csv
import hashlib
import json
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import runner
from sprt_pairs import SPRT_HI, decode, llr, pair_elo, play_on, recorder

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
STATE = ROOT / "tools" / "spsa" / "state.json"
LOG = ROOT / "tools" / "spsa" / "log.csv"
PARAMS = ROOT / "src" / "search" / "params" / "mod.rs"
UHO = SHARED / "data" / "openings" / "uho_4060_v4_sample.epd"
VERIFY = ROOT / "tools" / "spsa" / "verify.json"
VERIFY_WORK = Path("/var/tmp/ladya-spsa-verify")
VERIFY_TC = "8+0.08"
VERIFY_BOUNDS = (0.0, 5.0)

ALPHA, GAMMA = 0.602, 0.101
PLANNED_ITERATIONS = 1500
PAIRS_PER_ITERATION = 2
NODES = 10_000
LOCAL_R_END = 0.005
# Decided games end early (both engines agree on 6 pawns for 3 moves each; a draw from
# move 34 after 8 moves each within 20 cp): fastchess's own example, fewer CPU-seconds a
# game for a result that would not change.
ADJUDICATION = ["-resign", "movecount=3", "score=600", "twosided=true",
                "-draw", "movenumber=34", "movecount=8", "score=20"]
STOP = False


def tunables(engine):
    """name -> (value, min, max, c_end, r_end) from `ladya tunables`."""
    out = subprocess.run([engine, "tunables"], check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        f = [x.strip() for x in line.split(",")]
        if len(f) == 7 and f[1] == "int":
            result[f[0]] = (int(f[2]), int(f[3]), int(f[4]), float(f[5]), float(f[6]))
    return result


def new_params(specs, planned, r_end):
    """SPSA's a and c of every tunable for a run planned to `planned` iterations."""
    big_a = planned / 10
    params = {}
    for name, (value, lo, hi, c_end, _) in specs.items():
        params[name] = {"value": float(value), "start": value, "min": lo, "max": hi,
                        "c": c_end * planned ** GAMMA,
                        "a": r_end * c_end ** 2 * (big_a + planned) ** ALPHA}
    return params


def on_the_clock_only(name):
    """The time manager's tunables (`TM_`): a game at fixed nodes never reads them, so a
    fixed-node run leaves them out (their gradient would be noise)."""
    return name.startswith("TM_")


def new_state(specs, args):
    """A state at iteration 0: the games (`nodes` a move or a `tc`) are fixed for the run."""
    return {"version": 2, "iteration": 0, "games": 0, "pairs": 0, "seed": args.seed,
            "planned": args.planned, "A": args.planned / 10, "alpha": ALPHA, "gamma": GAMMA,
            "r_end": args.r_end, "tc": args.tc, "nodes": None if args.tc else args.nodes,
            "params": new_params({k: v for k, v in specs.items() if args.tc or not on_the_clock_only(k)},
                                 args.planned, args.r_end)}


def describe(state):
    """The state's games in words."""
    return f"{state['nodes']:,} nodes a move" if state.get("nodes") else state["tc"]


def save(state):
    tmp = STATE.with_suffix(".tmp")
    tmp.write_text(json.dumps(state, indent=1) + "\n")
    tmp.replace(STATE)


def play(args, state, plus, minus, seed):
    """(wins, losses, draws) of the plus engine."""
    def engine(name, values):
        return runner.engine(name, args.engine, {k: round(v) for k, v in values.items()})
    cmd = runner.match(args.fastchess, [*engine("plus", plus), *engine("minus", minus)], UHO, seed,
                       args.pairs, args.concurrency, tc=state.get("tc"), nodes=state.get("nodes"),
                       options={"Hash": 16, "Threads": 1}, extra=ADJUDICATION)
    out = subprocess.run(cmd, capture_output=True, text=True, cwd="/tmp").stdout
    score = runner.summary(out)
    if not score:
        raise RuntimeError("fastchess gave no result:\n" + out[-2000:])
    return score["w"], score["l"], score["d"]


def iterate(args, state):
    k = state["iteration"] + 1
    rng = random.Random(state["seed"] * 1_000_003 + k)
    plus, minus, signs = {}, {}, {}
    for name, p in state["params"].items():
        c_k = p["c"] / k ** state["gamma"]
        signs[name] = rng.choice((-1, 1))
        plus[name] = min(p["max"], max(p["min"], p["value"] + c_k * signs[name]))
        minus[name] = min(p["max"], max(p["min"], p["value"] - c_k * signs[name]))
    w, l, d = play(args, state, plus, minus, state["seed"] + k)
    for name, p in state["params"].items():
        c_k = p["c"] / k ** state["gamma"]
        a_k = p["a"] / (state["A"] + k) ** state["alpha"]
        step = a_k / c_k * (w - l) * signs[name]
        p["value"] = min(p["max"], max(p["min"], p["value"] + step))
    state["iteration"] = k
    state["games"] += w + l + d
    state["pairs"] += args.pairs
    return w, l, d


def log_row(state, w, l, d):
    names = list(state["params"])
    new = not LOG.exists()
    with open(LOG, "a", newline="") as f:
        out = csv.writer(f)
        if new:
            out.writerow(["iteration", "games", "w", "l", "d", *names])
        out.writerow([state["iteration"], state["games"], w, l, d,
                      *[f"{state['params'][n]['value']:.2f}" for n in names]])


def show(state):
    print(f"{state['iteration']} of {state['planned']} iterations, {state['games']} games at {describe(state)}")
    print("| parameter | start | now | range |\n|---|---|---|---|")
    for name, p in state["params"].items():
        print(f"| `{name}` | {p['start']} | {p['value']:.1f} ({round(p['value'])}) | {p['min']}..{p['max']} |")


def apply(state):
    """Writes the state's rounded values as the defaults of `tunables!` in PARAMS."""
    text = PARAMS.read_text()
    for name, p in state["params"].items():
        line = re.compile(rf"^(\s+{name}: )(-?\d+)(, -?\d+\.\.=-?\d+, [\d.]+;)$", re.M)
        text, n = line.subn(lambda m: f"{m.group(1)}{round(p['value'])}{m.group(3)}", text)
        if n != 1:
            sys.exit(f"{name}: not found once in {PARAMS}")
    PARAMS.write_text(text)
    print(f"{PARAMS.relative_to(ROOT)}: {len(state['params'])} defaults written "
          f"(iteration {state['iteration']}); `ladya bench` gives the new Bench")


def build(rev):
    """The release binary of commit `rev`, built once in a git worktree (the repository's
    own checkout is left alone)."""
    full = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout.strip()
    binary = VERIFY_WORK / f"ladya-{full[:10]}"
    if not binary.exists():
        tree = VERIFY_WORK / "tree"
        VERIFY_WORK.mkdir(parents=True, exist_ok=True)
        if tree.exists():
            subprocess.run(["git", "-C", str(tree), "checkout", "--quiet", "--detach", full], check=True)
        else:
            subprocess.run(["git", "worktree", "add", "--quiet", "--detach", str(tree), full],
                           cwd=ROOT, check=True)
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=tree, check=True,
                       env={**os.environ, "CARGO_TARGET_DIR": str(VERIFY_WORK / "target")})
        shutil.copy(VERIFY_WORK / "target" / "release" / "ladya", binary)
    return full, binary


def bench(binary):
    out = subprocess.run([str(binary), "bench"], check=True, capture_output=True, text=True).stdout
    return int(re.findall(r"^(\d+) nodes", out, re.M)[-1])


def network(path):
    """The record's note of the network both engines load (`--net`), or None when each
    plays with the one its commit embeds."""
    if not path:
        return None
    data = Path(path).read_bytes()
    return {"file": Path(path).name, "sha256": hashlib.sha256(data).hexdigest()}


def verify(args):
    """Plays commit `args.verify` (the applied values) against its parent at VERIFY_TC
    until the pairs of every run in the record (`args.record`) decide, or `args.minutes`
    have passed."""
    record = Path(args.record).resolve()
    tuned, tuned_bin = build(args.verify)
    base, base_bin = build(f"{tuned}^")
    net = network(args.net)
    if record.exists():
        rec = json.loads(record.read_text())
        if rec["tuned"]["commit"] != tuned:
            sys.exit(f"{record} is the SPRT of {rec['tuned']['commit'][:10]}: "
                     "name another --record to test another commit")
        if rec.get("net", {}).get("sha256") != (net or {}).get("sha256"):
            sys.exit(f"{record} was played with {rec.get('net', {}).get('file', 'the embedded networks')}: "
                     "the same --net resumes it, another needs another --record")
        if any(run["seed"] == args.seed for run in rec["runs"]):
            sys.exit(f"seed {args.seed} was used by an earlier run of this SPRT: pick another")
    else:
        rec = {"tuned": {"commit": tuned, "bench": bench(tuned_bin)},
               "base": {"commit": base, "bench": bench(base_bin)},
               "tc": VERIFY_TC, "bounds": list(args.bounds), "runs": []}
        if net:
            rec["net"] = net
    options = {"Hash": 16, **({"EvalFile": Path(args.net).resolve()} if net else {})}
    prior = [x for run in rec["runs"] for x in decode(run["pairs"])]
    log_path = VERIFY_WORK / f"verify-{args.seed}.log"
    for stale in (log_path, log_path.with_suffix(".pgn")):  # of a run the record never kept
        stale.unlink(missing_ok=True)
    cmd = runner.match(args.fastchess, [*runner.engine("tuned", tuned_bin), *runner.engine("base", base_bin)],
                       UHO, args.seed, 2000, args.concurrency, tc=rec["tc"], options=options,
                       pgn=log_path.with_suffix(".pgn"))
    end = time.time() + (args.minutes or 60) * 60
    print(f"SPRT {rec['bounds']} of {tuned[:10]} against {base[:10]} at {rec['tc']}, "
          f"{len(prior)} pairs so far; log {log_path}", flush=True)
    keep = recorder(rec, record, {"seed": args.seed})
    verdict, pairs = play_on(cmd, log_path, "tuned", prior, rec["bounds"], end, ROOT, on_pairs=keep)
    every = prior + pairs
    this_elo, this_err = pair_elo(pairs)
    elo, err = pair_elo(every)
    said = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision yet"}[verdict]
    print(f"this run: {len(pairs)} pairs, {this_elo:+.1f} +- {this_err:.1f} Elo; all {len(every)} pairs "
          f"of {len(rec['runs'])} runs: {elo:+.1f} +- {err:.1f} Elo, LLR {llr(every, *rec['bounds']):.2f} "
          f"(bounds +-{SPRT_HI:.2f}): {said}")


def main():
    global STATE, LOG
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/ladya",
                    help="a `--features tune` build of ladya")
    ap.add_argument("--fastchess", help="fastchess binary (default: as tools/runner.py finds it)")
    ap.add_argument("--minutes", type=float, help="stop after the batch that ends past this")
    ap.add_argument("--iterations", type=int, help="stop after this many iterations of this run")
    ap.add_argument("--pairs", type=int, default=PAIRS_PER_ITERATION, help="game pairs per iteration")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1, help="seed of a new state")
    ap.add_argument("--planned", type=int, default=PLANNED_ITERATIONS,
                    help="iterations a new state plans for (sets the a_k and c_k schedules)")
    ap.add_argument("--nodes", type=int, default=NODES, help="nodes a move of a new state's games")
    ap.add_argument("--tc", help="a clock for a new state's games instead of fixed nodes")
    ap.add_argument("--r-end", type=float, default=LOCAL_R_END, help="a new state's r_end")
    ap.add_argument("--beyond", action="store_true",
                    help="play on past the planned iterations (the a_k and c_k keep decaying)")
    ap.add_argument("--state", type=Path, default=STATE,
                    help="the run's state (its log.csv beside it): an earlier run's, e.g. "
                         "tools/spsa/run2/state.json, for --show")
    ap.add_argument("--show", action="store_true", help="print the parameters and stop")
    ap.add_argument("--apply", action="store_true",
                    help="write the current values into src/search/params/mod.rs and stop")
    ap.add_argument("--verify", metavar="REV",
                    help="SPRT of commit REV (the applied values) against its parent at 8+0.08, "
                         "resumed from its record (needs a new --seed each run)")
    ap.add_argument("--net", metavar="FILE",
                    help="the network both engines of --verify load (EvalFile), instead of the one "
                         "each commit embeds: the search values are judged beside the network that "
                         "ships now (kept in the record; a record is resumed with the same network)")
    ap.add_argument("--bounds", type=float, nargs=2, default=VERIFY_BOUNDS, metavar=("ELO0", "ELO1"),
                    help="a new record's SPRT bounds: 0 5 for a gain, -5 0 for non-regression")
    ap.add_argument("--record", default=str(VERIFY),
                    help="the SPRT's record of game pairs (a new file starts a new SPRT)")
    args = ap.parse_args()
    STATE, LOG = args.state.resolve(), args.state.resolve().with_name("log.csv")
    args.fastchess = runner.find(args.fastchess)
    if args.verify:
        verify(args)
        return
    STATE.parent.mkdir(parents=True, exist_ok=True)
    if STATE.exists():
        state = json.loads(STATE.read_text())
    else:
        state = None
    if args.show or args.apply:
        if state is None:
            sys.exit(f"no state in {STATE}")
        if args.show:
            show(state)
        else:
            apply(state)
        return
    args.engine = str(Path(args.engine).resolve())
    specs = tunables(args.engine)
    with subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as p:
        out, _ = p.communicate("uci\nquit\n", timeout=30)
    if f"option name {next(iter(specs))} " not in out:
        sys.exit(f"{args.engine} is not a tuning build: cargo build --release --features tune")
    if state is None:
        state = new_state(specs, args)
        save(state)
    for name, spec in specs.items():  # a tunable added since the state was made
        if name not in state["params"] and (state.get("tc") or not on_the_clock_only(name)):
            state["params"].update(new_params({name: spec}, state["planned"], state.get("r_end", spec[4])))

    def stop(*_):
        global STOP
        STOP = True
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    end = time.time() + args.minutes * 60 if args.minutes else math.inf
    done = 0
    while not STOP and time.time() < end and (args.iterations is None or done < args.iterations):
        if state["iteration"] >= state["planned"] and not args.beyond:
            print(f"the run's {state['planned']} planned iterations are played: `--apply`, then `--verify`")
            break
        try:
            w, l, d = iterate(args, state)
        except RuntimeError:
            if STOP:  # the interrupt reached fastchess too: the batch is dropped
                break
            raise
        save(state)
        log_row(state, w, l, d)
        done += 1
        print(f"iteration {state['iteration']}: plus {w}-{l}-{d}; {state['games']} games in all", flush=True)
    show(state)


if __name__ == "__main__":
    main()
