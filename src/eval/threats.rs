//! Threats: enemy pieces attacked by pawns, by lesser pieces, by the king; hanging pieces;
//! and safe pawn pushes that would attack a piece.

use super::attacks::AttackInfo;
use super::layout::*;
use super::masks::{pawn_attacks_bb, push};
use super::Sink;
use crate::bitboard::Bitboard;
use crate::board::Position;
use crate::types::{Color, PieceType};

/// Threats by `us` against the other side.
pub(super) fn evaluate<K: Sink>(pos: &Position, us: Color, info: &AttackInfo, sink: &mut K) {
    let them = !us;
    let (u, t) = (us.index(), them.index());
    let by = &info.by[u];
    let their_king = pos.colored(them, PieceType::King);
    let their_pawns = pos.colored(them, PieceType::Pawn);
    let targets = pos.color(them) & !their_king;
    let non_pawns = targets & !their_pawns;
    // Defended by a pawn, or defended twice and not attacked twice.
    let strongly_defended = info.by[t][PieceType::Pawn.index()] | (info.twice[t] & !info.twice[u]);
    let undefended = !info.all[t];

    add_by_victim(
        pos,
        us,
        non_pawns & by[PieceType::Pawn.index()],
        THREAT_BY_PAWN,
        sink,
    );
    let minors = by[PieceType::Knight.index()] | by[PieceType::Bishop.index()];
    let weak = targets & !strongly_defended;
    let heavy = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    add_by_victim(
        pos,
        us,
        (weak | (heavy & targets)) & minors,
        THREAT_BY_MINOR,
        sink,
    );
    let queens = pos.pieces(PieceType::Queen);
    add_by_victim(
        pos,
        us,
        (weak | (queens & targets)) & by[PieceType::Rook.index()],
        THREAT_BY_ROOK,
        sink,
    );
    let by_king = weak & undefended & by[PieceType::King.index()];
    sink.add(us, THREAT_BY_KING, by_king.count() as i32);
    let hanging = non_pawns & info.all[u] & undefended;
    sink.add(us, HANGING, hanging.count() as i32);

    // Pawn pushes to squares not attacked by enemy pawns (or defended by us) that would
    // attack an enemy piece.
    let ours = pos.colored(us, PieceType::Pawn);
    let empty = !pos.occupied();
    let safe = !info.by[t][PieceType::Pawn.index()] & (info.all[u] | !info.all[t]);
    let pushes = push(us, ours) & empty & safe;
    let push_threats = pawn_attacks_bb(us, pushes) & non_pawns;
    sink.add(us, THREAT_PAWN_PUSH, push_threats.count() as i32);
}

/// Adds one count per attacked piece, by the piece's type.
fn add_by_victim<K: Sink>(
    pos: &Position,
    us: Color,
    victims: Bitboard,
    section: usize,
    sink: &mut K,
) {
    for sq in victims {
        if let Some(piece) = pos.piece_on(sq) {
            sink.add(us, section + piece.kind().index(), 1);
        }
    }
}
