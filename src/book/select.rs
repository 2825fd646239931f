//! Choosing one move among a position's book moves.

use super::polyglot::BookMove;
use crate::chess_move::Move;
use rand_xoshiro::rand_core::RngCore;

/// Picks a move: with `variety`, at random in proportion to the weights; without, the
/// highest weight (the first one on ties, i.e. file order). Weight 0 is never picked, so
/// a position whose moves all weigh 0 gives `None`.
pub fn choose(moves: &[BookMove], variety: bool, rng: &mut impl RngCore) -> Option<Move> {
    let playable = moves.iter().filter(|m| m.weight > 0);
    if !variety {
        // `max_by_key` keeps the last maximum; reverse to keep the first.
        return playable.rev().max_by_key(|m| m.weight).map(|m| m.mv);
    }
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    if total == 0 {
        return None;
    }
    // The modulo bias is below 2^-40 for any book (total < 2^24 per position in practice).
    let mut pick = rng.next_u64() % total;
    for m in playable {
        let w = u64::from(m.weight);
        if pick < w {
            return Some(m.mv);
        }
        pick -= w;
    }
    None // not reached: pick < total, the sum of the weights
}
