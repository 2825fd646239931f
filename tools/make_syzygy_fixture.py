#!/usr/bin/env python3
"""Writes tests/data/syzygy_fixture.txt: random legal 3- and 4-piece positions with their
WDL and DTZ as python-chess probes them, the independent reference `tests/syzygy.rs`
compares Ladya's prober with.

Usage: tools/make_syzygy_fixture.py ../shared/data/syzygy tests/data/syzygy_fixture.txt
Run once; the fixture is committed. Needs `pip install chess`.
"""
import random
import sys

import chess
import chess.syzygy

PIECES = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN]
COUNT = 2000
EP_SHARE = 0.1  # about one position in ten is made with an en-passant capture possible


def random_board(rng):
    """A random legal position with 3 or 4 pieces, or None."""
    board = chess.Board(None)
    extra = rng.choice([1, 2])
    squares = rng.sample(range(64), 2 + extra)
    board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
    for sq in squares[2:]:
        kind = rng.choice(PIECES)
        if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
            return None
        board.set_piece_at(sq, chess.Piece(kind, rng.choice([chess.WHITE, chess.BLACK])))
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    return board if board.is_valid() else None


def ep_board(rng):
    """A random 4-piece position right after a double pawn push that can be taken en
    passant, or None."""
    board = chess.Board(None)
    mover = rng.choice([chess.WHITE, chess.BLACK])
    file = rng.randrange(8)
    side = rng.choice([-1, 1])
    if not 0 <= file + side < 8:
        return None
    rank_to = 3 if mover == chess.WHITE else 4
    pushed = chess.square(file, rank_to)
    taker = chess.square(file + side, rank_to)
    board.set_piece_at(pushed, chess.Piece(chess.PAWN, mover))
    board.set_piece_at(taker, chess.Piece(chess.PAWN, not mover))
    free = [s for s in range(64) if board.piece_at(s) is None]
    k1, k2 = rng.sample(free, 2)
    board.set_piece_at(k1, chess.Piece(chess.KING, chess.WHITE))
    board.set_piece_at(k2, chess.Piece(chess.KING, chess.BLACK))
    board.turn = not mover
    board.ep_square = chess.square(file, 2 if mover == chess.WHITE else 5)
    # The squares the pawn crossed must have been empty.
    if board.piece_at(board.ep_square) or board.piece_at(
        chess.square(file, 1 if mover == chess.WHITE else 6)
    ):
        return None
    if not board.is_valid() or not board.has_legal_en_passant():
        return None
    return board


def main():
    tb_dir, out = sys.argv[1], sys.argv[2]
    rng = random.Random(20261125)
    seen = set()
    lines = []
    with chess.syzygy.open_tablebase(tb_dir) as tb:
        while len(lines) < COUNT:
            board = ep_board(rng) if rng.random() < EP_SHARE else random_board(rng)
            if board is None or board.fen() in seen:
                continue
            seen.add(board.fen())
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            lines.append(f"{board.fen()};{wdl};{dtz}\n")
    with open(out, "w") as f:
        f.write("# FEN;WDL;DTZ from python-chess " + chess.__version__
                + " (tools/make_syzygy_fixture.py)\n")
        f.writelines(lines)
    eps = sum(1 for l in lines if l.split()[3] != "-")
    print(f"wrote {len(lines)} positions ({eps} with en passant) to {out}")


if __name__ == "__main__":
    main()
