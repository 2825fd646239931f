//! Bitboard masks and helpers the evaluation needs beyond what movegen provides.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// File a.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
/// File h.
pub const FILE_H: u64 = FILE_A << 7;
/// The dark squares (a1 is dark).
pub const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// The squares of a file, by file index.
#[inline(always)]
pub const fn file_bb(file: usize) -> Bitboard {
    Bitboard(FILE_A << file)
}

/// The files left and right of a file.
#[inline(always)]
pub const fn adjacent_files(file: usize) -> Bitboard {
    let f = FILE_A << file;
    Bitboard(((f << 1) & !FILE_A) | ((f >> 1) & !FILE_H))
}

pub use crate::attacks::pawn_attacks_bb;

/// The set filled towards the opponent's side of the board (squares included).
#[inline(always)]
pub const fn fill_forward(color: Color, b: Bitboard) -> Bitboard {
    let mut b = b.0;
    match color {
        Color::White => {
            b |= b << 8;
            b |= b << 16;
            b |= b << 32;
        }
        Color::Black => {
            b |= b >> 8;
            b |= b >> 16;
            b |= b >> 32;
        }
    }
    Bitboard(b)
}

/// The set moved one rank forward for `color`.
#[inline(always)]
pub const fn push(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(b.0 << 8),
        Color::Black => Bitboard(b.0 >> 8),
    }
}

/// The squares in front of `sq` on its file, from `color`'s side.
#[inline(always)]
pub const fn front_span(color: Color, sq: Square) -> Bitboard {
    fill_forward(color, push(color, Bitboard::from_square(sq)))
}

/// The squares in front of `sq` on its file and the adjacent files: where enemy pawns
/// would stop a pawn on `sq` from being passed.
#[inline(always)]
pub const fn passed_span(color: Color, sq: Square) -> Bitboard {
    let f = front_span(color, sq).0;
    Bitboard(f | ((f << 1) & !FILE_A) | ((f >> 1) & !FILE_H))
}

/// The squares a pawn of `color` on `sq` may attack as it advances.
#[inline(always)]
pub const fn attack_span(color: Color, sq: Square) -> Bitboard {
    let f = front_span(color, sq).0;
    Bitboard(((f << 1) & !FILE_A) | ((f >> 1) & !FILE_H))
}

/// The ranks from `sq`'s rank backwards (own side), on the adjacent files: where own
/// pawns could still support a pawn on `sq`.
#[inline(always)]
pub const fn support_span(color: Color, sq: Square) -> Bitboard {
    let behind = fill_forward(color.flip(), Bitboard::from_square(sq)).0;
    Bitboard(((behind << 1) & !FILE_A) | ((behind >> 1) & !FILE_H))
}

/// The king-step (Chebyshev) distance between two squares.
#[inline(always)]
pub const fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    if df > dr {
        df
    } else {
        dr
    }
}

/// The Manhattan distance from a square to the four centre squares (0 in the centre, 6 in
/// a corner).
#[inline(always)]
pub const fn center_distance(sq: Square) -> i32 {
    let f = sq.file().index() as i32;
    let r = sq.rank().index() as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}
