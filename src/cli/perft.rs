//! `ladya perft`: leaf counts and speed of the move generator.

use anyhow::{bail, Result};
use ladya::{perft, Position};
use std::time::Instant;

/// `ladya perft` shows progress from this depth on.
const PERFT_PROGRESS_DEPTH: u32 = 7;

/// Runs `ladya perft`: the count (per root move with `divide`), time and speed.
pub fn run(depth: u32, fen: Option<&str>, divide: bool, chess960: bool) -> Result<()> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f)?,
        None => Position::startpos(),
    };
    if depth == 0 {
        bail!("perft depth must be at least 1");
    }
    let start = Instant::now();
    let total = if depth >= PERFT_PROGRESS_DEPTH && !divide {
        // Deep counts take minutes: count root move by root move, with progress.
        let moves = pos.legal_moves();
        let mut bar = super::progress::Progress::new("perft", moves.len() as u64, "root moves");
        let mut total = 0;
        for &mv in &moves {
            pos.make_move(mv);
            total += perft::perft(&mut pos, depth - 1);
            pos.unmake_move();
            bar.inc(1);
        }
        bar.finish();
        total
    } else if divide {
        let mut total = 0;
        for (mv, n) in perft::divide(&mut pos, depth) {
            say!("{}: {n}", mv.uci(chess960));
            total += n;
        }
        say!("");
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    say!("Nodes: {total}");
    say!("Time: {:.3} s", secs);
    say!("Speed: {:.1} Mnps", total as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}
