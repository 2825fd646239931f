//! What [`Position::validate`](super::Position::validate) reports: the first invariant of
//! the position's redundant representations that does not hold.

use crate::types::{Color, PieceType, Square};
use std::fmt;

/// An invariant the position should keep and does not: a bug in the board code, or a
/// position built by hand past its checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokenInvariant {
    /// This kind's bitboard shares a square with another kind's.
    OverlappingPieces(PieceType),
    /// The colour bitboards overlap or disagree with the piece bitboards.
    ColourBitboards,
    /// The mailbox says another piece than the bitboards on this square.
    Mailbox(Square),
    /// The incremental piece-square sums differ from a recount.
    PieceSquareSums,
    /// This side does not have exactly one king.
    KingCount(Color),
    /// The incremental Zobrist keys differ from keys computed from scratch.
    Keys,
    /// The cached checkers or pinned pieces are stale.
    CheckInfo,
    /// The side that just moved is in check.
    WaitingSideInCheck,
}

impl fmt::Display for BrokenInvariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BrokenInvariant::OverlappingPieces(kind) => {
                write!(f, "the {kind:?} bitboard overlaps another")
            }
            BrokenInvariant::ColourBitboards => {
                write!(f, "colour bitboards disagree with piece bitboards")
            }
            BrokenInvariant::Mailbox(sq) => write!(f, "mailbox disagrees with bitboards on {sq}"),
            BrokenInvariant::PieceSquareSums => {
                write!(f, "piece-square sums disagree with the board")
            }
            BrokenInvariant::KingCount(c) => write!(f, "{c:?} does not have exactly one king"),
            BrokenInvariant::Keys => {
                write!(f, "incremental keys differ from keys computed from scratch")
            }
            BrokenInvariant::CheckInfo => write!(f, "cached checkers or pinned pieces are stale"),
            BrokenInvariant::WaitingSideInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for BrokenInvariant {}
