//! Arguments that are not a subcommand run as UCI commands (OpenBench's convention).

use super::args::Cli;
use ladya::uci::{self, output::Output};

/// Whether clap handles `word` (a subcommand or `help`); any other first argument starts
/// a UCI command script.
fn is_subcommand(word: &str) -> bool {
    use clap::CommandFactory;
    word == "help"
        || Cli::command()
            .get_subcommands()
            .any(|c| c.get_name() == word)
}

/// Runs the UCI loop when there are no arguments, or the arguments as UCI commands when
/// the first is no subcommand; false when clap should parse them.
pub fn run_uci(args: &[String]) -> bool {
    match args.get(1) {
        None => {
            uci::run_stdio();
            true
        }
        Some(first) if !first.starts_with('-') && !is_subcommand(first) => {
            // A typo (`ladya analyze`) must not pass silently as a UCI script.
            let unknown = args[1..]
                .iter()
                .flat_map(|a| a.split(['\n', '\r']))
                .find_map(|l| match uci::command::parse(l) {
                    Err(e @ uci::command::CommandError::Unknown(_)) => Some(e),
                    _ => None,
                });
            if let Some(uci::command::CommandError::Unknown(word)) = unknown {
                eprintln!("ladya: unknown command '{word}'; `ladya help` lists the commands");
                std::process::exit(2);
            }
            uci::run_script(&args[1..], Output::stdout());
            true
        }
        Some(_) => false,
    }
}
