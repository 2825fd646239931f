//! Polyglot position keys: the format's own hashing, independent of the engine's Zobrist
//! keys so that books made by other programs can be read.

use super::random::POLYGLOT_RANDOM;
use crate::board::{CastleSide, Position};
use crate::movegen::attacks::pawn_attacks;
use crate::types::{Color, File, PieceType, Rank, Square};

/// Offset of the castling numbers (white short, white long, black short, black long).
const CASTLING_OFFSET: usize = 768;
/// Offset of the en-passant file numbers (a..h).
const EN_PASSANT_OFFSET: usize = 772;
/// The number XORed in when White is to move.
const TURN_INDEX: usize = 780;

/// The Polyglot key of a position.
///
/// Castling rights are hashed by wing, which only means something in standard chess; check
/// [`has_standard_castling`] before trusting the key of a Chess960 position.
pub fn polyglot_key(pos: &Position) -> u64 {
    let mut key = 0;
    for sq in pos.occupied() {
        let piece = pos.piece_on(sq).expect("occupied square has a piece");
        // Polyglot interleaves colours: kind 0 is a black pawn, 1 a white pawn, ...
        let kind = 2 * piece.kind().index() + usize::from(piece.color() == Color::White);
        key ^= POLYGLOT_RANDOM[64 * kind + sq.index()];
    }
    let rights = pos.castling();
    for (i, (color, side)) in [
        (Color::White, CastleSide::King),
        (Color::White, CastleSide::Queen),
        (Color::Black, CastleSide::King),
        (Color::Black, CastleSide::Queen),
    ]
    .into_iter()
    .enumerate()
    {
        if rights.rook(color, side).is_some() {
            key ^= POLYGLOT_RANDOM[CASTLING_OFFSET + i];
        }
    }
    if let Some(ep) = pos.en_passant() {
        // Polyglot's rule: the file counts only when a pawn of the side to move could
        // capture there (pseudo-legally). Computed here rather than trusting how the
        // position stores the square, so the key follows the format whatever the board does.
        let us = pos.side_to_move();
        if (pawn_attacks(us.flip(), ep) & pos.colored(us, PieceType::Pawn)).any() {
            key ^= POLYGLOT_RANDOM[EN_PASSANT_OFFSET + ep.file().index()];
        }
    }
    if pos.side_to_move() == Color::White {
        key ^= POLYGLOT_RANDOM[TURN_INDEX];
    }
    key
}

/// True when every castling right is the standard one (king on the e-file, rook in its
/// corner), so the Polyglot key describes the position. Chess960 positions with other
/// castling rooks have no Polyglot key and must never be looked up in a standard book.
pub fn has_standard_castling(pos: &Position) -> bool {
    let rights = pos.castling();
    Color::ALL.into_iter().all(|color| {
        CastleSide::ALL
            .into_iter()
            .all(|side| match rights.rook(color, side) {
                None => true,
                Some(rook) => {
                    let file = if side == CastleSide::King {
                        File::H
                    } else {
                        File::A
                    };
                    let home = Square::from_coords(File::E, color.relative_rank(Rank::R1));
                    rook.file() == file && pos.king(color) == home
                }
            })
    })
}
