//! `ladya analyse GAME.pgn`: analyses every game of a PGN file, writes the annotated PGN
//! (stdout or `--out`) and the evaluation graph (`--graph`).

use super::progress::Progress;
use anyhow::{bail, Context, Result};
use clap::Args;
use ladya::analyse::{self, AnalyseError, GameAnalysis};
use ladya::book::parse_pgn;
use ladya::search::{Limits, Searcher};
use std::path::PathBuf;
use std::time::Instant;

/// Depth of each position's search when no limit is given.
pub const DEFAULT_DEPTH: u32 = 12;

/// Options of `ladya analyse`.
#[derive(Args)]
pub struct AnalyseArgs {
    /// The PGN file (one or many games).
    pub file: PathBuf,
    /// Search each position to this depth (the default, 12, when no limit is given).
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds.
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<u64>,
    /// Search each position for this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Write the annotated PGN here instead of to stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write an HTML report (one page, nothing else needed to view it): accuracy, graph,
    /// moves with marks and better moves, a diagram at each mistake and blunder.
    #[arg(long)]
    pub html: Option<PathBuf>,
    /// Draw each game's evaluation graph into this file: SVG or PNG, by its extension.
    #[arg(long)]
    pub graph: Option<PathBuf>,
}

impl AnalyseArgs {
    fn limits(&self) -> Limits {
        let depth = match (self.depth, self.movetime, self.nodes) {
            (None, None, None) => Some(DEFAULT_DEPTH),
            (depth, _, _) => depth,
        };
        super::search_limits(depth, self.movetime, self.nodes)
    }

    /// What the `Annotator` tag says.
    fn annotator(&self) -> String {
        let limit = match (self.depth, self.movetime, self.nodes) {
            (_, Some(ms), _) => format!("{ms} ms"),
            (_, _, Some(n)) => format!("{n} nodes"),
            (d, _, _) => format!("depth {}", d.unwrap_or(DEFAULT_DEPTH)),
        };
        format!("Ladya {} ({limit} a position)", env!("CARGO_PKG_VERSION"))
    }
}

/// Runs `ladya analyse`; `say` prints a line to stdout.
pub fn run(args: &AnalyseArgs, say: &mut dyn FnMut(&str)) -> Result<()> {
    // Output problems are reported before the analysis, not after minutes of it.
    if let Some(html) = &args.html {
        let dir = html.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) {
            bail!("cannot write {}: no such directory", html.display());
        }
    }
    if let Some(graph) = &args.graph {
        if analyse::GraphFormat::of(graph).is_none() {
            bail!(
                "{}",
                analyse::GraphError::Format(graph.display().to_string())
            );
        }
        // Output problems are reported before the analysis, not after minutes of it.
        let dir = graph.parent().filter(|d| !d.as_os_str().is_empty());
        if dir.is_some_and(|d| !d.is_dir()) {
            bail!("cannot draw {}: no such directory", graph.display());
        }
    }
    let mut out_file = match &args.out {
        Some(out) => Some(
            std::fs::File::create(out)
                .with_context(|| format!("cannot write {}", out.display()))?,
        ),
        None => None,
    };
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // PGN in the wild is often Latin-1: names may garble, moves are ASCII.
    let games = parse_pgn(&String::from_utf8_lossy(&bytes));
    if games.is_empty() {
        bail!("{}: no games found", args.file.display());
    }
    // Check every game first, so the bar knows the real amount of work.
    let checked: Vec<Result<usize, AnalyseError>> = games
        .iter()
        .map(|g| analyse::play_out(g).map(|(_, moves)| moves.len() + 1))
        .collect();
    let total: usize = checked.iter().flatten().sum();
    let limits = args.limits();
    let annotator = args.annotator();
    let mut searcher = Searcher::new(args.hash.max(1));
    searcher.set_threads(args.threads);
    let mut progress = Progress::new("analyse", total as u64, "positions");
    let (mut analysed, mut skipped, mut text) = (Vec::new(), 0, String::new());
    let started = Instant::now();
    for (n, (game, check)) in games.iter().zip(&checked).enumerate() {
        let name = format!("game {} ({})", n + 1, analyse::game_title(&game.tags));
        if let Err(e) = check {
            progress.println(&format!("{name}: skipped: {e}"));
            skipped += 1;
            continue;
        }
        progress.message(name.clone());
        let game = analyse::analyse_game(game, &mut searcher, &limits, &mut || progress.inc(1))
            .with_context(|| name.clone())?;
        text.push_str(&analyse::annotated_pgn(&game, &annotator));
        analysed.push(game);
    }
    progress.finish();
    if analysed.is_empty() {
        bail!("{}: no game could be analysed", args.file.display());
    }
    let secs = started.elapsed().as_secs_f64();
    let mut report: Vec<String> = analysed.iter().map(summary_line).collect();
    report.push(format!(
        "analysed {} games ({} positions) in {secs:.1} s{}",
        analysed.len(),
        total,
        if skipped > 0 {
            format!(", skipped {skipped}")
        } else {
            String::new()
        }
    ));
    match (&args.out, out_file.as_mut()) {
        (Some(out), Some(file)) => {
            use std::io::Write as _;
            file.write_all(text.as_bytes())
                .with_context(|| format!("cannot write {}", out.display()))?;
            report.push(format!("annotated PGN written to {}", out.display()));
        }
        _ => say(text.trim_end()),
    }
    if let Some(graph) = &args.graph {
        analyse::draw_graph(&analysed, graph)?;
        report.push(format!("graph drawn to {}", graph.display()));
    }
    if let Some(html) = &args.html {
        let title = format!(
            "Ladya's analysis of {}",
            args.file
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        );
        std::fs::write(html, analyse::html_report(&analysed, &title)?)
            .with_context(|| format!("cannot write {}", html.display()))?;
        report.push(format!("report written to {}", html.display()));
    }
    for line in report {
        // With the PGN on stdout, the report goes to stderr so the PGN stays clean.
        if args.out.is_some() {
            say(&line);
        } else {
            eprintln!("{line}");
        }
    }
    Ok(())
}

fn summary_line(game: &GameAnalysis) -> String {
    let side = |s: analyse::SideSummary| {
        format!(
            "{:.0}% ({}?! {}? {}??)",
            s.accuracy, s.inaccuracies, s.mistakes, s.blunders
        )
    };
    format!(
        "{} {}: White {}, Black {}",
        game.title(),
        game.result,
        side(game.summary(ladya::Color::White)),
        side(game.summary(ladya::Color::Black))
    )
}
