//! `ladya data`: statistics, validation losses and conversion of training files.

use super::args::DataCommand;
use anyhow::Result;
use std::time::Instant;

/// Runs `ladya data stats|loss|convert|unpack|pgn`.
pub fn run(command: DataCommand) -> Result<()> {
    match command {
        DataCommand::Stats { file } => {
            let stats = ladya::data::file_stats(&file)?;
            say!("{stats}");
        }
        DataCommand::Loss {
            file,
            eval_file,
            lambda,
        } => {
            let net = match &eval_file {
                Some(path) => std::sync::Arc::new(
                    ladya::nnue::Network::load(path).map_err(|e| anyhow::anyhow!("{e}"))?,
                ),
                None => ladya::nnue::default_network(),
            };
            let positions = ladya::data::file::read_all(&file)?;
            let l = ladya::train::validate::static_losses(&net, &positions, lambda);
            say!(
                "{} positions, target {lambda} x score + {} x result: hand-crafted loss {:.6}, network ({:016x}) loss {:.6}",
                l.positions,
                1.0 - lambda,
                l.hand_crafted,
                net.header().hash,
                l.network
            );
        }
        DataCommand::Convert { input, output } => {
            let existing = ladya::data::record_count(&output)?;
            if existing > 0 {
                say!(
                    "appending to {}, which holds {existing} records",
                    output.display()
                );
            }
            let start = Instant::now();
            let report = ladya::data::convert_file(&input, &output)?;
            let secs = start.elapsed().as_secs_f64();
            say!("{report}");
            say!(
                "{} now holds {} records; {:.1} s, {:.0} lines/s",
                output.display(),
                report.existing + report.written,
                secs,
                report.read as f64 / secs.max(1e-9)
            );
        }
        DataCommand::Unpack { input, output } => {
            let start = Instant::now();
            let report = ladya::data::unpack_file(&input, &output)?;
            say!(
                "{} games, {} plies: {} positions appended to {} ({:.1} s)",
                report.games,
                report.plies,
                report.positions,
                output.display(),
                start.elapsed().as_secs_f64()
            );
        }
        DataCommand::Pgn {
            out,
            player,
            inputs,
        } => {
            let start = Instant::now();
            let inputs: Vec<&std::path::Path> = inputs.iter().map(|p| p.as_path()).collect();
            let report = ladya::data::pgn::import_files(&inputs, &out, player.as_deref())?;
            say!("{report}");
            say!(
                "{} now holds {} records; {:.1} s",
                out.display(),
                ladya::data::record_count(&out)?,
                start.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}
