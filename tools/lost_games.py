"""Writes the games Ladya lost from a match's PGN (fastchess's), for `ladya analyse` and then
`tools/loss_causes.py`:

    python3 tools/lost_games.py match.pgn lost.pgn
    ladya analyse lost.pgn --nodes 60000 --out lost-annotated.pgn
    python3 tools/loss_causes.py lost-annotated.pgn lost.pgn
"""
import sys
import chess.pgn
src, out = sys.argv[1], sys.argv[2]
n = lost = 0
with open(src) as f, open(out, "w") as o:
    while (g := chess.pgn.read_game(f)) is not None:
        n += 1
        white = g.headers["White"].lower().startswith("ladya")
        if g.headers["Result"] == ("0-1" if white else "1-0"):
            lost += 1
            print(g, file=o, end="\n\n")
print(f"{lost} lost of {n}")
