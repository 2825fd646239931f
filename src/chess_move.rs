//! `Move`: a move packed in 16 bits.
//!
//! Layout: bits 0-5 from, bits 6-11 to, bits 12-13 promotion piece (knight, bishop, rook,
//! queen), bits 14-15 kind. Castling is stored as *king takes own rook* (`to` is the rook's
//! square), so standard chess and Chess960 share one code path; only the text differs.

use crate::types::{File, PieceType, Square};
use std::fmt;

/// What kind of move a `Move` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// Any move that is not one of the others (captures included).
    Normal,
    /// A pawn reaching the last rank, with the piece it becomes.
    Promotion,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, encoded as the king moving to its own rook's square.
    Castling,
}

/// A move in 16 bits. `Move::NONE` (a1a1) is never a legal move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const PROMO_SHIFT: u16 = 12;
const KIND_SHIFT: u16 = 14;

impl Move {
    /// The empty move, used where no move is known.
    pub const NONE: Move = Move(0);

    /// A normal move (or capture).
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    /// A promotion to `piece` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Move {
        debug_assert!(!matches!(piece, PieceType::Pawn | PieceType::King));
        Move(from as u16 | (to as u16) << 6 | (piece as u16 - 1) << PROMO_SHIFT | 1 << KIND_SHIFT)
    }

    /// An en-passant capture; `to` is the square the pawn lands on.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6 | 2 << KIND_SHIFT)
    }

    /// Castling: the king on `king` moves towards its own rook on `rook`.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(king as u16 | (rook as u16) << 6 | 3 << KIND_SHIFT)
    }

    /// The square the moving piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as usize)
    }

    /// The square the move goes to (for castling, the rook's square).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as usize)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion piece, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        if self.0 >> KIND_SHIFT == 1 {
            Some(PieceType::ALL[(self.0 >> PROMO_SHIFT & 3) as usize + 1])
        } else {
            None
        }
    }

    /// True for castling moves.
    #[inline(always)]
    pub const fn is_castling(self) -> bool {
        self.0 >> KIND_SHIFT == 3
    }

    /// True for `Move::NONE`.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The raw 16 bits (for the transposition table).
    #[inline(always)]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// A move from raw bits; only meaningful for bits made by `to_bits`.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the king lands on when castling (g or c file of its rank).
    pub const fn castling_king_target(self) -> Square {
        let file = if (self.to() as u8) > (self.from() as u8) {
            File::G
        } else {
            File::C
        };
        Square::from_coords(file, self.from().rank())
    }

    /// The square the rook lands on when castling (f or d file of its rank).
    pub const fn castling_rook_target(self) -> Square {
        let file = if (self.to() as u8) > (self.from() as u8) {
            File::F
        } else {
            File::D
        };
        Square::from_coords(file, self.from().rank())
    }

    /// UCI text. Standard chess writes castling as the king's two-square move (`e1g1`),
    /// Chess960 as king takes rook (`e1h1`).
    pub fn to_uci(self, chess960: bool) -> String {
        UciMove { mv: self, chess960 }.to_string()
    }

    /// A value that formats the move as UCI text without allocating.
    pub const fn uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

/// A move formatted as UCI text (see [`Move::to_uci`]).
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv.is_none() {
            return write!(f, "0000");
        }
        let to = if mv.is_castling() && !self.chess960 {
            mv.castling_king_target()
        } else {
            mv.to()
        };
        write!(f, "{}{}", mv.from(), to)?;
        if let Some(p) = mv.promotion_piece() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

impl fmt::Display for Move {
    /// Standard-chess UCI text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci(false).fmt(f)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({}, {:?})", self.uci(true), self.kind())
    }
}
