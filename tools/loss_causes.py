"""Sorts Ladya's lost games by what went wrong, from `ladya analyse`'s annotated PGN.

usage: loss_causes.py ANNOTATED.pgn ORIGINAL.pgn (see tools/lost_games.py)
The original (fastchess) PGN gives the termination; the annotated one the %eval after each
move (White's view, pawns). The turning point is Ladya's first move after which the
evaluation, from Ladya's side, is -1.00 or worse and stays below -0.50 to the end. Its
cause: time (a loss on time); opening (by move 15); endgame technique (queens off or at most
26 points of pieces on the board); king safety (4 or more squares around Ladya's king
attacked); tactics the search missed (a drop of 1.5 pawns or more in one move); otherwise
middlegame positional (a smaller step over the line, after a slow decline). The judge is
Ladya's own analysis, so a turning point is where Ladya, searching deeper, sees the loss:
its own blind spots stay hidden.
"""
import re
import sys

import chess
import chess.pgn

EVAL = re.compile(r"\[%eval (#?-?[\d.]+)\]")
VALUES = {chess.QUEEN: 9, chess.ROOK: 5, chess.BISHOP: 3, chess.KNIGHT: 3}


def pawns(comment):
    m = EVAL.search(comment or "")
    if not m:
        return None
    v = m[1]
    if v.startswith("#"):
        return 100.0 if not v.startswith("#-") else -100.0
    return float(v)


def non_pawn(board):
    return sum(VALUES.get(p.piece_type, 0) for p in board.piece_map().values())


def king_zone_pressure(board, colour):
    king = board.king(colour)
    zone = chess.SquareSet(chess.BB_KING_ATTACKS[king]) | chess.SquareSet.from_square(king)
    return sum(1 for sq in zone if board.is_attacked_by(not colour, sq))


def classify(game, termination):
    ladya = chess.WHITE if game.headers["White"].lower().startswith("ladya") else chess.BLACK
    if "on time" in termination or "time forfeit" in termination:
        return "time", None
    board = game.board()
    rows = []  # (fullmove, ladya's move?, eval from ladya's side after the move, board copy)
    prev = None
    for node in game.mainline():
        mover = board.turn
        board.push(node.move)
        v = pawns(node.comment)
        if v is None:
            continue
        mine = v if ladya == chess.WHITE else -v
        rows.append((board.fullmove_number, mover == ladya, prev, mine, board.copy()))
        prev = mine
    turn = None
    for i, (move_no, by_ladya, before, after, b) in enumerate(rows):
        if not by_ladya or after > -1.0:
            continue
        if all(r[3] < -0.5 for r in rows[i:]):
            turn = i
            break
    if turn is None:
        return "gradual / unclear (no lasting turning point)", None
    move_no, _, before, after, b = rows[turn]
    drop = (before if before is not None else 0.0) - after
    queens = any(p.piece_type == chess.QUEEN for p in b.piece_map().values())
    endgame = non_pawn(b) <= 26 or not queens
    if move_no <= 15:
        return "opening", move_no
    if endgame:
        return "endgame technique", move_no
    if king_zone_pressure(b, ladya) >= 4:
        return "king safety", move_no
    if drop >= 1.5:
        return "tactics the search missed", move_no
    return "middlegame positional", move_no


def main():
    annotated, original = sys.argv[1], sys.argv[2]
    # Each game's termination (the header and the last move's comment), by its moves.
    by_key = {}
    with open(original) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            moves = tuple(m.uci() for m in g.mainline_moves())
            by_key[(g.headers.get("FEN"), moves)] = g.end().comment + " " + g.headers.get("Termination", "")
    counts = {}
    rows = []
    with open(annotated) as f:
        while (g := chess.pgn.read_game(f)) is not None:
            moves = tuple(m.uci() for m in g.mainline_moves())
            term = by_key.get((g.headers.get("FEN"), moves), "")
            cause, at = classify(g, term)
            counts[cause] = counts.get(cause, 0) + 1
            rows.append((g.headers.get("Round"), g.headers["White"], g.headers["Black"], cause, at))
    for r in rows:
        print(*r, sep="\t")
    print()
    total = sum(counts.values())
    print("| cause | games | share |")
    print("|---|---|---|")
    for cause, n in sorted(counts.items(), key=lambda x: -x[1]):
        print(f"| {cause} | {n} | {100 * n / total:.0f}% |")


if __name__ == "__main__":
    main()
