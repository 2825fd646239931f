//! The attack maps the evaluation builds once and several terms read.

use super::masks::{pawn_attacks_bb, push};
use crate::bitboard::Bitboard;
use crate::board::Position;
use crate::movegen::attacks::king_attacks;
use crate::types::{Color, PieceType};

/// Attack maps of both sides. Pawn and king attacks are set at construction; the piece
/// attacks and the king-zone counters are filled in by the mobility pass.
pub(crate) struct AttackInfo {
    /// Squares attacked by each side, by attacker type.
    pub by: [[Bitboard; 6]; 2],
    /// Squares attacked by each side.
    pub all: [Bitboard; 2],
    /// Squares attacked at least twice by each side.
    pub twice: [Bitboard; 2],
    /// Where each side's pieces count mobility: not own pawns or king, not attacked by
    /// enemy pawns.
    pub mobility_area: [Bitboard; 2],
    /// The squares around each side's king (and three more in front of it).
    pub king_zone: [Bitboard; 2],
    /// Pieces of each side that attack the enemy king zone.
    pub king_attackers: [i32; 2],
    /// Attack units of those pieces (by type).
    pub king_attack_units: [i32; 2],
    /// Attacks of each side on enemy king-zone squares, counted per attacker and square.
    pub king_zone_attacks: [i32; 2],
}

impl AttackInfo {
    /// Pawn and king attacks, mobility areas and king zones of `pos`.
    pub fn new(pos: &Position) -> AttackInfo {
        let mut info = AttackInfo {
            by: [[Bitboard::EMPTY; 6]; 2],
            all: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            mobility_area: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            king_attackers: [0; 2],
            king_attack_units: [0; 2],
            king_zone_attacks: [0; 2],
        };
        for c in Color::ALL {
            let pawns = pawn_attacks_bb(c, pos.colored(c, PieceType::Pawn));
            let king = king_attacks(pos.king(c));
            info.by[c.index()][PieceType::Pawn.index()] = pawns;
            info.by[c.index()][PieceType::King.index()] = king;
            info.all[c.index()] = pawns | king;
            info.twice[c.index()] = pawns & king;
            let zone = king | pos.king(c);
            info.king_zone[c.index()] = zone | push(c, zone);
        }
        for c in Color::ALL {
            let enemy_pawn_attacks = info.by[(!c).index()][PieceType::Pawn.index()];
            info.mobility_area[c.index()] = !(pos.colored(c, PieceType::Pawn)
                | pos.colored(c, PieceType::King)
                | enemy_pawn_attacks);
        }
        info
    }

    /// Records attacks of a piece of `color` and `kind`.
    #[inline(always)]
    pub fn record(&mut self, color: Color, kind: PieceType, attacks: Bitboard) {
        let c = color.index();
        self.twice[c] |= self.all[c] & attacks;
        self.all[c] |= attacks;
        self.by[c][kind.index()] |= attacks;
    }
}
