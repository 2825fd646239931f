#!/usr/bin/env python3
"""Fits Ladya's win/draw/loss model to its own games.

    python3 tools/fit_wdl.py ../shared/data/selfplay/ladya_gen2_5k_seed4002.bin.xz [...]

Reads packed 32-byte records (`ladya datagen`; `.xz` files are decompressed on the fly):
the search score in centipawns and the game result, both from White's view, and the
material on the board. The model is the shape of Stockfish's `win_rate_model`: for a
score v (for the side to move) and material m (pawn 1, knight and bishop 3, rook 5,
queen 9; clamped to 17..78, divided by 58),

    win  = 1 / (1 + exp((a(m) - v) / b(m)))
    loss = 1 / (1 + exp((a(m) + v) / b(m)))
    draw = 1 - win - loss

with a and b cubic in m. The eight coefficients maximise the likelihood of the results
on all but the last 10% of the records (the positions of one game stand together, so the
tail is other games); the tail measures the fit: its log-loss against the model and
against two references (the results' base rates alone, and the best model with a and b
not depending on material), and a table of predicted against actual rates by score.
Prints the coefficients as Rust constants for `src/search/wdl.rs`, and the held-out
log-loss of the coefficients that file holds now, so that a refit replaces them only when
it predicts the held-out games better.

Games of a match (`match.py` or fastchess PGNs with each move's score) become records with
`ladya data pgn --out games.bin GAMES.pgn` (`--player NAME` keeps only NAME's moves, where
the other side is another engine, whose scores are on its own scale).
"""

import argparse
import lzma
import re
import sys
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

VALUES = np.array([1, 3, 3, 5, 9, 0, 5, 0], dtype=np.int64)  # nibble type 6: castling rook


def load(paths, limit):
    chunks = []
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rb") as f:
            data = np.frombuffer(f.read(), dtype=np.uint8)
        chunks.append(data[: len(data) // 32 * 32].reshape(-1, 32))
    rec = np.concatenate(chunks)
    if limit and len(rec) > limit:  # an even sample, keeping the order (games stay together)
        rec = rec[np.linspace(0, len(rec) - 1, limit).astype(np.int64)]
    occ = rec[:, 0:8].copy().view("<u8").ravel()
    count = np.array([bin(int(x)).count("1") for x in occ], dtype=np.int64)
    nib = np.empty((len(rec), 32), dtype=np.int64)
    nib[:, 0::2] = rec[:, 8:24] & 15
    nib[:, 1::2] = rec[:, 8:24] >> 4
    present = np.arange(32)[None, :] < count[:, None]
    material = (VALUES[nib & 7] * present).sum(axis=1)
    score = rec[:, 24:26].copy().view("<i2").ravel().astype(np.float64)
    result = rec[:, 26].astype(np.int64)  # for White: 0 loss, 1 draw, 2 win
    return score, material, result


def coefficients(theta, m):
    a = ((theta[0] * m + theta[1]) * m + theta[2]) * m + theta[3]
    b = ((theta[4] * m + theta[5]) * m + theta[6]) * m + theta[7]
    return a, np.maximum(b, 1.0)


def probabilities(theta, score, material):
    m = np.clip(material, 17, 78) / 58.0
    a, b = coefficients(theta, m)
    win = 1 / (1 + np.exp((a - score) / b))
    loss = 1 / (1 + np.exp((a + score) / b))
    return win, np.maximum(1 - win - loss, 1e-9), loss


def log_loss(theta, score, material, result):
    win, draw, loss = probabilities(theta, score, material)
    p = np.where(result == 2, win, np.where(result == 1, draw, loss))
    return -np.mean(np.log(np.maximum(p, 1e-12)))


def fit(score, material, result, flat):
    start = np.array([0, 0, 0, 250.0, 0, 0, 0, 120.0])
    if flat:  # a and b constant: only the cubic's constant terms move
        f = lambda t: log_loss(np.array([0, 0, 0, t[0], 0, 0, 0, t[1]]), score, material, result)
        r = minimize(f, start[[3, 7]], method="Nelder-Mead", options={"maxiter": 2000, "xatol": 1e-3, "fatol": 1e-9})
        return np.array([0, 0, 0, r.x[0], 0, 0, 0, r.x[1]])
    r = minimize(lambda t: log_loss(t, score, material, result), start, method="Powell",
                 options={"maxiter": 20000, "xtol": 1e-4, "ftol": 1e-10})
    return r.x


def shipped():
    """The coefficients `src/search/wdl.rs` holds now, as a theta."""
    text = (Path(__file__).resolve().parent.parent / "src" / "search" / "wdl.rs").read_text()
    def row(name):
        m = re.search(rf"pub const {name}: \[f64; 4\] = \[([^\]]*)\];", text)
        return [float(x) for x in m.group(1).split(",")]
    return np.array(row("WDL_A") + row("WDL_B"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--limit", type=int, default=1_000_000, help="positions used (an even sample)")
    args = ap.parse_args()
    score, material, result = load(args.files, args.limit)
    cut = len(score) * 9 // 10
    train = (score[:cut], material[:cut], result[:cut])
    test = (score[cut:], material[cut:], result[cut:])
    theta = fit(*train, flat=False)
    flat = fit(*train, flat=True)
    rates = np.bincount(train[2], minlength=3) / cut
    base = -np.mean(np.log(rates[test[2]]))
    print(f"{len(score):,} positions: {cut:,} to fit, {len(score) - cut:,} held out")
    print(f"held-out log-loss: model {log_loss(theta, *test):.5f}, a and b without material "
          f"{log_loss(flat, *test):.5f}, base rates alone {base:.5f}, "
          f"src/search/wdl.rs now {log_loss(shipped(), *test):.5f}")
    print("\n| score (cp) | positions | win predicted / actual | draw | loss |\n|---|---|---|---|---|")
    win, draw, loss = probabilities(theta, test[0], test[1])
    for lo, hi in [(-2000, -600), (-600, -300), (-300, -150), (-150, -50), (-50, 50), (50, 150),
                   (150, 300), (300, 600), (600, 2000)]:
        sel = (test[0] >= lo) & (test[0] < hi)
        if sel.sum() == 0:
            continue
        r = test[2][sel]
        print(f"| {lo}..{hi} | {sel.sum():,} | {win[sel].mean():.3f} / {(r == 2).mean():.3f} | "
              f"{draw[sel].mean():.3f} / {(r == 1).mean():.3f} | {loss[sel].mean():.3f} / {(r == 0).mean():.3f} |")
    print("\n/// a(m): the score (cp) at which a win is as likely as not, cubic in material m / 58.")
    print("pub const WDL_A: [f64; 4] = [" + ", ".join(f"{x:.6}" for x in theta[:4]) + "];")
    print("/// b(m): the spread of the win curve (cp), cubic in material m / 58.")
    print("pub const WDL_B: [f64; 4] = [" + ", ".join(f"{x:.6}" for x in theta[4:]) + "];")
    print(f"\n(a, b without material: {flat[3]:.3f}, {flat[7]:.3f})")


if __name__ == "__main__":
    sys.exit(main())
