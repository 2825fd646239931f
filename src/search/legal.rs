//! A fast legality test for moves that come from tables rather than the move generator
//! (transposition-table moves, killers, counter moves). `Position::is_legal` generates half
//! the moves of the position; this looks at the one move only.

use crate::board::Position;
use crate::chess_move::{Move, MoveKind};
use crate::movegen::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, queen_attacks,
    rook_attacks,
};
use crate::types::{Color, PieceType, Rank};

/// True when `mv` is a legal move in `pos` (any 16 bits are accepted).
pub fn is_legal_fast(pos: &Position, mv: Move) -> bool {
    if mv.is_none() {
        return false;
    }
    let us = pos.side_to_move();
    let them = !us;
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = pos.piece_on(from) else {
        return false;
    };
    if piece.color() != us {
        return false;
    }
    let last_rank = us.relative_rank(Rank::R8);
    match mv.kind() {
        // Rare: let the generator decide.
        MoveKind::Castling | MoveKind::EnPassant => return pos.is_legal(mv),
        MoveKind::Promotion => {
            if piece.kind() != PieceType::Pawn || to.rank() != last_rank {
                return false;
            }
        }
        MoveKind::Normal => {
            if piece.kind() == PieceType::Pawn && to.rank() == last_rank {
                return false;
            }
        }
    }
    if pos.color(us).has(to) {
        return false;
    }
    let occ = pos.occupied();
    let reachable = match piece.kind() {
        PieceType::Pawn => {
            let up: i8 = if us == Color::White { 8 } else { -8 };
            if (pawn_attacks(us, from) & pos.color(them)).has(to) {
                true
            } else if occ.has(to) {
                false
            } else if from.offset(up) == Some(to) {
                true
            } else {
                from.rank() == us.relative_rank(Rank::R2)
                    && from.offset(2 * up) == Some(to)
                    && from.offset(up).is_some_and(|mid| !occ.has(mid))
            }
        }
        PieceType::Knight => knight_attacks(from).has(to),
        PieceType::Bishop => bishop_attacks(from, occ).has(to),
        PieceType::Rook => rook_attacks(from, occ).has(to),
        PieceType::Queen => queen_attacks(from, occ).has(to),
        PieceType::King => king_attacks(from).has(to),
    };
    if !reachable {
        return false;
    }
    if piece.kind() == PieceType::King {
        return !pos.is_attacked(to, them, occ ^ from);
    }
    let ksq = pos.king(us);
    let checkers = pos.checkers();
    if checkers.more_than_one() {
        return false;
    }
    if pos.pinned().has(from) && (checkers.any() || !line(ksq, from).has(to)) {
        return false;
    }
    match checkers.single() {
        Some(checker) => (between(ksq, checker) | checker).has(to),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{PieceType, Square};
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Agrees with the move generator on random moves in random game positions.
    #[test]
    fn agrees_with_the_generator() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let fens = [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        ];
        let promos = [
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ];
        for fen in fens {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..300 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for _ in 0..200 {
                    let r = rng.next_u64();
                    let from = Square::new((r & 63) as usize);
                    let to = Square::new((r >> 6 & 63) as usize);
                    let mv = match r >> 12 & 7 {
                        0 => Move::promotion(from, to, promos[(r >> 16 & 3) as usize]),
                        _ => Move::new(from, to),
                    };
                    assert_eq!(is_legal_fast(&pos, mv), legal.contains(mv), "{fen} {mv:?}");
                }
                for &mv in &legal {
                    assert!(is_legal_fast(&pos, mv), "{} {mv:?}", pos.to_fen());
                }
                let pick = legal[(rng.next_u64() % legal.len() as u64) as usize];
                pos.make_move(pick);
            }
        }
    }
}

/// True when the legal move `mv` checks the opponent's king, directly or by discovery.
/// Castling and en passant answer `true` (conservative: callers use this to avoid pruning).
pub fn gives_check(pos: &Position, mv: Move) -> bool {
    if matches!(mv.kind(), MoveKind::Castling | MoveKind::EnPassant) {
        return true;
    }
    let us = pos.side_to_move();
    let ksq = pos.king(!us);
    let (from, to) = (mv.from(), mv.to());
    let Some(kind) = mv
        .promotion_piece()
        .or_else(|| pos.piece_on(from).map(|p| p.kind()))
    else {
        return false;
    };
    let occ = (pos.occupied() ^ from) | to;
    let direct = match kind {
        PieceType::Pawn => pawn_attacks(us, to),
        PieceType::Knight => knight_attacks(to),
        PieceType::Bishop => bishop_attacks(to, occ),
        PieceType::Rook => rook_attacks(to, occ),
        PieceType::Queen => queen_attacks(to, occ),
        PieceType::King => crate::bitboard::Bitboard::EMPTY,
    };
    if direct.has(ksq) {
        return true;
    }
    let discovered = (bishop_attacks(ksq, occ) & pos.diagonal_sliders(us))
        | (rook_attacks(ksq, occ) & pos.orthogonal_sliders(us));
    (discovered - crate::bitboard::Bitboard::from(from)).any()
}

#[cfg(test)]
mod check_tests {
    use super::*;

    /// `gives_check` agrees with making the move, over random games.
    #[test]
    fn gives_check_agrees_with_make_move() {
        use rand_xoshiro::rand_core::{RngCore, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for _ in 0..40 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for &mv in &legal {
                    let predicted = gives_check(&pos, mv);
                    pos.make_move(mv);
                    let actual = pos.in_check();
                    pos.unmake_move();
                    if !matches!(mv.kind(), MoveKind::Castling | MoveKind::EnPassant) {
                        assert_eq!(predicted, actual, "{} {mv:?}", pos.to_fen());
                    }
                }
                pos.make_move(legal[(rng.next_u64() % legal.len() as u64) as usize]);
            }
        }
    }
}
