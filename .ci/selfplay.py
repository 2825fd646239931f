#!/usr/bin/env python3
"""CI smoke test: short games of Ladya against itself through python-chess's UCI client.

Fails (exit 1) on an illegal move, a missing move in a live position, a time loss, a
crash, a move that does not come within its clock plus WATCHDOG seconds (a hang), and
anything python-chess complains about (its log at warning level or above: an illegal
ponder move, a `bestmove` nobody asked for, a line it cannot parse). Covers increment and moves-to-go clocks, pondering (ponderhit and ponder misses)
and one Chess960 game. Clocks are kept here, around each `play` call.

Usage: selfplay.py ENGINE [--games-dir DIR]
"""
import concurrent.futures
import logging
import os
import sys
import time

import chess
import chess.engine

MAX_PLIES = 160          # adjudicate a draw after this many plies: the test is about the protocol
MARGIN = 0.05            # seconds a move may exceed the clock (pipe and Python overhead)
WATCHDOG = 5.0           # seconds past its clock after which a move counts as a hang


class Complaints(logging.Handler):
    """Collects what python-chess logs at warning level or above about the engines."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


COMPLAINTS = Complaints()
logging.getLogger("chess.engine").addHandler(COMPLAINTS)
HERE = os.path.dirname(os.path.abspath(__file__))
OPENINGS = os.path.join(HERE, "..", "..", "shared", "data", "openings")


def first_lines(name, n):
    path = os.path.join(OPENINGS, name)
    try:
        with open(path) as f:
            return [l.strip() for l in f if l.strip()][:n]
    except OSError:
        return []


def board_from(line, chess960=False):
    if not line:
        return chess.Board(chess960=chess960)
    parts = line.split()
    if len(parts) >= 6 and parts[4].isdigit() and parts[5].isdigit():
        return chess.Board(" ".join(parts[:6]), chess960=chess960)
    board, _ = chess.Board.from_epd(line, chess960=chess960)
    return board


def play_game(exe, name, board, base, inc, moves_to_go=None, ponder=False):
    """Plays one game; returns None when it went well, else the reason it failed."""
    engines = [chess.engine.SimpleEngine.popen_uci(exe) for _ in range(2)]
    watchdog = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    COMPLAINTS.messages.clear()
    hung = False
    try:
        for e in engines:
            e.configure({"Hash": 8})
        clock = [base, base]          # indexed by chess.WHITE (True=1) / BLACK (False=0)
        left = [moves_to_go, moves_to_go]
        plies = 0
        while not board.is_game_over(claim_draw=True) and plies < MAX_PLIES:
            side = board.turn
            engine = engines[int(side)]
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                white_inc=inc, black_inc=inc, remaining_moves=left[int(side)])
            start = time.monotonic()
            try:
                future = watchdog.submit(engine.play, board, limit, ponder=ponder)
                result = future.result(timeout=clock[int(side)] + WATCHDOG)
            except concurrent.futures.TimeoutError:
                hung = True
                return f"no move within {clock[int(side)] + WATCHDOG:.1f}s at ply {plies}: a hang"
            except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
                return f"crash or protocol error at ply {plies}: {e!r}"
            used = time.monotonic() - start
            if COMPLAINTS.messages:
                return f"python-chess complained at ply {plies}: {COMPLAINTS.messages}"
            if used > clock[int(side)] + MARGIN:
                return (f"time loss at ply {plies}: used {used:.3f}s "
                        f"with {clock[int(side)]:.3f}s on the clock")
            clock[int(side)] += inc - used
            if moves_to_go is not None:
                left[int(side)] -= 1
                if left[int(side)] == 0:
                    left[int(side)] = moves_to_go
                    clock[int(side)] += base
            if result.move is None:
                return f"no move at ply {plies} in a live position {board.fen()}"
            if result.move not in board.legal_moves:
                return f"illegal move {result.move} at ply {plies} in {board.fen()}"
            board.push(result.move)
            plies += 1
        if COMPLAINTS.messages:
            return f"python-chess complained after the game: {COMPLAINTS.messages}"
        outcome = board.outcome(claim_draw=True)
        print(f"{name}: {plies} plies, "
              f"{outcome.result() if outcome else 'adjudicated draw'}, "
              f"clocks left {clock[chess.WHITE]:.2f}s / {clock[chess.BLACK]:.2f}s", flush=True)
        return None
    finally:
        for e in engines:
            try:
                if hung:
                    e.close()  # kills the process: a hung engine would not answer quit
                else:
                    e.quit()
            except Exception:  # an engine that crashed cannot quit; already reported
                pass
        watchdog.shutdown(wait=False)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    exe = os.path.abspath(sys.argv[1])
    std = first_lines("noob_3moves_sample.epd", 3)
    frc = first_lines("frc_3moves_sample.epd", 1)
    games = [
        ("increment", board_from(std[0] if std else None), 1.0, 0.05, None, False),
        ("sudden death, ponder", board_from(std[1] if len(std) > 1 else None), 1.0, 0.02, None, True),
        ("moves to go", board_from(std[2] if len(std) > 2 else None), 0.6, 0.0, 10, False),
        ("chess960, ponder", board_from(frc[0] if frc else None, chess960=True), 1.0, 0.05, None, True),
        # Hyper-bullet as tournaments play it (0.5 s + 5 ms). Without an increment every
        # move's pipe and Python overhead, which the engine cannot see, drains the clock:
        # on a loaded machine 77 moves of ~6.5 ms overhead flagged a 0.5 s game whose engine
        # searched 1 ms a move.
        ("bullet", chess.Board(), 0.5, 0.005, None, False),
    ]
    failures = 0
    for name, board, base, inc, mtg, ponder in games:
        error = play_game(exe, name, board, base, inc, mtg, ponder)
        if error:
            print(f"{name}: FAILED: {error}", flush=True)
            failures += 1
    print(f"self-play: {len(games) - failures}/{len(games)} games without error")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
