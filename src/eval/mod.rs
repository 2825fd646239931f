//! Static evaluation. (First cut: material only. The evaluation issue replaces this with a
//! tapered hand-crafted evaluation.)

use crate::board::Position;
use crate::types::{Color, PieceType};

/// Material values in centipawns, pawn to king.
pub const PIECE_VALUES: [i32; 6] = [100, 320, 330, 500, 900, 0];

/// The static evaluation in centipawns from the side to move's point of view.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for kind in PieceType::ALL {
        let diff = pos.colored(Color::White, kind).count() as i32
            - pos.colored(Color::Black, kind).count() as i32;
        score += diff * PIECE_VALUES[kind.index()];
    }
    match pos.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    }
}
