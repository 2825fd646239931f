//! The network's inputs: one per (piece colour relative to the perspective, piece type,
//! square seen from the perspective).

use crate::types::{Color, Piece, Square};

/// Inputs per perspective: 2 colours x 6 piece types x 64 squares.
pub const INPUTS: usize = 768;

/// The input of `piece` on `sq` seen from `perspective`: the perspective's own pieces
/// first, squares mirrored vertically for Black, so both sides see the board the same way.
#[inline(always)]
pub fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let relative_color = (piece.color() != perspective) as usize;
    let square = match perspective {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    relative_color * 384 + piece.kind().index() * 64 + square
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn both_sides_see_mirrored_positions_alike() {
        let white_pawn_e2 = feature_index(Color::White, Piece::WhitePawn, Square::E2);
        let black_pawn_e7 = feature_index(Color::Black, Piece::BlackPawn, Square::E7);
        assert_eq!(white_pawn_e2, black_pawn_e7);
        let theirs = feature_index(
            Color::White,
            Piece::new(Color::Black, PieceType::King),
            Square::H8,
        );
        assert_eq!(theirs, 384 + 5 * 64 + 63);
        assert!(theirs < INPUTS);
    }
}
