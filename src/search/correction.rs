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

use super::params::{
    CORRECTION_ENTRIES, CORRECTION_GRAIN, CORRECTION_LIMIT, CORRECTION_WEIGHT_MAX,
};
use crate::types::Color;

/// Per side, a table of evaluation corrections indexed by pawn key, in
/// `1 / CORRECTION_GRAIN` centipawns.
pub struct CorrectionHistory {
    pawn: Box<[[i32; CORRECTION_ENTRIES]; 2]>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            pawn: Box::new([[0; CORRECTION_ENTRIES]; 2]),
        }
    }
}

impl CorrectionHistory {
    #[inline]
    fn slot(pawn_key: u64) -> usize {
        (pawn_key % CORRECTION_ENTRIES as u64) as usize
    }

    /// The correction, in centipawns, for `side` to move with this pawn structure.
    #[inline]
    pub fn correction(&self, side: Color, pawn_key: u64) -> i32 {
        self.pawn[side.index()][Self::slot(pawn_key)] / CORRECTION_GRAIN
    }

    /// Blends the error `searched - raw_eval` (centipawns) of a node searched to `depth`
    /// into its entry: deeper searches weigh more, and an entry moves at most
    /// `CORRECTION_WEIGHT_MAX / 256` of the way per update, so one odd node cannot
    /// swing it.
    pub fn update(&mut self, side: Color, pawn_key: u64, depth: i32, error: i32) {
        let entry = &mut self.pawn[side.index()][Self::slot(pawn_key)];
        let weight = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        let target = error * CORRECTION_GRAIN;
        let blended = (*entry * (256 - weight) + target * weight) / 256;
        *entry = blended.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_move_towards_the_error_and_stay_bounded() {
        let mut c = CorrectionHistory::default();
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(c.correction(Color::White, key), 0);
        for _ in 0..50 {
            c.update(Color::White, key, 10, 40);
        }
        let after = c.correction(Color::White, key);
        assert!(after > 20 && after <= 40, "{after}");
        // The other side's entry for the same structure is untouched.
        assert_eq!(c.correction(Color::Black, key), 0);
        for _ in 0..5000 {
            c.update(Color::White, key, 30, -10_000);
        }
        assert_eq!(
            c.correction(Color::White, key),
            -CORRECTION_LIMIT / CORRECTION_GRAIN
        );
    }
}
