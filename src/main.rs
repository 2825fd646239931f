//! The `ladya` binary: the UCI engine, plus terminal commands.
//!
//! `ladya` alone runs the UCI loop. Arguments that are not a subcommand are run as UCI
//! commands in order (OpenBench's convention: `ladya "setoption name Hash value 32" bench`).
//! Each subcommand's options are in `cli/args.rs` and its body in `cli/<command>.rs`.

#[macro_use]
mod cli;

use anyhow::Result;
use clap::Parser;
use cli::args::{Cli, Command};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if cli::script::run_uci(&args) {
        return Ok(());
    }
    let say = &mut |line: &str| say!("{line}");
    match Cli::parse().command {
        None => {
            ladya::uci::run_stdio();
            Ok(())
        }
        Some(Command::Perft {
            depth,
            fen,
            divide,
            chess960,
        }) => cli::perft::run(depth, fen.as_deref(), divide, chess960),
        Some(Command::Bench {
            depth,
            threads,
            hce,
            nnue,
            syzygy,
        }) => {
            if let Some(dir) = syzygy {
                cli::probe::load_tables(&dir, say)?;
            }
            cli::bench::run(depth, threads.unwrap_or(1), hce, nnue);
            Ok(())
        }
        Some(Command::Go {
            fen,
            limit,
            hash,
            threads,
            syzygy,
        }) => {
            if let Some(dir) = syzygy {
                cli::probe::load_tables(&dir, say)?;
            }
            cli::go::run(fen.as_deref(), limit, hash, threads)
        }
        Some(Command::Epd { file, limit, hash }) => cli::epd::run(&file, limit, hash),
        Some(Command::Analyse(args)) => cli::analyse::run(&args, say),
        Some(Command::Probe(args)) => cli::probe::run(&args, say),
        Some(Command::Datagen(args)) => cli::datagen::run(args),
        Some(Command::Tunables) => {
            cli::tunables::run();
            Ok(())
        }
        Some(Command::Data(command)) => cli::data::run(command),
        Some(Command::Texel(args)) => cli::texel::run(args),
        Some(Command::Train(args)) => cli::train::run(&args),
        Some(Command::Book(command)) => {
            say(&cli::book::run(&command)?);
            Ok(())
        }
    }
}
