//! `ladya datagen`: self-play training data.

use super::args::DatagenArgs;
use anyhow::{Context, Result};
use std::time::Instant;

/// Runs `ladya datagen`, with a progress bar on a terminal.
pub fn run(args: DatagenArgs) -> Result<()> {
    let openings = match &args.openings {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
    };
    let openings_name = args.openings.as_ref().map_or("startpos".to_string(), |p| {
        p.file_name().map_or(p.display().to_string(), |n| {
            n.to_string_lossy().into_owned()
        })
    });
    let cfg = ladya::datagen::DatagenConfig {
        games: args.games,
        nodes: args.nodes,
        openings,
        openings_name,
        random_plies: args.random_plies,
        max_opening_score: (!args.any_opening).then_some(args.max_opening_score),
        seed: args.seed,
        threads: args.threads,
        format: match (args.text, args.games_format) {
            (true, _) => ladya::datagen::Format::Text,
            (_, true) => ladya::datagen::Format::Games,
            _ => ladya::datagen::Format::Packed,
        },
        network: match (&args.eval_file, args.hce) {
            (_, true) => None,
            (Some(path), _) => Some(std::sync::Arc::new(
                ladya::nnue::Network::load(path).map_err(|e| anyhow::anyhow!("{e}"))?,
            )),
            (None, false) => ladya::nnue::default_evaluation(),
        },
        tablebase_adjudication: args.syzygy.is_some(),
    };
    if let Some(spec) = &args.syzygy {
        let report = ladya::tablebase::load(spec);
        for e in &report.errors {
            eprintln!("warning: {e}");
        }
        if report.max_pieces == 0 {
            anyhow::bail!("--syzygy {spec}: no tables found");
        }
        say!("{}", report.summary());
    }
    let start = Instant::now();
    let mut bar: Option<super::progress::Progress> = None;
    let report = ladya::datagen::generate_file(&cfg, &args.out, &mut |p| {
        if !super::progress::bar_wanted() {
            eprintln!("{p}");
            return;
        }
        let bar = bar.get_or_insert_with(|| {
            let mut b = super::progress::Progress::new("datagen", p.games_total as u64, "games");
            b.set(p.games_done.saturating_sub(p.games_now) as u64);
            b
        });
        bar.set(p.games_done as u64);
        bar.message(format!("{} positions", p.positions_now));
    })?;
    if let Some(bar) = bar {
        bar.finish();
    }
    if report.games == 0 && report.resumed_at >= cfg.games {
        say!(
            "{}: the run is complete ({} of {} games); a larger --games extends it",
            args.out.display(),
            report.resumed_at,
            cfg.games
        );
        return Ok(());
    }
    if report.resumed_at > 0 {
        say!(
            "resumed {} at game {} of {}{}",
            args.out.display(),
            report.resumed_at,
            cfg.games,
            if report.dropped_bytes > 0 {
                format!(" (cut a torn tail of {} bytes)", report.dropped_bytes)
            } else {
                String::new()
            }
        );
    } else if report.appended_after > 0 {
        say!(
            "appended to {}: the new games follow its {} bytes",
            args.out.display(),
            report.appended_after
        );
    }
    say!(
        "{} games (W/D/L {}/{}/{}), {} positions written to {} in {:.1} s; {} of {} games done",
        report.games,
        report.results[0],
        report.results[1],
        report.results[2],
        report.positions,
        args.out.display(),
        start.elapsed().as_secs_f64(),
        report.resumed_at + report.games,
        cfg.games
    );
    Ok(())
}
