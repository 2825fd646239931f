//! Knights, bishops, rooks and queens: mobility on safe squares (this pass also fills the
//! attack maps and king-attack counters), bishop pair, outposts, open files, the seventh
//! rank and trapped pieces.

use super::attacks::AttackInfo;
use super::layout::*;
use super::masks::{file_bb, push, DARK_SQUARES};
use super::params::KS_ATTACKER_UNITS;
use super::pawns::safe_from_pawns;
use super::Sink;
use crate::bitboard::Bitboard;
use crate::board::{CastleSide, Position};
use crate::movegen::attacks::{bishop_attacks, knight_attacks, queen_attacks, rook_attacks};
use crate::types::{Color, PieceType, Rank, Square};

/// Relative ranks 4 to 6, where minor pieces can use outposts.
const OUTPOST_RANKS: u64 = 0x0000_FFFF_FF00_0000;

/// The mobility section of each piece type (knight to queen).
const MOBILITY: [usize; 4] = [
    KNIGHT_MOBILITY,
    BISHOP_MOBILITY,
    ROOK_MOBILITY,
    QUEEN_MOBILITY,
];

/// All piece terms of `us`; fills `info` with their attacks.
pub(super) fn evaluate<K: Sink>(pos: &Position, us: Color, info: &mut AttackInfo, sink: &mut K) {
    let them = !us;
    let occ = pos.occupied();
    let our_pawns = pos.colored(us, PieceType::Pawn);
    let their_pawns = pos.colored(them, PieceType::Pawn);
    let our_pawn_attacks = info.by[us.index()][PieceType::Pawn.index()];
    let outposts = Bitboard(OUTPOST_RANKS).flip_ranks_for(us) & safe_from_pawns(pos, us);
    let their_zone = info.king_zone[them.index()];
    let behind_pawn = push(them, pos.pieces(PieceType::Pawn));

    for kind in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ] {
        for sq in pos.colored(us, kind) {
            let attacks = match kind {
                PieceType::Knight => knight_attacks(sq),
                PieceType::Bishop => bishop_attacks(sq, occ),
                PieceType::Rook => rook_attacks(sq, occ),
                _ => queen_attacks(sq, occ),
            };
            info.record(us, kind, attacks);
            let mobility = (attacks & info.mobility_area[us.index()]).count() as usize;
            sink.add(us, MOBILITY[kind.index() - 1] + mobility, 1);
            if (attacks & their_zone).any() {
                info.king_attackers[us.index()] += 1;
                info.king_attack_units[us.index()] += KS_ATTACKER_UNITS[kind.index()];
                info.king_zone_attacks[us.index()] += (attacks & their_zone).count() as i32;
            }
            let supported = usize::from(our_pawn_attacks.has(sq));
            let file = file_bb(sq.file().index());
            let relative_rank = us.relative_rank(sq.rank());
            match kind {
                PieceType::Knight | PieceType::Bishop => {
                    if outposts.has(sq) {
                        let section = if kind == PieceType::Knight {
                            KNIGHT_OUTPOST
                        } else {
                            BISHOP_OUTPOST
                        };
                        sink.add(us, section + supported, 1);
                    }
                    if behind_pawn.has(sq) {
                        sink.add(us, MINOR_BEHIND_PAWN, 1);
                    }
                    if kind == PieceType::Bishop {
                        let same_colour = if Bitboard(DARK_SQUARES).has(sq) {
                            Bitboard(DARK_SQUARES)
                        } else {
                            !Bitboard(DARK_SQUARES)
                        };
                        sink.add(us, BISHOP_PAWNS, (our_pawns & same_colour).count() as i32);
                        if bishop_trapped(pos, us, sq) {
                            sink.add(us, BISHOP_TRAPPED, 1);
                        }
                    }
                }
                PieceType::Rook | PieceType::Queen => {
                    if (file & our_pawns).is_empty() {
                        let open = usize::from((file & their_pawns).is_empty());
                        let section = if kind == PieceType::Rook {
                            ROOK_FILE
                        } else {
                            QUEEN_FILE
                        };
                        sink.add(us, section + open, 1);
                    }
                    if kind == PieceType::Rook {
                        if relative_rank == Rank::R7
                            && (us.relative_rank(pos.king(them).rank()) == Rank::R8
                                || (their_pawns & Bitboard::rank(sq.rank())).any())
                        {
                            sink.add(us, ROOK_SEVENTH, 1);
                        }
                        if mobility <= 3 && rook_trapped(pos, us, sq) {
                            sink.add(us, ROOK_TRAPPED, 1);
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if pos.colored(us, PieceType::Bishop).more_than_one() {
        sink.add(us, BISHOP_PAIR, 1);
    }
}

/// A rook shut in on the back rank by its own king on the same wing, when castling can no
/// longer free it.
fn rook_trapped(pos: &Position, us: Color, sq: Square) -> bool {
    let rights = pos.castling();
    if CastleSide::ALL
        .iter()
        .any(|&side| rights.rook(us, side) == Some(sq))
    {
        return false;
    }
    let king = pos.king(us);
    if us.relative_rank(king.rank()) != Rank::R1 || us.relative_rank(sq.rank()) != Rank::R1 {
        return false;
    }
    let (kf, rf) = (king.file().index(), sq.file().index());
    (kf >= 4 && rf > kf) || (kf <= 3 && rf < kf)
}

/// A bishop on a7/h7 (from its side) cut off by an enemy pawn on b6/g6.
fn bishop_trapped(pos: &Position, us: Color, sq: Square) -> bool {
    let rel = sq.relative_to(us);
    let blocker = match rel {
        Square::A7 => Square::B6,
        Square::H7 => Square::G6,
        _ => return false,
    };
    pos.colored(!us, PieceType::Pawn)
        .has(blocker.relative_to(us))
}

/// Flipping a white-side mask for Black.
trait ForColor {
    fn flip_ranks_for(self, color: Color) -> Self;
}

impl ForColor for Bitboard {
    #[inline(always)]
    fn flip_ranks_for(self, color: Color) -> Bitboard {
        match color {
            Color::White => self,
            Color::Black => self.flip_ranks(),
        }
    }
}
