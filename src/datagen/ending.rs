//! When a self-play game is over by the rules (mate, stalemate, the fifty-move rule,
//! repetition, no mating material) or by length: asked by the games themselves and by
//! the openings, which must leave a game to play.

use crate::board::Position;
use crate::types::Color;

/// A game still running after this many plies is scored a draw.
const MAX_GAME_PLIES: usize = 400;

/// Whether a game can be played from `pos`: a legal move, and no draw by the rules.
pub(super) fn leaves_a_game(pos: &Position) -> bool {
    game_over(pos, 0).is_none()
}

/// The result for White (2 win, 1 draw, 0 loss) when the game is over by the rules or
/// by length.
pub(super) fn game_over(pos: &Position, ply: usize) -> Option<u8> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.in_check() {
            1
        } else if pos.side_to_move() == Color::White {
            0
        } else {
            2
        });
    }
    let drawn = pos.halfmove_clock() >= 100
        || pos.repetitions(2, usize::MAX)
        || pos.insufficient_material()
        || ply >= MAX_GAME_PLIES;
    drawn.then_some(1)
}
