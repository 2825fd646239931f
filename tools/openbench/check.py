#!/usr/bin/env python3
"""Ladya as OpenBench sees it, checked with OpenBench's own code (a snapshot of it).

    python3 tools/openbench/check.py ENGINE [--openbench ../shared/tools/openbench]

1. `bench`: the client's parser (`Client/bench.py`) reads the node count and nps.
2. `genfens`: the client's opening generator (`Client/genfens.py`) runs the engine on two
   processes as a DATAGEN workload does; every opening is a legal position with moves,
   the same seeds give the same openings, and other seeds give others.
3. SPSA: `ladya tunables`, piped as a user copies it, passes the server's form check
   (`verify_spsa_inputs`), and every name is a UCI option of a `--features tune` build
   (`--tune-engine`, when given).
4. The engine file `tools/openbench/Ladya.json` passes the server's checks of an engine's
   configuration (`OpenBench/config.py`).

The server's functions are lifted out of its modules with `ast` (they need nothing of
Django), and the client's `utils` is replaced by a stand-in (it is only used to kill a
stalled engine), so the check needs nothing but python-chess.
"""

import argparse
import ast
import io
import json
import os
import subprocess
import sys
import tempfile
import types
import traceback
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[2]
ENGINE_FILE = ROOT / "tools" / "openbench" / "Ladya.json"


def lift(path, names, **globals_):
    """The functions `names` of the Python file `path`, defined in a namespace of their own
    holding `globals_` (the modules they use)."""
    tree = ast.parse(Path(path).read_text())
    wanted = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in names]
    missing = set(names) - {n.name for n in wanted}
    if missing:
        sys.exit(f"{path}: no function {', '.join(sorted(missing))}")
    space = dict(globals_)
    exec(compile(ast.Module(body=wanted, type_ignores=[]), str(path), "exec"), space)
    return [space[n] for n in names]


def client_modules(openbench):
    """OpenBench's `Client/bench.py` and `Client/genfens.py`, with a stand-in `utils`."""
    utils = types.ModuleType("utils")

    class OpenBenchFailedGenfensException(Exception):
        pass
    utils.OpenBenchFailedGenfensException = OpenBenchFailedGenfensException
    utils.kill_process_by_name = lambda name: subprocess.run(["pkill", "-f", name])
    sys.modules["utils"] = utils
    sys.path.insert(0, str(Path(openbench) / "Client"))
    import bench
    import genfens
    return bench, genfens


def check_bench(bench, engine):
    out = subprocess.run([engine, "bench"], check=True, capture_output=True).stdout
    nodes, nps = bench.parse_stream_output(out)
    assert nodes and nps, f"OpenBench reads no bench from: {out[-200:]!r}"
    print(f"bench: {nodes} nodes, {nps} nps (Client/bench.py)")


def genfens_book(genfens, engine, seeds, count, extra=""):
    """The openings the client would write for a DATAGEN workload, as FENs."""
    out = io.StringIO()
    genfens.create_genfens_opening_book({
        "N": count, "book": "None", "seeds": seeds, "extra": extra,
        "engine": engine, "threads": len(seeds), "output": out,
    })
    fens = []
    for epd in out.getvalue().splitlines():
        board, _ = chess.Board.from_epd(epd)
        assert board.is_valid() and not board.is_game_over(), epd
        fens.append(board.fen())
    return fens


def check_genfens(genfens, engine):
    with tempfile.TemporaryDirectory() as work:
        # The client runs `./<engine>` from its own folder.
        local = Path(work) / "ladya-genfens"
        local.symlink_to(Path(engine).resolve())
        here = os.getcwd()
        os.chdir(work)
        try:
            first = genfens_book(genfens, local.name, [11, 12], 16)
            again = genfens_book(genfens, local.name, [11, 12], 16)
            other = genfens_book(genfens, local.name, [13, 14], 16)
            tuned = genfens_book(genfens, local.name, [11], 4, "plies=4 maxscore=100")
        finally:
            os.chdir(here)
    assert len(first) == 32 and len(set(first)) == 32, first
    # The processes finish in any order: compare the sets.
    assert set(first) == set(again), "the same seeds gave other openings"
    assert not set(first) & set(other), "other seeds gave the same openings"
    assert len(tuned) == 4
    print(f"genfens: {len(first)} legal openings from two processes, reproducible "
          f"(Client/genfens.py), e.g. {first[0]}")


def check_spsa(openbench, engine, tune_engine):
    (verify_spsa_inputs,) = lift(Path(openbench) / "OpenBench/workloads/verify_workload.py",
                                 ["verify_spsa_inputs"], traceback=traceback)
    text = subprocess.run([engine, "tunables"], check=True, capture_output=True,
                          text=True).stdout
    request = types.SimpleNamespace(POST={"spsa_inputs": text})
    errors = []
    verify_spsa_inputs(errors, request, "spsa_inputs")
    assert not errors, errors
    names = [line.split(",")[0].strip() for line in text.split("\n")]
    if tune_engine:
        uci = subprocess.run([tune_engine], input="uci\nquit\n", check=True,
                             capture_output=True, text=True).stdout
        absent = [n for n in names if f"option name {n} type spin" not in uci]
        assert not absent, f"not options of {tune_engine}: {absent}"
    print(f"spsa: {len(names)} tunables pass verify_spsa_inputs"
          + (", each an option of the tune build" if tune_engine else ""))


def check_engine_file(openbench):
    checks = ["verify_engine_basics", "verify_engine_build", "verify_engine_test_preset",
              "verify_engine_tune_preset", "verify_engine_datagen_preset"]
    basics, build, test, tune, datagen = lift(Path(openbench) / "OpenBench/config.py", checks,
                                              os=os, PROJECT_PATH=str(openbench))
    conf = json.loads(ENGINE_FILE.read_text())
    basics(conf)
    build("Ladya", conf)
    for preset in conf["test_presets"].values():
        test(preset)
    for preset in conf["tune_presets"].values():
        tune(preset)
    for preset in conf["datagen_presets"].values():
        datagen(preset)
    books = {p.name.removesuffix(".json") for p in (Path(openbench) / "Books").glob("*.json")}
    for kind in ("test_presets", "tune_presets", "datagen_presets"):
        for preset in conf[kind].values():
            name = preset.get("book_name")
            assert name in (None, "None") or name in books, f"no book {name} in OpenBench"
    print(f"engine file: {ENGINE_FILE.relative_to(ROOT)} passes OpenBench/config.py")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engine")
    ap.add_argument("--tune-engine", help="a `--features tune` build, to check the option names")
    ap.add_argument("--openbench", default=str(ROOT.parent / "shared" / "tools" / "openbench"))
    args = ap.parse_args()
    engine = str(Path(args.engine).resolve())
    bench, genfens = client_modules(args.openbench)
    check_bench(bench, engine)
    check_genfens(genfens, engine)
    check_spsa(args.openbench, engine, args.tune_engine)
    check_engine_file(args.openbench)


if __name__ == "__main__":
    main()
