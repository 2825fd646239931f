//! Attack sets: leaper tables (pawn, knight, king), magic-bitboard slider lookups, and the
//! `between`/`line` tables used for pins and checks.
//!
//! Below both `board` (which needs attacks for check and castling) and `movegen` (which
//! needs the position): neither imports the other's tables.
//!
//! Leaper and line tables are computed by `const fn` at compile time; the magic numbers and
//! the slider table come from `build.rs` (see `magics`).

/// The slow ray-walk reference for slider attacks (shared with `build.rs`).
pub mod rays;

use crate::bitboard::Bitboard;
use crate::types::{Color, PieceType, Square};

/// One square's magic entry: `attacks = SLIDER_ATTACKS[offset + ((occ & mask) * magic) >> shift]`.
#[derive(Clone, Copy, Debug)]
pub struct Magic {
    /// Squares whose occupancy matters.
    pub mask: u64,
    /// The multiplier that hashes the relevant occupancy without harmful collisions.
    pub magic: u64,
    /// 64 minus the number of relevant bits.
    pub shift: u32,
    /// Start of this square's slice of `SLIDER_ATTACKS`.
    pub offset: usize,
}

mod generated {
    use super::Magic;
    include!(concat!(env!("OUT_DIR"), "/magics.rs"));
}
pub use generated::{BISHOP_MAGICS, ROOK_MAGICS, SLIDER_ATTACKS};

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut bits = 0u64;
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                bits |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Empty-board rook rays (the rook's attacks with no blockers).
static ROOK_RAYS: [Bitboard; 64] = empty_rays(false);
/// Empty-board bishop rays.
static BISHOP_RAYS: [Bitboard; 64] = empty_rays(true);

/// Empty-board rays: the squares sharing a rank or file with `sq` (`diagonal = false`) or a
/// diagonal (`diagonal = true`), `sq` itself excluded. Plain coordinate arithmetic, no ray walk.
const fn empty_rays(diagonal: bool) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut other = 0;
        while other < 64 {
            let df = (other % 8) as i32 - (sq % 8) as i32;
            let dr = (other / 8) as i32 - (sq / 8) as i32;
            let hit = if diagonal {
                df == dr || df == -dr
            } else {
                df == 0 || dr == 0
            };
            if hit && other != sq {
                bits |= 1u64 << other;
            }
            other += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// Squares a rook on `sq` would attack on an empty board (a cheap filter before a lookup).
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

/// Squares strictly between two squares on a common line, for every pair (else empty).
static BETWEEN: [[Bitboard; 64]; 64] = line_tables(false);
/// The whole line (edge to edge) through two squares on a common line (else empty).
static LINE: [[Bitboard; 64]; 64] = line_tables(true);

const fn line_tables(whole: bool) -> [[Bitboard; 64]; 64] {
    let dirs: [(i32, i32); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let (fa, ra) = ((a % 8) as i32, (a / 8) as i32);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction and its opposite.
            let mut full = 1u64 << a;
            let (mut f, mut r) = (fa + df, ra + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            let (mut f, mut r) = (fa - df, ra - dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                full |= 1u64 << (r * 8 + f);
                f -= df;
                r -= dr;
            }
            let mut between = 0u64;
            let (mut f, mut r) = (fa + df, ra + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                table[a][b] = Bitboard(if whole { full } else { between });
                between |= 1u64 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[inline(always)]
fn magic_index(m: &Magic, occ: Bitboard) -> usize {
    m.offset + ((occ.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(SLIDER_ATTACKS[magic_index(&ROOK_MAGICS[sq.index()], occ)])
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(SLIDER_ATTACKS[magic_index(&BISHOP_MAGICS[sq.index()], occ)])
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
}

/// Squares a piece of `kind` (not a pawn) on `sq` attacks.
#[inline]
pub fn piece_attacks(kind: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceType::Pawn => panic!("pawn attacks depend on colour: use pawn_attacks"),
        PieceType::Knight => knight_attacks(sq),
        PieceType::Bishop => bishop_attacks(sq, occ),
        PieceType::Rook => rook_attacks(sq, occ),
        PieceType::Queen => queen_attacks(sq, occ),
        PieceType::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    BETWEEN[a.index()][b.index()]
}

/// The whole line through `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINE[a.index()][b.index()]
}

/// Every square attacked by a set of pawns of `color`.
#[inline(always)]
pub const fn pawn_attacks_bb(color: Color, pawns: Bitboard) -> Bitboard {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let b = pawns.0;
    match color {
        Color::White => Bitboard(((b & !FILE_A) << 7) | ((b & !FILE_H) << 9)),
        Color::Black => Bitboard(((b & !FILE_A) >> 9) | ((b & !FILE_H) >> 7)),
    }
}

#[cfg(test)]
mod tests {
    use super::rays::{ray_attacks, relevant_mask, BISHOP_DIRS, ROOK_DIRS};
    use super::*;

    /// Every square and every subset of its relevant occupancy, plus random outside bits,
    /// against the slow ray walk.
    #[test]
    fn magic_attacks_match_ray_walk() {
        for sq in Square::ALL {
            for (dirs, lookup) in [
                (&ROOK_DIRS, rook_attacks as fn(Square, Bitboard) -> Bitboard),
                (
                    &BISHOP_DIRS,
                    bishop_attacks as fn(Square, Bitboard) -> Bitboard,
                ),
            ] {
                let mask = relevant_mask(sq.index(), dirs);
                let mut sub = 0u64;
                let mut noise = 0x9E37_79B9_7F4A_7C15u64;
                loop {
                    let expected = ray_attacks(sq.index(), sub, dirs);
                    assert_eq!(lookup(sq, Bitboard(sub)).0, expected, "{sq} occ {sub:#x}");
                    // Squares outside the mask must not change the answer.
                    noise = noise.rotate_left(7).wrapping_mul(0x2545_F491_4F6C_DD1D);
                    let occ = sub | (noise & !mask);
                    assert_eq!(
                        lookup(sq, Bitboard(occ)).0,
                        ray_attacks(sq.index(), occ, dirs)
                    );
                    sub = sub.wrapping_sub(mask) & mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::D4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::E4),
            Bitboard::from(Square::D5) | Square::F5
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::A5),
            Bitboard::from(Square::B4)
        );
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from(Square::B2) | Square::C3
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        for sq in Square::ALL {
            assert_eq!(rook_rays(sq), rook_attacks(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop_attacks(sq, Bitboard::EMPTY));
        }
        assert!(line(Square::B2, Square::C3).has(Square::H8));
    }
}
