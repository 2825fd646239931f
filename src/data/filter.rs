//! Which positions of a game are worth learning from: the one filter of `ladya datagen`'s
//! self-play and of games read from PGN (`ladya data pgn`), so that both make the same kind
//! of training data.

use crate::board::Position;
use crate::chess_move::Move;

/// Positions from a game's first plies are not kept: still the opening (in self-play the
/// random plies come before them; in a match, the book's).
pub const SKIP_PLIES: usize = 8;
/// Positions with a larger score (centipawns) are not kept: the result is already clear.
pub const MAX_SCORE: i32 = 2000;

/// A position worth learning from: `ply` plies into the game, not in check, the move
/// chosen (`best`) is no capture or promotion, so the static evaluation is not taken
/// mid-exchange, and its search score is below [`MAX_SCORE`]. Mate scores are never
/// passed here: the caller drops them (they say nothing of the evaluation).
pub fn worth_learning(pos: &Position, best: Move, ply: usize, score: i32) -> bool {
    ply >= SKIP_PLIES && score.abs() < MAX_SCORE && !pos.in_check() && !pos.is_noisy(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_quiet_positions_past_the_opening_only() {
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let quiet = pos.parse_uci_move("f1c4").unwrap();
        let capture = pos.parse_uci_move("f3e5").unwrap();
        assert!(worth_learning(&pos, quiet, SKIP_PLIES, 30));
        assert!(!worth_learning(&pos, quiet, SKIP_PLIES - 1, 30));
        assert!(!worth_learning(&pos, capture, SKIP_PLIES, 30));
        assert!(!worth_learning(&pos, quiet, SKIP_PLIES, MAX_SCORE));
        assert!(!worth_learning(&pos, quiet, SKIP_PLIES, -MAX_SCORE));
        let check = Position::from_fen("4k3/8/8/8/8/8/8/R3K2r w - - 0 1").unwrap();
        assert!(!worth_learning(
            &check,
            check.parse_uci_move("e1d2").unwrap(),
            20,
            0
        ));
    }
}
