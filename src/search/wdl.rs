//! Win, draw and loss chances of a search score, for `UCI_ShowWDL` and `ladya analyse`.
//!
//! The model has the shape of Stockfish's `win_rate_model` and is fitted on Ladya's own
//! games (`tools/fit_wdl.py`, the fit and its quality in `docs/wdl.md`): for a score `v`
//! in centipawns for the side to move and the material `m` on the board (pawn 1, knight
//! and bishop 3, rook 5, queen 9, both sides; clamped to 17..78 and divided by 58),
//!
//! ```text
//! win  = 1 / (1 + exp((a(m) - v) / b(m)))
//! loss = 1 / (1 + exp((a(m) + v) / b(m)))
//! draw = 1 - win - loss
//! ```
//!
//! with `a` and `b` cubic in `m`. Fitted on the shipped network's games at the clock (an
//! SPRT at 8+0.08, the match against Stockfish at 10+0.1), which it predicts better than
//! the fits before it did (on older networks' games, on 5,000-node self-play): a level
//! opening reads about 36-28-36, a level ending with little material as the draw it is,
//! and an ending needs a larger score than an opening for the same chances (Ladya's
//! scores of endings run large).

use super::Score;
use crate::board::Position;
use crate::types::PieceType;

/// a(m): the score at which a win is as likely as not, cubic in `m / 58` (highest power
/// first).
pub const WDL_A: [f64; 4] = [-956.309, 2871.36, -2901.22, 1104.44];
/// b(m): how quickly the chances change with the score, cubic in `m / 58`.
pub const WDL_B: [f64; 4] = [-6.85461, 120.102, -172.414, 151.073];
/// The material range the model was fitted over (pawn units).
const MATERIAL_RANGE: (i32, i32) = (17, 78);
/// The material the polynomials' argument is divided by.
const MATERIAL_SCALE: f64 = 58.0;

/// Chances per mille for the side to move; they sum to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinChances {
    /// Win, per mille.
    pub win: u32,
    /// Draw, per mille.
    pub draw: u32,
    /// Loss, per mille.
    pub loss: u32,
}

/// The material of `pos` in the model's units: pawn 1, knight and bishop 3, rook 5,
/// queen 9, both sides.
pub fn material(pos: &Position) -> i32 {
    [
        (PieceType::Pawn, 1),
        (PieceType::Knight, 3),
        (PieceType::Bishop, 3),
        (PieceType::Rook, 5),
        (PieceType::Queen, 9),
    ]
    .iter()
    .map(|&(kind, value)| value * pos.pieces(kind).count() as i32)
    .sum()
}

/// The chances of `score` (for the side to move) with `material` on the board. A mate
/// score is a certain result.
pub fn win_chances(score: Score, material: i32) -> WinChances {
    let v = match score {
        Score::Mate(n) if n > 0 => {
            return WinChances {
                win: 1000,
                draw: 0,
                loss: 0,
            }
        }
        Score::Mate(_) => {
            return WinChances {
                win: 0,
                draw: 0,
                loss: 1000,
            }
        }
        Score::Cp(v) => f64::from(v),
    };
    let m = f64::from(material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / MATERIAL_SCALE;
    let cubic = |c: &[f64; 4]| ((c[0] * m + c[1]) * m + c[2]) * m + c[3];
    let (a, b) = (cubic(&WDL_A), cubic(&WDL_B).max(1.0));
    let win = 1.0 / (1.0 + ((a - v) / b).exp());
    let loss = 1.0 / (1.0 + ((a + v) / b).exp());
    let win = (win * 1000.0).round() as u32;
    let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
    WinChances {
        win,
        draw: 1000 - win - loss,
        loss,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chances(fen: &str, cp: i32) -> WinChances {
        let pos = Position::from_fen(fen).unwrap();
        win_chances(Score::Cp(cp), material(&pos))
    }

    #[test]
    fn chances_are_sane() {
        let start = crate::START_FEN;
        // Level: the two sides alike.
        let level = chances(start, 0);
        assert_eq!(level.win, level.loss, "{level:?}");
        // A dead draw (K+B v K, K+R v K+R) scored level: mostly a draw.
        for fen in [
            "8/8/8/4k3/8/8/8/KB6 w - - 0 1",
            "8/2r5/8/4k3/8/8/3R4/K7 w - - 0 1",
        ] {
            let dead = chances(fen, 0);
            assert!(dead.draw >= 800 && dead.win == dead.loss, "{fen}: {dead:?}");
        }
        // Monotone in the score, summing to 1000.
        let mut last = chances(start, -3000);
        for cp in (-2990..=3000).step_by(10) {
            let c = chances(start, cp);
            assert_eq!(c.win + c.draw + c.loss, 1000);
            assert!(
                c.win >= last.win && c.loss <= last.loss,
                "{cp}: {c:?} after {last:?}"
            );
            last = c;
        }
        assert!(last.win >= 990, "{last:?}");
        // K+Q v K at the score the search gives it (about 1,250 at depth 6): a win.
        let kqk = chances("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 1250);
        assert!(kqk.win >= 990, "{kqk:?}");
        // A pawn's edge in a pawn ending is mostly a draw (Ladya's scores of endings run
        // larger than their results); at the start it is mostly a win.
        let ending = chances("8/5pk1/8/8/8/8/5PKP/8 w - - 0 1", 100);
        assert!(
            ending.draw > ending.win && ending.win > ending.loss,
            "{ending:?}"
        );
        let opening = chances(start, 100);
        assert!(opening.win > opening.draw, "{opening:?}");
        // Mates are certain.
        assert_eq!(win_chances(Score::Mate(3), 40).win, 1000);
        assert_eq!(win_chances(Score::Mate(-1), 40).loss, 1000);
    }
}
