//! Endgame knowledge: scaling the endgame score towards a draw when the stronger side can
//! hardly win, and the mop-up that drives a lone king to the edge (and to the right corner
//! with bishop and knight) so that basic mates are found at normal time controls.

use super::masks::{center_distance, distance, DARK_SQUARES};
use super::params::*;
use crate::bitboard::Bitboard;
use crate::board::Position;
use crate::types::{Color, PieceType, Square};

/// The non-pawn material of a side, in nominal centipawns.
fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .iter()
    .map(|&k| pos.colored(color, k).count() as i32 * PIECE_VALUES[k.index()])
    .sum()
}

/// The endgame scale factor (out of `SCALE_NORMAL`) for the side the endgame score
/// favours (`eg_white` is that score from White's view).
pub(super) fn scale(pos: &Position, eg_white: i32) -> i32 {
    let strong = if eg_white > 0 {
        Color::White
    } else {
        Color::Black
    };
    let weak = !strong;
    let strong_npm = non_pawn_material(pos, strong);
    let weak_npm = non_pawn_material(pos, weak);
    let strong_pawns = pos.colored(strong, PieceType::Pawn).count();
    let bishop = PIECE_VALUES[PieceType::Bishop.index()];
    let rook = PIECE_VALUES[PieceType::Rook.index()];

    if strong_pawns == 0 {
        // Two knights cannot force mate; less than a rook of pieces cannot either.
        let only_knights = pos.colored(strong, PieceType::Knight).count() <= 2
            && strong_npm == 2 * PIECE_VALUES[PieceType::Knight.index()];
        if strong_npm < rook || (only_knights && weak_npm == 0) {
            return SCALE_NO_WIN;
        }
        if strong_npm - weak_npm <= bishop {
            return if weak_npm <= bishop {
                SCALE_PAWNLESS_VS_MINOR
            } else {
                SCALE_PAWNLESS
            };
        }
    }
    let wb = pos.colored(Color::White, PieceType::Bishop);
    let bb = pos.colored(Color::Black, PieceType::Bishop);
    if wb.count() == 1 && bb.count() == 1 && on_dark(wb) != on_dark(bb) {
        let minors_and_majors = pos.pieces(PieceType::Knight)
            | pos.pieces(PieceType::Rook)
            | pos.pieces(PieceType::Queen);
        return if minors_and_majors.is_empty() {
            SCALE_OCB_ONLY
        } else {
            SCALE_OCB
        };
    }
    if strong_pawns == 1 && weak_npm > 0 && strong_npm <= weak_npm {
        return SCALE_ONE_PAWN;
    }
    SCALE_NORMAL
}

/// True when the (single) piece of the set stands on a dark square.
fn on_dark(b: Bitboard) -> bool {
    (b.0 & DARK_SQUARES) != 0
}

/// The mop-up bonus from White's view: when one side has a bare king and the other has
/// mating material, reward pushing the bare king to the edge (the bishop's corners for
/// bishop and knight) and bringing the other king close.
pub(super) fn mopup(pos: &Position) -> i32 {
    for strong in Color::ALL {
        let weak = !strong;
        if pos.color(weak).count() != 1 {
            continue;
        }
        let npm = non_pawn_material(pos, strong);
        let knights = pos.colored(strong, PieceType::Knight);
        let bishops = pos.colored(strong, PieceType::Bishop);
        let heavy = pos.colored(strong, PieceType::Rook) | pos.colored(strong, PieceType::Queen);
        let bishop_knight = heavy.is_empty() && knights.any() && bishops.any();
        if heavy.is_empty() && !bishop_knight && npm < 2 * PIECE_VALUES[2] {
            return 0;
        }
        let wk = pos.king(weak);
        let sk = pos.king(strong);
        let mut bonus = MOPUP_BASE + MOPUP_KINGS_CLOSE * (7 - distance(wk, sk));
        if bishop_knight && heavy.is_empty() && bishops.count() == 1 && knights.count() == 1 {
            let corners = if on_dark(bishops) {
                [Square::A1, Square::H8]
            } else {
                [Square::H1, Square::A8]
            };
            let to_corner = distance(wk, corners[0]).min(distance(wk, corners[1]));
            bonus += MOPUP_BN_CORNER * (7 - to_corner) + MOPUP_EDGE * center_distance(wk) / 2;
        } else {
            bonus += MOPUP_EDGE * center_distance(wk);
        }
        return match strong {
            Color::White => bonus,
            Color::Black => -bonus,
        };
    }
    0
}
