//! Castling rights, stored as the squares of the rooks that may still castle, so standard
//! chess and Chess960 share one representation.

use crate::attacks::between;
use crate::bitboard::Bitboard;
use crate::chess_move::Move;
use crate::types::{Color, Square};

/// Which wing a castling move goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleSide {
    /// Towards the h-file (O-O).
    King,
    /// Towards the a-file (O-O-O).
    Queen,
}

impl CastleSide {
    /// Both wings.
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];
}

/// The castling rights of both sides: a 4-bit set plus the rook square of each right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRights {
    bits: u8,
    rooks: [Square; 4],
    /// Squares that must be empty (but for king and rook) to castle, per right.
    paths: [Bitboard; 4],
    /// Squares the king stands on, crosses or lands on, which no enemy may attack.
    king_paths: [Bitboard; 4],
}

impl Default for CastlingRights {
    fn default() -> Self {
        CastlingRights {
            bits: 0,
            rooks: [Square::H1, Square::A1, Square::H8, Square::A8],
            paths: [Bitboard::EMPTY; 4],
            king_paths: [Bitboard::EMPTY; 4],
        }
    }
}

impl CastlingRights {
    /// The bit of one right: bit 0 White short, 1 White long, 2 Black short, 3 Black long.
    #[inline(always)]
    pub const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// The 4-bit set (indexes the Zobrist castling keys).
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.bits
    }

    /// True when no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The rook square of a right, if the right is held.
    #[inline(always)]
    pub fn rook(self, color: Color, side: CastleSide) -> Option<Square> {
        let i = color as usize * 2 + side as usize;
        (self.bits >> i & 1 != 0).then_some(self.rooks[i])
    }

    /// The squares that must be empty to castle with a right, and the squares the king
    /// passes (precomputed when the right is granted, as move generation asks every node).
    #[inline(always)]
    pub fn paths(self, color: Color, side: CastleSide) -> (Bitboard, Bitboard) {
        let i = color as usize * 2 + side as usize;
        (self.paths[i], self.king_paths[i])
    }

    /// Grants a right with its rook square, for the king on `king`.
    pub fn set(&mut self, color: Color, side: CastleSide, rook: Square, king: Square) {
        let i = color as usize * 2 + side as usize;
        self.bits |= 1 << i;
        self.rooks[i] = rook;
        let mv = Move::castling(king, rook);
        let (king_to, rook_to) = (mv.castling_king_target(), mv.castling_rook_target());
        let king_path = between(king, king_to) | king_to;
        self.king_paths[i] = king_path;
        self.paths[i] = (king_path | between(rook, rook_to) | rook_to)
            - Bitboard::from(king)
            - Bitboard::from(rook);
    }

    /// Puts back a set of rights saved with `bits` (their rook squares never change).
    #[inline(always)]
    pub(crate) fn restore_bits(&mut self, bits: u8) {
        self.bits = bits;
    }

    /// Keeps only the rights in `mask`.
    #[inline(always)]
    pub fn retain(&mut self, mask: u8) {
        self.bits &= mask;
    }
}
