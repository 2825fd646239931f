//! Pawn structure: doubled, isolated, backward, supported, phalanx and passed pawns (these
//! depend on the pawns alone and are cached by pawn key), plus the passed-pawn terms that
//! depend on the other pieces and the kings (computed every time).

use super::layout::*;
use super::masks::{
    adjacent_files, attack_span, distance, front_span, passed_span, pawn_attacks_bb, push,
    support_span,
};
use super::score::S;
use super::{ScoreSink, Sink};
use crate::bitboard::Bitboard;
use crate::board::Position;
use crate::types::{Color, PieceType, Square};
use std::cell::RefCell;

/// Entries in each thread's pawn hash table (a power of two).
const PAWN_TABLE_SIZE: usize = 1 << 14;

/// One cached pawn-structure evaluation.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    key: u64,
    score: S,
    passed: [Bitboard; 2],
}

thread_local! {
    /// The pawn hash table: per thread, so search threads never contend for it.
    static PAWN_TABLE: RefCell<Vec<PawnEntry>> =
        RefCell::new(vec![PawnEntry::default(); PAWN_TABLE_SIZE]);
}

/// The pawn-only terms through the pawn hash table: adds the cached score to `sink` and
/// returns the passed pawns of each side.
pub(super) fn structure_cached(pos: &Position, sink: &mut ScoreSink) -> [Bitboard; 2] {
    let key = pos.pawn_key();
    let slot = (key as usize) & (PAWN_TABLE_SIZE - 1);
    PAWN_TABLE.with(|table| {
        let mut table = table.borrow_mut();
        let entry = &mut table[slot];
        // A key of zero means "no pawns" (or an empty slot): both compute to the same thing.
        if entry.key != key || key == 0 {
            let mut local = ScoreSink::default();
            let passed = structure(pos, &mut local);
            *entry = PawnEntry {
                key,
                score: local.score,
                passed,
            };
        }
        sink.score += entry.score;
        entry.passed
    })
}

/// The pawn-only terms, computed from scratch; returns the passed pawns of each side.
pub(super) fn structure<K: Sink>(pos: &Position, sink: &mut K) -> [Bitboard; 2] {
    let mut passed = [Bitboard::EMPTY; 2];
    for us in Color::ALL {
        let them = !us;
        let ours = pos.colored(us, PieceType::Pawn);
        let theirs = pos.colored(them, PieceType::Pawn);
        let their_attacks = pawn_attacks_bb(them, theirs);
        for sq in ours {
            let rank = us.relative_rank(sq.rank()).index();
            let file = sq.file().index();
            let adjacent = adjacent_files(file);
            let opposed = (front_span(us, sq) & theirs).any();
            let open = usize::from(!opposed);
            let supported = (pawn_attacks_bb(them, Bitboard::from_square(sq)) & ours).any();
            let phalanx = (adjacent & Bitboard::rank(sq.rank()) & ours).any();

            // Doubled: another own pawn in front on the same file.
            if (front_span(us, sq) & ours).any() {
                sink.add(us, PAWN_DOUBLED, 1);
            }
            if (adjacent & ours).is_empty() {
                sink.add(us, PAWN_ISOLATED + open, 1);
            } else if (support_span(us, sq) & ours).is_empty()
                && (push(us, Bitboard::from_square(sq)) & their_attacks).any()
            {
                // Backward: no own pawn level or behind on the adjacent files, and the
                // square in front is controlled by an enemy pawn.
                sink.add(us, PAWN_BACKWARD + open, 1);
            }
            if supported {
                sink.add(us, PAWN_SUPPORTED + rank, 1);
            }
            if phalanx {
                sink.add(us, PAWN_PHALANX + rank, 1);
            }
            if (passed_span(us, sq) & theirs).is_empty() && (front_span(us, sq) & ours).is_empty() {
                passed[us.index()] |= sq;
                sink.add(us, PASSED_RANK + rank, 1);
                if supported {
                    sink.add(us, PASSED_SUPPORTED, 1);
                }
            }
        }
    }
    passed
}

/// The passed-pawn terms that depend on the pieces and kings: a free path to promotion, a
/// blocker on the stop square, and the distances of both kings to the stop square (which
/// matter more the further the pawn has advanced).
pub(super) fn passers<K: Sink>(pos: &Position, passed: [Bitboard; 2], sink: &mut K) {
    let occ = pos.occupied();
    for us in Color::ALL {
        let them = !us;
        for sq in passed[us.index()] {
            let rank = us.relative_rank(sq.rank()).index();
            let Some(stop) = stop_square(us, sq) else {
                continue;
            };
            if (front_span(us, sq) & occ).is_empty() {
                sink.add(us, PASSED_FREE_PATH + rank, 1);
            } else if pos.color(them).has(stop) {
                sink.add(us, PASSED_BLOCKED + rank, 1);
            }
            let weight = rank as i32 - 2;
            if weight > 0 {
                let own = distance(pos.king(us), stop) as usize;
                let their = distance(pos.king(them), stop) as usize;
                sink.add(us, PASSED_OWN_KING + own, weight);
                sink.add(us, PASSED_THEIR_KING + their, weight);
            }
        }
    }
}

/// The square in front of a pawn.
fn stop_square(us: Color, sq: Square) -> Option<Square> {
    push(us, Bitboard::from_square(sq)).single()
}

/// The squares enemy pawns can never attack: for outposts.
pub(super) fn safe_from_pawns(pos: &Position, us: Color) -> Bitboard {
    let theirs = pos.colored(!us, PieceType::Pawn);
    let mut span = Bitboard::EMPTY;
    for sq in theirs {
        span |= attack_span(!us, sq);
    }
    !span
}
