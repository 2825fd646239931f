//! Correction history: what the search has learnt about how far the static evaluation
//! misses in positions with a given pawn structure.
//!
//! After a node is searched, the difference between its search score and its static
//! evaluation is blended into an entry indexed by the side to move and the pawn key; the
//! entry is added to the static evaluation of later nodes with that pawn structure. A
//! structure the network over- or underrates (a blocked chain, a weak pawn the search
//! keeps winning) is then judged closer to what the search finds, so the pruning steps
//! that compare the evaluation with the window (reverse futility, futility, null move,
//! stand pat) err less.
//!
//! A second pair of tables does the same for each side's placement of its other pieces
//! (the board's non-pawn keys, king included). A correction is the pawn entry plus half
//! of each non-pawn entry, and an update moves all three by the part of the error their
//! sum still misses, so together they learn what no one of them explains.

use super::params::{
    CORRECTION_ENTRIES, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_WEIGHT_MAX,
    USE_NON_PAWN_CORRECTION,
};
use crate::board::Position;
use crate::types::Color;

/// Per side to move, tables of evaluation corrections indexed by the pawn key and by
/// each colour's non-pawn key, in `1 / CORRECTION_GRAIN` centipawns. 16 bits an entry
/// (the limit fits), so the tables take half the cache.
pub struct CorrectionHistory {
    pawn: Box<[[i16; CORRECTION_ENTRIES]; 2]>,
    /// `[side to move][colour of the pieces][slot]`.
    non_pawn: Box<[[[i16; CORRECTION_ENTRIES]; 2]; 2]>,
}

const _: () = assert!(CORRECTION_LIMIT <= i16::MAX as i32);

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; CORRECTION_ENTRIES]; 2]),
            non_pawn: Box::new([[[0; CORRECTION_ENTRIES]; 2]; 2]),
        }
    }
}

impl CorrectionHistory {
    /// The entry of a (pawn or non-pawn) key in its table.
    #[inline]
    fn slot(key: u64) -> usize {
        (key % CORRECTION_ENTRIES as u64) as usize
    }

    /// The correction, in centipawns, of the static evaluation of `pos`.
    #[inline]
    pub fn correction(&self, pos: &Position) -> i32 {
        let sum = self.sum(pos).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
        sum / CORRECTION_GRAIN
    }

    /// The pawn entry plus half of each non-pawn entry of `pos`, in grains, unbounded.
    #[inline]
    fn sum(&self, pos: &Position) -> i32 {
        let side = pos.side_to_move().index();
        let pawn = i32::from(self.pawn[side][Self::slot(pos.pawn_key())]);
        if !USE_NON_PAWN_CORRECTION {
            return pawn;
        }
        let non_pawn: i32 = Color::ALL
            .iter()
            .map(|&c| i32::from(self.non_pawn[side][c.index()][Self::slot(pos.non_pawn_key(c))]))
            .sum();
        pawn + non_pawn / 2
    }

    /// Moves the entries of `pos` towards the error `searched - raw_eval` (centipawns)
    /// of a node searched to `depth`: each by `weight / 256` of what their sum still
    /// misses, where deeper searches weigh more and the weight is at most
    /// `CORRECTION_WEIGHT_MAX / 256`, so one odd node cannot swing them.
    pub fn update(&mut self, pos: &Position, depth: i32, error: i32) {
        let side = pos.side_to_move().index();
        let weight = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        let missing = error * CORRECTION_GRAIN - self.sum(pos);
        let step = missing * weight / 256;
        nudge(&mut self.pawn[side][Self::slot(pos.pawn_key())], step);
        if USE_NON_PAWN_CORRECTION {
            for c in Color::ALL {
                let slot = Self::slot(pos.non_pawn_key(c));
                nudge(&mut self.non_pawn[side][c.index()][slot], step);
            }
        }
    }
}

/// Adds `step` to `entry`, within the correction limit.
#[inline]
fn nudge(entry: &mut i16, step: i32) {
    // The clamp keeps the sum within the limit, which fits 16 bits.
    *entry = (i32::from(*entry) + step).clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) as i16;
}
#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5";

    #[test]
    fn corrections_move_towards_the_error_and_stay_bounded() {
        let mut c = CorrectionHistory::default();
        let pos = Position::from_fen(FEN).unwrap();
        let black = Position::from_fen(&FEN.replace(" w ", " b ")).unwrap();
        assert_eq!(c.correction(&pos), 0);
        for _ in 0..50 {
            c.update(&pos, 10, 40);
        }
        let after = c.correction(&pos);
        assert!(after > 20 && after <= 40, "{after}");
        // The other side's entries for the same structure are untouched.
        assert_eq!(c.correction(&black), 0);
        for _ in 0..5000 {
            c.update(&pos, 30, -10_000);
        }
        assert_eq!(c.correction(&pos), -CORRECTION_LIMIT / CORRECTION_GRAIN);
    }

    #[test]
    fn a_new_piece_placement_gets_part_of_the_correction() {
        if !USE_NON_PAWN_CORRECTION {
            return;
        }
        let mut c = CorrectionHistory::default();
        let pos = Position::from_fen(FEN).unwrap();
        // The same pawns, a knight elsewhere: a new non-pawn key for White only.
        let moved =
            Position::from_fen(&FEN.replace("3P1N2", "3P4").replace("/RNBQK2R", "/RNBQKN1R"))
                .unwrap();
        assert_eq!(pos.pawn_key(), moved.pawn_key());
        for _ in 0..200 {
            c.update(&pos, 15, 30);
        }
        let here = c.correction(&pos);
        assert!((28..=30).contains(&here), "{here}");
        // The entries share the error: the pawn entry and each non-pawn entry hold half.
        // The other placement shares the pawn entry and Black's non-pawn entry, three
        // quarters of the sum; White's entry for it is empty.
        let there = c.correction(&moved);
        assert!((20..=23).contains(&there), "{there}");
    }
}
