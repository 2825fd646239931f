#!/usr/bin/env python3
"""CI: `ladya analyse` writes a PGN that python-chess reads back with every move and
every `[%eval ...]` intact, and names the broken game of the fixture instead of failing.

usage: analyse_check.py LADYA FIXTURE.pgn
"""
import io
import subprocess
import sys
import tempfile

import chess
import chess.pgn


def games_of(text):
    stream, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    return games


def main():
    ladya, fixture = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        out, graph = f"{tmp}/annotated.pgn", f"{tmp}/graph.svg"
        run = subprocess.run(
            [ladya, "analyse", fixture, "--depth", "6", "--out", out, "--graph", graph],
            capture_output=True, text=True, timeout=600,
        )
        print(run.stdout + run.stderr)
        assert run.returncode == 0, "analyse failed"
        assert "skipped: illegal or unreadable move 4... Kxe9" in run.stderr + run.stdout
        annotated = games_of(open(out).read())
        svg = open(graph).read()
    originals = [g for g in games_of(open(fixture).read()) if not g.errors]
    assert len(annotated) == len(originals) == 3, (len(annotated), len(originals))
    for original, game in zip(originals, annotated):
        assert not game.errors, game.errors
        assert game.headers.get("Annotator", "").startswith("Ladya")
        assert [m.uci() for m in game.mainline_moves()] == [
            m.uci() for m in original.mainline_moves()
        ], game.headers
        for node in game.mainline():
            board = node.board()
            if board.is_checkmate():
                continue
            assert node.eval() is not None, f"no %eval after {node.move} in {game.headers}"
            assert "[%eval" in node.comment
        marked = [n for n in game.mainline() if {2, 4, 6} & set(n.nags)]
        for node in marked:
            # The better move stands as a variation beside the marked one.
            assert len(node.parent.variations) >= 2, node.move
        assert svg.count("<svg") == 1
        print(f"ok: {game.headers.get('White')} - {game.headers.get('Black')}: "
              f"{len(list(game.mainline_moves()))} moves, {len(marked)} marked")


if __name__ == "__main__":
    main()
