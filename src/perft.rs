//! perft: counts the leaf nodes of the legal move tree, the standard test of a move
//! generator. The last ply is counted in bulk (the number of legal moves, without making them).
//!
//! The default build targets any x86-64, whose baseline has no `popcnt` instruction, and
//! bulk counting is mostly popcounts. So perft checks the CPU at run time and, where it
//! can, runs a copy of itself compiled with `popcnt` and `bmi1` enabled.

use crate::board::Position;
use crate::chess_move::Move;
use crate::movegen::MoveList;

/// The number of leaf nodes `depth` plies below `pos`.
#[allow(unsafe_code)]
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi1")
    {
        // SAFETY: the CPU has just been checked to support both enabled features.
        return unsafe { perft_fast(pos, depth) };
    }
    perft_plain(pos, depth)
}

#[inline(always)]
fn perft_step(pos: &mut Position, depth: u32, child: impl Fn(&mut Position, u32) -> u64) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let moves = pos.legal_moves();
            let mut nodes = 0;
            for &mv in &moves {
                pos.make_move(mv);
                nodes += child(pos, depth - 1);
                pos.unmake_move();
            }
            nodes
        }
    }
}

fn perft_plain(pos: &mut Position, depth: u32) -> u64 {
    perft_step(pos, depth, perft_plain)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
#[allow(unsafe_code)]
unsafe fn perft_fast(pos: &mut Position, depth: u32) -> u64 {
    // SAFETY: only reached through `perft`, after the feature check.
    perft_step(pos, depth, |p, d| unsafe { perft_fast(p, d) })
}

/// perft split by root move: each legal move with the leaf count below it.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves: MoveList = pos.legal_moves();
    moves
        .as_slice()
        .iter()
        .map(|&mv| {
            pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (mv, n)
        })
        .collect()
}
