//! The `ladya` binary: the UCI engine, plus terminal commands.

use anyhow::{bail, Result};
use clap::{Parser, Subcommand};
use ladya::perft;
use ladya::Position;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "ladya", version, about = "Ladya, a UCI chess engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the move tree (move-generator test and speed).
    Perft {
        /// Depth in plies.
        depth: u32,
        /// Position to count from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
}

fn run_perft(depth: u32, fen: Option<&str>, divide: bool) -> Result<()> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f)?,
        None => Position::startpos(),
    };
    if depth == 0 {
        bail!("perft depth must be at least 1");
    }
    let start = Instant::now();
    let total = if divide {
        let mut total = 0;
        for (mv, n) in perft::divide(&mut pos, depth) {
            println!("{}: {n}", mv.uci(true));
            total += n;
        }
        println!();
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes: {total}");
    println!("Time: {:.3} s", secs);
    println!("Speed: {:.1} Mnps", total as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide }) => run_perft(depth, fen.as_deref(), divide),
        None => Ok(()),
    }
}
