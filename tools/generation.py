#!/usr/bin/env python3
"""One generation of Ladya's evaluation network, in the background, within a time budget.

    python3 tools/generation.py --hours 2

A generation:
 1. builds the engine and keeps a copy of the binary for the whole run;
 2. plays self-play games with the shipped network (`ladya datagen --games-format`, 5,000
    nodes a move) until the data's share of the budget is spent, unpacks them into packed
    records, and keeps the games in the repository (`nets/games/`, xz, with the sidecar and
    a README entry), which lasts from one machine to the next where `../shared` and
    `/var/tmp` have not: whole games take a third of the bytes of their records under xz;
 3. gathers the replay: every file of `../shared/data/selfplay/` (decompressed and
    converted once into a cache; `--skip-shared` leaves them out), then every games file in
    `nets/games/` (oldest generation first, unpacked once into the cache), then the games of
    earlier runs still in WORK (`WORK/gen*/selfplay_*.bin`, unless kept in the repository;
    `--no-kept-games` leaves them out), then the `--replay` files, then the new games last,
    so the held-out positions are the newest games (5% of all, at most a tenth of the new
    ones, so that new games too few to fill 5% still train);
 4. trains two networks on it: warm-started from the shipped network's float weights
    (`nets/default.float`, else the quantized `nets/default.nnue`; `--init NET` names
    another start, such as an unshipped candidate) and from scratch (`--warm-only` skips
    this one and step 5);
 5. picks the better by a fixed-node match between them (a tie goes to the lower
    validation loss);
 6. plays the pick against the shipped network: a fixed-node gauntlet, then an SPRT at
    8+0.08 on the UHO openings (fastchess, SPRT [0, 10] on game pairs) until it decides or the
    budget ends;
 7. ships the pick only on H1 (copies it to `nets/default.nnue` and `nets/default.float`,
    keeping the old one as `nets/gen<K>.nnue`), and writes the generation down either way:
    its full record (data, seeds, commands, losses, results, wall time) as
    `nets/history/gen<N>.md`, its row in the table at the head of `nets/README.md` and a short
    entry under it (`netlog.py`);
 8. keeps an SPRT the budget cut short in the repository (`nets/candidates/gen<N>-sprt.json`
    and the candidate's weights), so that any later run plays on where it stopped:

    python3 tools/generation.py --resume-sprt N --hours 1.5 --seed S
    python3 tools/generation.py --resume-sprt N --until 23:30 --seed S

    (the pairs of every run decide together, with `sprt_pairs.py`'s GSPRT; on H1 the candidate
    ships, and its row and entry say so).

`--selfplay-only` stops after step 2, for a budget that ends with a session: the same command
without it goes on from there later, on another machine too (the games it kept in nets/games
are then this generation's new games, not played again).

Everything runs in WORK/genN (default /var/tmp/ladya-data/genN) with a `state.json`:
run the same command again after an interruption and finished steps are skipped
(self-play resumes from its sidecar, training from its checkpoint). The commits and the
shipping stay with the developer: the script prints what to commit.
"""

import argparse
import datetime
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import net_scale
import netlog
import runner
from sprt_pairs import SPRT_HI, decode, encode, llr, pair_elo, pair_scores, play_on, recorder

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SELFPLAY = SHARED / "data" / "selfplay"
NOOB = SHARED / "data" / "openings" / "noob_3moves_sample.epd"
UHO = SHARED / "data" / "openings" / "uho_4060_v4_sample.epd"
SYZYGY = SHARED / "data" / "syzygy"
NETS = ROOT / "nets"
GAMES = NETS / "games"
# The network the win/draw/loss fit of docs/wdl.md was made with: each new network's scale is
# checked against it as well as against its predecessor.
FIT_NET = NETS / "gen17.nnue"

# Self-play: the settings every generation so far has used (`--selfplay-nodes` and
# `--random-plies` change them; the record shows the command either way).
NODES = 5000
RANDOM_PLIES = 4
# The least self-play a generation gets, when the budget leaves none beside its reserves.
MIN_SELFPLAY_S = 60
# Training: the settings of generations 2 and 3 from scratch; a warm start begins from a
# trained network, so it takes a lower peak learning rate and fewer epochs.
BATCH = 4096
LAMBDA = 1.0
# Held out for validation: the last positions, the newest games; 5% of all, but never more
# than a tenth of this generation's games. 5% alone would have held out every one of
# generation 38's 1.9M deeper games (5% of 43.4M is 2.2M), which then taught nothing.
HELD_OUT_SHARE, HELD_OUT_OF_NEW = 0.05, 0.10
SCRATCH_EPOCHS, SCRATCH_LR = 12, 0.001
# `--smoke` trains on this many positions, the first of the data.
SMOKE_POSITIONS = 200_000
WARM_EPOCHS, WARM_LR = 8, 0.0005
# Matches: fixed nodes for the quick ones (deterministic work per move, no clock noise),
# the clock for the SPRT that decides shipping.
MATCH_NODES = 5000
PICK_ROUNDS = 100  # game pairs, warm against scratch
GAUNTLET_ROUNDS = 200  # game pairs, the pick against the shipped network
SPRT_TC = "8+0.08"
SPRT_BOUNDS = ("0", "10")
# An SPRT is not started with less budget left than this: a few pairs at 8+0.08 decide
# nothing, and a match stopped before its first pair only leaves a misleading "+0.0 +- inf".
MIN_SPRT_S = 300
# Time kept back from self-play for the steps after it (training and the quick matches),
# and for the SPRT, in minutes.
TRAIN_RESERVE_MIN = 25
SPRT_RESERVE_MIN = 35


def log(work, line):
    stamp = datetime.datetime.now().strftime("%H:%M:%S")
    print(f"[{stamp}] {line}", flush=True)
    with open(work / "generation.log", "a") as f:
        f.write(f"[{stamp}] {line}\n")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw).stdout


def save(state, work):
    tmp = work / "state.json.tmp"
    tmp.write_text(json.dumps(state, indent=1))
    tmp.replace(work / "state.json")


def net_hash(path):
    """The FNV-1a hash a network file's header records (bytes 40..48)."""
    return int.from_bytes(Path(path).read_bytes()[40:48], "little")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def generations():
    """(the shipped generation, the next generation's number), from nets/README.md."""
    text = (NETS / "README.md").read_text()
    shipped = re.search(r"^## Generation (\d+) \(`default\.nnue`", text, re.M)
    numbers = [int(n) for n in re.findall(r"^## Generation (\d+)", text, re.M)]
    return (int(shipped.group(1)) if shipped else 0), max(numbers, default=0) + 1


def run_until(cmd, deadline, out_path, stop=signal.SIGTERM):
    """Runs cmd with its output to out_path; stops it with `stop` at the deadline (not
    SIGINT: a shell ignores it in the jobs it starts in the background, and so do they)."""
    with open(out_path, "a") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                preexec_fn=lambda: os.nice(2))
        while proc.poll() is None:
            if time.time() >= deadline:
                proc.send_signal(stop)
                try:
                    proc.wait(timeout=120)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                return False
            time.sleep(2)
    return proc.returncode == 0


CANDIDATES = NETS / "candidates"


def step_build(st, work, args):
    commit = sh(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).strip()
    dirty = bool(sh(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT).strip())
    log(work, f"building {commit}{' (uncommitted changes)' if dirty else ''}")
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    shutil.copy(ROOT / "target" / "release" / "ladya", work / "ladya")
    shutil.copy(NETS / "default.nnue", work / "base.nnue")
    if args.init:
        init = Path(args.init).resolve()
    else:
        init = NETS / "default.float" if (NETS / "default.float").exists() else NETS / "default.nnue"
    shutil.copy(init, work / ("init" + init.suffix))
    named = init.relative_to(ROOT) if init.is_relative_to(ROOT) else init
    st["build"] = {"commit": commit, "dirty": dirty, "base_hash": f"{net_hash(work / 'base.nnue'):016x}",
                   "init": str(named), "init_file": str(work / ("init" + init.suffix))}


def sidecar(path):
    fields = {}
    for line in Path(str(path) + ".progress").read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            k, v = line.split("=", 1)
            fields[k] = v
    return fields


def step_datagen(st, work, args, deadline):
    games = work / f"selfplay_{args.seed}.games"
    out = work / f"selfplay_{args.seed}.bin"
    cmd = [str(work / "ladya"), "datagen", "--out", str(games), "--games-format", "--games", "1000000",
           "--nodes", str(args.selfplay_nodes), "--random-plies", str(args.random_plies),
           "--openings", str(NOOB), "--seed", str(args.seed), "--threads", str(args.threads)]
    if args.syzygy:
        # Off by default: measured, a network learns no better from games the tables cut
        # short (nets/README.md, "Tablebase adjudication in self-play").
        cmd += ["--syzygy", str(SYZYGY)]
    st["datagen"] = {"cmd": cmd, "out": str(out), "games_file": str(games)}
    started = time.time()
    log(work, f"self-play until {time.strftime('%H:%M', time.localtime(deadline))}: {' '.join(cmd[1:])}")
    run_until(cmd, deadline, work / "datagen.log")
    car = sidecar(games)
    # A game half-written when the generator stopped goes (as a resume would cut it).
    with open(games, "r+b") as f:
        f.truncate(int(car["bytes"]))
    out.unlink(missing_ok=True)
    sh([str(work / "ladya"), "data", "unpack", str(games), str(out)])
    positions = out.stat().st_size // 32
    st["datagen"].update({"games": int(car["games_done"]), "positions": positions,
                          "evaluation": car["evaluation"], "seconds": round(time.time() - started),
                          "rate": round(positions / max(1, time.time() - started))})
    log(work, f"self-play: {car['games_done']} games, {positions} positions")


def adopt_kept_games(st, work, args):
    """Takes as this run's new games those a `--selfplay-only` run of the same generation and
    seed kept in nets/games, when its work folder (and the state that named them) is gone:
    playing them again would only repeat them. True if there were such games."""
    name = f"gen{st['shipped']}_seed{args.seed}.games.xz"
    target = GAMES / name
    if not target.is_file() or any(name in r.read_text() for r in (NETS / "history").glob("gen*.md")):
        return False  # none, or a finished generation's (already in the replay)
    entry = re.search(rf"`{re.escape(name)}`: \*\*([\d,]+) positions\*\* in ([\d,]+) games .*?"
                      rf"\(`(\S+)`\).*?for generation (\d+), in (\d+) minutes \((\d+) positions a "
                      rf"second.*?```\n(.*?)\n```", (GAMES / "README.md").read_text(), re.S)
    if not entry or int(entry.group(4)) != st["gen"]:
        return False
    games = work / f"selfplay_{args.seed}.games"
    out = work / f"selfplay_{args.seed}.bin"
    with open(games, "wb") as f:
        subprocess.run(["xz", "-dc", str(target)], stdout=f, check=True)
    shutil.copy(GAMES / name.replace(".games.xz", ".progress"), str(games) + ".progress")
    out.unlink(missing_ok=True)
    sh([str(work / "ladya"), "data", "unpack", str(games), str(out)])
    st["datagen"] = {"cmd": entry.group(7).split(), "out": str(out), "games_file": str(games),
                     "games": int(entry.group(2).replace(",", "")), "positions": out.stat().st_size // 32,
                     "evaluation": entry.group(3), "seconds": int(entry.group(5)) * 60,
                     "rate": int(entry.group(6)), "adopted": True}
    st["publish"] = {"file": name, "sha256": sha256(target), "mb": round(target.stat().st_size / 1e6, 2)}
    log(work, f"self-play: none; the new games are {name}, kept by an earlier --selfplay-only run "
              f"of generation {st['gen']} with this seed ({st['datagen']['positions']:,} positions)")
    return True


def shown(cmd, work=None):
    """A command as the entries write it: the work folder as WORK, ../shared relative."""
    text = " ".join(str(c) for c in cmd)
    if work is not None:
        text = text.replace(str(work), "WORK")
    return text.replace(str(SHARED), "../shared")


def shown_datagen(cmd):
    """The self-play command with its output and openings by file name alone."""
    return "ladya " + shown(Path(c).name if str(c).endswith((".bin", ".games", ".epd")) else c for c in cmd[1:])


def step_publish(st, work, args):
    """Keeps the new games in the repository (`nets/games/`, xz, with the sidecar and a
    README entry): the one place that lasts from one machine to the next."""
    d = st["datagen"]
    name = f"gen{st['shipped']}_seed{args.seed}.games"
    target = GAMES / (name + ".xz")
    if target.exists():
        name = f"gen{st['shipped']}_seed{args.seed}_{int(time.time())}.games"
        target = GAMES / (name + ".xz")
    with open(target, "wb") as f:
        subprocess.run(["xz", "-9e", "-T2", "-c", d["games_file"]], stdout=f, check=True)
    shutil.copy(d["games_file"] + ".progress", GAMES / name.replace(".games", ".progress"))
    stats = sh([str(work / "ladya"), "data", "stats", d["out"]])
    stats = stats.split("score histogram")[0]  # the summary lines, not the histogram
    st["publish"] = {"file": target.name, "sha256": sha256(target),
                     "mb": round(target.stat().st_size / 1e6, 2)}
    add_games_entry(target, st["build"]["commit"], d, args.threads, stats,
                    f"made by `tools/generation.py` for generation {st['gen']}")
    log(work, f"kept {target} ({st['publish']['mb']} MB): commit it with the generation's record")


def add_games_entry(target, commit, d, threads, stats, why):
    """The README entry of the games file `target` (xz), and the running total after it."""
    readme = GAMES / "README.md"
    text = readme.read_text()
    mb = round(target.stat().st_size / 1e6, 2)
    stats = stats.split("score histogram")[0]  # the summary lines; the histogram is too long here
    total = re.search(r"\*\*In all now: ([\d,]+) positions\*\*", text)
    entry = (f"\n`{target.name}`: **{d['positions']:,} positions** in {d['games']:,} games of the "
             f"network engine against itself (`{d['evaluation']}`), by `ladya datagen` at commit `{commit}`, "
             f"{why}, in {d['seconds'] // 60} minutes ({d['rate']} positions a second with {threads} "
             f"threads on this kind of 2-core machine):\n\n```\n{shown_datagen(d['cmd'])}\n```\n\n"
             f"`{target.name.replace('.games.xz', '.progress')}` is the generator's sidecar. {mb} MB, "
             f"sha256 `{sha256(target)}`. Unpacked, `ladya data stats`:\n\n```\n{stats.strip()}\n```\n")
    if total:  # the total stands once, after the newest entry
        new_total = int(total.group(1).replace(",", "")) + d["positions"]
        line_start = text.rfind("\n", 0, total.start()) + 1
        line_end = text.find("\n", total.end())
        text = text[:line_start] + (text[line_end + 1:] if line_end >= 0 else "")
        text = text.rstrip("\n") + "\n" + entry + f"\n**In all now: {new_total:,} positions**.\n"
    else:
        text = text.rstrip("\n") + "\n" + entry + f"\n**In all now: {d['positions']:,} positions**.\n"
    readme.write_text(text)


def kept_games(base, gen):
    """The self-play files of earlier generations' runs still under `base` (a machine whose
    /var/tmp lasted since those runs keeps them), oldest generation first, each with the name
    it was published under in ../shared (None if it was not)."""
    found = []
    for state in base.glob("gen*/state.json"):
        try:
            old = json.loads(state.read_text())
        except (OSError, ValueError):
            continue
        out = old.get("datagen", {}).get("out")
        if old.get("gen", gen) >= gen or not out or not Path(out).is_file():
            continue
        found.append((old["gen"], out, old.get("publish", {}).get("file")))
    return [(out, published) for _, out, published in sorted(found)]


def games_order(path):
    """The repository's games files oldest first: by the generation that played them, then
    the seed (`gen<K>_seed<S>[_<time>].games.xz`)."""
    numbers = [int(n) for n in re.findall(r"\d+", path.name)]
    return numbers, path.name


def step_data(st, work):
    cache = work.parent / "cache"
    cache.mkdir(exist_ok=True)
    published = st.get("publish", {}).get("file")
    files = []
    sources = [] if st.get("skip_shared") else \
        sorted(SELFPLAY.glob("*.txt.xz")) + sorted(SELFPLAY.glob("*.bin.xz"))
    for src in sources:
        if src.name == published:
            continue
        bin_path = cache / (src.name[: -len(".txt.xz")] + ".bin" if src.name.endswith(".txt.xz")
                            else src.name[: -len(".xz")])
        if not bin_path.exists():
            log(work, f"unpacking {src.name}")
            tmp = bin_path.with_suffix(".tmp")
            if src.name.endswith(".txt.xz"):
                text = bin_path.with_suffix(".txt")
                with open(text, "wb") as f:
                    subprocess.run(["xz", "-dc", str(src)], stdout=f, check=True)
                tmp.unlink(missing_ok=True)
                sh([str(work / "ladya"), "data", "convert", str(text), str(tmp)])
                text.unlink()
            else:
                with open(tmp, "wb") as f:
                    subprocess.run(["xz", "-dc", str(src)], stdout=f, check=True)
            tmp.replace(bin_path)
        files.append({"file": src.name, "path": str(bin_path), "positions": bin_path.stat().st_size // 32})
    for src in sorted(GAMES.glob("*.games.xz"), key=games_order):
        if src.name == published:
            continue  # the new games, which come last
        bin_path = cache / (src.name[: -len(".games.xz")] + ".bin")
        if not bin_path.exists():
            log(work, f"unpacking {src.name}")
            games = bin_path.with_suffix(".games")
            with open(games, "wb") as f:
                subprocess.run(["xz", "-dc", str(src)], stdout=f, check=True)
            tmp = bin_path.with_suffix(".tmp")
            tmp.unlink(missing_ok=True)
            sh([str(work / "ladya"), "data", "unpack", str(games), str(tmp)])
            games.unlink()
            tmp.replace(bin_path)
        files.append({"file": src.name, "path": str(bin_path), "positions": bin_path.stat().st_size // 32})
    shared_names = {src.name for src in sources} | {g.name for g in GAMES.glob("*.games.xz")}
    for out, published in st.get("kept_games", []):
        if published in shared_names:
            continue  # already in the replay, from ../shared
        if not Path(out).is_file():
            log(work, f"{out} is gone: left out")
            continue
        files.append({"file": f"{Path(out).parent.name}/{Path(out).name}", "path": out,
                      "positions": Path(out).stat().st_size // 32})
    for extra in st.get("replay", []):
        files.append({"file": Path(extra).name, "path": extra, "positions": Path(extra).stat().st_size // 32})
    new = st["datagen"]["out"]
    files.append({"file": Path(new).name, "new": True, "path": new,
                  "positions": Path(new).stat().st_size // 32})
    st["data"] = files
    log(work, f"replay: {sum(f['positions'] for f in files):,} positions in {len(files)} files")


EPOCH_LINE = re.compile(r"epoch\s+(\d+)\s+train loss ([\d.]+)\s+validation loss ([\d.]+).*?([\d.]+) positions/s")


def held_out(files):
    """Positions held out for validation: the last ones of `files` (see `HELD_OUT_SHARE`)."""
    total = sum(f["positions"] for f in files)
    new = sum(f["positions"] for f in files if f.get("new"))
    return min(int(total * HELD_OUT_SHARE), int(new * HELD_OUT_OF_NEW)) if new else int(total * HELD_OUT_SHARE)


def step_train(st, work, args, kind):
    out_dir = work / kind
    st["held_out"] = held = held_out(st["data"])
    if args.smoke:
        # The smoke run trains on the first SMOKE_POSITIONS only: the same share held out.
        held = max(1, held * SMOKE_POSITIONS // sum(f["positions"] for f in st["data"]))
    cmd = [str(work / "ladya"), "train", *[f["path"] for f in st["data"]],
           "--epochs", str(args.warm_epochs if kind == "warm" else SCRATCH_EPOCHS),
           "--batch-size", str(BATCH), "--lr", str(args.warm_lr if kind == "warm" else SCRATCH_LR),
           "--lambda", str(LAMBDA), "--out-dir", str(out_dir), "--threads", str(args.threads),
           "--seed", str(args.seed), "--output-buckets", "8",
           "--validation-positions", str(held)]
    if st.get("king_buckets", 1) != 1:
        # From a network without king buckets, `--init` copies its inputs into each one.
        cmd += ["--king-buckets", str(st["king_buckets"])]
    if args.smoke:
        cmd += ["--limit", str(SMOKE_POSITIONS)]
    if kind == "warm":
        cmd += ["--init", st["build"]["init_file"]]
    if (out_dir / "checkpoint.bin").exists() and not (out_dir / "final.nnue").exists():
        cmd = [c for c in cmd if c != "--init" and c != st["build"]["init_file"]]
        cmd += ["--resume", str(out_dir / "checkpoint.bin")]
    log(work, f"training {kind}: {' '.join(cmd[1:])}")
    started = time.time()
    # The trainer's lines go to the log as they come, and a resumed run appends to them:
    # the epochs of a run cut short (a session's end) stay in the record with the rest.
    log_path = work / f"train_{kind}.log"
    with open(log_path, "a" if "--resume" in cmd else "w") as out:
        subprocess.run(cmd, check=True, text=True, stdout=out, env={**os.environ, "NO_COLOR": "1"})
    text = log_path.read_text()
    # By epoch number: an epoch a cut-short run printed and its resumption played again
    # counts once, as played last.
    by_epoch = {int(m[0]): {"epoch": int(m[0]), "train": float(m[1]), "validation": float(m[2]),
                            "rate": float(m[3])} for m in EPOCH_LINE.findall(text)}
    epochs = [by_epoch[k] for k in sorted(by_epoch)]
    st[f"train_{kind}"] = {"cmd": cmd, "epochs": epochs, "seconds": round(time.time() - started),
                           "net": str(out_dir / "final.nnue"), "float": str(out_dir / "final.float"),
                           "hash": f"{net_hash(out_dir / 'final.nnue'):016x}"}
    log(work, f"{kind}: validation loss {epochs[-1]['validation'] if epochs else '?'}")


def fastchess(st, work, args, name, net1, net2, rounds, seed):
    pgn = work / f"{name}.pgn"
    cmd = runner.match(args.fastchess, [*runner.engine("new", work / "ladya", {"EvalFile": net1}),
                                        *runner.engine("old", work / "ladya", {"EvalFile": net2})],
                       UHO, seed, rounds, args.threads, nodes=MATCH_NODES, options={"Hash": 16}, pgn=pgn)
    log(work, f"{name}: {rounds * 2} games at {MATCH_NODES} nodes a move")
    text = sh(cmd, cwd=work)
    (work / f"{name}.log").write_text(text)
    s = runner.summary(text)
    result = {"games": s["games"], "w": s["w"], "l": s["l"], "d": s["d"], "elo": s["elo"], "err": s["err"],
              "cmd": shown(cmd, work)}
    log(work, f"{name}: {s['w']}-{s['l']}-{s['d']}, {s['elo']} +- {s['err']} Elo")
    return result


def step_pick(st, work, args):
    warm, scratch = st["train_warm"], st["train_scratch"]
    m = fastchess(st, work, args, "pick", warm["net"], scratch["net"], PICK_ROUNDS, args.seed)
    by_loss = "warm" if warm["epochs"][-1]["validation"] <= scratch["epochs"][-1]["validation"] else "scratch"
    pick = "warm" if m["w"] > m["l"] else "scratch" if m["l"] > m["w"] else by_loss
    st["pick"] = {"match": m, "by_loss": by_loss, "pick": pick}
    log(work, f"pick: {pick} (lower validation loss: {by_loss})")


def sprt_match(args, work, gen, cand, shipped, base, seed):
    """The SPRT's match, the candidate first: fastchess without `-sprt`, since the decision
    is taken over the game pairs of every run (`sprt_pairs.play_on`)."""
    return runner.match(args.fastchess, [*runner.engine(f"gen{gen}", work / "ladya", {"EvalFile": cand}),
                                         *runner.engine(f"gen{shipped}", work / "ladya", {"EvalFile": base})],
                        UHO, seed, 2000, args.threads, tc=SPRT_TC, options={"Hash": 16},
                        pgn=work / "sprt.pgn")


def step_sprt(st, work, args, deadline):
    cand = st[f"train_{st['pick']['pick']}"]["net"]
    cmd = sprt_match(args, work, st["gen"], cand, st["shipped"], work / "base.nnue", args.seed)
    if deadline - time.time() < MIN_SPRT_S:
        st["sprt"] = {"w": 0, "l": 0, "d": 0, "games": 0, "pairs": 0, "h1": False,
                      "not_played": True, "cmd": shown(cmd, work),
                      "verdict": "no decision yet: not played, the budget ended first"}
        log(work, "SPRT: not started, less than "
                  f"{MIN_SPRT_S // 60} minutes of the budget left")
        return
    log(work, f"SPRT until {time.strftime('%H:%M', time.localtime(deadline))}: {shown(cmd, work)}")
    bounds = tuple(float(b) for b in SPRT_BOUNDS)
    verdict, pairs = play_on(cmd, work / "sprt.log", f"gen{st['gen']}", [], bounds, deadline, ROOT)
    # Every finished game counts, as the pairs do: fastchess's last printed score can
    # trail them (generation 39's said 180 games beside 93 pairs).
    points = list(runner.games((work / "sprt.log").read_text(), f"gen{st['gen']}").values())
    s = {"w": points.count(1.0), "l": points.count(0.0), "d": points.count(0.5),
         "games": len(points)}
    elo, err = pair_elo(pairs)
    said = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision yet"}[verdict]
    st["sprt"] = {"w": s["w"], "l": s["l"], "d": s["d"], "games": s["games"],
                  "elo": f"{elo:+.1f}", "err": f"{err:.1f}",
                  "verdict": f"SPRT [{SPRT_BOUNDS[0]}, {SPRT_BOUNDS[1]}]: {said} (LLR "
                             f"{llr(pairs, *bounds):.2f}, bounds +-{SPRT_HI:.2f}, {len(pairs)} pairs)",
                  "llr": round(llr(pairs, *bounds), 2), "pairs": len(pairs),
                  "h1": verdict == "H1", "cmd": shown(cmd, work)}
    log(work, f"SPRT: {s['w']}-{s['l']}-{s['d']}, {elo:+.1f} +- {err:.1f}: {st['sprt']['verdict']}")


def step_ship(st, work):
    pick = st[f"train_{st['pick']['pick']}"]
    old = NETS / f"gen{st['shipped']}.nnue"
    if not old.exists():
        shutil.copy(NETS / "default.nnue", old)
        if (NETS / "default.float").exists():
            shutil.copy(NETS / "default.float", old.with_suffix(".float"))
    shutil.copy(pick["net"], NETS / "default.nnue")
    shutil.copy(pick["float"], NETS / "default.float")
    st["shipped_files"] = ["nets/default.nnue", "nets/default.float", f"nets/{old.name}"]
    st["scale"] = scale_line(work / "ladya", st["gen"], st["shipped"])
    log(work, "shipped: nets/default.nnue and nets/default.float; rebuild, run `ladya bench`, "
              "update tests/bench.rs's BENCH_NODES, commit with the Bench: trailer")


def scale_line(engine, gen, shipped):
    """The record's line on the new default network's scale beside its predecessor's and the
    fit's (`docs/wdl.md`: a moved scale calls for a refit and a new SPSA run), or None when
    the positions are not beside the clone."""
    if not net_scale.POSITIONS.exists():
        return None
    names = {str(NETS / "default.nnue"): f"generation {gen}",
             str(NETS / f"gen{shipped}.nnue"): f"generation {shipped}",
             str(FIT_NET): f"{FIT_NET.stem.replace('gen', 'generation ')} (the fit's)"}
    nets = [n for n in names if Path(n).exists()]
    shown_nets = " ".join(str(Path(n).relative_to(ROOT)) for n in nets)
    try:
        said = net_scale.describe(net_scale.measure(engine, nets), names)
    except net_scale.ScaleError as e:  # the network has shipped: say so, and finish the record
        said = f"not measured ({e})"
    return f"**Scale** (`python3 tools/net_scale.py {shown_nets}`): {said}."


def keep_undecided(st, work):
    """Keeps an SPRT the budget cut short in the repository, so that a later run, on any
    machine, plays on (`--resume-sprt N`): the candidate's weights, and its game pairs so
    far as quarter points (0 to 4, one digit a pair)."""
    g, pick = st["gen"], st["pick"]["pick"]
    t = st[f"train_{pick}"]
    CANDIDATES.mkdir(exist_ok=True)
    name = f"gen{g}-{pick}"
    shutil.copy(t["net"], CANDIDATES / f"{name}.nnue")
    shutil.copy(t["float"], CANDIDATES / f"{name}.float")
    played = work / "sprt.log"
    pairs = pair_scores(played.read_text(), f"gen{g}") if played.exists() else []
    record = {"gen": g, "candidate": f"nets/candidates/{name}.nnue", "hash": t["hash"],
              "opponent": st["shipped"], "opponent_hash": st["build"]["base_hash"],
              "tc": SPRT_TC, "bounds": [float(b) for b in SPRT_BOUNDS],
              "runs": [{"seed": st["seed"], "commit": st["build"]["commit"],
                        "pairs": encode(pairs)}] if played.exists() else []}
    path = CANDIDATES / f"gen{g}-sprt.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    st["kept"] = str(path.relative_to(ROOT))
    log(work, f"undecided: candidate and {len(pairs)} game pairs kept in {st['kept']} "
              f"(continue with --resume-sprt {g})")


def record_path(args, gen):
    """Generation `gen`'s kept SPRT, made from its work folder when a run of the old script
    ended without keeping it."""
    path = CANDIDATES / f"gen{gen}-sprt.json"
    if not path.exists():
        work = Path(args.work) / f"gen{gen}"
        st = json.loads((work / "state.json").read_text())
        if st.get("sprt", {}).get("h1") or "pick" not in st:
            sys.exit(f"generation {gen} has no undecided SPRT to keep")
        keep_undecided(st, work)
        save(st, work)
    return path


def resume_sprt(args):
    """Plays on a kept SPRT: the candidate against the shipped network with a new seed,
    stopped when the pairs of every run so far decide it, or at the budget's end."""
    gen = args.resume_sprt
    path = record_path(args, gen)
    rec = json.loads(path.read_text())
    if f"{net_hash(NETS / 'default.nnue'):016x}" != rec["opponent_hash"]:
        sys.exit(f"the shipped network is no longer the one generation {gen} was tested against")
    if any(run["seed"] == args.seed for run in rec["runs"]):
        sys.exit(f"seed {args.seed} was used by an earlier run of this SPRT: pick another")
    elo0, elo1 = rec["bounds"]
    prior = [x for run in rec["runs"] for x in decode(run["pairs"])]
    work = Path(args.work) / f"gen{gen}-sprt-{args.seed}"
    work.mkdir(parents=True, exist_ok=True)
    end = time.time() + args.hours * 3600
    commit = sh(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT).strip()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    shutil.copy(ROOT / "target" / "release" / "ladya", work / "ladya")
    shutil.copy(NETS / "default.nnue", work / "base.nnue")
    shipped = rec["opponent"]
    cmd = sprt_match(args, work, gen, ROOT / rec["candidate"], shipped, work / "base.nnue", args.seed)
    log(work, f"SPRT of generation {gen} continued from {len(prior)} pairs until "
              f"{time.strftime('%H:%M', time.localtime(end))}: {shown(cmd, work)}")
    keep = recorder(rec, path, {"seed": args.seed, "commit": commit})
    verdict, pairs = play_on(cmd, work / "sprt.log", f"gen{gen}", prior, (elo0, elo1), end, ROOT,
                             on_pairs=keep)
    every = prior + pairs
    ratio = llr(every, elo0, elo1)
    elo, err = pair_elo(every)
    this_elo, this_err = pair_elo(pairs)
    said = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision yet"}[verdict]
    # On H1 the pairs move beside the record (below), so the line names where they will be.
    pairs_home = "history" if verdict == "H1" else "candidates"
    line = (f"**SPRT continued** (`python3 tools/generation.py --resume-sprt {gen} {budget_flag(args)} "
            f"--seed {args.seed}` at commit `{commit}`: fastchess at {rec['tc']} "
            f"with `-srand {args.seed}`, stopped on the pairs of every run): {len(pairs)} more pairs, "
            f"{this_elo:+.1f} +- {this_err:.1f} Elo; all {len(every)} pairs of {len(rec['runs'])} runs "
            f"(`nets/{pairs_home}/gen{gen}-sprt.json`): {elo:+.1f} +- {err:.1f} Elo, LLR {ratio:.2f} "
            f"(bounds +-{SPRT_HI:.2f}): **{said}**.")
    netlog.append_record(gen, line)
    text = netlog.update_row(netlog.read(), gen, result=clock_result(elo, err, ratio, len(every), verdict))
    if verdict == "H1":
        old = NETS / f"gen{shipped}.nnue"
        if not old.exists():
            shutil.copy(NETS / "default.nnue", old)
            if (NETS / "default.float").exists():
                shutil.copy(NETS / "default.float", old.with_suffix(".float"))
        shutil.copy(ROOT / rec["candidate"], NETS / "default.nnue")
        shutil.copy((ROOT / rec["candidate"]).with_suffix(".float"), NETS / "default.float")
        text = netlog.ship(text, gen, rec["hash"], shipped,
                           f"Shipped once its SPRT was continued: its candidate as "
                           f"`nets/default.nnue`, its float weights as `nets/default.float`; "
                           f"generation {shipped} kept as `nets/gen{shipped}.nnue`"
                           + (f" and `nets/gen{shipped}.float`."
                              if old.with_suffix(".float").exists() else "."))
        # The candidate is the default now, and a decided SPRT is not resumed: candidates/
        # keeps only what can be; the game pairs go beside the generation's record.
        for kept in (ROOT / rec["candidate"], (ROOT / rec["candidate"]).with_suffix(".float")):
            kept.unlink(missing_ok=True)
        path.replace(netlog.HISTORY / path.name)
        scale = scale_line(work / "ladya", gen, shipped)
        if scale:
            netlog.append_record(gen, scale)
        log(work, "shipped: nets/default.nnue and nets/default.float (the candidate's files leave "
                  "nets/candidates, its SPRT's pairs go to nets/history); rebuild, run `ladya bench`, "
                  "update tests/bench.rs's BENCH_NODES, commit with the Bench: trailer")
    netlog.write(text)
    log(work, line)


def loss_table(st):
    rows = []
    for kind in ("warm", "scratch"):
        t = st.get(f"train_{kind}")
        if not t:
            continue
        e = t["epochs"]
        rows.append((kind, e))
    if not rows:
        return ""
    # Columns by the epochs' own numbers, each run's losses under theirs (a record whose
    # first epochs were lost starts later).
    epochs = sorted({x["epoch"] for _, e in rows for x in e})
    head = "| epoch | " + " | ".join(map(str, epochs)) + " |\n"
    head += "|---|" + "---|" * len(epochs) + "\n"
    body = ""
    for kind, e in rows:
        loss = {x["epoch"]: f"{x['validation']:.6f}".lstrip("0") for x in e}
        body += f"| {kind}: validation loss | " + " | ".join(loss.get(n, "") for n in epochs) + " |\n"
    return head + body


def entry(st, args):
    g, s = st["gen"], st["shipped"]
    won = st.get("sprt", {}).get("h1")
    pick = st.get("pick", {}).get("pick")
    title = (f"## Generation {g} (`default.nnue`, hash `{st[f'train_{pick}']['hash']}`): generation {s}'s own games, {pick}"
             if won else f"## Generation {g} (tried, not shipped): generation {s}'s own games")
    b = st["build"]
    lines = [title, ""]
    if won:
        lines += [f"Shipped: `{st[f'train_{pick}']['net']}` (`final.nnue` of the {pick} run) as "
                  f"`nets/default.nnue`, its float weights as `nets/default.float`; generation {s} "
                  f"kept as `nets/gen{s}.nnue`.", ""]
    else:
        lines += [f"Generation {s} stays the default.", ""]
    flags = (f" --train-reserve {args.train_reserve:g}" if args.train_reserve != TRAIN_RESERVE_MIN else "") + \
            (f" --sprt-reserve {args.sprt_reserve:g}" if args.sprt_reserve != SPRT_RESERVE_MIN else "") + \
            (f" --init {b['init']}" if args.init else "") + \
            (f" --selfplay-nodes {args.selfplay_nodes}" if getattr(args, "selfplay_nodes", NODES) != NODES else "") + \
            (f" --random-plies {args.random_plies}" if getattr(args, "random_plies", RANDOM_PLIES) != RANDOM_PLIES else "") + \
            (f" --warm-lr {args.warm_lr:g}" if getattr(args, "warm_lr", WARM_LR) != WARM_LR else "") + \
            (f" --warm-epochs {args.warm_epochs}" if getattr(args, "warm_epochs", WARM_EPOCHS) != WARM_EPOCHS else "") + \
            (" --syzygy" if args.syzygy else "") + \
            (" --warm-only" if st.get("warm_only") else "") + \
            (" --skip-shared" if st.get("skip_shared") else "") + \
            (f" --king-buckets {st['king_buckets']}" if st.get("king_buckets", 1) != 1 else "") + \
            "".join(f" --replay {Path(f).name}" for f in st.get("replay", []))
    lines += [f"Made by `python3 tools/generation.py {budget_flag(args)} --seed {args.seed} "
              f"--threads {args.threads}{flags}` at commit `{b['commit']}`{' (with uncommitted changes)' if b['dirty'] else ''}, "
              f"the generator and the trainer of that build; wall time "
              f"{(st.get('finished', time.time()) - st['started']) / 60:.0f} minutes.", ""]
    d = st.get("datagen")
    if d:
        lines += [f"**Self-play**: {d['games']:,} games, {d['positions']:,} positions in "
                  f"{d['seconds'] // 60} minutes ({d['rate']} positions a second), with the shipped "
                  f"network (`{d['evaluation']}`), kept as `nets/games/"
                  f"{st.get('publish', {}).get('file') or '(not kept)'}`"
                  f"{' by an earlier `--selfplay-only` run with this seed' if d.get('adopted') else ''}:",
                  "", "```",
                  shown_datagen(d["cmd"]), "```", ""]
    if st.get("data"):
        total = sum(f["positions"] for f in st["data"])
        lines += [f"**Data**, {total:,} positions in this order (the last "
                  f"{st.get('held_out', int(total * HELD_OUT_SHARE)):,}, the newest games, held out):", "",
                  "| file | positions |", "|---|---|"]
        lines += [f"| `{f['file']}`{' (this generation' + chr(39) + 's games)' if f.get('new') else ''} | {f['positions']:,} |"
                  for f in st["data"]]
        lines += [""]
    for kind in ("warm", "scratch"):
        t = st.get(f"train_{kind}")
        if t:
            rate = max(e["rate"] for e in t["epochs"]) if t["epochs"] else 0
            cmd = " ".join(Path(c).name if c.endswith(".bin") else c for c in t["cmd"][1:])
            cmd = cmd.replace(st["build"]["init_file"], st["build"]["init"])
            lines += [f"**Training, {kind}** ({t['seconds']} s, up to {rate:,.0f} positions a second), "
                      f"hash `{t['hash']}`:", "", "```", "ladya " + cmd.replace(str(Path(st['datagen']['out']).parent) + "/", ""),
                      "```", ""]
    table = loss_table(st)
    if table:
        lines += [table]
    p = st.get("pick")
    if p and p["match"] is None:
        lines += ["**Pick**: warm, the only run (`--warm-only`: no network from scratch was trained).", ""]
    elif p:
        m = p["match"]
        lines += [f"**Warm against scratch**, {m['games']} games at {MATCH_NODES} nodes a move "
                  f"(fastchess, UHO openings): {m['w']}-{m['l']}-{m['d']}, {m['elo']} +- {m['err']} Elo; "
                  f"lower validation loss: {p['by_loss']}; **picked: {p['pick']}**.", ""]
    ga = st.get("gauntlet")
    if ga:
        lines += [f"**Against generation {s}**, {ga['games']} games at {MATCH_NODES} nodes a move: "
                  f"{ga['w']}-{ga['l']}-{ga['d']}, {ga['elo']} +- {ga['err']} Elo" +
                  ("" if p["match"] is None else f" (the pick match is the same command with the two "
                   f"trained networks and `-rounds {PICK_ROUNDS}`)") + ":", "",
                  "```", ga["cmd"], "```", ""]
    sp = st.get("sprt")
    if sp and sp.get("not_played"):
        lines += [f"**SPRT against generation {s}** at {SPRT_TC}: not played yet, the budget ended "
                  f"before it. The candidate is kept in `candidates/`: `python3 tools/generation.py "
                  f"--resume-sprt {g}` plays it.", ""]
    elif sp:
        lines += [f"**SPRT against generation {s}** at {SPRT_TC}: {sp['games']} games, {sp['w']}-{sp['l']}-{sp['d']}, "
                  f"{sp['elo']} +- {sp['err']} Elo (pentanomial); {sp['verdict']}.", "", "```", sp["cmd"], "```", ""]
    if st.get("scale"):
        lines += [st["scale"], ""]
    return "\n".join(lines) + "\n"


def clock_result(elo, err, ratio, pairs, verdict):
    """The table's "result at the clock" cell."""
    figures = f"{elo:+.1f} ± {err:.1f}, LLR {ratio:.2f} ({pairs} pairs)"
    return f"{verdict}, {figures}" if verdict else f"{figures}: undecided"


def table_row(st):
    """Generation st's row of the table at the head of nets/README.md."""
    g, s = st["gen"], st["shipped"]
    pick = st["pick"]["pick"]
    init = Path(st["build"]["init"]).name  # nets/default.float, or a candidate's gen<K>-warm.float
    if pick == "scratch":
        started = "scratch"
    elif init.startswith("gen") and "-" in init:
        started = f"{init.split('-')[0]} candidate, warm"
    else:
        started = f"gen{s} (shipped), warm"
    if st["pick"].get("match"):
        started += f" (over {'scratch' if pick == 'warm' else 'warm'})"
    total = sum(f["positions"] for f in st["data"])
    new = sum(f["positions"] for f in st["data"] if f.get("new"))
    sp = st["sprt"]
    verdict = "H1" if sp["h1"] else "H0" if "H0" in sp["verdict"] else None
    ga = st.get("gauntlet")
    if sp.get("not_played"):
        result = ("not played yet" +
                  (f": {float(ga['elo']):+.1f} ± {float(ga['err']):.1f} at {MATCH_NODES:,} nodes ({ga['games']} games)"
                   if ga else "") +
                  f"; the budget ended first, candidate kept (`--resume-sprt {g}`)")
    elif "llr" in sp:
        result = clock_result(float(sp["elo"]), float(sp["err"]), sp["llr"], sp["pairs"], verdict)
    else:
        result = sp["verdict"]
    return netlog.row_cells(g, started, f"{total / 1e6:.1f}M ({new / 1e6:.1f}M new, gen{s}'s)", f"gen{s}",
                            result, netlog.SHIPPED_NOW if sp["h1"] else "no",
                            st[f"train_{pick}"]["hash"])


def step_report(st, work, args):
    """The generation's full record in nets/history/, its row and a short entry in
    nets/README.md (the hand-written paragraph of what it means goes there too)."""
    full = entry(st, args)
    netlog.write_record(st["gen"], full)
    heading, status = full.split("\n")[0], full.split("\n")[2]
    ga, sp = st.get("gauntlet"), st["sprt"]
    at_clock = (f"its SPRT at {SPRT_TC} not played yet (`--resume-sprt {st['gen']}`)."
                if sp.get("not_played") else f"at {SPRT_TC}: {sp['elo']} +- {sp['err']} Elo, {sp['verdict']}.")
    summary = (f"At {MATCH_NODES} nodes a move: {ga['elo']} +- {ga['err']} Elo; " if ga else "") + at_clock
    short = "\n\n".join([heading, status, summary,
                          f"Full record: [history/gen{st['gen']}.md](history/gen{st['gen']}.md)."])
    text = netlog.put_entry(netlog.read(), st["gen"], short)
    netlog.write(netlog.put_row(text, st["gen"], table_row(st)))
    (work / "entry.md").write_text(full)
    log(work, f"wrote generation {st['gen']}'s record in nets/history/ and its row and entry in nets/README.md")


def clock_time(text):
    """`HH:MM` as (hours, minutes), for `--until`."""
    try:
        t = datetime.datetime.strptime(text, "%H:%M")
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a time of day as HH:MM")
    return t.hour, t.minute


def hours_until(hour, minute, now=None):
    """Hours from `now` to the next `hour:minute` on the local clock (tomorrow's when today's
    has passed), so that `--until` is a budget like any other."""
    now = now or datetime.datetime.now()
    end = now.replace(hour=hour, minute=minute, second=0, microsecond=0)
    if end <= now:
        end += datetime.timedelta(days=1)
    return (end - now).total_seconds() / 3600


def budget_flag(args):
    """The budget as it was given, for the records' commands."""
    if args.until:
        return "--until {:02d}:{:02d}".format(*args.until)
    return f"--hours {args.hours:g}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--hours", type=float, help="time this invocation may take")
    budget.add_argument("--until", type=clock_time, metavar="HH:MM",
                        help="the budget ends at this time of day on this machine's clock (the next "
                             "time it comes): a run that must end at a set hour, such as a chain of runs")
    ap.add_argument("--seed", type=int,
                    help="seed of the self-play, training and matches (use one no file in shared/data/selfplay has)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--work", default="/var/tmp/ladya-data")
    ap.add_argument("--fastchess", help="fastchess binary (default: as tools/runner.py finds it)")
    ap.add_argument("--train-reserve", type=float, default=TRAIN_RESERVE_MIN,
                    help="minutes kept from self-play for training and the quick matches")
    ap.add_argument("--sprt-reserve", type=float, default=SPRT_RESERVE_MIN,
                    help="minutes kept from self-play for the SPRT")
    ap.add_argument("--selfplay-nodes", type=int, default=NODES,
                    help=f"nodes a move in self-play (default {NODES}, every generation so far): more "
                         "nodes give deeper scores and other games, at fewer positions a second")
    ap.add_argument("--random-plies", type=int, default=RANDOM_PLIES,
                    help=f"random plies after each opening in self-play (default {RANDOM_PLIES}): more "
                         "give positions further from the book")
    ap.add_argument("--warm-lr", type=float, default=WARM_LR,
                    help=f"peak learning rate of the warm run (default {WARM_LR}, generations 4 to 35 "
                         "but 23 and 24): lower keeps more of what the start network knows. "
                         "Generation 36 trained 6 epochs at 0.0001 and came within .000004 of generation "
                         "35's validation loss (30 epochs at 0.0005) in a fifth of the time")
    ap.add_argument("--warm-epochs", type=int, default=WARM_EPOCHS,
                    help=f"epochs of the warm run (default {WARM_EPOCHS}; generations 26 to 35 took 20 "
                         "or 30 on their 20-37M positions): generation 23's validation loss was "
                         "lowest after the first of eight, so a small new set may want a shorter step")
    ap.add_argument("--init", help="network (float weights, checkpoint or .nnue) the warm run starts from, "
                                    "when not the shipped one: e.g. an unshipped candidate that learnt from "
                                    "more games (the SPRT is still against the shipped network)")
    ap.add_argument("--replay", nargs="*", action="extend", default=[],
                    help="packed self-play files outside ../shared (an earlier generation's games that "
                         "could not be published) trained on after the shared ones, before the new games")
    ap.add_argument("--no-kept-games", action="store_true",
                    help="leave out the games of earlier generations' runs still in --work (by default "
                         "they join the replay, so that games last from run to run while /var/tmp does)")
    ap.add_argument("--skip-shared", action="store_true",
                    help="train on the new games and the --replay files only, not on "
                         "../shared/data/selfplay. Measured on generation 19: 3.0M of the "
                         "predecessor's games alone were learnt by heart (-28.7 at 5,000 nodes), "
                         "the same after the old games were not (-1.3): keep the old games unless "
                         "the new ones are many millions")
    ap.add_argument("--king-buckets", type=int, default=1, choices=[1, 4],
                    help="train networks with 4 mirrored king buckets (768x4 inputs; from a "
                         "network without them, each bucket starts as a copy of its inputs)")
    ap.add_argument("--syzygy", action="store_true",
                    help="self-play with tablebase adjudication: ../shared/data/syzygy ends a game as soon "
                         "as its tables know the result (5%% fewer positions a game, 2.7%% more positions a "
                         "CPU-second, and no gain in the network trained on them)")
    ap.add_argument("--smoke", action="store_true",
                    help="a quick check of the script itself: one epoch on 200,000 positions, 4-game matches, "
                         "nothing published, nets/ untouched (the entry goes to WORK/genN/entry.md)")
    ap.add_argument("--warm-only", action="store_true",
                    help="train only the warm network (no run from scratch, no pick match): "
                         "about 13 minutes of both cores less; the warm run won every pick of "
                         "generations 4 to 8")
    ap.add_argument("--selfplay-only", action="store_true",
                    help="stop once the new games are kept in nets/games (a budget that ends with a "
                         "session): the same command without it trains and tests them later, or, where "
                         "WORK is gone, the next run replays them from nets/games")
    ap.add_argument("--resume-sprt", type=int, metavar="N",
                    help="play on generation N's SPRT, kept in nets/candidates when a budget cut it "
                         "short: its pairs and the new ones decide together (needs a new --seed)")
    ap.add_argument("--keep", type=int, metavar="N",
                    help="only keep generation N's undecided SPRT in nets/candidates (a run does it "
                         "itself when its budget ends first)")
    args = ap.parse_args()
    if args.keep:
        print(record_path(args, args.keep))
        return
    if args.until:
        args.hours = hours_until(*args.until)
    if args.hours is None or args.seed is None:
        ap.error("--hours (or --until) and --seed are needed")
    args.fastchess = runner.find(args.fastchess)
    if args.smoke:
        global SCRATCH_EPOCHS, PICK_ROUNDS, GAUNTLET_ROUNDS
        SCRATCH_EPOCHS = args.warm_epochs = 1
        PICK_ROUNDS = GAUNTLET_ROUNDS = 2
    if args.resume_sprt:
        resume_sprt(args)
        return
    shipped, gen = generations()
    base = Path(args.work)
    existing = sorted(base.glob("gen*/state.json"))
    st = None
    for path in existing:  # an unfinished run of this generation resumes
        old = json.loads(path.read_text())
        if old["gen"] == gen and not old.get("done"):
            st = old
    work = base / f"gen{gen}"
    work.mkdir(parents=True, exist_ok=True)
    start = time.time()
    end = start + args.hours * 3600
    if st is None:
        st = {"gen": gen, "shipped": shipped, "seed": args.seed, "started": start,
              "replay": [str(Path(f).resolve()) for f in args.replay],
              "skip_shared": args.skip_shared, "king_buckets": args.king_buckets}
        if not args.no_kept_games:
            replayed = {str(Path(f).resolve()) for f in args.replay}
            st["kept_games"] = [(out, pub) for out, pub in kept_games(base, gen)
                                if str(Path(out).resolve()) not in replayed]
    log(work, f"generation {gen} (shipped: generation {shipped}), budget {args.hours:g} h, work {work}")
    if "build" not in st:
        step_build(st, work, args)
        save(st, work)
    if "publish" not in st and not args.selfplay_only and adopt_kept_games(st, work, args):
        save(st, work)
    if "publish" not in st:
        # With --selfplay-only nothing follows in this run: the whole budget is self-play's.
        reserve = 0 if args.selfplay_only else (args.train_reserve + args.sprt_reserve) * 60
        # However short the budget, self-play gets a minute: a generation needs new games.
        step_datagen(st, work, args, max(time.time() + MIN_SELFPLAY_S, end - reserve))
        save(st, work)
        if not args.smoke:
            step_publish(st, work, args)
        st["publish"] = st.get("publish", {})
        save(st, work)
    if args.selfplay_only:
        log(work, ("self-play done" if args.smoke else "self-play done and kept in nets/games") +
            f"; the same command without --selfplay-only goes on from here (state in {work}; "
            f"with that folder gone, the next run takes the games kept in nets/games as its new ones)")
        return
    if "data" not in st:
        step_data(st, work)
        save(st, work)
    if args.warm_only:
        st["warm_only"] = True
    for kind in ("warm",) if st.get("warm_only") else ("warm", "scratch"):
        if f"train_{kind}" not in st:
            step_train(st, work, args, kind)
            save(st, work)
    if "pick" not in st:
        if st.get("warm_only"):
            st["pick"] = {"match": None, "by_loss": None, "pick": "warm"}
        else:
            step_pick(st, work, args)
        save(st, work)
    if "gauntlet" not in st:
        cand = st[f"train_{st['pick']['pick']}"]["net"]
        st["gauntlet"] = fastchess(st, work, args, "gauntlet", cand, work / "base.nnue", GAUNTLET_ROUNDS,
                                   args.seed + 1)
        save(st, work)
    if "sprt" not in st:
        step_sprt(st, work, args, end)
        save(st, work)
    if st["sprt"]["h1"] and "shipped_files" not in st and not args.smoke:
        step_ship(st, work)
    elif "no decision" in st["sprt"]["verdict"] and "kept" not in st and not args.smoke:
        keep_undecided(st, work)
    st["finished"] = time.time()
    st["done"] = True
    if args.smoke:
        (work / "entry.md").write_text(entry(st, args))
    else:
        step_report(st, work, args)
    save(st, work)
    log(work, f"done in {(time.time() - start) / 60:.0f} minutes")


if __name__ == "__main__":
    main()
