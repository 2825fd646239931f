//! Self-play training data (`ladya datagen`): quiet positions with Ladya's search score and
//! the game result, for the evaluation network's trainer and the Texel tuner.
//!
//! Ladya plays itself at a fixed node budget per move from shuffled openings, each
//! followed by a few random plies so that no two games are alike. A position is kept when
//! it is worth learning from: not in check, the move chosen is no capture or promotion,
//! the score is no mate and below 2,000 cp, and the game is past its first plies.
//!
//! A game ends once its result is clear, so the time goes to positions worth learning:
//! both searches agree on a decisive score for several plies (a win), the score stays
//! near zero for a long stretch late in the game (a draw), or, with Syzygy tables loaded
//! (`--syzygy`), the tables know the position's result.
//!
//! # Output
//! [`Format::Packed`] (the default) writes one 32-byte record per position, the layout in
//! `src/data/packed.rs` ([`PackedPosition`]: board, score in centipawns from White's view,
//! result for White, side to move, en passant, clocks); a file is nothing but records, read
//! by `ladya data stats` and the trainer ([`crate::data::read_all`]). [`Format::Text`]
//! writes `FEN | score | result` lines (result 1.0 / 0.5 / 0.0), the format of
//! `../shared/data/tuning`, which the Texel tuner (`ladya texel`) reads and
//! `ladya data convert` turns into records.
//!
//! # Reproducible, resumable, appendable
//! Every game is a function of the seed and its number alone (its own RNG, a fresh search
//! with a cleared table, fixed nodes). Games are played on several threads, but the writer
//! puts them in the file in game-number order (finished games wait in a reorder buffer), so
//! the file is byte-for-byte the same for any thread count.
//!
//! [`generate_file`] keeps a sidecar `OUT.progress` next to the output: a few `key=value`
//! lines with the settings that decide the games (format, seed, nodes, random plies, a
//! hash of the openings, and for people the openings file name) and how far the run got
//! (games done, the output's byte length then). It is rewritten atomically (temp file,
//! then rename) after each game is written, so a run killed at any moment resumes exactly:
//!
//! - sidecar present, same settings: the output is cut back to the recorded length (a
//!   game half-written when the process died goes) and play resumes at the next game
//!   number; `games` is the run's total target, so a larger `--games` extends a finished
//!   run and the file equals one run to the larger total;
//! - sidecar present, other settings: an error ([`DatagenError::Mismatch`]); choose another
//!   output or delete the sidecar to append a new run;
//! - output present without a sidecar: the new run's games are appended after what is
//!   there (records are self-contained; a packed file must be whole records).
//!
//! The thread count and the engine build are not recorded: threads never change the data,
//! and a run resumed with another build continues with that build's games.

pub mod genfens;

use crate::board::{FenError, Position};
use crate::data::{filter, DataError, GameResult, PackedPosition, RECORD_BYTES};
use crate::search::{Limits, Score, SearchControl, Searcher};
use crate::tablebase::Wdl;
use crate::types::Color;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::BTreeMap;
use std::fmt;
use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A game still running after this many plies is scored a draw.
const MAX_GAME_PLIES: usize = 400;
/// Win adjudication: both sides' searches agree on at least this many centipawns...
const WIN_SCORE: i32 = 1000;
/// ...for this many plies in a row.
const WIN_PLIES: usize = 8;
/// Draw adjudication: from this ply on, the score stays within +-`DRAW_SCORE`...
const DRAW_MIN_PLY: usize = 80;
/// ...centipawns...
const DRAW_SCORE: i32 = 10;
/// ...for this many plies in a row.
const DRAW_PLIES: usize = 10;
/// Transposition table per game thread, in MB.
const HASH_MB: usize = 16;
/// Time between two progress reports.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);
/// Version of the sidecar's layout.
const SIDECAR_VERSION: u32 = 1;

/// How positions are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// 32-byte [`PackedPosition`] records.
    #[default]
    Packed,
    /// `FEN | score | result` lines.
    Text,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Packed => "packed",
            Format::Text => "text",
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, Default)]
pub struct DatagenConfig {
    /// Number of games in total (games already in a resumed run count).
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Opening FENs (EPD lines are cut to their first four fields); empty for the
    /// start position.
    pub openings: Vec<String>,
    /// Where the openings came from (recorded in the sidecar for people; not compared).
    pub openings_name: String,
    /// Random legal plies played after the opening.
    pub random_plies: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Output format.
    pub format: Format,
    /// The evaluation the games are played with: a network, or `None` for the
    /// hand-crafted evaluation (generation 0 of the training loop).
    pub network: Option<std::sync::Arc<crate::nnue::Network>>,
    /// End a game as soon as the loaded Syzygy tables ([`crate::tablebase::load`]) know
    /// its result: the plies after that teach the network nothing a table does not know.
    pub tablebase_adjudication: bool,
}

/// A data-generation failure.
#[derive(Debug)]
pub enum DatagenError {
    /// An opening line is not a valid position.
    Opening(usize, FenError),
    /// Writing the output failed.
    Io(std::io::Error),
    /// Reading, cutting or appending to the output or its sidecar failed, or a packed
    /// output is not a whole number of records.
    Data(DataError),
    /// The sidecar records a run with other settings.
    Mismatch {
        /// The sidecar.
        sidecar: PathBuf,
        /// The setting that differs.
        field: &'static str,
        /// Its value in the sidecar.
        recorded: String,
        /// Its value now.
        requested: String,
    },
    /// The sidecar does not parse.
    BadSidecar(PathBuf, String),
    /// The output is shorter than its sidecar says (it was cut or replaced).
    ShortOutput {
        /// The output.
        path: PathBuf,
        /// Its length.
        bytes: u64,
        /// The length the sidecar recorded.
        recorded: u64,
    },
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Opening(n, e) => write!(f, "opening {}: {e}", n + 1),
            DatagenError::Io(e) => write!(f, "cannot write the data: {e}"),
            DatagenError::Data(e) => write!(f, "{e}"),
            DatagenError::Mismatch {
                sidecar,
                field,
                recorded,
                requested,
            } => write!(
                f,
                "{} records a run with {field} {recorded}, not {requested}: resume with the \
                 same settings, choose another --out, or delete {0} to append a new run",
                sidecar.display()
            ),
            DatagenError::BadSidecar(path, why) => write!(
                f,
                "{}: {why} (delete it to append a new run after the file)",
                path.display()
            ),
            DatagenError::ShortOutput {
                path,
                bytes,
                recorded,
            } => write!(
                f,
                "{} has {bytes} bytes but its progress file recorded {recorded}: it was cut \
                 or replaced; delete {} to append a new run",
                path.display(),
                sidecar_path(path).display()
            ),
        }
    }
}

impl std::error::Error for DatagenError {}

impl From<DataError> for DatagenError {
    fn from(e: DataError) -> DatagenError {
        DatagenError::Data(e)
    }
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenReport {
    /// Games played to the end in this run.
    pub games: usize,
    /// Positions written in this run.
    pub positions: usize,
    /// Games won by White, drawn, won by Black, in this run.
    pub results: [usize; 3],
    /// Games the resumed run had already done (0 for a new run).
    pub resumed_at: usize,
    /// Bytes of a torn tail cut from the output on resuming.
    pub dropped_bytes: u64,
    /// Bytes that were in the output before a new run appended to it.
    pub appended_after: u64,
}

/// A progress report, made every few seconds.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Games done, counting those of the resumed run.
    pub games_done: usize,
    /// The run's target.
    pub games_total: usize,
    /// Games played in this session.
    pub session_games: usize,
    /// Positions written in this session.
    pub session_positions: usize,
    /// Time since this session started.
    pub elapsed: Duration,
}

impl fmt::Display for Progress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-3);
        let games_per_s = self.session_games as f64 / secs;
        write!(
            f,
            "{}/{} games, {} positions, {:.0} positions/s, {:.2} games/s, ETA ",
            self.games_done,
            self.games_total,
            self.session_positions,
            self.session_positions as f64 / secs,
            games_per_s
        )?;
        let left = self.games_total.saturating_sub(self.games_done);
        if games_per_s > 0.0 {
            let eta = (left as f64 / games_per_s).round() as u64;
            write!(f, "{}h{:02}m{:02}s", eta / 3600, eta / 60 % 60, eta % 60)
        } else {
            write!(f, "?")
        }
    }
}

/// One finished game: its positions encoded in the output format.
struct Game {
    bytes: Vec<u8>,
    positions: usize,
    /// The result for White: 2 win, 1 draw, 0 loss.
    white_points: u8,
}

/// The settings a sidecar holds and how far its run got.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Sidecar {
    format: String,
    seed: u64,
    nodes: u64,
    random_plies: usize,
    openings_hash: u64,
    openings_name: String,
    /// `hce`, or `nnue:` and the network's hash.
    evaluation: String,
    /// Most pieces of the tables that adjudicate games; 0 without.
    tablebases: u32,
    games_done: usize,
    bytes: u64,
}

impl Sidecar {
    fn new(cfg: &DatagenConfig, games_done: usize, bytes: u64) -> Sidecar {
        Sidecar {
            format: cfg.format.name().to_string(),
            seed: cfg.seed,
            nodes: cfg.nodes,
            random_plies: cfg.random_plies,
            openings_hash: openings_hash(&cfg.openings),
            openings_name: cfg.openings_name.clone(),
            evaluation: evaluation_name(cfg),
            tablebases: if cfg.tablebase_adjudication {
                crate::tablebase::max_pieces()
            } else {
                0
            },
            games_done,
            bytes,
        }
    }

    fn to_text(&self) -> String {
        format!(
            "# ladya datagen progress: the settings of the run writing the file next to this\n\
             # one and how far it got. Delete it to start a new run appended to the file.\n\
             version={SIDECAR_VERSION}\nformat={}\nseed={}\nnodes={}\nrandom_plies={}\n\
             openings_hash={:016x}\nopenings={}\nevaluation={}\ntablebases={}\n\
             games_done={}\nbytes={}\n",
            self.format,
            self.seed,
            self.nodes,
            self.random_plies,
            self.openings_hash,
            self.openings_name,
            self.evaluation,
            self.tablebases,
            self.games_done,
            self.bytes
        )
    }

    fn parse(text: &str) -> Result<Sidecar, String> {
        let mut map = BTreeMap::new();
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let (k, v) = line
                .split_once('=')
                .ok_or_else(|| format!("line '{line}' is not key=value"))?;
            map.insert(k, v);
        }
        let get = |k: &str| map.get(k).copied().ok_or_else(|| format!("no {k}"));
        fn num<T: std::str::FromStr>(k: &str, v: &str) -> Result<T, String> {
            v.parse().map_err(|_| format!("{k}={v} is not a number"))
        }
        let version: u32 = num("version", get("version")?)?;
        if version != SIDECAR_VERSION {
            return Err(format!(
                "version {version} (this build reads {SIDECAR_VERSION})"
            ));
        }
        Ok(Sidecar {
            format: get("format")?.to_string(),
            seed: num("seed", get("seed")?)?,
            nodes: num("nodes", get("nodes")?)?,
            random_plies: num("random_plies", get("random_plies")?)?,
            openings_hash: u64::from_str_radix(get("openings_hash")?, 16)
                .map_err(|_| "openings_hash is not hexadecimal".to_string())?,
            openings_name: get("openings")?.to_string(),
            // Sidecars from before networks were all of hand-crafted runs.
            evaluation: get("evaluation").unwrap_or("hce").to_string(),
            // Sidecars from before tablebase adjudication had none.
            tablebases: num("tablebases", get("tablebases").unwrap_or("0"))?,
            games_done: num("games_done", get("games_done")?)?,
            bytes: num("bytes", get("bytes")?)?,
        })
    }

    /// The first setting that differs from `now`'s.
    fn mismatch(&self, now: &Sidecar) -> Option<(&'static str, String, String)> {
        let checks = [
            ("format", self.format.clone(), now.format.clone()),
            ("seed", self.seed.to_string(), now.seed.to_string()),
            ("nodes", self.nodes.to_string(), now.nodes.to_string()),
            (
                "evaluation",
                self.evaluation.clone(),
                now.evaluation.clone(),
            ),
            (
                "tablebase adjudication up to pieces",
                self.tablebases.to_string(),
                now.tablebases.to_string(),
            ),
            (
                "random plies",
                self.random_plies.to_string(),
                now.random_plies.to_string(),
            ),
            (
                "openings",
                format!(
                    "'{}' (hash {:016x})",
                    self.openings_name, self.openings_hash
                ),
                format!("'{}' (hash {:016x})", now.openings_name, now.openings_hash),
            ),
        ];
        checks.into_iter().find_map(|(field, a, b)| {
            let differs = if field == "openings" {
                self.openings_hash != now.openings_hash
            } else {
                a != b
            };
            differs.then_some((field, a, b))
        })
    }
}

/// How the sidecar names the evaluation of a run.
fn evaluation_name(cfg: &DatagenConfig) -> String {
    match &cfg.network {
        Some(net) => format!("nnue:{:016x}", net.header().hash),
        None => "hce".to_string(),
    }
}

/// FNV-1a over the opening lines: the sidecar notices a changed openings file.
fn openings_hash(openings: &[String]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for line in openings {
        for &b in line.as_bytes().iter().chain(b"\n") {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The sidecar of the output `out`: `OUT.progress`.
pub fn sidecar_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_os_string();
    name.push(".progress");
    PathBuf::from(name)
}

fn write_sidecar(path: &Path, sidecar: &Sidecar) -> Result<(), DataError> {
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, sidecar.to_text()).map_err(|e| DataError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| DataError::io(path, e))
}

/// The position of an opening line, FEN or EPD: its first four fields (an EPD's operations
/// and a FEN's clocks are dropped; the game starts its own count).
fn opening_position(line: &str) -> Result<Position, FenError> {
    let fields: Vec<&str> = line.split_whitespace().take(4).collect();
    Position::from_fen(&format!("{} 0 1", fields.join(" ")))
}

fn parse_openings(cfg: &DatagenConfig) -> Result<Vec<Position>, DatagenError> {
    let mut openings = Vec::with_capacity(cfg.openings.len());
    for (n, line) in cfg.openings.iter().enumerate() {
        openings.push(opening_position(line).map_err(|e| DatagenError::Opening(n, e))?);
    }
    if openings.is_empty() {
        openings.push(Position::startpos());
    }
    Ok(openings)
}

/// Plays games `first..cfg.games` on `cfg.threads` threads and hands each to `sink` in
/// game-number order. Stops at the first error of `sink`.
fn play_games(
    cfg: &DatagenConfig,
    first: usize,
    sink: &mut dyn FnMut(&Game) -> Result<(), DatagenError>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenReport, DatagenError> {
    let openings = parse_openings(cfg)?;
    let threads = cfg.threads.max(1);
    let next = AtomicUsize::new(first);
    let stop = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<(usize, Game)>();
    let mut report = DatagenReport {
        resumed_at: first,
        ..DatagenReport::default()
    };
    let start = Instant::now();
    let mut last_report = start;
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (openings, next, stop) = (&openings, &next, &stop);
            scope.spawn(move || {
                let mut searcher = Searcher::new(HASH_MB);
                searcher.set_network(cfg.network.clone());
                while !stop.load(Ordering::Relaxed) {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= cfg.games {
                        return;
                    }
                    let game = play_game(cfg, openings, n as u64, &mut searcher);
                    if tx.send((n, game)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        // The reorder buffer: games finished out of turn wait for their predecessors.
        let mut waiting = BTreeMap::new();
        let mut expected = first;
        for (n, game) in &rx {
            waiting.insert(n, game);
            while let Some(game) = waiting.remove(&expected) {
                if let Err(e) = sink(&game) {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                expected += 1;
                report.games += 1;
                report.positions += game.positions;
                report.results[2 - game.white_points as usize] += 1;
            }
            if last_report.elapsed() >= PROGRESS_EVERY {
                last_report = Instant::now();
                progress(&Progress {
                    games_done: expected,
                    games_total: cfg.games,
                    session_games: report.games,
                    session_positions: report.positions,
                    elapsed: start.elapsed(),
                });
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// Plays `cfg.games` games and writes their positions to `out` in game order, with no
/// sidecar (the whole run at once). `progress` gets a report every few seconds.
pub fn generate(
    cfg: &DatagenConfig,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenReport, DatagenError> {
    let report = play_games(
        cfg,
        0,
        &mut |game| out.write_all(&game.bytes).map_err(DatagenError::Io),
        progress,
    )?;
    out.flush().map_err(DatagenError::Io)?;
    Ok(report)
}

/// Plays the games of `cfg` into the file `out`, resuming the run its sidecar records or
/// appending a new run after what the file holds (see the module documentation).
pub fn generate_file(
    cfg: &DatagenConfig,
    out: &Path,
    progress: &mut dyn FnMut(&Progress),
) -> Result<DatagenReport, DatagenError> {
    let sidecar_file = sidecar_path(out);
    let settings = Sidecar::new(cfg, 0, 0);
    // A new file may go to a new folder (as `train --out-dir` makes its own).
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| DataError::io(dir, e))?;
    }
    let file_bytes = match std::fs::metadata(out) {
        Ok(m) => m.len(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
        Err(e) => return Err(DataError::io(out, e).into()),
    };
    let (first, start_bytes, dropped, appended_after) = match std::fs::read_to_string(&sidecar_file)
    {
        Ok(text) => {
            let recorded = Sidecar::parse(&text)
                .map_err(|why| DatagenError::BadSidecar(sidecar_file.clone(), why))?;
            if let Some((field, recorded, requested)) = recorded.mismatch(&settings) {
                return Err(DatagenError::Mismatch {
                    sidecar: sidecar_file,
                    field,
                    recorded,
                    requested,
                });
            }
            if file_bytes < recorded.bytes {
                return Err(DatagenError::ShortOutput {
                    path: out.to_path_buf(),
                    bytes: file_bytes,
                    recorded: recorded.bytes,
                });
            }
            (
                recorded.games_done,
                recorded.bytes,
                file_bytes - recorded.bytes,
                0,
            )
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if cfg.format == Format::Packed && !file_bytes.is_multiple_of(RECORD_BYTES as u64) {
                return Err(DataError::PartialRecord {
                    path: out.to_path_buf(),
                    bytes: file_bytes,
                }
                .into());
            }
            (0, file_bytes, 0, file_bytes)
        }
        Err(e) => return Err(DataError::io(&sidecar_file, e).into()),
    };
    // Check the openings before touching the file.
    parse_openings(cfg)?;
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(out)
        .map_err(|e| DataError::io(out, e))?;
    file.set_len(start_bytes)
        .and_then(|_| file.seek(SeekFrom::Start(start_bytes)))
        .map_err(|e| DataError::io(out, e))?;
    let mut state = Sidecar {
        games_done: first,
        bytes: start_bytes,
        ..settings
    };
    write_sidecar(&sidecar_file, &state)?;
    let mut report = play_games(
        cfg,
        first,
        &mut |game| {
            file.write_all(&game.bytes)
                .map_err(|e| DataError::io(out, e))?;
            state.games_done += 1;
            state.bytes += game.bytes.len() as u64;
            write_sidecar(&sidecar_file, &state)?;
            Ok(())
        },
        progress,
    )?;
    report.dropped_bytes = dropped;
    report.appended_after = appended_after;
    Ok(report)
}

/// Plays game number `n` to its end.
fn play_game(cfg: &DatagenConfig, openings: &[Position], n: u64, searcher: &mut Searcher) -> Game {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(cfg.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    // An opening and random plies that leave a game to play (retry otherwise).
    let mut pos = loop {
        let mut pos = openings[(rng.next_u64() % openings.len() as u64) as usize].clone();
        let mut ok = true;
        for _ in 0..cfg.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            pos.make_move(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
        if ok && !pos.legal_moves().is_empty() {
            break pos;
        }
    };
    searcher.clear();
    let limits = Limits {
        nodes: Some(cfg.nodes),
        multipv: 1,
        ..Limits::default()
    };
    let control = SearchControl::default();
    let mut kept = Vec::new();
    let (mut win_run, mut loss_run, mut draw_run) = (0, 0, 0);
    let mut ply = 0;
    let white_points = loop {
        if let Some(points) = game_over(&pos, ply) {
            break points;
        }
        if cfg.tablebase_adjudication {
            if let Some(points) = tablebase_verdict(&pos) {
                break points;
            }
        }
        let result = searcher.search(&pos, &limits, &control, &mut |_| {});
        let Some(best) = result.best else {
            break 1;
        };
        // The score from White's view; mates count as decisive scores.
        let score = result.info.as_ref().map(|i| match i.score {
            Score::Cp(v) => (v, false),
            Score::Mate(m) => (if m > 0 { 30_000 } else { -30_000 }, true),
        });
        let white_view = |v: i32| {
            if pos.side_to_move() == Color::White {
                v
            } else {
                -v
            }
        };
        if let Some((v, mate)) = score {
            let w = white_view(v);
            if !mate && filter::worth_learning(&pos, best, ply, w) {
                kept.push((pos.clone_without_history(), w));
            }
            win_run = if w >= WIN_SCORE { win_run + 1 } else { 0 };
            loss_run = if w <= -WIN_SCORE { loss_run + 1 } else { 0 };
            draw_run = if ply >= DRAW_MIN_PLY && w.abs() <= DRAW_SCORE {
                draw_run + 1
            } else {
                0
            };
            if win_run >= WIN_PLIES {
                break 2;
            }
            if loss_run >= WIN_PLIES {
                break 0;
            }
            if draw_run >= DRAW_PLIES {
                break 1;
            }
        }
        pos.make_move(best);
        ply += 1;
    };
    encode(cfg.format, &kept, white_points)
}

/// A game's kept positions in the output format.
fn encode(format: Format, kept: &[(Position, i32)], white_points: u8) -> Game {
    let mut bytes = Vec::new();
    match format {
        Format::Packed => {
            let result = [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin]
                [white_points as usize];
            bytes.reserve(kept.len() * RECORD_BYTES);
            for (pos, score) in kept {
                bytes.extend_from_slice(PackedPosition::new(pos, *score, result).as_bytes());
            }
        }
        Format::Text => {
            let result = ["0.0", "0.5", "1.0"][white_points as usize];
            for (pos, score) in kept {
                bytes.extend_from_slice(
                    format!("{} | {score} | {result}\n", pos.to_fen()).as_bytes(),
                );
            }
        }
    }
    Game {
        bytes,
        positions: kept.len(),
        white_points,
    }
}

/// The tables' result for White (2 win, 1 draw, 0 loss), when they know the position.
/// A cursed win or a blessed loss is a draw: the games are played under the fifty-move
/// rule.
fn tablebase_verdict(pos: &Position) -> Option<u8> {
    let for_mover = match crate::tablebase::probe_wdl(pos)? {
        Wdl::Win => 2,
        Wdl::Loss => 0,
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => 1,
    };
    Some(if pos.side_to_move() == Color::White {
        for_mover
    } else {
        2 - for_mover
    })
}

/// The result for White (2 win, 1 draw, 0 loss) when the game is over by the rules or
/// by length.
fn game_over(pos: &Position, ply: usize) -> Option<u8> {
    if pos.legal_moves().is_empty() {
        return Some(if !pos.in_check() {
            1
        } else if pos.side_to_move() == Color::White {
            0
        } else {
            2
        });
    }
    let drawn = pos.halfmove_clock() >= 100
        || pos.repetitions(2, usize::MAX)
        || pos.insufficient_material()
        || ply >= MAX_GAME_PLIES;
    drawn.then_some(1)
}
