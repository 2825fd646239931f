//! The network's inputs: one per (piece colour relative to the perspective, piece type,
//! square seen from the perspective), in one set, or in one set per king bucket.
//!
//! # King buckets
//! A network may give each perspective a set of inputs per bucket of its own king's
//! square ([`KingBuckets::Mirrored4`]): the first layer then weighs a piece by where it
//! stands relative to that king (a pawn shield, an attacker near the king), which one
//! set of 768 inputs can only average over every king position. With the king on the
//! e- to h-files the perspective sees the board mirrored left to right, so the king is
//! always on the a- to d-files and the buckets cover half the board: a castled king on
//! g1 and one on b1 share their weights, and the data for each bucket doubles.

use crate::types::{Color, Piece, Square};

/// Inputs of one set: 2 colours x 6 piece types x 64 squares.
pub const INPUTS: usize = 768;

/// How a perspective's inputs depend on the square of its own king.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KingBuckets {
    /// One set of inputs wherever the king stands, the board never mirrored (every
    /// network up to generation 17).
    #[default]
    None,
    /// Four sets by the king's square, seen from the perspective's side, after mirroring
    /// the king onto the a- to d-files: a1-c1, d1, the second rank, the rest. (File code
    /// 1; the first days' table, a1-b1 and c1-d1, never trained a network kept anywhere.)
    Mirrored4,
}

/// The bucket of each square of the a- to d-files (indexed by `rank * 4 + file`, from
/// the perspective's own side) in [`KingBuckets::Mirrored4`]: the corner where castled
/// kings stand (c1 and g1, folded onto c1 and b1, and the squares beside them), the
/// centre of the back rank where uncastled ones do (d1 and e1), the rank above them, and
/// everything else (active kings, mostly in endings).
#[rustfmt::skip]
const MIRRORED4: [u8; 32] = [
    0, 0, 0, 1,
    2, 2, 2, 2,
    3, 3, 3, 3,
    3, 3, 3, 3,
    3, 3, 3, 3,
    3, 3, 3, 3,
    3, 3, 3, 3,
    3, 3, 3, 3,
];

impl KingBuckets {
    /// Every layout, in the order of their file codes.
    pub const ALL: [KingBuckets; 2] = [KingBuckets::None, KingBuckets::Mirrored4];

    /// Sets of inputs.
    pub const fn count(self) -> usize {
        match self {
            KingBuckets::None => 1,
            KingBuckets::Mirrored4 => 4,
        }
    }

    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        INPUTS * self.count()
    }

    /// The layout's code in a network file's header.
    pub const fn code(self) -> u32 {
        match self {
            KingBuckets::None => 0,
            KingBuckets::Mirrored4 => 1,
        }
    }

    /// The layout a header's code names.
    pub fn from_code(code: u32) -> Option<KingBuckets> {
        KingBuckets::ALL.into_iter().find(|k| k.code() == code)
    }

    /// The layout with `count` sets of inputs (1 or 4).
    pub fn with_count(count: usize) -> Option<KingBuckets> {
        KingBuckets::ALL.into_iter().find(|k| k.count() == count)
    }

    /// How `perspective` sees the board with its king on `king`.
    #[inline(always)]
    pub fn orientation(self, perspective: Color, king: Square) -> Orientation {
        match self {
            KingBuckets::None => Orientation::default(),
            KingBuckets::Mirrored4 => {
                let own = relative(perspective, king.index());
                let flip = if own % 8 >= 4 { 7 } else { 0 };
                let folded = own ^ flip;
                Orientation {
                    offset: MIRRORED4[folded / 8 * 4 + folded % 8] as u16 * INPUTS as u16,
                    flip: flip as u8,
                }
            }
        }
    }
}

impl std::fmt::Display for KingBuckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KingBuckets::None => write!(f, "768"),
            KingBuckets::Mirrored4 => write!(f, "768x4 (mirrored king buckets)"),
        }
    }
}

/// Which set of inputs a perspective reads and whether it sees the board mirrored left
/// to right: all that its king's square changes. Two positions whose orientations are
/// equal differ in the inputs of the pieces that moved only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orientation {
    /// The first input of the set.
    offset: u16,
    /// 7 to mirror the files, else 0.
    flip: u8,
}

impl Orientation {
    /// Orientations there are: a king bucket, mirrored or not.
    pub const COUNT: usize = 8;

    /// This orientation's number below [`Orientation::COUNT`].
    #[inline(always)]
    pub fn index(self) -> usize {
        self.offset as usize / INPUTS * 2 + (self.flip != 0) as usize
    }
}

// The refresh cache has a slot for every orientation of every layout.
const _: () = {
    let mut i = 0;
    while i < KingBuckets::ALL.len() {
        assert!(KingBuckets::ALL[i].count() * 2 <= Orientation::COUNT);
        i += 1;
    }
};

/// A square as `perspective` sees it: mirrored vertically for Black.
#[inline(always)]
fn relative(perspective: Color, sq: usize) -> usize {
    match perspective {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

/// The input of `piece` on `sq` seen from `perspective` in `orientation`: the
/// perspective's own pieces first, squares mirrored vertically for Black, so both sides
/// see the board the same way, and left to right when the orientation says so (its king
/// on the e- to h-files), in the set of inputs of the orientation's king bucket.
#[inline(always)]
pub fn feature_index(
    perspective: Color,
    orientation: Orientation,
    piece: Piece,
    sq: Square,
) -> usize {
    let relative_color = (piece.color() != perspective) as usize;
    let square = relative(perspective, sq.index()) ^ orientation.flip as usize;
    orientation.offset as usize + relative_color * 384 + piece.kind().index() * 64 + square
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::PieceType;

    #[test]
    fn both_sides_see_mirrored_positions_alike() {
        let none = Orientation::default();
        let white_pawn_e2 = feature_index(Color::White, none, Piece::WhitePawn, Square::E2);
        let black_pawn_e7 = feature_index(Color::Black, none, Piece::BlackPawn, Square::E7);
        assert_eq!(white_pawn_e2, black_pawn_e7);
        let theirs = feature_index(
            Color::White,
            none,
            Piece::new(Color::Black, PieceType::King),
            Square::H8,
        );
        assert_eq!(theirs, 384 + 5 * 64 + 63);
        assert!(theirs < INPUTS);
    }

    #[test]
    fn king_buckets_fold_the_board_onto_the_queen_side() {
        let k = KingBuckets::Mirrored4;
        // A king castled short sees the board as one castled long on b1 would.
        let g1 = k.orientation(Color::White, Square::G1);
        let b1 = k.orientation(Color::White, Square::B1);
        assert_eq!(g1.offset, b1.offset);
        assert_eq!((g1.flip, b1.flip), (7, 0));
        assert_eq!(
            feature_index(Color::White, g1, Piece::WhitePawn, Square::F2),
            feature_index(Color::White, b1, Piece::WhitePawn, Square::C2)
        );
        // Black's king on g8 is White's on g1, seen from its own side.
        assert_eq!(k.orientation(Color::Black, Square::G8), g1);
        let e1 = k.orientation(Color::White, Square::E1);
        assert_eq!(e1.offset, INPUTS as u16);
        assert_eq!(
            k.orientation(Color::White, Square::D1).offset,
            INPUTS as u16
        );
        // Castled long or short, the same set.
        assert_eq!(k.orientation(Color::White, Square::C1).offset, 0);
        assert_eq!(
            k.orientation(Color::White, Square::E2).offset,
            2 * INPUTS as u16
        );
        assert_eq!(
            k.orientation(Color::White, Square::H8).offset,
            3 * INPUTS as u16
        );
        for sq in 0..64 {
            for piece in Piece::ALL {
                let o = k.orientation(Color::Black, Square::new(sq));
                let f = feature_index(Color::Black, o, piece, Square::new(63 - sq));
                assert!(f < k.inputs());
            }
        }
        assert_eq!(
            KingBuckets::None.orientation(Color::White, Square::G1),
            Orientation::default()
        );
        // Every orientation has its own number below COUNT.
        let mut seen = [false; Orientation::COUNT];
        for sq in Square::ALL {
            let o = k.orientation(Color::White, sq);
            seen[o.index()] = true;
            assert_eq!(o.index() % 2 == 1, sq.index() % 8 >= 4);
        }
        assert!(seen.iter().all(|&s| s));
    }
}
