//! `ladya probe`: what the Syzygy tables say about a position and each of its moves.

use anyhow::{bail, Context};
use clap::Args;
use ladya::tablebase::{self, Wdl};
use ladya::Position;
use std::path::PathBuf;

/// `ladya probe --fen FEN --syzygy DIR`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The position (no castling rights, as many pieces as the tables hold).
    #[arg(long)]
    pub fen: String,
    /// Folders of Syzygy tables, separated as in PATH (`:` on Unix, `;` on Windows).
    #[arg(long)]
    pub syzygy: PathBuf,
    /// Count cursed wins and blessed losses as the draws the fifty-move rule makes them.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub fifty_move_rule: bool,
}

/// Loads the tables of `--syzygy` (folders separated as in PATH), says what was found
/// and what was left out, and returns the most pieces the tables hold.
pub fn load_tables(dir: &std::path::Path, say: &mut dyn FnMut(&str)) -> anyhow::Result<u32> {
    let spec = dir
        .to_str()
        .context("the --syzygy path is not valid text")?;
    let report = tablebase::load(spec);
    for e in &report.errors {
        say(&format!("warning: {e}"));
    }
    say(&format!("Tables: {}", report.summary()));
    if report.max_pieces == 0 {
        bail!("no usable tables in {spec}");
    }
    Ok(report.max_pieces)
}

/// Loads the tables and writes the report through `say`.
pub fn run(args: &ProbeArgs, say: &mut dyn FnMut(&str)) -> anyhow::Result<()> {
    let pos = Position::from_fen(&args.fen).with_context(|| format!("bad FEN '{}'", args.fen))?;
    let max_pieces = load_tables(&args.syzygy, say)?;
    let pieces = pos.occupied().count();
    if !pos.castling().is_empty() {
        bail!("positions with castling rights are not in the tables");
    }
    if pieces > max_pieces {
        bail!("{pieces} pieces: the tables found hold at most {max_pieces}");
    }
    let Some(wdl) = tablebase::probe_wdl(&pos) else {
        bail!("the tables for this position are missing or unreadable");
    };
    say(&format!("Position: {}", pos.to_fen()));
    match tablebase::probe_root(&pos) {
        Some(root) => {
            say(&format!(
                "WDL: {} ({:+})  DTZ: {}",
                root.wdl,
                root.wdl.as_i32(),
                root.dtz
            ));
            let best = root.best_moves(args.fifty_move_rule);
            if let Some(&mv) = best.first() {
                say(&format!("Best move: {}", pos.to_san(mv)));
            } else {
                say("No legal move: the game is over.");
            }
            let mut moves = root.moves.clone();
            // Best first: as the engine ranks them, then by name.
            moves.sort_by_key(|m| {
                (
                    !best.contains(&m.mv),
                    std::cmp::Reverse(m.wdl),
                    m.dtz.abs(),
                    pos.to_san(m.mv),
                )
            });
            say(&format!("{:<8} {:<13} {:>5}", "move", "WDL", "DTZ"));
            for m in &moves {
                say(&format!(
                    "{:<8} {:<13} {:>5}",
                    pos.to_san(m.mv),
                    m.wdl.to_string(),
                    m.dtz
                ));
            }
        }
        None => {
            say(&format!(
                "WDL: {wdl} ({:+})  DTZ: not available (no DTZ table)",
                wdl.as_i32()
            ));
            for &mv in pos.legal_moves().as_slice() {
                let mut child = pos.clone_without_history();
                child.make_move(mv);
                let after = if child.is_checkmate() {
                    Some(Wdl::Win)
                } else {
                    tablebase::probe_wdl(&child).map(Wdl::flip)
                };
                let text = after.map_or_else(|| "?".to_string(), |w| w.to_string());
                say(&format!("{:<8} {:<13}", pos.to_san(mv), text));
            }
        }
    }
    Ok(())
}
