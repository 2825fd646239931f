//! How good a move was: winning chances, the drop a move caused, its mark (`?!`, `?`,
//! `??`) and its accuracy.
//!
//! Scores become winning chances with the curve lichess publishes for its analysis,
//! `2 / (1 + exp(-0.00368208 * cp)) - 1` (from -1, lost, to +1, won), with the score
//! clamped to +-[`CP_CEILING`] first and mates counted as the ceiling. A move's *drop* is
//! how much it lowered its player's winning chances against the best score the engine
//! found before it. Marks and accuracy follow lichess's published thresholds and curve, so
//! a player reading Ladya's annotations sees the numbers other tools show.

use crate::search::Score;

/// Scores beyond this many centipawns count as this (a won position is won).
pub const CP_CEILING: i32 = 1000;
/// The slope of the winning-chances curve, per centipawn.
pub const WIN_CHANCE_SLOPE: f64 = 0.003_682_08;
/// A drop of at least this many winning chances (on the -1..1 scale) is an inaccuracy (`?!`).
pub const INACCURACY_DROP: f64 = 0.1;
/// ... a mistake (`?`).
pub const MISTAKE_DROP: f64 = 0.2;
/// ... a blunder (`??`).
pub const BLUNDER_DROP: f64 = 0.3;

/// The mark a move earns by its drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Lost less than [`INACCURACY_DROP`].
    Good,
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    /// The mark of a drop in winning chances.
    pub fn of_drop(drop: f64) -> Mark {
        if drop >= BLUNDER_DROP {
            Mark::Blunder
        } else if drop >= MISTAKE_DROP {
            Mark::Mistake
        } else if drop >= INACCURACY_DROP {
            Mark::Inaccuracy
        } else {
            Mark::Good
        }
    }

    /// The PGN suffix (`?!`, `?`, `??`), empty for a good move.
    pub fn suffix(self) -> &'static str {
        match self {
            Mark::Good => "",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The word for people.
    pub fn word(self) -> &'static str {
        match self {
            Mark::Good => "Good move",
            Mark::Inaccuracy => "Inaccuracy",
            Mark::Mistake => "Mistake",
            Mark::Blunder => "Blunder",
        }
    }
}

/// A score in centipawns clamped to +-[`CP_CEILING`]; mates count as the ceiling (being
/// mated, `Mate(0)` or negative, as minus the ceiling).
pub fn clamped_cp(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
    }
}

/// Winning chances from -1 (lost) to +1 (won) of a score, from the same side's view.
pub fn winning_chances(score: Score) -> f64 {
    let cp = clamped_cp(score) as f64;
    2.0 / (1.0 + (-WIN_CHANCE_SLOPE * cp).exp()) - 1.0
}

/// The accuracy (0-100 %) of a move that dropped the winning chances by `drop` (on the
/// -1..1 scale): lichess's curve `103.1668 exp(-0.04354 d) - 3.1669` of the drop `d` in
/// percentage points of winning probability (half the drop, times 100).
pub fn move_accuracy(drop: f64) -> f64 {
    let points = drop.max(0.0) * 50.0;
    (103.1668 * (-0.04354 * points).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The score from the other side's view.
pub fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_is_symmetric_and_clamped() {
        assert!(winning_chances(Score::Cp(0)).abs() < 1e-12);
        let up = winning_chances(Score::Cp(300));
        assert!((up + winning_chances(Score::Cp(-300))).abs() < 1e-12);
        assert!(up > 0.5 && up < 0.6, "{up}");
        assert_eq!(
            winning_chances(Score::Cp(5000)),
            winning_chances(Score::Mate(3))
        );
        assert_eq!(
            winning_chances(Score::Mate(0)),
            winning_chances(Score::Mate(-2))
        );
    }

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::of_drop(0.05), Mark::Good);
        assert_eq!(Mark::of_drop(0.1), Mark::Inaccuracy);
        assert_eq!(Mark::of_drop(0.25), Mark::Mistake);
        assert_eq!(Mark::of_drop(1.2), Mark::Blunder);
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(2.0) < 5.0);
    }
}
