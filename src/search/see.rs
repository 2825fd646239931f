//! Static exchange evaluation: would the sequence of captures on one square, each side
//! recapturing with its least valuable piece, win at least a threshold?

use super::params::SEE_VALUES;
use crate::board::Position;
use crate::chess_move::{Move, MoveKind};
use crate::movegen::attacks::{bishop_attacks, rook_attacks};
use crate::types::PieceType;

/// The SEE value of the piece on a square (0 when empty).
#[inline]
fn value_on(pos: &Position, sq: crate::types::Square) -> i32 {
    pos.piece_on(sq).map_or(0, |p| SEE_VALUES[p.kind().index()])
}

/// True when `mv` wins at least `threshold` centipawns in the exchange it starts.
/// Castling, en passant and promotions are treated as even exchanges (they are rare and
/// rarely lose material); pins are ignored.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.kind() != MoveKind::Normal {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    // What we win if the opponent does not recapture, minus the threshold.
    let mut swap = value_on(pos, to) - threshold;
    if swap < 0 {
        return false;
    }
    // What we still win if they recapture and we cannot.
    swap = value_on(pos, from) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = pos.occupied() ^ from ^ to;
    let mut stm = pos.side_to_move();
    let mut attackers = pos.attackers_to(to, occupied);
    let diagonal = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
    let orthogonal = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    // `res` is 1 while the side that made the last capture is ahead of the threshold.
    let mut res = 1;
    loop {
        stm = !stm;
        attackers &= occupied;
        let ours = attackers & pos.color(stm);
        if ours.is_empty() {
            break;
        }
        res ^= 1;
        let Some(kind) = [
            PieceType::Pawn,
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ]
        .into_iter()
        .find(|&k| (ours & pos.pieces(k)).any()) else {
            // Only the king can recapture: legal only if the other side has no attacker left.
            return if (attackers & !pos.color(stm)).any() {
                res ^ 1 != 0
            } else {
                res != 0
            };
        };
        swap = SEE_VALUES[kind.index()] - swap;
        if swap < res {
            break;
        }
        occupied ^= (ours & pos.pieces(kind)).lsb();
        // Sliders behind the capturer join in (x-rays).
        if matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= bishop_attacks(to, occupied) & diagonal;
        }
        if matches!(kind, PieceType::Rook | PieceType::Queen) {
            attackers |= rook_attacks(to, occupied) & orthogonal;
        }
    }
    res != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_uci_move(mv).unwrap();
        see_ge(&pos, mv, threshold)
    }

    #[test]
    fn exchanges() {
        // Pawn takes an undefended knight: +320.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 320));
        assert!(!see(fen, "e4d5", 321));
        // Queen takes a pawn defended by a pawn: loses 800.
        let fen = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1";
        assert!(!see(fen, "d2d5", 0));
        assert!(see(fen, "d2d5", -800));
        // Rook takes a rook defended by a rook, with a rook behind (x-ray): wins a rook.
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        assert!(!see(fen, "d2d7", 1));
        // A quiet move to a square attacked by a pawn loses the piece.
        let fen = "4k3/8/2p5/8/5N2/8/8/4K3 w - - 0 1";
        assert!(!see(fen, "f4d5", 0));
        assert!(see(fen, "f4e6", 0));
    }
}
