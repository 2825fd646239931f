//! King safety: attack units from the enemy pieces that attack the king zone (weighted by
//! attacker type and counting only real attacks), safe checks, undefended zone squares;
//! the units index a tuned nonlinear table. Plus the pawn shield, pawn storms and open
//! files next to the king.

use super::attacks::AttackInfo;
use super::layout::*;
use super::masks::{file_bb, front_span};
use super::params::{
    KS_NO_QUEEN_DIVISOR, KS_SAFE_CHECK_UNITS, KS_WEAK_SQUARE_UNITS, KS_ZONE_ATTACK_UNITS,
};
use super::Sink;
use crate::board::Position;
use crate::movegen::attacks::{bishop_attacks, knight_attacks, rook_attacks};
use crate::types::{Color, PieceType, Square};

/// The largest attack-unit index of the danger table.
const MAX_UNITS: i32 = 39;

/// King-safety terms of `us`'s king.
pub(super) fn evaluate<K: Sink>(pos: &Position, us: Color, info: &AttackInfo, sink: &mut K) {
    sink.add(us, KING_DANGER + danger_units(pos, us, info) as usize, 1);
    shelter(pos, us, pos.king(us), sink);
}

/// Attack units of the enemy against `us`'s king, 0 to `MAX_UNITS`.
fn danger_units(pos: &Position, us: Color, info: &AttackInfo) -> i32 {
    let them = !us;
    let (u, t) = (us.index(), them.index());
    let ksq = pos.king(us);
    let occ = pos.occupied();

    // Safe checks: squares the enemy attacks with a piece that would give check from
    // there, not occupied by its own pieces and not defended by us.
    let safe = !info.all[u] & !pos.color(them);
    let diagonal = bishop_attacks(ksq, occ);
    let orthogonal = rook_attacks(ksq, occ);
    let mut checks = 0;
    let check_squares = [
        (PieceType::Knight, knight_attacks(ksq)),
        (PieceType::Bishop, diagonal),
        (PieceType::Rook, orthogonal),
        (PieceType::Queen, diagonal | orthogonal),
    ];
    for (kind, squares) in check_squares {
        if (squares & info.by[t][kind.index()] & safe).any() {
            checks += KS_SAFE_CHECK_UNITS[kind.index()];
        }
    }

    let attackers = info.king_attackers[t];
    let has_queen = pos.colored(them, PieceType::Queen).any();
    let mut units = checks;
    if attackers >= 2 || (attackers == 1 && has_queen) {
        // Zone squares the enemy attacks that only our king (or nothing) defends.
        let defended_by_others =
            (info.all[u] & !info.by[u][PieceType::King.index()]) | info.twice[u];
        let weak = info.king_zone[u] & info.all[t] & !defended_by_others;
        units += info.king_attack_units[t]
            + info.king_zone_attacks[t] * KS_ZONE_ATTACK_UNITS / 2
            + weak.count() as i32 * KS_WEAK_SQUARE_UNITS;
    }
    if !has_queen {
        units /= KS_NO_QUEEN_DIVISOR;
    }
    units.clamp(0, MAX_UNITS)
}

/// Pawn shield, pawn storm and open files on the king's file and the two next to it
/// (shifted inwards when the king is on an edge file).
fn shelter<K: Sink>(pos: &Position, us: Color, ksq: Square, sink: &mut K) {
    let them = !us;
    let ours = pos.colored(us, PieceType::Pawn);
    let theirs = pos.colored(them, PieceType::Pawn);
    let king_file = ksq.file().index();
    let center = king_file.clamp(1, 6);
    // The king's rank and everything in front of it.
    let ahead = front_span(us, ksq) | ksq;
    for file in center - 1..=center + 1 {
        let column = file_bb(file);
        // Files in front of the king, from the king's rank up.
        let span = shift_file(ahead, king_file, file);
        let own = ours & span;
        let shield_rank = if own.any() {
            us.relative_rank(nearest(us, own).rank()).index()
        } else {
            0
        };
        let on_king_file = usize::from(file == king_file);
        sink.add(us, KING_SHIELD + 8 * on_king_file + shield_rank, 1);

        let enemy = theirs & span;
        if enemy.any() {
            let storm_sq = nearest(us, enemy);
            let rank = us.relative_rank(storm_sq.rank()).index();
            let blocked = own.any() && {
                let in_front = match us {
                    Color::White => storm_sq.offset(-8),
                    Color::Black => storm_sq.offset(8),
                };
                in_front.is_some_and(|s| ours.has(s))
            };
            let section = if blocked {
                KING_STORM_BLOCKED
            } else {
                KING_STORM
            };
            sink.add(us, section + rank, 1);
        } else {
            sink.add(us, KING_STORM, 1);
        }

        if (column & ours).is_empty() {
            let open = usize::from((column & theirs).is_empty());
            sink.add(us, KING_OPEN_FILE + open, 1);
        }
    }
}

/// The square of `set` closest to `us`'s back rank.
fn nearest(us: Color, set: crate::bitboard::Bitboard) -> Square {
    match us {
        Color::White => set.lsb(),
        Color::Black => set.msb(),
    }
}

/// A one-file mask moved from file `from` to file `to`.
fn shift_file(b: crate::bitboard::Bitboard, from: usize, to: usize) -> crate::bitboard::Bitboard {
    use crate::bitboard::Bitboard;
    if to >= from {
        Bitboard(b.0 << (to - from))
    } else {
        Bitboard(b.0 >> (from - to))
    }
}
