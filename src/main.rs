//! The `ladya` binary: the UCI engine, plus terminal commands.
//!
//! `ladya` alone runs the UCI loop. Arguments that are not a subcommand are run as UCI
//! commands in order (OpenBench's convention: `ladya "setoption name Hash value 32" bench`).

mod cli;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use ladya::epd::EpdRecord;
use ladya::search::{Limits, Score, SearchControl, SearchEvent, SearchInfo, Searcher};
use ladya::uci::{self, output::Output};
use ladya::{bench, perft, Move, Position};
use std::time::Instant;

/// `println!` that ends the program quietly when stdout is closed (`ladya … | head`)
/// instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

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
    /// Search the bench positions at a fixed depth; the last line is `<N> nodes <M> nps`.
    Bench {
        /// Depth in plies.
        depth: Option<u32>,
        /// Search threads (the node count is the reference one only with 1).
        threads: Option<usize>,
        /// Evaluate with the hand-crafted evaluation.
        #[arg(long, conflicts_with = "nnue")]
        hce: bool,
        /// Evaluate with the embedded network.
        #[arg(long)]
        nnue: bool,
        /// Syzygy tablebase folders (to measure the cost of having them).
        #[arg(long)]
        syzygy: Option<std::path::PathBuf>,
    },
    /// Search one position and show the progress with the principal variation in SAN.
    Go {
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        #[command(flatten)]
        limit: SearchLimit,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Syzygy tablebase folders, separated as in PATH.
        #[arg(long)]
        syzygy: Option<std::path::PathBuf>,
    },
    /// Build opening books from PGN or opening lines, and probe them.
    #[command(subcommand)]
    Book(ladya::book::BookCommand),
    /// Self-play at a fixed node budget, writing quiet positions with score and result
    /// (packed 32-byte records, or `FEN | score | result` lines with --text); resumable.
    Datagen(DatagenArgs),
    /// Train an evaluation network on packed positions (see `src/train/`).
    Train(ladya::train::cli::TrainArgs),
    /// Training data files: `stats FILE`, `convert IN.txt OUT.bin`.
    #[command(subcommand)]
    Data(DataCommand),
    /// Analyse the games of a PGN file: an annotated PGN with `%eval` comments, marks and
    /// better moves, a summary per side, and an evaluation graph (`--graph FILE.svg`).
    Analyse(cli::analyse::AnalyseArgs),
    /// What the Syzygy tablebases say about a position: WDL, DTZ and the best move, and
    /// the same for every legal move.
    Probe(cli::probe::ProbeArgs),
    /// The search's tunables in the format of OpenBench's SPSA tab (`name, int, value,
    /// min, max, c_end, r_end`); a `--features tune` build takes them as UCI options.
    Tunables,
    /// Run an EPD test suite (`bm`/`am` in SAN) and report how many positions were solved.
    Epd {
        /// The EPD file.
        file: std::path::PathBuf,
        #[command(flatten)]
        limit: SearchLimit,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
    },
}

/// `ladya data ...`: packed training files.
#[derive(Subcommand)]
enum DataCommand {
    /// Count, result split, score histogram, side to move, pieces, corrupt records.
    Stats {
        /// A file of packed records.
        file: std::path::PathBuf,
    },
    /// How well the hand-crafted evaluation and a network predict a file's labels
    /// (validation: e.g. Stockfish-scored positions, which never train a network).
    Loss {
        /// A file of packed records.
        file: std::path::PathBuf,
        /// The network (default: the embedded one).
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        /// Weight of the score in the target; the game result gets the rest.
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
    },
    /// Convert `FEN | score | result` lines to packed records, appended to OUT.
    Convert {
        /// The text file.
        input: std::path::PathBuf,
        /// The packed file (created, or appended to when it exists).
        output: std::path::PathBuf,
    },
}

/// Options of `ladya datagen`.
#[derive(Args)]
struct DatagenArgs {
    /// Output file. With its sidecar OUT.progress from the same settings, the run resumes
    /// where it stopped; without one, new games are appended after what the file holds.
    #[arg(long)]
    out: std::path::PathBuf,
    /// Number of games in total for the run (games done before a resume count).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
    /// Opening positions, one FEN or EPD per line (default: the start position).
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Random legal plies after the opening.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
    /// Play with the hand-crafted evaluation (generation 0 of the training loop).
    #[arg(long, conflicts_with = "eval_file")]
    hce: bool,
    /// Play with this network instead of the engine's default evaluation.
    #[arg(long)]
    eval_file: Option<std::path::PathBuf>,
    /// Seed of every random choice (the same seed regenerates the same games).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once (the file is the same for any number).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Write `FEN | score | result` lines (the tuner's format) instead of packed records.
    #[arg(long)]
    text: bool,
    /// Syzygy tables (folders separated as in PATH): a game ends as soon as they know
    /// its result (a cursed win or blessed loss is a draw).
    #[arg(long)]
    syzygy: Option<String>,
}

/// Exactly one limit for a terminal search.
#[derive(Args, Clone, Copy)]
#[group(required = true, multiple = false)]
struct SearchLimit {
    /// Search to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

impl SearchLimit {
    fn limits(self) -> Limits {
        cli::search_limits(self.depth, self.movetime, self.nodes)
    }
}

/// `ladya perft` shows progress from this depth on.
const PERFT_PROGRESS_DEPTH: u32 = 7;

fn run_perft(depth: u32, fen: Option<&str>, divide: bool) -> Result<()> {
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
        let mut bar = cli::progress::Progress::new("perft", moves.len() as u64, "root moves");
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
            say!("{}: {n}", mv.uci(true));
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

fn run_bench(depth: Option<u32>, threads: usize, hce: bool, nnue: bool) {
    let net = match (hce, nnue) {
        (true, _) => None,
        (_, true) => Some(ladya::nnue::default_network()),
        _ => ladya::nnue::default_evaluation(),
    };
    let depth = depth.unwrap_or(bench::DEFAULT_BENCH_DEPTH);
    let report = bench::run_with(depth, net, threads, &mut |i, n| {
        say!("position {:>2}: {n:>10} nodes", i + 1)
    });
    say!("time: {:.3} s", report.elapsed.as_secs_f64());
    say!("{report}");
}

/// The moves of `pv` from `pos` in SAN, with move numbers.
fn san_line(pos: &Position, pv: &[Move]) -> String {
    let mut pos = pos.clone();
    let mut text = String::new();
    for (i, &mv) in pv.iter().enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        let number = pos.fullmove_number();
        if pos.side_to_move() == ladya::Color::White {
            text.push_str(&format!("{number}. "));
        } else if i == 0 {
            text.push_str(&format!("{number}... "));
        }
        text.push_str(&pos.to_san(mv));
        text.push(' ');
        pos.make_move(mv);
    }
    text.trim_end().to_string()
}

fn score_text(score: Score) -> String {
    match score {
        // Tablebase results are scored beyond any evaluation (`TB_WIN - ply`).
        Score::Cp(cp) if cp >= ladya::search::DECISIVE => "TB win".to_string(),
        Score::Cp(cp) if cp <= -ladya::search::DECISIVE => "TB loss".to_string(),
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

fn progress_line(pos: &Position, info: &SearchInfo) -> String {
    let secs = info.time.as_secs_f64();
    format!(
        "{:>3}/{:<3} {:>7} {:>11} nodes {:>6.0} knps {:>8.3} s  {}",
        info.depth,
        info.seldepth,
        score_text(info.score),
        info.nodes,
        info.nodes as f64 / secs.max(1e-6) / 1000.0,
        secs,
        san_line(pos, &info.pv)
    )
}

fn run_go(fen: Option<&str>, limit: SearchLimit, hash: usize, threads: usize) -> Result<()> {
    let pos = match fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("invalid FEN '{f}'"))?,
        None => Position::startpos(),
    };
    say!("{pos}");
    say!(
        "{:<7} {:>7} {:>17} {:>11} {:>10}  pv",
        "depth",
        "score",
        "nodes",
        "speed",
        "time"
    );
    let mut searcher = Searcher::new(hash);
    searcher.set_threads(threads);
    let control = SearchControl::default();
    // A line is printed when the score or the line changes, not once per iteration (a
    // found mate would otherwise repeat itself up to the depth limit).
    let mut shown: Option<(Score, Vec<Move>)> = None;
    let mut last: Option<SearchInfo> = None;
    let result = searcher.search(&pos, &limit.limits(), &control, &mut |event| {
        if let SearchEvent::Info(info) = event {
            let key = (info.score, info.pv.clone());
            if shown.as_ref() != Some(&key) {
                say!("{}", progress_line(&pos, &info));
                shown = Some(key);
                last = None;
            } else {
                last = Some(info);
            }
        }
    });
    if let Some(info) = &last {
        say!("{}", progress_line(&pos, info));
    }
    let Some(best) = result.best else {
        say!(
            "no legal move: {}",
            if pos.in_check() {
                "checkmate"
            } else {
                "stalemate"
            }
        );
        return Ok(());
    };
    let mut after = pos.clone();
    after.make_move(best);
    say!("");
    say!("{after}");
    say!("best move: {} ({})", pos.to_san(best), best.to_uci(false));
    if let Some(info) = &result.info {
        say!(
            "score {}, depth {}, line {}",
            score_text(info.score),
            info.depth,
            san_line(&pos, &info.pv)
        );
    }
    Ok(())
}

fn run_epd(file: &std::path::Path, limit: SearchLimit, hash: usize) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let limits = limit.limits();
    let mut searcher = Searcher::new(hash);
    let (mut solved, mut total, mut skipped) = (0, 0, 0);
    let records = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .count();
    let mut bar = cli::progress::Progress::new("epd", records as u64, "positions");
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        bar.inc(1);
        let name = format!("line {}", n + 1);
        let record = match EpdRecord::parse(line) {
            Ok(r) => r,
            Err(e) => {
                bar.suspend(|| say!("{name}: skipped: {e}"));
                skipped += 1;
                continue;
            }
        };
        let name = record.id().map_or(name, str::to_string);
        let (best, avoid) = match (record.moves("bm"), record.moves("am")) {
            (Ok(b), Ok(a)) if !(b.is_empty() && a.is_empty()) => (b, a),
            (Err(e), _) | (_, Err(e)) => {
                bar.suspend(|| say!("{name}: skipped: {e}"));
                skipped += 1;
                continue;
            }
            _ => {
                bar.suspend(|| say!("{name}: skipped: no bm or am"));
                skipped += 1;
                continue;
            }
        };
        let pos = &record.position;
        searcher.clear();
        let control = SearchControl::default();
        let result = searcher.search(pos, &limits, &control, &mut |_| {});
        total += 1;
        let Some(mv) = result.best else {
            bar.suspend(|| say!("{name}: FAIL: no move found"));
            continue;
        };
        let ok = (best.is_empty() || best.contains(&mv)) && !avoid.contains(&mv);
        solved += ok as u32;
        let sans = |ms: &[Move]| {
            ms.iter()
                .map(|&m| pos.to_san(m))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut expected = String::new();
        if !best.is_empty() {
            expected.push_str(&format!("bm {}", sans(&best)));
        }
        if !avoid.is_empty() {
            expected.push_str(&format!(
                "{}am {}",
                if expected.is_empty() { "" } else { ", " },
                sans(&avoid)
            ));
        }
        let score = result.info.as_ref().map_or(String::new(), |i| {
            format!(" ({} depth {})", score_text(i.score), i.depth)
        });
        bar.suspend(|| {
            say!(
                "{name}: {} played {}{score}, expected {expected}",
                if ok { "ok  " } else { "FAIL" },
                pos.to_san(mv),
            )
        });
    }
    bar.finish();
    if skipped > 0 {
        say!("skipped {skipped}");
    }
    say!("solved {solved}/{total}");
    Ok(())
}

fn run_datagen(args: DatagenArgs) -> Result<()> {
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
        seed: args.seed,
        threads: args.threads,
        format: if args.text {
            ladya::datagen::Format::Text
        } else {
            ladya::datagen::Format::Packed
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
    let mut bar: Option<cli::progress::Progress> = None;
    let report = ladya::datagen::generate_file(&cfg, &args.out, &mut |p| {
        if !cli::progress::bar_wanted() {
            eprintln!("{p}");
            return;
        }
        let bar = bar.get_or_insert_with(|| {
            let mut b = cli::progress::Progress::new("datagen", p.games_total as u64, "games");
            b.set(p.games_done.saturating_sub(p.session_games) as u64);
            b
        });
        bar.set(p.games_done as u64);
        bar.message(format!("{} positions", p.session_positions));
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

fn run_data(command: DataCommand) -> Result<()> {
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
    }
    Ok(())
}

fn run_train(args: &ladya::train::cli::TrainArgs) -> Result<()> {
    // One bar per epoch on a terminal; the trainer's own plain lines elsewhere.
    let mut bar: Option<cli::progress::Progress> = None;
    let mut epoch = 0;
    let mut hook = |done: usize, total: usize| {
        if done == 0 {
            epoch += 1;
            if let Some(old) = bar.take() {
                old.finish();
            }
            bar = Some(cli::progress::Progress::new(
                &format!("epoch {epoch}"),
                total as u64,
                "positions",
            ));
        }
        if let Some(bar) = bar.as_mut() {
            bar.set(done as u64);
        }
    };
    let progress: Option<&mut dyn FnMut(usize, usize)> = if cli::progress::bar_wanted() {
        Some(&mut hook)
    } else {
        None
    };
    ladya::train::cli::run(args, &mut |line| say!("{line}"), progress)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// Whether clap handles `word` (a subcommand or `help`); any other first argument starts
/// a UCI command script.
fn is_subcommand(word: &str) -> bool {
    use clap::CommandFactory;
    word == "help"
        || Cli::command()
            .get_subcommands()
            .any(|c| c.get_name() == word)
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1) {
        None => {
            uci::run_stdio();
            return Ok(());
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
            return Ok(());
        }
        Some(_) => {}
    }
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide }) => run_perft(depth, fen.as_deref(), divide),
        Some(Command::Bench {
            depth,
            threads,
            hce,
            nnue,
            syzygy,
        }) => {
            if let Some(dir) = syzygy {
                cli::probe::load_tables(&dir, &mut |line| say!("{line}"))?;
            }
            run_bench(depth, threads.unwrap_or(1), hce, nnue);
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
                cli::probe::load_tables(&dir, &mut |line| say!("{line}"))?;
            }
            run_go(fen.as_deref(), limit, hash, threads)
        }
        Some(Command::Epd { file, limit, hash }) => run_epd(&file, limit, hash),
        Some(Command::Analyse(args)) => cli::analyse::run(&args, &mut |line| say!("{line}")),
        Some(Command::Probe(args)) => cli::probe::run(&args, &mut |line| say!("{line}")),
        Some(Command::Datagen(args)) => run_datagen(args),
        Some(Command::Tunables) => {
            if !cfg!(feature = "tune") {
                eprintln!(
                    "note: this build reads these as constants; `cargo build --release \
                     --features tune` makes them UCI options"
                );
            }
            for t in ladya::search::params::TUNABLES {
                say!("{}", t.openbench_line());
            }
            Ok(())
        }
        Some(Command::Data(command)) => run_data(command),
        Some(Command::Train(args)) => run_train(&args),
        Some(Command::Book(command)) => {
            say!("{}", ladya::book::run(&command)?);
            Ok(())
        }
        None => {
            uci::run_stdio();
            Ok(())
        }
    }
}
